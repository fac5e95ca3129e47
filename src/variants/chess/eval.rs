//! Chess evaluation: the generic terms, with material and piece-square
//! corrections fitted to self-play games: the built-in weights
//! `weights/chess.weights` (`tools/train/to_weights.py
//! tools/train/results/chess.json chess PNBRQK weights/chess.weights`).

use super::Chess;
use crate::eval::Evaluator;

impl Evaluator for Chess {
    crate::eval_tables!(crate::geometry::Board8x8);
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/chess.weights");
}
