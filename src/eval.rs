//! Static evaluation. The generic terms (material, hand, placement, mobility)
//! serve every variant; each variant's own terms are its `Evaluator` impl
//! in `src/variants/<name>/eval.rs`. The coefficients of the generic terms
//! are the variant's [`EvalWeights`] ([`terms`]).

pub mod terms;

use crate::bitboard::Bits;
use crate::geometry::Geometry;
use crate::position::{NO_SQ, Position};
use crate::variant::{Bb, MAX_TYPES, Variant};
pub use terms::EvalWeights;
use terms::{Columns, Terms, Weighted, col};

/// Evaluation from the side to move's point of view, in centipawns.
pub trait Evaluator: Variant {
    /// Hand pieces are worth this percentage of their board value.
    const HAND_PCT: i32 = 100;
    /// The coefficients of the generic terms (mobility, pawn structure,
    /// king safety, tempo).
    const EVAL_WEIGHTS: EvalWeights = EvalWeights::DEFAULT;
    /// Pawn structure terms (doubled, isolated and passed pawns) apply:
    /// pawns that advance on files, as in chess.
    const PAWN_TERMS: bool = Self::PAWN != 0 && <Self::G as Geometry>::FILES > 1;
    /// King safety terms (attackers near the royal piece, pawn shield, open
    /// file) apply: a royal piece on a board of files and ranks.
    const KING_SAFETY: bool = Self::KING != 0 && <Self::G as Geometry>::FILES > 1;
    /// The variant's evaluation tables (one static per variant: see [`eval_tables!`]).
    fn eval_tables() -> &'static EvalTables<Self::G>;
    /// The piece-square value of a piece of type `t` and colour `color` on
    /// `sq`, from that colour's point of view. The default: pieces like the
    /// centre, pawns like to advance, the king stays home.
    fn pst(t: u8, color: usize, sq: usize) -> i32 {
        default_pst::<Self>(t, color, sq)
    }
    /// The variant's own terms, from White's point of view.
    fn extra(_pos: &Position<Self>) -> i32 {
        0
    }
    fn evaluate(pos: &Position<Self>) -> i32 {
        let mut sum = Weighted::<Self>::new();
        eval_terms(pos, &mut sum);
        let white = sum.white();
        if pos.side == 0 { white } else { -white }
    }
}

/// Every term of the evaluation of `pos` added to `acc`: the generic terms,
/// the variant's own and the tempo.
#[inline(always)]
pub fn eval_terms<V: Evaluator, A: Terms>(pos: &Position<V>, acc: &mut A) {
    generic_terms(pos, acc);
    acc.add(0, col::EXTRA, V::extra(pos));
    acc.add(pos.side, col::TEMPO, 1);
}

/// The terms of `pos`'s evaluation as counts from White's view (one row of
/// `calvin datagen terms`): their dot product with
/// `V::EVAL_WEIGHTS.columns()` is the evaluation from White's view.
pub fn term_columns<V: Evaluator>(pos: &Position<V>) -> [i32; col::COUNT] {
    let mut c = Columns::new(V::EVAL_WEIGHTS);
    eval_terms(pos, &mut c);
    c.row
}

/// Twice the Manhattan distance from the board's centre (0 at the centre).
#[inline]
fn center_distance<G: Geometry>(sq: usize) -> i32 {
    let f = 2 * G::file_of(sq) as i32 - (G::FILES as i32 - 1);
    let r = 2 * G::rank_of(sq) as i32 - (G::RANKS as i32 - 1);
    f.abs() + r.abs()
}

/// The default piece-square value (see [`Evaluator::pst`]).
pub fn default_pst<V: Variant>(t: u8, color: usize, sq: usize) -> i32 {
    let max_dist = (V::G::FILES + V::G::RANKS) as i32 - 2;
    let central = max_dist - center_distance::<V::G>(sq);
    let rank = V::G::relative_rank(color, sq) as i32;
    if t == V::KING {
        // Kings stay home while there is material to attack them.
        -2 * rank.min(3) * 5
    } else if t == V::PAWN {
        4 * rank + central / 2
    } else {
        central
    }
}

/// What the evaluation precomputes per variant.
pub struct EvalTables<G: Geometry> {
    /// `pst[(color * MAX_TYPES + t) * SQUARES + sq]`, from `color`'s view.
    pst: Vec<i32>,
    /// The square and its neighbours (a king's zone).
    pub zone: Vec<G::B>,
    /// For a pawn of each colour: the squares ahead of it on its own and
    /// the adjacent files (no enemy pawn there: passed).
    pub front_span: [Vec<G::B>; 2],
    /// The files beside each file (isolated pawns).
    pub adjacent_files: Vec<G::B>,
    /// For a king of each colour: the squares one and two ranks ahead on its
    /// own and the adjacent files (its pawn shield).
    pub shield: [Vec<G::B>; 2],
}

