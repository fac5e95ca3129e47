//! Move ordering: scores every move of a node once, then hands them out
//! best first (selection sort, one step at a time: most nodes cut off
//! after a few moves).

use super::history::History;
use crate::eval::Evaluator;
use crate::moves::{Kind, MAX_MOVES, Move, MoveList};
use crate::position::Position;

type ScoreList = arrayvec::ArrayVec<i32, MAX_MOVES>;

/// Ordering classes, best first: each class's base lies above every score of the next.
const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const PROMOTION: i32 = 1 << 27;
const KILLER: i32 = 1 << 26;
/// Captures: the victim's value counts this many times more than the attacker's is subtracted.
const VICTIM_WEIGHT: i32 = 16;
const ATTACKER_DIVISOR: i32 = 16;

/// The type a move takes off the board (0 for none).
pub fn victim<V: Evaluator>(pos: &Position<V>, m: Move) -> u8 {
    match m.kind() {
        Kind::Drop | Kind::Castling => 0,
        Kind::EnPassant => V::PAWN,
        _ => {
            if pos.board[m.to()] != 0 && pos.color_on(m.to()) != pos.side {
                pos.type_on(m.to())
            } else {
                0
            }
        }
    }
}

/// The material value of a piece type (0 for none).
#[inline]
pub fn value_of<V: Evaluator>(t: u8) -> i32 {
    if t == 0 { 0 } else { V::PIECES[t as usize - 1].value }
}

/// Captures and promotions: the moves quiescence searches and reductions spare.
pub fn is_tactical<V: Evaluator>(pos: &Position<V>, m: Move) -> bool {
    victim(pos, m) != 0 || m.kind() == Kind::Promotion
}

/// The moves of one node with their ordering scores.
pub struct MovePicker {
    list: MoveList,
    scores: ScoreList,
    next: usize,
}

impl MovePicker {
    /// Scores `list`: TT move, captures by victim then attacker, promotions,
    /// killers, then quiet moves by history.
    pub fn new<V: Evaluator>(pos: &Position<V>, list: MoveList, tt_move: Move, history: &History, ply: usize) -> Self {
        let killers = history.killers(ply);
        let scores = list
            .iter()
            .map(|&m| {
                if m == tt_move {
                    return TT_MOVE;
                }
                let v = victim(pos, m);
                if v != 0 {
                    let attacker = if m.kind() == Kind::Igui { 0 } else { pos.type_on(m.from()) };
                    CAPTURE + value_of::<V>(v) * VICTIM_WEIGHT - value_of::<V>(attacker) / ATTACKER_DIVISOR
                } else if m.kind() == Kind::Promotion {
                    PROMOTION + value_of::<V>(m.piece())
                } else if m == killers[0] {
                    KILLER
                } else if m == killers[1] {
                    KILLER - 1
                } else {
                    history.quiet(pos, m)
                }
            })
            .collect();
        MovePicker { list, scores, next: 0 }
    }
}

impl Iterator for MovePicker {
    type Item = Move;
    /// The best-scored remaining move.
    fn next(&mut self) -> Option<Move> {
        let i = self.next;
        if i >= self.list.len() {
            return None;
        }
        let mut best = i;
        for j in i + 1..self.list.len() {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.list.swap(i, best);
        self.scores.swap(i, best);
        self.next += 1;
        Some(self.list[i])
    }
}
