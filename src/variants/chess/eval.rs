//! Chess evaluation: the generic terms, with material and piece-square
//! corrections fitted to self-play games (`tuned.rs`).

use super::Chess;
use super::tuned::TUNED;
use crate::eval::Evaluator;
use crate::geometry::{Board8x8, Geometry};

impl Evaluator for Chess {
    crate::eval_tables!(crate::geometry::Board8x8);
    fn pst(t: u8, color: usize, sq: usize) -> i32 {
        let rel = Board8x8::relative_rank(color, sq) * Board8x8::FILES + Board8x8::file_of(sq);
        crate::eval::default_pst::<Self>(t, color, sq) + TUNED[t as usize - 1][rel]
    }
}
