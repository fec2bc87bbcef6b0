//! A model-based test: a seeded generator writes long random command sequences, valid and
//! invalid mixed, and a small reference model of the engine's state (geometry, stones, side
//! to move, winner) predicts which lines must be errors and what `show` must print. The real
//! binary must agree on every line, for over 100,000 commands per run.
//!
//! Commands go in small batches, each followed by `show`, and the replies are checked line
//! by line: a predicted error must get exactly one `info string error:` line naming the
//! command (for a bad move, the move's number and square), a valid command none, and `show`
//! must end with the status line and `position board` line the model computes. A rare
//! `go depth 1` must give exactly one legal `bestmove`. The model knows the queue too: now
//! and then a `go infinite` is followed by queued jobs (more `go infinite`s among them) and
//! positions, then `stop`, then more commands; every job before the stop must end, each
//! `go` with one legal `bestmove` for the position it was queued behind, and what follows
//! the stop must run as usual. Searches are kept rare so that the run takes seconds.

use crate::common;

use common::transcript::Engine;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// The largest number of columns or rows (protocol.md, "The game": each from 1 to 20).
const MAX_SIDE: usize = 20;

/// The engine's game state as the model sees it.
#[derive(Clone, Debug)]
struct Model {
    columns: usize,
    rows: usize,
    k: usize,
    /// Cells from a1 along rank 1, then rank 2, ...; 0 is x, 1 is o.
    cells: Vec<Option<u8>>,
    side: u8,
    winner: Option<u8>,
    /// Every line of k cells on the board.
    windows: Vec<Vec<usize>>,
}

