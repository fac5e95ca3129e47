//! Static exchange evaluation: what a move wins or loses in material if
//! both sides then capture on its square with their least valuable piece,
//! each free to stop when going on would lose.
//!
//! Every step is made on the position and checked for legality, so the
//! exchange obeys each game's own capture rules exactly: lame leapers (Ita's
//! Cavalry, Etcetera's Elephant), the igui capture (Ita's Leaper takes
//! without moving, so its square is left empty and the exchange ends),
//! cannons (Ito Shogi's Silver Cannon needs a screen, found by the move
//! generator), hand drops (a drop captures nothing but can be taken),
//! same-type immunity and cannibal captures (Etcetera), promotions, pins
//! and checks. Material is the pieces' values on the board plus in hand,
//! so a capture that sends the piece to the captor's hand (Ito Shogi) counts
//! twice and a piece turned over on capturing counts at its new value.

use super::movepick::value_of;
use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::geometry::Geometry;
use crate::movegen::MoveSink;
use crate::moves::{Kind, Move, MoveList};
use crate::position::Position;

/// Longest exchange followed (captures after the first move).
const MAX_EXCHANGE: usize = 32;

/// Material of `color` less the opponent's: board and hand, at full value.
fn balance<V: Evaluator>(pos: &Position<V>, color: usize) -> i32 {
    let mut b = 0;
    for t in 1..=V::PIECES.len() as u8 {
        let v = value_of::<V>(t);
        let on_board = pos.pieces(color, t).count() as i32 - pos.pieces(color ^ 1, t).count() as i32;
        let in_hand = pos.hand[color][t as usize] as i32 - pos.hand[color ^ 1][t as usize] as i32;
        b += v * (on_board + in_hand);
    }
    b
}

/// The least valuable legal capture of the piece on `sq` by the side to
/// move: an igui capture first (its piece is not exposed), then by the
/// capturing piece's value, the most valuable promotion among equals.
fn least_valuable_capture<V: Evaluator>(pos: &Position<V>, sq: usize) -> Option<Move> {
    if pos.board[sq] == 0 {
        return None;
    }
    // Where legality is judged from pins and checkers of a royal piece
    // (`FAST_LEGAL` with a `KING`), only line sliders and leapers capture and
    // the attack tables know every capture: only the pieces attacking `sq`
    // can take there, none at all when there are none. (Ita is `FAST_LEGAL`
    // only for having no royal piece; its igui and Flag captures are not in
    // the tables.)
    let from = if V::FAST_LEGAL && V::KING != 0 {
        let attackers = pos.attackers_to(sq, pos.side, pos.occupied());
        if attackers.is_empty() {
            return None;
        }
        attackers
    } else {
        V::G::tables().all
    };
    // Captures only, onto an occupied square: no drop, no en passant.
    let mut onto = CapturesOnto { sq, from, list: MoveList::new() };
    pos.generate_into::<true, _>(&mut onto);
    if onto.list.is_empty() {
        return None;
    }
    let ctx = pos.legal_ctx();
    let cost = |m: Move| {
        let exposed = if m.kind() == Kind::Igui { 0 } else { value_of::<V>(pos.type_on(m.from())) };
        let promotion = if m.kind() == Kind::Promotion { value_of::<V>(m.piece()) } else { 0 };
        (exposed, -promotion)
    };
    onto.list.iter().copied().filter(|&m| pos.is_legal(m, &ctx)).min_by_key(|&m| cost(m))
}

/// The captures onto `sq` by the pieces on `from`, in the order the move
/// generator lists them (so ties among equal captures fall as before).
struct CapturesOnto<B> {
    sq: usize,
    from: B,
    list: MoveList,
}

impl<B: Bits> MoveSink<B> for CapturesOnto<B> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        if m.to() == self.sq {
            self.list.push(m);
        }
    }
    #[inline(always)]
    fn targets(&mut self, from: usize, targets: B) {
        if targets.has(self.sq) {
            self.list.push(Move::normal(from, self.sq));
        }
    }
    #[inline(always)]
    fn sources(&self, bb: B) -> B {
        bb & self.from
    }
}

/// The exchange value of `m` (legal in `pos`) for the side making it, in centipawns.
pub fn see<V: Evaluator>(pos: &Position<V>, m: Move) -> i32 {
    let sq = m.to();
    let mut cur = pos.play(m);
    let mut gains = arrayvec::ArrayVec::<i32, { MAX_EXCHANGE + 1 }>::new();
    gains.push(balance(&cur, pos.side) - balance(pos, pos.side));
    while !gains.is_full() && cur.board[sq] != 0 {
        let Some(r) = least_valuable_capture(&cur, sq) else { break };
        let next = cur.play(r);
        gains.push(balance(&next, cur.side) - balance(&cur, cur.side));
        cur = next;
    }
    // Back from the last capture: each side takes only when it gains.
    let mut value = 0;
    for &g in gains.iter().skip(1).rev() {
        value = (g - value).max(0);
    }
    gains[0] - value
}

/// Whether `m` wins at least `threshold` by exchange; decided without
/// following the exchange when the first capture settles it.
pub fn see_ge<V: Evaluator>(pos: &Position<V>, m: Move, threshold: i32) -> bool {
    if m.kind() == Kind::Castling {
        return threshold <= 0;
    }
    let after = pos.play(m);
    let first = balance(&after, pos.side) - balance(pos, pos.side);
    if first < threshold {
        return false;
    }
    let sq = m.to();
    if after.board[sq] == 0 || after.color_on(sq) != pos.side {
        // Nothing of ours stands there to be taken (an igui capture).
        return true;
    }
    // A plain recapture wins back at most the exposed piece: unless it can
    // promote, change face or go to a hand, losing it keeps the threshold.
    let plain = !V::CAPTURES_TO_HAND
        && !V::FLIP_ON_CAPTURE
        && (V::PAWN == 0 || !V::tables().promotion_zone[after.side].has(sq));
    if plain && first - value_of::<V>(after.type_on(sq)) >= threshold {
        return true;
    }
    see(pos, m) >= threshold
}
