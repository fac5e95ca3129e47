//! The registry of variants: the one place where a variant's name meets its
//! type. Everything else reaches a variant through [`VariantId`] (names,
//! rule options, games) or through the traits its type implements (rules in
//! [`crate::variant::Variant`], the engine's knowledge in
//! [`crate::variants::EngineVariant`]).
//!
//! Adding a variant: write its folder `src/variants/<name>/` (rules in
//! `mod.rs`, evaluation terms in `eval.rs`, its `EngineVariant` impl and
//! `visit` in `engine.rs`), then add one line to the table in `registry!`.

use crate::engine_game::EngineGame;
use crate::game::{AnyGame, Game};
use crate::variants::{EngineVariant, chess, etcetera, historia, iago, ita, ito};

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

/// Something to do with a variant's type: [`VariantId::visit`] calls
/// `visit::<V>()` with the type the id and the rule options select.
pub trait VariantVisitor {
    type Out;
    fn visit<V: EngineVariant>(self) -> Self::Out;
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

    /// A new game from the start position, for the engine (rules, search,
    /// evaluation).
    pub fn engine_game(self, rules: &RuleOptions) -> Box<dyn EngineGame> {
        struct New;
        impl VariantVisitor for New {
            type Out = Box<dyn EngineGame>;
            fn visit<V: EngineVariant>(self) -> Box<dyn EngineGame> {
                Box::new(Game::<V>::default())
            }
        }
        self.visit(rules, New)
    }

    /// A new game from the start position, rules alone (a referee, a random mover).
    pub fn rules_game(self, rules: &RuleOptions) -> Box<dyn AnyGame> {
        struct New;
        impl VariantVisitor for New {
            type Out = Box<dyn AnyGame>;
            fn visit<V: EngineVariant>(self) -> Box<dyn AnyGame> {
                Box::new(Game::<V>::default())
            }
        }
        self.visit(rules, New)
    }
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

/// A new game of `name` for the engine, under the rule options `rules`.
pub fn new_game_with(name: &str, rules: &RuleOptions) -> Option<Box<dyn EngineGame>> {
    VariantId::from_name(name).map(|v| v.engine_game(rules))
}

/// The rule options: the choices the IAGO system's mutable rules and
/// Calvinita leave open. The default is the rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOptions {
    /// IAGO (both classes): reserve pieces may enter by gating (`IagoGating`).
    pub iago_gating: bool,
    /// IAGO (both classes): reserve pieces may be dropped on the own back rank
    /// (`IagoDrops`). IAGO-C's forced placement on the queen's square stays.
    pub iago_drops: bool,
    /// Ita: the Leaper captures by replacement, moving onto the victim like a
    /// cannon (`ItaLeaperCapture replacement`), instead of by igui.
    pub ita_leaper_replacement: bool,
    /// Ita: a Flag on any square of the far rank scores the goal (`ItaGoal
    /// rank`), not only on the enemy Flags' home squares.
    pub ita_rank_goal: bool,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions { iago_gating: true, iago_drops: true, ita_leaper_replacement: false, ita_rank_goal: false }
    }
}

/// One rule option, as the protocol names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleOption {
    IagoGating,
    IagoDrops,
    ItaLeaperCapture,
    ItaGoal,
}

