//! IAGO evaluation: a reserve piece still has to be brought in (a tempo),
//! so it counts a little less than on the board.

use super::{IagoBRules, IagoCRules};
use crate::eval::Evaluator;

impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoBRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8);
    const HAND_PCT: i32 = 90;
    /// Material, reserve and piece-square corrections fitted to self-play
    /// games (`tools/train/results/iago-b.json`, `to_weights.py ... iago-b
    /// PNBRQKMC`; the Amazon of the `X` rules gets none). The data and the
    /// match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/iago-b.weights");
}
impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoCRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8);
    const HAND_PCT: i32 = 90;
    /// Fitted as iago-b's (`tools/train/results/iago-c.json`, `to_weights.py
    /// ... iago-c PNBRQKMC`). The data and the match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/iago-c.weights");
}
