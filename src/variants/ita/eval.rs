//! Ita evaluation terms.

use super::{FLAG, ItaRules};
use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::geometry::Geometry;
use crate::position::Position;

/// Ita: Flags want to advance (the goal is the enemy's home squares), keep
/// their once-per-game abilities, and not stand attacked.
impl<const R: bool, const G: bool> Evaluator for ItaRules<R, G> {
    crate::eval_tables!(crate::geometry::Board10x10);
    /// Material and piece-square corrections fitted to self-play games
    /// (`tools/train/results/ita.json`, `to_weights.py ... ita FSLCRBP`).
    /// The data and the match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/ita.weights");
    /// An H64 network trained on top of that formula on the default rules'
    /// games (`tools/nnue/train.py --on-top`; its data, training and match:
    /// README). The rule options share it: their pieces are the same, and
    /// the formula under it holds the Flags' terms.
    const NET: &'static [u8] = include_bytes!("../../../weights/ita.nn");
    fn extra(pos: &Position<Self>) -> i32 {
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
