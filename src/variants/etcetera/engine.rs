//! What the engine knows of Etcetera beyond its rules.

use super::Etcetera;
use crate::variants::EngineVariant;
use crate::variants::VariantVisitor;
use crate::wdl::WdlModel;

impl EngineVariant for Etcetera {
    const PIECE_MOVES: &'static [(&'static str, &'static str)] = &super::PIECE_MOVES;
    const RULES_NOTE: &'static str = super::RULES_NOTE;
    /// The win-rate model of `UCI_ShowWDL`, fitted to self-play games (docs/wdl.md).
    const WDL: WdlModel = WdlModel { a: 133.9, b: 190.4 };
    const BENCH: &'static [&'static str] = &[
        "gerkreg/ppppppp/3m3/3m3/3M3/3M3/PPPPPPP/GERKREG w - - 0 1",
        "1er1r2/g1pkpgp/p2m3/3G1m1/3e3/5E1/PPK1PPP/1ER1R1G w - - 0 11",
        "7/3k3/7/3G3/Pe5/3g3/2K4/7 w - - 6 31",
        "2k1rg1/2pp1p1/2p1pp1/3m3/2MM2g/6P/P1PPKP1/1G2RG1 w - - 4 11",
    ];
}

/// The registry's entry: no rule options (its rule word is 0), one type.
pub fn visit<F: VariantVisitor>(_word: u32, f: F) -> F::Out {
    f.visit::<Etcetera>()
}
