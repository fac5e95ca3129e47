//! Ito Shogi evaluation: pieces in hand can be dropped anywhere, so they are
//! worth a bit more than on the board; the built-in network
//! `weights/ito-shogi.nn` (an H32 network trained on top of this formula
//! with `tools/nnue/train.py --on-top`; its data, training and match:
//! README) corrects it. A fit of material and piece-square corrections was
//! worse on held-out games and does not ship.

use super::ItoShogi;
use crate::eval::Evaluator;

impl Evaluator for ItoShogi {
    crate::eval_tables!(crate::geometry::Board1x31);
    const HAND_PCT: i32 = 110;
    const NET: &'static [u8] = include_bytes!("../../../weights/ito-shogi.nn");
}
