//! The report drawn as one SVG picture: a title with the totals, the score and the Elo
//! difference over the games with their 95% intervals as error bars, and the pentanomial
//! distribution. Written by hand: three simple charts need a few dozen SVG elements, and a
//! plotting library would bring font handling and many crates for them.

use super::games::{Match, Point};
use crate::stats::score_to_elo;
use std::fmt::Write as _;

const WIDTH: f64 = 960.0;
/// Left and right margins of the charts.
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
/// The most error bars drawn in a chart; longer matches are sampled evenly.
const MAX_BARS: usize = 60;
/// Elo values are drawn within this, so that a 100% score early on does not flatten the
/// rest; bars beyond it end open at the edge.
const ELO_LIMIT: f64 = 800.0;

/// Text for SVG: `&`, `<`, `>` and quotes escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A chart's frame: where it is on the page and the values its edges stand for.
struct Frame {
    top: f64,
    height: f64,
    x_range: (f64, f64),
    y_range: (f64, f64),
}

impl Frame {
    fn x(&self, value: f64) -> f64 {
        let (lo, hi) = self.x_range;
        let width = WIDTH - LEFT - RIGHT;
        LEFT + if hi > lo {
            (value - lo) / (hi - lo) * width
        } else {
            width / 2.0
        }
    }

    fn y(&self, value: f64) -> f64 {
        let (lo, hi) = self.y_range;
        let clamped = value.clamp(lo, hi);
        self.top + self.height - (clamped - lo) / (hi - lo) * self.height
    }

    /// The axes, grid lines at round values, and the title.
    fn axes(&self, out: &mut String, title: &str, y_label: &dyn Fn(f64) -> String) {
        let bottom = self.top + self.height;
        let _ = write!(
            out,
            "<text x=\"{LEFT}\" y=\"{:.1}\" class=\"h\">{}</text>\n\
             <rect x=\"{LEFT}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" class=\"frame\"/>\n",
            self.top - 10.0,
            escape(title),
            self.top,
            WIDTH - LEFT - RIGHT,
            self.height
        );
        for value in ticks(self.y_range.0, self.y_range.1, 6) {
            let y = self.y(value);
            let _ = writeln!(
                out,
                "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" class=\"grid\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" class=\"yl\">{}</text>",
                WIDTH - RIGHT,
                LEFT - 6.0,
                y + 4.0,
                escape(&y_label(value))
            );
        }
        for value in ticks(self.x_range.0, self.x_range.1, 10) {
            if value.fract() != 0.0 {
                continue;
            }
            let x = self.x(value);
            let _ = writeln!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" class=\"xl\">{value}</text>",
                bottom + 16.0
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"xl\">games</text>",
            WIDTH - RIGHT,
            bottom + 30.0
        );
    }
}

/// Round values from `lo` to `hi`, about `count` of them: steps of 1, 2 or 5 times a power
/// of ten.
fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if hi <= lo || !lo.is_finite() || !hi.is_finite() {
        return vec![lo];
    }
    let rough = (hi - lo) / count as f64;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power);
    let mut values = Vec::new();
    let mut v = (lo / step).ceil() * step;
    while v <= hi + step * 1e-9 {
        // -0 reads badly.
        values.push(if v == 0.0 { 0.0 } else { v });
        v += step;
    }
    values
}

/// The points drawn: all of them, or an even sample (the last always in) for long matches.
fn sample(points: &[Point]) -> Vec<Point> {
    let step = points.len().div_ceil(MAX_BARS).max(1);
    let mut chosen: Vec<Point> = points
        .iter()
        .copied()
        .enumerate()
        .filter(|(i, _)| (i + 1) % step == 0)
        .map(|(_, p)| p)
        .collect();
    if let Some(last) = points.last()
        && chosen.last().is_none_or(|p| p.games != last.games)
    {
        chosen.push(*last);
    }
    chosen
}

