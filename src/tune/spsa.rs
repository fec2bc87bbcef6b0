//! SPSA's arithmetic, with no games and no I/O: the gain sequences, the perturbation signs,
//! theta+ and theta-, and the update.
//!
//! Simultaneous perturbation stochastic approximation as J. C. Spall describes it in
//! "Multivariate stochastic approximation using a simultaneous perturbation gradient
//! approximation" (IEEE Trans. Automatic Control 37(3), 1992) and, with the practical gains
//! used here (alpha 0.602, gamma 0.101, A about a tenth of the iterations), in
//! "Implementation of the simultaneous perturbation algorithm for stochastic optimization"
//! (IEEE Trans. Aerospace and Electronic Systems 34(3), 1998). Every parameter is measured in
//! units of its own `step`, so that one pair of gains suits parameters of any scale: the
//! perturbation is c_k steps, and the update a_k * r / (2 c_k) steps, for a result r.

use crate::search::{ParamSpec, Params};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The gain sequences a_k = a / (k + 1 + A)^alpha and c_k = c / (k + 1)^gamma.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// a: the step size's numerator.
    pub a: f64,
    /// c: the perturbation at k = 0, in steps.
    pub c: f64,
    /// A: the stability constant, which keeps the first steps from being the largest by far.
    pub big_a: f64,
    /// alpha: the decay of a_k.
    pub alpha: f64,
    /// gamma: the decay of c_k.
    pub gamma: f64,
}

impl Gains {
    /// a_k, for iteration `k` from 0.
    pub fn a_k(&self, k: usize) -> f64 {
        self.a / (k as f64 + 1.0 + self.big_a).powf(self.alpha)
    }

    /// c_k, for iteration `k` from 0.
    pub fn c_k(&self, k: usize) -> f64 {
        self.c / (k as f64 + 1.0).powf(self.gamma)
    }

    /// The a that moves a parameter `first_step` steps at k = 0 when theta+ and theta- end
    /// one point per pair apart: Spall's rule of thumb, a step of the size wanted early on
    /// for a typical gradient estimate.
    pub fn a_for_first_step(first_step: f64, c: f64, big_a: f64, alpha: f64) -> f64 {
        first_step * 2.0 * c * (1.0 + big_a).powf(alpha)
    }
}

/// The tuned parameters and their real values.
#[derive(Clone, Debug, PartialEq)]
pub struct Theta {
    /// The parameters, in the order given.
    pub specs: Vec<&'static ParamSpec>,
    /// Their values, kept to millionths (see [`quantize`]).
    pub values: Vec<f64>,
}

impl Theta {
    /// The tuned parameters `specs` at their values in `start`.
    pub fn new(specs: Vec<&'static ParamSpec>, start: &Params) -> Theta {
        let values = specs
            .iter()
            .map(|s| f64::from(start.get(s.name).unwrap_or(s.default)))
            .collect();
        Theta { specs, values }
    }

    /// `base` with each tuned parameter at theta + `offset` * step * delta, rounded and
    /// clamped to its range (`offset` c_k for theta+, -c_k for theta-, 0 for theta).
    pub fn perturbed(&self, base: &Params, delta: &[i8], offset: f64) -> Params {
        let mut params = *base;
        for (i, (spec, value)) in self.specs.iter().zip(&self.values).enumerate() {
            let sign = f64::from(delta.get(i).copied().unwrap_or(0));
            let moved = value + offset * f64::from(spec.step) * sign;
            let v = moved
                .round()
                .clamp(f64::from(spec.min), f64::from(spec.max));
            // Clamped into the range, so the table takes it.
            let set = params.set(spec.name, v as i64);
            debug_assert!(set.is_ok(), "{} = {v}", spec.name);
        }
        params
    }

    /// `base` with each tuned parameter at theta, rounded.
    pub fn rounded(&self, base: &Params) -> Params {
        self.perturbed(base, &[], 0.0)
    }

    /// The update after an iteration: theta_i += a_k * step_i * r / (2 c_k) * delta_i,
    /// clamped to the range, where `r` is theta+'s points per pair minus theta-'s.
    pub fn update(&mut self, delta: &[i8], a_k: f64, c_k: f64, r: f64) {
        for (i, (spec, value)) in self.specs.iter().zip(&mut self.values).enumerate() {
            let sign = f64::from(delta.get(i).copied().unwrap_or(0));
            let moved = *value + a_k * f64::from(spec.step) * r / (2.0 * c_k) * sign;
            *value = quantize(moved.clamp(f64::from(spec.min), f64::from(spec.max)));
        }
    }
}

/// `x` to millionths. The state file then holds theta exactly: a number read back a unit in
/// the last place off (JSON readers need not round exactly) quantizes to the same value, so
/// a resumed run goes on as if never stopped.
pub fn quantize(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// What a derived seed is for, so that the streams of one iteration are unrelated.
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    /// The perturbation signs.
    Signs = 1,
    /// kinrow match's `--seed` (its random openings).
    Match = 2,
    /// The engines' `Seed` option.
    Engines = 3,
}

