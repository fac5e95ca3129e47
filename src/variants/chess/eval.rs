//! Chess evaluation: the generic terms alone.

use super::Chess;
use crate::eval::Evaluator;

impl Evaluator for Chess {}
