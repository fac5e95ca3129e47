//! What the search learns about quiet moves while it runs: killer moves per
//! ply and the butterfly history (side, piece type, destination), updated
//! with gravity so every entry stays within `HISTORY_MAX`.

use super::params::{HISTORY_BONUS_MAX, HISTORY_MAX, MAX_PLY};
use crate::moves::{Kind, Move};
use crate::position::{MAX_SQ, Position};
use crate::variant::{MAX_TYPES, Variant};

/// Killer moves and quiet-move history of one search thread.
pub struct History {
    killers: Vec<[Move; 2]>,
    butterfly: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History { killers: vec![[Move::NONE; 2]; MAX_PLY + 2], butterfly: vec![0; 2 * MAX_TYPES * MAX_SQ] }
    }
}

/// The bonus for a move that caused a cut-off at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth).min(HISTORY_BONUS_MAX)
}

/// Moves `entry` towards `+-HISTORY_MAX` by `delta`, less the more it is there already.
#[inline]
fn gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

impl History {
    #[inline]
    fn index<V: Variant>(pos: &Position<V>, m: Move) -> usize {
        let piece = if m.kind() == Kind::Drop { m.piece() } else { pos.type_on(m.from()) };
        (pos.side * MAX_TYPES + piece as usize) * MAX_SQ + m.to()
    }

    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    pub fn quiet<V: Variant>(&self, pos: &Position<V>, m: Move) -> i32 {
        self.butterfly[Self::index(pos, m)]
    }

    /// A quiet move `best` caused a cut-off after the quiets in `tried` failed.
    pub fn update_quiets<V: Variant>(&mut self, pos: &Position<V>, best: Move, tried: &[Move], depth: i32, ply: usize) {
        let b = bonus(depth);
        gravity(&mut self.butterfly[Self::index(pos, best)], b);
        for &q in tried {
            if q != best {
                gravity(&mut self.butterfly[Self::index(pos, q)], -b);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
    }
}