/// A seed for `stream` of iteration `k`: the run's seed, k and the stream mixed by the
/// SplitMix64 finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014), so that neighbouring iterations get unrelated streams.
pub fn derive(seed: u64, k: usize, stream: Stream) -> u64 {
    let mut z = seed
        .wrapping_add((k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add((stream as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The engines' `Seed` option for iteration `k`: from 1 to 2^31 - 1, the option's range (0
/// would seed from entropy).
pub fn engine_seed(seed: u64, k: usize) -> u64 {
    1 + derive(seed, k, Stream::Engines) % (i32::MAX as u64 - 1)
}

/// The perturbation of iteration `k`: +1 or -1 for each of `n` parameters, each with
/// probability 1/2 (Spall's symmetric Bernoulli distribution), from the run's seed.
pub fn signs(seed: u64, k: usize, n: usize) -> Vec<i8> {
    let mut rng = StdRng::seed_from_u64(derive(seed, k, Stream::Signs));
    (0..n)
        .map(|_| if rng.random::<bool>() { 1 } else { -1 })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gains() -> Gains {
        Gains {
            a: 2.0,
            c: 1.0,
            big_a: 10.0,
            alpha: 0.602,
            gamma: 0.101,
        }
    }

    /// Two parameters of the table with steps and room either side of their defaults.
    fn specs() -> Vec<&'static ParamSpec> {
        let roomy: Vec<_> = Params::SPECS
            .iter()
            .filter(|s| {
                s.step > 0 && s.default - s.min >= 4 * s.step && s.max - s.default >= 4 * s.step
            })
            .take(2)
            .collect();
        assert_eq!(roomy.len(), 2, "two parameters with room to move");
        roomy
    }

    #[test]
    fn gains_decay_as_spall_gives_them() {
        let g = gains();
        assert!((g.a_k(0) - 2.0 / 11f64.powf(0.602)).abs() < 1e-12);
        assert_eq!(g.c_k(0), 1.0);
        assert!(g.a_k(10) < g.a_k(0) && g.c_k(10) < g.c_k(0));
        let a = Gains::a_for_first_step(1.5, 2.0, 10.0, 0.602);
        let g = Gains {
            a,
            c: 2.0,
            ..gains()
        };
        // One point per pair at k = 0 moves theta 1.5 steps.
        assert!((g.a_k(0) / (2.0 * g.c_k(0)) - 1.5).abs() < 1e-12);
    }

    #[test]
    fn perturbations_are_symmetric_rounded_and_clamped() {
        let specs = specs();
        let theta = Theta::new(specs.clone(), &Params::DEFAULT);
        let delta = [1, -1];
        let plus = theta.perturbed(&Params::DEFAULT, &delta, 2.0);
        let minus = theta.perturbed(&Params::DEFAULT, &delta, -2.0);
        let (a, b) = (specs[0], specs[1]);
        assert_eq!(plus.get(a.name), Some(a.default + 2 * a.step));
        assert_eq!(plus.get(b.name), Some(b.default - 2 * b.step));
        assert_eq!(minus.get(a.name), Some(a.default - 2 * a.step));
        assert_eq!(theta.rounded(&Params::DEFAULT), Params::DEFAULT);
        // Far past the range: clamped.
        let far = theta.perturbed(&Params::DEFAULT, &delta, 1e12);
        assert_eq!(
            (far.get(a.name), far.get(b.name)),
            (Some(a.max), Some(b.min))
        );
    }

    #[test]
    fn the_update_follows_the_result_and_stays_in_range() {
        let specs = specs();
        let mut theta = Theta::new(specs.clone(), &Params::DEFAULT);
        let start = theta.values.clone();
        // theta+ scored one point per pair more: move towards theta+.
        theta.update(&[1, -1], 2.0, 1.0, 1.0);
        assert_eq!(theta.values[0], start[0] + f64::from(specs[0].step));
        assert_eq!(theta.values[1], start[1] - f64::from(specs[1].step));
        theta.update(&[1, -1], 2.0, 1.0, 0.0);
        assert_eq!(
            theta.values[0],
            start[0] + f64::from(specs[0].step),
            "no result, no move"
        );
        theta.update(&[1, 1], 1e12, 1.0, 2.0);
        assert_eq!(theta.values[0], f64::from(specs[0].max));
        assert_eq!(quantize(0.1 + 0.2), 0.3);
    }

    #[test]
    fn signs_come_from_the_seed() {
        assert_eq!(signs(7, 3, 40), signs(7, 3, 40));
        assert_ne!(signs(7, 3, 40), signs(7, 4, 40));
        assert_ne!(signs(7, 3, 40), signs(8, 3, 40));
        let s = signs(1, 0, 1000);
        assert!(s.iter().all(|&d| d == 1 || d == -1));
        let ups = s.iter().filter(|&&d| d == 1).count();
        assert!((400..600).contains(&ups), "{ups}");
        for k in 0..100 {
            assert!((1..=i32::MAX as u64).contains(&engine_seed(k as u64, k)));
        }
    }
}
