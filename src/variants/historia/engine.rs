//! What the engine knows of Historia Ŝako beyond its rules.

use super::HistoriaSako;
use crate::variants::EngineVariant;
use crate::variants::VariantVisitor;
use crate::wdl::WdlModel;

impl EngineVariant for HistoriaSako {
    const PIECE_MOVES: &'static [(&'static str, &'static str)] = &super::PIECE_MOVES;
    const RULES_NOTE: &'static str = super::RULES_NOTE;
    const SAN: bool = true;
    /// The win-rate model of `UCI_ShowWDL`, fitted to self-play games (docs/wdl.md).
    const WDL: WdlModel = WdlModel { a: 288.9, b: 283.1 };
    const BENCH: &'static [&'static str] = &[
        "8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee] w - - 0 1",
        "1r1eqnr1/b3pppp/pppp4/8/8/4PPPP/PPPPN1N1/BR3Q1K[RBEEkbne] w - - 0 7",
        "e2b2e1/1b1rpp1n/k1p5/p3p3/6P1/P1PP1R1P/1P6/Q1NEERK1[] w - - 0 26",
        "eb1e3n/k1n1pppp/pppp4/8/8/4PPPP/PPPP1RRQ/2N1EK2[BBNEqrrb] w - - 0 7",
    ];
    /// Deployment drops go on the own two back ranks.
    const XBOARD_DROP_RANKS: Option<usize> = Some(2);
}

/// The registry's entry: no rule options (its rule word is 0), one type.
pub fn visit<F: VariantVisitor>(_word: u32, f: F) -> F::Out {
    f.visit::<HistoriaSako>()
}
