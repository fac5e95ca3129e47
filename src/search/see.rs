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
//! Where captures are plain (chess, IAGO, Historia Ŝako: pins and checks
//! of one king decide legality, a captured piece leaves the game), the
//! same exchange is followed on the pieces alone, without making each move
//! in full; a test holds both ways to the same value for every move of
//! many positions.

use super::movepick::value_of;
use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::geometry::Geometry;
use crate::movegen::MoveSink;
use crate::moves::{Kind, Move, MoveList};
use crate::position::Position;
use crate::variant::{DropRule, MAX_TYPES};

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
    if plain_exchange::<V>(m.to())
        && let Some(v) = see_plain(pos, m)
    {
        return v;
    }
    see_by_moves(pos, m)
}

/// [`see`] with every capture of the exchange generated, made and tested
/// on the position: exact under every game's rules.
fn see_by_moves<V: Evaluator>(pos: &Position<V>, m: Move) -> i32 {
    let sq = m.to();
    let mut cur = pos.play(m);
    let mut gains = Gains::new();
    gains.push(balance(&cur, pos.side) - balance(pos, pos.side));
    while !gains.is_full() && cur.board[sq] != 0 {
        let Some(r) = least_valuable_capture(&cur, sq) else { break };
        let next = cur.play(r);
        gains.push(balance(&next, cur.side) - balance(&cur, cur.side));
        cur = next;
    }
    resolve(&gains)
}

/// What each capture of an exchange gains for the side making it.
type Gains = arrayvec::ArrayVec<i32, { MAX_EXCHANGE + 1 }>;

/// The exchange's value for the side making the first capture: back from
/// the last capture, each side takes only when it gains.
fn resolve(gains: &Gains) -> i32 {
    let mut value = 0;
    for &g in gains.iter().skip(1).rev() {
        value = (g - value).max(0);
    }
    gains[0] - value
}

/// Whether legality is judged from pins and checkers of a royal piece
/// (`FAST_LEGAL`: only line sliders and leapers capture, and the attack
/// tables know every capture) and a captured piece simply leaves the game
/// (no hand, no turning over).
fn plain_captures<V: Evaluator>() -> bool {
    V::FAST_LEGAL && V::KING != 0 && !V::CAPTURES_TO_HAND && !V::FLIP_ON_CAPTURE
}

/// Whether an exchange on `sq` can be followed on the pieces alone
/// ([`see_plain`]): [`plain_captures`], and no pawn can promote on `sq`.
fn plain_exchange<V: Evaluator>(sq: usize) -> bool {
    plain_captures::<V>()
        && (V::PAWN == 0 || {
            let zone = &V::tables().promotion_zone;
            !(zone[0] | zone[1]).has(sq)
        })
}

/// [`see_by_moves`]'s value where [`plain_exchange`] holds, found faster:
/// after the first move (made on the position) each capture only moves
/// the capturing piece onto the square (`Position::exchange_move`), and
/// gains the captured piece's value. The same captures are chosen: the
/// least valuable legal one, the first in the move generator's order
/// (piece type, then square) among equals. `None` where that capture
/// would be a gating move (IAGO: the plain capture from the gating square
/// is illegal, the gated piece would block the check): the caller then
/// follows the exchange move by move.
fn see_plain<V: Evaluator>(pos: &Position<V>, m: Move) -> Option<i32> {
    let sq = m.to();
    let mut gains = Gains::new();
    let mut cur = match first_gain(pos, m) {
        Some(gain) if m.kind() == Kind::Normal => {
            gains.push(gain);
            let mut cur = *pos;
            cur.exchange_move(m.from(), sq);
            cur
        }
        _ => {
            let cur = pos.play(m);
            gains.push(balance(&cur, pos.side) - balance(pos, pos.side));
            cur
        }
    };
    while !gains.is_full() && cur.board[sq] != 0 {
        let Some(from) = least_valuable_attacker(&cur, sq)? else { break };
        gains.push(taken(&cur, sq));
        cur.exchange_move(from, sq);
    }
    Some(resolve(&gains))
}

/// The square of the piece making [`least_valuable_capture`]'s capture
/// where [`plain_exchange`] holds (`Some(None)`: there is none), or `None`
/// where that capture would be a gating move.
fn least_valuable_attacker<V: Evaluator>(pos: &Position<V>, sq: usize) -> Option<Option<usize>> {
    if V::HAND && matches!(V::drop_rule(pos), DropRule::Only(_)) {
        // Only drops are allowed this turn: no capture.
        return Some(None);
    }
    let us = pos.side;
    let attackers = pos.attackers_to(sq, us, pos.occupied());
    if attackers.is_empty() {
        return Some(None);
    }
    // The attackers' types, cheapest first (the generator's order among equals).
    let mut types = arrayvec::ArrayVec::<(i32, u8), MAX_TYPES>::new();
    for t in 1..=V::PIECES.len() as u8 {
        if (attackers & pos.by_type[t as usize]).any() && V::capture_targets(pos, us, t).has(sq) {
            types.push((value_of::<V>(t), t));
        }
    }
    types.sort_unstable();
    let ctx = pos.legal_ctx();
    for &(_, t) in &types {
        for from in (attackers & pos.by_type[t as usize]).iter() {
            if pos.is_legal(Move::normal(from, sq), &ctx) {
                return Some(Some(from));
            }
            if V::GATING && pos.rights[1].has(from) && pos.hand_count(us) > 0 {
                return None;
            }
        }
    }
    Some(None)
}

