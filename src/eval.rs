//! Static evaluation. The generic terms (material, hand, placement, mobility)
//! serve every variant; each variant's own terms are its `Evaluator` impl
//! in `src/variants/<name>/eval.rs`.

use crate::bitboard::Bits;
use crate::geometry::Geometry;
use crate::position::Position;
use crate::variant::{MAX_TYPES, Variant};

/// Evaluation from the side to move's point of view, in centipawns.
pub trait Evaluator: Variant {
    /// Hand pieces are worth this percentage of their board value.
    const HAND_PCT: i32 = 100;
    /// Centipawns per reachable square for non-pawn pieces.
    const MOBILITY: i32 = 2;
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
        let white = generic_eval(pos) + Self::extra(pos);
        let tempo = 10;
        if pos.side == 0 { white + tempo } else { tempo - white }
    }
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
    _g: std::marker::PhantomData<G>,
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
        EvalTables { pst, _g: std::marker::PhantomData }
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

/// Material, hand, placement and mobility, from White's point of view.
pub fn generic_eval<V: Evaluator>(pos: &Position<V>) -> i32 {
    let tables = V::tables();
    let eval = V::eval_tables();
    let occ = pos.occupied();
    let empty = !occ & V::G::tables().all;
    let mut score = [0i32; 2];
    for (c, sc) in score.iter_mut().enumerate() {
        for t in 1..=tables.n_types as u8 {
            let value = V::PIECES[t as usize - 1].value;
            *sc += value * V::HAND_PCT / 100 * pos.hand[c][t as usize] as i32;
            let bb = pos.pieces(c, t);
            if bb.is_empty() {
                continue;
            }
            let tt = &tables.types[t as usize];
            let cap_mask = pos.by_color[c ^ 1];
            let mobile = t != V::KING && t != V::PAWN && (tt.slide_c_mask[c] != 0 || tt.exotic);
            for sq in bb.iter() {
                *sc += value + eval.pst(c, t, sq);
                if !mobile {
                    continue; // a leaper's reach is about the same everywhere: the table says it
                }
                let (quiet, caps) = Position::<V>::piece_targets(tt, c, sq, occ, empty, cap_mask);
                *sc += V::MOBILITY * (quiet | caps).count() as i32;
            }
        }
    }
    score[0] - score[1]
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
}
