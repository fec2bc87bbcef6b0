//! A plain depth-first AND/OR search of "can the attacker force a win?" for small boards,
//! where df-pn's bookkeeping (numbers, zones, a pass searched at attacker nodes, every
//! defender reply settled as it is generated) costs more than the nodes it saves: each node
//! here is a handful of bit operations, a pairing test and a table probe. Its leaves are the
//! rules' (a completed window, two threats at once, a forced block), a win by continuous
//! fours for the attacker, and pairings on the windows the attacker can still fill with the
//! stones it has left; at a defender node, a reply that the table or such a pairing settles
//! is looked for among all replies before any is searched in depth. A win's distance is
//! the strategy found's, not the fastest.

use super::board::{Board, Order, cells_of};
use super::pairs::Pairer;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The outcome of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The attacker wins, with its Nth move at the latest (an upper bound, not the
    /// fastest win), starting with the move given (`None` if the defender is to move).
    Win(u32, Option<usize>),
    /// The attacker cannot win.
    NoWin,
    /// Stopped before either.
    Unknown,
}

/// Attacking moves and tried moves of the fours search at each attacker node: it finds the
/// wins that df-pn finds by its fours search (measured at 3197781: (6,6,4) proven in 2,067
/// nodes, 80,245 without it; (7,5,4) in 118,777, 381,453 without), and costs the draws
/// little.
const VCF_DEPTH: u32 = 8;
const VCF_BUDGET: u32 = 20;

/// The move ordering for windows of `k`. The search settles a draw by finding, at every
/// defender node, one reply that holds: the order of the defender's replies is most of its
/// cost, and it is sensitive to the weights (measured at 3197781 from the empty board,
/// nodes: (5,5,4) 33,142 with shift 2 and block 1, 127,106 with 2 and 2, 458,285 with 3
/// and 2; (6,6,5) 28,001 with shift 1 and block 4, 56,728 with 1 and 2, 137,095 with 2
/// and 1).
pub fn order_for(k: usize) -> Order {
    if k <= 4 {
        Order { shift: 2, block: 1 }
    } else {
        Order { shift: 1, block: 4 }
    }
}

/// Settled positions, one word each: the top 48 bits of the canonical key, and below them
/// the attacker's moves to the win (0: no win). Small words keep many positions in the
/// cache, which on these boards matters more than keeping every position (measured at 3197781:
/// (5,5,4) in 1 MB of table two thirds faster than in 16 MB, with 2% more nodes). Buckets
/// of four, the newest first, the oldest dropped.
struct Settled {
    words: Vec<u64>,
    mask: usize,
}

const BUCKET: usize = 4;
const TAG: u64 = !0xffff;

impl Settled {
    fn new(mb: usize) -> Settled {
        let want = (mb.max(1) * 1024 * 1024 / 8).max(BUCKET);
        let n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Settled {
            words: vec![0; n],
            mask: (n - 1) & !(BUCKET - 1),
        }
    }

    /// The attacker's moves to the win at `key` (0: no win), if stored.
    #[inline]
    fn probe(&self, key: u64) -> Option<u16> {
        let i = (key >> 16) as usize & self.mask;
        let tag = key & TAG;
        self.words[i..i + BUCKET]
            .iter()
            .find(|&&w| w & TAG == tag && w != 0)
            .map(|&w| w as u16)
    }

    fn store(&mut self, key: u64, dist: u16) {
        let i = (key >> 16) as usize & self.mask;
        let bucket = &mut self.words[i..i + BUCKET];
        bucket.copy_within(0..BUCKET - 1, 1);
        // A key whose top bits are all 0 and no win would read as an empty slot: it is
        // simply searched again when met.
        bucket[0] = key & TAG | dist as u64;
    }
}

/// The searcher: the board, the table and the scratch space.
pub struct Exhaustive {
    /// The position searched.
    pub board: Board,
    table: Settled,
    pairer: Pairer,
    attacker: usize,
    /// Nodes searched.
    pub nodes: u64,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    aborted: bool,
    moves: Vec<Vec<(u32, u8)>>,
    order: Order,
    /// The root's winning move, when the attacker is to move there and wins.
    root_move: Option<usize>,
}

impl Exhaustive {
    /// A search of `board` for `attacker` with a table of `hash_mb` MB.
    pub fn new(board: Board, attacker: usize, hash_mb: usize) -> Exhaustive {
        let order = order_for(board.k);
        let depth = board.cells + 2;
        Exhaustive {
            board,
            table: Settled::new(hash_mb),
            // Lines of its boards hold too few windows for regrouping to pay.
            pairer: Pairer::greedy(),
            attacker,
            nodes: 0,
            stop: Arc::new(AtomicBool::new(false)),
            deadline: None,
            aborted: false,
            moves: (0..depth).map(|_| Vec::with_capacity(64)).collect(),
            order,
            root_move: None,
        }
    }

