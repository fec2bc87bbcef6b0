//! Killer moves, shared by the searches that order moves: a move that caused a cutoff at a
//! ply is likely to cause one at the same ply elsewhere in the tree (S. G. Akl, M. M.
//! Newborn, 1977).

/// Records `m` as the newest killer move of a ply (it caused a cutoff there), the older one
/// moving to second place, unless `m` is already first.
#[inline]
pub(crate) fn remember_killer<M: Copy + PartialEq>(killers: &mut [Option<M>; 2], m: M) {
    if killers[0] != Some(m) {
        killers[1] = killers[0];
        killers[0] = Some(m);
    }
}
