//! A running `kinrow serve` for the tests that drive it over HTTP: started on a free port,
//! its address read from the first line it prints, stopped when dropped.

use std::io::{BufRead, BufReader};
use std::marker::PhantomData;
use std::process::{Child, Command, Stdio};

/// The server process and the address it listens on. Each test file adds its own requests as
/// methods of `Launched<ItsMarker>`: the suite's files are modules of one crate, where two
/// files' inherent methods of one type, `start` say, would collide.
pub struct Launched<Requests> {
    pub child: Child,
    pub address: String,
    requests: PhantomData<Requests>,
}

impl<Requests> Launched<Requests> {
    /// Starts `kinrow serve --port 0` with `args`; the address follows `url_prefix` (which
    /// begins with `http://`) in the first line printed.
    pub fn launch(args: &[&str], url_prefix: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kinrow"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("kinrow starts");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().expect("piped"))
            .read_line(&mut line)
            .expect("a first line");
        let start = line.find(url_prefix).expect("the address") + "http://".len();
        let end = start + line[start..].find('/').expect("a slash after the port");
        Launched {
            address: line[start..end].to_string(),
            child,
            requests: PhantomData,
        }
    }
}

impl<Requests> Drop for Launched<Requests> {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