impl<G: Geometry> EvalTables<G> {
    pub fn build<V: Evaluator<G = G>>() -> Self {
        let mut pst = vec![0; 2 * MAX_TYPES * G::SQUARES];
        for color in 0..2 {
            for t in 1..=V::PIECES.len() as u8 {
                for sq in 0..G::SQUARES {
                    pst[(color * MAX_TYPES + t as usize) * G::SQUARES + sq] = V::pst(t, color, sq);
                }
            }
        }
        let near = |sq: usize, files: std::ops::RangeInclusive<i32>, ranks: std::ops::RangeInclusive<i32>| {
            let mut b = G::B::ZERO;
            for df in files {
                for dr in ranks.clone() {
                    if let Some(t) = G::offset(sq, df, dr) {
                        b |= G::B::bit(t);
                    }
                }
            }
            b
        };
        let zone = (0..G::SQUARES).map(|sq| near(sq, -1..=1, -1..=1)).collect();
        // Ranks `from..=to` ahead of the square, seen from `color`'s side.
        let ahead = |color: usize, from: i32, to: i32| -> Vec<G::B> {
            let ranks = if color == 0 { from..=to } else { -to..=-from };
            (0..G::SQUARES).map(|sq| near(sq, -1..=1, ranks.clone())).collect()
        };
        let max = G::RANKS as i32;
        let front_span = [ahead(0, 1, max), ahead(1, 1, max)];
        let shield = [ahead(0, 1, 2), ahead(1, 1, 2)];
        let adjacent_files = (0..G::FILES)
            .map(|f| {
                let mut b = G::B::ZERO;
                if f > 0 {
                    b |= G::file_bb(f - 1);
                }
                if f + 1 < G::FILES {
                    b |= G::file_bb(f + 1);
                }
                b
            })
            .collect();
        EvalTables { pst, zone, front_span, adjacent_files, shield }
    }
    #[inline(always)]
    pub fn pst(&self, color: usize, t: u8, sq: usize) -> i32 {
        self.pst[(color * MAX_TYPES + t as usize) * G::SQUARES + sq]
    }
}

/// Writes a variant's `eval_tables()` with its own static (a static inside
/// a generic function would be shared by every variant). A generic impl
/// (IAGO's and Ita's rule options) shares one static among its types: its
/// `pst` must not depend on the type parameters.
#[macro_export]
macro_rules! eval_tables {
    ($g:ty) => {
        fn eval_tables() -> &'static $crate::eval::EvalTables<$g> {
            static T: std::sync::OnceLock<$crate::eval::EvalTables<$g>> = std::sync::OnceLock::new();
            T.get_or_init($crate::eval::EvalTables::build::<Self>)
        }
    };
}

/// Below this much non-pawn material on the opponent's side (board and
/// hand) the king's shelter does not matter.
const SHELTER_MATERIAL: i32 = 1300;

/// Material, hand, placement, mobility, pawn structure and king safety,
/// added to `acc` per side.
fn generic_terms<V: Evaluator, A: Terms>(pos: &Position<V>, acc: &mut A) {
    let tables = V::tables();
    let eval = V::eval_tables();
    let occ = pos.occupied();
    let all = V::G::tables().all;
    let empty = !occ & all;
    let kings = [pos.king_sq(0), pos.king_sq(1)];
    let safety = V::KING_SAFETY && kings.iter().all(|&k| k != NO_SQ);
    // Per side: non-pawn material, and the units and number of pieces attacking the enemy king's zone.
    let mut power = [0i32; 2];
    let mut attack = [(0i32, 0i32); 2];
    for c in 0..2 {
        let enemy_zone = if safety { eval.zone[kings[c ^ 1]] } else { Bb::<V>::ZERO };
        for t in 1..=tables.n_types as u8 {
            let value = V::PIECES[t as usize - 1].value;
            let in_hand = pos.hand[c][t as usize] as i32;
            acc.add(c, col::MATERIAL, value * V::HAND_PCT / 100 * in_hand);
            let bb = pos.pieces(c, t);
            if t != V::PAWN && t != V::KING {
                power[c] += value * (in_hand + bb.count() as i32);
            }
            if bb.is_empty() {
                continue;
            }
            let tt = &tables.types[t as usize];
            let mobile = t != V::KING && t != V::PAWN && (tt.slide_c_mask[c] != 0 || tt.exotic);
            let attacker = safety && t != V::KING && t != V::PAWN;
            for sq in bb.iter() {
                acc.add(c, col::MATERIAL, value + eval.pst(c, t, sq));
                if !mobile && !attacker {
                    continue; // a leaper's reach is about the same everywhere: the table says it
                }
                let (quiet, pattern) = Position::<V>::piece_targets(tt, c, sq, occ, empty, all);
                if mobile {
                    acc.add(c, col::MOBILITY, (quiet | (pattern & pos.by_color[c ^ 1])).count() as i32);
                }
                if attacker && (pattern & enemy_zone).any() {
                    attack[c].0 += (value / 200).clamp(1, 5);
                    attack[c].1 += 1;
                }
            }
        }
    }
    if V::PAWN_TERMS {
        pawn_structure(pos, eval, 0, acc);
        pawn_structure(pos, eval, 1, acc);
    }
    if safety {
        for c in 0..2 {
            let (units, attackers) = attack[c ^ 1];
            acc.king_danger(c, units, attackers);
            if V::PAWN_TERMS && power[c ^ 1] >= SHELTER_MATERIAL {
                shelter(pos, eval, c, kings[c], acc);
            }
        }
    }
}

