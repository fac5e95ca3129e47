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
//! same exchange is followed on the bitboards alone, without making a
//! move: the square's attackers are found as the occupancy empties, and a
//! capture is legal when no piece of the other side still standing then
//! attacks the royal piece; a test holds both ways to the same value for
//! every move of many positions.

use super::movepick::value_of;
use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::geometry::Geometry;
use crate::movegen::{LineRiders, MoveSink, riders_attacking};
use crate::moves::{Kind, Move, MoveList};
use crate::position::{NO_SQ, Position};
use crate::variant::{Bb, DropRule};

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
    see_against(pos, m, None)
}

/// [`see`], or with a `threshold` a value on the same side of it as the
/// exchange's (the exchange is followed only until its side is known).
fn see_against<V: Evaluator>(pos: &Position<V>, m: Move, threshold: Option<i32>) -> i32 {
    if plain_exchange::<V>(m.to())
        && let Some(v) = see_plain(pos, m, threshold)
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
    resolve_with(gains, 0)
}

/// [`resolve`] where the side to take next would gain `next` (what it
/// wins if it takes and then plays on as it should; 0 if it stops).
fn resolve_with(gains: &Gains, next: i32) -> i32 {
    let mut value = next;
    for &g in gains.iter().skip(1).rev() {
        value = (g - value).max(0);
    }
    gains[0] - value
}

/// The exchange's value if the side to take next gains nothing, when it
/// stays on the same side of `threshold` whatever that side gains, at
/// most `most` (the value is monotonic in that gain, so its two ends
/// decide); `None` while the rest of the exchange can still change the side.
fn decided(gains: &Gains, most: i32, threshold: i32) -> Option<i32> {
    let (none, all) = (resolve_with(gains, 0), resolve_with(gains, most));
    ((none >= threshold) == (all >= threshold)).then_some(none)
}

/// What a pawn of `V` gains at most by promoting: the most valuable
/// promotion's value over the pawn's (0 without promotions).
fn promotion_gain<V: Evaluator>() -> i32 {
    V::PROMOTIONS.iter().map(|&p| value_of::<V>(p) - value_of::<V>(V::PAWN)).max().unwrap_or(0).max(0)
}

/// Whether legality is judged from pins and checkers of a royal piece
/// (`FAST_LEGAL`: only line sliders and leapers capture, and the attack
/// tables know every capture), any piece may take any enemy piece (no
/// `Variant::capture_targets` of its own), and a captured piece simply
/// leaves the game (no hand, no turning over).
fn plain_captures<V: Evaluator>() -> bool {
    V::FAST_LEGAL && V::KING != 0 && !V::CAPTURES_TO_HAND && !V::FLIP_ON_CAPTURE
}

/// Whether an exchange on `sq` can be followed on the pieces alone
/// ([`see_plain`]): [`plain_captures`], every capture a leap or a line
/// of the two rider groups (no type the attack test works out in full), and
/// no pawn can promote on `sq` unless promoting changes nothing but the
/// piece (no hand to take the new piece from, no gating).
fn plain_exchange<V: Evaluator>(sq: usize) -> bool {
    plain_captures::<V>()
        && V::tables().in_full == 0
        && (V::PAWN == 0 || (!V::HAND && !V::GATING) || {
            let zone = &V::tables().promotion_zone;
            !(zone[0] | zone[1]).has(sq)
        })
}

