//! Match statistics as fastchess computes them: Elo with a 95% interval, normalized Elo and
//! the likelihood of superiority from game pairs (pentanomial) or single games (trinomial),
//! and the generalized SPRT on pentanomial counts.
//!
//! The formulas are those of Michel Van den Bergh's "Comments on Normalized Elo" and of
//! A. Wald's sequential test; the tests check them against figures that fastchess and
//! cutechess (programs nobody here wrote) printed for real matches.

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// How the SPRT turns Elo into expected scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SprtModel {
    /// Normalized Elo (fastchess's default), bounds in nElo.
    Normalized,
    /// Logistic Elo.
    Logistic,
}

impl SprtModel {
    /// The unit of the Elo bounds: `nElo` or `Elo`.
    pub fn unit(self) -> &'static str {
        match self {
            SprtModel::Normalized => "nElo",
            SprtModel::Logistic => "Elo",
        }
    }
}

/// The scale between a normalized score difference and normalized Elo.
fn nelo_scale() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games in all.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, from 0 to 1 (`None` without games).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }
}

/// Game pairs by their score for one player: 0, 0.5, 1, 1.5 and 2 points (fastchess's
/// `Ptnml(0-2)`: LL, LD, WL+DD, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Pairs in all.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// An Elo estimate. Values are `inf` or NaN where the data cannot give them (a score of
/// 100%, no variance).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference.
    pub elo: f64,
    /// Half the width of its 95% interval.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half the width of its 95% interval.
    pub nelo_error: f64,
    /// The likelihood of superiority, from 0 to 1.
    pub los: f64,
    /// The score per game, from 0 to 1.
    pub score: f64,
    /// Half the width of its 95% interval (the Elo interval is this one's, in Elo).
    pub score_error: f64,
}

/// Logistic Elo of a score.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Logistic score of an Elo difference.
fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The estimate from outcomes `values` (scores from 0 to 1) seen `counts` times, where
/// `spread` is what normalized Elo divides the per-unit standard deviation by (1 for games,
/// sqrt 2 for pairs, so that both estimate the same per-game quantity).
fn estimate(values: &[f64], counts: &[u64], spread: f64, z: f64) -> Option<EloEstimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let score: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64 / n)
        .sum();
    let variance: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| c as f64 / n * (v - score).powi(2))
        .sum();
    let stderr = (variance / n).sqrt();
    let (upper, lower) = (score + z * stderr, score - z * stderr);
    let nelo = |s: f64| (s - 0.5) / (spread * variance.sqrt()) * nelo_scale();
    Some(EloEstimate {
        elo: score_to_elo(score),
        elo_error: (score_to_elo(upper) - score_to_elo(lower)) / 2.0,
        nelo: nelo(score),
        nelo_error: (nelo(upper) - nelo(lower)) / 2.0,
        los: normal_cdf((score - 0.5) / stderr),
        score,
        score_error: z * stderr,
    })
}

/// The estimate from single games (for matches too short to have a complete pair), with
/// cutechess's likelihood of superiority from wins and losses only.
pub fn elo_trinomial(wdl: Wdl) -> Option<EloEstimate> {
    trinomial_with(wdl, Z95)
}

/// [`elo_trinomial`] with the normal quantile `z` for the interval.
fn trinomial_with(wdl: Wdl, z: f64) -> Option<EloEstimate> {
    let mut e = estimate(&[0.0, 0.5, 1.0], &[wdl.losses, wdl.draws, wdl.wins], 1.0, z)?;
    let decisive = (wdl.wins + wdl.losses) as f64;
    e.los = 0.5 + 0.5 * erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt());
    Some(e)
}

/// The estimate from game pairs, as fastchess reports it.
pub fn elo_pentanomial(pairs: Pentanomial) -> Option<EloEstimate> {
    estimate(
        &[0.0, 0.25, 0.5, 0.75, 1.0],
        &pairs.0,
        std::f64::consts::SQRT_2,
        Z95,
    )
}

