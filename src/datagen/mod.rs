//! Training data for a learned evaluation: self-play games with a fixed
//! node budget per move from randomised openings, written as positions with
//! the search's score and the game's result (`calvin datagen`; the format
//! and the choices are in `docs/datagen.md`).
//!
//! - `format.rs`: the file (header, one block per game), writer and reader.
//! - `play.rs`: one game: opening, searches, which positions are kept,
//!   adjudication, the result.
//! - `run.rs`: a run: threads, appending, continuing a stopped run, progress.
//! - `merge.rs`: one file of the shards of a run.
//! - `evals.rs`: the engine's static evaluation of a file's positions (for a trainer).
//! - `terms.rs`: the evaluation's generic terms of a file's positions, as
//!   counts whose dot product with the weights is that evaluation.
//! - `cli.rs`: the command line.

pub mod cli;
pub mod evals;
pub mod features;
pub mod format;
pub mod merge;
pub mod play;
pub mod run;
pub mod terms;
