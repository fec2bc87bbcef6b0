//! `kinrow serve` through its HTTP API, against the real binary: the address line, JSON errors
//! for bad requests (and the server still answering after them), whole 3x3 games against the
//! engine by random moves (never lost), undo, hints, the event stream, a fixed seed's
//! repeatable game, the bounds, and a clean exit on SIGTERM.

use crate::common;
use common::serve::Launched;
use rustix::process::{Pid, Signal, kill_process};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The server under test, with this file's requests.
type Server = Launched<Api>;

/// Marks the servers of this file, whose methods are its requests.
enum Api {}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::launch(args, "http://127.0.0.1:")
    }

    /// Opens the event stream of game `id`, its reply not yet read.
    fn events(&self, id: &impl std::fmt::Display) -> BufReader<TcpStream> {
        let mut stream = TcpStream::connect(&self.address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("a timeout");
        write!(
            stream,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.address
        )
        .expect("sent");
        BufReader::new(stream)
    }

    /// Sends one request; returns the status and the body.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("a timeout");
        stream.write_all(request).expect("the request is sent");
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).expect("a reply");
        let reply = String::from_utf8_lossy(&reply).into_owned();
        let status = reply
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {reply:?}"));
        let body = reply
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        self.raw(
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                self.address,
                body.len()
            )
            .as_bytes(),
        )
    }

    /// A request whose reply must be JSON with this status.
    fn json(&self, method: &str, path: &str, body: &str, status: u16) -> Value {
        let (got, text) = self.request(method, path, body);
        assert_eq!(got, status, "{method} {path} {body}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text:?} is not JSON: {e}"))
    }

    fn create(&self, setup: Value) -> Value {
        self.json("POST", "/api/games", &setup.to_string(), 201)
    }

    /// Waits until game `id` is at rest: over, or a person to move with nothing searched.
    fn settled(&self, id: &Value) -> Value {
        let start = Instant::now();
        loop {
            let state = self.json("GET", &format!("/api/games/{id}"), "", 200);
            let person = state["to_move"]
                .as_str()
                .is_some_and(|side| state[side] == "human");
            if state["thinking"].is_null() && (state["result"].is_string() || person) {
                return state;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "stuck: {state}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn signal(&self, signal: Signal) {
        let pid = Pid::from_raw(self.child.id() as i32).expect("a process id");
        kill_process(pid, signal).expect("the server can be signalled");
    }
}

/// The empty squares of a state's board.
fn empty_squares(state: &Value) -> Vec<String> {
    let taken: Vec<&str> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let (columns, rows) = (
        state["columns"].as_u64().expect("columns"),
        state["rows"].as_u64().expect("rows"),
    );
    (0..rows)
        .flat_map(|r| (0..columns).map(move |c| format!("{}{}", (b'a' + c as u8) as char, r + 1)))
        .filter(|s| !taken.contains(&s.as_str()))
        .collect()
}

/// A small seeded generator for the test's random moves.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn bad_requests_get_json_errors_and_the_server_keeps_running() {
    let server = Server::start(&["--max-movetime", "5000"]);
    let cases: &[(&str, &str, &str, u16, &str)] = &[
        (
            "POST",
            "/api/games",
            "{bad",
            400,
            "the request body is not valid JSON",
        ),
        ("POST", "/api/games", "[1]", 400, "must be a JSON object"),
        (
            "POST",
            "/api/games",
            r#"{"columns":99}"#,
            400,
            "'columns' must be 1 to 20, not 99",
        ),
        (
            "POST",
            "/api/games",
            r#"{"k":7}"#,
            400,
            "k=7 cannot be reached",
        ),
        (
            "POST",
            "/api/games",
            r#"{"x":"alien"}"#,
            400,
            "'x' must be human, engine or random",
        ),
        (
            "POST",
            "/api/games",
            r#"{"movetime":5001}"#,
            400,
            "'movetime' must be 1 to 5000",
        ),
        (
            "POST",
            "/api/games",
            r#"{"depth":3,"movetime":9}"#,
            400,
            "not both",
        ),
        (
            "POST",
            "/api/games",
            r#"{"colour":"x"}"#,
            400,
            "unknown field 'colour'",
        ),
        ("POST", "/api/games", "\u{feff}{}", 400, "not valid JSON"),
        ("GET", "/api/games/999", "", 404, "no game 999"),
        ("GET", "/api/games/abc/sgf", "", 404, "no game 'abc'"),
        ("GET", "/api/nothing", "", 404, "nothing at '/api/nothing'"),
        ("GET", "/../Cargo.toml", "", 404, "nothing at"),
        ("GET", "/src/main.rs", "", 404, "nothing at"),
        ("GET", "/%2e%2e/%2e%2e/etc/passwd", "", 404, "nothing at"),
        ("PUT", "/", "", 405, "OTHER is not allowed on '/'"),
        (
            "GET",
            "/api/games",
            "",
            405,
            "GET is not allowed on '/api/games'",
        ),
    ];
    for &(method, path, body, status, message) in cases {
        let reply = server.json(method, path, body, status);
        let error = reply["error"].as_str().expect("an error message");
        assert!(error.contains(message), "{method} {path}: {error}");
    }
    let game = server.create(json!({"depth": 3}));
    let id = &game["id"];
    for (body, status, message) in [
        ("{}", 400, "a move is {\"square\": \"b2\"}"),
        (
            r#"{"square":"z9"}"#,
            400,
            "'z9' is not a square of the 3x3 board",
        ),
        (r#"{"square":7}"#, 400, "a move is"),
    ] {
        let reply = server.json("POST", &format!("/api/games/{id}/move"), body, status);
        assert!(
            reply["error"]
                .as_str()
                .expect("a message")
                .contains(message),
            "{reply}"
        );
    }
    let reply = server.json("POST", &format!("/api/games/{id}/undo"), "", 409);
    assert_eq!(reply["error"], "there is no move to take back");
    // Too large a body is refused before it is read.
    let big = format!("{{\"seed\": 1, \"pad\": \"{}\"}}", "a".repeat(100_000));
    let reply = server.json("POST", "/api/games", &big, 413);
    assert!(
        reply["error"]
            .as_str()
            .expect("a message")
            .contains("larger than 16384 bytes")
    );
    // A page of another site may not play here; the page's own origin may.
    let post = |origin: &str| {
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nConnection: close\r\n\
             Content-Length: 2\r\n\r\n{{}}",
            server.address
        )
    };
    let (status, body) = server.raw(post("http://evil.example").as_bytes());
    assert_eq!(
        (status, body.as_str()),
        (
            403,
            r#"{"error":"requests from pages of other sites are refused"}"#
        )
    );
    let (status, _) = server.raw(post(&format!("http://{}", server.address)).as_bytes());
    assert_eq!(status, 201);
    // Garbage instead of HTTP, and a connection dropped mid-request.
    let _ = server.raw(b"\x00\x01 nonsense\r\n\r\n");
    drop(TcpStream::connect(&server.address).map(|mut s| s.write_all(b"POST /api/ga")));
    let (status, page) = server.request("GET", "/?columns=15", "");
    assert_eq!(status, 200);
    assert!(page.contains("data-role=\"board\"") && page.contains("/app.js"));
    server.create(json!({}));
}

