//! `kinrow serve`: play in the browser. A small HTTP server on this machine sends one page
//! (HTML, CSS and JavaScript embedded in the binary, nothing fetched from elsewhere) and
//! answers its JSON API; each game searches with its own [`crate::engine::Engine`] and sends
//! the engine's thinking over Server-Sent Events. `docs/serve.md` documents the API.
//!
//! - [`setup`]: a new game's set-up, checked;
//! - [`game`]: one game, its moves, undo, hints, and its engine;
//! - [`hub`]: a game's event streams;
//! - [`store`]: the games held, bounded, and the driver thread that moves the computer
//!   players;
//! - [`sgf`]: the game record;
//! - [`http`]: routing, the embedded files and the replies.

pub mod game;
pub mod http;
pub mod hub;
pub mod setup;
pub mod sgf;
pub mod store;

use crate::client::interrupt;
use http::Server;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
pub use store::Bounds;

/// Threads answering requests (event streams get threads of their own).
const WORKERS: usize = 4;

/// How often the threads look at the stop flag.
const POLL: Duration = Duration::from_millis(100);

/// Where to listen and how much to allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The address to bind (`127.0.0.1` unless told otherwise).
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// The server's bounds.
    pub bounds: Bounds,
}

/// Runs the server until Ctrl-C or SIGTERM; returns the exit status.
pub fn run(config: &Config) -> ExitCode {
    interrupt::install();
    let address = format!("{}:{}", config.host, config.port);
    let listener = match tiny_http::Server::http(&address) {
        Ok(listener) => Arc::new(listener),
        Err(e) => {
            crate::io::complain(format_args!(
                "kinrow serve: cannot listen on {address}: {e}"
            ));
            return ExitCode::from(1);
        }
    };
    let Some(bound) = listener.server_addr().to_ip() else {
        crate::io::complain("kinrow serve: the server is not on an IP address");
        return ExitCode::from(1);
    };
    // The first line says where to point a browser (and tests read the port from it).
    let mut stdout = std::io::stdout();
    let _ = writeln!(
        stdout,
        "kinrow serve: open http://{bound}/ in a browser (Ctrl-C stops)"
    )
    .and_then(|()| stdout.flush());
    let store = match store::Store::start(config.bounds) {
        Ok(store) => store,
        Err(e) => {
            crate::io::complain(format_args!("kinrow serve: cannot start: {e}"));
            return ExitCode::from(1);
        }
    };
    let server = Arc::new(Server {
        store,
        streams: AtomicUsize::new(0),
    });
    let stopping = Arc::new(AtomicBool::new(false));
    for n in 0..WORKERS {
        let (listener, server, stopping) = (
            Arc::clone(&listener),
            Arc::clone(&server),
            Arc::clone(&stopping),
        );
        let spawned = std::thread::Builder::new()
            .name(format!("kinrow-serve-{n}"))
            .spawn(move || work(&listener, &server, &stopping));
        if let Err(e) = spawned {
            crate::io::complain(format_args!("kinrow serve: cannot start a thread: {e}"));
            return ExitCode::from(1);
        }
    }
    while !interrupt::interrupted() {
        std::thread::sleep(POLL);
    }
    stopping.store(true, Ordering::SeqCst);
    server.store.close();
    log::info!("kinrow serve: stopped");
    let _ = writeln!(stdout, "kinrow serve: stopped").and_then(|()| stdout.flush());
    ExitCode::SUCCESS
}

/// Answers requests until the server stops. A request whose handler panics (a bug) loses
/// its connection, not the thread.
fn work(listener: &tiny_http::Server, server: &Arc<Server>, stopping: &AtomicBool) {
    while !stopping.load(Ordering::SeqCst) {
        let request = match listener.recv_timeout(POLL) {
            Ok(Some(request)) => request,
            Ok(None) => continue,
            Err(e) => {
                log::warn!("kinrow serve: a request could not be received: {e}");
                continue;
            }
        };
        let streams = server.streams.load(Ordering::SeqCst);
        let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let path = request.url().split(['?', '#']).next().unwrap_or("");
            if path.ends_with("/events") && streams < http::MAX_STREAMS {
                // An event stream holds its thread for as long as it is open.
                let server = Arc::clone(server);
                let spawned = std::thread::Builder::new()
                    .name("kinrow-serve-events".into())
                    .spawn(move || http::handle(&server, request));
                if let Err(e) = spawned {
                    log::warn!("kinrow serve: no thread for an event stream: {e}");
                }
            } else {
                http::handle(server, request);
            }
        }));
        if handled.is_err() {
            log::error!("kinrow serve: a request's handler failed; its connection was dropped");
        }
    }
}

/// Each game's transposition table, in MB (the games held times this bounds the memory).
pub const GAME_HASH_MB: usize = 8;
