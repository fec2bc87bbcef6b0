//! Line patterns: what one stone on an empty cell makes of the line through it, in one
//! direction, for one player.
//!
//! A cell's line is its ten neighbours, five each side, each empty, black, white or off the
//! board (2 bits each: a 20-bit key). Every key's pattern is computed once, at start-up, from
//! the definition below; the board then keeps each cell's keys up to date move by move and
//! reads the patterns from the table.
//!
//! The definition counts only fives through the cell itself, all of which lie within the ten
//! neighbours; the exact rule needs the fifth neighbour too, to see that a five is not part of
//! a six. A pattern's level is how near the stone brings a five:
//! - `Five`: a five;
//! - `OpenFour` (open four): two or more empty cells that each complete a five, `Four` (four): one;
//! - `OpenThree` (open three): some empty cell makes it an open four, `ClosedThree`: some cell makes a four;
//! - `OpenTwo`, `ClosedTwo`, `OpenOne`, `ClosedOne` likewise, one step further away; `Dead`: no five can come of it.
//!
//! The rule is per player ([`LineRule`]): renju gives black the exact rule while white keeps
//! freestyle (black's forbidden moves are the board's business, see [`super::board`]).

use std::sync::OnceLock;

/// Neighbours on each side of a cell that a key holds.
pub const HALF: usize = 5;
/// Bits of a line key.
pub const KEY_BITS: u32 = 4 * HALF as u32;

/// What a cell holds, as the 2-bit code of a line key.
pub const EMPTY: u32 = 0;
/// Off the board.
pub const WALL: u32 = 3;

/// The pattern one stone makes of a line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can come of this line through the cell.
    Dead = 0,
    /// One stone short of a closed two.
    ClosedOne,
    /// One stone short of an open two.
    OpenOne,
    /// One stone short of a closed three.
    ClosedTwo,
    /// One stone short of an open three.
    OpenTwo,
    /// One stone short of a four: some empty cell makes a four.
    ClosedThree,
    /// One stone short of an open four: some empty cell makes an open four.
    OpenThree,
    /// One empty cell completes a five.
    Four,
    /// Two or more empty cells complete a five.
    OpenFour,
    /// A five (exactly five under the exact rule).
    Five,
}

impl Pattern {
    /// The pattern numbered `bits` (its discriminant; anything above is a five).
    #[inline]
    fn from_bits(bits: u8) -> Pattern {
        const ALL: [Pattern; 10] = [
            Pattern::Dead,
            Pattern::ClosedOne,
            Pattern::OpenOne,
            Pattern::ClosedTwo,
            Pattern::OpenTwo,
            Pattern::ClosedThree,
            Pattern::OpenThree,
            Pattern::Four,
            Pattern::OpenFour,
            Pattern::Five,
        ];
        ALL[(bits as usize).min(9)]
    }

    /// `player`'s pattern (0 black, 1 white) in a packed pair (see [`PatternTable::packed`]).
    #[inline]
    pub fn unpack(pair: u8, player: usize) -> Pattern {
        Pattern::from_bits((pair >> (4 * player)) & 15)
    }

    /// The pattern of a line one move short of this one.
    fn demoted(self) -> Pattern {
        match self {
            Pattern::Five | Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four => Pattern::ClosedThree,
            Pattern::OpenThree => Pattern::OpenTwo,
            Pattern::ClosedThree => Pattern::ClosedTwo,
            Pattern::OpenTwo => Pattern::OpenOne,
            Pattern::ClosedTwo => Pattern::ClosedOne,
            _ => Pattern::Dead,
        }
    }
}

/// Which lines count as five for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// Five or more in a row.
    Freestyle,
    /// Exactly five; six or more is nothing.
    Exact,
}

/// The code of `slot` (0..10: offsets -5..-1, then +1..+5) in `key`.
#[inline]
fn cell(key: u32, slot: usize) -> u32 {
    (key >> (2 * slot)) & 3
}

/// The slot of the neighbour at `offset` (-5..=-1 or 1..=5) from the cell.
#[inline]
pub const fn slot(offset: isize) -> usize {
    if offset < 0 {
        (offset + HALF as isize) as usize
    } else {
        (offset + HALF as isize - 1) as usize
    }
}

