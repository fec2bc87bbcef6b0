//! Ctrl-C (and SIGTERM, SIGHUP) as a flag that the match and the terminal game poll.
//!
//! Why a signal handler at all: a process killed by SIGINT cannot reap its children, and an
//! orphan is only reaped if the system's pid 1 does it; in containers it often does not (on
//! the development machine it does not), so every engine of an interrupted match would stay
//! behind as a zombie, and an engine that ignores both SIGINT and end of input would stay
//! behind running. With the flag, the referee kills and waits for every child itself, prints
//! the score so far and exits with status 130.
//!
//! Rust's standard library has no signal API, so `signal(2)` is declared here against the C
//! library that std already links: no new dependency. The handler only stores to an atomic
//! and restores the default action, both async-signal-safe; a second Ctrl-C therefore ends
//! the process at once, should the orderly shutdown ever hang.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether an interrupt has arrived since [`install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

#[cfg(unix)]
mod sys {
    use std::ffi::c_int;

    /// The same numbers on every Unix.
    pub const SIGNALS: [c_int; 3] = [1, 2, 15];
    /// `SIG_DFL`, the default action.
    pub const DEFAULT: usize = 0;

    unsafe extern "C" {
        /// `sighandler_t signal(int signum, sighandler_t handler)`, with the handler passed as
        /// an address.
        pub fn signal(signum: c_int, handler: usize) -> usize;
    }

    pub extern "C" fn on_signal(signum: c_int) {
        super::INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
        // SAFETY: signal() is async-signal-safe (POSIX.1-2008), and SIG_DFL is a valid action.
        unsafe {
            signal(signum, DEFAULT);
        }
    }
}

/// Routes SIGINT, SIGTERM and SIGHUP to the flag. Call once, before starting children.
pub fn install() {
    #[cfg(unix)]
    for signum in sys::SIGNALS {
        let handler: extern "C" fn(std::ffi::c_int) = sys::on_signal;
        // SAFETY: the handler is an `extern "C" fn(c_int)` that only touches an atomic and
        // calls an async-signal-safe function, as signal(2) requires.
        unsafe {
            sys::signal(signum, handler as usize);
        }
    }
}