#[test]
fn the_engine_never_loses_3x3_games_played_through_the_api() {
    let server = Server::start(&[]);
    let mut rng = Lcg(12345);
    for (person, engine) in [("x", "o"), ("o", "x")] {
        for _ in 0..15 {
            let game = server.create(json!({ person: "human", engine: "engine", "depth": 9 }));
            let id = game["id"].clone();
            let end = loop {
                let state = server.settled(&id);
                if state["result"].is_string() {
                    break state;
                }
                let empty = empty_squares(&state);
                let square = &empty[rng.below(empty.len())];
                let body = json!({ "square": square }).to_string();
                server.json("POST", &format!("/api/games/{id}/move"), &body, 200);
            };
            let result = end["result"].as_str().expect("a result");
            assert_ne!(result, person, "the engine ({engine}) lost: {end}");
            let line = end["winning_line"].as_array().map_or(0, Vec::len);
            assert_eq!(line, if result == "draw" { 0 } else { 3 }, "{end}");
            let (status, _) = server.request("DELETE", &format!("/api/games/{id}"), "");
            assert_eq!(status, 204);
            server.json("GET", &format!("/api/games/{id}"), "", 404);
        }
    }
}

/// Reads server-sent events from `stream` until `want` accepts one (event name and data).
fn read_events(stream: &mut BufReader<TcpStream>, mut want: impl FnMut(&str, &Value) -> bool) {
    let mut event = String::new();
    loop {
        let mut line = String::new();
        let n = stream.read_line(&mut line).expect("the stream stays open");
        assert!(n > 0, "the stream ended");
        let line = line.trim_end();
        if let Some(name) = line.strip_prefix("event: ") {
            event = name.to_string();
        } else if let Some(data) = line.strip_prefix("data: ") {
            let value: Value = serde_json::from_str(data).expect("JSON data");
            if want(&event, &value) {
                return;
            }
        }
    }
}