/// Whether `key`, with a stone of `own` (1 or 2) on the cell, has a five through the cell.
fn five(key: u32, own: u32, rule: LineRule) -> bool {
    let left = (1..=HALF)
        .take_while(|&i| cell(key, slot(-(i as isize))) == own)
        .count();
    let right = (1..=HALF)
        .take_while(|&i| cell(key, slot(i as isize)) == own)
        .count();
    let run = 1 + left + right;
    match rule {
        LineRule::Freestyle => run >= 5,
        LineRule::Exact => run == 5,
    }
}

/// The pattern of `key` with a stone of `own` on the cell; `memo` holds the known ones.
fn level(key: u32, own: u32, rule: LineRule, memo: &mut [Option<Pattern>]) -> Pattern {
    if let Some(p) = memo[key as usize] {
        return p;
    }
    let p = if five(key, own, rule) {
        Pattern::Five
    } else {
        // Under freestyle no five through the cell reaches its fifth neighbours: leaving
        // them alone keeps the table's construction to the keys it stores.
        let reach = match rule {
            LineRule::Freestyle => 1..2 * HALF - 1,
            LineRule::Exact => 0..2 * HALF,
        };
        let empties = reach.filter(|&s| cell(key, s) == EMPTY);
        let fives = empties
            .clone()
            .filter(|&s| five(key | own << (2 * s), own, rule))
            .count();
        match fives {
            0 => empties
                .map(|s| level(key | own << (2 * s), own, rule, memo))
                .max()
                .map_or(Pattern::Dead, Pattern::demoted),
            1 => Pattern::Four,
            _ => Pattern::OpenFour,
        }
    };
    memo[key as usize] = Some(p);
    p
}

/// Whether either player's pattern in a packed pair ([`PatternTable::packed`]) counts in a
/// threat class ([`Threat::of`]): an open three or stronger.
pub static CLASSED: [bool; 256] = {
    let mut out = [false; 256];
    let mut pair = 0;
    while pair < 256 {
        out[pair] =
            pair & 15 >= Pattern::OpenThree as usize || pair >> 4 >= Pattern::OpenThree as usize;
        pair += 1;
    }
    out
};

/// The patterns of every key for both players under one rule each.
///
/// Under freestyle no five through a cell reaches its fifth neighbours, so an all-freestyle
/// table is indexed by the middle eight neighbours only: 64K one-byte entries, which stay in
/// the cache, where the exact rule needs all ten (1M entries).
pub struct PatternTable {
    /// Black's pattern in the low four bits, white's in the high four.
    entries: Vec<u8>,
    /// A bit for each entry: whether it is [`CLASSED`].
    classed: Vec<u64>,
    /// Index = (key >> shift) & mask.
    shift: u32,
    mask: u32,
}

impl PatternTable {
    /// The table for black playing by `rules[0]` and white by `rules[1]`.
    pub fn new(rules: [LineRule; 2]) -> PatternTable {
        let (shift, bits) = if rules == [LineRule::Freestyle; 2] {
            (2, KEY_BITS - 4)
        } else {
            (0, KEY_BITS)
        };
        let mut entries = vec![0u8; 1 << bits];
        for (player, rule) in rules.into_iter().enumerate() {
            let own = player as u32 + 1;
            let mut memo = vec![None; 1 << KEY_BITS];
            for (index, entry) in entries.iter_mut().enumerate() {
                let p = level((index as u32) << shift, own, rule, &mut memo);
                *entry |= (p as u8) << (4 * player);
            }
        }
        let word = u64::BITS as usize;
        let mut classed = vec![0u64; entries.len().div_ceil(word)];
        for (index, &pair) in entries.iter().enumerate() {
            classed[index / word] |= u64::from(CLASSED[usize::from(pair)]) << (index % word);
        }
        PatternTable {
            entries,
            classed,
            shift,
            mask: (1 << bits) - 1,
        }
    }

