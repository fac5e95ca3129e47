//! What the engine knows of Ito Shogi beyond its rules.

use super::ItoShogi;
use crate::variants::EngineVariant;
use crate::variants::VariantVisitor;
use crate::wdl::WdlModel;

impl EngineVariant for ItoShogi {
    const PIECE_MOVES: &'static [(&'static str, &'static str)] = &super::PIECE_MOVES;
    const RULES_NOTE: &'static str = super::RULES_NOTE;
    /// The win-rate model of `UCI_ShowWDL`, fitted to self-play games (docs/wdl.md).
    const WDL: WdlModel = WdlModel { a: 0.0, b: 297.4 };
    const BENCH: &'static [&'static str] = &[
        "k/1/1/1/s/g/1/h/c/1/1/t/p/1/1/1/1/1/P/T/1/1/C/H/1/G/S/1/1/1/K[] w - - 0 1",
        "P/1/1/1/s/k/1/g/1/1/h/+c/1/1/1/1/1/1/P/1/T/1/S/H/1/1/1/G/K/1/1[Tc] w - - 0 11",
        "1/p/1/1/h/k/1/1/1/1/1/+t/1/g/H/1/P/1/C/T/+S/1/1/1/1/1/K/C/1/1/+G[s] w - - 0 31",
        "1/k/c/s/1/1/1/1/1/g/t/1/p/1/1/1/+h/H/1/1/1/T/C/p/S/G/1/1/K/1/1[] w - - 2 11",
    ];
    /// XBoard's boards stop at 16 ranks: no 1x31 line.
    const XBOARD_NAME: Option<&'static str> = None;
}

/// The registry's entry: no rule options (its rule word is 0), one type.
pub fn visit<F: VariantVisitor>(_word: u32, f: F) -> F::Out {
    f.visit::<ItoShogi>()
}
