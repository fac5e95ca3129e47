//! Search values: centipawns, decided games and their distance from the root.
//!
//! A decided game is worth `MATE - ply` for the winner. Games that keep a
//! score pair (Ita's 5:0, 5:1, ...) rank their results below the best one
//! (the variant's [`Variant::SCORE_SCALE`]) by [`QUALITY_STEP`] per point of
//! margin given up, so the search prefers a larger margin: the variant hook
//! returns an [`Outcome`] and [`outcome_value`] turns it into a value.

use crate::variant::{Outcome, Variant};

/// A decided win at the root (a loss is `-MATE`).
pub const MATE: i32 = 32000;
/// Beyond every value: the open window's bounds.
pub const INF: i32 = 32001;
/// Values at or beyond this (in absolute value) are decided games.
pub const DECISIVE: i32 = MATE - 2048;
/// Score pairs: each point of margin below the best result costs this much.
pub const QUALITY_STEP: i32 = 256;
/// How many margin steps below the best are told apart.
const MARGIN_STEPS: i32 = 7;

/// The value of a finished game of `V` for the side to move, `ply` plies
/// from the root. Wins score `MATE - ply`; score-pair games rank a win by
/// its margin below `V::SCORE_SCALE` (Ita: 5:0 above 5:1 above 5:2 and
/// 4:1 ...) and a loss likewise.
pub fn outcome_value<V: Variant>(o: &Outcome, stm: usize, ply: usize) -> i32 {
    let best = V::SCORE_SCALE;
    let margin = match (o.scores, o.winner) {
        (Some(s), _) => s[stm] - s[stm ^ 1],
        (None, Some(w)) => {
            if w == stm {
                best
            } else {
                -best
            }
        }
        (None, None) => 0,
    };
    if margin == 0 {
        return 0;
    }
    let v = MATE - QUALITY_STEP * (best - margin.abs()).clamp(0, MARGIN_STEPS) - ply as i32;
    if margin > 0 { v } else { -v }
}

/// Plies from the root to the decided result of a decisive value `v`.
pub fn plies_to_end(v: i32) -> i32 {
    (MATE - v.abs()) % QUALITY_STEP
}

/// A value as stored in the transposition table: decided results counted
/// from the node instead of from the root.
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= DECISIVE {
        v + ply as i32
    } else if v <= -DECISIVE {
        v - ply as i32
    } else {
        v
    }
}

/// The inverse of [`to_tt`] at the node `ply` plies from the root.
#[inline]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= DECISIVE {
        v - ply as i32
    } else if v <= -DECISIVE {
        v + ply as i32
    } else {
        v
    }
}

/// A score as the protocol shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Moves to mate (or to the decisive result); negative when losing.
    Mate(i32),
}

impl Score {
    pub fn from_value(v: i32) -> Score {
        if v.abs() >= DECISIVE {
            let moves = (plies_to_end(v) + 1) / 2;
            Score::Mate(if v > 0 { moves } else { -moves })
        } else {
            Score::Cp(v)
        }
    }
}