#[test]
fn undo_hint_record_and_the_event_stream() {
    let server = Server::start(&[]);
    let game = server.create(json!({"columns": 4, "rows": 4, "k": 3, "depth": 6, "seed": 3}));
    let id = game["id"].clone();
    let mut events = server.events(&id);
    let mut head = String::new();
    events.read_line(&mut head).expect("a status line");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    read_events(&mut events, |event, state| {
        event == "state" && state["moves"] == json!([])
    });
    server.json(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"square":"b2"}"#,
        200,
    );
    let mut depths = Vec::new();
    read_events(&mut events, |event, data| {
        if event == "info" {
            depths.push(data["depth"].as_u64().expect("a depth"));
            assert!(data["score"].is_string() && data["pv"].is_array(), "{data}");
        }
        event == "state" && data["moves"].as_array().map(Vec::len) == Some(2)
    });
    assert!(!depths.is_empty(), "the engine's iterations were streamed");
    let state = server.settled(&id);
    assert!(state["analysis"]["depth"].is_u64(), "{state}");
    assert_eq!(state["last_move"], state["moves"][1]);
    let (status, record) = server.request("GET", &format!("/api/games/{id}/sgf"), "");
    assert_eq!(status, 200);
    assert!(
        record.starts_with("(;FF[4]GM[4]") && record.contains(";B[bc];W["),
        "{record}"
    );
    // Undo takes back the move and the reply.
    let state = server.json("POST", &format!("/api/games/{id}/undo"), "", 200);
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["status"], "x to move");
    // A hint arrives with the state, on an empty square.
    let state = server.json("POST", &format!("/api/games/{id}/hint"), "", 200);
    assert_eq!(state["thinking"], "hint");
    read_events(&mut events, |event, state| {
        event == "state" && state["hint"].is_string()
    });
    let state = server.settled(&id);
    let hint = state["hint"].as_str().expect("a hint").to_string();
    assert!(empty_squares(&state).contains(&hint));
    let state = server.json(
        "POST",
        &format!("/api/games/{id}/move"),
        &json!({ "square": hint }).to_string(),
        200,
    );
    assert!(state["hint"].is_null(), "a move clears the hint");
    // Deleting the game ends its stream.
    server.request("DELETE", &format!("/api/games/{id}"), "");
    read_events(&mut events, |event, _| event == "gone");
}

#[test]
fn a_fixed_seed_gives_the_same_game() {
    let server = Server::start(&[]);
    // The random player and the engine's tie-breaks both follow the seed; the two games run
    // side by side (watched games are paced).
    let setup = json!({"columns": 4, "rows": 3, "k": 3, "x": "random", "o": "engine",
        "depth": 4, "seed": 99});
    let games: Vec<Value> = (0..2).map(|_| server.create(setup.clone())).collect();
    let ends: Vec<Value> = games.iter().map(|g| server.settled(&g["id"])).collect();
    assert!(ends[0]["result"].is_string(), "{}", ends[0]);
    assert_eq!(ends[0]["moves"], ends[1]["moves"]);
    assert_eq!(ends[0]["seed"], 99);
}

