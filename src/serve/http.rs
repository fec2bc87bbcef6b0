//! The HTTP side: requests routed to the page's embedded files and to the JSON API, and the
//! replies written back. Routing ([`route`]) is a function of the method, the path and the
//! body, so that the tests can call it without a socket.

use super::game::GameError;
use super::hub;
use super::setup;
use super::store::{Store, lock};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::time::Instant;
use tiny_http::{Header, Method, Request, Response};

/// The largest request body read; the API's bodies are a few dozen bytes.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// Event streams open at once (each holds a thread and a connection).
pub const MAX_STREAMS: usize = 64;

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
    Events(Receiver<String>),
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

/// The server's state shared by the request threads.
pub struct Server {
    /// The games.
    pub store: Arc<Store>,
    /// Event streams open now.
    pub streams: AtomicUsize,
}

/// The request's method as routing sees it: HEAD is GET without the body.
fn method_name(method: &Method) -> &'static str {
    match method {
        Method::Get | Method::Head => "GET",
        Method::Post => "POST",
        Method::Delete => "DELETE",
        _ => "OTHER",
    }
}

/// Reads the request's body, at most [`MAX_BODY_BYTES`].
fn read_body(request: &mut Request) -> Result<Vec<u8>, Reply> {
    let too_large = || {
        error(
            413,
            format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
        )
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    match request
        .as_reader()
        .take(MAX_BODY_BYTES as u64 + 1)
        .read_to_end(&mut body)
    {
        Ok(n) if n > MAX_BODY_BYTES => Err(too_large()),
        Ok(_) => Ok(body),
        Err(e) => Err(error(
            400,
            format!("the request body could not be read: {e}"),
        )),
    }
}

/// The value of the request's header `name`, if it has one.
fn header_value<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// Whether a browser sent the request from a page of another site (its `Origin` is not
/// this server): such requests are refused, so that no other page the person has open can
/// play or start games here. Requests without an `Origin` (curl, scripts, the page's own
/// navigation) pass.
fn cross_origin(request: &Request) -> bool {
    let Some(origin) = header_value(request, "Origin") else {
        return false;
    };
    let origin_host = origin.split_once("://").map(|(_, host)| host);
    origin_host.is_none() || origin_host != header_value(request, "Host")
}

/// Answers one request.
pub fn handle(server: &Server, mut request: Request) {
    let method = method_name(request.method());
    let url = request.url().to_string();
    let body = if cross_origin(&request) {
        Err(error(403, "requests from pages of other sites are refused"))
    } else if method == "POST" {
        read_body(&mut request)
    } else {
        Ok(Vec::new())
    };
    let reply = match body {
        Ok(body) => route(server, method, &url, &body),
        Err(reply) => reply,
    };
    log::debug!("{method} {url}");
    respond(server, request, reply);
}

/// Writes `reply` to `request`'s connection.
fn respond(server: &Server, request: Request, reply: Reply) {
    let header = |name: &str, value: &str| Header::from_bytes(name, value).ok();
    let base = [
        header("X-Content-Type-Options", "nosniff"),
        header("Cache-Control", "no-store"),
    ];
    let (status, content_type, body, extra) = match reply {
        Reply::Json(status, value) => (
            status,
            "application/json",
            value.to_string().into_bytes(),
            None,
        ),
        Reply::Asset(content_type, text) => (
            200,
            content_type,
            text.as_bytes().to_vec(),
            header(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'",
            ),
        ),
        Reply::Download(name, text) => (
            200,
            "application/x-go-sgf; charset=utf-8",
            text.into_bytes(),
            header(
                "Content-Disposition",
                &format!("attachment; filename=\"{name}\""),
            ),
        ),
        Reply::Empty => (204, "text/plain", Vec::new(), None),
        Reply::Events(events) => return stream(server, request, &events),
    };
    let mut response = Response::from_data(body).with_status_code(status);
    for h in base
        .into_iter()
        .chain([header("Content-Type", content_type), extra])
        .flatten()
    {
        response.add_header(h);
    }
    if let Err(e) = request.respond(response) {
        log::debug!("a reply could not be sent: {e}");
    }
}

/// Holds an event stream open on this thread until the game or the client goes.
fn stream(server: &Server, request: Request, events: &Receiver<String>) {
    let mut out = request.into_writer();
    // The head is written here rather than by the HTTP crate, whose chunked encoder would
    // hold events back until a buffer fills.
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.write_all(b"retry: 1000\n\n"))
        .and_then(|()| out.flush())
        .is_ok()
    {
        hub::pump(events, &mut out);
    }
    server.streams.fetch_sub(1, Ordering::SeqCst);
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
    game.touched = Instant::now();
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
            let open = server
                .streams
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < MAX_STREAMS).then_some(n + 1)
                });
            if open.is_err() {
                return error(503, "too many event streams are open");
            }
            let events = game.hub().subscribe();
            // The stream opens with the state, so that a page that connects late is current.
            game.hub().publish("state", &game.state());
            Reply::Events(events)
        }
        (_, [] | ["move" | "undo" | "hint" | "sgf" | "events"]) => not_allowed(method, path),
        _ => error(404, format!("nothing at '{}'", crate::text::excerpt(path))),
    }
}
