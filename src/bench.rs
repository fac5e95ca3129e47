//! `bench`: a fixed set of positions of every variant searched to a fixed
//! depth on one thread with a fresh 16 MiB table each; the node count is
//! deterministic (a signature of the search), the speed is not.

use crate::engine_game::EngineGame;
use crate::eval::Evaluation;
use crate::registry::{RuleOptions, VariantId};
use crate::tt::TranspositionTable;

/// Deep enough for every part of the search to act in the signature: the
/// singular extension needs a node of depth `SE_MIN_DEPTH` below the root.
pub const DEFAULT_DEPTH: i32 = 9;
const _: () = assert!(DEFAULT_DEPTH > crate::search::params::SE_MIN_DEPTH);

/// Runs the bench, each variant with the evaluation `eval_of` gives its
/// game (the engine's); returns the lines to print.
pub fn run_bench(depth: Option<i32>, eval_of: impl Fn(&dyn EngineGame) -> Evaluation) -> Vec<String> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    let start = std::time::Instant::now();
    let mut lines = Vec::new();
    let mut total = 0u64;
    for &id in VariantId::ALL {
        let (v, game) = (id.name(), id.engine_game(&RuleOptions::default()));
        let eval = eval_of(game.as_ref());
        for &fen in game.bench_positions() {
            let tt = TranspositionTable::new(16);
            match game.bench_search(fen, depth, &tt, &eval) {
                Ok((best, nodes)) => {
                    total += nodes;
                    lines.push(format!("info string bench {v} {fen} bestmove {best} nodes {nodes}"));
                }
                Err(e) => lines.push(format!("info string error bench {v} {fen}: {e}")),
            }
        }
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    lines.push(String::new());
    lines.push(format!("Total time (ms) : {ms}"));
    lines.push(format!("Nodes searched  : {total}"));
    lines.push(format!("Nodes/second    : {}", total * 1000 / ms));
    lines
}
