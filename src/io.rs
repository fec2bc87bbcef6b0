//! Line I/O for the sessions: reading command lines from a byte stream, whatever it holds,
//! and writing replies to an output that may close at any time.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt::Display;
use std::io::{BufRead, ErrorKind, IsTerminal, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

/// How many characters of a received line the debug log shows: enough for a long
/// `position ... moves ...`, not a megabyte of garbage.
const LOGGED_CHARS: usize = 2_000;

/// Whether a session goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on reading.
    Continue,
    /// The session ends: it was told to quit, its input ended, or its output closed.
    Quit,
}

/// Where a session writes its replies: one line at a time, each flushed at once (the other
/// side waits for it). After a write fails (typically a closed pipe: the reader is gone)
/// nothing more is written and [`Output::is_closed`] says so, so that the session can end;
/// unlike `println!`, a closed output never panics.
pub struct Output<W: Write> {
    out: W,
    closed: bool,
}

impl<W: Write> Output<W> {
    /// Replies written to `out`.
    pub fn new(out: W) -> Output<W> {
        Output { out, closed: false }
    }

    /// Writes `reply` and a line end, and flushes; does nothing once the output is closed.
    /// Returns whether the line was written.
    pub fn line(&mut self, reply: impl Display) -> bool {
        if self.closed {
            return false;
        }
        let written = writeln!(self.out, "{reply}").and_then(|()| self.out.flush());
        if let Err(e) = written {
            log::debug!("output closed ({e}); nothing more will be written");
            self.closed = true;
        }
        !self.closed
    }

    /// Whether a write has failed: nobody reads any more, and the session should end.
    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

/// Logs, at `debug`, a line a session received (cut short, and with control characters
/// escaped, so that the log stays readable whatever came in).
pub fn log_received(line: &str) {
    if log::log_enabled!(log::Level::Debug) {
        let shown: String = line.chars().take(LOGGED_CHARS).collect();
        let cut = if shown.len() < line.len() { "..." } else { "" };
        log::debug!("received: {}{cut}", shown.escape_debug());
    }
}

/// Lines longer than this are not kept whole: the rest is skipped and the line reported as
/// too long, so that a runaway writer cannot make the engine grow without bound.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// One line of input, or why it cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line (without its line ending).
    Line(String),
    /// A line that is not valid UTF-8.
    NotUtf8,
    /// A line over [`MAX_LINE_BYTES`].
    TooLong(usize),
    /// End of input (or a read error, which ends input just the same).
    End,
}

/// How many bytes of lines the stdin reader may have read ahead of the session: lines read
/// but not yet handled. At the limit it stops reading until the session catches up, so a
/// flood of input waits in the pipe (its writer blocks) instead of in the engine's memory.
pub const MAX_READ_AHEAD_BYTES: usize = 4 * MAX_LINE_BYTES;

/// What one input read ahead counts against [`MAX_READ_AHEAD_BYTES`]: its text and a
/// fixed share for its keeping (the event around it, the allocation), so that a flood of
/// short or empty lines is bounded as well as one of long lines.
pub fn read_ahead_cost(input: &Input) -> usize {
    const PER_INPUT: usize = 64;
    PER_INPUT
        + match input {
            Input::Line(line) => line.len(),
            _ => 0,
        }
}

/// The bytes of lines read ahead of a session, shared by its reader (which waits at
/// [`MAX_READ_AHEAD_BYTES`]) and the session (which says when it has handled a line).
#[derive(Clone, Default)]
pub struct ReadAhead(Arc<(Mutex<usize>, Condvar)>);

impl ReadAhead {
    /// A fresh account: nothing read ahead.
    pub fn new() -> ReadAhead {
        ReadAhead::default()
    }

    /// Waits until `bytes` more fit under the limit (a line alone always fits), then counts
    /// them.
    fn take(&self, bytes: usize) {
        let (count, room) = &*self.0;
        let mut held = count.lock().unwrap_or_else(PoisonError::into_inner);
        while *held > 0 && *held + bytes > MAX_READ_AHEAD_BYTES {
            held = room.wait(held).unwrap_or_else(PoisonError::into_inner);
        }
        *held += bytes;
    }

