//! Ita's rule options (Calvinita's changes), as the protocols name and set
//! them, and the rule word a game of Ita carries them in: one bit each,
//! which [`super::visit`] copies into the type's const parameters
//! ([`super::ItaRules`]).

use crate::variants::RuleOptions;
use crate::variants::options::{Access, RuleKind, RuleOption};

/// The rule word's bit of `ItaLeaperCapture replacement` (the type's `REPLACEMENT`).
pub const WORD_REPLACEMENT: u32 = 1;
/// The rule word's bit of `ItaGoal rank` (the type's `RANK_GOAL`).
pub const WORD_RANK_GOAL: u32 = 2;

/// The rule word of a game of Ita under `rules` (0: the rulings).
pub fn rule_word(rules: &RuleOptions) -> u32 {
    let mut w = 0;
    if rules.ita.leaper_replacement {
        w |= WORD_REPLACEMENT;
    }
    if rules.ita.rank_goal {
        w |= WORD_RANK_GOAL;
    }
    w
}

/// Ita's rule options' values. The default is the rulings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ItaOptions {
    /// The Leaper captures by replacement, moving onto the victim like a
    /// cannon (`ItaLeaperCapture replacement`), instead of by igui.
    pub leaper_replacement: bool,
    /// A Flag on any square of the far rank scores the goal (`ItaGoal
    /// rank`), not only on the enemy Flags' home squares.
    pub rank_goal: bool,
}

pub const LEAPER_CAPTURE: RuleOption = RuleOption {
    name: "ItaLeaperCapture",
    kind: RuleKind::Combo { default: "igui", vars: &["igui", "replacement"] },
    meaning: "the Leaper captures by igui or by replacement",
    access: Access::Pick { get: |r| r.ita.leaper_replacement as usize, set: |r, v| r.ita.leaper_replacement = v == 1 },
};
pub const GOAL: RuleOption = RuleOption {
    name: "ItaGoal",
    kind: RuleKind::Combo { default: "home", vars: &["home", "rank"] },
    meaning: "a Flag scores on the enemy Flags' home squares or on the whole far rank",
    access: Access::Pick { get: |r| r.ita.rank_goal as usize, set: |r, v| r.ita.rank_goal = v == 1 },
};

/// Ita's rule options, in the order the protocols print them.
pub const RULE_OPTIONS: &[RuleOption] = &[LEAPER_CAPTURE, GOAL];
