//! The connections: accepted under a cap, each served by hyper's HTTP/1 connection on the
//! tokio runtime, watched for idleness, and ended gracefully when the server stops.
//!
//! The bounds, each against a way a client can tie a server up:
//! - at most [`MAX_CONNECTIONS`] connections. One more makes room by closing the connection
//!   that has been idle longest (no request in progress, no stream open); when every one is
//!   busy, the newcomer gets a `503` and is closed (no thread, no task kept for it);
//! - a request's head must arrive within [`HEADER_TIMEOUT`] and fit in [`MAX_HEADER_BYTES`]
//!   (hyper answers 431 beyond it, and 400 to any request line or header it cannot
//!   parse, `HTTP/2.0` and bad `Content-Length` values included);
//! - a connection where no byte has moved either way for [`IDLE_TIMEOUT`] is closed: a client
//!   that stops sending in the middle of a request, and one that stops reading its replies
//!   (its writes no longer progress); an idle keep-alive connection goes sooner, when
//!   hyper's [`HEADER_TIMEOUT`] for the next request's head runs out;
//! - errors on accept (out of descriptors) pause the loop briefly instead of ending it.

use axum::body::{Body, Bytes};
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 256;

/// The longest a connection may be silent both ways.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(20);

/// The longest a request's head (request line and headers) may take to arrive.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// The largest request head read. The page's requests carry a few hundred bytes of
/// headers; cookies of other applications on `localhost` can add a few kilobytes.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// The largest buffer a connection keeps for reading (hyper's minimum is 8 KiB).
const MAX_BUFFER_BYTES: usize = 64 * 1024;

/// How long a connection over the cap waits for an idle one to be closed for it.
const ROOM_WAIT: Duration = Duration::from_millis(500);

/// How often a connection waiting for room asks another idle one to close.
const EVICT_AGAIN: Duration = Duration::from_millis(50);

/// Connections over the cap that may wait for room at once (each has asked an idle one to
/// close); beyond that they are refused at once. A burst of idle connections must not
/// fill these places faster than the connections they close go.
const MAX_WAITING: usize = 512;

/// The descriptors the server wants: one per connection, served or waiting, and room for
/// the games' engines and the runtime.
pub const WANTED_DESCRIPTORS: u64 = 2048;

/// How long the accept loop pauses after an accept error (typically: no descriptor left).
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// How often a connection checks its idleness.
const WATCH_TICK: Duration = Duration::from_millis(500);

/// The reply to a connection refused for want of room.
const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
Connection: close\r\nContent-Length: 58\r\n\r\n{\"error\":\"the server has too many connections; try again\"}";

/// What the server knows of one connection: when a byte last moved, how many of its
/// requests (an open event stream included) are in progress, and whether a write waits for
/// the client to read.
struct Activity {
    epoch: Instant,
    last_ms: AtomicU64,
    busy: AtomicUsize,
    write_waiting: AtomicBool,
    evicted: AtomicBool,
    evict: Notify,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            epoch: Instant::now(),
            last_ms: AtomicU64::new(0),
            busy: AtomicUsize::new(0),
            write_waiting: AtomicBool::new(false),
            evicted: AtomicBool::new(false),
            evict: Notify::new(),
        }
    }

    fn touch(&self) {
        let ms = self.epoch.elapsed().as_millis() as u64;
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        let last = Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
        self.epoch.elapsed().saturating_sub(last)
    }

    /// Marks a request (or an event stream) in progress until the mark is dropped.
    fn enter(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, Ordering::SeqCst);
        Busy(Arc::clone(self))
    }

    /// Whether a request is in progress or a reply's bytes wait to be written: closing the
    /// connection now would cut a reply.
    fn is_busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst) > 0 || self.write_waiting.load(Ordering::SeqCst)
    }

    /// Notes how a write to the socket went: bytes that the socket would not take wait.
    fn wrote(&self, polled: &Poll<io::Result<usize>>) {
        match polled {
            Poll::Ready(Ok(n)) => {
                if *n > 0 {
                    self.touch();
                }
                self.write_waiting.store(false, Ordering::SeqCst);
            }
            Poll::Pending => self.write_waiting.store(true, Ordering::SeqCst),
            Poll::Ready(Err(_)) => self.write_waiting.store(false, Ordering::SeqCst),
        }
    }
}