/// Doubled, isolated and passed pawns of `color`.
fn pawn_structure<V: Evaluator, A: Terms>(pos: &Position<V>, eval: &EvalTables<V::G>, color: usize, acc: &mut A) {
    let ours = pos.pieces(color, V::PAWN);
    let theirs = pos.pieces(color ^ 1, V::PAWN);
    for f in 0..V::G::FILES {
        let n = (ours & V::G::file_bb(f)).count() as i32;
        if n == 0 {
            continue;
        }
        acc.add(color, col::DOUBLED, n - 1);
        if (ours & eval.adjacent_files[f]).is_empty() {
            acc.add(color, col::ISOLATED, n);
        }
    }
    for sq in ours.iter() {
        if (eval.front_span[color][sq] & theirs).is_empty() {
            let rank = V::G::relative_rank(color, sq) * 7 / (V::G::RANKS - 1);
            acc.add(color, col::PASSED + rank, 1);
        }
    }
}

/// The king's pawn shield and the file it stands on, for `color`.
fn shelter<V: Evaluator, A: Terms>(pos: &Position<V>, eval: &EvalTables<V::G>, color: usize, king: usize, acc: &mut A) {
    if V::G::relative_rank(color, king) > 1 {
        return; // a king that has left home has no shield to keep
    }
    let ours = pos.pieces(color, V::PAWN);
    let theirs = pos.pieces(color ^ 1, V::PAWN);
    let shield = eval.shield[color][king] & ours;
    let near = eval.zone[king];
    let kf = V::G::file_of(king);
    for f in kf.saturating_sub(1)..=(kf + 1).min(V::G::FILES - 1) {
        let on_file = shield & V::G::file_bb(f);
        let kind = if (on_file & near).any() {
            col::SHIELD_NEAR
        } else if on_file.any() {
            col::SHIELD_FAR
        } else {
            col::SHIELD_NONE
        };
        acc.add(color, kind, 1);
    }
    let file = V::G::file_bb(kf);
    if (file & ours).is_empty() {
        acc.add(color, col::KING_FILE_SEMI_OPEN, 1);
        let riders = V::tables().orth_riders;
        let rides = (1..=V::PIECES.len() as u8).any(|t| riders >> t & 1 == 1 && pos.pieces(color ^ 1, t).any());
        if (file & theirs).is_empty() && rides {
            acc.add(color, col::KING_FILE_OPEN, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;
    #[test]
    fn start_is_balanced_and_material_counts() {
        let p = Position::<Chess>::startpos();
        assert_eq!(Chess::evaluate(&p), 10);
        let q = Position::<Chess>::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(Chess::evaluate(&q) > 900);
    }

    /// `color`'s score from what `f` adds with chess's weights.
    fn weighted(color: usize, f: impl FnOnce(&mut Weighted<Chess>)) -> i32 {
        let mut w = Weighted::new();
        f(&mut w);
        w.score[color]
    }

    #[test]
    fn pawn_structure_counts_exactly() {
        let t = Chess::eval_tables();
        // White: a2 b2 (a pair), d5 and f2 isolated; no black pawns, so all
        // four are passed: 5 + 5 + 5 (rank 2) + 35 (rank 5) - 2 * 10.
        let p = Position::<Chess>::from_fen("4k3/8/8/3P4/8/8/PP3P2/4K3 w - - 0 1").unwrap();
        assert_eq!(weighted(0, |w| pawn_structure(&p, t, 0, w)), 30);
        assert_eq!(weighted(1, |w| pawn_structure(&p, t, 1, w)), 0);
        // Doubled and blocked: c2 c3 against c6 (not passed, isolated both).
        let p = Position::<Chess>::from_fen("4k3/8/2p5/8/8/2P5/2P5/4K3 w - - 0 1").unwrap();
        assert_eq!(weighted(0, |w| pawn_structure(&p, t, 0, w)), -12 - 2 * 10);
        // Black's c6: isolated, and not passed (white pawns stand ahead of it on its file).
        assert_eq!(weighted(1, |w| pawn_structure(&p, t, 1, w)), -10);
    }

    #[test]
    fn shelter_counts_shield_and_open_file() {
        let t = Chess::eval_tables();
        let shelter_of = |p: &Position<Chess>| weighted(0, |w| shelter(p, t, 0, p.king_sq(0), w));
        // f2 and g2 next to the king (+10 each), h3 two ahead (+5).
        let p = Position::<Chess>::from_fen("6k1/8/8/8/8/7P/5PP1/6K1 w - - 0 1").unwrap();
        assert_eq!(shelter_of(&p), 25);
        // No pawn on the g-file: -12 for the gap, -15 semi-open, -10 open
        // with a black rook on the board.
        let p = Position::<Chess>::from_fen("6k1/6r1/8/8/8/8/5P1P/6K1 w - - 0 1").unwrap();
        assert_eq!(shelter_of(&p), 10 - 12 + 10 - 15 - 10);
        // A king off its first two ranks has no shelter term.
        let p = Position::<Chess>::from_fen("6k1/8/8/8/8/6K1/5PPP/8 w - - 0 1").unwrap();
        assert_eq!(shelter_of(&p), 0);
    }

    #[test]
    fn king_danger_needs_two_attackers() {
        assert_eq!(weighted(0, |w| w.king_danger(0, 4, 1)), 0);
        assert_eq!(weighted(0, |w| w.king_danger(0, 5, 2)), -125);
        assert_eq!(weighted(1, |w| w.king_danger(1, 20, 5)), -400);
    }

    #[test]
    fn a_row_of_terms_counted_by_hand() {
        // Black's queen d4 (4 attack units, through f2) and knight e4 (1,
        // on f2) attack White's king zone: 5 units, 25 units squared. Black
        // has Q + N + R = 1770 of material, so White's shelter counts: f2
        // and g2 next to the king, h3 two ahead, pawns on the king's file.
        // Mobility: queen 20 squares (d5-d8, d3-d1, c4-a4, e5 f6, c5 b6 a7,
        // e3 and the capture on f2, c3 b2 a1), rook 12 (a7-a1, b8-f8);
        // White has none. No pawn is doubled, isolated or passed.
        let p = Position::<Chess>::from_fen("r5k1/5ppp/8/8/3qn3/7P/5PP1/6K1 w - - 0 1").unwrap();
        let row = term_columns(&p);
        let mut material = 0;
        for (c, sign) in [(0, 1), (1, -1)] {
            for t in 1..=6u8 {
                for sq in p.pieces(c, t).iter() {
                    material += sign * (Chess::PIECES[t as usize - 1].value + Chess::eval_tables().pst(c, t, sq));
                }
            }
        }
        let mut expected = [0; col::COUNT];
        expected[col::MATERIAL] = material;
        expected[col::TEMPO] = 1;
        expected[col::MOBILITY] = -32;
        expected[col::SHIELD_NEAR] = 2;
        expected[col::SHIELD_FAR] = 1;
        expected[col::DANGER_UNITS2] = 25;
        assert_eq!(row, expected);
        let w = Chess::EVAL_WEIGHTS.columns();
        let dot: i32 = row.iter().zip(w).map(|(x, w)| x * w).sum();
        assert_eq!(dot, material + 10 - 64 + 25 - 125);
        assert_eq!(dot, Chess::evaluate(&p));
    }

    #[test]
    fn tables_follow_the_board() {
        use crate::geometry::{Board8x8, Board10x10};
        use crate::variants::ita::Ita;
        let t = Chess::eval_tables();
        let sq = |n: &str| Board8x8::parse_square(n).unwrap();
        let bb = |names: &[&str]| names.iter().fold(0u64, |b, n| b | 1u64 << sq(n));
        assert_eq!(t.zone[sq("a1")], bb(&["a1", "b1", "a2", "b2"]));
        assert_eq!(t.shield[0][sq("g1")], bb(&["f2", "g2", "h2", "f3", "g3", "h3"]));
        assert_eq!(t.shield[1][sq("b8")], bb(&["a7", "b7", "c7", "a6", "b6", "c6"]));
        assert_eq!(t.front_span[1][sq("a3")], bb(&["a2", "b2", "a1", "b1"]));
        // Ita's 10x10 board: the zone of j10 and the span of a white pawn on e9.
        let t = Ita::eval_tables();
        let sq = |n: &str| Board10x10::parse_square(n).unwrap();
        let bb = |names: &[&str]| names.iter().fold(0u128, |b, n| b | 1u128 << sq(n));
        assert_eq!(t.zone[sq("j10")], bb(&["i9", "j9", "i10", "j10"]));
        assert_eq!(t.front_span[0][sq("e9")], bb(&["d10", "e10", "f10"]));
    }
}
