//! The terminal side of the game: lines read from stdin on their own thread, text and the
//! board written to stdout, prompts, and a score put into words.

use super::input::{Entry, parse_entry};
use super::session::{PlayError, Stop};
use crate::client::interrupt;
use crate::io::{Input, spawn_stdin_reader};
use crate::protocol::Score;
use crate::rules::{Geometry, Position, Square};
use std::fmt;
use std::io::{IsTerminal, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How often a wait for input looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(100);

/// Reads stdin on its own thread, so that the game can wait for a line and watch for Ctrl-C
/// at the same time. The channel closes at end of input.
pub fn spawn_reader() -> Receiver<String> {
    let (tx, rx) = channel();
    spawn_stdin_reader(move |input, _| {
        let line = match input {
            Input::Line(line) => line,
            // Such lines still get an answer (they are no move), and the game goes on.
            Input::NotUtf8 => "<a line that is not UTF-8>".to_string(),
            Input::TooLong(n) => format!("<a line of {n} bytes>"),
            Input::End => return false,
        };
        tx.send(line).is_ok()
    });
    rx
}

/// Where the game talks to the person: input lines and the output stream.
pub struct Terminal<W: Write> {
    lines: Receiver<String>,
    out: W,
    /// Piped input is not echoed by a terminal: it is echoed here, so that a transcript
    /// reads like a session.
    echo: bool,
}

impl<W: Write> Terminal<W> {
    /// A terminal reading `lines` and writing to `out`.
    pub fn new(lines: Receiver<String>, out: W) -> Terminal<W> {
        Terminal {
            lines,
            out,
            echo: !std::io::stdin().is_terminal(),
        }
    }

    /// Writes a line.
    pub fn say(&mut self, text: impl fmt::Display) -> Result<(), Stop> {
        writeln!(self.out, "{text}")
            .and_then(|()| self.out.flush())
            .map_err(|e| Stop::Failed(PlayError::Terminal(e)))
    }

    /// Draws the board, the square `last` in brackets.
    pub fn draw(&mut self, position: &Position, last: Option<Square>) -> Result<(), Stop> {
        let text = crate::render::board_lines(position, last).join("\n");
        self.say(text)
    }

    fn show_prompt(&mut self, text: &str) -> Result<(), Stop> {
        write!(self.out, "{text}> ")
            .and_then(|()| self.out.flush())
            .map_err(|e| Stop::Failed(PlayError::Terminal(e)))
    }

    /// Reads an entry after showing `text`; a line that means nothing gets its message and
    /// the prompt again. End of input is [`Stop::Quit`], Ctrl-C [`Stop::Interrupted`].
    pub fn prompt(&mut self, text: &str, geometry: Geometry) -> Result<Entry, Stop> {
        self.show_prompt(text)?;
        loop {
            if interrupt::interrupted() {
                return Err(Stop::Interrupted);
            }
            match self.lines.recv_timeout(POLL) {
                Ok(line) => {
                    if self.echo {
                        self.say(&line)?;
                    }
                    match parse_entry(&line, geometry) {
                        Ok(entry) => return Ok(entry),
                        Err(e) => {
                            self.say(e)?;
                            self.show_prompt(text)?;
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.say("")?;
                    return Err(Stop::Quit);
                }
            }
        }
    }
}

/// What a score means for the side to move, in words.
pub fn opinion(score: Option<Score>) -> String {
    let plural = |n: i32| if n == 1 { "" } else { "s" };
    match score {
        Some(Score::Draw) => "draw with best play".into(),
        Some(Score::Mate(n)) if n > 0 => {
            format!("you can win in {n} move{}", plural(n))
        }
        Some(Score::Mate(n)) => {
            let n = -n;
            format!(
                "you lose with best play: the opponent wins in {n} move{}",
                plural(n)
            )
        }
        Some(Score::Cp(cp)) if cp > 50 => format!("you stand better (score {cp:+})"),
        Some(Score::Cp(cp)) if cp < -50 => format!("you stand worse (score {cp:+})"),
        Some(Score::Cp(cp)) => format!("about even (score {cp:+})"),
        None => "no opinion".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opinions() {
        assert_eq!(opinion(Some(Score::Draw)), "draw with best play");
        assert_eq!(opinion(Some(Score::Mate(3))), "you can win in 3 moves");
        assert_eq!(opinion(Some(Score::Mate(1))), "you can win in 1 move");
        assert_eq!(
            opinion(Some(Score::Mate(-2))),
            "you lose with best play: the opponent wins in 2 moves"
        );
        assert_eq!(opinion(Some(Score::Cp(80))), "you stand better (score +80)");
        assert_eq!(opinion(Some(Score::Cp(-3))), "about even (score -3)");
        assert_eq!(opinion(None), "no opinion");
    }

    #[test]
    fn prompts_read_entries_and_answer_nonsense() {
        let (tx, rx) = channel();
        for line in ["xyzzy", "b2"] {
            tx.send(line.to_string()).expect("the receiver is here");
        }
        drop(tx);
        let mut terminal = Terminal {
            lines: rx,
            out: Vec::new(),
            echo: true,
        };
        let g = Geometry::default();
        assert!(matches!(
            terminal.prompt("x to move", g),
            Ok(Entry::Square(4))
        ));
        assert!(matches!(terminal.prompt("o to move", g), Err(Stop::Quit)));
        let text = String::from_utf8_lossy(&terminal.out).into_owned();
        assert!(
            text.starts_with("x to move> xyzzy\n'xyzzy' is not a move or a command"),
            "{text}"
        );
        assert!(text.contains("x to move> b2\no to move> \n"), "{text}");
    }
}
