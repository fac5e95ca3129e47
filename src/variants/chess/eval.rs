//! Chess evaluation: the generic terms alone.

use super::Chess;
use crate::eval::Evaluator;

impl Evaluator for Chess {
    crate::eval_tables!(crate::geometry::Board8x8);
}
