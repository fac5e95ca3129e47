//! What the engine knows of the IAGO classes beyond their rules: bench
//! positions (from the reference perft positions), rule options, XBoard's
//! drop zone, and the registry's choice of type by the rule word.

use super::options::{NOTATION, NOTATION_VALUES, RULE_OPTIONS};
use super::rules::{self, Class};
use super::{IagoBRules, IagoCRules};
use crate::timeman::TimePlan;
use crate::variants::{
    EngineVariant, NativeNotation, NativeWriter, RuleOption, RuleOptions, RuleValueError, VariantVisitor,
};
use crate::wdl::WdlModel;

/// The seed's notation (`Bc1-e3&C`): the position writes it
/// ([`rules::iago_text`]), chosen by the rule option `IagoNotation` in the
/// rule word (`docs/design.md`, "Native notation", says why).
static NATIVE: NativeNotation =
    NativeNotation { option: "IagoNotation", values: NOTATION_VALUES, writer: NativeWriter::Position(NOTATION) };

impl<const G: bool, const D: bool, const X: bool> EngineVariant for IagoBRules<G, D, X> {
    const PIECE_MOVES: &'static [(&'static str, &'static str)] = &super::PIECE_MOVES;
    const RULES_NOTE: &'static str = super::RULES_NOTE_B;
    const SAN: bool = true;
    /// The win-rate model of `UCI_ShowWDL`, fitted to self-play games (docs/wdl.md).
    const WDL: WdlModel = WdlModel { a: 177.2, b: 249.5 };
    /// Stockfish's plan, as chess's: an IAGO game is a chess game in
    /// length and shape (docs/measurements.md, "Stockfish's time plan in
    /// the IAGO classes").
    const TIME_PLAN: TimePlan = TimePlan::ByPly;
    const BENCH: &'static [&'static str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[MCmc] w KQBCDFGkqbcdfg - 0 1",
        "rn1qkbmr/1p1bpppp/p1p4n/3p4/3PN1P1/7N/PPPBPP1P/RM1QKBCR[c] w KQDFkqbdf - 0 7",
        "5bnr/6pp/7k/8/3p2B1/1P3C1N/3K1PP1/1b4R1[] w fgh - 0 26",
        "rmc1kbnr/p3ppp1/bqn5/3p3p/8/1M1P4/PPPNPPPP/RC1QKBNR[] w KQDFGkqfg d6 0 7",
    ];
    const RULE_OPTIONS: &'static [RuleOption] = RULE_OPTIONS;
    /// Reserve pieces are dropped on the own back rank.
    const XBOARD_DROP_RANKS: Option<usize> = Some(1);

    fn native_notation() -> Option<&'static NativeNotation> {
        Some(&NATIVE)
    }
}

impl<const G: bool, const D: bool, const X: bool> EngineVariant for IagoCRules<G, D, X> {
    const PIECE_MOVES: &'static [(&'static str, &'static str)] = &super::PIECE_MOVES;
    const RULES_NOTE: &'static str = super::RULES_NOTE_C;
    const SAN: bool = true;
    /// The win-rate model of `UCI_ShowWDL`, fitted to self-play games (docs/wdl.md).
    const WDL: WdlModel = WdlModel { a: 218.4, b: 318.0 };
    /// As iago-b's.
    const TIME_PLAN: TimePlan = TimePlan::ByPly;
    const BENCH: &'static [&'static str] = &[
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[QMCqmc] w KQBCDFGkqbcdfg - 0 1",
        "rm1qkbcr/1pp1pppp/p1n1b2n/3p4/PP6/R1NP4/2P1PPPP/MCBQKBNR[] w KCDFGkqdf - 1 7",
        "1cb2bm1/r1pB1p2/3p1n2/3k2N1/R6r/1P3P2/2PP3P/1MBK4[] w Ccf - 3 26",
        "r1bmkbqr/pppppppp/n6n/8/M7/4c3/PPPPB1PP/RNBCKQNR[] w KQBCGkqcf - 2 7",
    ];
    const RULE_OPTIONS: &'static [RuleOption] = RULE_OPTIONS;
    const XBOARD_DROP_RANKS: Option<usize> = Some(1);

    /// The queen's square starts empty and is filled from the reserve.
    fn check_rules(word: u32) -> Result<(), RuleValueError> {
        match rules::reserve(Class::C, word) {
            0 => Err(RuleValueError(
                "iago-c fills the queen's square from the reserve: IagoReserve none is refused".into(),
            )),
            _ => Ok(()),
        }
    }
    fn native_notation() -> Option<&'static NativeNotation> {
        Some(&NATIVE)
    }
}

/// Calls `f` with `$rules<GATING, DROPS, X>` as [`rules::type_bits`] reads
/// them from the rule word.
macro_rules! visit_class {
    ($rules:ident, $word:expr, $f:expr) => {{
        match rules::type_bits($word) {
            (true, true, false) => $f.visit::<$rules<true, true, false>>(),
            (true, false, false) => $f.visit::<$rules<true, false, false>>(),
            (false, true, false) => $f.visit::<$rules<false, true, false>>(),
            (false, false, false) => $f.visit::<$rules<false, false, false>>(),
            (true, true, true) => $f.visit::<$rules<true, true, true>>(),
            (true, false, true) => $f.visit::<$rules<true, false, true>>(),
            (false, true, true) => $f.visit::<$rules<false, true, true>>(),
            (false, false, true) => $f.visit::<$rules<false, false, true>>(),
        }
    }};
}

/// The rule word of a game of IAGO-B under `rules`.
pub fn rule_word_b(rules: &RuleOptions) -> u32 {
    rules::word(Class::B, rules)
}

/// The rule word of a game of IAGO-C under `rules`.
pub fn rule_word_c(rules: &RuleOptions) -> u32 {
    rules::word(Class::C, rules)
}

/// IAGO-B's type for the rule word `word`.
pub fn visit_b<F: VariantVisitor>(word: u32, f: F) -> F::Out {
    visit_class!(IagoBRules, word, f)
}

/// IAGO-C's type for the rule word `word`.
pub fn visit_c<F: VariantVisitor>(word: u32, f: F) -> F::Out {
    visit_class!(IagoCRules, word, f)
}
