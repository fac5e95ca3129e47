//! What the search learns about moves while it runs, per thread: killer
//! moves per ply, the counter move to the opponent's last move, and
//! histories updated with gravity (an entry moves towards the bonus's sign
//! the less the more it is there already, so it stays within `HISTORY_MAX`):
//!
//! - butterfly: quiet moves by (side, piece type, destination);
//! - capture: captures by (side, piece type, destination, victim type);
//! - continuation: quiet moves by (piece type, destination) after the
//!   move one and two plies before, also given as (piece type, destination).
//!
//! A drop is a quiet move of the dropped type to its square, ordered by the
//! same histories as every other quiet move.

use super::params::{HISTORY_BONUS_MAX, HISTORY_MAX, MAX_PLY};
use crate::geometry::Geometry;
use crate::moves::{Kind, Move};
use crate::position::Position;
use crate::variant::{MAX_TYPES, Variant};

/// A move as the continuation history sees it: piece type and destination.
/// `NONE` (a null move, or before the root) has no continuation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    pub const NONE: PieceTo = PieceTo(u16::MAX);
}

/// Killer moves, counter moves and histories of one search thread.
pub struct History {
    killers: Vec<[Move; 2]>,
    butterfly: Vec<i32>,
    capture: Vec<i32>,
    /// `continuation[prev * piece_to + cur]`.
    continuation: Vec<i16>,
    counter: Vec<Move>,
    /// Number of (piece type, square) pairs of the variant.
    piece_to: usize,
    squares: usize,
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

#[inline]
fn gravity16(entry: &mut i16, delta: i32) {
    let mut e = *entry as i32;
    gravity(&mut e, delta);
    *entry = e as i16;
}

impl History {
    pub fn new<V: Variant>() -> Self {
        let squares = V::G::SQUARES;
        let piece_to = (V::PIECES.len() + 1) * squares;
        History {
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            butterfly: vec![0; 2 * MAX_TYPES * squares],
            capture: vec![0; 2 * MAX_TYPES * squares * MAX_TYPES],
            continuation: vec![0; piece_to * piece_to],
            counter: vec![Move::NONE; piece_to],
            piece_to,
            squares,
        }
    }

    /// The type that moves (or is dropped).
    #[inline]
    pub fn mover<V: Variant>(pos: &Position<V>, m: Move) -> u8 {
        if m.kind() == Kind::Drop { m.piece() } else { pos.type_on(m.from()) }
    }

    #[inline]
    pub fn piece_to<V: Variant>(&self, pos: &Position<V>, m: Move) -> PieceTo {
        PieceTo((Self::mover(pos, m) as usize * self.squares + m.to()) as u16)
    }

    #[inline]
    fn butterfly_index<V: Variant>(&self, pos: &Position<V>, m: Move) -> usize {
        (pos.side * MAX_TYPES + Self::mover(pos, m) as usize) * self.squares + m.to()
    }

    #[inline]
    fn capture_index<V: Variant>(&self, pos: &Position<V>, m: Move, victim: u8) -> usize {
        self.butterfly_index(pos, m) * MAX_TYPES + victim as usize
    }

    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The move that last refuted `prev`.
    pub fn counter(&self, prev: PieceTo) -> Move {
        if prev == PieceTo::NONE { Move::NONE } else { self.counter[prev.0 as usize] }
    }

    #[inline]
    fn cont(&self, prev: PieceTo, cur: PieceTo) -> i32 {
        if prev == PieceTo::NONE {
            0
        } else {
            self.continuation[prev.0 as usize * self.piece_to + cur.0 as usize] as i32
        }
    }

    /// The butterfly history of a quiet move.
    pub fn butterfly<V: Variant>(&self, pos: &Position<V>, m: Move) -> i32 {
        self.butterfly[self.butterfly_index(pos, m)]
    }

    /// Quiet-move ordering value: butterfly plus both continuation histories.
    pub fn quiet<V: Variant>(&self, pos: &Position<V>, m: Move, prev: [PieceTo; 2]) -> i32 {
        let pt = self.piece_to(pos, m);
        self.butterfly(pos, m) + self.cont(prev[0], pt) + self.cont(prev[1], pt)
    }

    pub fn capture<V: Variant>(&self, pos: &Position<V>, m: Move, victim: u8) -> i32 {
        self.capture[self.capture_index(pos, m, victim)]
    }

    fn update_quiet<V: Variant>(&mut self, pos: &Position<V>, m: Move, prev: [PieceTo; 2], delta: i32) {
        let i = self.butterfly_index(pos, m);
        gravity(&mut self.butterfly[i], delta);
        let pt = self.piece_to(pos, m);
        for p in prev {
            if p != PieceTo::NONE {
                let i = p.0 as usize * self.piece_to + pt.0 as usize;
                gravity16(&mut self.continuation[i], delta);
            }
        }
    }

    /// A quiet move `best` caused a cut-off after the quiets in `tried` failed.
    pub fn update_quiets<V: Variant>(
        &mut self,
        pos: &Position<V>,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        prev: [PieceTo; 2],
    ) {
        let b = bonus(depth);
        self.update_quiet(pos, best, prev, b);
        for &q in tried {
            if q != best {
                self.update_quiet(pos, q, prev, -b);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if prev[0] != PieceTo::NONE {
            self.counter[prev[0].0 as usize] = best;
        }
    }

    /// After a cut-off: the capture `best` (if it is one) gains, the captures
    /// in `tried` that did not cut lose. `victims[i]` is `tried[i]`'s victim.
    pub fn update_captures<V: Variant>(
        &mut self,
        pos: &Position<V>,
        best: Option<(Move, u8)>,
        tried: &[(Move, u8)],
        depth: i32,
    ) {
        let b = bonus(depth);
        if let Some((m, v)) = best {
            let i = self.capture_index(pos, m, v);
            gravity(&mut self.capture[i], b);
        }
        for &(m, v) in tried {
            if Some((m, v)) != best {
                let i = self.capture_index(pos, m, v);
                gravity(&mut self.capture[i], -b);
            }
        }
    }
}
