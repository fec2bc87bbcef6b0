//! The HTTP side: requests admitted (Host, Origin, framing, body size), routed to the page's
//! embedded files and to the JSON API, and the replies made into responses. Routing
//! ([`route`]) is a function of the method, the path and the body, and runs on the runtime's
//! blocking pool, since it takes a game's lock (whose holder may be waiting for a search to
//! stop). The connections themselves are [`super::net`]'s.

use super::game::GameError;
use super::hub::Message;
use super::setup;
use super::store::{Store, lock};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::mpsc::Receiver;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

/// The largest request body read; the API's bodies are a few dozen bytes.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// Event streams open at once, over all games.
pub const MAX_STREAMS: usize = 64;

/// The longest a request body may take to arrive (a slow body ties up nothing else, but
/// holds its connection).
const BODY_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest a request may take to be answered, its body included (an event stream's
/// response starts at once; its events are not counted).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How often an idle event stream sends a comment, so that proxies keep it open.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// How soon a browser reconnects a stream that broke.
const RETRY: Duration = Duration::from_millis(1000);

/// The page's policy: its own files only, and no page of another site may frame it.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The page, its script and its style sheet: the only files the server sends.
const ASSETS: [(&str, &str, &str); 3] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
];

/// What to send back.
pub enum Reply {
    /// A JSON document with its status.
    Json(u16, Value),
    /// An embedded file.
    Asset(&'static str, &'static str),
    /// A game record to download, with its file name.
    Download(String, String),
    /// No content (204).
    Empty,
    /// A stream of events.
    Events(EventStream),
}

/// A game's events for one client, holding one of the [`MAX_STREAMS`] slots until it is
/// dropped: when the game ends the stream, or as soon as the client's connection closes.
pub struct EventStream {
    events: Receiver<Message>,
    _slot: StreamSlot,
}

/// One of the [`MAX_STREAMS`] slots, given back when dropped.
struct StreamSlot(Arc<AtomicUsize>);

impl StreamSlot {
    fn take(open: &Arc<AtomicUsize>) -> Option<StreamSlot> {
        open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < MAX_STREAMS).then_some(n + 1)
        })
        .ok()
        .map(|_| StreamSlot(Arc::clone(open)))
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A JSON error reply: `{"error": message}`.
pub fn error(status: u16, message: impl std::fmt::Display) -> Reply {
    Reply::Json(status, json!({ "error": message.to_string() }))
}

impl From<GameError> for Reply {
    fn from(e: GameError) -> Reply {
        let status = match e {
            GameError::Invalid(_) => 400,
            GameError::Conflict(_) => 409,
            GameError::Busy => 503,
        };
        error(status, e)
    }
}

/// The names a request's `Host` may give: the DNS names this server answers to. A page
/// served from any other name (a DNS-rebinding attack: a name of the attacker's that
/// resolves to this machine) is refused. An IP address in `Host` cannot be rebound, so
/// when the server listens on every address (`0.0.0.0`, `::`), any address is accepted.
#[derive(Clone, Debug)]
pub struct Hosts {
    names: Vec<String>,
    any_address: bool,
}

impl Hosts {
    /// The listen address `listen`, `localhost`, `127.0.0.1`, `[::1]` and `extra`.
    pub fn new(listen: &str, extra: &[String]) -> Hosts {
        let listen_ip = listen.trim_matches(['[', ']']).parse::<IpAddr>().ok();
        let mut names: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
            .iter()
            .map(|s| (*s).to_string())
            .chain(std::iter::once(match listen_ip {
                Some(IpAddr::V6(ip)) => format!("[{ip}]"),
                Some(IpAddr::V4(ip)) => ip.to_string(),
                None => normal_name(listen),
            }))
            .chain(extra.iter().map(|h| normal_name(h)))
            .collect();
        names.dedup();
        Hosts {
            names,
            any_address: listen_ip.is_some_and(|ip| ip.is_unspecified()),
        }
    }

    /// Whether a request whose `Host` is `value` (a name, with or without a port) is
    /// answered.
    pub fn allows(&self, value: &str) -> bool {
        let name = host_name(value);
        if self.names.contains(&name) {
            return true;
        }
        self.any_address && name.trim_matches(['[', ']']).parse::<IpAddr>().is_ok()
    }
}

/// A host name as compared: lower case, without a trailing dot.
fn normal_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// The name in a `Host` value, without its port (`[::1]:8080` gives `[::1]`).
fn host_name(value: &str) -> String {
    let value = value.trim();
    let name = if value.starts_with('[') {
        value.find(']').map_or(value, |end| &value[..=end])
    } else {
        match value.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => value,
        }
    };
    normal_name(name)
}

