//! One engine as a child process: spawning, the `uci` handshake, reading its lines with
//! deadlines, and making sure it is killed and reaped whatever happens.
//!
//! Two threads per process read its stdout (lines, stamped with the time they arrived) and
//! its stderr (kept as a short tail for error messages, and in the log file if there is one).
//! The process is always waited for: on [`EngineProcess::quit`], on
//! [`EngineProcess::kill`], and in `Drop`, so no path leaves a zombie behind. It runs in a
//! process group of its own, which is killed whole before the engine is reaped, so that
//! nothing it started outlives it; its exit is watched while waiting for a reply, so that a
//! crash is seen even when a child of it holds its output open.

use super::cancel::Cancel;
use super::queue::{Empty, QueueReceiver, line_queue};
use super::spec::Protocol;
use super::transcript::{Direction, Transcript};
use crate::io::{Input, MAX_LINE_BYTES, read_line};
use crate::protocol::{Command, EngineReply, parse_reply};
use rustix::process::{Pid, Signal, WaitId, WaitIdOptions, kill_process_group, waitid};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{self, Child, ChildStdin, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many lines of an engine's stderr are kept for error messages.
pub const STDERR_TAIL: usize = 8;

/// How many bytes of each of those lines are kept.
pub const STDERR_LINE_BYTES: usize = 1_000;

/// How many bytes of an engine's output lines wait for the client at most (each line
/// counted with [`LINE_OVERHEAD`] more): past it the reader stops reading, and an engine
/// that keeps writing blocks on its own full pipe while the deadlines run on.
pub const QUEUED_BYTES: usize = 8 << 20;

/// What a queued line costs beyond its text (the string, its time, the queue's slot), so
/// that a flood of empty lines is bounded too.
const LINE_OVERHEAD: usize = 64;

/// How often a wait looks at the cancel flag.
const POLL: Duration = Duration::from_millis(50);

/// After stdout closes, how long to wait for the process to exit before calling it a
/// disconnect rather than a crash (the exit status usually follows the closed pipe at once).
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// The command line of an engine: a program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program, as given (looked up on `PATH` if it has no slash).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl EngineCommand {
    /// The program's file name (`pbrain-rapfi` for `/opt/pbrain-rapfi`): what an engine is
    /// called when nothing names it.
    pub fn file_name(&self) -> String {
        Path::new(&self.program)
            .file_name()
            .map_or(self.program.clone(), |f| f.to_string_lossy().into())
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.program)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// Why an engine did not deliver what was waited for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// The process exited (its status, as text).
    #[error("the engine exited ({0})")]
    Exited(String),
    /// The process closed its stdout (or stdin) but kept running; it has been killed.
    #[error("the engine closed its output but kept running")]
    Disconnected,
    /// Nothing expected arrived before the deadline.
    #[error("no answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The wait was called off ([`Cancel`]).
    #[error("cancelled")]
    Cancelled,
    /// The engine wrote a line that cannot be read as text (the engine keeps running).
    #[error(transparent)]
    Unreadable(Unreadable),
}

/// A line from an engine that is not text the protocol can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// The line is not valid UTF-8.
    #[error("a line that is not UTF-8")]
    NotUtf8,
    /// The line is longer than [`MAX_LINE_BYTES`] (its length in bytes).
    #[error("a line of {0} bytes, over the limit of {MAX_LINE_BYTES} bytes")]
    TooLong(usize),
}

/// Why an engine could not be started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The program could not be run at all.
    #[error("cannot start engine '{command}': {error}")]
    Spawn {
        /// The command line.
        command: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// It ran but did not complete the `uci` handshake.
    #[error(
        "engine '{command}' did not answer 'uci' with 'uciok': {failure}{}",
        stderr_tail(stderr)
    )]
    Handshake {
        /// The command line.
        command: String,
        /// What went wrong.
        failure: Failure,
        /// The last lines it wrote to stderr.
        stderr: Vec<String>,
    },
    /// The log file could not be opened.
    #[error("cannot open the log file {}: {error}", path.display())]
    Log {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
}

/// The end of [`StartError::Handshake`]'s message: the engine's last words on stderr, if any.
fn stderr_tail(stderr: &[String]) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; its stderr ends with: {}", stderr.join(" | "))
    }
}

/// What the stdout reader thread passes on.
enum Event {
    /// A line (or why it cannot be read) and when it arrived.
    Line(Result<String, Unreadable>, Instant),
    /// End of output.
    Closed,
}