#[test]
fn games_and_searches_are_bounded() {
    let server = Server::start(&["--max-games", "2", "--max-searches", "1"]);
    let slow = json!({"columns": 15, "rows": 15, "k": 5, "x": "human", "o": "human",
        "movetime": 3000});
    let first = server.create(slow.clone());
    let second = server.create(slow);
    let state = server.json("POST", &format!("/api/games/{}/hint", first["id"]), "", 200);
    assert_eq!(state["thinking"], "hint");
    let reply = server.json(
        "POST",
        &format!("/api/games/{}/hint", second["id"]),
        "",
        503,
    );
    assert!(
        reply["error"]
            .as_str()
            .expect("a message")
            .contains("as many searches")
    );
    // A third game replaces the least recently used one, and its search ends with it.
    server.json("GET", &format!("/api/games/{}", second["id"]), "", 200);
    server.create(json!({}));
    server.json("GET", &format!("/api/games/{}", first["id"]), "", 404);
    let state = server.json(
        "POST",
        &format!("/api/games/{}/hint", second["id"]),
        "",
        200,
    );
    assert_eq!(state["thinking"], "hint");
}

#[test]
fn sigterm_ends_the_server_cleanly_even_during_a_search() {
    let mut server = Server::start(&[]);
    let game = server.create(json!({"columns": 15, "rows": 15, "k": 5, "o": "human",
        "movetime": 5000}));
    server.json("POST", &format!("/api/games/{}/hint", game["id"]), "", 200);
    let start = Instant::now();
    server.signal(Signal::TERM);
    let status = loop {
        if let Some(status) = server.child.try_wait().expect("waitable") {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "still running");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status}");
    let mut rest = String::new();
    server
        .child
        .stdout
        .as_mut()
        .expect("piped")
        .read_to_string(&mut rest)
        .expect("the rest of stdout");
    assert_eq!(rest, "kinrow serve: stopped\n");
}

#[test]
fn renju_refuses_a_forbidden_move_with_its_reason() {
    let server = Server::start(&[]);
    let game = server.create(json!({"columns": 15, "rows": 15, "k": 5, "rule": "renju",
        "x": "human", "o": "human"}));
    let id = &game["id"];
    for square in ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"] {
        let body = json!({ "square": square }).to_string();
        server.json("POST", &format!("/api/games/{id}/move"), &body, 200);
    }
    // h8 would make two open threes at once (f8 g8 h8 and h6 h7 h8).
    let reply = server.json(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"square":"h8"}"#,
        409,
    );
    assert_eq!(
        reply["error"].as_str().expect("a message"),
        "h8 cannot be played: the move is forbidden to x under renju (a double three)"
    );
    let state = server.json("GET", &format!("/api/games/{id}"), "", 200);
    assert_eq!(
        (state["status"].as_str(), state["rule"].as_str()),
        (Some("x to move"), Some("renju"))
    );
}

#[test]
fn an_unwatched_game_rests_until_visited_and_a_stream_keeps_it_going() {
    let server = Server::start(&["--unwatched-after", "1"]);
    let game = server.create(json!({"columns": 15, "rows": 15, "k": 5, "x": "engine",
        "o": "engine", "movetime": 50}));
    let id = game["id"].clone();
    let moves = |state: &Value| state["moves"].as_array().map_or(0, Vec::len);
    // Paced 400 ms apart, the engines would make about 13 moves in 6 s; with no one
    // watching they stop after 1 to 1.5 s.
    std::thread::sleep(Duration::from_secs(6));
    let state = server.json("GET", &format!("/api/games/{id}"), "", 200);
    let rested = moves(&state);
    assert!(rested <= 5, "{rested} moves made unwatched: {state}");
    assert_eq!(state["resting"], false, "a request wakes it: {state}");
    // An open event stream is a watcher: the moves go on with no request for 3 s.
    let mut events = server.events(&id);
    let start = Instant::now();
    read_events(&mut events, |event, state| {
        event == "state" && moves(state) >= rested + 6
    });
    assert!(start.elapsed() < Duration::from_secs(10));
}
