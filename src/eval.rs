//! Static evaluation. The generic terms (material, hand, placement, mobility)
//! serve every variant; each variant's own terms are its `Evaluator` impl
//! in `src/variants/<name>/eval.rs`.

use crate::bitboard::Bits;
use crate::geometry::Geometry;
use crate::position::Position;
use crate::variant::Variant;

/// Evaluation from the side to move's point of view, in centipawns.
pub trait Evaluator: Variant {
    /// Hand pieces are worth this percentage of their board value.
    const HAND_PCT: i32 = 100;
    /// Centipawns per reachable square for non-pawn pieces.
    const MOBILITY: i32 = 2;
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

/// Material, hand, placement and mobility, from White's point of view.
pub fn generic_eval<V: Evaluator>(pos: &Position<V>) -> i32 {
    let tables = V::tables();
    let occ = pos.occupied();
    let empty = !occ & V::G::tables().all;
    let max_dist = (V::G::FILES + V::G::RANKS) as i32 - 2;
    // Game phase: share of non-pawn material still on the board or in hand.
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
            for sq in bb.iter() {
                *sc += value;
                if t == V::KING {
                    // Kings stay home while there is material to attack them.
                    *sc -= 2 * (V::G::relative_rank(c, sq) as i32).min(3) * 5;
                    continue;
                }
                if t == V::PAWN {
                    *sc += 4 * V::G::relative_rank(c, sq) as i32;
                    *sc += (max_dist - center_distance::<V::G>(sq)) / 2;
                    continue;
                }
                *sc += max_dist - center_distance::<V::G>(sq);
                if tt.slide_c_mask[c] == 0 && !tt.exotic {
                    continue; // a leaper's reach is about the same everywhere: centrality says it
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