    /// The session has handled a line of `bytes` bytes.
    pub fn release(&self, bytes: usize) {
        let (count, room) = &*self.0;
        let mut held = count.lock().unwrap_or_else(PoisonError::into_inner);
        *held = held.saturating_sub(bytes);
        room.notify_all();
    }

    /// The bytes read and not yet released.
    pub fn held(&self) -> usize {
        *self.0.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// [`spawn_stdin_reader`], reading no further while the inputs delivered and not yet
/// [released](ReadAhead::release) cost [`MAX_READ_AHEAD_BYTES`]: the receiver releases each
/// input's [`read_ahead_cost`] once it has handled it.
pub fn spawn_bounded_stdin_reader(
    ahead: ReadAhead,
    mut deliver: impl FnMut(Input, Instant) -> bool + Send + 'static,
) {
    spawn_stdin_reader(move |input, at| {
        ahead.take(read_ahead_cost(&input));
        deliver(input, at)
    });
}

/// Reads stdin on a thread of its own, handing each line, with the time it was read, to
/// `deliver`, until the end of input (which is delivered too) or until `deliver` returns
/// `false` (its receiver is gone). The thread is not joined: it may sit in a blocking read
/// when the program ends.
pub fn spawn_stdin_reader(mut deliver: impl FnMut(Input, Instant) -> bool + Send + 'static) {
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        loop {
            let input = read_line(&mut lock);
            let end = input == Input::End;
            if !deliver(input, Instant::now()) || end {
                break;
            }
        }
    });
}

/// Reads the next line: up to `\n`; a lone `\r` also ends a line, so CR-only input works.
pub fn read_line(reader: &mut impl BufRead) -> Input {
    let mut line: Vec<u8> = Vec::new();
    let mut length = 0usize;
    let mut saw_any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return Input::End,
        };
        if buf.is_empty() {
            if !saw_any {
                return Input::End;
            }
            break;
        }
        saw_any = true;
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                // Treat "\r\n" as one line end: swallow the "\n" when it is already buffered.
                let skip = if buf[i] == b'\r' && buf.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                (&buf[..i], i + skip, true)
            }
            None => (buf, buf.len(), false),
        };
        length += chunk.len();
        if line.len() < MAX_LINE_BYTES {
            let room = MAX_LINE_BYTES - line.len();
            line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        reader.consume(used);
        if done {
            break;
        }
    }
    if length > MAX_LINE_BYTES {
        return Input::TooLong(length);
    }
    match String::from_utf8(line) {
        Ok(s) => Input::Line(s),
        Err(_) => Input::NotUtf8,
    }
}

/// Writes one line to stderr for a person, ignoring a closed or failing stderr (unlike
/// `eprintln!`, which panics then: `kinrow match ... 2>&1 | head -1` must not end in a
/// panic). The line is the last word of a failed command, so there is nobody else to tell.
pub fn complain(line: impl std::fmt::Display) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// What a session's event loop waits for next.
pub enum Next<E> {
    /// An event arrived.
    Event(E),
    /// The deadline passed first.
    Deadline,
    /// Every sender is gone: nothing more will come.
    Closed,
}

/// The next event on `inbox`, waiting no later than `deadline` if there is one: the event
/// loops of the UCI session and the Gomocup brain, which answer by themselves at a search's
/// guard deadline (see [`crate::search::time::guard_deadline`]).
pub fn next_event<E>(inbox: &Receiver<E>, deadline: Option<Instant>) -> Next<E> {
    match deadline {
        Some(at) => match inbox.recv_timeout(at.saturating_duration_since(Instant::now())) {
            Ok(event) => Next::Event(event),
            Err(RecvTimeoutError::Timeout) => Next::Deadline,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        },
        None => inbox.recv().map_or(Next::Closed, Next::Event),
    }
}

/// A session that reads its commands from stdin and may have to act by itself at a
/// deadline (the UCI session and the Gomocup brain, which answer at a search's guard
/// deadline): what [`drive_from_stdin`] needs to know of it.
pub trait Driven {
    /// Everything the session reacts to.
    type Event: Send + 'static;

