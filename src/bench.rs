//! `bench`: a fixed set of positions of every variant searched to a fixed
//! depth on one thread with a fresh 16 MiB table each; the node count is
//! deterministic (a signature of the search), the speed is not.

use crate::game::{VARIANTS, new_game};
use crate::tt::TranspositionTable;

pub const DEFAULT_DEPTH: i32 = 7;

/// Positions per variant (start position first): chess from the standard
/// perft suite, the others from the reference perft files of the rulings.
pub fn positions(variant: &str) -> Vec<&'static str> {
    match variant {
        "chess" => vec![
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ],
        "etcetera" => vec![
            "gerkreg/ppppppp/3m3/3m3/3M3/3M3/PPPPPPP/GERKREG w - - 0 1",
            "1er1r2/g1pkpgp/p2m3/3G1m1/3e3/5E1/PPK1PPP/1ER1R1G w - - 0 11",
            "7/3k3/7/3G3/Pe5/3g3/2K4/7 w - - 6 31",
            "2k1rg1/2pp1p1/2p1pp1/3m3/2MM2g/6P/P1PPKP1/1G2RG1 w - - 4 11",
        ],
        "historia-sako" => vec![
            "8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee] w - - 0 1",
            "1r1eqnr1/b3pppp/pppp4/8/8/4PPPP/PPPPN1N1/BR3Q1K[RBEEkbne] w - - 0 7",
            "e2b2e1/1b1rpp1n/k1p5/p3p3/6P1/P1PP1R1P/1P6/Q1NEERK1[] w - - 0 26",
            "eb1e3n/k1n1pppp/pppp4/8/8/4PPPP/PPPP1RRQ/2N1EK2[BBNEqrrb] w - - 0 7",
        ],
        "iago-b" => vec![
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[MCmc] w KQBCDFGkqbcdfg - 0 1",
            "rn1qkbmr/1p1bpppp/p1p4n/3p4/3PN1P1/7N/PPPBPP1P/RM1QKBCR[c] w KQDFkqbdf - 0 7",
            "5bnr/6pp/7k/8/3p2B1/1P3C1N/3K1PP1/1b4R1[] w fgh - 0 26",
            "rmc1kbnr/p3ppp1/bqn5/3p3p/8/1M1P4/PPPNPPPP/RC1QKBNR[] w KQDFGkqfg d6 0 7",
        ],
        "iago-c" => vec![
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[QMCqmc] w KQBCDFGkqbcdfg - 0 1",
            "rm1qkbcr/1pp1pppp/p1n1b2n/3p4/PP6/R1NP4/2P1PPPP/MCBQKBNR[] w KCDFGkqdf - 1 7",
            "1cb2bm1/r1pB1p2/3p1n2/3k2N1/R6r/1P3P2/2PP3P/1MBK4[] w Ccf - 3 26",
            "r1bmkbqr/pppppppp/n6n/8/M7/4c3/PPPPB1PP/RNBCKQNR[] w KQBCGkqcf - 2 7",
        ],
        "ita" => vec![
            "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SS1L2/B2RFFR2B w e1ac,f1ac,e10ac,f10ac - 0 1",
            "b3ff1s1b/c1l6l/2r4c2/1prs6/1Lpp2pp1p/6P3/P2P3P1P/2CPS1RC2/3RSF1L2/B3F4B w e1ac,f2ac,e10ac,f10ac - 20 11",
            "1l1rff3b/1b2s1rl2/2c4cp1/6ps2/P1pp3p2/10/6PP1P/1PCP1S1C2/4S2L2/3RFF1R1B w e1ac,f1ac,e10ac,f10ac - 2 11",
            "1r2f1r3/3l1f3l/10/9c/s4Lpp1p/10/2C7/9c/4P5/B2RF1R3 w e1ac,f9ac,e10ac - 0 31",
        ],
        "ito-shogi" => vec![
            "k/1/1/1/s/g/1/h/c/1/1/t/p/1/1/1/1/1/P/T/1/1/C/H/1/G/S/1/1/1/K[] w - - 0 1",
            "P/1/1/1/s/k/1/g/1/1/h/+c/1/1/1/1/1/1/P/1/T/1/S/H/1/1/1/G/K/1/1[Tc] w - - 0 11",
            "1/p/1/1/h/k/1/1/1/1/1/+t/1/g/H/1/P/1/C/T/+S/1/1/1/1/1/K/C/1/1/+G[s] w - - 0 31",
            "1/k/c/s/1/1/1/1/1/g/t/1/p/1/1/1/+h/H/1/1/1/T/C/p/S/G/1/1/K/1/1[] w - - 2 11",
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
