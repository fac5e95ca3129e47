//! Chess evaluation: the generic terms, with material and piece-square
//! corrections fitted to self-play games: the built-in weights
//! `weights/chess.weights` (`tools/train/to_weights.py
//! tools/train/results/chess.json chess PNBRQK weights/chess.weights`),
//! and the built-in network `weights/chess.nn`: a 256-wide SCReLU network
//! that is the whole evaluation (the formula is not called at a node),
//! trained from scratch on 3.6 million positions of self-play
//! (`tools/nnue/train.py --hidden 256 --activation screlu --wdl 0`; its
//! data, training and matches: `docs/measurements.md`). The fitted
//! formula stays the evaluation under `EvalFile` weights files.

use super::Chess;
use crate::eval::Evaluator;

impl Evaluator for Chess {
    crate::eval_tables!(crate::geometry::Board8x8);
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/chess.weights");
    const NET: &'static [u8] = include_bytes!("../../../weights/chess.nn");
}
