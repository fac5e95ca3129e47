//! Search results with exact values: mates, each variant's special results,
//! and a deterministic bench signature.

use calvin::eval::{Evaluation, Evaluator};
use calvin::position::Position;
use calvin::search::{MATE, Score, outcome_value, search_fixed};
use calvin::tt::TranspositionTable;
use calvin::variant::Outcome;
use calvin::variants::{chess::Chess, historia::HistoriaSako, ita::Ita};

mod common;

fn best<V: Evaluator>(fen: &str, depth: i32) -> (String, i32) {
    let pos = Position::<V>::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(4);
    let (m, v, _) = search_fixed(&pos, depth, &tt, &Evaluation::builtin::<V>());
    (pos.move_to_uci(m), v)
}

#[test]
fn chess_mate_in_one_and_two() {
    let (m, v) = best::<Chess>("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4);
    assert_eq!((m.as_str(), Score::from_value(v)), ("a1a8", Score::Mate(1)));
    // Mate in 2: 1. Qh6+? No: the classic two-rook ladder from a clear board.
    let (_, v) = best::<Chess>("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 6);
    assert_eq!(Score::from_value(v), Score::Mate(2));
}

#[test]
fn historia_stalemate_wins() {
    // Nc6 leaves the bare Black King on a8 without a move: a win for White.
    let (m, v) = best::<HistoriaSako>("k7/2K5/8/8/1N6/8/8/8[] w - - 0 40", 3);
    assert_eq!((m.as_str(), v), ("b4c6", MATE - 1));
}

#[test]
fn ita_prefers_the_best_score_pair() {
    // A Flag steps onto a goal square while the other stands on the own ninth
    // rank: 5:0, the best result there is.
    let (m, v) = best::<Ita>("ff8/4FF4/10/10/10/10/10/10/10/10 w - - 0 1", 2);
    assert!(m == "e9e10" || m == "f9f10", "{m}");
    assert_eq!(v, MATE - 1);
    // Ranking of results for the side to move at ply 0.
    let five_one = outcome_value::<Ita>(&Outcome::scores(0, 5, 1, "goal"), 0, 0);
    let five_two = outcome_value::<Ita>(&Outcome::scores(0, 5, 2, "goal"), 0, 0);
    let four_one = outcome_value::<Ita>(&Outcome::scores(0, 4, 1, "flags captured"), 0, 0);
    let stalemated_them = outcome_value::<Ita>(&Outcome::scores(0, 2, 3, "stalemate"), 0, 0);
    assert!(MATE > five_one && five_one > five_two && five_two == four_one);
    assert!(stalemated_them < 0, "stalemating the opponent is worse than a draw");
    // Ita's scale is 5 points: each point given up costs 256.
    assert_eq!((five_one, five_two, stalemated_them), (MATE - 256, MATE - 512, -(MATE - 1024)));
    // A loss 1:4 three plies from the root; a result without a score pair
    // counts as the best.
    assert_eq!(outcome_value::<Ita>(&Outcome::scores(1, 4, 1, "time"), 0, 3), -(MATE - 512 - 3));
    assert_eq!(outcome_value::<Ita>(&Outcome::win(0, "forfeit"), 0, 3), MATE - 3);
    assert_eq!(outcome_value::<Chess>(&Outcome::win(1, "checkmate"), 1, 3), MATE - 3);
    assert_eq!(outcome_value::<Chess>(&Outcome::win(1, "checkmate"), 0, 2), -(MATE - 2));
}

#[test]
fn bench_is_deterministic() {
    let signature = |lines: Vec<String>| lines.into_iter().find(|l| l.starts_with("Nodes searched")).unwrap();
    let a = signature(calvin::bench::run_bench(Some(3), |g| g.builtin_evaluation()));
    let b = signature(calvin::bench::run_bench(Some(3), |g| g.builtin_evaluation()));
    assert_eq!(a, b);
    let n: u64 = a.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(n > 10_000, "{a}");
}

/// A node limit smaller than the first iteration still lets it finish, and
/// no other iteration starts: the move played comes with the one `info`
/// line, of depth 1, whose PV starts with it (here depth 1 searches about
/// 2000 nodes, most in quiescence, and depths 2 and 3 together fewer than
/// the 1024 between two looks at the limit inside the search).
#[test]
fn a_tiny_node_limit_reports_the_move_it_plays() {
    let fen = "q1r1rbn1/1bke1p1p/1pn1pep1/2p1p3/p2P1P2/2P1QNPP/PPN1EBBK/1R1E1R2[] b - - 1 20";
    let script = format!("setoption name UCI_Variant value historia-sako\nposition fen {fen}\ngo nodes 1\n");
    let lines = common::until_bestmove(&script);
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).expect("bestmove <m>");
    assert_eq!(infos.len(), 1, "{infos:?}");
    assert!(infos[0].starts_with("info depth 1 "), "{}", infos[0]);
    assert!(infos[0].ends_with(&format!(" pv {best}")), "{} / {best}", infos[0]);
}