impl Model {
    fn new(columns: usize, rows: usize, k: usize) -> Model {
        let mut windows = Vec::new();
        for rank in 0..rows as isize {
            for file in 0..columns as isize {
                for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let end = (file + df * (k as isize - 1), rank + dr * (k as isize - 1));
                    if (0..columns as isize).contains(&end.0) && (0..rows as isize).contains(&end.1)
                    {
                        windows.push(
                            (0..k as isize)
                                .map(|i| {
                                    ((rank + dr * i) * columns as isize + file + df * i) as usize
                                })
                                .collect(),
                        );
                    }
                }
            }
        }
        // With k = 1 the four directions give the same one-cell line four times.
        windows.sort();
        windows.dedup();
        Model {
            columns,
            rows,
            k,
            cells: vec![None; columns * rows],
            side: 0,
            winner: None,
            windows,
        }
    }

    fn stones(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    fn full(&self) -> bool {
        self.stones() == self.cells.len()
    }

    fn over(&self) -> bool {
        self.winner.is_some() || self.full()
    }

    /// Why `sq` cannot be played, in the engine's words, or `None` if it can.
    fn refusal(&self, file: usize, rank: usize) -> Option<&'static str> {
        if file >= self.columns || rank >= self.rows {
            Some("is off the")
        } else if self.over() {
            Some("cannot be played: the game is over")
        } else if self.cells[rank * self.columns + file].is_some() {
            Some("cannot be played: the square is already occupied")
        } else {
            None
        }
    }

    fn play(&mut self, file: usize, rank: usize) {
        let sq = rank * self.columns + file;
        self.cells[sq] = Some(self.side);
        if self
            .windows
            .iter()
            .any(|w| w.contains(&sq) && w.iter().all(|&c| self.cells[c] == Some(self.side)))
        {
            self.winner = Some(self.side);
        }
        self.side ^= 1;
    }

    fn empty_squares(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&s| self.cells[s].is_none())
            .collect()
    }

    /// The engine's `is_dead_draw`: neither side can complete a line with the stones it has
    /// left to place.
    fn dead_draw(&self) -> bool {
        let empties = self.cells.len() - self.stones();
        (0..2u8).all(|p| {
            let left = if p == self.side {
                empties.div_ceil(2)
            } else {
                empties / 2
            };
            !self.windows.iter().any(|w| {
                let own = w.iter().filter(|&&c| self.cells[c] == Some(p)).count();
                let theirs = w.iter().filter(|&&c| self.cells[c] == Some(p ^ 1)).count();
                theirs == 0 && self.k - own <= left
            })
        })
    }

    fn diagram(&self) -> String {
        (0..self.rows)
            .rev()
            .map(|rank| {
                (0..self.columns)
                    .map(|file| match self.cells[rank * self.columns + file] {
                        None => '.',
                        Some(0) => 'x',
                        Some(_) => 'o',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The last two lines of `show`.
    fn shown(&self) -> [String; 2] {
        let letter = |p: u8| if p == 0 { 'x' } else { 'o' };
        let state = match self.winner {
            Some(p) => format!("result: {} wins", letter(p)),
            None if self.full() => "result: draw (the board is full)".to_string(),
            None if self.dead_draw() => format!(
                "{} to move; dead draw: neither side can still complete a line",
                letter(self.side)
            ),
            None => format!("{} to move", letter(self.side)),
        };
        let stones = match self.stones() {
            1 => "1 stone".to_string(),
            n => format!("{n} stones"),
        };
        [
            format!(
                "game {}x{} k={}, {stones}, {state}",
                self.columns, self.rows, self.k
            ),
            format!("position board {} {}", self.diagram(), letter(self.side)),
        ]
    }

    /// Sets up a diagram (ranks from the top) as `position board` does, or says it cannot.
    fn set_up(&self, grid: &[Vec<Option<u8>>], side: u8) -> Option<Model> {
        if grid.len() != self.rows || grid.iter().any(|r| r.len() != self.columns) {
            return None;
        }
        let mut m = Model::new(self.columns, self.rows, self.k);
        for (i, row) in grid.iter().enumerate() {
            let rank = self.rows - 1 - i;
            for (file, &cell) in row.iter().enumerate() {
                m.cells[rank * self.columns + file] = cell;
            }
        }
        let count = |p| m.cells.iter().filter(|&&c| c == Some(p)).count();
        let (x, o) = (count(0), count(1));
        let to_move = match x.checked_sub(o) {
            Some(0) => 0,
            Some(1) => 1,
            _ => return None,
        };
        if side != to_move {
            return None;
        }
        let won = |p: u8| -> Vec<&Vec<usize>> {
            m.windows
                .iter()
                .filter(|w| w.iter().all(|&c| m.cells[c] == Some(p)))
                .collect()
        };
        let (wx, wo) = (won(0), won(1));
        let winner = match (wx.is_empty(), wo.is_empty()) {
            (true, true) => None,
            (false, false) => return None,
            (false, true) => Some(0),
            (true, false) => Some(1),
        };
        if let Some(p) = winner {
            // The winner moved last, and one stone (the last move) is in all its lines.
            let lines = if p == 0 { &wx } else { &wo };
            if p == side || !lines[0].iter().any(|s| lines.iter().all(|l| l.contains(s))) {
                return None;
            }
        }
        m.side = side;
        m.winner = winner;
        Some(m)
    }
}

/// A square as the protocol writes it, sometimes in the drop form.
fn square_text(rng: &mut StdRng, file: usize, rank: usize) -> String {
    let drop = if rng.random_ratio(1, 10) { "P@" } else { "" };
    format!("{drop}{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// What a line must produce.
enum Expect {
    /// Nothing at all.
    Silent,
    /// Exactly one error line containing this text.
    Error(String),
    /// One line, exactly this.
    Line(String),
    /// The `uci` reply: the ids, the options (one per search parameter among them) and
    /// `uciok`.
    Uci,
}

/// The generator and the model: produces a line, updates the model, says what must come back.
struct Generator {
    rng: StdRng,
    model: Model,
}

impl Generator {
    fn next(&mut self) -> (String, Expect) {
        match self.rng.random_range(0..100) {
            0..=34 => self.position_startpos(),
            35..=54 => self.position_board(),
            55..=62 => self.newgame(),
            63..=72 => self.setoption(),
            73..=80 => self.garbage(),
            81..=84 => (
                "ucinewgame".into(),
                self.reset(self.model.columns, self.model.rows, self.model.k),
            ),
            85..=88 => ("isready".into(), Expect::Line("readyok".into())),
            89..=91 => ("stop".into(), Expect::Silent),
            92..=96 => ("uci".into(), Expect::Uci),
            _ => ("# a comment".into(), Expect::Silent),
        }
    }

    fn reset(&mut self, columns: usize, rows: usize, k: usize) -> Expect {
        self.model = Model::new(columns, rows, k);
        Expect::Silent
    }

    /// A move list from `start`: mostly legal moves, sometimes an occupied or off-board square
    /// or a move after the end, sometimes a malformed one. Returns the words and the first
    /// refusal (its number, square and reason), or the model after the moves.
    fn moves(&mut self, start: &Model) -> (Vec<String>, Result<Model, String>) {
        let mut m = start.clone();
        let mut words = Vec::new();
        let mut error: Option<String> = None;
        let length = self.rng.random_range(0..=m.cells.len() + 1);
        for i in 0..length {
            let (file, rank) = match self.rng.random_range(0..100) {
                0..=2 => (
                    self.rng.random_range(0..17usize),
                    self.rng.random_range(0..17usize),
                ),
                3..=6 => {
                    let sq = self.rng.random_range(0..m.cells.len());
                    (sq % m.columns, sq / m.columns)
                }
                7 => {
                    let bad = ["a0", "z0", "A1", "b", "P@", "p@b2", "1a", "a01", "b-2"];
                    let word = bad[self.rng.random_range(0..bad.len())];
                    words.push(word.to_string());
                    // A syntax error outranks any illegal move: the line is not even read.
                    return (words, Err(format!("position: bad square '{word}'")));
                }
                _ => {
                    let empty = m.empty_squares();
                    if empty.is_empty() {
                        (0, 0)
                    } else {
                        let sq = empty[self.rng.random_range(0..empty.len())];
                        (sq % m.columns, sq / m.columns)
                    }
                }
            };
            let text = square_text(&mut self.rng, file, rank);
            if error.is_none() {
                match m.refusal(file, rank) {
                    Some(why) => {
                        let plain = text.trim_start_matches("P@");
                        error = Some(format!("position: move {} '{plain}' {why}", i + 1));
                    }
                    None => m.play(file, rank),
                }
            }
            words.push(text);
            if m.over() && error.is_none() && self.rng.random_bool(0.7) {
                break;
            }
        }
        (words, error.map_or(Ok(m), Err))
    }

    fn position_startpos(&mut self) -> (String, Expect) {
        let empty = Model::new(self.model.columns, self.model.rows, self.model.k);
        let (words, result) = self.moves(&empty);
        let mut line = "position startpos".to_string();
        if !words.is_empty() || self.rng.random_bool(0.3) {
            line.push_str(" moves");
        }
        for w in &words {
            line.push(' ');
            line.push_str(w);
        }
        (line, self.apply(result))
    }

    fn apply(&mut self, result: Result<Model, String>) -> Expect {
        match result {
            Ok(m) => {
                self.model = m;
                Expect::Silent
            }
            Err(e) => Expect::Error(e),
        }
    }

    /// A diagram of a random game on this board (sometimes damaged), the side to move
    /// (sometimes wrong), and moves.
    fn position_board(&mut self) -> (String, Expect) {
        let (columns, rows, k) = (self.model.columns, self.model.rows, self.model.k);
        let mut game = Model::new(columns, rows, k);
        for _ in 0..self.rng.random_range(0..=game.cells.len()) {
            let empty = game.empty_squares();
            if game.over() || empty.is_empty() {
                break;
            }
            let sq = empty[self.rng.random_range(0..empty.len())];
            game.play(sq % columns, sq / columns);
        }
        let mut grid: Vec<Vec<Option<u8>>> = (0..rows)
            .rev()
            .map(|rank| game.cells[rank * columns..(rank + 1) * columns].to_vec())
            .collect();
        let mut side = game.side;
        match self.rng.random_range(0..10) {
            0 => side ^= 1,
            1 => {
                let (r, c) = (
                    self.rng.random_range(0..rows),
                    self.rng.random_range(0..columns),
                );
                grid[r][c] = [None, Some(0), Some(1)][self.rng.random_range(0..3)];
            }
            2 => {
                let r = self.rng.random_range(0..rows);
                if self.rng.random_bool(0.5) || grid[r].len() == 1 {
                    grid[r].push(None);
                } else {
                    grid[r].pop();
                }
            }
            3 if rows > 1 => {
                grid.pop();
            }
            4 => grid.push(vec![None; columns]),
            _ => {}
        }
        let text = grid
            .iter()
            .map(|row| self.row_text(row))
            .collect::<Vec<_>>()
            .join("/");
        let mut line = format!(
            "position board {text} {}",
            if side == 0 { 'x' } else { 'o' }
        );
        let result = match self.model.set_up(&grid, side) {
            None => Err("position: ".to_string()),
            Some(start) => {
                if self.rng.random_bool(0.5) {
                    let (words, result) = self.moves(&start);
                    line.push_str(" moves");
                    for w in &words {
                        line.push(' ');
                        line.push_str(w);
                    }
                    result
                } else {
                    Ok(start)
                }
            }
        };
        (line, self.apply(result))
    }

    /// A rank of a diagram, with runs of empty cells written as dots or as counts.
    fn row_text(&mut self, row: &[Option<u8>]) -> String {
        let counts = self.rng.random_bool(0.5);
        let mut out = String::new();
        let mut run = 0;
        for cell in row {
            match cell {
                None if counts => run += 1,
                None => out.push('.'),
                Some(p) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(if *p == 0 { 'x' } else { 'o' });
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        out
    }

    fn newgame(&mut self) -> (String, Expect) {
        if self.rng.random_ratio(1, 5) {
            let (c, r, k) = (self.model.columns, self.model.rows, self.model.k);
            return ("newgame".into(), self.reset(c, r, k));
        }
        // Mostly small boards: their games end, so wins, draws and dead draws come up.
        let side = |rng: &mut StdRng| {
            if rng.random_ratio(1, 10) {
                rng.random_range(0..=MAX_SIDE + 2)
            } else {
                rng.random_range(1..=6usize)
            }
        };
        let (c, r) = (side(&mut self.rng), side(&mut self.rng));
        let k = self.rng.random_range(0..=c.max(r) + 1);
        let line = format!("newgame {c} {r} {k}");
        let sides = 1..=MAX_SIDE;
        if !sides.contains(&c) || !sides.contains(&r) {
            (line, Expect::Error("newgame: a board of".into()))
        } else if !(1..=c.max(r)).contains(&k) {
            (
                line,
                Expect::Error(format!("newgame: k={k} cannot be reached")),
            )
        } else {
            (line, self.reset(c, r, k))
        }
    }

    fn setoption(&mut self) -> (String, Expect) {
        const GOOD: &[&str] = &[
            "setoption name Eval value lines",
            "setoption name eval value WEIGHTS",
            "setoption name Eval value kinrow",
            "setoption name RandomTieBreak value false",
            "setoption name RandomTieBreak value True",
            "setoption name Seed value 5",
            "setoption name Hash value 1",
            "setoption name hash value 4",
            "setoption name Clear Hash",
            "setoption name clear   hash",
        ];
        const BAD: &[&str] = &[
            "setoption name Eval value best",
            "setoption name Hash value 0",
            "setoption name Hash value 65537",
            "setoption name Seed value -3",
            "setoption name Threads value 0",
            "setoption name UCI_Variant value chess",
            "setoption name Rule value caro",
            "setoption name UCI_Variant",
            "setoption name RandomTieBreak value 1",
            "setoption name Clear Hash value 1",
            "setoption name Hash",
            "setoption Hash value 1",
            "setoption name value 1",
            "setoption name Eval value",
        ];
        if self.rng.random_bool(0.5) {
            let line = GOOD[self.rng.random_range(0..GOOD.len())];
            (line.into(), Expect::Silent)
        } else {
            let line = BAD[self.rng.random_range(0..BAD.len())];
            (line.into(), Expect::Error("setoption: ".into()))
        }
    }

    fn garbage(&mut self) -> (String, Expect) {
        const LINES: &[(&str, &str)] = &[
            ("ISREADY", "unknown command 'ISREADY'"),
            ("hello world", "unknown command 'hello'"),
            ("show me", "show: expected end of line, got 'me'"),
            ("stop now", "stop: expected end of line"),
            ("go depth 0", "go: 'depth' needs a number"),
            ("go depth 3 depth 4", "go: duplicate 'depth'"),
            ("go ponder ponder", "go: duplicate 'ponder'"),
            ("perft -1", "perft: <depth> needs a whole number"),
            ("perft", "perft: <depth> needs a whole number, got nothing"),
            ("newgame 3 3", "newgame: expected three numbers"),
            ("newgame x y z", "newgame: <columns> needs a whole number"),
            ("ucinewgame 3 3 3", "ucinewgame: expected end of line"),
            (
                "position",
                "position: expected 'startpos', 'board' or 'fen'",
            ),
            (
                "position startpos b2",
                "position: expected 'moves' or end of line",
            ),
            ("position board 3//3 x", "position: bad board"),
            ("position board", "position: expected a board diagram"),
            ("\u{feff}uci", "unknown command '\\u{feff}uci'"),
            ("uci\tnow", "uci: expected end of line, got 'now'"),
            ("quit now", "quit: expected end of line"),
        ];
        let (line, needle) = LINES[self.rng.random_range(0..LINES.len())];
        (line.into(), Expect::Error(needle.into()))
    }
}

/// Reads one line, failing the test if the engine is silent for too long.
/// The lines of one `go` up to its `bestmove`: exactly one, legal in `model` (or `(none)`
/// when the game is over).
fn check_search(model: &Model, lines: &[String]) {
    let best = lines.last().map(String::as_str).unwrap_or_default();
    if model.over() {
        assert_eq!(best, "bestmove (none)", "{:?}", model.shown());
    } else {
        let sq = best.strip_prefix("bestmove ").unwrap_or_default();
        // `bestmove SQ [ponder SQ]`
        let sq = sq.split(' ').next().unwrap_or_default();
        let file = usize::from(sq.as_bytes().first().copied().unwrap_or(b'?'))
            .wrapping_sub(usize::from(b'a'));
        let rank: usize = sq.get(1..).and_then(|r| r.parse().ok()).unwrap_or(0);
        assert!(
            file < model.columns
                && (1..=model.rows).contains(&rank)
                && model.cells[(rank - 1) * model.columns + file].is_none(),
            "illegal {best} in {:?}",
            model.shown()
        );
    }
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{lines:?}"
    );
}

/// One job in a queue, and the model it will see.
enum Queued {
    /// A `go`, to be checked against this model.
    Go(Model),
    /// `perft 1` with this many leaves (unless stopped).
    Perft(usize),
}

/// Sends `go infinite`, a random queue of jobs (`go infinite`, `go depth 1`, `perft 1`) and
/// valid positions behind it, `stop`, then a position and a `go depth 1` after the stop, all
/// in one write; checks every reply in order. With the old rule (`stop` waiting behind
/// queued jobs) a second `go infinite` on a board too big to prove would never end. Returns
/// the commands sent and the searches among them.
fn queued_jobs(g: &mut Generator, e: &mut Engine) -> (usize, usize) {
    let perft_leaves = |m: &Model| {
        if m.over() {
            0
        } else {
            m.cells.len() - m.stones()
        }
    };
    let mut text = String::from("go infinite\n");
    let mut jobs = vec![Queued::Go(g.model.clone())];
    for _ in 0..g.rng.random_range(1..=6) {
        match g.rng.random_range(0..4) {
            0 => {
                text.push_str("go infinite\n");
                jobs.push(Queued::Go(g.model.clone()));
            }
            1 => {
                text.push_str("go depth 1\n");
                jobs.push(Queued::Go(g.model.clone()));
            }
            2 => {
                text.push_str("perft 1\n");
                jobs.push(Queued::Perft(perft_leaves(&g.model)));
            }
            _ => {
                // Only positions that are carried out: a refused line's error would come at
                // once (bad syntax) or in its turn (an illegal move), and that is checked
                // elsewhere.
                let before = g.model.clone();
                match g.position_startpos() {
                    (line, Expect::Silent) => {
                        text.push_str(&line);
                        text.push('\n');
                    }
                    _ => g.model = before,
                }
            }
        }
    }
    text.push_str("stop\n");
    let after = g.position_startpos();
    let after_sent = matches!(after.1, Expect::Silent);
    if after_sent {
        text.push_str(&after.0);
        text.push('\n');
    }
    text.push_str("go depth 1\n");
    e.send_raw(text.as_bytes());
    let searches = jobs.iter().filter(|j| matches!(j, Queued::Go(_))).count() + 1;
    for job in &jobs {
        match job {
            Queued::Go(model) => check_search(model, &e.recv_until("bestmove")),
            Queued::Perft(leaves) => {
                let got = recv(e, "a queued perft 1");
                let done = format!("perft depth 1 nodes {leaves} time ");
                assert!(
                    got.starts_with(&done) || got == "info string perft 1 stopped",
                    "{got:?}"
                );
            }
        }
    }
    check_search(&g.model, &e.recv_until("bestmove"));
    (text.lines().count(), searches)
}

fn recv(e: &mut Engine, context: &str) -> String {
    match e.recv() {
        Some(l) => l,
        None => panic!("no reply (hang?) after {context}"),
    }
}

#[test]
fn random_command_sequences_agree_with_the_model() {
    run(0x6d6f_64656c, 100_000);
}

/// The soak: ten runs of 1,000,000 commands with other seeds (a few minutes;
/// `cargo test --test suite robustness_model:: -- --ignored --nocapture`).
#[test]
#[ignore]
fn soak_ten_million_commands() {
    for seed in 1..=10 {
        run(seed, 1_000_000);
    }
}

/// Runs at least `count` generated commands from `seed` against a fresh engine.
fn run(seed: u64, count: usize) {
    let mut e = Engine::start(&[]);
    let mut g = Generator {
        rng: StdRng::seed_from_u64(seed),
        model: Model::new(3, 3, 3),
    };
    let start = Instant::now();
    let (mut commands, mut errors, mut searches, mut shows) = (0usize, 0usize, 0usize, 0usize);
    let mut queues = 0usize;
    while commands < count {
        // A rare search: it must give exactly one bestmove, on an empty square, or none when
        // the game is over. It runs alone, so that its output cannot interleave with others.
        if g.rng.random_ratio(1, 300) {
            e.send("go depth 1");
            check_search(&g.model, &e.recv_until("bestmove"));
            commands += 1;
            searches += 1;
            continue;
        }
        // A queue of jobs behind a `go infinite`, then `stop`: every job sent before the stop
        // ends (each `go` with one bestmove, legal in the position it searched), whatever
        // the limits; what is sent after the stop runs as usual.
        if g.rng.random_ratio(1, 200) {
            let (sent, searched) = queued_jobs(&mut g, &mut e);
            commands += sent;
            searches += searched;
            queues += 1;
            continue;
        }
        // perft runs as a job too (a show sent behind it would be answered at once).
        if g.rng.random_ratio(1, 100) {
            let nodes = if g.model.over() {
                0
            } else {
                g.model.cells.len() - g.model.stones()
            };
            e.send("perft 1");
            let got = recv(&mut e, "perft 1");
            let want = format!("perft depth 1 nodes {nodes} time ");
            assert!(got.starts_with(&want), "{want:?}, got {got:?}");
            commands += 1;
            continue;
        }
        let mut batch = Vec::new();
        for _ in 0..g.rng.random_range(1..=10) {
            batch.push(g.next());
        }
        let mut text = String::new();
        for (line, _) in &batch {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("show\n");
        e.send_raw(text.as_bytes());
        for (line, expect) in &batch {
            commands += 1;
            match expect {
                Expect::Silent => {}
                Expect::Error(needle) => {
                    errors += 1;
                    let got = recv(&mut e, line);
                    assert!(
                        got.starts_with("info string error: ") && got.contains(needle.as_str()),
                        "{line:?}: expected an error with {needle:?}, got {got:?}"
                    );
                }
                Expect::Line(want) => {
                    let got = recv(&mut e, line);
                    assert!(
                        got.starts_with(want.as_str()),
                        "{line:?}: expected {want:?}, got {got:?}"
                    );
                }
                Expect::Uci => {
                    let mut got = Vec::new();
                    while got.last().map(String::as_str) != Some("uciok") {
                        got.push(recv(&mut e, line));
                    }
                    // id name, id author, eleven options (Move Overhead and Ponder among
                    // them), ParamsFile, one spin option a search parameter, then uciok.
                    let lines = 14 + kinrow::search::Params::SPECS.len();
                    assert_eq!(got.len(), lines, "{got:?}");
                }
            }
        }
        // The show: as many rank lines as the board has, the file letters, then the status
        // and the position. Anything else here is a reply the model did not expect.
        shows += 1;
        let context = format!("{:?}", batch.iter().map(|b| &b.0).collect::<Vec<_>>());
        for _ in 0..=g.model.rows {
            let got = recv(&mut e, &context);
            assert!(
                !got.starts_with("info") && !got.starts_with("game "),
                "unexpected {got:?} after {context}"
            );
        }
        let want = g.model.shown();
        for want in want {
            let got = recv(&mut e, &context);
            assert_eq!(got, want, "after {context}");
        }
    }
    let (rest, ok, stderr) = e.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(ok && !stderr.contains("panicked"), "{stderr}");
    // The run must have covered the interesting cases, or it proves little.
    assert!(errors > count / 5, "{errors} errors");
    assert!(queues > count / 10_000, "{queues} queues");
    eprintln!(
        "model, seed {seed}: {commands} commands ({errors} errors, {searches} searches, \
         {queues} stopped queues) and {shows} shows in {:?}; 0 disagreements, 0 crashes, 0 hangs",
        start.elapsed()
    );
}
