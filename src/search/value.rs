//! Scores and values shared by the searches: the mate scale, how a score becomes the value
//! the protocol reports, and what a stored score bounds.

/// The score of a win on the move: a win `p` plies from the root scores `MATE - p`.
pub const MATE: i32 = 1_000_000;
/// No game has more plies than this.
pub const MAX_PLY: usize = crate::rules::MAX_CELLS + 1;
/// Scores at or beyond this (in absolute value) are proven wins or losses.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Beyond every score: the open window's bounds.
pub(crate) const INF: i32 = MATE + 1;

/// A search value as the protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Heuristic score for the side to move.
    Heuristic(i32),
    /// Proven win with the side to move's Nth move.
    Win(u32),
    /// Proven loss: the opponent wins with their Nth move.
    Loss(u32),
    /// Proven draw.
    Draw,
}

impl Value {
    /// Whether the game-theoretic value is known.
    pub fn is_proven(self) -> bool {
        !matches!(self, Value::Heuristic(_))
    }

    /// `proven`: no heuristic value was used; `sound`: no move was left out, so that a win or
    /// loss found is one against every defence.
    pub(crate) fn from_score(score: i32, proven: bool, sound: bool) -> Value {
        if score.abs() >= MATE_BOUND && !sound {
            // A forced line found among the likely moves only: very good (or bad), not proven.
            Value::Heuristic(score.signum() * crate::eval::EVAL_LIMIT)
        } else if score >= MATE_BOUND {
            Value::Win(((MATE - score + 1) / 2) as u32)
        } else if score <= -MATE_BOUND {
            Value::Loss(((MATE + score) / 2) as u32)
        } else if proven {
            // A search whose every leaf was a finished game scores 0 only for a draw.
            Value::Draw
        } else {
            Value::Heuristic(score)
        }
    }
}

/// Mate scores are stored relative to the node, so that they mean the same wherever the
/// position recurs.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`]: a stored score as seen from a node `ply` plies deep.
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

impl Bound {
    /// What a node's best score `best` says, the node searched with the window
    /// (`alpha`, `beta`).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// Whether a stored `score` with this bound settles a node searched with the window
    /// (`alpha`, `beta`).
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// The bound's two bits in a table entry (0 marks an empty slot).
    #[inline]
    pub fn bits(self) -> u8 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    /// The bound of an entry's two bits (not 0: the slot holds an entry).
    #[inline]
    pub fn from_bits(bits: u8) -> Bound {
        match bits & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
}
