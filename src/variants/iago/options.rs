//! The IAGO rule options (both classes): the choices the IAGO system's
//! mutable rules leave open, as the protocols name and set them. A game
//! carries them in its rule word ([`super::rules`]).

use crate::variants::options::{Access, RuleKind, RuleOption, RuleValueError};

/// The IAGO rule options' values. The default is the rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IagoOptions {
    /// Reserve pieces may enter by gating (`IagoGating`).
    pub gating: bool,
    /// Reserve pieces may be dropped on the own back rank (`IagoDrops`).
    /// IAGO-C's forced placement on the queen's square stays.
    pub drops: bool,
    /// The pieces each side holds in reserve at the start, as a set of
    /// [`RESERVE_LETTERS`] (bit `i`: letter `i`); `None`: the class's own
    /// (`MC` in iago-b, `QMC` in iago-c) (`IagoReserve`).
    pub reserve: Option<u8>,
    /// What a pawn may promote to (`IagoPromotion`).
    pub promotion: IagoPromotion,
    /// A side left with a bare king loses (`IagoBareKing`); results carry
    /// the seed's points.
    pub bare_king: bool,
    /// Castling may gate a reserve piece (`IagoCastlingGates`).
    pub castling_gates: bool,
    /// Moves are written and read in the seed's own notation (`Bc1-e3&C`,
    /// `&Me1`) (`IagoNotation iago`).
    pub notation: bool,
}

impl Default for IagoOptions {
    fn default() -> Self {
        IagoOptions {
            gating: true,
            drops: true,
            reserve: None,
            promotion: IagoPromotion::Equipment,
            bare_king: false,
            castling_gates: false,
            notation: false,
        }
    }
}

impl IagoOptions {
    /// Options that select IAGO's other tables (the Amazon's piece type;
    /// `IagoBareKing` alone selects them).
    pub fn other_tables() -> IagoOptions {
        IagoOptions { bare_king: true, ..IagoOptions::default() }
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

const PROMOTIONS: [IagoPromotion; 3] = [IagoPromotion::Equipment, IagoPromotion::ReserveOnly, IagoPromotion::Fide];

/// A check over one of [`IagoOptions`]' flags.
macro_rules! check {
    ($name:literal, $default:literal, $field:ident, $meaning:literal) => {
        RuleOption {
            name: $name,
            kind: RuleKind::Check { default: $default },
            meaning: $meaning,
            access: Access::Pick { get: |r| r.iago.$field as usize, set: |r, v| r.iago.$field = v == 1 },
        }
    };
}

pub const GATING: RuleOption = check!("IagoGating", true, gating, "reserve pieces may enter by gating");
pub const DROPS: RuleOption = check!("IagoDrops", true, drops, "reserve pieces may be dropped on the own back rank");
pub const RESERVE: RuleOption = RuleOption {
    name: "IagoReserve",
    kind: RuleKind::Text { default: "default" },
    meaning: "the pieces each side holds in reserve at the start",
    access: Access::Text {
        parse: |r, v| parse_reserve(v).map(|s| r.iago.reserve = s),
        write: |r| write_reserve(r.iago.reserve),
    },
};
pub const PROMOTION: RuleOption = RuleOption {
    name: "IagoPromotion",
    kind: RuleKind::Combo { default: "equipment", vars: &["equipment", "reserve-only", "fide"] },
    meaning: "what a pawn may promote to",
    access: Access::Pick { get: |r| r.iago.promotion as usize, set: |r, v| r.iago.promotion = PROMOTIONS[v] },
};
pub const BARE_KING: RuleOption = check!("IagoBareKing", false, bare_king, "a side left with a bare king loses");
pub const CASTLING_GATES: RuleOption =
    check!("IagoCastlingGates", false, castling_gates, "castling may gate a reserve piece");
/// `IagoNotation`'s values: the canonical notation, then the seed's.
pub const NOTATION_VALUES: [&str; 2] = ["uci", "iago"];
/// The seed's notation (the variant's native notation, declared in
/// `engine.rs`): a rule option only because the rule word is what carries
/// it to every place a move becomes text (`docs/design.md`, "Native
/// notation"); it changes no rule.
pub const NOTATION: RuleOption = RuleOption {
    name: "IagoNotation",
    kind: RuleKind::Combo { default: NOTATION_VALUES[0], vars: &NOTATION_VALUES },
    meaning: "moves are written and read in the seed's own notation",
    access: Access::Pick { get: |r| r.iago.notation as usize, set: |r, v| r.iago.notation = v == 1 },
};

/// Both classes' rule options, in the order the protocols print them.
pub const RULE_OPTIONS: &[RuleOption] = &[GATING, DROPS, RESERVE, PROMOTION, BARE_KING, CASTLING_GATES, NOTATION];

/// `IagoReserve`'s value: `default`, `none` (an empty reserve), or letters
/// of [`RESERVE_LETTERS`] each at most once, in any order and case. IAGO-C
/// refuses an empty reserve (its queen's square is filled from it).
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
