//! The brain's replies as typed values and their exact text. No I/O.

use super::command::Coord;
use std::fmt;

/// What `ABOUT` answers: `key="value"` pairs, as the protocol recommends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    /// The brain's name.
    pub name: &'static str,
    /// Its version.
    pub version: &'static str,
    /// Who wrote it.
    pub author: &'static str,
}

/// kinrow's own `ABOUT`.
pub const ABOUT: About = About {
    name: "kinrow",
    version: env!("CARGO_PKG_VERSION"),
    author: "the kinrow developers",
};

/// One line the brain sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`: to `START`, `RECTSTART`, `RESTART` and `TAKEBACK`.
    Ok,
    /// `X,Y`: the brain's move.
    Move(Coord),
    /// `name="kinrow", version="...", author="..."`: to `ABOUT`.
    About(About),
    /// `UNKNOWN text`: the command is not one kinrow knows or supports.
    Unknown(String),
    /// `ERROR text`: a known command that cannot be carried out; nothing was changed.
    Error(String),
    /// `MESSAGE text`: something for the person running the manager.
    Message(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Move(at) => write!(f, "{at}"),
            Reply::About(a) => write!(
                f,
                "name=\"{}\", version=\"{}\", author=\"{}\"",
                a.name, a.version, a.author
            ),
            Reply::Unknown(text) => write!(f, "UNKNOWN {}", OneLine(text)),
            Reply::Error(text) => write!(f, "ERROR {}", OneLine(text)),
            Reply::Message(text) => write!(f, "MESSAGE {}", OneLine(text)),
        }
    }
}

/// Text with line breaks turned into spaces: a reply is one line whatever it quotes (the
/// messages escape what they echo, so this is only a last defence).
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') {
                f.write_str(" ")?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(Reply::Ok.to_string(), "OK");
        assert_eq!(Reply::Move(Coord { x: 11, y: 10 }).to_string(), "11,10");
        assert_eq!(
            Reply::About(ABOUT).to_string(),
            format!(
                "name=\"kinrow\", version=\"{}\", author=\"the kinrow developers\"",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(
            Reply::Unknown("unknown command 'X'".into()).to_string(),
            "UNKNOWN unknown command 'X'"
        );
        assert_eq!(Reply::Error("bad".into()).to_string(), "ERROR bad");
        assert_eq!(Reply::Message("hi".into()).to_string(), "MESSAGE hi");
    }

    #[test]
    fn always_one_line() {
        let r = Reply::Error("a\nb\r\nc\u{2028}d".into()).to_string();
        assert_eq!(r, "ERROR a b  c d");
        assert!(!r.contains('\n'));
    }
}