/// [`see_by_moves`]'s value where [`plain_exchange`] holds, found on the
/// bitboards: each capture takes the piece standing on the square and
/// leaves its own square empty, so the occupancy, the piece standing there
/// and the royal pieces' squares are all an exchange changes. The same
/// captures are chosen: the least valuable legal one, the first in the
/// move generator's order (piece type, then square) among equals. A
/// game's hooks (drops only, IAGO's gating) read the position itself,
/// kept only where the game has them. `None` where the capture chosen
/// would be a gating move (IAGO: the plain capture from the gating square
/// is illegal, the gated piece would block the check): the caller then
/// follows the exchange move by move. With a `threshold`, the exchange
/// stops as soon as its side of the threshold is known ([`decided`]).
fn see_plain<V: Evaluator>(pos: &Position<V>, m: Move, threshold: Option<i32>) -> Option<i32> {
    let (sq, target) = (m.to(), Bb::<V>::bit(m.to()));
    let mut gains = Gains::new();
    // The pieces as they stood before the exchange's captures, read only
    // where `occ` says a piece still stands and never on the square itself.
    let played: Position<V>;
    let (base, mut occ, mut standing) = if m.kind() == Kind::Normal {
        gains.push(taken(pos, sq));
        (pos, (pos.occupied() ^ Bb::<V>::bit(m.from())) | target, pos.type_on(m.from()))
    } else {
        played = pos.play(m);
        gains.push(balance(&played, pos.side) - balance(pos, pos.side));
        (&played, played.occupied(), played.type_on(sq))
    };
    let mut kings = [0, 1].map(|c| base.king_sq(c));
    if m.kind() == Kind::Normal && standing == V::KING {
        kings[pos.side] = sq;
    }
    // The whole position, for the games whose hooks read it.
    let mut hooked = (V::HAND || V::GATING).then(|| {
        if m.kind() == Kind::Normal {
            let mut cur = *pos;
            cur.exchange_move(m.from(), sq);
            cur
        } else {
            *base
        }
    });
    let mut us = pos.side ^ 1;
    // The line riders of each group (both colours), found once: pieces
    // only leave, so each step masks them with the occupancy.
    let tables = V::tables();
    let riders = base.line_riders();
    let mut leapers: [Option<Bb<V>>; 2] = [None, None];
    let mut royal: [Option<Royal<V>>; 2] = [None, None];
    // What a pawn promoting on the square adds for each side, at most.
    let promotion =
        [0, 1].map(|c| if V::PAWN != 0 && tables.promotion_zone[c].has(sq) { promotion_gain::<V>() } else { 0 });
    while !gains.is_full() && standing != 0 {
        // The most the side to take can gain: the piece standing there, and
        // a promotion's worth where its pawn would promote.
        if let Some(t) = threshold
            && let Some(v) = decided(&gains, value_of::<V>(standing) + promotion[us], t)
        {
            return Some(v);
        }
        if V::HAND
            && let Some(cur) = &hooked
            && matches!(V::drop_rule(cur), DropRule::Only(_))
        {
            // Only drops are allowed this turn: no capture.
            break;
        }
        let mine = base.by_color[us] & occ & !target;
        // Leaps do not depend on the occupancy and pieces only leave: each
        // side's leaping attackers of the square are looked up once.
        let leaping = *leapers[us].get_or_insert_with(|| base.leap_attackers(sq, us));
        let attackers = (leaping | riders_attacking::<V>(&riders, sq, occ, mine)) & mine;
        if attackers.is_empty() {
            break;
        }
        // What may attack the royal piece, found once for each square it
        // stands on (it moves only by taking).
        let king = kings[us];
        let view = match royal[us] {
            Some(r) if r.king == king => r,
            _ => {
                let r = Royal::of(base, &riders, king, us);
                royal[us] = Some(r);
                r
            }
        };
        let mut chosen = None;
        'cheapest: for &t in &tables.cheapest_first {
            let of_type = attackers & base.by_type[t as usize];
            if of_type.is_empty() {
                continue;
            }
            // What the piece becomes there: a pawn in its zone promotes
            // (only in a game without hands, where that is all it changes).
            let becomes = if t == V::PAWN && tables.promotion_zone[us].has(sq) {
                match best_promotion(base, us) {
                    Some(p) => p,
                    None if V::PROMOTION_MANDATORY => continue,
                    None => t,
                }
            } else {
                t
            };
            for from in of_type.iter() {
                if legal_capture(base, &riders, occ, &view, from, sq) {
                    chosen = Some((from, t, becomes));
                    break 'cheapest;
                }
                if V::GATING
                    && let Some(cur) = &hooked
                    && cur.rights[1].has(from)
                    && cur.hand_count(us) > 0
                {
                    return None;
                }
            }
        }
        let Some((from, t, becomes)) = chosen else { break };
        gains.push(value_of::<V>(standing) + value_of::<V>(becomes) - value_of::<V>(t));
        occ ^= Bb::<V>::bit(from);
        if from == kings[us] {
            kings[us] = sq;
        }
        if let Some(cur) = &mut hooked {
            cur.exchange_move(from, sq);
        }
        standing = becomes;
        us ^= 1;
    }
    Some(resolve(&gains))
}

/// What may attack one side's royal piece during an exchange (`base`'s
/// pieces of the other side: they only leave).
#[derive(Clone, Copy)]
struct Royal<V: Evaluator> {
    /// Its square (`NO_SQ`: none).
    king: usize,
    /// The other side's leapers that attack it.
    leaping: Bb<V>,
    /// The other side's line riders on a line through it on an empty board:
    /// only they can attack it along a line once pieces leave.
    aligned: Bb<V>,
}

impl<V: Evaluator> Royal<V> {
    fn of(base: &Position<V>, riders: &LineRiders<V>, king: usize, us: usize) -> Self {
        if king == NO_SQ {
            return Royal { king, leaping: Bb::<V>::ZERO, aligned: Bb::<V>::ZERO };
        }
        let them = base.by_color[us ^ 1];
        let aligned = riders_attacking::<V>(riders, king, Bb::<V>::ZERO, them);
        Royal { king, leaping: base.leap_attackers(king, us ^ 1), aligned }
    }
}

/// The most valuable type a pawn of `us` may promote to now (the first
/// of `Variant::PROMOTIONS` among equals, as the move generator lists
/// them), or `None` where none is allowed.
fn best_promotion<V: Evaluator>(pos: &Position<V>, us: usize) -> Option<u8> {
    let mut best: Option<u8> = None;
    for &p in V::PROMOTIONS {
        if V::promotion_allowed(pos, us, p) && best.is_none_or(|b| value_of::<V>(p) > value_of::<V>(b)) {
            best = Some(p);
        }
    }
    best
}

/// Whether the piece on `from` may take on `sq` (occupied) where `occ` is
/// the occupancy and `view` what may attack the royal piece of the side
/// it belongs to: that piece is not attacked afterwards by a piece of the
/// other side still standing (`base`'s pieces, as in [`see_plain`]).
fn legal_capture<V: Evaluator>(
    base: &Position<V>,
    riders: &LineRiders<V>,
    occ: Bb<V>,
    view: &Royal<V>,
    from: usize,
    sq: usize,
) -> bool {
    let king = view.king;
    if king == NO_SQ {
        return true;
    }
    let them = base.color_on(from) ^ 1;
    let after = occ ^ Bb::<V>::bit(from);
    // The piece on the square is taken.
    let enemies = base.by_color[them] & after & !Bb::<V>::bit(sq);
    if from == king {
        return (base.attackers_to(sq, them, after) & enemies).is_empty();
    }
    if (view.leaping & enemies).any() {
        return false;
    }
    let aligned = view.aligned & enemies;
    aligned.is_empty() || riders_attacking::<V>(riders, king, after, aligned).is_empty()
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
    see_against(pos, m, Some(threshold)) >= threshold
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
                        && let Some(v) = see_plain(pos, m, None)
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
