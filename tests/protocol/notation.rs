//! The notations of fixtures/protocol/: parsed values written out field by field, so that
//! the expected values do not lean on the protocol's own formatting.

use kinrow::protocol::{CellText, Command, EngineReply, Score, SquareText, StartSpec};

/// A square as its file and rank indexes, as in the fixtures: `(1,1)` for b2.
fn square(square: &SquareText) -> String {
    format!("({},{})", square.file, square.rank)
}

/// The head word, then `name=value` for each field that has a value.
fn fields<'a>(
    head: &str,
    fields: impl IntoIterator<Item = (&'a str, Option<String>)>,
) -> Vec<String> {
    let given = fields
        .into_iter()
        .filter_map(|(name, value)| Some(format!("{name}={}", value?)));
    std::iter::once(head.to_string()).chain(given).collect()
}

/// A field's value as text.
fn text(value: Option<impl ToString>) -> Option<String> {
    value.map(|value| value.to_string())
}

/// A parsed engine line in the notation of fixtures/protocol/replies-valid.txt.
pub fn describe_reply(parsed: Option<&EngineReply>) -> String {
    let Some(reply) = parsed else {
        return "nothing".into();
    };
    match reply {
        EngineReply::UciOk => "UciOk".into(),
        EngineReply::ReadyOk => "ReadyOk".into(),
        EngineReply::IdName(name) => format!("IdName {name:?}"),
        EngineReply::IdAuthor(author) => format!("IdAuthor {author:?}"),
        EngineReply::OptionName(name) => format!("OptionName {name:?}"),
        EngineReply::BestMove(None) => "BestMove none".into(),
        EngineReply::BestMove(Some(best)) => format!("BestMove {}", square(best)),
        EngineReply::Info(info) => {
            let score = info.score.map(|score| match score {
                Score::Cp(cp) => format!("cp:{cp}"),
                Score::Mate(moves) => format!("mate:{moves}"),
                Score::Draw => "draw".into(),
            });
            let mut words = fields(
                "Info",
                [
                    ("depth", text(info.depth)),
                    ("seldepth", text(info.seldepth)),
                    ("score", score),
                    ("nodes", text(info.nodes)),
                    ("nps", text(info.nps)),
                    ("time", text(info.time_ms)),
                    ("hashfull", text(info.hashfull)),
                ],
            );
            if !info.pv.is_empty() {
                words.push("pv".into());
                words.extend(info.pv.iter().map(square));
            }
            if let Some(text) = &info.string {
                words.push(format!("string={text:?}"));
            }
            words.join(" ")
        }
    }
}

/// A parsed line in the notation of fixtures/protocol/valid.txt.
pub fn describe(parsed: Option<&Command>) -> String {
    let Some(command) = parsed else {
        return "nothing".into();
    };
    match command {
        Command::Uci => "Uci".into(),
        Command::IsReady => "IsReady".into(),
        Command::Debug(on) => format!("Debug {}", if *on { "on" } else { "off" }),
        Command::Stop => "Stop".into(),
        Command::PonderHit => "PonderHit".into(),
        Command::Quit => "Quit".into(),
        Command::Show => "Show".into(),
        Command::Help => "Help".into(),
        Command::Bench => "Bench".into(),
        Command::Solve => "Solve".into(),
        Command::Perft(depth) => format!("Perft {depth}"),
        Command::NewGame(None) => "NewGame".into(),
        Command::NewGame(Some((columns, rows, k))) => {
            format!("NewGame columns={columns} rows={rows} k={k}")
        }
        Command::SetOption { name, value } => match value {
            Some(value) => format!("SetOption name={name:?} value={value:?}"),
            None => format!("SetOption name={name:?}"),
        },
        Command::Go(params) => {
            let mut words = fields(
                "Go",
                [
                    ("depth", text(params.depth)),
                    ("nodes", text(params.nodes)),
                    ("movetime", text(params.movetime)),
                    ("wtime", text(params.wtime)),
                    ("btime", text(params.btime)),
                    ("winc", text(params.winc)),
                    ("binc", text(params.binc)),
                    ("movestogo", text(params.movestogo)),
                    ("mate", text(params.mate)),
                ],
            );
            if params.infinite {
                words.push("infinite".into());
            }
            if params.ponder {
                words.push("ponder".into());
            }
            if let Some(moves) = &params.searchmoves {
                let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                words.push(format!("searchmoves=[{}]", moves.join(" ")));
            }
            if params.skipped_count > 0 {
                words.push(format!(
                    "skipped={}[{}]",
                    params.skipped_count,
                    params.skipped.join(" ")
                ));
            }
            words.join(" ")
        }
        Command::Position(spec) => {
            let mut words = vec!["Position".to_string()];
            match &spec.start {
                StartSpec::StartPos => words.push("startpos".into()),
                StartSpec::Board { rows, side } => {
                    let rows: Vec<String> = rows
                        .iter()
                        .map(|row| {
                            row.iter()
                                .map(|cell| match cell {
                                    CellText::X => 'x',
                                    CellText::O => 'o',
                                    CellText::Empty => '.',
                                })
                                .collect()
                        })
                        .collect();
                    words.push(format!("board [{}] side {side:?}", rows.join("|")));
                }
            }
            if !spec.moves.is_empty() {
                words.push("moves".into());
                words.extend(spec.moves.iter().map(square));
            }
            words.join(" ")
        }
    }
}