/// The server's state shared by the request handlers.
pub struct Server {
    /// The games.
    pub store: Arc<Store>,
    /// Event streams open now.
    pub streams: Arc<AtomicUsize>,
    /// The names requests may be addressed to.
    pub hosts: Hosts,
}

/// The router: every request goes to [`handle`], under the layers that bound its time and
/// set the headers every response carries.
pub fn router(server: Arc<Server>) -> axum::Router {
    let always = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
    };
    axum::Router::new()
        .fallback(handle)
        .with_state(server)
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(always(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(always(header::X_FRAME_OPTIONS, "DENY"))
        .layer(always(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(always(header::CACHE_CONTROL, "no-store"))
}

/// The request's method as routing sees it: HEAD is GET without the body.
fn method_name(method: &Method) -> &'static str {
    match *method {
        Method::GET | Method::HEAD => "GET",
        Method::POST => "POST",
        Method::DELETE => "DELETE",
        _ => "OTHER",
    }
}

/// Why a request is refused before it is routed, if it is: a `Host` this server does not
/// answer to, a page of another site, or a body framed otherwise than by `Content-Length`.
fn refusal(server: &Server, headers: &HeaderMap) -> Option<(Reply, bool)> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let Some(host) = text(header::HOST) else {
        return Some((error(400, "the request has no Host header"), false));
    };
    if !server.hosts.allows(host) {
        let message = format!(
            "this server does not answer to the name '{}' (kinrow serve --allow-host NAME \
             adds one)",
            crate::text::excerpt(&host_name(host))
        );
        return Some((error(421, message), false));
    }
    if let Some(origin) = text(header::ORIGIN) {
        // A browser sends Origin with its page's address: refused unless it is this server,
        // so that no other page the person has open can play or start games here.
        if origin.split_once("://").map(|(_, o)| o) != Some(host) {
            return Some((
                error(403, "requests from pages of other sites are refused"),
                false,
            ));
        }
    }
    if headers.contains_key(header::TRANSFER_ENCODING) {
        // Bodies are a few bytes with a Content-Length; a chunked one, or one framed both
        // ways (which a proxy may read otherwise), is refused and its connection closed.
        return Some((
            error(
                411,
                "request bodies must have a Content-Length, not Transfer-Encoding",
            ),
            true,
        ));
    }
    None
}

/// Reads the request's body, at most [`MAX_BODY_BYTES`], within [`BODY_TIMEOUT`]; a
/// refusal closes the connection, whose unread body would otherwise have to be drained.
async fn read_body(headers: &HeaderMap, body: Body) -> Result<Bytes, Reply> {
    let too_large = || {
        error(
            413,
            format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        // hyper holds a body to its Content-Length, checked above, and Transfer-Encoding is
        // refused: the limit here is a second guard, whose error reads as any other.
        Ok(Err(e)) => Err(error(
            400,
            format!("the request body could not be read: {e}"),
        )),
        Err(_) => Err(error(
            408,
            format!(
                "the request body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        )),
    }
}

/// Answers one request.
async fn handle(State(server): State<Arc<Server>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let method = method_name(&parts.method);
    let url = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    log::debug!("{method} {url}");
    if let Some((reply, close)) = refusal(&server, &parts.headers) {
        return respond(reply, close);
    }
    let body = if method == "POST" {
        match read_body(&parts.headers, body).await {
            Ok(body) => body,
            Err(reply) => return respond(reply, true),
        }
    } else {
        Bytes::new()
    };
    let routed = tokio::task::spawn_blocking(move || route(&server, method, &url, &body)).await;
    let reply = routed.unwrap_or_else(|e| {
        log::error!("kinrow serve: a request's handler failed: {e}");
        error(500, "the request's handler failed")
    });
    respond(reply, false)
}

/// The response for `reply`; `close` ends the connection after it.
fn respond(reply: Reply, close: bool) -> Response {
    let mut response = match reply {
        Reply::Json(status, value) => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            [(header::CONTENT_TYPE, "application/json")],
            value.to_string(),
        )
            .into_response(),
        Reply::Asset(content_type, text) => {
            ([(header::CONTENT_TYPE, content_type)], text).into_response()
        }
        Reply::Download(name, text) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-go-sgf; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{name}\""),
                ),
            ],
            text,
        )
            .into_response(),
        Reply::Empty => StatusCode::NO_CONTENT.into_response(),
        Reply::Events(stream) => Sse::new(events(stream))
            .keep_alive(KeepAlive::new().interval(KEEPALIVE).text("keepalive"))
            .into_response(),
    };
    if close {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// The events of `stream` as SSE, led by the reconnection delay. The stream (its slot) is
/// dropped when the game ends it or the client goes; until then its body keeps the
/// connection busy (see `net::Sending`).
fn events(stream: EventStream) -> impl Stream<Item = Result<Event, Infallible>> {
    let first = stream::once(async { Ok(Event::default().retry(RETRY)) });
    let rest = stream::unfold(stream, |mut stream| async move {
        let message = stream.events.recv().await?;
        let event = Event::default().event(message.event).data(message.data);
        Some((Ok(event), stream))
    });
    first.chain(rest)
}

/// The reply to `method` on `url` with `body`.
pub fn route(server: &Server, method: &str, url: &str, body: &[u8]) -> Reply {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = if path == "/index.html" { "/" } else { path };
    if let Some((_, content_type, text)) = ASSETS.iter().find(|(p, _, _)| *p == path) {
        return match method {
            "GET" => Reply::Asset(content_type, text),
            _ => not_allowed(method, path),
        };
    }
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["", "api", "games"] => match method {
            "POST" => create(server, body),
            _ => not_allowed(method, path),
        },
        ["", "api", "games", id, rest @ ..] => {
            let Some(id) = id.parse::<u64>().ok() else {
                return error(404, format!("no game '{}'", crate::text::excerpt(id)));
            };
            game_route(server, method, path, id, rest, body)
        }
        _ => error(404, format!("nothing at '{}'", crate::text::excerpt(path))),
    }
}

fn not_allowed(method: &str, path: &str) -> Reply {
    error(
        405,
        format!(
            "{method} is not allowed on '{}'",
            crate::text::excerpt(path)
        ),
    )
}

/// `POST /api/games`.
fn create(server: &Server, body: &[u8]) -> Reply {
    let setup = match parse_json(body).and_then(|v| {
        setup::parse(&v, server.store.bounds().movetime_ms).map_err(|e| e.to_string())
    }) {
        Ok(setup) => setup,
        Err(message) => return error(400, message),
    };
    match server.store.create(setup) {
        Ok(game) => Reply::Json(201, lock(&game).state()),
        Err(e) => error(503, e),
    }
}

/// A request body as JSON; an empty body is an empty object.
fn parse_json(body: &[u8]) -> Result<Value, String> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(body).map_err(|e| format!("the request body is not valid JSON: {e}"))
}

