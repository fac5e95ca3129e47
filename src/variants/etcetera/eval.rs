//! Etcetera evaluation terms.

use super::{Etcetera, fortress};
use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::geometry::Geometry;
use crate::position::Position;

/// Etcetera: the King cannot leave its fortress, so enemy pieces in or next
/// to it are the danger; own defenders inside it help.
impl Evaluator for Etcetera {
    crate::eval_tables!(crate::geometry::Board7x8);
    /// Material and piece-square corrections fitted to self-play games
    /// (`tools/train/results/etcetera.json`, `to_weights.py ... etcetera
    /// KREMGP`). The data and the match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/etcetera.weights");
    /// An H64 network trained on top of that formula
    /// (`tools/nnue/train.py --on-top`; its data, training and match: README).
    const NET: &'static [u8] = include_bytes!("../../../weights/etcetera.nn");
    fn extra(pos: &Position<Self>) -> i32 {
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
