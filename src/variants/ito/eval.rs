//! Ito Shogi evaluation: pieces in hand can be dropped anywhere, so they are
//! worth a bit more than on the board.

use super::ItoShogi;
use crate::eval::Evaluator;

impl Evaluator for ItoShogi {
    crate::eval_tables!(crate::geometry::Board1x31);
    const HAND_PCT: i32 = 110;
}
