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
//! - [`http`]: admission (Host, Origin, framing, body), routing, the embedded files and the
//!   replies;
//! - [`net`]: the connections, their cap and their timeouts.

pub mod game;
pub mod http;
pub mod hub;
pub mod net;
pub mod setup;
pub mod sgf;
pub mod store;

use crate::client::interrupt;
use http::{Hosts, Server};
use net::Connections;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};
pub use store::Bounds;

/// The runtime's worker threads: they only move bytes and wait; routing runs on its blocking
/// pool and searches on each engine's own thread.
const WORKERS: usize = 2;

/// Routing calls running at once on the blocking pool (each holds at most one game's lock
/// briefly).
const MAX_BLOCKING: usize = 32;

/// How often the server looks at the stop flag.
const POLL: Duration = Duration::from_millis(100);

/// How long open connections get to finish their requests when the server stops.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Each game's transposition table, in MB (the games held times this bounds the memory).
pub const GAME_HASH_MB: usize = 8;

/// Where to listen and how much to allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The address to bind (`127.0.0.1` unless told otherwise).
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Further names the server answers to (`--allow-host`).
    pub allow_hosts: Vec<String>,
    /// The server's bounds.
    pub bounds: Bounds,
}

/// Runs the server until Ctrl-C or SIGTERM; returns the exit status.
pub fn run(config: &Config) -> ExitCode {
    interrupt::install();
    net::raise_descriptor_limit();
    let fail = |message: std::fmt::Arguments| {
        crate::io::complain(format_args!("kinrow serve: {message}"));
        ExitCode::from(1)
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .max_blocking_threads(MAX_BLOCKING)
        .thread_name("kinrow-serve")
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => return fail(format_args!("cannot start: {e}")),
    };
    let listener = match std::net::TcpListener::bind((config.host.as_str(), config.port))
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
    {
        Ok(listener) => listener,
        Err(e) => {
            return fail(format_args!(
                "cannot listen on {}:{}: {e}",
                config.host, config.port
            ));
        }
    };
    let bound = match listener.local_addr() {
        Ok(bound) => bound,
        Err(e) => return fail(format_args!("the listening socket has no address: {e}")),
    };
    let store = match store::Store::start(config.bounds) {
        Ok(store) => store,
        Err(e) => return fail(format_args!("cannot start: {e}")),
    };
    // The first line says where to point a browser (and tests read the port from it).
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "{}", address_line(bound)).and_then(|()| stdout.flush());
    let server = Arc::new(Server {
        store: Arc::clone(&store),
        streams: Arc::new(AtomicUsize::new(0)),
        hosts: Hosts::new(&config.host, &config.allow_hosts),
    });
    let served = runtime.block_on(serve(listener, server));
    store.close();
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    if let Err(e) = served {
        return fail(format_args!("{e}"));
    }
    log::info!("kinrow serve: stopped");
    let _ = writeln!(stdout, "kinrow serve: stopped").and_then(|()| stdout.flush());
    ExitCode::SUCCESS
}

/// Serves until an interrupt, then stops accepting, ends the games' streams and gives the
/// open connections [`SHUTDOWN_GRACE`] to finish.
async fn serve(listener: std::net::TcpListener, server: Arc<Server>) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let connections = Arc::new(Connections::default());
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let app = http::router(Arc::clone(&server));
    let accepting = tokio::spawn(net::accept(
        listener,
        app,
        Arc::clone(&connections),
        stopped,
    ));
    while !interrupt::interrupted() {
        tokio::time::sleep(POLL).await;
    }
    let _ = stop.send(true);
    let _ = accepting.await;
    // Ending every game ends its event streams, the only responses that never finish.
    let store = Arc::clone(&server.store);
    let _ = tokio::task::spawn_blocking(move || store.close()).await;
    let deadline = Instant::now() + SHUTDOWN_GRACE;
    while connections.count() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// The first line: where to point a browser. A server listening on every address is
/// reached here through the loopback address.
fn address_line(bound: SocketAddr) -> String {
    let reach = match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), bound.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), bound.port())
        }
        _ => bound,
    };
    let everywhere = if reach == bound {
        String::new()
    } else {
        format!(
            "; it listens on every address ({bound}): from another machine, use this \
             machine's address and port {}",
            bound.port()
        )
    };
    format!("kinrow serve: open http://{reach}/ in a browser (Ctrl-C stops){everywhere}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_line_names_a_reachable_address() {
        // The addresses below are fixed, well-formed literals.
        let line = |a: &str| address_line(a.parse().expect("an address"));
        assert_eq!(
            line("127.0.0.1:8080"),
            "kinrow serve: open http://127.0.0.1:8080/ in a browser (Ctrl-C stops)"
        );
        assert!(
            line("0.0.0.0:80").starts_with(
                "kinrow serve: open http://127.0.0.1:80/ in a browser (Ctrl-C stops); it \
                 listens on every address (0.0.0.0:80)"
            ),
            "{}",
            line("0.0.0.0:80")
        );
        assert!(line("[::]:9").starts_with("kinrow serve: open http://[::1]:9/"));
        assert!(line("[::1]:9").starts_with("kinrow serve: open http://[::1]:9/ in"));
    }
}