    /// The event that carries a line (or the end) of stdin, read at `at`.
    fn input_event(input: Input, at: Instant) -> Self::Event;

    /// The input an event carries, if it is one: its bytes count as read ahead until the
    /// session has handled it.
    fn input_of(event: &Self::Event) -> Option<&Input>;

    /// When the session must act by itself, if it must.
    fn deadline(&self) -> Option<Instant>;

    /// The deadline has passed.
    fn deadline_passed(&mut self);

    /// Handles one event.
    fn handle(&mut self, event: Self::Event) -> Flow;
}

/// Hands `session` the events from `inbox` while `busy` says it is (each must come within
/// 10 s): for tests that drive a session event by event.
#[cfg(test)]
pub fn handle_while<S: Driven>(session: &mut S, inbox: &Receiver<S::Event>, busy: fn(&S) -> bool) {
    while busy(session) {
        let event = inbox
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the session's work ends");
        session.handle(event);
    }
}

/// The event loop of a [`Driven`] session: reads stdin into `events` on a thread of its
/// own, and hands the session each event from `inbox` (or the passing of its deadline) until
/// it quits or every sender is gone.
pub fn drive_from_stdin<S: Driven>(
    session: &mut S,
    events: Sender<S::Event>,
    inbox: &Receiver<S::Event>,
) {
    // Lines read but not yet handled are bounded in bytes too: a flood waits in the pipe.
    let ahead = ReadAhead::new();
    spawn_bounded_stdin_reader(ahead.clone(), move |input, at| {
        events.send(S::input_event(input, at)).is_ok()
    });
    loop {
        let event = match next_event(inbox, session.deadline()) {
            Next::Event(event) => event,
            Next::Deadline => {
                session.deadline_passed();
                continue;
            }
            Next::Closed => break,
        };
        let read = S::input_of(&event).map_or(0, read_ahead_cost);
        let flow = session.handle(event);
        ahead.release(read);
        if flow == Flow::Quit {
            break;
        }
    }
}

/// A progress bar on stderr (indicatif) for a long run that a person may watch (a match, a
/// tuning run), or nothing when stderr is not a terminal (a log, a pipe, a test), so that
/// it never mixes with what a program reads.
pub struct Bar(Option<ProgressBar>);

