//! Strength levels through the engine: a level at a seed plays a given
//! move, its search stops at its table's node budget, and level 20 is the
//! full-strength search itself.

use calvin::engine::Engine;
use calvin::search::Event;
use calvin::timeman::Limits;

/// A middlegame where the moves differ: White can take on e5 or develop.
const FEN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
/// The scholar's mate: White mates in one with Qxf7.
const MATE_IN_ONE: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

/// Runs one search to its end: (best move, nodes searched, the info lines).
fn search(engine: &mut Engine, fen: &str, limits: Limits) -> (String, u64, Vec<calvin::search::Info>) {
    engine.set_position(Some(fen), &[]).expect("position");
    engine.go(limits);
    let mut infos = Vec::new();
    loop {
        match engine.events().recv().expect("a search event") {
            Event::Info(i) => infos.push(i),
            Event::BestMove { best, .. } => {
                let nodes = engine.join();
                return (best.expect("a move"), nodes, infos);
            }
        }
    }
}

fn at_level(level: i64, seed: u64) -> Engine {
    let mut e = Engine::new();
    e.set_skill_level(level).expect("a level");
    e.set_skill_seed(seed);
    e
}

/// A level at a seed plays the same move every time, from a fresh engine:
/// these are the moves the table and the pick make today.
#[test]
fn a_level_at_a_seed_plays_a_given_move() {
    let cases: [(i64, u64, &str); 6] =
        [(-10, 1, "c2c4"), (-10, 2, "c2c3"), (-10, 3, "d1e2"), (0, 1, "a2a3"), (5, 1, "f1c4"), (10, 1, "f1c4")];
    let mut got = Vec::new();
    for (level, seed, _) in cases {
        let (mv, _, _) = search(&mut at_level(level, seed), FEN, Limits::default());
        let (again, _, _) = search(&mut at_level(level, seed), FEN, Limits::default());
        assert_eq!(mv, again, "level {level} seed {seed}");
        got.push((level, seed, mv));
    }
    let want: Vec<_> = cases.iter().map(|&(l, s, m)| (l, s, m.to_string())).collect();
    assert_eq!(got, want);
}

/// Each level's search stops at its budget (to within the nodes entered as
/// it unwinds), the budget its table row gives.
#[test]
fn a_level_searches_its_table_budget() {
    for level in [-10, -1, 0, 3, 8] {
        let budget = calvin::search::skill::Skill::level(level as i32).expect("a level").nodes;
        let (_, nodes, infos) = search(&mut at_level(level, 9), FEN, Limits::default());
        assert!((budget..budget + 64).contains(&nodes), "level {level}: {nodes} nodes, budget {budget}");
        let lines = calvin::search::skill::Skill::level(level as i32).expect("a level").lines;
        assert_eq!(infos.iter().map(|i| i.multipv).max(), Some(lines), "level {level}");
    }
}

/// The lowest level sees a mate as no more than its cap: at seven seeds
/// of eight it plays another move though the mate is on the board, while
/// level 0 (no cap) always mates.
#[test]
fn the_lowest_level_does_not_always_mate() {
    let mut mates = [0; 2];
    for seed in 0..8 {
        for (k, level) in [-10, 0].into_iter().enumerate() {
            let (mv, _, _) = search(&mut at_level(level, seed), MATE_IN_ONE, Limits::default());
            mates[k] += (mv == "h5f7") as usize;
        }
    }
    assert_eq!(mates, [1, 8]);
}

/// Level 20 is full strength: after playing at a level and coming back to
/// 20, the search is the same one, line for line, as a fresh engine's.
#[test]
fn level_20_is_the_full_strength_search() {
    let mut full = Engine::new();
    let mut back = at_level(3, 5);
    let _ = search(&mut back, FEN, Limits::default());
    back.set_skill_level(20).expect("level 20");
    back.new_game();
    back.clear_hash();
    assert_eq!(back.skill(), None);
    let strip = |v: Vec<calvin::search::Info>| -> Vec<_> {
        v.into_iter().map(|i| (i.depth, i.multipv, i.score, i.nodes, i.pv)).collect()
    };
    let (a, an, ai) = search(&mut full, FEN, Limits::depth(7));
    let (b, bn, bi) = search(&mut back, FEN, Limits::depth(7));
    assert_eq!((a, an), (b, bn));
    assert!(ai.iter().all(|i| i.multipv == 1));
    assert_eq!(strip(ai), strip(bi));
    // UCI_LimitStrength at the top of UCI_Elo's range is full strength too.
    back.set_limit_strength(true);
    back.set_elo(calvin::search::skill::FULL_ELO as i64).expect("UCI_Elo");
    assert_eq!(back.skill(), None);
}