    /// Searches the board until it is settled, `stop` is raised or `deadline` passes.
    pub fn run(&mut self, stop: &Arc<AtomicBool>, deadline: Option<Instant>) -> Found {
        self.stop = Arc::clone(stop);
        self.deadline = deadline;
        self.aborted = false;
        self.root_move = None;
        let won = self.wins(0);
        if self.aborted {
            Found::Unknown
        } else if won > 0 {
            Found::Win(won as u32, self.root_move)
        } else {
            Found::NoWin
        }
    }

    fn tick(&mut self) -> bool {
        if self.nodes & 4095 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The attacker's moves to a win from the board as it stands (`ply` moves below the
    /// root), 0 if it cannot win.
    fn wins(&mut self, ply: usize) -> u16 {
        self.nodes += 1;
        if self.tick() {
            return 0;
        }
        let a = self.attacker;
        let d = 1 - a;
        let side = self.board.side;
        let empty = self.board.empty();
        let ta = self.board.threats(a);
        let td = self.board.threats(d);
        // The moves the rules leave: a win on the move ends the game, a threat of the
        // opponent must be blocked, and two of them cannot be.
        let forced = if side == a {
            if ta != 0 {
                if ply == 0 {
                    self.root_move = Some(ta.trailing_zeros() as usize);
                }
                return 1;
            }
            if td.count_ones() >= 2 {
                return 0;
            }
            td
        } else {
            if td != 0 {
                return 0;
            }
            if ta.count_ones() >= 2 {
                return 1;
            }
            ta
        };
        if empty == 0 {
            return 0;
        }
        // A pairing of the windows the attacker can still fill with the stones it has left.
        let empties = empty.count_ones() as usize;
        let left = if side == a {
            empties.div_ceil(2)
        } else {
            empties / 2
        };
        if self.pairer.zone_in_time(&self.board, a, left).is_some() {
            return 0;
        }
        if side == a {
            let mut budget = VCF_BUDGET;
            if let Some((n, sq)) = self.board.vcf(a, VCF_DEPTH, &mut budget) {
                if ply == 0 {
                    self.root_move = Some(sq);
                }
                return n;
            }
        }
        let (key, _) = self.board.canonical();
        // The root is searched for its move even when stored.
        if ply > 0
            && let Some(dist) = self.table.probe(key)
        {
            return dist;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        let candidates = if forced != 0 { forced } else { empty };
        for sq in cells_of(candidates) {
            moves.push((self.board.move_score(sq, side, a, self.order), sq as u8));
        }
        moves.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        if side != a {
            // A reply that the table or a pairing settles as holding ends the search here,
            // before the others are searched in depth. A pairing needs two empty cells for
            // each window the attacker can still fill: counted first, it rules most out.
            let left = (empties - 1).div_ceil(2);
            let k = self.board.k;
            let live = |c: &[u8; 2]| c[d] == 0 && k - c[a] as usize <= left;
            let open = self.board.counts.iter().filter(|c| live(c)).count();
            for &(_, sq) in &moves {
                let (child, _) = self.board.child_canonical(sq as usize);
                let holds = match self.table.probe(child) {
                    Some(dist) => dist == 0,
                    None => {
                        let closed = self.board.cell_lines[sq as usize]
                            .iter()
                            .filter(|&&l| live(&self.board.counts[l as usize]))
                            .count();
                        if 2 * (open - closed) > empties - 1 {
                            false
                        } else {
                            self.board.make(sq as usize);
                            let p = self.pairer.zone_in_time(&self.board, a, left).is_some();
                            self.board.unmake();
                            p
                        }
                    }
                };
                if holds {
                    self.moves[ply] = moves;
                    return 0;
                }
            }
        }
        let symmetric = self.board.symmetric();
        let mut seen: [u64; 64] = [0; 64];
        let mut n_seen = 0;
        // The attacker looks for one winning move; the defender for one that holds (and if
        // none does, the win is as far as its longest-resisting reply).
        let mut dist: u16 = 0;
        for &(_, sq) in &moves {
            if symmetric {
                let (child, _) = self.board.child_canonical(sq as usize);
                if seen[..n_seen].contains(&child) {
                    continue;
                }
                seen[n_seen] = child;
                n_seen += 1;
            }
            self.board.make(sq as usize);
            let w = self.wins(ply + 1);
            self.board.unmake();
            if self.aborted {
                self.moves[ply] = moves;
                return 0;
            }
            if side == a {
                if w > 0 {
                    dist = w + 1;
                    if ply == 0 {
                        self.root_move = Some(sq as usize);
                    }
                    break;
                }
            } else if w == 0 {
                dist = 0;
                break;
            } else {
                dist = dist.max(w);
            }
        }
        self.moves[ply] = moves;
        self.table.store(key, dist);
        dist
    }
}
