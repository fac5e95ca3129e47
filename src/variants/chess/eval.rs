//! Chess evaluation: the generic terms, with material and piece-square
//! corrections fitted to self-play games: the built-in weights
//! `weights/chess.weights` (`tools/train/to_weights.py
//! tools/train/results/chess.json chess PNBRQK weights/chess.weights`),
//! and the built-in network `weights/chess.nn`: an H32 network trained on
//! top of that formula (`tools/nnue/train.py --on-top`; its data, training
//! and match: README).

use super::Chess;
use crate::eval::Evaluator;

impl Evaluator for Chess {
    crate::eval_tables!(crate::geometry::Board8x8);
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/chess.weights");
    const NET: &'static [u8] = include_bytes!("../../../weights/chess.nn");
}
