//! Deterministic random commands and replies: every value the parsers can produce is
//! reachable, with numbers often at the edges of their range.

use kinrow::protocol::{
    CellText, Command, GoParams, InfoLine, Notation, OptionKind, OptionSpec, PositionSpec, Reply,
    Score, Side, SquareText, StartSpec,
};
use rand::Rng;
use rand::rngs::StdRng;

/// A number that is often small, sometimes at the edges of `T`'s range.
fn edgy<T: Copy>(rng: &mut StdRng, small: T, edges: &[T], any: impl Fn(&mut StdRng) -> T) -> T {
    match rng.random_range(0..4) {
        0 => small,
        1 => edges[rng.random_range(0..edges.len())],
        _ => any(rng),
    }
}

fn random_square(rng: &mut StdRng) -> SquareText {
    let rank = edgy(rng, 0, &[0, 14, 98, u32::MAX - 1], |r| {
        r.random_range(0..u32::MAX)
    });
    SquareText {
        file: rng.random_range(0..26),
        rank,
    }
}

fn random_start(rng: &mut StdRng) -> StartSpec {
    if rng.random_bool(0.3) {
        return StartSpec::StartPos;
    }
    let width = rng.random_range(1..=20);
    let rows = (0..rng.random_range(1..=20))
        .map(|_| {
            // Ragged rows are the session's to refuse, so the grammar keeps them.
            let width = if rng.random_bool(0.1) {
                rng.random_range(1..=20)
            } else {
                width
            };
            (0..width)
                .map(|_| match rng.random_range(0..3) {
                    0 => CellText::X,
                    1 => CellText::O,
                    _ => CellText::Empty,
                })
                .collect()
        })
        .collect();
    let side = if rng.random_bool(0.5) {
        Side::X
    } else {
        Side::O
    };
    StartSpec::Board { rows, side }
}

fn random_go(rng: &mut StdRng) -> GoParams {
    fn maybe<T>(rng: &mut StdRng, value: impl FnOnce(&mut StdRng) -> T) -> Option<T> {
        rng.random_bool(0.4).then(|| value(rng))
    }
    let positive32 = |r: &mut StdRng| edgy(r, 1, &[1, u32::MAX], |r| r.random_range(1..=u32::MAX));
    let positive64 = |r: &mut StdRng| edgy(r, 1, &[1, u64::MAX], |r| r.random_range(1..=u64::MAX));
    let clock = |r: &mut StdRng| edgy(r, 0, &[i64::MIN, -1, i64::MAX], |r| r.random());
    GoParams {
        depth: maybe(rng, positive32),
        nodes: maybe(rng, positive64),
        movetime: maybe(rng, positive64),
        wtime: maybe(rng, clock),
        btime: maybe(rng, clock),
        winc: maybe(rng, clock),
        binc: maybe(rng, clock),
        movestogo: maybe(rng, positive32),
        infinite: rng.random_bool(0.2),
        ponder: rng.random_bool(0.2),
        mate: maybe(rng, positive32),
        searchmoves: rng.random_bool(0.3).then(|| {
            (0..rng.random_range(0..4))
                .map(|_| random_square(rng))
                .collect()
        }),
        // Skipped tokens are not written back (they meant nothing), so a generated command
        // has none.
        ..GoParams::default()
    }
}

/// One to three words of option text; names may not contain the word `value`.
fn random_words(rng: &mut StdRng, in_name: bool) -> String {
    const WORDS: &[&str] = &[
        "Hash",
        "Clear",
        "value",
        "Value",
        "UCI_Variant",
        "gomoku",
        "-3",
        "a=b",
        "#",
        "é",
        "x",
        "true",
        "name",
        "values",
        "<empty>",
    ];
    let words: Vec<&str> = (0..rng.random_range(1..=3))
        .map(|_| WORDS[rng.random_range(0..WORDS.len())])
        .filter(|word| !(in_name && *word == "value"))
        .collect();
    if words.is_empty() {
        "Hash".into()
    } else {
        words.join(" ")
    }
}

pub fn random_command(rng: &mut StdRng) -> Command {
    let any32 = |r: &mut StdRng| edgy(r, 3, &[0, u32::MAX], |r| r.random());
    match rng.random_range(0..16) {
        0 => Command::Uci,
        1 => Command::IsReady,
        2 => Command::NewGame(None),
        3 => Command::NewGame(Some((any32(rng), any32(rng), any32(rng)))),
        4 => Command::Position(PositionSpec {
            start: random_start(rng),
            moves: (0..rng.random_range(0..10))
                .map(|_| random_square(rng))
                .collect(),
        }),
        5 => Command::Go(random_go(rng)),
        6 => Command::Stop,
        7 => Command::Quit,
        8 => Command::SetOption {
            name: random_words(rng, true),
            value: rng.random_bool(0.7).then(|| random_words(rng, false)),
        },
        9 => Command::Show,
        10 => Command::Perft(any32(rng)),
        11 => Command::Bench,
        12 => Command::Debug(rng.random_bool(0.5)),
        13 => Command::Help,
        14 => Command::PonderHit,
        _ => Command::Solve,
    }
}

/// One to three words of reply text, without the word `type` (which ends an option's name).
fn random_text(rng: &mut StdRng) -> String {
    random_words(rng, true).replace("type", "kind")
}

fn random_option(rng: &mut StdRng) -> OptionSpec {
    let kind = match rng.random_range(0..5) {
        0 => OptionKind::Spin {
            default: rng.random(),
            min: rng.random(),
            max: rng.random(),
        },
        1 => OptionKind::Check {
            default: rng.random_bool(0.5),
        },
        2 => OptionKind::Combo {
            default: random_text(rng),
            vars: (0..rng.random_range(0..4))
                .map(|_| random_text(rng))
                .collect(),
        },
        3 => OptionKind::String {
            default: if rng.random_bool(0.3) {
                String::new()
            } else {
                random_text(rng)
            },
        },
        _ => OptionKind::Button,
    };
    OptionSpec {
        name: random_text(rng),
        kind,
    }
}

pub fn random_reply(rng: &mut StdRng) -> Reply {
    let notation = if rng.random_bool(0.5) {
        Notation::Plain
    } else {
        Notation::Drop
    };
    match rng.random_range(0..9) {
        0 => Reply::IdName(random_text(rng)),
        1 => Reply::IdAuthor(random_text(rng)),
        2 => Reply::Option(random_option(rng)),
        3 => Reply::UciOk,
        4 => Reply::ReadyOk,
        5 => Reply::InfoString(random_text(rng)),
        6 => Reply::Error(random_text(rng)),
        7 => {
            let best = rng.random_bool(0.9).then(|| random_square(rng));
            let ponder = best.and_then(|_| rng.random_bool(0.5).then(|| random_square(rng)));
            Reply::BestMove(best, ponder, notation)
        }
        _ => {
            let score = match rng.random_range(0..3) {
                0 => Score::Cp(rng.random()),
                1 => Score::Mate(rng.random()),
                _ => Score::Draw,
            };
            let line = InfoLine {
                depth: rng.random(),
                seldepth: rng.random(),
                score,
                nodes: rng.random(),
                nps: rng.random(),
                time_ms: rng.random(),
                hashfull: rng.random_range(0..=1000),
                pv: (0..rng.random_range(0..6))
                    .map(|_| random_square(rng))
                    .collect(),
            };
            Reply::Info(line, notation)
        }
    }
}
