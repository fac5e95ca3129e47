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
use crate::position::Position;
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

/// The rule options: the choices the IAGO system's mutable rules and
/// Calvinita leave open. The default is the rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOptions {
    /// IAGO (both classes): reserve pieces may enter by gating (`IagoGating`).
    pub iago_gating: bool,
    /// IAGO (both classes): reserve pieces may be dropped on the own back rank
    /// (`IagoDrops`). IAGO-C's forced placement on the queen's square stays.
    pub iago_drops: bool,
    /// IAGO: the pieces each side holds in reserve at the start, as a set of
    /// [`RESERVE_LETTERS`] (bit `i`: letter `i`); `None`: the class's own
    /// (`MC` in iago-b, `QMC` in iago-c) (`IagoReserve`).
    pub iago_reserve: Option<u8>,
    /// IAGO: what a pawn may promote to (`IagoPromotion`).
    pub iago_promotion: IagoPromotion,
    /// IAGO: a side left with a bare king loses (`IagoBareKing`); results
    /// carry the seed's points.
    pub iago_bare_king: bool,
    /// IAGO: castling may gate a reserve piece (`IagoCastlingGates`).
    pub iago_castling_gates: bool,
    /// IAGO: moves are written and read in the seed's own notation
    /// (`Bc1-e3&C`, `&Me1`) (`IagoNotation iago`).
    pub iago_notation: bool,
    /// Ita: the Leaper captures by replacement, moving onto the victim like a
    /// cannon (`ItaLeaperCapture replacement`), instead of by igui.
    pub ita_leaper_replacement: bool,
    /// Ita: a Flag on any square of the far rank scores the goal (`ItaGoal
    /// rank`), not only on the enemy Flags' home squares.
    pub ita_rank_goal: bool,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            iago_gating: true,
            iago_drops: true,
            iago_reserve: None,
            iago_promotion: IagoPromotion::Equipment,
            iago_bare_king: false,
            iago_castling_gates: false,
            iago_notation: false,
            ita_leaper_replacement: false,
            ita_rank_goal: false,
        }
    }
}

impl RuleOptions {
    /// Rule options that reach every set of tables a variant keeps (see
    /// `eval_tables!`): the rulings, and IAGO's other rules (the Amazon's
    /// piece type; `IagoNotation` alone selects them).
    pub fn each_table() -> [RuleOptions; 2] {
        [RuleOptions::default(), RuleOptions { iago_notation: true, ..RuleOptions::default() }]
    }
}

/// The letters of `IagoReserve`, in the order its value is written: Queen,
/// Marshall, Cardinal, Amazon (Empress).
pub const RESERVE_LETTERS: [char; 4] = ['Q', 'M', 'C', 'A'];

/// What an IAGO pawn may promote to (`IagoPromotion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IagoPromotion {
    /// A type of which fewer stand on the board than the equipment holds.
    Equipment,
    /// Only a type still in reserve, using it up.
    ReserveOnly,
    /// Any of Q R B N and any type of the starting reserve, without limit;
    /// the reserve is untouched.
    Fide,
}

