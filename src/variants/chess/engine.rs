//! What the engine knows of chess beyond its rules.

use super::Chess;
use crate::timeman::TimePlan;
use crate::variants::EngineVariant;
use crate::variants::VariantVisitor;
use crate::wdl::WdlModel;

impl EngineVariant for Chess {
    const PIECE_MOVES: &'static [(&'static str, &'static str)] = &super::PIECE_MOVES;
    const SAN: bool = true;
    /// The win-rate model of `UCI_ShowWDL`, fitted to self-play games (docs/wdl.md).
    const WDL: WdlModel = WdlModel { a: 266.2, b: 294.2 };
    const TIME_PLAN: TimePlan = TimePlan::ByPly;
    /// The standard perft suite's start, Kiwipete, position 3 and a middlegame.
    const BENCH: &'static [&'static str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ];
    /// XBoard calls chess `normal`.
    const XBOARD_NAME: Option<&'static str> = Some("normal");
}

/// The registry's entry: no rule options (its rule word is 0), one type.
pub fn visit<F: VariantVisitor>(_word: u32, f: F) -> F::Out {
    f.visit::<Chess>()
}
