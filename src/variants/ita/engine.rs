//! What the engine knows of Ita beyond its rules: bench positions, the rule
//! options, the regenerating clocks, the native square names, what XBoard
//! must be told differently, and the registry's choice of type by the rule
//! word.

use super::options::{WORD_RANK_GOAL, WORD_REPLACEMENT};
use super::{FLAG, ItaRules, ItaTimeMode, notation};
use crate::bitboard::Bits;
use crate::geometry::{Board10x10, Geometry};
use crate::position::Position;
use crate::search::skill::{self, Skill};
use crate::timeman::{Limits, TimePlan};
use crate::variant::{BLACK, Variant, WHITE};
use crate::variants::{
    ClockModes, EngineVariant, NativeNotation, NativeWriter, RuleOption, SquareNames, VariantVisitor,
};
use crate::wdl::WdlModel;

/// Ita's native square names: an engine option the protocol applies.
static NATIVE: NativeNotation = NativeNotation {
    option: "ItaNotation",
    values: ["canonical", "native"],
    writer: NativeWriter::Squares(SquareNames {
        file_names: &notation::NATIVE_FILES,
        move_to_native: notation::move_to_native,
        move_to_canonical: notation::move_to_canonical,
    }),
};

impl<const R: bool, const G: bool> EngineVariant for ItaRules<R, G> {
    const PIECE_MOVES: &'static [(&'static str, &'static str)] =
        if R { &super::PIECE_MOVES_REPLACEMENT } else { &super::PIECE_MOVES };
    const RULES_NOTE: &'static str = super::RULES_NOTE;
    /// The win-rate model of `UCI_ShowWDL`, fitted to self-play games (docs/wdl.md).
    const WDL: WdlModel = WdlModel { a: 0.0, b: 290.3 };
    /// The clock shared over 15 moves: an Ita game is short (about 25
    /// moves a side at 10 s + 0.1 s), and planned over 30 it left two
    /// thirds of the clock unspent (docs/measurements.md, "Ita's clock").
    const TIME_PLAN: TimePlan = TimePlan::Even { moves: 15 };
    const BENCH: &'static [&'static str] = &[
        "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SS1L2/B2RFFR2B w e1ac,f1ac,e10ac,f10ac - 0 1",
        "b3ff1s1b/c1l6l/2r4c2/1prs6/1Lpp2pp1p/6P3/P2P3P1P/2CPS1RC2/3RSF1L2/B3F4B w e1ac,f2ac,e10ac,f10ac - 20 11",
        "1l1rff3b/1b2s1rl2/2c4cp1/6ps2/P1pp3p2/10/6PP1P/1PCP1S1C2/4S2L2/3RFF1R1B w e1ac,f1ac,e10ac,f10ac - 2 11",
        "1r2f1r3/3l1f3l/10/9c/s4Lpp1p/10/2C7/9c/4P5/B2RF1R3 w e1ac,f9ac,e10ac - 0 31",
    ];
    const RULE_OPTIONS: &'static [RuleOption] = super::options::RULE_OPTIONS;

    /// The regeneration counts as its average increment per own move.
    fn plan_clock(limits: Limits, time_mode: &str) -> Limits {
        ItaTimeMode::parse(time_mode).map_or(limits.clone(), |m| m.plan(limits))
    }
    fn clock_modes() -> Option<&'static ClockModes> {
        Some(&super::CLOCK_MODES)
    }
    /// The levels below 0 choose among a quarter more lines (level -10: 20
    /// of its 16): with the table's lines the lowest level still beat a
    /// beginner (`calvin-random --greedy`) 74-25-1 in 100 games, since its
    /// cap, which makes a decided score pair worth no more than two pawns,
    /// weakens little where every game ends on a score pair (docs/levels.md).
    /// The margin is the table's: every line played is as near the best.
    fn skill(skill: Skill) -> Skill {
        if skill.cap == skill::NO_CAP {
            return skill;
        }
        Skill { lines: skill.lines + skill.lines / 4, ..skill }
    }
    fn native_notation() -> Option<&'static NativeNotation> {
        Some(&NATIVE)
    }
    fn xboard_betza(letter: &str, betza: &str) -> Option<&'static str> {
        match (letter, betza) {
            // The Flag's once-per-game abilities (diagonal step, capture).
            ("F", _) => Some("fWF"),
            // The Leaper's igui capture is a two-leg move XBoard learns from
            // `highlight` (with `ItaLeaperCapture replacement` its Betza is XBoard's own).
            ("L", "mRupR") => Some("mRpcabpR"),
            _ => None,
        }
    }
    /// The Flag abilities are no castling field XBoard can read: left out
    /// (the engine keeps them).
    fn xboard_fen_out(fen: &str) -> String {
        let mut f: Vec<&str> = fen.split_whitespace().collect();
        if f.len() > 2 {
            f[2] = "-";
        }
        f.join(" ")
    }
    /// A rights field `-` (XBoard cannot write the abilities) on a board
    /// where Flags stand on their home squares gives those Flags both
    /// abilities, as at the start.
    fn xboard_fen_in(fen: &str) -> String {
        let mut f: Vec<String> = fen.split_whitespace().map(String::from).collect();
        if f.len() <= 2 || f[2] != "-" {
            return fen.to_string();
        }
        let Ok(mut pos) = Position::<Self>::from_fen(fen) else { return fen.to_string() };
        for (color, rank) in [(WHITE, 0), (BLACK, Board10x10::RANKS - 1)] {
            let home = Board10x10::rank_bb(rank) & (Board10x10::file_bb(4) | Board10x10::file_bb(5));
            let flags = home & pos.pieces(color, FLAG);
            pos.rights[0] |= flags;
            pos.rights[1] |= flags;
        }
        if (pos.rights[0] | pos.rights[1]).any() {
            f[2] = Self::rights_fen(&pos);
        }
        f.join(" ")
    }
}

