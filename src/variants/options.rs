//! Rule options: the choices a variant's rules leave open. Each variant
//! declares its own ([`crate::variants::EngineVariant::RULE_OPTIONS`]): a
//! name, a kind with its default, what it means, and how a value is read and
//! written in [`RuleOptions`]. The protocols print and set them through this
//! description alone, and the registry finds which variants they concern.
//! A game carries its options in one place, the rule word its variant packs
//! them into (the variant's `rule_word`; [`crate::position::Position::rules`]).

use crate::variants::{iago::IagoOptions, ita::ItaOptions};

/// The rule options of every variant that has any, each variant's in its own
/// field (declared in its folder). The default is the rulings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleOptions {
    pub iago: IagoOptions,
    pub ita: ItaOptions,
}

impl RuleOptions {
    /// Rule options that reach every set of tables a variant keeps (see
    /// `eval_tables!`): the rulings, and each variant's other tables.
    pub fn each_table() -> [RuleOptions; 2] {
        [RuleOptions::default(), RuleOptions { iago: IagoOptions::other_tables(), ..RuleOptions::default() }]
    }
}

/// How a rule option is set: the protocols print it as an option of this
/// kind (UCI `type check`/`type combo`/`type string`, CECP `-check`/`-combo`/`-string`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    Check { default: bool },
    Combo { default: &'static str, vars: &'static [&'static str] },
    Text { default: &'static str },
}

/// How a rule option's value is kept in [`RuleOptions`].
#[derive(Clone, Copy)]
pub enum Access {
    /// A check (0 false, 1 true) or a combo (the index of its value in `vars`).
    Pick { get: fn(&RuleOptions) -> usize, set: fn(&mut RuleOptions, usize) },
    /// A free text, parsed and written by the variant.
    Text { parse: fn(&mut RuleOptions, &str) -> Result<(), RuleValueError>, write: fn(&RuleOptions) -> String },
}

/// One rule option, as a variant declares it.
#[derive(Clone, Copy)]
pub struct RuleOption {
    /// The option's name in every protocol.
    pub name: &'static str,
    pub kind: RuleKind,
    /// What it changes, in a sentence.
    pub meaning: &'static str,
    pub access: Access,
}

/// Options are told apart by name.
impl PartialEq for RuleOption {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}
impl Eq for RuleOption {}

impl std::fmt::Debug for RuleOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
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
    pub fn name(self) -> &'static str {
        self.name
    }

    pub fn kind(self) -> RuleKind {
        self.kind
    }

    /// Sets this option in `rules` from a protocol value: a check takes
    /// `true`/`false` (UCI, USI) or `1`/`0` (CECP), a combo one of its values
    /// (case-insensitive). `rules` is unchanged on an error.
    pub fn apply(self, rules: &mut RuleOptions, value: &str) -> Result<(), RuleValueError> {
        let v = value.trim().to_ascii_lowercase();
        let name = self.name;
        let pick = match self.kind {
            RuleKind::Check { .. } => match v.as_str() {
                "true" | "1" => 1,
                "false" | "0" => 0,
                _ => return Err(RuleValueError(format!("{name} is true or false"))),
            },
            RuleKind::Combo { vars, .. } => vars
                .iter()
                .position(|x| *x == v)
                .ok_or_else(|| RuleValueError(format!("{name} is {}", vars.join(" or "))))?,
            RuleKind::Text { .. } => usize::MAX,
        };
        match self.access {
            Access::Pick { set, .. } if pick != usize::MAX => set(rules, pick),
            Access::Text { parse, .. } if pick == usize::MAX => {
                let mut r = *rules;
                parse(&mut r, value)?;
                *rules = r;
            }
            _ => return Err(RuleValueError(format!("{name}: its kind and its access disagree"))),
        }
        Ok(())
    }

    /// The option's value in `rules`, as the protocol writes it.
    pub fn value(self, rules: &RuleOptions) -> String {
        match (self.access, self.kind) {
            (Access::Text { write, .. }, _) => write(rules),
            (Access::Pick { get, .. }, RuleKind::Check { .. }) => (get(rules) == 1).to_string(),
            (Access::Pick { get, .. }, RuleKind::Combo { vars, .. }) => vars.get(get(rules)).unwrap_or(&"").to_string(),
            (Access::Pick { .. }, RuleKind::Text { default }) => default.to_string(),
        }
    }
}
