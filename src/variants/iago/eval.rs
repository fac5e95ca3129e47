//! IAGO evaluation: a reserve piece still has to be brought in (a tempo),
//! so it counts a little less than on the board. Both IAGO classes have a
//! network on top of their fitted formula.

use super::{IagoBRules, IagoCRules};
use crate::eval::Evaluator;

impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoBRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8, X);
    const HAND_PCT: i32 = 90;
    /// Material, reserve and piece-square corrections fitted to self-play
    /// games (`tools/train/results/iago-b.json`, `to_weights.py ... iago-b
    /// PNBRQKMC`; the Amazon of the `X` rules gets none). The data and the
    /// match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/iago-b.weights");
    /// An H32 network trained on top of that formula, as iago-c's (below;
    /// its data, training and match: README).
    const NET: &'static [u8] = if X { &[] } else { include_bytes!("../../../weights/iago-b.nn") };
}
impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoCRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8, X);
    const HAND_PCT: i32 = 90;
    /// Fitted as iago-b's (`tools/train/results/iago-c.json`, `to_weights.py
    /// ... iago-c PNBRQKMC`). The data and the match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/iago-c.weights");
    /// An H32 network trained on top of that formula (`tools/nnue/train.py
    /// --on-top`; its data, training and match: README). Its features are
    /// the eight types of the rulings: the Amazon of the `X` rules has none,
    /// and they play with the formula alone.
    const NET: &'static [u8] = if X { &[] } else { include_bytes!("../../../weights/iago-c.nn") };
}
