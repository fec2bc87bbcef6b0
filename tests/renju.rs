//! Renju's forbidden moves: the engine's fast check against an independent checker written
//! straight from the rule text, on seeded random positions and on the positions of
//! `fixtures/renju.txt`; and the rule in play (wins, refused moves, set-up).

use crate::common;

use kinrow::rules::{
    Forbidden, Geometry, MoveError, Outcome, Player, Position, Rule, Square, Tables,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

const SIDE: usize = 15;
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The independent checker: a plain grid (`grid[rank][file]`), every definition applied
/// literally by putting stones down and measuring whole runs, over whole lines, with no
/// shortcut and no pre-filter.
#[derive(Clone)]
struct Grid {
    cells: Vec<Vec<u8>>,
    /// Whether a three must be real (its straight-four point not forbidden); off, every three
    /// counts: the naive reading, kept to show that the sample needs the recursion.
    real_threes: bool,
}

type Point = (i32, i32);

impl Grid {
    fn on(&self, (f, r): Point) -> bool {
        f >= 0 && r >= 0 && (f as usize) < SIDE && (r as usize) < SIDE
    }

    fn get(&self, p: Point) -> Option<u8> {
        self.on(p).then(|| self.cells[p.1 as usize][p.0 as usize])
    }

    fn set(&mut self, (f, r): Point, v: u8) {
        self.cells[r as usize][f as usize] = v;
    }

    /// The cells of the unbroken row of black through `p` in direction `d` (`p` black).
    fn row(&self, p: Point, (df, dr): Point) -> Vec<Point> {
        let mut out = vec![p];
        for sign in [1, -1] {
            let mut q = (p.0 + sign * df, p.1 + sign * dr);
            while self.get(q) == Some(BLACK) {
                out.push(q);
                q = (q.0 + sign * df, q.1 + sign * dr);
            }
        }
        out
    }

    /// Every point of the whole board line through `p` in direction `d`.
    fn line(&self, p: Point, (df, dr): Point) -> Vec<Point> {
        let mut start = p;
        while self.on((start.0 - df, start.1 - dr)) {
            start = (start.0 - df, start.1 - dr);
        }
        let mut out = Vec::new();
        let mut q = start;
        while self.on(q) {
            out.push(q);
            q = (q.0 + df, q.1 + dr);
        }
        out
    }

    /// Black at `p` makes five in a row (exactly five) in direction `d`.
    fn five_in(&self, p: Point, d: Point) -> bool {
        self.row(p, d).len() == 5
    }

    /// With black at `m`: the fours through `m` in direction `d`, each as its set of four
    /// stones (two fives made from the same four stones are one four: a straight four).
    fn fours(&mut self, m: Point, d: Point) -> BTreeSet<Vec<Point>> {
        let mut fours = BTreeSet::new();
        for q in self.line(m, d) {
            if self.get(q) != Some(EMPTY) {
                continue;
            }
            self.set(q, BLACK);
            let five = self.row(q, d);
            if five.len() == 5 && five.contains(&m) {
                let mut stones: Vec<Point> = five.into_iter().filter(|&s| s != q).collect();
                stones.sort();
                fours.insert(stones);
            }
            self.set(q, EMPTY);
        }
        fours
    }

    /// With black at `m`: the points of line `d` where one more black stone makes a straight
    /// four through `m`: four in an unbroken row, with two different points that each make
    /// exactly five.
    fn straight_four_points(&mut self, m: Point, d: Point) -> Vec<Point> {
        let mut out = Vec::new();
        for s in self.line(m, d) {
            if self.get(s) != Some(EMPTY) {
                continue;
            }
            self.set(s, BLACK);
            let row = self.row(m, d);
            if row.len() == 4 && row.contains(&s) {
                let fives = self
                    .line(m, d)
                    .into_iter()
                    .filter(|&e| {
                        if self.get(e) != Some(EMPTY) {
                            return false;
                        }
                        self.set(e, BLACK);
                        let r = self.row(e, d);
                        let five = r.len() == 5 && r.contains(&m);
                        self.set(e, EMPTY);
                        five
                    })
                    .count();
                if fives == 2 {
                    out.push(s);
                }
            }
            self.set(s, EMPTY);
        }
        out
    }

    /// Why black may not play on the empty point `m`.
    fn forbidden(&mut self, m: Point) -> Option<Forbidden> {
        assert_eq!(self.get(m), Some(EMPTY));
        self.set(m, BLACK);
        let verdict = self.verdict(m);
        self.set(m, EMPTY);
        verdict
    }

    fn verdict(&mut self, m: Point) -> Option<Forbidden> {
        if DIRECTIONS.iter().any(|&d| self.five_in(m, d)) {
            return None;
        }
        if DIRECTIONS.iter().any(|&d| self.row(m, d).len() >= 6) {
            return Some(Forbidden::Overline);
        }
        let fours: Vec<usize> = DIRECTIONS.iter().map(|&d| self.fours(m, d).len()).collect();
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        let mut threes = 0;
        for (i, &d) in DIRECTIONS.iter().enumerate() {
            if fours[i] > 0 {
                continue;
            }
            let points = self.straight_four_points(m, d);
            if points
                .into_iter()
                .any(|s| !self.real_threes || self.forbidden(s).is_none())
            {
                threes += 1;
            }
        }
        (threes >= 2).then_some(Forbidden::DoubleThree)
    }

    /// Whether `colour` has a winning row: exactly five for black, five or more for white.
    fn has_won(&self, colour: u8) -> bool {
        (0..SIDE as i32).any(|r| {
            (0..SIDE as i32).any(|f| {
                self.get((f, r)) == Some(colour)
                    && DIRECTIONS.iter().any(|&d| {
                        let n = self.row_of(colour, (f, r), d);
                        n == 5 || (colour == WHITE && n > 5)
                    })
            })
        })
    }

    fn row_of(&self, colour: u8, p: Point, (df, dr): Point) -> usize {
        let mut n = 1;
        for sign in [1, -1] {
            let mut q = (p.0 + sign * df, p.1 + sign * dr);
            while self.get(q) == Some(colour) {
                n += 1;
                q = (q.0 + sign * df, q.1 + sign * dr);
            }
        }
        n
    }
}

fn renju_tables() -> Arc<Tables> {
    let g = Geometry::new(SIDE as u32, SIDE as u32, 5)
        .unwrap()
        .with_rule(Rule::Renju)
        .unwrap();
    Tables::new(g)
}

fn point(sq: Square) -> Point {
    ((sq % SIDE) as i32, (sq / SIDE) as i32)
}

fn grid_of(pos: &Position) -> Grid {
    let mut cells = vec![vec![EMPTY; SIDE]; SIDE];
    for sq in 0..SIDE * SIDE {
        let (f, r) = point(sq);
        cells[r as usize][f as usize] = match pos.at(sq) {
            Some(Player::X) => BLACK,
            Some(Player::O) => WHITE,
            None => EMPTY,
        };
    }
    Grid {
        cells,
        real_threes: true,
    }
}

/// Every empty square's verdict, by the engine and by the grid; they must agree.
fn compare(pos: &Position, what: &str) -> Vec<(Square, Option<Forbidden>)> {
    let mut grid = grid_of(pos);
    let mut out = Vec::new();
    let empty = pos.empty();
    for sq in empty.iter() {
        let fast = pos.forbidden(sq);
        let slow = grid.forbidden(point(sq));
        assert_eq!(
            fast,
            slow,
            "{what}: {} in {}",
            pos.geometry().name(sq),
            pos.diagram()
        );
        out.push((sq, fast));
    }
    let allowed = pos.without_forbidden(empty);
    for &(sq, why) in &out {
        assert_eq!(allowed.contains(sq), why.is_none());
    }
    out
}

/// A random position with black to move and no winner: stones crowded into a small square so
/// that rows, fours and threes abound.
fn random_crowded(tables: &Arc<Tables>, rng: &mut StdRng) -> Option<Position> {
    let span = rng.random_range(5..=9usize);
    let lo = (SIDE - span) / 2;
    let pairs = rng.random_range(3..=(span * span * 2 / 5));
    let mut rows = vec![vec![None; SIDE]; SIDE];
    let mut free: Vec<(usize, usize)> = (lo..lo + span)
        .flat_map(|r| (lo..lo + span).map(move |f| (f, r)))
        .collect();
    for colour in std::iter::repeat_n([Player::X, Player::O], pairs).flatten() {
        if free.is_empty() {
            return None;
        }
        let (f, r) = free.swap_remove(rng.random_range(0..free.len()));
        rows[SIDE - 1 - r][f] = Some(colour);
    }
    let pos = Position::from_diagram(Arc::clone(tables), &rows, Player::X).ok()?;
    let grid = grid_of(&pos);
    if pos.outcome().is_some() || grid.has_won(BLACK) || grid.has_won(WHITE) {
        return None;
    }
    Some(pos)
}

#[test]
fn the_fast_check_agrees_with_the_rule_text_on_random_positions() {
    let tables = renju_tables();
    let mut rng = StdRng::seed_from_u64(13);
    let mut seen = [0usize; 3];
    let mut not_real = 0;
    let mut positions = 0;
    let target = 3000;
    while positions < target {
        let Some(pos) = random_crowded(&tables, &mut rng) else {
            continue;
        };
        let mut naive = grid_of(&pos);
        naive.real_threes = false;
        for (sq, why) in compare(&pos, "random") {
            if let Some(w) = why {
                seen[Forbidden::ALL.iter().position(|&k| k == w).unwrap()] += 1;
            }
            if naive.forbidden(point(sq)) != why {
                not_real += 1;
            }
        }
        positions += 1;
    }
    eprintln!(
        "{positions} positions: forbidden overline/double four/double three {seen:?}; \
         {not_real} verdicts turn on a three that is not real"
    );
    // Every kind must occur often, and threes that are not real must decide some verdicts,
    // or the comparison proves little.
    assert!(seen.iter().all(|&n| n >= 100), "{seen:?}");
    assert!(not_real >= 10, "{not_real}");
}

#[test]
fn white_and_freestyle_have_no_forbidden_moves() {
    let mut rng = StdRng::seed_from_u64(5);
    let tables = renju_tables();
    let free = Tables::new(Geometry::new(15, 15, 5).unwrap());
    let mut checked = 0;
    while checked < 50 {
        let Some(pos) = random_crowded(&tables, &mut rng) else {
            continue;
        };
        let moves: Vec<Square> = pos.empty().iter().collect();
        if let Some(&sq) = moves.iter().find(|&&sq| pos.forbidden(sq).is_none()) {
            // White to move after any of black's allowed moves: nothing is forbidden.
            let mut after = pos.clone();
            after.play(sq).unwrap();
            if after.outcome().is_none() {
                assert!(after.empty().iter().all(|s| after.forbidden(s).is_none()));
                assert_eq!(after.without_forbidden(after.empty()), after.empty());
            }
        }
        let diagram = pos.diagram();
        let same = Position::from_diagram(Arc::clone(&free), &rows_of(&diagram), Player::X)
            .expect("the same stones make a freestyle position");
        assert!(same.empty().iter().all(|s| same.forbidden(s).is_none()));
        checked += 1;
    }
}

fn rows_of(diagram: &str) -> Vec<Vec<Option<Player>>> {
    diagram
        .split('/')
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'x' => Some(Player::X),
                    'o' => Some(Player::O),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Random renju games played move by move: `play` refuses exactly the moves the grid calls
/// forbidden, with the position unchanged, and wins are black's exact five and white's five
/// or more.
#[test]
fn play_refuses_forbidden_moves_and_wins_follow_the_colours() {
    let tables = renju_tables();
    let mut rng = StdRng::seed_from_u64(21);
    let (mut refused, mut black_wins, mut white_wins, mut white_overlines) = (0, 0, 0, 0);
    for _ in 0..600 {
        let mut pos = Position::new(Arc::clone(&tables));
        let centre = SIDE / 2;
        // Moves within a 7x7 square, so that the game gets crowded quickly.
        let area: Vec<Square> = (centre - 3..=centre + 3)
            .flat_map(|r| (centre - 3..=centre + 3).map(move |f| r * SIDE + f))
            .collect();
        // Squares refused to black since its last move: when every square left is refused,
        // black has no move in the area and the game is abandoned.
        let mut refused_here: Vec<Square> = Vec::new();
        while pos.outcome().is_none() {
            let empty: Vec<Square> = area
                .iter()
                .copied()
                .filter(|&s| pos.empty().contains(s) && !refused_here.contains(&s))
                .collect();
            if empty.is_empty() {
                break;
            }
            let sq = empty[rng.random_range(0..empty.len())];
            let black = pos.side_to_move() == Player::X;
            let mut grid = grid_of(&pos);
            let truth = if black {
                grid.forbidden(point(sq))
            } else {
                None
            };
            let before = pos.diagram();
            match pos.play(sq) {
                Err(MoveError::Forbidden(why)) => {
                    assert_eq!(Some(why), truth);
                    assert_eq!(pos.diagram(), before, "a refused move left a trace");
                    assert_eq!(pos.side_to_move(), Player::X);
                    refused += 1;
                    refused_here.push(sq);
                    continue;
                }
                Err(e) => panic!("{e}"),
                Ok(()) => assert_eq!(truth, None),
            }
            refused_here.clear();
            let grid = grid_of(&pos);
            let (bw, ww) = (grid.has_won(BLACK), grid.has_won(WHITE));
            match pos.outcome() {
                Some(Outcome::Win(Player::X)) => {
                    assert!(bw && !ww);
                    black_wins += 1;
                }
                Some(Outcome::Win(Player::O)) => {
                    assert!(ww && !bw);
                    white_wins += 1;
                    let (f, r) = point(sq);
                    if DIRECTIONS
                        .iter()
                        .any(|&d| grid.row_of(WHITE, (f, r), d) > 5)
                    {
                        white_overlines += 1;
                    }
                }
                _ => assert!(!bw && !ww, "a win was missed in {}", pos.diagram()),
            }
        }
    }
    eprintln!(
        "refused {refused}, black wins {black_wins}, white wins {white_wins} ({white_overlines} by an overline)"
    );
    assert!(refused >= 100 && black_wins >= 20 && white_wins >= 20 && white_overlines >= 1);
}

#[test]
fn move_lists_with_a_forbidden_move_are_refused() {
    let tables = renju_tables();
    let g = tables.geometry;
    let sqs = |s: &str| -> Vec<Square> {
        s.split_whitespace()
            .map(|n| g.square_named(n).unwrap())
            .collect()
    };
    // x h8 i8 and g9 g10; g8 would be a double three.
    let ok = sqs("h8 a1 i8 a3 g9 a5 g10 a7");
    assert!(Position::from_moves(Arc::clone(&tables), &ok).is_ok());
    let mut bad = ok.clone();
    bad.push(g.square_named("g8").unwrap());
    let err = Position::from_moves(Arc::clone(&tables), &bad).unwrap_err();
    assert_eq!(
        (err.index, err.error),
        (8, MoveError::Forbidden(Forbidden::DoubleThree))
    );
    assert_eq!(
        err.to_string(),
        "move 9 cannot be played: the move is forbidden to x under renju (a double three)"
    );
    // The same moves are legal in freestyle.
    let free = Tables::new(Geometry::new(15, 15, 5).unwrap());
    assert!(Position::from_moves(free, &bad).is_ok());
}

/// A case of `fixtures/renju.txt`: the position and the verdicts it asserts.
struct Case {
    name: String,
    line: usize,
    position: Position,
    expect: Vec<(Square, Option<Forbidden>)>,
}

fn parse_cases(text: &str, tables: &Arc<Tables>) -> Vec<Case> {
    let g = tables.geometry;
    let mut cases = Vec::new();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .peekable();
    while let Some((at, head)) = lines.next() {
        let name = head
            .strip_prefix("case ")
            .unwrap_or_else(|| panic!("line {at}: expected 'case NAME', got '{head}'"))
            .to_owned();
        let (at2, body) = lines.next().expect("a case has a position");
        let position = if let Some(moves) = body.strip_prefix("moves ") {
            let sqs: Vec<Square> = moves
                .split_whitespace()
                .map(|n| {
                    g.square_named(n)
                        .unwrap_or_else(|| panic!("line {at2}: no square '{n}'"))
                })
                .collect();
            Position::from_moves(Arc::clone(tables), &sqs)
                .unwrap_or_else(|e| panic!("line {at2}: {e}"))
        } else {
            // Fifteen ranks from the top, each led by its number; cells `x`, `o`, `.`.
            let mut rows = Vec::new();
            let mut row_text = body;
            loop {
                let cells: Vec<Option<Player>> = row_text
                    .split_whitespace()
                    .skip(1)
                    .map(|c| match c {
                        "x" => Some(Player::X),
                        "o" => Some(Player::O),
                        "." => None,
                        _ => panic!("line {at2}: bad cell '{c}'"),
                    })
                    .collect();
                rows.push(cells);
                if rows.len() == SIDE {
                    break;
                }
                row_text = lines.next().expect("fifteen ranks").1;
            }
            Position::from_diagram(Arc::clone(tables), &rows, Player::X)
                .unwrap_or_else(|e| panic!("line {at2}: {e}"))
        };
        let (at3, expect) = lines.next().expect("a case ends with 'expect'");
        let expect = expect
            .strip_prefix("expect ")
            .unwrap_or_else(|| panic!("line {at3}: expected 'expect ...'"))
            .split_whitespace()
            .map(|item| {
                let (sq, kind) = item
                    .split_once('=')
                    .unwrap_or_else(|| panic!("line {at3}: '{item}' is not SQUARE=KIND"));
                let sq = g
                    .square_named(sq)
                    .unwrap_or_else(|| panic!("line {at3}: no square '{sq}'"));
                let kind = match kind {
                    "allowed" => None,
                    k => Some(
                        *Forbidden::ALL
                            .iter()
                            .find(|f| f.name() == k)
                            .unwrap_or_else(|| panic!("line {at3}: unknown kind '{k}'")),
                    ),
                };
                (sq, kind)
            })
            .collect();
        cases.push(Case {
            name,
            line: at,
            position,
            expect,
        });
    }
    cases
}

#[test]
fn fixture_positions() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/renju.txt"))
            .unwrap();
    let tables = renju_tables();
    let cases = parse_cases(&text, &tables);
    let mut kinds = BTreeSet::new();
    for case in &cases {
        let what = format!("case {} (line {})", case.name, case.line);
        assert_eq!(case.position.side_to_move(), Player::X, "{what}");
        let all = compare(&case.position, &what);
        for &(sq, want) in &case.expect {
            let got = all.iter().find(|(s, _)| *s == sq).map(|&(_, w)| w);
            assert_eq!(
                got,
                Some(want),
                "{what}: {}",
                case.position.geometry().name(sq)
            );
            kinds.insert(want.map(Forbidden::name));
        }
    }
    assert!(cases.len() >= 10, "{} cases", cases.len());
    assert_eq!(kinds.len(), 4, "every kind and an allowed point: {kinds:?}");
}

fn search(pos: &Position, nodes: u64, rng: &mut StdRng) -> kinrow::search::SearchResult {
    search_with(
        &mut kinrow::search::Searcher::new(4).unwrap(),
        pos,
        nodes,
        rng,
    )
}

/// A search of `nodes` nodes by `searcher`, which keeps its table from earlier searches.
fn search_with(
    searcher: &mut kinrow::search::Searcher,
    pos: &Position,
    nodes: u64,
    rng: &mut StdRng,
) -> kinrow::search::SearchResult {
    use kinrow::search::{Control, Limits, Settings};
    let control = Control {
        stop: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        start: std::time::Instant::now(),
    };
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let settings = Settings {
        eval: kinrow::eval::EvalKind::default(),
        random_tie_break: true,
        threads: 1,
        ..Settings::default()
    };
    searcher.search(pos, &limits, settings, &control, rng, &mut |_| {})
}

/// Short self-play games under renju: every move the search picks is one `play` accepts.
/// (In a debug build `make` also asserts that no forbidden move is made anywhere in the
/// search tree: the root, the alpha-beta and the fours search.)
#[test]
fn the_search_never_offers_black_a_forbidden_move() {
    let tables = renju_tables();
    let mut rng = StdRng::seed_from_u64(8);
    let (games, nodes) = if cfg!(debug_assertions) {
        (4, 1500)
    } else {
        (12, 6000)
    };
    let mut black_moves = 0;
    for _ in 0..games {
        let mut pos = Position::new(Arc::clone(&tables));
        // One searcher a game, as an engine plays one: its table is made once, not per move.
        let mut searcher = kinrow::search::Searcher::new(4).expect("a 4 MB table");
        while pos.outcome().is_none() && pos.stone_count() < 80 {
            let best = search_with(&mut searcher, &pos, nodes, &mut rng)
                .best
                .expect("a move in a game that is not over");
            if pos.side_to_move() == Player::X {
                assert_eq!(pos.forbidden(best), None, "{}", pos.diagram());
                black_moves += 1;
            }
            pos.play(best).unwrap();
        }
    }
    eprintln!("{games} games, {black_moves} moves of black");
    assert!(black_moves >= 8 * games);
}

/// x has to block o's four on g8, a double three: x has lost, and the search says so and
/// still plays a move it may.
#[test]
fn a_block_black_may_not_play_is_a_loss() {
    let tables = renju_tables();
    let g = tables.geometry;
    let sqs: Vec<Square> = "h8 d11 i8 e10 g9 f9 g10 h7"
        .split_whitespace()
        .map(|n| g.square_named(n).unwrap())
        .collect();
    let pos = Position::from_moves(Arc::clone(&tables), &sqs).unwrap();
    let g8 = g.square_named("g8").unwrap();
    assert_eq!(pos.threats(Player::O).iter().collect::<Vec<_>>(), [g8]);
    assert_eq!(pos.forbidden(g8), Some(Forbidden::DoubleThree));
    let result = search(&pos, 10_000, &mut StdRng::seed_from_u64(1));
    assert_eq!(result.value, kinrow::search::Value::Loss(1));
    let best = result.best.expect("x has moves it may play");
    assert_eq!(pos.forbidden(best), None);
}

/// `kinrow match --rule renju`: an engine that plays a move forbidden to x loses the game
/// like any illegal move. The fake engine plays the first empty square from a1; the opening
/// leaves x to move with a1 a double four (b1 c1 d1 and a2 a3 a4).
#[test]
fn a_forbidden_move_by_an_engine_loses_the_match_game() {
    use common::referee::{completed_match, fake_engine, read_jsonl, scratch};
    let dir = scratch("renju-forbidden");
    let (openings, jsonl, sgf) = (
        dir.join("openings.txt"),
        dir.join("games.jsonl"),
        dir.join("games.sgf"),
    );
    std::fs::write(
        &openings,
        "startpos moves b1 o15 c1 m15 d1 k15 a2 i15 a3 g15 a4 e15\n",
    )
    .unwrap();
    let spec = format!("cmd={} good name=fake depth=1", fake_engine());
    let (openings_arg, jsonl_arg, sgf_arg) = (
        format!("file={}", openings.display()),
        jsonl.display().to_string(),
        sgf.display().to_string(),
    );
    let args = [
        "--engine",
        &spec,
        "--engine",
        "random",
        "--board",
        "15x15",
        "--rule",
        "renju",
        "--games",
        "2",
        "--seed",
        "3",
        "--timeout",
        "5000",
        "--openings",
        &openings_arg,
        "--jsonl",
        &jsonl_arg,
        "--sgf",
        &sgf_arg,
    ];
    let r = completed_match(&args);
    assert!(r.stdout.contains("15x15 k=5 renju"), "{}", r.stdout);
    let records = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(records.matches("RU[5 in a row on 15x15, renju]").count(), 2);
    let games = read_jsonl(&jsonl);
    assert_eq!(games.len(), 2);
    let black = games
        .iter()
        .find(|g| g.x == "fake")
        .expect("the fake engine plays x once");
    assert_eq!(
        (
            black.reason.as_str(),
            black.at_fault.as_str(),
            black.winner.as_str()
        ),
        ("illegal move", "x", "o"),
        "{black:?}"
    );
    assert!(
        black
            .detail
            .contains("forbidden to x under renju (a double four)"),
        "{black:?}"
    );
    // As o the same engine may play a1 (after the random player's first move as x).
    let white = games.iter().find(|g| g.o == "fake").expect("and o once");
    assert_eq!(
        white.moves.get(1).map(String::as_str),
        Some("a1"),
        "{white:?}"
    );
    assert_ne!(white.reason, "illegal move", "{white:?}");
}
