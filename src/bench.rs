//! `bench`: a fixed set of positions of every variant searched to a fixed
//! depth on one thread with a fresh 16 MiB table each; the node count is
//! deterministic (a signature of the search), the speed is not.

use crate::game::{VARIANTS, new_game};
use crate::tt::TranspositionTable;

pub const DEFAULT_DEPTH: i32 = 7;

/// Positions per variant (start position first).
pub fn positions(variant: &str) -> Vec<&'static str> {
    match variant {
        "chess" => vec![
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ],
        _ => vec![],
    }
}

/// Runs the bench; returns the lines to print.
pub fn run_bench(depth: Option<i32>) -> Vec<String> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    let start = std::time::Instant::now();
    let mut lines = Vec::new();
    let mut total = 0u64;
    for &v in VARIANTS {
        let Some(game) = new_game(v) else { continue };
        let mut fens: Vec<String> = positions(v).iter().map(|s| s.to_string()).collect();
        if fens.is_empty() {
            fens.push(game.start_fen());
        }
        for fen in fens {
            let tt = TranspositionTable::new(16);
            match game.bench_search(&fen, depth, &tt) {
                Ok((best, nodes)) => {
                    total += nodes;
                    lines.push(format!(
                        "info string bench {v} {fen} bestmove {best} nodes {nodes}"
                    ));
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
