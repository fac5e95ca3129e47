//! The registry of variants: the one place where a variant's name meets its
//! type. Everything else reaches a variant through [`VariantId`] (names,
//! rule options, games) or through the traits its type implements (rules in
//! [`crate::variant::Variant`], the engine's knowledge in
//! [`crate::variants::EngineVariant`]).
//!
//! The rule options are the variants' own: each declares them in its
//! folder ([`crate::variants::options`]). A game carries them in one place,
//! its rule word: the variant's `rule_word` packs the options into it, the
//! game's positions hold it ([`Position::rules`]), and the variant's `visit`
//! picks the type from it (a type's const parameters are copies of some of
//! its bits). The registry only composes the two and finds which variants an
//! option concerns.
//!
//! Adding a variant: write its folder `src/variants/<name>/` (rules in
//! `mod.rs`, evaluation terms in `eval.rs`, its `EngineVariant` impl and
//! `visit` in `engine.rs`), then add one line to the table in `registry!`.

use crate::engine_game::EngineGame;
use crate::game::{AnyGame, Game};
use crate::position::Position;
pub use crate::variants::VariantVisitor;
pub use crate::variants::options::{RuleKind, RuleOption, RuleOptions, RuleValueError};
use crate::variants::{ClockModes, EngineVariant, NativeNotation, chess, etcetera, historia, iago, ita, ito};

/// Writes [`VariantId`] from the table below: the enum, `ALL`, `name`,
/// `rule_word` (the variant's own, where it has rule options; 0 where it has
/// none) and `visit_word` (one arm per variant, calling the variant's own
/// `visit`, which picks its type from the rule word).
macro_rules! registry {
    ($($(#[$doc:meta])* $id:ident = $name:literal => $visit:path $([rule_word: $word:path])?),* $(,)?) => {
        /// A variant the engine plays.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum VariantId {
            $($(#[$doc])* $id),*
        }

        impl VariantId {
            /// Every variant, the default first.
            pub const ALL: &'static [VariantId] = &[$(VariantId::$id),*];

            /// The `UCI_Variant` name (the type's `Variant::NAME`: a test checks they agree).
            pub const fn name(self) -> &'static str {
                match self {
                    $(VariantId::$id => $name),*
                }
            }

            /// The rule word of a game of this variant under the rule options
            /// `rules` (options that do not concern the variant are ignored):
            /// every rule option's value as the variant's rules read it, in
            /// the game's positions ([`Position::rules`]). Two sets of rule
            /// options with the same word are the same game.
            pub fn rule_word(self, rules: &RuleOptions) -> u32 {
                match self {
                    $(VariantId::$id => registry!(@word rules $($word)?)),*
                }
            }

            /// Calls `f` with the variant's type for the rule word `word`
            /// (the variant's `visit`: its type's const parameters are bits
            /// of the word, each combination its own monomorphised type).
            pub fn visit_word<F: VariantVisitor>(self, word: u32, f: F) -> F::Out {
                match self {
                    $(VariantId::$id => $visit(word, f)),*
                }
            }
        }
    };
    (@word $rules:ident) => { 0 };
    (@word $rules:ident $word:path) => { $word($rules) };
}

registry! {
    /// FIDE chess (IAGO A-class), the default.
    Chess = "chess" => chess::visit,
    /// IAGO chess, B-class: Marshall and Cardinal in reserve.
    IagoB = "iago-b" => iago::visit_b [rule_word: iago::rule_word_b],
    /// IAGO chess, C-class: Queen, Marshall and Cardinal in reserve.
    IagoC = "iago-c" => iago::visit_c [rule_word: iago::rule_word_c],
    HistoriaSako = "historia-sako" => historia::visit,
    Ita = "ita" => ita::visit [rule_word: ita::rule_word],
    ItoShogi = "ito-shogi" => ito::visit,
    Etcetera = "etcetera" => etcetera::visit,
}

impl VariantId {
    pub fn from_name(name: &str) -> Option<VariantId> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }

    /// Calls `f` with the variant's type under the rule options `rules`:
    /// the type [`VariantId::visit_word`] picks from their rule word.
    pub fn visit<F: VariantVisitor>(self, rules: &RuleOptions, f: F) -> F::Out {
        self.visit_word(self.rule_word(rules), f)
    }

    /// The rule options that concern this variant.
    pub fn rule_options(self) -> &'static [RuleOption] {
        struct Options;
        impl VariantVisitor for Options {
            type Out = &'static [RuleOption];
            fn visit<V: EngineVariant>(self) -> &'static [RuleOption] {
                V::RULE_OPTIONS
            }
        }
        self.visit(&RuleOptions::default(), Options)
    }

    /// Whether this variant can be played under `rules` (a rule option's
    /// value may suit one variant it concerns and not another).
    pub fn check_rules(self, rules: &RuleOptions) -> Result<(), RuleValueError> {
        struct Check(u32);
        impl VariantVisitor for Check {
            type Out = Result<(), RuleValueError>;
            fn visit<V: EngineVariant>(self) -> Result<(), RuleValueError> {
                V::check_rules(self.0)
            }
        }
        let word = self.rule_word(rules);
        self.visit_word(word, Check(word))
    }

    /// A new game from the start position, for the engine (rules, search,
    /// evaluation).
    pub fn engine_game(self, rules: &RuleOptions) -> Box<dyn EngineGame> {
        struct New(u32);
        impl VariantVisitor for New {
            type Out = Box<dyn EngineGame>;
            fn visit<V: EngineVariant>(self) -> Box<dyn EngineGame> {
                Box::new(Game::<V>::new(Position::startpos_with(self.0)))
            }
        }
        let word = self.rule_word(rules);
        self.visit_word(word, New(word))
    }

    /// A new game from the start position, rules alone (a referee, a random mover).
    pub fn rules_game(self, rules: &RuleOptions) -> Box<dyn AnyGame> {
        struct New(u32);
        impl VariantVisitor for New {
            type Out = Box<dyn AnyGame>;
            fn visit<V: EngineVariant>(self) -> Box<dyn AnyGame> {
                Box::new(Game::<V>::new(Position::startpos_with(self.0)))
            }
        }
        let word = self.rule_word(rules);
        self.visit_word(word, New(word))
    }
}