/// A value with its interval, as an error bar; ends beyond the frame stay open.
fn error_bar(out: &mut String, frame: &Frame, games: f64, value: f64, low: f64, high: f64) {
    let x = frame.x(games);
    let (y, y_low, y_high) = (frame.y(value), frame.y(low), frame.y(high));
    let _ = write!(
        out,
        "<line x1=\"{x:.1}\" y1=\"{y_low:.1}\" x2=\"{x:.1}\" y2=\"{y_high:.1}\" class=\"bar\"/>"
    );
    for (end, inside) in [
        (y_low, low >= frame.y_range.0),
        (y_high, high <= frame.y_range.1),
    ] {
        if inside {
            let _ = write!(
                out,
                "<line x1=\"{:.1}\" y1=\"{end:.1}\" x2=\"{:.1}\" y2=\"{end:.1}\" class=\"bar\"/>",
                x - 3.0,
                x + 3.0
            );
        }
    }
    let _ = writeln!(
        out,
        "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.5\" class=\"dot\"/>"
    );
}

/// The whole picture.
pub fn render(m: &Match) -> String {
    let progression = m.progression();
    let shown = sample(&progression);
    let games = progression.len() as f64;
    let last = progression.last().copied();
    let mut out = String::new();
    let height = 900.0;
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <style>.h{{font-size:15px;font-weight:bold}} .t{{font-size:18px;font-weight:bold}} \
         .frame{{fill:none;stroke:#888}} .grid{{stroke:#ddd}} .zero{{stroke:#888;\
         stroke-dasharray:4 3}} .bar{{stroke:#1f5fa8;stroke-width:1.5}} .dot{{fill:#1f5fa8}} \
         .yl{{text-anchor:end;fill:#444}} .xl{{text-anchor:middle;fill:#444}} \
         .col{{fill:#4a8c3f}} .n{{text-anchor:middle}}</style>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let title = format!(
        "{} vs {}: {} games on {}",
        m.players[0],
        m.players[1],
        progression.len(),
        m.board
    );
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"30\" class=\"t\">{}</text>",
        escape(&title)
    );
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"52\">{}</text>",
        escape(&totals_line(m, last))
    );
    if m.matches_in_file > 1 {
        let _ = writeln!(
            out,
            "<text x=\"{LEFT}\" y=\"70\" fill=\"#666\">the last of {} matches in the file</text>",
            m.matches_in_file
        );
    }

    // The score per game, from the first player's side, with its 95% interval.
    let score = Frame {
        top: 110.0,
        height: 220.0,
        x_range: (0.0, games),
        y_range: (0.0, 100.0),
    };
    score.axes(
        &mut out,
        &format!("score of {} (%), 95% interval", m.players[0]),
        &|v| format!("{v}"),
    );
    let half = score.y(50.0);
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{half:.1}\" x2=\"{:.1}\" y2=\"{half:.1}\" class=\"zero\"/>",
        WIDTH - RIGHT
    );
    for p in &shown {
        if let Some(e) = p.estimate {
            let (s, err) = (100.0 * e.score, 100.0 * e.score_error);
            error_bar(&mut out, &score, p.games as f64, s, s - err, s + err);
        }
    }

    // The Elo difference, its interval the score's in Elo (so not symmetric).
    let elo_of = |s: f64| score_to_elo(s.clamp(0.0, 1.0));
    let bars: Vec<(f64, f64, f64, f64)> = shown
        .iter()
        .filter_map(|p| {
            let e = p.estimate?;
            Some((
                p.games as f64,
                elo_of(e.score),
                elo_of(e.score - e.score_error),
                elo_of(e.score + e.score_error),
            ))
        })
        .collect();
    let reach = bars
        .iter()
        .flat_map(|b| [b.1, b.2, b.3])
        .filter(|v| v.is_finite())
        .fold(50.0_f64, |a, v| a.max(v.abs()))
        .min(ELO_LIMIT);
    // Rounded up to the next grid line, so that the frame's edges are labelled.
    let grid = ticks(0.0, reach, 4);
    let step = grid.get(1).copied().unwrap_or(reach);
    let reach = (reach / step).ceil() * step;
    let elo = Frame {
        top: 390.0,
        height: 220.0,
        x_range: (0.0, games),
        y_range: (-reach, reach),
    };
    elo.axes(
        &mut out,
        &format!(
            "Elo difference ({} - {}), 95% interval",
            m.players[0], m.players[1]
        ),
        &|v| {
            if v == 0.0 {
                "0".into()
            } else {
                format!("{v:+}")
            }
        },
    );
    let zero = elo.y(0.0);
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{zero:.1}\" x2=\"{:.1}\" y2=\"{zero:.1}\" class=\"zero\"/>",
        WIDTH - RIGHT
    );
    for (g, value, low, high) in bars {
        error_bar(&mut out, &elo, g, value, low, high);
    }

    pentanomial(&mut out, m, last);
    out.push_str("</svg>\n");
    out
}

/// `score 85.0% (70 wins, 30 draws, 0 losses); Elo +301.3 +/- 57.9, nElo ...; LOS 100.00%`
fn totals_line(m: &Match, last: Option<Point>) -> String {
    let Some(p) = last else {
        return "no games".into();
    };
    let wdl = p.wdl;
    let games = wdl.games().max(1) as f64;
    let points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
    let mut line = format!(
        "{}: score {:.1}% ({} wins, {} draws, {} losses); draw ratio {:.1}%",
        m.players[0],
        100.0 * points / games,
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * wdl.draws as f64 / games
    );
    if let Some(e) = p.estimate {
        let number = |x: f64| {
            if x.is_finite() {
                format!("{x:.1}")
            } else {
                "n/a".into()
            }
        };
        let _ = write!(
            line,
            "; Elo {}{} +/- {}, nElo {}{} +/- {}, LOS {}",
            if e.elo >= 0.0 { "+" } else { "" },
            number(e.elo),
            number(e.elo_error),
            if e.nelo >= 0.0 { "+" } else { "" },
            number(e.nelo),
            number(e.nelo_error),
            if e.los.is_finite() {
                format!("{:.2}%", 100.0 * e.los)
            } else {
                "n/a".into()
            }
        );
    }
    line
}

/// The game pairs by the first player's points, as bars with their counts.
fn pentanomial(out: &mut String, m: &Match, last: Option<Point>) {
    let counts = last.map_or([0; 5], |p| p.pairs.0);
    let total: u64 = counts.iter().sum();
    let frame = Frame {
        top: 670.0,
        height: 170.0,
        x_range: (0.0, 5.0),
        // Room above the highest bar for its count.
        y_range: (
            0.0,
            1.15 * counts.iter().copied().max().unwrap_or(0).max(1) as f64,
        ),
    };
    let _ = write!(
        out,
        "<text x=\"{LEFT}\" y=\"{:.1}\" class=\"h\">{}</text>\n\
         <rect x=\"{LEFT}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" class=\"frame\"/>\n",
        frame.top - 10.0,
        escape(&format!(
            "pentanomial: {total} game pairs by {}'s points",
            m.players[0]
        )),
        frame.top,
        WIDTH - LEFT - RIGHT,
        frame.height
    );
    let labels = ["0 (LL)", "0.5 (LD)", "1 (WL+DD)", "1.5 (WD)", "2 (WW)"];
    for (i, (&count, label)) in counts.iter().zip(labels).enumerate() {
        let (left, right) = (frame.x(i as f64 + 0.2), frame.x(i as f64 + 0.8));
        let top = frame.y(count as f64);
        let bottom = frame.top + frame.height;
        let middle = (left + right) / 2.0;
        let share = if total > 0 {
            format!(" ({:.0}%)", 100.0 * count as f64 / total as f64)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" class=\"col\"/>\
             <text x=\"{middle:.1}\" y=\"{:.1}\" class=\"n\">{count}{share}</text>\
             <text x=\"{middle:.1}\" y=\"{:.1}\" class=\"xl\">{label}</text>",
            right - left,
            bottom - top,
            (top - 4.0).max(frame.top + 12.0),
            bottom + 16.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ticks() {
        assert_eq!(ticks(0.0, 100.0, 6), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(
            ticks(-300.0, 300.0, 6),
            [-300.0, -200.0, -100.0, 0.0, 100.0, 200.0, 300.0]
        );
        assert_eq!(
            ticks(0.0, 7.0, 10),
            [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
        );
        assert_eq!(ticks(3.0, 3.0, 5), [3.0]);
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(escape("a<b> & \"c\""), "a&lt;b&gt; &amp; &quot;c&quot;");
    }
}