    /// The shared table for both players under `rule`, built on first use.
    pub fn shared(rule: LineRule) -> &'static PatternTable {
        PatternTable::shared_by_player([rule; 2])
    }

    /// The shared table for black playing by `rules[0]` and white by `rules[1]`, built on
    /// first use.
    pub fn shared_by_player(rules: [LineRule; 2]) -> &'static PatternTable {
        static FREESTYLE: OnceLock<PatternTable> = OnceLock::new();
        static EXACT: OnceLock<PatternTable> = OnceLock::new();
        static EXACT_FREESTYLE: OnceLock<PatternTable> = OnceLock::new();
        static FREESTYLE_EXACT: OnceLock<PatternTable> = OnceLock::new();
        let cell = match rules {
            [LineRule::Freestyle, LineRule::Freestyle] => &FREESTYLE,
            [LineRule::Exact, LineRule::Exact] => &EXACT,
            [LineRule::Exact, LineRule::Freestyle] => &EXACT_FREESTYLE,
            [LineRule::Freestyle, LineRule::Exact] => &FREESTYLE_EXACT,
        };
        cell.get_or_init(|| PatternTable::new(rules))
    }

    /// The patterns of `key` for black and white, packed: black's in the low four bits,
    /// white's in the high four (see [`Pattern::unpack`]).
    #[inline]
    pub fn packed(&self, key: u32) -> u8 {
        self.entries[((key >> self.shift) & self.mask) as usize]
    }

    /// Whether either player's pattern of `key` is [`CLASSED`].
    #[inline]
    pub fn classed(&self, key: u32) -> bool {
        let index = ((key >> self.shift) & self.mask) as usize;
        let word = u64::BITS as usize;
        self.classed[index / word] >> (index % word) & 1 != 0
    }

    /// The farthest neighbour (in steps, each side) whose content the table reads: a stone
    /// beyond it changes no pattern of the cell.
    #[inline]
    pub fn reach(&self) -> usize {
        HALF - self.shift as usize / 2
    }

    /// The patterns of `key` for black and white.
    #[cfg(test)]
    pub fn both(&self, key: u32) -> [Pattern; 2] {
        let e = self.packed(key);
        [Pattern::unpack(e, 0), Pattern::unpack(e, 1)]
    }

    /// The pattern of `key` for `player` (0 black, 1 white).
    #[cfg(test)]
    pub fn get(&self, key: u32, player: usize) -> Pattern {
        self.both(key)[player]
    }
}

/// What a stone on a cell makes of its four lines together, by what it forces: the threat
/// classes of threat-space search (Allis, *Searching for Solutions in Games and Artificial
/// Intelligence*, 1994), by which moves are ordered and forced replies found. Weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Nothing the opponent must answer.
    None = 0,
    /// An open three: an open four next, unless the opponent answers.
    Three,
    /// Open threes on two lines: one of them becomes an open four.
    DoubleThree,
    /// A four: the opponent must block its one completing cell.
    Four,
    /// A four and an open three on another line: after the forced block the three becomes
    /// an open four, so it wins unless the opponent can answer with fours of its own.
    FourThree,
    /// An open four, or fours on two lines: two cells complete a five and one block cannot
    /// cover both, so it wins next move unless the opponent makes five first.
    OpenFour,
    /// A five.
    Five,
}

impl Threat {
    /// Number of classes.
    pub const COUNT: usize = 7;

    /// Every class, in the order of their numbers: weakest first.
    pub const ALL: [Threat; Threat::COUNT] = [
        Threat::None,
        Threat::Three,
        Threat::DoubleThree,
        Threat::Four,
        Threat::FourThree,
        Threat::OpenFour,
        Threat::Five,
    ];

