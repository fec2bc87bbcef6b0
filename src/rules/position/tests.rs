//! Checks of the incremental statistics against recomputation, of wins, and of set-up.

use super::*;

fn tables(c: u32, r: u32, k: u32) -> Arc<Tables> {
    Tables::new(Geometry::new(c, r, k).unwrap())
}

/// Recomputes every statistic from scratch and compares.
fn check_consistent(p: &Position) {
    let t = p.tables();
    let k = t.geometry.k();
    let mut fresh = Position::new(Arc::clone(t));
    let mut hist = [[0u32; HISTOGRAM_LEN]; 2];
    let mut dead = 0;
    let mut threats = [Bits::EMPTY; 2];
    let exact = t.geometry.exact();
    for (m, f) in t.line_masks.iter().zip(&t.line_flanks) {
        let c = [
            m.and(p.stones[0]).count() as usize,
            m.and(p.stones[1]).count() as usize,
        ];
        let flanked = |pl: usize| exact && !f.and(p.stones[pl]).is_empty();
        let mut open_for_any = false;
        for pl in 0..2 {
            if c[1 - pl] == 0 && !flanked(pl) {
                open_for_any = true;
                hist[pl][c[pl]] += 1;
                if c[pl] + 1 == k {
                    threats[pl] = threats[pl].or(m.and(p.empty));
                }
            }
        }
        if !open_for_any {
            dead += 1;
        }
    }
    assert_eq!(p.hist, hist, "{p:?}");
    assert_eq!(p.dead, dead);
    assert_eq!(
        [p.threats(Player::X), p.threats(Player::O)],
        threats,
        "{p:?}"
    );
    for &m in p.moves() {
        fresh.place(m);
    }
    assert_eq!(fresh.key, p.key);
    assert_eq!(fresh.sym_keys, p.sym_keys);
    for (s, perm) in t.symmetries.iter().enumerate() {
        let mut image = Position::new(Arc::clone(t));
        let img: Vec<Square> = p.moves().iter().map(|&m| perm[m]).collect();
        for m in img {
            image.place(m);
        }
        assert_eq!(image.key, p.sym_keys[s]);
    }
    assert_eq!(p.empty, t.all.and_not(p.stones[0].or(p.stones[1])));
}

#[test]
fn incremental_statistics_match_recomputation() {
    let mut seed = 12345u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let geometries = [
        (3, 3, 3),
        (5, 5, 5),
        (4, 4, 3),
        (7, 5, 4),
        (1, 6, 2),
        (1, 9, 2),
        (3, 3, 1),
        (6, 6, 2),
        (9, 9, 3),
    ];
    // Every board under both rules: the exact rule changes which lines count.
    for ((c, r, k), exact) in geometries.into_iter().flat_map(|g| [(g, false), (g, true)]) {
        let t = Tables::new(Geometry::new(c, r, k).unwrap().with_exact(exact));
        for _ in 0..50 {
            let mut p = Position::new(Arc::clone(&t));
            let initial = p.clone();
            while p.outcome().is_none() {
                let empties: Vec<_> = p.empty().iter().collect();
                let m = empties[(next() % empties.len() as u64) as usize];
                p.make(m);
                check_consistent(&p);
            }
            while !p.moves().is_empty() {
                p.unmake();
                check_consistent(&p);
            }
            assert_eq!(p.hist, initial.hist);
            assert_eq!(p.threats(Player::X), initial.threats(Player::X));
            assert_eq!(p.threats(Player::O), initial.threats(Player::O));
        }
    }
}

#[test]
fn wins_in_every_direction() {
    let t = tables(3, 3, 3);
    // a1 b1 c1 row; a1 a2 a3 column; a1 b2 c3 and c1 b2 a3 diagonals (x moves, o elsewhere)
    for (xs, os) in [
        ([0, 1, 2], [3, 4]),
        ([0, 3, 6], [1, 2]),
        ([0, 4, 8], [1, 2]),
        ([2, 4, 6], [0, 1]),
    ] {
        let mut p = Position::new(Arc::clone(&t));
        p.play(xs[0]).unwrap();
        p.play(os[0]).unwrap();
        p.play(xs[1]).unwrap();
        p.play(os[1]).unwrap();
        assert_eq!(p.winner(), None);
        p.play(xs[2]).unwrap();
        assert_eq!(p.winner(), Some(Player::X));
        assert_eq!(p.play(5), Err(MoveError::GameOver(Outcome::Win(Player::X))));
    }
}

/// Plays `moves` (X first) on a 9x2 board with k=4: its only windows run along the ranks,
/// starting at files a to f (windows 0 to 5 on rank 1, 6 to 11 on rank 2).
fn two_ranks(exact: bool, moves: &[Square]) -> Position {
    let t = Tables::new(Geometry::new(9, 2, 4).unwrap().with_exact(exact));
    Position::from_moves(t, moves).unwrap()
}