/// A request in progress on a connection, for as long as it lives.
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The connections open, and the room for more.
pub struct Connections {
    room: Arc<Semaphore>,
    waiting: Arc<Semaphore>,
    open: Mutex<Vec<Arc<Activity>>>,
}

impl Default for Connections {
    fn default() -> Connections {
        Connections {
            room: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            waiting: Arc::new(Semaphore::new(MAX_WAITING)),
            open: Mutex::new(Vec::new()),
        }
    }
}

impl Connections {
    fn open(&self) -> MutexGuard<'_, Vec<Arc<Activity>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Connections being served now.
    pub fn count(&self) -> usize {
        MAX_CONNECTIONS - self.room.available_permits()
    }

    /// Asks the connection idle longest, with nothing in progress and not asked already, to
    /// close.
    fn evict_idlest(&self) {
        let open = self.open();
        let idlest = open
            .iter()
            .filter(|a| !a.is_busy() && !a.evicted.load(Ordering::SeqCst))
            .max_by_key(|a| a.idle_for());
        if let Some(activity) = idlest {
            activity.evicted.store(true, Ordering::SeqCst);
            activity.evict.notify_one();
        }
    }

    /// A new connection's activity, listed until the returned guard is dropped: however the
    /// connection's task ends (its end, a panic, the runtime shutting down), it leaves the
    /// list, which eviction scans.
    fn register(self: &Arc<Self>) -> Registered {
        let activity = Arc::new(Activity::new());
        activity.touch();
        self.open().push(Arc::clone(&activity));
        Registered {
            connections: Arc::clone(self),
            activity,
        }
    }
}

/// A connection listed in [`Connections`], for as long as this lives.
struct Registered {
    connections: Arc<Connections>,
    activity: Arc<Activity>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.connections
            .open()
            .retain(|a| !Arc::ptr_eq(a, &self.activity));
    }
}

/// A response body that keeps its connection marked busy until hyper has taken the last of
/// it and dropped it; from there until the socket has taken hyper's last bytes, the
/// connection counts as busy by [`Activity::wrote`]. So an eviction never cuts a reply
/// between the handler's return and its last byte.
struct Sending {
    body: Body,
    _busy: Busy,
}

impl HttpBody for Sending {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A connection's socket, noting every byte that moves.
struct Tracked {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.activity.wrote(&polled);
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.activity.wrote(&polled);
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Raises the soft limit on open descriptors to [`WANTED_DESCRIPTORS`] where the hard limit
/// allows (the usual soft limit, 1,024, is too few for the connections allowed).
pub fn raise_descriptor_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let current = limit.current.unwrap_or(u64::MAX);
    let wanted = limit
        .maximum
        .map_or(WANTED_DESCRIPTORS, |max| max.min(WANTED_DESCRIPTORS));
    if current < wanted {
        let raised = rustix::process::Rlimit {
            current: Some(wanted),
            maximum: limit.maximum,
        };
        if let Err(e) = setrlimit(Resource::Nofile, raised) {
            log::warn!("kinrow serve: cannot raise the descriptor limit from {current}: {e}");
        }
    }
}

/// Accepts connections until `stop` turns true, serving each with `app`.
pub async fn accept(
    listener: TcpListener,
    app: axum::Router,
    connections: Arc<Connections>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.changed() => return,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                log::warn!("kinrow serve: cannot accept a connection: {e}");
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        let (app, connections, stop) = (app.clone(), Arc::clone(&connections), stop.clone());
        match Arc::clone(&connections.room).try_acquire_owned() {
            Ok(permit) => {
                tokio::spawn(serve(stream, app, connections, permit, stop));
            }
            Err(_) => {
                let Ok(waiting) = Arc::clone(&connections.waiting).try_acquire_owned() else {
                    refuse(&stream);
                    continue;
                };
                tokio::spawn(async move {
                    let permit = make_room(&connections).await;
                    drop(waiting);
                    match permit {
                        Some(permit) => serve(stream, app, connections, permit, stop).await,
                        None => refuse(&stream),
                    }
                });
            }
        }
    }
}