/// One rule option, as the protocol names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleOption {
    IagoGating,
    IagoDrops,
    IagoReserve,
    IagoPromotion,
    IagoBareKing,
    IagoCastlingGates,
    IagoNotation,
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
    /// Every rule option: those the variants name (`EngineVariant::RULE_OPTIONS`),
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

    pub fn name(self) -> &'static str {
        match self {
            RuleOption::IagoGating => "IagoGating",
            RuleOption::IagoDrops => "IagoDrops",
            RuleOption::IagoReserve => "IagoReserve",
            RuleOption::IagoPromotion => "IagoPromotion",
            RuleOption::IagoBareKing => "IagoBareKing",
            RuleOption::IagoCastlingGates => "IagoCastlingGates",
            RuleOption::IagoNotation => "IagoNotation",
            RuleOption::ItaLeaperCapture => "ItaLeaperCapture",
            RuleOption::ItaGoal => "ItaGoal",
        }
    }

    /// The option of this name (case-insensitive), if it is a rule option.
    pub fn from_name(name: &str) -> Option<RuleOption> {
        RuleOption::all().find(|o| o.name().eq_ignore_ascii_case(name.trim()))
    }

    pub fn kind(self) -> RuleKind {
        match self {
            RuleOption::IagoGating | RuleOption::IagoDrops => RuleKind::Check { default: true },
            RuleOption::IagoBareKing | RuleOption::IagoCastlingGates => RuleKind::Check { default: false },
            RuleOption::IagoReserve => RuleKind::Text { default: "default" },
            RuleOption::IagoPromotion => {
                RuleKind::Combo { default: "equipment", vars: &["equipment", "reserve-only", "fide"] }
            }
            RuleOption::ItaLeaperCapture => RuleKind::Combo { default: "igui", vars: &["igui", "replacement"] },
            RuleOption::ItaGoal => RuleKind::Combo { default: "home", vars: &["home", "rank"] },
            RuleOption::IagoNotation => RuleKind::Combo { default: "uci", vars: &["uci", "iago"] },
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
            RuleKind::Text { .. } => {
                rules.iago_reserve = parse_reserve(value)?;
                return Ok(());
            }
        };
        match self {
            RuleOption::IagoGating => rules.iago_gating = pick == 1,
            RuleOption::IagoDrops => rules.iago_drops = pick == 1,
            RuleOption::IagoReserve => {}
            RuleOption::IagoPromotion => {
                rules.iago_promotion = [IagoPromotion::Equipment, IagoPromotion::ReserveOnly, IagoPromotion::Fide][pick]
            }
            RuleOption::IagoBareKing => rules.iago_bare_king = pick == 1,
            RuleOption::IagoCastlingGates => rules.iago_castling_gates = pick == 1,
            RuleOption::IagoNotation => rules.iago_notation = pick == 1,
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
            RuleOption::IagoReserve => return write_reserve(rules.iago_reserve),
            RuleOption::IagoPromotion => {
                return ["equipment", "reserve-only", "fide"][rules.iago_promotion as usize].to_string();
            }
            RuleOption::IagoBareKing => rules.iago_bare_king,
            RuleOption::IagoCastlingGates => rules.iago_castling_gates,
            RuleOption::IagoNotation => rules.iago_notation,
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

/// `IagoReserve`'s value: `default`, `none` (an empty reserve), or letters
/// of [`RESERVE_LETTERS`] each at most once, in any order and case. IAGO-C
/// refuses an empty reserve (its queen's square is filled from it): see
/// [`VariantId::check_rules`].
fn parse_reserve(value: &str) -> Result<Option<u8>, RuleValueError> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("default") {
        return Ok(None);
    }
    if v.eq_ignore_ascii_case("none") {
        return Ok(Some(0));
    }
    let err =
        || RuleValueError(format!("IagoReserve is default, none or letters from QMCA, each at most once (not '{v}')"));
    let mut set = 0u8;
    for c in v.chars() {
        let i = RESERVE_LETTERS.iter().position(|&l| l == c.to_ascii_uppercase()).ok_or_else(err)?;
        if set & 1 << i != 0 {
            return Err(err());
        }
        set |= 1 << i;
    }
    if set == 0 {
        return Err(err());
    }
    Ok(Some(set))
}

fn write_reserve(reserve: Option<u8>) -> String {
    match reserve {
        None => "default".to_string(),
        Some(0) => "none".to_string(),
        Some(set) => RESERVE_LETTERS.iter().enumerate().filter(|(i, _)| set & 1 << i != 0).map(|(_, c)| c).collect(),
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
        for o in [
            RuleOption::IagoReserve,
            RuleOption::IagoPromotion,
            RuleOption::IagoBareKing,
            RuleOption::IagoCastlingGates,
        ] {
            assert_eq!(concerns(o), ["iago-b", "iago-c"]);
        }
        assert_eq!(concerns(RuleOption::ItaLeaperCapture), ["ita"]);
        assert_eq!(concerns(RuleOption::ItaGoal), ["ita"]);
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

    #[test]
    fn an_empty_reserve_suits_iago_b_only() {
        let mut r = RuleOptions::default();
        RuleOption::IagoReserve.apply(&mut r, "None").unwrap();
        assert_eq!(r.iago_reserve, Some(0));
        assert_eq!(RuleOption::IagoReserve.value(&r), "none");
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
