//! The terminal side of the game: lines read from stdin on their own thread, text and the
//! board written to stdout, prompts, and a score put into words.
//!
//! Written to a terminal, the board is redrawn in place (the screen cleared, the scoreboard
//! on top, the board in colour, then what was said since the board before); written
//! anywhere else, it is plain text, one board after another, for scripts and logs.

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

/// How many lines said since the last board a redraw repeats under it, at most.
const RECENT_LINES: usize = 12;

/// Clears the screen and puts the cursor at its top left (ANSI).
const CLEAR: &str = "\x1b[H\x1b[2J";

/// A terminal's screen: the board redrawn in place.
struct Screen {
    /// Whether the board is drawn in colour (not when `NO_COLOR` is set).
    colour: bool,
    /// What was said since the last board or prompt, repeated under the next board so that
    /// clearing the screen loses nothing new.
    recent: Vec<String>,
}

/// Where the game talks to the person: input lines and the output stream.
pub struct Terminal<W: Write> {
    lines: Receiver<String>,
    out: W,
    /// Piped input is not echoed by a terminal: it is echoed here, so that a transcript
    /// reads like a session.
    echo: bool,
    /// Set when the output is a terminal.
    screen: Option<Screen>,
    /// Whether a person is typing at a terminal (input not piped).
    interactive: bool,
}

impl<W: Write> Terminal<W> {
    /// A terminal reading `lines` and writing to `out`; `screen` says that `out` is a
    /// terminal, where the board is redrawn in place.
    pub fn new(lines: Receiver<String>, out: W, screen: bool) -> Terminal<W> {
        let interactive = std::io::stdin().is_terminal();
        let colour = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        Terminal {
            lines,
            out,
            echo: !interactive,
            screen: screen.then(|| Screen {
                colour,
                recent: Vec::new(),
            }),
            interactive,
        }
    }

    /// Whether the output is a terminal (the board is redrawn in place).
    pub fn is_screen(&self) -> bool {
        self.screen.is_some()
    }

    /// Whether a person types at a terminal (input not piped): only then may the game ask
    /// questions that scripts would not expect.
    pub fn is_interactive(&self) -> bool {
        self.interactive
    }

    fn write(&mut self, text: &str) -> Result<(), Stop> {
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(|e| Stop::Failed(PlayError::Terminal(e)))
    }

    /// Writes a line.
    pub fn say(&mut self, text: impl fmt::Display) -> Result<(), Stop> {
        let text = text.to_string();
        if let Some(screen) = &mut self.screen {
            screen.recent.extend(text.lines().map(String::from));
            let excess = screen.recent.len().saturating_sub(RECENT_LINES);
            screen.recent.drain(..excess);
        }
        self.write(&format!("{text}\n"))
    }

    /// Draws the board, the square `last` in brackets. On a terminal the screen is cleared
    /// first and `header` (the scoreboard) written above the board, and what was said since
    /// the last board below it.
    pub fn draw(
        &mut self,
        position: &Position,
        last: Option<Square>,
        header: &str,
    ) -> Result<(), Stop> {
        let Some(screen) = &mut self.screen else {
            let text = crate::render::board_lines(position, last).join("\n");
            return self.say(text);
        };
        let board = if screen.colour {
            crate::render::board_lines_coloured(position, last)
        } else {
            crate::render::board_lines(position, last)
        };
        let mut text = format!("{CLEAR}{header}\n\n");
        for line in board.iter().chain(&screen.recent) {
            text.push_str(line);
            text.push('\n');
        }
        screen.recent.clear();
        self.write(&text)
    }

    fn show_prompt(&mut self, text: &str) -> Result<(), Stop> {
        write!(self.out, "{text}> ")
            .and_then(|()| self.out.flush())
            .map_err(|e| Stop::Failed(PlayError::Terminal(e)))
    }

    /// Reads an entry after showing `text`; a line that means nothing gets its message and
    /// the prompt again. End of input is [`Stop::Quit`], Ctrl-C [`Stop::Interrupted`].
    pub fn prompt(&mut self, text: &str, geometry: Geometry) -> Result<Entry, Stop> {
        loop {
            let line = self.ask(text)?;
            match parse_entry(&line, geometry) {
                Ok(entry) => return Ok(entry),
                Err(e) => self.say(e)?,
            }
        }
    }

    /// Reads a line after showing `text`. End of input is [`Stop::Quit`], Ctrl-C
    /// [`Stop::Interrupted`].
    pub fn ask(&mut self, text: &str) -> Result<String, Stop> {
        if let Some(screen) = &mut self.screen {
            // Already on the screen; the next board need not repeat it.
            screen.recent.clear();
        }
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
                    return Ok(line);
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
            screen: None,
            interactive: false,
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