/// What `m` gains in material for the side making it, where that is the
/// value of the piece it takes and nothing else changes (an ordinary move
/// or en passant in a game of [`plain_exchange`]'s kind); `None` elsewhere.
fn first_gain<V: Evaluator>(pos: &Position<V>, m: Move) -> Option<i32> {
    if !plain_captures::<V>() {
        return None;
    }
    match m.kind() {
        Kind::Normal => Some(taken(pos, m.to())),
        Kind::EnPassant => Some(value_of::<V>(V::PAWN)),
        _ => None,
    }
}

/// What the side to move gains by taking the piece on `sq` (nothing
/// when it is empty, a loss when the piece is its own).
fn taken<V: Evaluator>(pos: &Position<V>, sq: usize) -> i32 {
    let value = value_of::<V>(pos.type_on(sq));
    if value != 0 && pos.color_on(sq) == pos.side { -value } else { value }
}

/// Whether `m` wins at least `threshold` by exchange; decided without
/// following the exchange when the first capture settles it.
pub fn see_ge<V: Evaluator>(pos: &Position<V>, m: Move, threshold: i32) -> bool {
    if m.kind() == Kind::Castling {
        return threshold <= 0;
    }
    let sq = m.to();
    // The gain of the first capture, and the piece then on the square.
    let (first, standing) = match first_gain(pos, m) {
        // An ordinary move or en passant: the mover stands there.
        Some(gain) => (gain, pos.type_on(m.from())),
        None => {
            let after = pos.play(m);
            let gain = balance(&after, pos.side) - balance(pos, pos.side);
            if after.board[sq] == 0 || after.color_on(sq) != pos.side {
                // Nothing of ours stands there to be taken (an igui capture).
                return gain >= threshold;
            }
            (gain, after.type_on(sq))
        }
    };
    if first < threshold {
        return false;
    }
    // A plain recapture wins back at most the exposed piece: unless it can
    // promote, change face or go to a hand, losing it keeps the threshold.
    let plain = !V::CAPTURES_TO_HAND
        && !V::FLIP_ON_CAPTURE
        && (V::PAWN == 0 || !V::tables().promotion_zone[pos.side ^ 1].has(sq));
    if plain && first - value_of::<V>(standing) >= threshold {
        return true;
    }
    see(pos, m) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{RuleOptions, VariantId, VariantVisitor};
    use crate::variants::EngineVariant;

    /// Plays pseudo-random games (captures preferred, so exchanges get
    /// long) and compares [`see`] and [`see_ge`] with [`see_by_moves`] for
    /// every legal move of every position. Returns the moves [`see_plain`] valued, and of
    /// those, the ones whose value was not their first capture's gain.
    struct SameValue;
    impl VariantVisitor for SameValue {
        type Out = (usize, usize);
        fn visit<V: EngineVariant>(self) -> (usize, usize) {
            let (mut plain, mut exchanged) = (0, 0);
            crate::testing::random_games::<V>(11, 10, 160, |pos, moves, rng| {
                for &m in moves {
                    let exact = see_by_moves(pos, m);
                    assert_eq!(see(pos, m), exact, "{}: {} {}", V::NAME, pos.fen(), pos.move_to_uci(m));
                    for t in [-500, -101, -100, 0, 1, 100, 101, 500] {
                        let uci = pos.move_to_uci(m);
                        assert_eq!(see_ge(pos, m, t), exact >= t, "{}: {} {uci} {t}", V::NAME, pos.fen());
                    }
                    if plain_exchange::<V>(m.to())
                        && let Some(v) = see_plain(pos, m)
                    {
                        plain += 1;
                        let after = pos.play(m);
                        exchanged += usize::from(v != balance(&after, pos.side) - balance(pos, pos.side));
                    }
                }
                let takes: Vec<_> = moves.iter().filter(|m| pos.occupied().has(m.to())).collect();
                if !takes.is_empty() && rng.below(3) != 0 {
                    *takes[rng.below(takes.len())]
                } else {
                    moves[rng.below(moves.len())]
                }
            });
            (plain, exchanged)
        }
    }

    #[test]
    fn the_plain_exchange_values_every_move_as_the_moves_do() {
        for &v in VariantId::ALL {
            let (plain, exchanged) = v.visit(&RuleOptions::default(), SameValue);
            match v.name() {
                "ita" | "ito-shogi" | "etcetera" => assert_eq!(plain, 0, "{}", v.name()),
                name => assert!(plain > 2000 && exchanged > 100, "{name}: {plain} {exchanged}"),
            }
        }
    }
}