/// What each variant declares beyond its rule options, in the registry's
/// order: its native notation and its clock modes.
fn declared() -> impl Iterator<Item = (Option<&'static NativeNotation>, Option<&'static ClockModes>)> {
    struct Declared;
    impl VariantVisitor for Declared {
        type Out = (Option<&'static NativeNotation>, Option<&'static ClockModes>);
        fn visit<V: EngineVariant>(self) -> Self::Out {
            (V::native_notation(), V::clock_modes())
        }
    }
    VariantId::ALL.iter().map(|v| v.visit(&RuleOptions::default(), Declared))
}

/// The native notations the variants declare, each once, in the registry's
/// order (see [`NativeNotation`] for how each is chosen and applied).
pub fn native_notations() -> Vec<&'static NativeNotation> {
    let mut out: Vec<&'static NativeNotation> = Vec::new();
    for n in declared().filter_map(|d| d.0) {
        if !out.iter().any(|o| o.option == n.option) {
            out.push(n);
        }
    }
    out
}

/// The clock modes the variants declare, each once, in the registry's
/// order: each is an engine option (a combo of its modes).
pub fn clock_modes() -> Vec<&'static ClockModes> {
    let mut out: Vec<&'static ClockModes> = Vec::new();
    for c in declared().filter_map(|d| d.1) {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Names of the variants the engine plays, default first.
pub const VARIANTS: &[&str] = &{
    let mut names = [""; VariantId::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = VariantId::ALL[i].name();
        i += 1;
    }
    names
};

/// A new game of `name` under the rulings (rules alone).
pub fn new_game(name: &str) -> Option<Box<dyn AnyGame>> {
    VariantId::from_name(name).map(|v| v.rules_game(&RuleOptions::default()))
}

/// A new game of `name` under the rule options `rules` (rules alone: a referee).
pub fn new_game_with_rules(name: &str, rules: &RuleOptions) -> Option<Box<dyn AnyGame>> {
    VariantId::from_name(name).map(|v| v.rules_game(rules))
}

/// A new game of `name` for the engine, under the rule options `rules`.
pub fn new_game_with(name: &str, rules: &RuleOptions) -> Option<Box<dyn EngineGame>> {
    VariantId::from_name(name).map(|v| v.engine_game(rules))
}

impl RuleOption {
    /// Every rule option: those the variants declare (`EngineVariant::RULE_OPTIONS`),
    /// in the registry's order, each once.
    pub fn all() -> impl Iterator<Item = RuleOption> {
        let mut seen: Vec<RuleOption> = Vec::new();
        for v in VariantId::ALL {
            for &o in v.rule_options() {
                if !seen.contains(&o) {
                    seen.push(o);
                }
            }
        }
        seen.into_iter()
    }

    /// The option of this name (case-insensitive), if it is a rule option.
    pub fn from_name(name: &str) -> Option<RuleOption> {
        RuleOption::all().find(|o| o.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The variants that declare this option.
    pub fn concerns(self) -> impl Iterator<Item = VariantId> {
        VariantId::ALL.iter().copied().filter(move |v| v.rule_options().contains(&self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{iago, ita};

    #[test]
    fn names_and_ids_agree() {
        let names: Vec<&str> = VariantId::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(names, VARIANTS);
        struct Name;
        impl VariantVisitor for Name {
            type Out = &'static str;
            fn visit<V: EngineVariant>(self) -> &'static str {
                V::NAME
            }
        }
        for &v in VariantId::ALL {
            assert_eq!(v.visit(&RuleOptions::default(), Name), v.name());
            assert_eq!(VariantId::from_name(v.name()), Some(v));
            assert_eq!(v.engine_game(&RuleOptions::default()).variant(), v.name());
        }
        assert_eq!(VariantId::from_name("shogi"), None);
    }

    #[test]
    fn rule_options_name_their_variants() {
        let concerns = |o: RuleOption| o.concerns().map(VariantId::name).collect::<Vec<_>>();
        for &o in iago::options::RULE_OPTIONS {
            assert_eq!(concerns(o), ["iago-b", "iago-c"], "{}", o.name());
        }
        assert_eq!(concerns(ita::options::LEAPER_CAPTURE), ["ita"]);
        assert_eq!(concerns(ita::options::GOAL), ["ita"]);
        let declared: Vec<&str> =
            native_notations().iter().map(|n| n.option).chain(clock_modes().iter().map(|c| c.option)).collect();
        assert_eq!(declared, ["IagoNotation", "ItaNotation", "ItaTimeMode"]);
        // A native notation the position writes is chosen by the rule option
        // of its name, with its values.
        for n in native_notations() {
            if let crate::variants::NativeWriter::Position(o) = n.writer {
                assert_eq!(o.name(), n.option);
                assert_eq!(o.kind(), RuleKind::Combo { default: n.values[0], vars: &n.values });
                assert!(RuleOption::all().any(|r| r == o), "{}", n.option);
            }
        }
        let names: Vec<&str> = RuleOption::all().map(RuleOption::name).collect();
        assert_eq!(
            names,
            [
                "IagoGating",
                "IagoDrops",
                "IagoReserve",
                "IagoPromotion",
                "IagoBareKing",
                "IagoCastlingGates",
                "IagoNotation",
                "ItaLeaperCapture",
                "ItaGoal"
            ]
        );
    }

    #[test]
    fn rule_option_values_apply_and_read_back() {
        let d = RuleOptions::default();
        for o in RuleOption::all() {
            let default = match o.kind() {
                RuleKind::Check { default } => default.to_string(),
                RuleKind::Combo { default, .. } | RuleKind::Text { default } => default.to_string(),
            };
            assert_eq!(o.value(&d), default, "{}", o.name());
            assert_eq!(RuleOption::from_name(&o.name().to_ascii_uppercase()), Some(o));
        }
        let mut r = d;
        iago::options::DROPS.apply(&mut r, " 0 ").unwrap();
        ita::options::GOAL.apply(&mut r, "Rank").unwrap();
        assert_eq!((r.iago.drops, r.ita.rank_goal, r.iago.gating), (false, true, true));
        assert_eq!(ita::options::GOAL.value(&r), "rank");
        let before = r;
        assert_eq!(
            ita::options::LEAPER_CAPTURE.apply(&mut r, "jump"),
            Err(RuleValueError("ItaLeaperCapture is igui or replacement".into()))
        );
        assert_eq!(
            iago::options::GATING.apply(&mut r, "yes"),
            Err(RuleValueError("IagoGating is true or false".into()))
        );
        assert_eq!(r, before);
        assert_eq!(RuleOption::from_name("Hash"), None);
    }

    /// Each variant's time plan: Stockfish's in the chess family (in IAGO
    /// every type a rule word picks, the run-time rules' included), the
    /// even plan over 15 moves in Ita's short games and over 30 elsewhere.
    #[test]
    fn each_variant_spends_its_clock_by_its_plan() {
        use crate::timeman::TimePlan;
        struct Plan;
        impl VariantVisitor for Plan {
            type Out = TimePlan;
            fn visit<V: EngineVariant>(self) -> TimePlan {
                V::TIME_PLAN
            }
        }
        let (gating, drops) = (iago::rules::NO_GATING, iago::rules::NO_DROPS);
        for &id in VariantId::ALL {
            let expected = match id {
                VariantId::Chess | VariantId::IagoB | VariantId::IagoC => TimePlan::ByPly,
                VariantId::Ita => TimePlan::Even { moves: 15 },
                _ => TimePlan::Even { moves: 30 },
            };
            for type_bits in [0, gating, drops, gating | drops] {
                for run_time in [0, 1] {
                    let word = id.rule_word(&RuleOptions::default()) | type_bits | run_time;
                    assert_eq!(id.visit_word(word, Plan), expected, "{} word {word:#x}", id.name());
                }
            }
        }
    }

    /// Every rule option lives in the rule word: two sets of options are the
    /// same game exactly when their words agree, and the type each variant
    /// picks from a word is compiled for the word's bits (`TYPE_WORD`).
    #[test]
    fn the_rule_word_carries_every_option_and_picks_the_type() {
        struct TypeOf;
        impl VariantVisitor for TypeOf {
            type Out = (u32, &'static str, usize);
            fn visit<V: EngineVariant>(self) -> Self::Out {
                (V::TYPE_WORD, std::any::type_name::<V>(), V::PIECES.len())
            }
        }
        let with = |set: &[(RuleOption, &str)]| {
            let mut r = RuleOptions::default();
            for (o, v) in set {
                o.apply(&mut r, v).unwrap();
            }
            r
        };
        // Ita: one bit each, both copied into the type.
        let mut ita = Vec::new();
        for (leaper, goal) in [("igui", "home"), ("replacement", "home"), ("igui", "rank"), ("replacement", "rank")] {
            let r = with(&[(ita::options::LEAPER_CAPTURE, leaper), (ita::options::GOAL, goal)]);
            let word = VariantId::Ita.rule_word(&r);
            let (type_word, name, _) = VariantId::Ita.visit_word(word, TypeOf);
            assert_eq!(type_word, word);
            ita.push((word, name.rsplit("::").next().unwrap_or_default().to_string()));
        }
        let names =
            ["ItaRules<false, false>", "ItaRules<true, false>", "ItaRules<false, true>", "ItaRules<true, true>"];
        assert_eq!(ita, (0..4).zip(names.map(String::from)).collect::<Vec<_>>());
        // IAGO: gating and drops are the type's bits; any other rule
        // selects the types that read the word (`X`); the notation, no rule,
        // rides in the word and picks no type.
        let (b, gating, drops) = (VariantId::IagoB, iago::rules::NO_GATING, iago::rules::NO_DROPS);
        let mut seen = Vec::new();
        for g in ["true", "false"] {
            for d in ["true", "false"] {
                for k in ["false", "true"] {
                    let mut types = Vec::new();
                    for n in ["uci", "iago"] {
                        let r = with(&[
                            (iago::options::GATING, g),
                            (iago::options::DROPS, d),
                            (iago::options::BARE_KING, k),
                            (iago::options::NOTATION, n),
                        ]);
                        let word = b.rule_word(&r);
                        let (type_word, name, pieces) = b.visit_word(word, TypeOf);
                        assert_eq!(type_word, word & (gating | drops), "{name}");
                        assert_eq!(word & iago::rules::NOTATION != 0, n == "iago");
                        // The types with `X` know the Amazon.
                        assert_eq!(pieces, if k == "true" { 9 } else { 8 }, "{name}");
                        types.push(name);
                    }
                    assert_eq!(types[0], types[1], "the notation picks no type");
                    seen.push(types[0]);
                }
            }
        }
        seen.dedup();
        assert_eq!(seen.len(), 8);
        // The class's own reserve given is the rulings: the same word.
        let own = with(&[(iago::options::RESERVE, "mc")]);
        assert_eq!(
            (b.rule_word(&own), VariantId::IagoC.rule_word(&own)),
            (0, iago::rules::word(iago::rules::Class::C, &own))
        );
        assert_ne!(VariantId::IagoC.rule_word(&own), 0);
        // Variants without rule options: word 0 whatever is set.
        let all = with(&[(iago::options::GATING, "false"), (ita::options::GOAL, "rank")]);
        assert_eq!(VariantId::Chess.rule_word(&all), 0);
    }

    #[test]
    fn an_empty_reserve_suits_iago_b_only() {
        let mut r = RuleOptions::default();
        iago::options::RESERVE.apply(&mut r, "None").unwrap();
        assert_eq!(r.iago.reserve, Some(0));
        assert_eq!(iago::options::RESERVE.value(&r), "none");
        assert_eq!(VariantId::IagoB.check_rules(&r), Ok(()));
        assert_eq!(
            VariantId::IagoC.check_rules(&r),
            Err(RuleValueError("iago-c fills the queen's square from the reserve: IagoReserve none is refused".into()))
        );
        assert_eq!(VariantId::IagoC.check_rules(&RuleOptions::default()), Ok(()));
        assert_eq!(VariantId::Chess.check_rules(&r), Ok(()));
        assert_eq!(
            VariantId::IagoB.engine_game(&r).start_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQBCDFGkqbcdfg - 0 1"
        );
    }
}
