//! Ita's rule options (Calvinita's changes), as the protocols name and set
//! them. Each selects the type ([`super::ItaRules`]).

use crate::variants::options::{Access, RuleKind, RuleOption};

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
    meaning: "the Leaper captures by igui or by replacement (the type: `REPLACEMENT`)",
    access: Access::Pick { get: |r| r.ita.leaper_replacement as usize, set: |r, v| r.ita.leaper_replacement = v == 1 },
};
pub const GOAL: RuleOption = RuleOption {
    name: "ItaGoal",
    kind: RuleKind::Combo { default: "home", vars: &["home", "rank"] },
    meaning: "a Flag scores on the enemy Flags' home squares or on the whole far rank (the type: `RANK_GOAL`)",
    access: Access::Pick { get: |r| r.ita.rank_goal as usize, set: |r, v| r.ita.rank_goal = v == 1 },
};

/// Ita's rule options, in the order the protocols print them.
pub const RULE_OPTIONS: &[RuleOption] = &[LEAPER_CAPTURE, GOAL];
