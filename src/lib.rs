//! kinrow: a game engine for k-in-a-row (m,n,k) games.
//!
//! The layers, each knowing only those below it:
//! - [`rules`]: geometry, board, moves, win detection, symmetries, perft;
//! - [`eval`]: heuristics, pure functions of a board;
//! - [`search`]: alpha-beta with a transposition table; knows nothing of text;
//! - [`engine`]: the facade that owns the searcher and its worker thread: go, stop, wait;
//! - [`protocol`]: command and reply types, nom parsers and formatting; no I/O;
//! - [`text`]: lexical helpers every text layer shares (excerpts, number tokens);
//! - [`io`]: reading command lines from a byte stream, with a byte limit;
//! - [`render`]: the board drawn for people, for every front end that shows one;
//! - [`client`]: engine processes, seats, faults and Ctrl-C, for `match` and `play`;
//! - [`uci`]: the engine's UCI-style session, the only writer to stdout;
//! - [`referee`]: `kinrow match`, games between engine processes and the random player;
//! - [`play`]: `kinrow play`, a person at the terminal against the engine (or a person);
//! - [`bench`] and [`fixture`]: the bench and solve workloads, and the lists in `fixtures/`
//!   the binary embeds for them;
//! - [`gomocup`]: `kinrow gomocup`, the engine as a Gomocup brain (Piskvork's protocol).

pub mod bench;
pub mod client;
pub mod engine;
pub mod eval;
pub mod fixture;
pub mod gomocup;
pub mod io;
pub mod play;
pub mod protocol;
pub mod referee;
pub mod render;
pub mod rules;
pub mod search;
pub mod text;
pub mod uci;
