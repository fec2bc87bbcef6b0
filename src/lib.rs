//! kinrow: a game engine for k-in-a-row (m,n,k) games.
//!
//! The modules form a fan: each imports only modules on the floors below it, and no front
//! end imports another (`tests/architecture.rs` checks this on every test run).
//!
//! ```text
//!   uci      gomocup      referee      play      serve    report     tune     front ends, side by side
//!    |          |            |           |         |        |          |
//!    |          |          client -------+---------+--------|----------+     engine processes, seats, Ctrl-C
//!    |          |            |           |         |        |          |
//!  protocol (parse + format, game bridge)   io   text   render   stats      shared
//!    |          |            |           |
//!  engine (facade: go / stop / wait)   bench + fixture            core
//!  search  ->  eval  ->  rules
//! ```
//!
//! - Core, no text and no I/O: [`rules`] (geometry, positions, moves, win detection,
//!   symmetries, perft; knows nothing of search), [`eval`] (heuristics, pure functions of a
//!   position), [`search`] (alpha-beta, table, threat search, pairing proofs, the proof
//!   search, time),
//!   [`engine`] (the facade that owns the searcher and its worker thread: go, stop, wait),
//!   [`bench`] and [`fixture`] (the bench and solve workloads and the lists in `fixtures/`
//!   that the binary embeds).
//! - Shared by the front ends: [`protocol`] (commands and replies, parsed and formatted,
//!   and the bridge between its values and the rules'), [`io`] (line reader with a byte
//!   limit, line writer that survives a closed pipe), [`text`] (excerpts, number tokens,
//!   line errors), [`render`] (the board drawn for people), [`client`] (engine processes,
//!   seats, faults, endings, the engine spec and Ctrl-C, for `match` and `play`), [`stats`]
//!   (Elo, LOS and SPRT, for `match` and `report`).
//! - Front ends: [`uci`] (the engine's UCI-style session), [`gomocup`] (the Gomocup brain),
//!   [`referee`] (`kinrow match`), [`play`] (`kinrow play`), [`serve`] (`kinrow serve`: the
//!   browser board, its JSON API and live search over Server-Sent Events, one engine per
//!   game), [`report`] (`kinrow report`: a match's records as a picture), [`tune`]
//!   (`kinrow tune`: SPSA tuning and SPRT tests of the search's parameters, over games that
//!   `kinrow match` plays as a child process).

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
pub mod report;
pub mod rules;
pub mod search;
pub mod serve;
pub mod stats;
pub mod text;
pub mod tune;
pub mod uci;