    /// The class of each combination of four patterns, by `pats[0] * 1000 + ... + pats[3]`.
    pub fn table() -> &'static [Threat] {
        static TABLE: OnceLock<Vec<Threat>> = OnceLock::new();
        TABLE.get_or_init(|| {
            (0..10_000)
                .map(|i| {
                    let p = |d: u32| Pattern::from_bits((i / 10u32.pow(3 - d) % 10) as u8);
                    Threat::of([p(0), p(1), p(2), p(3)])
                })
                .collect()
        })
    }

    /// The index of a combination in [`Threat::table`].
    #[inline]
    pub fn index(pats: [Pattern; 4]) -> usize {
        pats[0] as usize * 1000 + pats[1] as usize * 100 + pats[2] as usize * 10 + pats[3] as usize
    }

    /// The four patterns of the combination numbered `index` by [`Threat::index`].
    pub fn patterns(index: usize) -> [Pattern; 4] {
        [index / 1000, index / 100 % 10, index / 10 % 10, index % 10]
            .map(|digit| Pattern::from_bits(digit as u8))
    }

    /// The class of a cell whose four lines have these patterns: how many fives it makes,
    /// how many cells would then complete a five (an open four counts as two), and how many
    /// open threes it makes, as the rules of the game give them.
    pub fn of(pats: [Pattern; 4]) -> Threat {
        let on = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
        let fives = on(Pattern::Five);
        let five_points = 2 * on(Pattern::OpenFour) + on(Pattern::Four);
        let open_threes = on(Pattern::OpenThree);
        match (fives, five_points, open_threes) {
            (1.., _, _) => Threat::Five,
            (0, 2.., _) => Threat::OpenFour,
            (0, 1, 1..) => Threat::FourThree,
            (0, 1, 0) => Threat::Four,
            (0, 0, 2..) => Threat::DoubleThree,
            (0, 0, 1) => Threat::Three,
            (0, 0, 0) => Threat::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A line of eleven cells, the cell itself in the middle, by the direct definition: a
    /// five is five (or, exactly, not six) consecutive own stones among the windows of five
    /// that contain the middle cell.
    fn oracle_five(line: &[u32; 11], own: u32, rule: LineRule) -> bool {
        // Windows of five through the middle start at 1..=5; their flanks are in the line.
        (1..=5).any(|start| {
            let window = &line[start..start + 5];
            let flanked = line[start - 1] == own || line[start + 5] == own;
            window.iter().all(|&c| c == own) && (rule == LineRule::Freestyle || !flanked)
        })
    }

    /// The level of a line by the textbook definition, searched without memory.
    fn oracle_level(line: &mut [u32; 11], own: u32, rule: LineRule) -> Pattern {
        if oracle_five(line, own, rule) {
            return Pattern::Five;
        }
        let mut fives = 0;
        let mut best = None;
        for i in (0..11).filter(|&i| i != 5) {
            if line[i] == EMPTY {
                line[i] = own;
                if oracle_five(line, own, rule) {
                    fives += 1;
                }
                line[i] = EMPTY;
            }
        }
        if fives >= 2 {
            return Pattern::OpenFour;
        }
        if fives == 1 {
            return Pattern::Four;
        }
        for i in (0..11).filter(|&i| i != 5) {
            if line[i] == EMPTY {
                line[i] = own;
                let l = oracle_level(line, own, rule);
                line[i] = EMPTY;
                best = best.max(Some(l));
            }
        }
        match best {
            Some(Pattern::OpenFour) => Pattern::OpenThree,
            Some(Pattern::Four) => Pattern::ClosedThree,
            Some(Pattern::OpenThree) => Pattern::OpenTwo,
            Some(Pattern::ClosedThree) => Pattern::ClosedTwo,
            Some(Pattern::OpenTwo) => Pattern::OpenOne,
            Some(Pattern::ClosedTwo) => Pattern::ClosedOne,
            _ => Pattern::Dead,
        }
    }

    fn key_of(line: &[u32; 11]) -> u32 {
        let mut key = 0;
        for (i, &c) in line.iter().enumerate() {
            if i != 5 {
                key |= c << (2 * slot(i as isize - 5));
            }
        }
        key
    }

    /// A random line as a board would show it: walls only at the ends, some cells full.
    fn random_line(rng: &mut StdRng) -> [u32; 11] {
        let mut line = [EMPTY; 11];
        for (i, c) in line.iter_mut().enumerate() {
            if i != 5 {
                *c = match rng.random_range(0..10) {
                    0..=3 => EMPTY,
                    4..=6 => 1,
                    _ => 2,
                };
            }
        }
        let left_wall = rng.random_range(0..12usize);
        let right_wall = rng.random_range(0..12usize);
        for c in line.iter_mut().take(left_wall.min(5)) {
            *c = WALL;
        }
        for i in 0..right_wall.min(5) {
            line[10 - i] = WALL;
        }
        line
    }

    #[test]
    fn the_table_agrees_with_the_definition_on_random_lines() {
        let mut rng = StdRng::seed_from_u64(13);
        for rule in [LineRule::Freestyle, LineRule::Exact] {
            let table = PatternTable::shared(rule);
            for _ in 0..4_000 {
                let line = random_line(&mut rng);
                for player in 0..2 {
                    let own = player as u32 + 1;
                    let mut l = line;
                    l[5] = own;
                    let want = oracle_level(&mut l, own, rule);
                    let got = table.get(key_of(&line), player);
                    assert_eq!(got, want, "{rule:?} player {player} line {line:?}");
                }
            }
        }
    }

    /// The bits of classed keys say of every key what its entry says.
    #[test]
    fn the_classed_bits_match_the_entries() {
        let rules = [LineRule::Freestyle, LineRule::Exact];
        for by_player in rules.into_iter().flat_map(|a| rules.map(|b| [a, b])) {
            let table = PatternTable::shared_by_player(by_player);
            for key in 0..1u32 << KEY_BITS {
                let want = CLASSED[usize::from(table.packed(key))];
                assert_eq!(table.classed(key), want, "{by_player:?} {key:#x}");
            }
        }
    }

    #[test]
    fn the_table_agrees_with_the_definition_on_every_short_line() {
        // Every line of three cells each side (3^6 of them), walled beyond: all the shapes
        // near an edge.
        for rule in [LineRule::Freestyle, LineRule::Exact] {
            let table = PatternTable::shared(rule);
            for code in 0..729u32 {
                let mut line = [WALL; 11];
                let mut c = code;
                for i in [2, 3, 4, 6, 7, 8] {
                    line[i] = c % 3;
                    c /= 3;
                }
                for player in 0..2 {
                    let own = player as u32 + 1;
                    let mut l = line;
                    l[5] = own;
                    let want = oracle_level(&mut l, own, rule);
                    assert_eq!(table.get(key_of(&line), player), want, "{line:?}");
                }
            }
        }
    }

    /// Lines written as text, the cell itself as `*`: `x` black, `o` white, `.` empty, `|`
    /// off the board; five cells each side.
    fn parse(text: &str) -> u32 {
        let codes: Vec<u32> = text
            .chars()
            .map(|c| match c {
                'x' => 1,
                'o' => 2,
                '|' => WALL,
                _ => EMPTY,
            })
            .collect();
        let mut line = [EMPTY; 11];
        line.copy_from_slice(&codes);
        key_of(&line)
    }

    #[test]
    fn textbook_shapes_for_black() {
        let free = PatternTable::shared(LineRule::Freestyle);
        let exact = PatternTable::shared(LineRule::Exact);
        let cases = [
            ("...xx*xx...", Pattern::Five, Pattern::Five),
            ("...xx*xxx..", Pattern::Five, Pattern::Dead),
            ("....x*xx...", Pattern::OpenFour, Pattern::OpenFour),
            ("...ox*xx...", Pattern::Four, Pattern::Four),
            ("....x*.xx..", Pattern::Four, Pattern::Four),
            ("....x*x....", Pattern::OpenThree, Pattern::OpenThree),
            ("...ox*x....", Pattern::ClosedThree, Pattern::ClosedThree),
            (".....*x....", Pattern::OpenTwo, Pattern::OpenTwo),
            ("|...x*xx...", Pattern::OpenFour, Pattern::OpenFour),
            ("..x.x*x....", Pattern::Four, Pattern::Four),
            ("x..ox*x.o..", Pattern::Dead, Pattern::Dead),
            (".x.xx*.....", Pattern::Four, Pattern::Four),
            ("xx.xx*.....", Pattern::Four, Pattern::ClosedThree),
        ];
        for (line, want_free, want_exact) in cases {
            assert_eq!(free.get(parse(line), 0), want_free, "freestyle {line}");
            assert_eq!(exact.get(parse(line), 0), want_exact, "exact {line}");
        }
    }

    /// `Threat::ALL` lists the classes in the order of their numbers, which the arrays
    /// indexed by class and the search for the strongest class rely on.
    #[test]
    fn classes_are_numbered_in_order() {
        for (i, t) in Threat::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i);
        }
    }

    #[test]
    fn threat_classes() {
        use Pattern::*;
        assert_eq!(Threat::of([Four, OpenThree, Dead, Dead]), Threat::FourThree);
        assert_eq!(Threat::of([Four, Four, Dead, Dead]), Threat::OpenFour);
        assert_eq!(
            Threat::of([OpenFour, ClosedOne, Dead, Dead]),
            Threat::OpenFour
        );
        assert_eq!(Threat::of([Four, ClosedThree, OpenTwo, Dead]), Threat::Four);
        assert_eq!(
            Threat::of([OpenThree, OpenThree, ClosedOne, Dead]),
            Threat::DoubleThree
        );
        assert_eq!(
            Threat::of([OpenThree, OpenTwo, ClosedOne, Dead]),
            Threat::Three
        );
        assert_eq!(
            Threat::of([OpenTwo, OpenTwo, ClosedThree, ClosedOne]),
            Threat::None
        );
        assert_eq!(Threat::of([Five, Four, OpenThree, Dead]), Threat::Five);
    }
}
