//! IAGO evaluation: a reserve piece still has to be brought in (a tempo),
//! so it counts a little less than on the board.

use super::{IagoBRules, IagoCRules};
use crate::eval::Evaluator;

impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoBRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8);
    const HAND_PCT: i32 = 90;
}
impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoCRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8);
    const HAND_PCT: i32 = 90;
}
