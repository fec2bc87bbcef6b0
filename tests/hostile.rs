//! Hostile input to the real binary. `kinrow serve` under the requests that scanners,
//! broken clients and attackers send: each test runs one attack and checks that a plain
//! request is still answered within [`ANSWER`] during and after it, and that the server's
//! resident memory stays under [`MEMORY_BOUND_KB`]. And the files that `kinrow report`,
//! `kinrow match --openings file=` and `kinrow match --resume` read, made huge: each is read
//! under an address-space limit of [`FILE_MEMORY_LIMIT_KB`] that reading any of them whole
//! would break, and ends in one clear line.
//!
//! The classes: huge, overflowing and invalid `Content-Length` values; `Content-Length` with
//! `Transfer-Encoding`; hundreds of idle connections; `HTTP/2.0` request lines; slow heads
//! and bodies; a client that pipelines requests and never reads; a 64 MB header line; bad
//! `Host` names; the security headers; event streams whose client has gone.

use crate::common;
use common::serve::Launched;
use rustix::process::{Pid, Signal, kill_process};
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The server under test, with this file's requests.
type Server = Launched<Hostile>;

/// Marks the servers of this file, whose methods are its requests.
enum Hostile {}

/// How soon a plain request must be answered, whatever else is going on.
const ANSWER: Duration = Duration::from_secs(1);

/// The server's resident memory may not exceed this, in KiB, during or after an attack
/// (a server with no game is about 10 MB; the bound leaves room for buffers, not for a
/// body or a header held whole).
const MEMORY_BOUND_KB: u64 = 64 * 1024;

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::launch(args, "http://")
    }

    fn port(&self) -> &str {
        self.address.rsplit(':').next().expect("a port")
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.address).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("a timeout");
        stream
    }

    /// Sends `request` on a new connection and reads the reply to its end.
    fn raw(&self, request: &[u8]) -> String {
        let mut stream = self.connect();
        stream.write_all(request).expect("the request is sent");
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        String::from_utf8_lossy(&reply).into_owned()
    }

    /// A plain request that must be answered (a 404 in JSON) within [`ANSWER`].
    fn answers(&self, during: &str) {
        let start = Instant::now();
        let reply = self.raw(
            format!(
                "GET /api/games/0 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                self.address
            )
            .as_bytes(),
        );
        let took = start.elapsed();
        assert!(
            reply.starts_with("HTTP/1.1 404") && reply.contains("no game 0"),
            "{during}: {reply:?}"
        );
        assert!(took < ANSWER, "{during}: a plain request took {took:?}");
        let rss = self.rss_kb();
        assert!(rss < MEMORY_BOUND_KB, "{during}: {rss} KiB resident");
    }

    /// The server's resident memory, in KiB.
    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("VmRSS")
    }
}

/// The status of an HTTP reply, 0 when there is none.
fn status(reply: &str) -> u16 {
    reply
        .strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3)?.parse().ok())
        .unwrap_or(0)
}

/// Whether the server closes `stream` (end of file or a reset) within `within`.
fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream
        .set_read_timeout(Some(within))
        .expect("a read timeout");
    let mut sink = [0u8; 64 * 1024];
    let start = Instant::now();
    while start.elapsed() < within {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return false;
            }
            Err(_) => return true,
        }
    }
    false
}

#[test]
fn content_lengths_huge_overflowing_or_invalid_are_refused() {
    let server = Server::start(&[]);
    let host = server.address.clone();
    // hyper refuses a length it cannot count to (431, as for a head too large to read).
    for (length, want) in [
        ("100000000000000", 413),
        ("18446744073709551615", 431),
        ("18446744073709551616", 400),
        ("-1", 400),
        ("abc", 400),
        ("2, 40", 400),
        ("", 400),
    ] {
        let reply = server.raw(
            format!(
                "POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Length: {length}\r\n\r\n{{}}"
            )
            .as_bytes(),
        );
        assert_eq!(status(&reply), want, "Content-Length: {length}: {reply:?}");
        server.answers(&format!("after Content-Length: {length}"));
    }
    // Two lengths that agree are one; an empty body of length 0 is an empty set-up.
    let reply = server.raw(
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    );
    assert_eq!(status(&reply), 201, "{reply}");
}

