//! Ctrl-C (and SIGTERM, SIGHUP) as a flag that the match and the terminal game poll.
//!
//! Why a signal handler at all: a process killed by SIGINT cannot reap its children, and an
//! orphan is only reaped if the system's pid 1 does it; in containers it often does not, so
//! every engine of an interrupted match would stay behind as a zombie, and an engine that
//! ignores both SIGINT and end of input would stay behind running. With the flag, the
//! referee kills and waits for every child itself, prints the score so far and exits with
//! status 130.
//!
//! The handlers come from `signal-hook`, which does the async-signal-safe part; a second
//! signal ends the process at once (status 130), should the orderly shutdown ever hang.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::flag;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The signals that end a match or a game in order: Ctrl-C, a polite kill, and the terminal
/// going away. (SIGQUIT keeps its default, a core dump, for those who ask for one.)
const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// The exit status of a process ended by a second interrupt, as shells report SIGINT.
const SECOND_INTERRUPT_STATUS: i32 = 130;

fn flag_cell() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Whether an interrupt has arrived since [`install`].
pub fn interrupted() -> bool {
    flag_cell().load(Ordering::SeqCst)
}

/// Routes SIGINT, SIGTERM and SIGHUP to the flag. Call once, before starting children.
/// If the handlers cannot be installed, the signals keep their default action (the process
/// ends at once), which is logged.
pub fn install() {
    let flag = flag_cell();
    for signal in SIGNALS {
        // The conditional shutdown is registered first, so that it sees the flag as it was
        // before this signal: set only by an earlier one.
        let installed =
            flag::register_conditional_shutdown(signal, SECOND_INTERRUPT_STATUS, Arc::clone(flag))
                .and_then(|_| flag::register(signal, Arc::clone(flag)));
        if let Err(e) = installed {
            log::warn!("cannot handle signal {signal}: {e}; it keeps its default action");
        }
    }
}