/// A running engine.
pub struct EngineProcess {
    command: EngineCommand,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: QueueReceiver<Event>,
    transcript: Arc<Transcript>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Set when the stderr reader has reached the end.
    stderr_closed: Arc<AtomicBool>,
    /// Its exit status, once the process has been waited for.
    reaped: Option<Option<ExitStatus>>,
    /// Set once its process group has been sent SIGKILL.
    group_ended: bool,
    /// Set once the engine has failed: nothing more is sent to it.
    failed: Option<Failure>,
    protocol: Protocol,
    /// `id name`, if it said.
    pub id_name: Option<String>,
    /// The option names it listed.
    pub option_names: Vec<String>,
}

impl EngineProcess {
    /// Starts `command`, called `name` in log messages, and completes the `uci` handshake
    /// within `timeout` if it speaks UCI (the Gomocup protocol has none: a brain's first
    /// answer is to the `START` of a game). Protocol traffic and stderr are appended to `log`
    /// if given, and logged at `trace` level.
    ///
    /// # Errors
    ///
    /// [`StartError`] if the program cannot be run or does not answer `uciok` in time; the
    /// process is then already killed and reaped.
    pub fn start(
        command: &EngineCommand,
        protocol: Protocol,
        name: &str,
        log: Option<&Path>,
        timeout: Duration,
        cancel: &Cancel,
    ) -> Result<EngineProcess, StartError> {
        let transcript =
            Transcript::open(name, log).map_err(|(path, error)| StartError::Log { path, error })?;
        let transcript = Arc::new(transcript);
        transcript.note("start", &command.to_string());
        // A process group of its own: whatever the engine starts is ended with it (at the
        // end of the match, on a fault, on Ctrl-C), and a Ctrl-C in the terminal reaches the
        // referee only, which then ends every engine itself.
        let mut child = process::Command::new(&command.program)
            .process_group(0)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| StartError::Spawn {
                command: command.to_string(),
                error,
            })?;
        let (tx, rx) = line_queue(QUEUED_BYTES);
        if let Some(stdout) = child.stdout.take() {
            let transcript = Arc::clone(&transcript);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let line = match read_line(&mut reader) {
                        Input::Line(line) => Ok(line),
                        Input::NotUtf8 => Err(Unreadable::NotUtf8),
                        Input::TooLong(n) => Err(Unreadable::TooLong(n)),
                        Input::End => break,
                    };
                    let at = Instant::now();
                    let size = match &line {
                        Ok(line) => {
                            transcript.line(Direction::Received, line);
                            line.len()
                        }
                        Err(why) => {
                            transcript.line(Direction::Received, &format!("<{why}>"));
                            0
                        }
                    };
                    if tx
                        .send(Event::Line(line, at), size + LINE_OVERHEAD)
                        .is_err()
                    {
                        return;
                    }
                }
                let _ = tx.send(Event::Closed, 0);
            });
        }
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_closed = Arc::new(AtomicBool::new(true));
        if let Some(stderr) = child.stderr.take() {
            let transcript = Arc::clone(&transcript);
            let tail = Arc::clone(&stderr_tail);
            let closed = Arc::clone(&stderr_closed);
            closed.store(false, Ordering::SeqCst);
            std::thread::spawn(move || {
                // Lines are read with the same byte limit as stdout, and only the end of
                // each is kept: an engine that writes stderr without end costs a bounded
                // amount of memory.
                let mut reader = BufReader::new(stderr);
                loop {
                    let text = match read_line(&mut reader) {
                        Input::Line(line) => line.trim_end().to_string(),
                        Input::NotUtf8 => format!("<{}>", Unreadable::NotUtf8),
                        Input::TooLong(n) => format!("<{}>", Unreadable::TooLong(n)),
                        Input::End => break,
                    };
                    transcript.line(Direction::Stderr, &text);
                    if let Ok(mut tail) = tail.lock() {
                        if tail.len() == STDERR_TAIL {
                            tail.pop_front();
                        }
                        tail.push_back(cut(text, STDERR_LINE_BYTES));
                    }
                }
                closed.store(true, Ordering::SeqCst);
            });
        }
        let mut engine = EngineProcess {
            command: command.clone(),
            stdin: child.stdin.take(),
            child,
            lines: rx,
            transcript,
            stderr: stderr_tail,
            stderr_closed,
            reaped: None,
            group_ended: false,
            failed: None,
            protocol,
            id_name: None,
            option_names: Vec::new(),
        };
        if protocol == Protocol::Gomocup {
            return Ok(engine);
        }
        match engine.handshake(timeout, cancel) {
            Ok(()) => Ok(engine),
            Err(failure) => {
                engine.kill();
                Err(StartError::Handshake {
                    command: command.to_string(),
                    failure,
                    stderr: engine.stderr_tail(),
                })
            }
        }
    }

    fn handshake(&mut self, timeout: Duration, cancel: &Cancel) -> Result<(), Failure> {
        self.send(Command::Uci)?;
        let start = Instant::now();
        let deadline = start + timeout;
        loop {
            let (line, _) = self
                .recv(deadline, cancel)
                .map_err(|failure| match failure {
                    // Reported as the whole wait, not the last slice of it.
                    Failure::Timeout(_) => Failure::Timeout(start.elapsed()),
                    other => other,
                })?;
            match parse_reply(&line) {
                Ok(Some(EngineReply::UciOk)) => return Ok(()),
                Ok(Some(EngineReply::IdName(name))) => self.id_name = Some(name),
                Ok(Some(EngineReply::OptionName(name))) => self.option_names.push(name),
                _ => {}
            }
        }
    }

    /// Names the engine in later log messages.
    pub fn rename(&self, name: &str) {
        self.transcript.rename(name);
    }

    /// The command line this process runs.
    pub fn command(&self) -> &EngineCommand {
        &self.command
    }

    /// The last lines the engine wrote to stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|tail| tail.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Whether the engine has failed (and been killed); a failed engine must be restarted.
    pub fn has_failed(&self) -> bool {
        self.failed.is_some()
    }

    /// Writes a command, as the protocol formats it.
    ///
    /// # Errors
    ///
    /// [`Failure::Exited`] or [`Failure::Disconnected`] if the engine no longer reads its
    /// input; it is then killed and reaped.
    pub fn send(&mut self, command: Command) -> Result<(), Failure> {
        self.send_all(&[command])
    }

    /// Writes commands with a single write, so that the engine wakes once for all of them
    /// (`position` and `go` together: the round trip is most of a fast move's cost).
    ///
    /// # Errors
    ///
    /// As [`EngineProcess::send`].
    pub fn send_all(&mut self, commands: &[Command]) -> Result<(), Failure> {
        let lines: Vec<String> = commands.iter().map(Command::to_string).collect();
        self.send_lines(&lines)
    }

    /// Writes lines as they are, with a single write (a Gomocup brain's commands).
    ///
    /// # Errors
    ///
    /// As [`EngineProcess::send`].
    pub fn send_lines(&mut self, lines: &[String]) -> Result<(), Failure> {
        if let Some(failure) = &self.failed {
            return Err(failure.clone());
        }
        let mut text = String::new();
        for line in lines {
            self.transcript.line(Direction::Sent, line);
            text.push_str(line);
            text.push('\n');
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(text.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        match written {
            Ok(()) => Ok(()),
            Err(_) => Err(self.fail_closed()),
        }
    }

    /// Throws away lines that arrived before now (answers to earlier commands), noticing a
    /// closed output on the way.
    ///
    /// # Errors
    ///
    /// The failure, if the engine's output has closed, or [`Failure::Unreadable`] if one of
    /// those lines was not text.
    pub fn drain(&mut self) -> Result<(), Failure> {
        if let Some(failure) = &self.failed {
            return Err(failure.clone());
        }
        // Only what is queued now: an engine that keeps writing cannot keep this going.
        // A line that is not text is a fault wherever it comes (here: at the next request).
        for event in self.lines.take_all() {
            match event {
                Event::Line(Ok(_), _) => {}
                Event::Line(Err(why), _) => return Err(Failure::Unreadable(why)),
                Event::Closed => return Err(self.fail_closed()),
            }
        }
        Ok(())
    }

    /// The next line, with the time it arrived.
    ///
    /// # Errors
    ///
    /// [`Failure::Timeout`] at `deadline` (the engine is left running: the caller decides),
    /// [`Failure::Cancelled`] if `cancel` is set, [`Failure::Unreadable`] at once for a line
    /// that is not UTF-8 or too long (the engine is left running), and [`Failure::Exited`] or
    /// [`Failure::Disconnected`] if the output closes (the engine is then killed and reaped).
    pub fn recv(
        &mut self,
        deadline: Instant,
        cancel: &Cancel,
    ) -> Result<(String, Instant), Failure> {
        if let Some(failure) = &self.failed {
            return Err(failure.clone());
        }
        let start = Instant::now();
        loop {
            if cancel.is_set() {
                return Err(Failure::Cancelled);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout(now - start));
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Event::Line(Ok(line), at)) => return Ok((line, at)),
                Ok(Event::Line(Err(why), _)) => return Err(Failure::Unreadable(why)),
                Ok(Event::Closed) | Err(Empty::Disconnected) => {
                    return Err(self.fail_closed());
                }
                Err(Empty::Timeout) if self.has_exited() => {
                    // A crash is known from the exit, not from the end of output: a child
                    // of the engine may hold its stdout open. Ending the group closes every
                    // copy of the pipe; what the engine wrote before it went is still taken
                    // (a `bestmove` written just before a crash counts).
                    self.end_group();
                    return match self.lines.recv_timeout(EXIT_GRACE) {
                        Ok(Event::Line(Ok(line), at)) => Ok((line, at)),
                        Ok(Event::Line(Err(why), _)) => Err(Failure::Unreadable(why)),
                        _ => Err(self.fail_closed()),
                    };
                }
                Err(Empty::Timeout) => {}
            }
        }
    }

    /// Whether the process has exited, without reaping it: while it is a zombie its id,
    /// and so its process group's, cannot be taken by another process, and the group can
    /// still be ended safely.
    fn has_exited(&self) -> bool {
        if self.reaped.is_some() {
            return true;
        }
        let Some(pid) = Pid::from_raw(self.child.id() as i32) else {
            return false;
        };
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        matches!(waitid(WaitId::Pid(pid), options), Ok(Some(_)))
    }

    /// Sends SIGKILL to the engine's process group (itself and whatever it started), once,
    /// and only while the engine has not been reaped (its id is still its own then).
    fn end_group(&mut self) {
        if self.group_ended || self.reaped.is_some() {
            return;
        }
        self.group_ended = true;
        if let Some(pid) = Pid::from_raw(self.child.id() as i32) {
            // Fails harmlessly (no such group) if every member has already gone.
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }

    /// Waits for the process (ending its group first, if not yet done); returns its status.
    fn reap(&mut self) -> Option<ExitStatus> {
        if let Some(status) = self.reaped {
            return status;
        }
        self.end_group();
        // Killing an already exited child fails harmlessly; the wait reaps it either way.
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        self.reaped = Some(status);
        status
    }

    /// Output has closed or input is refused: a crash if the process has exited (or exits
    /// soon), a disconnect if it is still running. Either way it is killed and reaped, with
    /// its process group.
    fn fail_closed(&mut self) -> Failure {
        let until = Instant::now() + EXIT_GRACE;
        let exited = loop {
            if self.has_exited() {
                break true;
            }
            if Instant::now() >= until {
                break false;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let failure = if exited {
            // Ending the group closes stderr for good (a child may hold it); the last words
            // on stderr explain a crash: let the reader catch up (it may lag behind the exit
            // on a busy machine).
            self.end_group();
            let until = Instant::now() + EXIT_GRACE;
            while !self.stderr_closed.load(Ordering::SeqCst) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(2));
            }
            match self.reap() {
                Some(status) => Failure::Exited(describe(status)),
                None => Failure::Exited("status unknown".into()),
            }
        } else {
            Failure::Disconnected
        };
        self.kill();
        self.failed = Some(failure.clone());
        failure
    }

    /// Marks the engine as failed with `failure` and kills it (used for stalls).
    pub fn fail(&mut self, failure: Failure) {
        self.kill();
        self.failed = Some(failure);
    }

    /// Kills the process (if still running) and whatever it started (its process group),
    /// and waits for it.
    pub fn kill(&mut self) {
        self.stdin = None;
        self.reap();
        if self.failed.is_none() {
            self.failed = Some(Failure::Exited("killed by the referee".into()));
        }
    }

    /// Asks the engine to quit (`quit`, or a brain's `END`) and closes its input; kills it if it
    /// has not exited within `grace`. Either way its process group is ended (a child it left
    /// behind goes with it), and it is reaped.
    pub fn quit(mut self, grace: Duration) {
        if self.failed.is_none() {
            let _ = match self.protocol {
                Protocol::Uci => self.send(Command::Quit),
                Protocol::Gomocup => self.send_lines(&["END".to_string()]),
            };
        }
        self.stdin = None;
        let until = Instant::now() + grace;
        while !self.has_exited() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
    }

    /// The operating system's id of the process.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `text` cut to at most `max` bytes, at a character boundary.
fn cut(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str("...");
    }
    text
}

/// `exit status 3`, `killed by signal 9`, ...
fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => status.to_string(),
    }
}
