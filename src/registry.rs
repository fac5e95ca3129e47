//! The registry of variants: the one place where a variant's name meets its
//! type. Everything else reaches a variant through [`VariantId`] (names,
//! rule options, games) or through the traits its type implements (rules in
//! [`crate::variant::Variant`], the engine's knowledge in
//! [`crate::variants::EngineVariant`]).
//!
//! The rule options are the variants' own: each declares them in its
//! folder ([`crate::variants::options`]); the registry only finds which
//! variants an option concerns.
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

/// Writes [`VariantId`] from the table below: the enum, `ALL`, `name` and
/// `visit` (one arm per variant, calling the variant's own `visit`, which
/// picks its type by the rule options that concern it).
macro_rules! registry {
    ($($(#[$doc:meta])* $id:ident = $name:literal => $visit:path),* $(,)?) => {
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

            /// Calls `f` with the variant's type under the rule options `rules`
            /// (options that do not concern the variant are ignored; each
            /// combination of a variant's options is its own monomorphised type).
            pub fn visit<F: VariantVisitor>(self, rules: &RuleOptions, f: F) -> F::Out {
                match self {
                    $(VariantId::$id => $visit(rules, f)),*
                }
            }
        }
    };
}

registry! {
    /// FIDE chess (IAGO A-class), the default.
    Chess = "chess" => chess::visit,
    /// IAGO chess, B-class: Marshall and Cardinal in reserve.
    IagoB = "iago-b" => iago::visit_b,
    /// IAGO chess, C-class: Queen, Marshall and Cardinal in reserve.
    IagoC = "iago-c" => iago::visit_c,
    HistoriaSako = "historia-sako" => historia::visit,
    Ita = "ita" => ita::visit,
    ItoShogi = "ito-shogi" => ito::visit,
    Etcetera = "etcetera" => etcetera::visit,
}

impl VariantId {
    pub fn from_name(name: &str) -> Option<VariantId> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
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
        struct Check<'a>(&'a RuleOptions);
        impl VariantVisitor for Check<'_> {
            type Out = Result<(), RuleValueError>;
            fn visit<V: EngineVariant>(self) -> Result<(), RuleValueError> {
                V::check_rules(self.0)
            }
        }
        self.visit(rules, Check(rules))
    }

    /// What makes two sets of rule options the same game of this variant:
    /// the type they select and the rule word it starts with (so `IagoReserve
    /// MC` in iago-b is the rulings, as the option left alone).
    pub fn rules_identity(self, rules: &RuleOptions) -> (&'static str, u32) {
        struct Identity(RuleOptions);
        impl VariantVisitor for Identity {
            type Out = (&'static str, u32);
            fn visit<V: EngineVariant>(self) -> (&'static str, u32) {
                (std::any::type_name::<V>(), V::rule_word(&self.0))
            }
        }
        self.visit(rules, Identity(*rules))
    }

    /// A new game from the start position, for the engine (rules, search,
    /// evaluation).
    pub fn engine_game(self, rules: &RuleOptions) -> Box<dyn EngineGame> {
        struct New(RuleOptions);
        impl VariantVisitor for New {
            type Out = Box<dyn EngineGame>;
            fn visit<V: EngineVariant>(self) -> Box<dyn EngineGame> {
                Box::new(Game::<V>::new(Position::startpos_with(V::rule_word(&self.0))))
            }
        }
        self.visit(rules, New(*rules))
    }

    /// A new game from the start position, rules alone (a referee, a random mover).
    pub fn rules_game(self, rules: &RuleOptions) -> Box<dyn AnyGame> {
        struct New(RuleOptions);
        impl VariantVisitor for New {
            type Out = Box<dyn AnyGame>;
            fn visit<V: EngineVariant>(self) -> Box<dyn AnyGame> {
                Box::new(Game::<V>::new(Position::startpos_with(V::rule_word(&self.0))))
            }
        }
        self.visit(rules, New(*rules))
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
/// order: each is an engine option (`canonical` or `native`).
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
        let engine_options: Vec<&str> =
            native_notations().iter().map(|n| n.option).chain(clock_modes().iter().map(|c| c.option)).collect();
        assert_eq!(engine_options, ["ItaNotation", "ItaTimeMode"]);
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
