//! Static evaluation. The generic terms (material, hand, placement, mobility)
//! serve every variant; each variant's own goals are its `Evaluator` impl,
//! found in one place at the bottom of this file (or in the variant's file).

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

// ------------------------------------------------------------------ variants

impl Evaluator for crate::variants::chess::Chess {}

/// IAGO: a reserve piece still has to be brought in (a tempo), so it counts a little less.
impl<const G: bool, const D: bool> Evaluator for crate::variants::iago::IagoBRules<G, D> {
    const HAND_PCT: i32 = 90;
}
impl<const G: bool, const D: bool> Evaluator for crate::variants::iago::IagoCRules<G, D> {
    const HAND_PCT: i32 = 90;
}

/// Historia Ŝako: the seed's bishop pair bonus; deployment placement: the
/// King tucked into a back-rank corner, the slow Elephants forward on the
/// second-rank drop squares, long-range pieces on the back rank.
impl Evaluator for crate::variants::historia::HistoriaSako {
    fn extra(pos: &Position<Self>) -> i32 {
        use crate::variants::historia::{BISHOP, ELEPHANT, KING};
        let mut s = [0i32; 2];
        for (c, sc) in s.iter_mut().enumerate() {
            let n = pos.pieces(c, BISHOP).count() + pos.hand[c][BISHOP as usize] as u32;
            if n >= 2 {
                *sc += 50;
            }
            if pos.hand_count(c) > 0 || pos.fullmove <= 12 {
                for k in pos.pieces(c, KING).iter() {
                    let file = Self::G::file_of(k) as i32;
                    if Self::G::relative_rank(c, k) == 0 {
                        *sc += 6 * (file - 3).abs().max((file - 4).abs());
                    }
                }
                for e in pos.pieces(c, ELEPHANT).iter() {
                    if Self::G::relative_rank(c, e) == 1 {
                        *sc += 10;
                    }
                }
            }
        }
        s[0] - s[1]
    }
}

/// Ita: Flags want to advance (the goal is the enemy's home squares), keep
/// their once-per-game abilities, and not stand attacked.
impl<const R: bool, const G: bool> Evaluator for crate::variants::ita::ItaRules<R, G> {
    fn extra(pos: &Position<Self>) -> i32 {
        use crate::variants::ita::FLAG;
        let occ = pos.occupied();
        let mut s = [0i32; 2];
        for (c, sc) in s.iter_mut().enumerate() {
            for f in pos.pieces(c, FLAG).iter() {
                let r = Self::G::relative_rank(c, f) as i32;
                *sc += r * r * 6;
                if pos.rights[0].has(f) {
                    *sc += 25;
                }
                if pos.rights[1].has(f) {
                    *sc += 25;
                }
                let attackers = pos.attackers_to(f, c ^ 1, occ).count() as i32;
                *sc -= 60 * attackers;
            }
        }
        s[0] - s[1]
    }
}

/// Ito Shogi: pieces in hand can be dropped anywhere, so they are worth a bit more.
impl Evaluator for crate::variants::ito::ItoShogi {
    const HAND_PCT: i32 = 110;
}

/// Etcetera: the King cannot leave its fortress, so enemy pieces in or next
/// to it are the danger; own defenders inside it help.
impl Evaluator for crate::variants::etcetera::Etcetera {
    fn extra(pos: &Position<Self>) -> i32 {
        use crate::variants::etcetera::fortress;
        let mut s = [0i32; 2];
        for (c, sc) in s.iter_mut().enumerate() {
            let f = fortress(c);
            // The fortress and the ring of squares around it.
            let zone = f | (f << 7) | (f >> 7) | ((f << 1) & !Self::G::file_bb(0)) | ((f >> 1) & !Self::G::file_bb(6));
            let zone = zone & Self::G::tables().all;
            *sc -= 25 * (pos.by_color[c ^ 1] & f).count() as i32;
            *sc -= 10 * (pos.by_color[c ^ 1] & zone & !f).count() as i32;
            *sc += 8 * (pos.by_color[c] & f).count().min(4) as i32;
        }
        s[0] - s[1]
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
}