/// The standard normal distribution function.
fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, from the complementary error function's Chebyshev fit (fractional
/// error below 1.2e-7 everywhere, Numerical Recipes 6.2), plenty for two decimals of a
/// percentage.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// What an SPRT says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 (Elo <= elo0) is accepted.
    H0,
    /// H1 (Elo >= elo1) is accepted.
    H1,
    /// Play on.
    Continue,
}

/// The SPRT's bounds on the log-likelihood ratio: (lower, upper).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The decision for a log-likelihood ratio.
pub fn sprt_decision(llr: f64, alpha: f64, beta: f64) -> SprtDecision {
    let (lower, upper) = sprt_bounds(alpha, beta);
    if llr >= upper {
        SprtDecision::H1
    } else if llr <= lower {
        SprtDecision::H0
    } else {
        SprtDecision::Continue
    }
}

/// The log-likelihood ratio of H1 (Elo `elo1`) against H0 (Elo `elo0`) for the pair counts,
/// each distribution being the maximum-likelihood one under its hypothesis. Empty cells count
/// as 0.001 pairs, as in fastchess, so that the estimate exists from the first pair.
pub fn sprt_llr(pairs: Pentanomial, elo0: f64, elo1: f64, model: SprtModel) -> f64 {
    if pairs.pairs() == 0 {
        return 0.0;
    }
    let counts: Vec<f64> = pairs
        .0
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = counts.iter().sum();
    let probs: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
    let (p0, p1) = match model {
        SprtModel::Logistic => (
            mle_with_mean(&scores, &probs, elo_to_score(elo0)),
            mle_with_mean(&scores, &probs, elo_to_score(elo1)),
        ),
        SprtModel::Normalized => {
            let t = |elo: f64| std::f64::consts::SQRT_2 * elo / nelo_scale();
            (
                mle_with_t(&scores, &probs, 0.5, t(elo0)),
                mle_with_t(&scores, &probs, 0.5, t(elo1)),
            )
        }
    };
    total
        * probs
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (a, b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
}

/// The root of a decreasing function on the open interval (a, b), by bisection.
fn root(f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (a, b);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The distribution closest to `probs` (in likelihood) with mean `s` (Van den Bergh,
/// proposition 1.1): p_i = phat_i / (1 + theta (a_i - s)) with theta solving
/// sum phat_i (a_i - s) / (1 + theta (a_i - s)) = 0.
fn mle_with_mean(scores: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let (first, last) = (scores[0], scores[scores.len() - 1]);
    let f = |theta: f64| -> f64 {
        scores
            .iter()
            .zip(probs)
            .map(|(a, p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let theta = root(f, -1.0 / (last - s), -1.0 / (first - s));
    scores
        .iter()
        .zip(probs)
        .map(|(a, p)| p / (1.0 + theta * (a - s)))
        .collect()
}

/// The distribution closest to `probs` (in likelihood) whose normalized score
/// (mu - mu_ref) / sigma is `t` (Van den Bergh, section 4.1).
///
/// At the optimum, p_i = probs_i / (1 + theta g_i), where g is the gradient of the
/// constraint mu - mu_ref - t sigma = 0 at p itself, g_i = a_i - mu_ref - t (sigma^2 +
/// (a_i - mu)^2) / (2 sigma), and theta makes p sum to one with sum p_i g_i = 0. g depends
/// on p, so p is refined from the data's own distribution (the unconstrained optimum) until
/// it no longer moves; a handful of rounds is enough for the five pentanomial cells.
fn mle_with_t(scores: &[f64], probs: &[f64], mu_ref: f64, t: f64) -> Vec<f64> {
    const ROUNDS: usize = 100;
    const SETTLED: f64 = 1e-12;
    let mut p = probs.to_vec();
    for _ in 0..ROUNDS {
        let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let variance: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu).powi(2))
            .sum();
        let sigma = variance.sqrt();
        if sigma <= 0.0 {
            break;
        }
        let g: Vec<f64> = scores
            .iter()
            .map(|a| a - mu_ref - t * (variance + (a - mu).powi(2)) / (2.0 * sigma))
            .collect();
        let (low, high) = g
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
                (l.min(x), h.max(x))
            });
        // theta keeps every 1 + theta g_i positive: it lies between -1/high and -1/low.
        let balance = |theta: f64| -> f64 {
            probs
                .iter()
                .zip(&g)
                .map(|(q, x)| q * x / (1.0 + theta * x))
                .sum()
        };
        let theta = root(balance, -1.0 / high, -1.0 / low);
        let next: Vec<f64> = probs
            .iter()
            .zip(&g)
            .map(|(q, x)| q / (1.0 + theta * x))
            .collect();
        let moved = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < SETTLED {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Figures fastchess printed for real matches: `Ptnml(0-2)`, then `Elo: E +/- e,
    /// nElo: N +/- n`, `LOS: L %`, all to two decimals.
    #[test]
    fn pentanomial_elo_matches_fastchess() {
        let cases: [([u64; 5], [f64; 5]); 6] = [
            (
                [352, 579, 1264, 743, 464],
                [19.83, 6.77, 24.25, 8.26, 100.00],
            ),
            ([13, 34, 232, 71, 29], [31.71, 14.63, 53.96, 24.73, 100.00]),
            (
                [790, 1759, 3256, 1780, 807],
                [1.14, 4.04, 1.48, 5.26, 70.95],
            ),
            ([34, 49, 128, 62, 27], [-0.58, 21.41, -0.75, 27.80, 47.88]),
            (
                [55, 116, 214, 185, 112],
                [46.90, 15.43, 56.76, 18.44, 100.00],
            ),
            (
                [19, 82, 272, 308, 361],
                [162.63, 13.49, 207.38, 14.92, 100.00],
            ),
        ];
        for (counts, [elo, error, nelo, nelo_error, los]) in cases {
            let e = elo_pentanomial(Pentanomial(counts)).unwrap();
            let got = [e.elo, e.elo_error, e.nelo, e.nelo_error, e.los * 100.0];
            for (g, w) in got.iter().zip([elo, error, nelo, nelo_error, los]) {
                assert!(close(*g, w, 0.005 + 1e-9), "{counts:?}: got {got:?}");
            }
        }
    }

    /// Figures cutechess-cli printed: `Score of A vs B: W - L - D`, then `Elo difference:
    /// E +/- e, LOS: L %`. cutechess takes its 97.5% normal quantile from an approximate
    /// inverse error function (1.95716 rather than 1.95996), so the interval is checked with
    /// that quantile; with the exact one it is 0.15% wider.
    #[test]
    fn trinomial_elo_matches_cutechess() {
        const CUTECHESS_Z: f64 = 1.957_161_931_656_024_5;
        for ((wins, losses, draws), (elo, error, los)) in [
            ((99, 97, 104), (2.3, 31.8, 55.7)),
            ((45, 37, 18), (27.9, 62.4, 81.2)),
            ((152, 105, 43), (54.9, 36.9, 99.8)),
            ((1086, 963, 336), (17.9, 12.9, 99.7)),
        ] {
            let wdl = Wdl {
                wins,
                draws,
                losses,
            };
            let e = trinomial_with(wdl, CUTECHESS_Z).unwrap();
            let exact = elo_trinomial(wdl).unwrap();
            assert!(exact.elo_error > e.elo_error && exact.elo_error < e.elo_error * 1.002);
            assert!(close(e.elo, elo, 0.05 + 1e-9), "{e:?}");
            assert!(close(e.elo_error, error, 0.05 + 1e-9), "{e:?}");
            assert!(close(e.los * 100.0, los, 0.05 + 1e-9), "{e:?}");
        }
    }

    /// fastchess's `LLR:` lines for those matches (normalized model), and the decisions.
    #[test]
    fn sprt_matches_fastchess() {
        for (counts, elo0, elo1, llr) in [
            ([352, 579, 1264, 743, 464], 9.0, 16.0, 4.60),
            ([13, 34, 232, 71, 29], 0.0, 10.0, 2.95),
            ([790, 1759, 3256, 1780, 807], 0.0, 5.0, -0.71),
            ([55, 116, 214, 185, 112], 0.0, 5.0, 2.97),
        ] {
            let got = sprt_llr(Pentanomial(counts), elo0, elo1, SprtModel::Normalized);
            assert!(close(got, llr, 0.006), "{counts:?}: {got}");
        }
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!(close(lower, -2.944, 0.001) && close(upper, 2.944, 0.001));
        let (lower, upper) = sprt_bounds(0.01, 0.01);
        assert!(close(lower, -4.595, 0.001) && close(upper, 4.595, 0.001));
        // fastchess stopped these runs with H1, and let the third one go on.
        let decide = |counts, e0, e1, a| {
            sprt_decision(
                sprt_llr(Pentanomial(counts), e0, e1, SprtModel::Normalized),
                a,
                a,
            )
        };
        assert_eq!(
            decide([352, 579, 1264, 743, 464], 9.0, 16.0, 0.01),
            SprtDecision::H1
        );
        assert_eq!(
            decide([13, 34, 232, 71, 29], 0.0, 10.0, 0.05),
            SprtDecision::H1
        );
        assert_eq!(
            decide([790, 1759, 3256, 1780, 807], 0.0, 5.0, 0.05),
            SprtDecision::Continue
        );
    }

    /// Fixed sequences of pairs: one player always scoring 1.5 of 2 is accepted as stronger
    /// within a few dozen pairs, the mirror image as weaker, even pairs never decide quickly.
    #[test]
    fn sprt_on_fixed_sequences() {
        let run = |pattern: &[usize], model| {
            let mut counts = Pentanomial::default();
            for n in 1..=10_000 {
                counts.0[pattern[n % pattern.len()]] += 1;
                let llr = sprt_llr(counts, 0.0, 10.0, model);
                let d = sprt_decision(llr, 0.05, 0.05);
                if d != SprtDecision::Continue {
                    return (d, n);
                }
            }
            (SprtDecision::Continue, 10_000)
        };
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            let (d, n) = run(&[3, 4, 2, 3], model);
            assert_eq!(d, SprtDecision::H1, "{model:?}");
            assert!(n < 200, "{model:?}: {n}");
            let (d, _) = run(&[1, 0, 2, 1], model);
            assert_eq!(d, SprtDecision::H0, "{model:?}");
        }
        // Balanced play: H0 (Elo 0) is the truth, so H1 must not be accepted.
        let (d, _) = run(&[2, 1, 3, 2], SprtModel::Normalized);
        assert_ne!(d, SprtDecision::H1);
    }

    #[test]
    fn degenerate_matches() {
        // All pairs won outright: infinite Elo, no interval, certain superiority.
        let e = elo_pentanomial(Pentanomial([0, 0, 0, 0, 10])).unwrap();
        assert!(e.elo.is_infinite() && e.elo > 0.0);
        assert_eq!(elo_pentanomial(Pentanomial::default()), None);
        let e = elo_trinomial(Wdl {
            wins: 0,
            draws: 4,
            losses: 0,
        })
        .unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        assert_eq!(
            sprt_llr(Pentanomial::default(), 0.0, 5.0, SprtModel::Normalized),
            0.0
        );
        assert!(close(erf(0.0), 0.0, 1e-7) && close(erf(1.0), 0.842_700_79, 1e-6));
        assert!(close(erf(-2.0), -0.995_322_27, 1e-6));
    }
}