/// Calls `f` with Ita's type for the rule word `word` (see [`super::options`]):
/// the one place its const parameters are read from the word.
pub fn visit<F: VariantVisitor>(word: u32, f: F) -> F::Out {
    match (word & WORD_REPLACEMENT != 0, word & WORD_RANK_GOAL != 0) {
        (false, false) => f.visit::<ItaRules<false, false>>(),
        (false, true) => f.visit::<ItaRules<false, true>>(),
        (true, false) => f.visit::<ItaRules<true, false>>(),
        (true, true) => f.visit::<ItaRules<true, true>>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::ita::Ita;

    #[test]
    fn xboard_fen_round_trip_keeps_home_flag_abilities() {
        let start = Ita::START_FEN;
        let out = Ita::xboard_fen_out(start);
        assert_eq!(out, "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SS1L2/B2RFFR2B w - - 0 1");
        assert_eq!(Ita::xboard_fen_in(&out), start);
        // A Flag off its home square gets no abilities back.
        let moved = "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SSFL2/B2RF1R2B w - - 0 1";
        assert_eq!(
            Ita::xboard_fen_in(moved),
            "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SSFL2/B2RF1R2B w e1ac,e10ac,f10ac - 0 1"
        );
    }

    /// Below level 0 Ita searches a quarter more lines than the table; the
    /// budget, margin and cap are the table's, and from level 0 up (and
    /// between level -1 and 0 by `UCI_Elo`, where the cap still holds) the
    /// rule is the same.
    #[test]
    fn the_levels_below_0_choose_among_more_lines() {
        let at = |level| Ita::skill(Skill::level(level).expect("a level"));
        assert_eq!(at(-10), Skill { nodes: 1024, lines: 20, margin: 1200, cap: 200 });
        assert_eq!(at(-5), Skill { nodes: 1024, lines: 13, margin: 700, cap: 700 });
        assert_eq!(at(-1), Skill { nodes: 1024, lines: 8, margin: 320, cap: 1100 });
        assert_eq!(at(0), Skill::level(0).expect("level 0"));
        assert_eq!(at(10), Skill::level(10).expect("level 10"));
        let elo = Skill::from_elo(970).expect("between -1 and 0");
        assert_eq!(Ita::skill(elo), Skill { lines: 8, ..elo });
    }

    #[test]
    fn clock_planning_adds_the_regeneration() {
        let l = Limits { wtime: Some(60_000), ..Limits::default() };
        assert_eq!(Ita::plan_clock(l.clone(), "peaceful"), l);
        assert_eq!(Ita::plan_clock(l.clone(), "easy").winc, Some(5 * super::super::DEGREE_MS / 6));
    }
}