/// How a rule option is set: the protocols print it as an option of this
/// kind (UCI `type check`/`type combo`/`type string`, CECP `-check`/`-combo`/`-string`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    Check { default: bool },
    Combo { default: &'static str, vars: &'static [&'static str] },
    Text { default: &'static str },
}

/// A value a rule option refuses, with the message the protocol prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleValueError(pub String);

impl std::fmt::Display for RuleValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl RuleOption {
    pub const ALL: [RuleOption; 4] =
        [RuleOption::IagoGating, RuleOption::IagoDrops, RuleOption::ItaLeaperCapture, RuleOption::ItaGoal];

    pub fn name(self) -> &'static str {
        match self {
            RuleOption::IagoGating => "IagoGating",
            RuleOption::IagoDrops => "IagoDrops",
            RuleOption::ItaLeaperCapture => "ItaLeaperCapture",
            RuleOption::ItaGoal => "ItaGoal",
        }
    }

    /// The option of this name (case-insensitive), if it is a rule option.
    pub fn from_name(name: &str) -> Option<RuleOption> {
        RuleOption::ALL.into_iter().find(|o| o.name().eq_ignore_ascii_case(name.trim()))
    }

    pub fn kind(self) -> RuleKind {
        match self {
            RuleOption::IagoGating | RuleOption::IagoDrops => RuleKind::Check { default: true },
            RuleOption::ItaLeaperCapture => RuleKind::Combo { default: "igui", vars: &["igui", "replacement"] },
            RuleOption::ItaGoal => RuleKind::Combo { default: "home", vars: &["home", "rank"] },
        }
    }

    /// Sets this option in `rules` from a protocol value: a check takes
    /// `true`/`false` (UCI, USI) or `1`/`0` (CECP), a combo one of its values
    /// (case-insensitive). `rules` is unchanged on an error.
    pub fn apply(self, rules: &mut RuleOptions, value: &str) -> Result<(), RuleValueError> {
        let v = value.trim().to_ascii_lowercase();
        let name = self.name();
        let pick = match self.kind() {
            RuleKind::Check { .. } => match v.as_str() {
                "true" | "1" => 1,
                "false" | "0" => 0,
                _ => return Err(RuleValueError(format!("{name} is true or false"))),
            },
            RuleKind::Combo { vars, .. } => vars
                .iter()
                .position(|x| *x == v)
                .ok_or_else(|| RuleValueError(format!("{name} is {}", vars.join(" or "))))?,
            RuleKind::Text { .. } => return Err(RuleValueError(format!("{name}: no text value is defined"))),
        };
        match self {
            RuleOption::IagoGating => rules.iago_gating = pick == 1,
            RuleOption::IagoDrops => rules.iago_drops = pick == 1,
            RuleOption::ItaLeaperCapture => rules.ita_leaper_replacement = pick == 1,
            RuleOption::ItaGoal => rules.ita_rank_goal = pick == 1,
        }
        Ok(())
    }

    /// The option's value in `rules`, as the protocol writes it.
    pub fn value(self, rules: &RuleOptions) -> String {
        let on = match self {
            RuleOption::IagoGating => rules.iago_gating,
            RuleOption::IagoDrops => rules.iago_drops,
            RuleOption::ItaLeaperCapture => rules.ita_leaper_replacement,
            RuleOption::ItaGoal => rules.ita_rank_goal,
        };
        match self.kind() {
            RuleKind::Check { .. } => on.to_string(),
            RuleKind::Combo { vars, .. } => vars[on as usize].to_string(),
            RuleKind::Text { default } => default.to_string(),
        }
    }

    pub fn concerns(self) -> impl Iterator<Item = VariantId> {
        VariantId::ALL.iter().copied().filter(move |v| v.rule_options().contains(&self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(concerns(RuleOption::IagoGating), ["iago-b", "iago-c"]);
        assert_eq!(concerns(RuleOption::IagoDrops), ["iago-b", "iago-c"]);
        assert_eq!(concerns(RuleOption::ItaLeaperCapture), ["ita"]);
        assert_eq!(concerns(RuleOption::ItaGoal), ["ita"]);
    }

    #[test]
    fn rule_option_values_apply_and_read_back() {
        let d = RuleOptions::default();
        for o in RuleOption::ALL {
            let default = match o.kind() {
                RuleKind::Check { default } => default.to_string(),
                RuleKind::Combo { default, .. } | RuleKind::Text { default } => default.to_string(),
            };
            assert_eq!(o.value(&d), default, "{}", o.name());
            assert_eq!(RuleOption::from_name(&o.name().to_ascii_uppercase()), Some(o));
        }
        let mut r = d;
        RuleOption::IagoDrops.apply(&mut r, " 0 ").unwrap();
        RuleOption::ItaGoal.apply(&mut r, "Rank").unwrap();
        assert_eq!((r.iago_drops, r.ita_rank_goal, r.iago_gating), (false, true, true));
        assert_eq!(RuleOption::ItaGoal.value(&r), "rank");
        let before = r;
        assert_eq!(
            RuleOption::ItaLeaperCapture.apply(&mut r, "jump"),
            Err(RuleValueError("ItaLeaperCapture is igui or replacement".into()))
        );
        assert_eq!(
            RuleOption::IagoGating.apply(&mut r, "yes"),
            Err(RuleValueError("IagoGating is true or false".into()))
        );
        assert_eq!(r, before);
        assert_eq!(RuleOption::from_name("Hash"), None);
    }
}
