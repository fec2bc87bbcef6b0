//! The prior that the move order is right: a defender's reply's disproof number weighed by
//! its place in the order.

use super::INF;

/// How much a defender's reply's place in the move order weighs, in 64ths of its disproof
/// number per place: the reply `r` places down (replies equivalent to an earlier one by
/// symmetry keep their places) counts `1 + r * RANK_WEIGHT / 64` times its disproof number
/// where its node chooses among replies, and in the node's own number.
///
/// Without it, the replies' disproof numbers rise together (each is a sum over the
/// attacker's many moves, all alike at first), so df-pn goes round all of them a level at a
/// time before one is disproven: after d4 e5 d5 on (8,8,5) the five least of some fifty
/// were within 0.5% of each other through three million nodes. The weight is a prior that
/// the move order is right: it keeps the search on the first replies until they prove
/// clearly worse. Measured at 435ac2f (nodes; one thread; without, then with 16, 32, 64,
/// 128): d4 e5 d5 3,328,780, 415,868, 356,423, 258,878, 203,585; d4 e5 c3 2,580,139, 971,370,
/// 698,571, 567,861, 514,519; (8,7,5) 1,639,093, 674,165, 648,914, 833,301, 1,081,088.
/// After d4 e5 (some thirty attacker moves to refute), not proven in 31.7 million nodes
/// without; proven with 32 in 2,937,730 and with 64 in 1,965,101. The larger boards gain
/// the most, and (8,8,5) is the one that needs it.
const RANK_WEIGHT: u64 = 64;

/// A reply's disproof number `dn` weighed by its place `rank` in the move order (see
/// [`RANK_WEIGHT`]); rounded up, so that a weighed number under a threshold `t` means a
/// number under [`unweighted`]`(t, rank)`. Zero and infinity stay as they are.
pub(super) fn weighted(dn: u32, rank: usize) -> u32 {
    if dn == 0 || dn >= INF - 1 {
        return dn;
    }
    let w = 64 + rank as u64 * RANK_WEIGHT;
    (dn as u64 * w).div_ceil(64).min(INF as u64 - 2) as u32
}

/// The threshold on a reply's own disproof number that keeps its weighed number (see
/// [`weighted`]) under `t`: the reply's search returns once its number reaches it, which is
/// when the weighed number reaches `t`.
pub(super) fn unweighted(t: u32, rank: usize) -> u32 {
    if t == 0 || t >= INF - 1 {
        return t;
    }
    // weighted(dn) < t  <=>  dn * w <= 64 * (t - 1)  <=>  dn < 64 * (t - 1) / w + 1.
    let w = 64 + rank as u64 * RANK_WEIGHT;
    ((t as u64 - 1) * 64 / w + 1) as u32
}

#[cfg(test)]
mod tests {
    use super::{INF, unweighted, weighted};

    /// A reply's search, given `unweighted(t, rank)`, returns exactly when its weighed number
    /// reaches `t`: never at once while the weighed number is under `t` (the search would
    /// make no progress and its node would call it again for ever), never later.
    #[test]
    fn the_weighed_threshold_is_the_reply_s_own() {
        let numbers = (1..300).chain([1000, 65_535, 1 << 20, INF - 3, INF - 2]);
        for dn in numbers {
            for rank in 0..64 {
                assert!(weighted(dn, rank) >= dn, "{dn} {rank}");
                for t in [
                    0,
                    1,
                    2,
                    3,
                    50,
                    299,
                    300,
                    301,
                    4096,
                    1 << 22,
                    INF - 2,
                    INF - 1,
                ] {
                    let below = weighted(dn, rank) < t;
                    assert_eq!(below, dn < unweighted(t, rank), "{dn} {rank} {t}");
                }
            }
        }
        assert_eq!(weighted(0, 9), 0);
        assert_eq!(weighted(INF, 9), INF);
        assert_eq!(weighted(7, 0), 7);
    }
}