#[test]
fn overlines_win_only_in_freestyle() {
    // x: a1 b1 c1 e1; o: a2 c2 e2 g2 (no threats). d1 makes five in a row.
    for exact in [false, true] {
        let mut p = two_ranks(exact, &[0, 9, 1, 11, 2, 13, 4, 15]);
        assert_eq!(p.threats(Player::X).contains(3), !exact);
        p.play(3).unwrap();
        assert_eq!(p.winner(), (!exact).then_some(Player::X), "exact {exact}");
        assert_eq!(p.outcome().is_some(), !exact);
    }
    // x a1 b1 c1 with o on e1: d1 makes exactly four, a win under both rules.
    for exact in [false, true] {
        let mut p = two_ranks(exact, &[0, 4, 1, 9, 2, 11]);
        assert!(p.threats(Player::X).contains(3));
        p.play(3).unwrap();
        assert_eq!(p.winner(), Some(Player::X));
    }
}

#[test]
fn own_stones_beyond_a_window_close_it_under_the_exact_rule() {
    // x a1 c1, o i1: window b1-e1 is flanked by x's a1.
    let p = two_ranks(true, &[0, 8, 2]);
    assert!(!p.line_open(1, Player::X));
    assert!(p.line_open(2, Player::X));
    assert!(!p.line_open(1, Player::O));
    assert!(p.line_open(3, Player::O) && !p.line_open(4, Player::O));
    let free = two_ranks(false, &[0, 8, 2]);
    assert!(free.line_open(1, Player::X));
}

#[test]
fn diagrams_with_overlines_under_the_exact_rule() {
    let t = Tables::new(Geometry::new(9, 2, 4).unwrap().with_exact(true));
    let row = |s: &str| -> Vec<Option<Player>> {
        s.chars()
            .map(|c| match c {
                'x' => Some(Player::X),
                'o' => Some(Player::O),
                _ => None,
            })
            .collect()
    };
    // Five x in a row is no win: o is to move and the game goes on.
    let p = Position::from_diagram(
        Arc::clone(&t),
        &[row("o.o.o.o.o"), row("xxxxx...x")],
        Player::O,
    )
    .unwrap();
    assert_eq!(p.winner(), None);
    assert_eq!(p.outcome(), None);
    check_consistent(&p);
    // Exactly four next to an o stone is a win.
    let p = Position::from_diagram(
        Arc::clone(&t),
        &[row("o.o.o...."), row("xxxxo..x.")],
        Player::O,
    );
    assert_eq!(p.map(|p| p.winner()), Ok(Some(Player::X)));
}

#[test]
fn diagram_validation() {
    let t = tables(3, 3, 3);
    let parse = |s: &str| -> Vec<Vec<Option<Player>>> {
        s.split('/')
            .map(|r| {
                r.chars()
                    .map(|c| match c {
                        'x' => Some(Player::X),
                        'o' => Some(Player::O),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    };
    let ok = |s: &str, side| Position::from_diagram(Arc::clone(&t), &parse(s), side);
    let p = ok("x.o/.x./o..", Player::X).unwrap();
    assert_eq!(p.diagram(), "x.o/.x./o..");
    assert_eq!(p.at(6), Some(Player::X));
    assert!(matches!(
        ok("xxx/.../...", Player::O),
        Err(SetupError::StoneCounts { .. })
    ));
    assert!(matches!(
        ok("xx./o../...", Player::X),
        Err(SetupError::Side { .. })
    ));
    // x wins with the last move
    let w = ok("xxx/oo./...", Player::O).unwrap();
    assert_eq!(w.winner(), Some(Player::X));
    assert!(matches!(
        ok("xxx/ooo/x..", Player::O),
        Err(SetupError::BothWon)
    ));
    assert!(matches!(
        ok("xxx/oo./o..", Player::X),
        Err(SetupError::PlayAfterWin { .. })
    ));
    // two disjoint x lines cannot come from one move
    let t5 = tables(3, 4, 3);
    let rows = parse("xxx/ooo/xxx/oo.");
    assert!(Position::from_diagram(Arc::clone(&t5), &rows, Player::O).is_err());
    // crossing lines sharing the last stone are fine
    let p = ok("xxx/oxo/oxo", Player::O).unwrap();
    assert_eq!(p.winner(), Some(Player::X));
    let p = ok("xxx/.xo/o.o", Player::O).unwrap();
    assert_eq!(p.winner(), Some(Player::X));
    assert!(matches!(
        ok("x../...", Player::O),
        Err(SetupError::RowCount { .. })
    ));
    assert!(matches!(
        ok("x../..../...", Player::O),
        Err(SetupError::RowLength { rank: 2, .. })
    ));
}

#[test]
fn dead_draws() {
    let t = tables(3, 3, 3);
    // x o x / x o o / o x .  : nobody can complete a line
    let p = Position::from_moves(Arc::clone(&t), &[6, 7, 8, 5, 3, 0, 1, 4]).unwrap();
    assert!(p.winner().is_none());
    assert!(p.is_dead_draw());
    assert!(Position::new(Arc::clone(&t)).stabilizer().len() == 8);
}