/// The routes under `/api/games/{id}`.
fn game_route(
    server: &Server,
    method: &str,
    path: &str,
    id: u64,
    rest: &[&str],
    body: &[u8],
) -> Reply {
    let Some(shared) = server.store.get(id) else {
        return error(
            404,
            format!("no game {id} (it may have ended to make room)"),
        );
    };
    if method == "DELETE" && rest.is_empty() {
        server.store.remove(id);
        return Reply::Empty;
    }
    let mut game = lock(&shared);
    game.visit();
    let done = |result: Result<(), GameError>, game: &super::game::Game| match result {
        Ok(()) => Reply::Json(200, game.state()),
        Err(e) => Reply::from(e),
    };
    match (method, rest) {
        ("GET", []) => Reply::Json(200, game.state()),
        ("POST", ["move"]) => {
            let square = parse_json(body).and_then(|v| match v.get("square") {
                Some(Value::String(s)) => Ok(s.clone()),
                _ => Err("a move is {\"square\": \"b2\"}".to_string()),
            });
            match square {
                Ok(square) => {
                    let result = game.play(&square);
                    done(result, &game)
                }
                Err(message) => error(400, message),
            }
        }
        ("POST", ["undo"]) => {
            let result = game.undo();
            done(result, &game)
        }
        ("POST", ["hint"]) => {
            let result = game.hint();
            done(result, &game)
        }
        ("GET", ["sgf"]) => Reply::Download(
            format!("kinrow-{id}.sgf"),
            super::sgf::record(game.setup(), game.position()),
        ),
        ("GET", ["events"]) => {
            let Some(slot) = StreamSlot::take(&server.streams) else {
                return error(503, "too many event streams are open");
            };
            let events = game.hub().subscribe();
            // The stream opens with the state, so that a page that connects late is current.
            game.hub().publish("state", &game.state());
            Reply::Events(EventStream {
                events,
                _slot: slot,
            })
        }
        (_, [] | ["move" | "undo" | "hint" | "sgf" | "events"]) => not_allowed(method, path),
        _ => error(404, format!("nothing at '{}'", crate::text::excerpt(path))),
    }
}