impl Bar {
    /// A bar of `total` steps drawn with `template`, `done` of them already taken (a resumed
    /// run).
    pub fn new(template: &str, total: usize, done: usize) -> Bar {
        if !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        let style =
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style.progress_chars("=> "));
        bar.set_position(done as u64);
        // The estimate counts only the steps of this run, not those taken before it.
        bar.reset_eta();
        Bar(Some(bar))
    }

    /// Whether the bar is drawn (stderr is a terminal).
    pub fn is_shown(&self) -> bool {
        self.0.is_some()
    }

    /// Runs `write` with the bar out of the way, and draws it again after, so that lines
    /// printed meanwhile go above it.
    pub fn suspend<T>(&self, write: impl FnOnce() -> T) -> T {
        match &self.0 {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Moves the bar to `position` steps, with `message` beside it.
    pub fn show(&self, position: usize, message: String) {
        if let Some(bar) = &self.0 {
            bar.set_position(position as u64);
            bar.set_message(message);
        }
    }

    /// Redraws the elapsed time while nothing else happens.
    pub fn tick(&self) {
        if let Some(bar) = &self.0 {
            bar.tick();
        }
    }

    /// Takes the bar off the screen, before the run's last words.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// A writer whose bytes a test can read back while a session owns it.
#[cfg(test)]
#[derive(Clone, Default)]
pub struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
impl SharedBuffer {
    /// The lines written so far.
    pub fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().expect("not poisoned").clone();
        String::from_utf8(bytes)
            .expect("UTF-8")
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// A fresh, empty folder for a test's files, `kinrow-<name>-<pid>` in the system's
/// temporary folder: what an earlier run left there is removed first.
///
/// # Errors
///
/// The error of making the folder.
#[cfg(test)]
pub fn scratch_dir(name: &str) -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("kinrow-{name}-{}", std::process::id()));
    // Nothing there is the usual case, not an error.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn all(bytes: &[u8]) -> Vec<Input> {
        let mut r = Cursor::new(bytes.to_vec());
        let mut out = Vec::new();
        loop {
            let i = read_line(&mut r);
            if i == Input::End {
                return out;
            }
            out.push(i);
        }
    }

    #[test]
    fn line_ends() {
        let l = |s: &str| Input::Line(s.to_string());
        assert_eq!(
            all(b"uci\nisready\r\nquit"),
            vec![l("uci"), l("isready"), l("quit")]
        );
        assert_eq!(all(b"a\rb\r"), vec![l("a"), l("b")]);
        assert_eq!(all(b"\n\n"), vec![l(""), l("")]);
        assert_eq!(all(b""), vec![]);
        assert_eq!(all(b"\xff\xfe\nok\n"), vec![Input::NotUtf8, l("ok")]);
    }

    /// A writer that takes `room` bytes, then fails as a closed pipe does.
    struct Pipe {
        room: usize,
        written: Vec<u8>,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(std::io::Error::from(ErrorKind::BrokenPipe));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.written.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn output_goes_quiet_after_a_failed_write() {
        let mut out = Output::new(Pipe {
            room: 10,
            written: Vec::new(),
        });
        assert!(out.line("readyok"));
        assert!(!out.is_closed());
        assert!(!out.line("bestmove a1"));
        assert!(out.is_closed());
        assert!(!out.line("more"));
        assert_eq!(out.out.written, b"readyok\nbe");
    }

    #[test]
    fn read_ahead_waits_at_its_limit() {
        let ahead = ReadAhead::new();
        ahead.take(MAX_LINE_BYTES);
        ahead.take(3 * MAX_LINE_BYTES);
        assert_eq!(ahead.held(), MAX_READ_AHEAD_BYTES);
        let reader = {
            let ahead = ahead.clone();
            std::thread::spawn(move || ahead.take(10))
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        // Still waiting: nothing was released.
        assert!(!reader.is_finished());
        assert_eq!(ahead.held(), MAX_READ_AHEAD_BYTES);
        ahead.release(MAX_LINE_BYTES);
        reader.join().unwrap();
        assert_eq!(ahead.held(), 3 * MAX_LINE_BYTES + 10);
        // A line alone always fits, however long.
        let alone = ReadAhead::new();
        alone.take(MAX_READ_AHEAD_BYTES + 1);
        assert_eq!(alone.held(), MAX_READ_AHEAD_BYTES + 1);
    }

    #[test]
    fn long_lines_are_cut() {
        let mut bytes = vec![b'a'; MAX_LINE_BYTES + 10];
        bytes.extend_from_slice(b"\nisready\n");
        let got = all(&bytes);
        assert_eq!(
            got,
            vec![
                Input::TooLong(MAX_LINE_BYTES + 10),
                Input::Line("isready".into())
            ]
        );
    }
}

/// A file that [`read_bounded`] could not give.
#[derive(Debug, thiserror::Error)]
pub enum BoundedReadError {
    /// It could not be opened or read, or is not UTF-8.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// It holds more than the bound.
    #[error("larger than {0} bytes")]
    TooLarge(u64),
}

/// The text of the file at `path`, read only up to `max` bytes: a mistaken path (a device,
/// a huge log) is refused rather than read into memory.
///
/// # Errors
///
/// [`BoundedReadError`]: unreadable, or larger than `max`.
pub fn read_bounded(path: &std::path::Path, max: u64) -> Result<String, BoundedReadError> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(max.saturating_add(1))
        .read_to_string(&mut text)?;
    if text.len() as u64 > max {
        return Err(BoundedReadError::TooLarge(max));
    }
    Ok(text)
}

/// A line of a file that [`FileLines`] could not give; reading stops at it.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The system refused (the file went away, a read failed).
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// A line over the bound: not a file of this kind, or a damaged one.
    #[error("line {line} is longer than {max} bytes")]
    TooLong {
        /// The line number, from 1.
        line: usize,
        /// The bound.
        max: usize,
    },
    /// A line that is not UTF-8.
    #[error("line {line} is not UTF-8 text")]
    NotUtf8 {
        /// The line number, from 1.
        line: usize,
    },
}