/// A middlegame of Ita (the second bench position).
const ITA_FEN: &str =
    "b3ff1s1b/c1l6l/2r4c2/1prs6/1Lpp2pp1p/6P3/P2P3P1P/2CPS1RC2/3RSF1L2/B3F4B w e1ac,f2ac,e10ac,f10ac - 20 11";

/// Ita's levels below 0 choose among a quarter more lines than the table
/// (level -10: 20, level -1: 8) within the same budget, from level 0 up the
/// table's; a level at a seed plays a given move.
#[test]
fn ita_levels_below_0_choose_among_more_lines() {
    let cases: [(i64, u64, usize, &str); 5] =
        [(-10, 1, 20, "g3f3"), (-10, 2, 20, "d2d1"), (-10, 3, 20, "b6b3"), (-1, 1, 8, "e2g4"), (0, 1, 6, "d2b2")];
    let mut got = Vec::new();
    for (level, seed, _, _) in cases {
        let mut e = at_level(level, seed);
        e.set_variant("ita").expect("ita");
        let (mv, nodes, infos) = search(&mut e, ITA_FEN, Limits::default());
        let budget = calvin::search::skill::Skill::level(level as i32).expect("a level").nodes;
        assert!((budget..budget + 1024).contains(&nodes), "level {level}: {nodes} nodes, budget {budget}");
        got.push((level, seed, infos.iter().map(|i| i.multipv).max().unwrap_or(0), mv));
    }
    let want: Vec<_> = cases.iter().map(|&(l, s, n, m)| (l, s, n, m.to_string())).collect();
    assert_eq!(got, want);
}

/// The level table has two copies outside the engine: docs/levels.md's
/// table and the board's level picker (board/static/board.js, which talks
/// to engines over UCI and cannot read `LEVELS`). Both must say what
/// `src/search/skill.rs` says.
#[test]
fn the_docs_and_the_board_copy_the_level_table() {
    use calvin::search::skill::{FULL_ELO, LEVELS, NO_CAP};
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |path: &str| std::fs::read_to_string(format!("{root}/{path}")).expect(path);

    // docs/levels.md: one row per level (-9..-4 share a row), then level 20.
    let docs = read("docs/levels.md");
    let cap = |c: i32| if c == NO_CAP { "none".to_string() } else { c.to_string() };
    for r in LEVELS.iter().filter(|r| !(-9..=-4).contains(&r.level)) {
        let row = format!("| {} | {} | {} | {} | {} | {} |", r.level, r.nodes, r.lines, r.margin, cap(r.cap), r.elo);
        assert!(docs.contains(&row), "docs/levels.md lacks the row {row}");
    }
    let (lo, hi) = (LEVELS[1], LEVELS[6]);
    assert_eq!((lo.level, hi.level), (-9, -4));
    let shared = format!(
        "| -9..-4 | {} | {}..{} | {}..{} | {}..{} | {}..{} (+20 a level) |",
        lo.nodes, lo.lines, hi.lines, lo.margin, hi.margin, lo.cap, hi.cap, lo.elo, hi.elo
    );
    assert!(docs.contains(&shared), "docs/levels.md lacks the row {shared}");
    assert!(LEVELS[1..=6].windows(2).all(|w| w[1].elo - w[0].elo == 20 && w[0].nodes == w[1].nodes));
    assert!(docs.contains(&format!("| 20 | no limit | 1 | none | none | {FULL_ELO} |")));

    // The board: full strength first, then level 19 down to -10.
    let js = read("board/static/board.js");
    let start = js.find("const LEVEL_ELO = [").expect("board.js's LEVEL_ELO") + "const LEVEL_ELO = [".len();
    let end = start + js[start..].find(']').expect("the list's end");
    let board: Vec<i32> = js[start..end].split(',').map(|e| e.trim().parse().expect("a rating")).collect();
    let engine: Vec<i32> = std::iter::once(FULL_ELO).chain(LEVELS.iter().rev().map(|r| r.elo)).collect();
    assert_eq!(board, engine);
}