/// A place for a connection over the cap: asks the idlest connection to close, and again
/// every [`EVICT_AGAIN`] while others waiting before it take the places freed, for at most
/// [`ROOM_WAIT`].
async fn make_room(connections: &Connections) -> Option<OwnedSemaphorePermit> {
    let start = Instant::now();
    while start.elapsed() < ROOM_WAIT {
        connections.evict_idlest();
        let room = Arc::clone(&connections.room);
        if let Ok(Ok(permit)) = tokio::time::timeout(EVICT_AGAIN, room.acquire_owned()).await {
            return Some(permit);
        }
    }
    None
}

/// Tells a connection there is no room, if its socket takes the reply at once, and closes it.
fn refuse(stream: &TcpStream) {
    log::debug!("kinrow serve: a connection was refused: too many open");
    let _ = stream.try_write(REFUSAL);
}

/// Serves one connection until it closes, idles out, is evicted, or the server stops.
async fn serve(
    stream: TcpStream,
    app: axum::Router,
    connections: Arc<Connections>,
    permit: OwnedSemaphorePermit,
    mut stop: watch::Receiver<bool>,
) {
    let registered = connections.register();
    let activity = Arc::clone(&registered.activity);
    let io = hyper_util::rt::TokioIo::new(Tracked {
        stream,
        activity: Arc::clone(&activity),
    });
    let marked = Arc::clone(&activity);
    let service = hyper::service::service_fn(move |request| {
        let busy = marked.enter();
        let reply = tower::ServiceExt::oneshot(app.clone(), request);
        async move {
            let response = reply.await?;
            Ok::<_, Infallible>(response.map(|body| Body::new(Sending { body, _busy: busy })))
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_header_size(MAX_HEADER_BYTES)
        .max_buf_size(MAX_BUFFER_BYTES)
        .keep_alive(true);
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);
    let mut stopping = *stop.borrow();
    if stopping {
        connection.as_mut().graceful_shutdown();
    }
    loop {
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(e) = served {
                    log::debug!("kinrow serve: a connection ended: {e}");
                }
                break;
            }
            _ = activity.evict.notified() => break,
            _ = stop.changed(), if !stopping => {
                stopping = true;
                connection.as_mut().graceful_shutdown();
            }
            () = tokio::time::sleep(WATCH_TICK) => {
                if activity.idle_for() > IDLE_TIMEOUT {
                    break;
                }
            }
        }
    }
    drop(registered);
    drop(permit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_keeps_its_connection_busy_until_its_body_is_dropped() {
        let activity = Arc::new(Activity::new());
        let body = Sending {
            body: Body::from("the reply"),
            _busy: activity.enter(),
        };
        // The handler has returned; hyper still holds the body to send.
        assert!(activity.is_busy());
        drop(body);
        assert!(!activity.is_busy());
    }

    #[test]
    fn a_write_the_socket_would_not_take_keeps_its_connection_busy() {
        let activity = Arc::new(Activity::new());
        activity.wrote(&Poll::Pending);
        assert!(activity.is_busy());
        activity.wrote(&Poll::Ready(Ok(5)));
        assert!(!activity.is_busy());
    }

    #[test]
    fn a_connection_leaves_the_list_however_its_task_ends() {
        let connections = Arc::new(Connections::default());
        let task = std::thread::spawn({
            let connections = Arc::clone(&connections);
            move || {
                let _registered = connections.register();
                assert_eq!(connections.open().len(), 1);
                panic!("a connection's task fails");
            }
        });
        assert!(task.join().is_err());
        assert!(connections.open().is_empty());
    }

    #[test]
    fn the_refusal_declares_its_body_length() {
        // REFUSAL is a constant of this file; a failure here is the bug the test looks for.
        let text = std::str::from_utf8(REFUSAL).expect("the refusal is ASCII");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let declared = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|n| n.parse::<usize>().ok());
        assert_eq!(declared, Some(body.len()));
    }
}