#[test]
fn a_body_framed_both_ways_is_refused_and_its_connection_closed() {
    let server = Server::start(&[]);
    for order in [
        "Content-Length: 2\r\nTransfer-Encoding: chunked",
        "Transfer-Encoding: chunked\r\nContent-Length: 2",
        "Transfer-Encoding: chunked",
    ] {
        // The smuggled second request would be answered on this connection if it stayed.
        let reply = server.raw(
            format!(
                "POST /api/games HTTP/1.1\r\nHost: {}\r\n{order}\r\n\r\n2\r\n{{}}\r\n0\r\n\r\n\
                 GET /api/games/0 HTTP/1.1\r\nHost: {}\r\n\r\n",
                server.address, server.address
            )
            .as_bytes(),
        );
        assert_eq!(status(&reply), 411, "{order}: {reply}");
        assert!(
            reply.contains("must have a Content-Length") && !reply.contains("no game 0"),
            "{order}: {reply}"
        );
        server.answers(order);
    }
}

#[test]
fn hundreds_of_idle_connections_leave_it_answering() {
    let server = Server::start(&[]);
    let idle: Vec<TcpStream> = (0..600).map(|_| server.connect()).collect();
    // Some wait half written, as a slow client's would.
    for stream in idle.iter().step_by(3) {
        let _ = (&*stream).write_all(b"GET / HTTP/1.1\r\nHost: x");
    }
    for round in 0..5 {
        server.answers(&format!("600 idle connections, round {round}"));
    }
    drop(idle);
    server.answers("after 600 idle connections");
}

#[test]
fn http2_request_lines_get_an_error_and_do_not_hang() {
    let server = Server::start(&[]);
    let mut open = Vec::new();
    for _ in 0..520 {
        let mut stream = server.connect();
        stream
            .write_all(b"GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n")
            .expect("sent");
        open.push(stream);
    }
    server.answers("520 HTTP/2.0 requests sent");
    for stream in open.iter_mut().take(20) {
        let mut reply = String::new();
        // Closing without a reply is a refusal too; a read that times out with nothing is
        // a connection left hanging.
        let read = stream.read_to_string(&mut reply);
        assert!(
            read.is_ok() || !reply.is_empty(),
            "HTTP/2.0 left hanging: {read:?}"
        );
        assert!(
            reply.is_empty() || status(&reply) >= 400,
            "HTTP/2.0 got {reply:?}"
        );
    }
    drop(open);
    server.answers("after 520 HTTP/2.0 requests");
}

#[test]
fn slow_heads_and_bodies_time_out_without_holding_anyone_up() {
    let server = Server::start(&[]);
    let mut bodies: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut stream = server.connect();
            write!(
                stream,
                "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\n{{",
                server.address
            )
            .expect("sent");
            stream
        })
        .collect();
    let mut heads: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut stream = server.connect();
            stream.write_all(b"GET / HTTP/1.1\r\nHo").expect("sent");
            stream
        })
        .collect();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        server.answers("slow bodies and heads");
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut reply = String::new();
    let _ = bodies[0].read_to_string(&mut reply);
    assert_eq!(status(&reply), 408, "{reply}");
    assert!(reply.contains("did not arrive within 5 s"), "{reply}");
    for stream in bodies.iter_mut().chain(heads.iter_mut()) {
        assert!(
            closed_within(stream, Duration::from_secs(8)),
            "a slow request kept its connection"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(12));
    server.answers("after slow bodies and heads");
}

#[test]
fn a_client_that_pipelines_and_never_reads_is_cut_off() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    stream.set_nonblocking(true).expect("non-blocking");
    let request = format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", server.address).repeat(1000);
    let mut sent = 0usize;
    let start = Instant::now();
    // Writes until the server stops reading (its replies fill both sockets' buffers).
    let mut stalled_since = None;
    while start.elapsed() < Duration::from_secs(10) {
        match stream.write(request.as_bytes()) {
            Ok(n) => {
                sent += n;
                stalled_since = None;
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                let since = *stalled_since.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_millis(500) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("the server closed the connection early: {e} after {sent} bytes"),
        }
    }
    assert!(sent > 0, "nothing was sent");
    for round in 0..3 {
        server.answers(&format!("a client that never reads, round {round}"));
    }
    // With nothing moving either way, the server gives up on the connection (20 s).
    stream.set_nonblocking(false).expect("blocking");
    let deadline = Instant::now() + Duration::from_secs(30);
    let cut = loop {
        match stream.write(request.as_bytes()) {
            Err(_) => break true,
            Ok(_) if Instant::now() > deadline => break false,
            Ok(_) => {}
        }
    };
    // A write may still fit into the socket's buffer after the close; reading then tells.
    assert!(
        cut || closed_within(&mut stream, Duration::from_secs(30)),
        "the connection stayed"
    );
    server.answers("after a client that never reads");
}