impl LineError {
    /// What went wrong, without the line number (for a message that names the line
    /// already).
    pub fn what(&self) -> String {
        match self {
            LineError::Io(e) => format!("cannot read it: {e}"),
            LineError::TooLong { max, .. } => format!("longer than {max} bytes"),
            LineError::NotUtf8 { .. } => "not UTF-8 text".into(),
        }
    }

    /// The line it is about, if it is about one.
    pub fn line(&self) -> Option<usize> {
        match self {
            LineError::Io(_) => None,
            LineError::TooLong { line, .. } | LineError::NotUtf8 { line } => Some(*line),
        }
    }
}

/// A text file read one line at a time, each line at most a set number of bytes, so that
/// reading it takes memory for one line whatever the file holds (a record of millions of
/// games, a mistaken path to a huge log). Gives `(line number from 1, line)` without the
/// line end; after an error it gives nothing more.
pub struct FileLines<R = std::io::BufReader<std::fs::File>> {
    reader: R,
    max_line: usize,
    number: usize,
    buf: Vec<u8>,
    done: bool,
}

impl FileLines {
    /// The lines of the file at `path`, each at most `max_line` bytes.
    ///
    /// # Errors
    ///
    /// The file cannot be opened.
    pub fn open(path: &std::path::Path, max_line: usize) -> std::io::Result<FileLines> {
        Ok(FileLines::new(
            std::io::BufReader::new(std::fs::File::open(path)?),
            max_line,
        ))
    }
}

impl<R: BufRead> FileLines<R> {
    /// The lines of `reader`, each at most `max_line` bytes.
    pub fn new(reader: R, max_line: usize) -> FileLines<R> {
        FileLines {
            reader,
            max_line,
            number: 0,
            buf: Vec::new(),
            done: false,
        }
    }

    fn read_line(&mut self) -> Result<Option<String>, LineError> {
        use std::io::Read;
        self.buf.clear();
        // The line, its CR LF, and one byte more to tell a line over the bound.
        let limit = self.max_line as u64 + 3;
        let n = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        if self.buf.len() > self.max_line {
            return Err(LineError::TooLong {
                line: self.number,
                max: self.max_line,
            });
        }
        let line = std::mem::take(&mut self.buf);
        String::from_utf8(line)
            .map(Some)
            .map_err(|_| LineError::NotUtf8 { line: self.number })
    }
}

impl<R: BufRead> Iterator for FileLines<R> {
    type Item = Result<(usize, String), LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_line() {
            Ok(Some(line)) => Some(Ok((self.number, line))),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod file_lines_tests {
    use super::*;

    fn lines(bytes: &[u8], max: usize) -> Vec<Result<(usize, String), String>> {
        FileLines::new(bytes, max)
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    /// Lines are given with their numbers and without their ends; a line over the bound, or
    /// not UTF-8, ends the reading with its number.
    #[test]
    fn lines_and_their_numbers() {
        let ok = |number, line: &str| Ok((number, line.to_string()));
        let err = |message: &str| Err(message.to_string());
        let long = vec![b'x'; 10_000_000];
        let cases: [(&[u8], usize, Vec<_>); 5] = [
            (b"ab\r\n\ncd", 2, vec![ok(1, "ab"), ok(2, ""), ok(3, "cd")]),
            (b"", 2, vec![]),
            (
                b"ab\nabc\nd\n",
                2,
                vec![ok(1, "ab"), err("line 2 is longer than 2 bytes")],
            ),
            (&long, 100, vec![err("line 1 is longer than 100 bytes")]),
            (
                b"ok\n\xff\xfe\n",
                10,
                vec![ok(1, "ok"), err("line 2 is not UTF-8 text")],
            ),
        ];
        for (bytes, max, want) in cases {
            let start = &bytes[..bytes.len().min(20)];
            assert_eq!(lines(bytes, max), want, "{}", start.escape_ascii());
        }
    }
}