#[test]
fn a_64_mb_header_line_is_refused_after_a_few_kilobytes() {
    let server = Server::start(&[]);
    let mut stream = server.connect();
    stream
        .write_all(format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Big: ", server.address).as_bytes())
        .expect("sent");
    let chunk = vec![b'a'; 1 << 20];
    let mut sent = 0;
    for _ in 0..64 {
        if stream.write_all(&chunk).is_err() {
            break;
        }
        sent += chunk.len();
    }
    assert!(sent < 64 << 20, "the server read a 64 MB header");
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    assert!(
        reply.is_empty() || status(&reply) == 431,
        "a huge header got {reply:?}"
    );
    server.answers("after a 64 MB header line");
}

#[test]
fn only_known_host_names_are_answered() {
    let server = Server::start(&["--allow-host", "board.example"]);
    let port = server.port().to_string();
    let get = |host: Option<&str>| {
        let host = host.map_or(String::new(), |h| format!("Host: {h}\r\n"));
        let reply = server.raw(
            format!("GET /api/games/0 HTTP/1.1\r\n{host}Connection: close\r\n\r\n").as_bytes(),
        );
        (status(&reply), reply)
    };
    for good in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        "LOCALHOST".to_string(),
        format!("[::1]:{port}"),
        format!("board.example:{port}"),
        "board.example.".to_string(),
    ] {
        assert_eq!(get(Some(&good)).0, 404, "Host: {good}");
    }
    for bad in [
        format!("evil.example:{port}"),
        "127.0.0.1.evil.example".to_string(),
        "localhost.evil.example".to_string(),
        "10.0.0.1".to_string(),
    ] {
        let (code, reply) = get(Some(&bad));
        assert_eq!(code, 421, "Host: {bad}: {reply}");
        assert!(reply.contains("does not answer to the name"), "{reply}");
    }
    let (code, reply) = get(None);
    assert_eq!(code, 400, "{reply}");
    assert!(reply.contains("no Host header"), "{reply}");
    server.answers("after bad Host names");
}

#[test]
fn listening_everywhere_names_a_usable_address_and_takes_ip_hosts() {
    let mut server = Server::start(&["--host", "0.0.0.0"]);
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "{}",
        server.address
    );
    let reply = server.raw(
        format!(
            "GET /api/games/0 HTTP/1.1\r\nHost: 192.0.2.7:{}\r\nConnection: close\r\n\r\n",
            server.port()
        )
        .as_bytes(),
    );
    assert_eq!(status(&reply), 404, "{reply}");
    let reply = server
        .raw(b"GET /api/games/0 HTTP/1.1\r\nHost: rebound.example\r\nConnection: close\r\n\r\n");
    assert_eq!(status(&reply), 421, "{reply}");
    server.answers("listening on 0.0.0.0");
    let pid = Pid::from_raw(server.child.id() as i32).expect("a pid");
    kill_process(pid, Signal::TERM).expect("signalled");
    assert!(server.child.wait().expect("waited").success());
}

#[test]
fn every_response_forbids_framing_and_sniffing() {
    let server = Server::start(&[]);
    for path in ["/", "/app.js", "/api/games/0", "/nothing"] {
        let reply = server.raw(
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.address
            )
            .as_bytes(),
        );
        let head = reply.split("\r\n\r\n").next().unwrap_or("").to_lowercase();
        for header in [
            "x-frame-options: deny",
            "x-content-type-options: nosniff",
            "frame-ancestors 'none'",
        ] {
            assert!(head.contains(header), "{path} lacks {header}: {head}");
        }
    }
}

#[test]
fn an_event_stream_whose_client_goes_frees_its_slot_at_once() {
    let server = Server::start(&[]);
    let setup = r#"{"x":"human","o":"human"}"#;
    let created = server.raw(
        format!(
            "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n\
             {setup}",
            server.address,
            setup.len()
        )
        .as_bytes(),
    );
    assert_eq!(status(&created), 201, "{created}");
    let body = created.split_once("\r\n\r\n").expect("a body").1;
    let id = serde_json::from_str::<serde_json::Value>(body).expect("JSON")["id"].clone();
    let open_stream = || {
        let mut stream = server.connect();
        write!(
            stream,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.address
        )
        .expect("sent");
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).expect("a status line");
        (stream, String::from_utf8_lossy(&head).into_owned())
    };
    let mut streams: Vec<TcpStream> = Vec::new();
    for _ in 0..64 {
        let (stream, head) = open_stream();
        assert_eq!(head, "HTTP/1.1 200");
        streams.push(stream);
    }
    let (_, head) = open_stream();
    assert_eq!(head, "HTTP/1.1 503", "the 65th stream");
    // The client goes; its slot is free long before the 15 s keepalive would notice.
    for _ in 0..4 {
        let gone = streams.pop().expect("a stream");
        gone.shutdown(Shutdown::Both).expect("closed");
        drop(gone);
        let start = Instant::now();
        loop {
            let (stream, head) = open_stream();
            if head == "HTTP/1.1 200" {
                streams.push(stream);
                break;
            }
            assert!(start.elapsed() < ANSWER, "the slot stayed taken: {head}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    server.answers("64 event streams open");
}

/// The address space a file-reading command gets (`ulimit -v`), in KiB: room for the
/// program, not for a 300 MB file.
const FILE_MEMORY_LIMIT_KB: u64 = 200 * 1024;

/// A scratch directory of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kinrow-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Writes `size` bytes of one line with no line end (`x` repeated) to `path`.
fn one_huge_line(path: &Path, size: usize) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("created"));
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..size >> 20 {
        file.write_all(&chunk).expect("written");
    }
    file.flush().expect("flushed");
}

/// Runs kinrow with `args` under [`FILE_MEMORY_LIMIT_KB`] of address space.
fn kinrow_limited(args: &[&str]) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -v {FILE_MEMORY_LIMIT_KB} && exec \"$@\""))
        .arg("kinrow")
        .arg(env!("CARGO_BIN_EXE_kinrow"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kinrow runs")
}

/// Its stderr, which must be one line containing `want`, and its exit status `code`.
fn fails_with(output: &Output, code: i32, want: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(want), "{stderr}");
}

#[test]
fn report_streams_a_huge_record_in_bounded_memory() {
    let dir = scratch("report");
    let huge = dir.join("huge.jsonl");
    one_huge_line(&huge, 300 << 20);
    let output = kinrow_limited(&["report", huge.to_str().expect("a path")]);
    fails_with(&output, 1, "line 1: longer than 1048576 bytes");
    // A million one-game matches (90 MB): only the last one is kept.
    let many = dir.join("many.jsonl");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&many).expect("created"));
        for i in 0..1_000_000 {
            writeln!(
                file,
                "{{\"game\":1,\"pair\":1,\"board\":{{\"columns\":5,\"rows\":5,\"k\":4}},\
                 \"x\":\"a{i}\",\"o\":\"b\",\"winner\":\"x\",\"moves\":[]}}"
            )
            .expect("written");
        }
    }
    let output = kinrow_limited(&["report", many.to_str().expect("a path")]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(
        stdout.contains("a999999 vs b, 1 games (the last of 1000000 matches in the file)"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_and_state_files_are_read_line_by_line_with_a_bound() {
    let dir = scratch("match");
    let huge = dir.join("huge.txt");
    one_huge_line(&huge, 300 << 20);
    let kinrow = env!("CARGO_BIN_EXE_kinrow");
    let engine = format!("cmd={kinrow}");
    let openings = format!("file={}", huge.display());
    let output = kinrow_limited(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        "random",
        "--depth",
        "1",
        "--games",
        "2",
        "--openings",
        &openings,
    ]);
    fails_with(&output, 1, "huge.txt:1: longer than 65536 bytes");
    let output = kinrow_limited(&["match", "--resume", huge.to_str().expect("a path")]);
    fails_with(
        &output,
        2,
        "line 1 is not a kinrow match state: longer than 1048576 bytes",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_match_says_which_engine_commands_it_runs() {
    let dir = scratch("resume");
    let state = dir.join("m.state");
    let kinrow = env!("CARGO_BIN_EXE_kinrow");
    let args = serde_json::json!([
        "--engine",
        format!("cmd={kinrow} name=k"),
        "--engine",
        "random",
        "--board",
        "3x3",
        "--depth",
        "2",
        "--games",
        "2"
    ]);
    std::fs::write(
        &state,
        format!("{{\"kinrow_match_state\":1,\"seed\":5,\"args\":{args}}}\n"),
    )
    .expect("written");
    let output = Command::new(kinrow)
        .args(["match", "--resume", state.to_str().expect("a path")])
        .stdin(Stdio::null())
        .output()
        .expect("kinrow runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "kinrow match: resuming {} after 0 games; it runs '{kinrow}' and the random player",
            state.display()
        )),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
