//! The IAGO rule word ([`crate::position::Position::rules`]), which carries
//! every IAGO rule option of a game (0: the rulings), and the rules that read
//! it at run time: the reserve at the start (`IagoReserve`), promotion
//! (`IagoPromotion`), the bare-king rule (`IagoBareKing`), castling gates
//! (`IagoCastlingGates`). Gating and drops (`IagoGating`, `IagoDrops`) are
//! bits of it too, which [`type_bits`] copies into the type's const
//! parameters with `X` (whether any of those other bits is set: only the
//! types with `X` read them). The notation (`IagoNotation`) is a bit of the
//! word that no type is chosen by: it changes no rule, so every type writes
//! it ([`iago_text`]) and a game in the seed's notation plays as fast, and
//! with the same network, as one in the canonical notation.

use super::options::{IagoPromotion, RESERVE_LETTERS};
use super::{AMAZON, CARDINAL, MARSHALL};
use crate::bitboard::Bits;
use crate::geometry::{Board8x8, Geometry};
use crate::moves::{Kind, Move};
use crate::position::Position;
use crate::position::{CASTLING_GATE_ON_ROOK, CASTLING_GATE_TYPE};
use crate::variant::{Outcome, Variant, castling_rook};
use crate::variants::RuleOptions;
use crate::variants::chess::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use std::sync::OnceLock;

/// Bits 0-3: the reserve at the start (Q M C A), when bit 4 is set.
const RESERVE_MASK: u32 = 15;
const RESERVE_SET: u32 = 16;
const PROMOTION_SHIFT: u32 = 5;
const PROMOTION_MASK: u32 = 3;
pub const BARE_KING: u32 = 1 << 7;
pub const CASTLING_GATES: u32 = 1 << 8;
/// The seed's notation: read by every type, so not a bit of `RUN_TIME`.
pub const NOTATION: u32 = 1 << 9;
/// The bits read at run time (by the types with `X`).
const RUN_TIME: u32 = (1 << 9) - 1;
/// `IagoGating false` (the type's `GATING` off).
pub const NO_GATING: u32 = 1 << 10;
/// `IagoDrops false` (the type's `DROPS` off).
pub const NO_DROPS: u32 = 1 << 11;

/// The type's const parameters `GATING`, `DROPS`, `X` for the rule word
/// `word`: the one place they are read from it.
#[inline]
pub const fn type_bits(word: u32) -> (bool, bool, bool) {
    (word & NO_GATING == 0, word & NO_DROPS == 0, word & RUN_TIME != 0)
}

/// The rule word's bits a type's `GATING` and `DROPS` stand for
/// (`Variant::TYPE_WORD`).
pub const fn type_word(gating: bool, drops: bool) -> u32 {
    (!gating as u32 * NO_GATING) | (!drops as u32 * NO_DROPS)
}

/// The piece type of each reserve letter.
const RESERVE_TYPES: [u8; 4] = [QUEEN, MARSHALL, CARDINAL, AMAZON];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    B,
    C,
}

impl Class {
    /// The class's own reserve (a set over [`RESERVE_LETTERS`]).
    pub const fn default_reserve(self) -> u8 {
        match self {
            Class::B => 0b0110,
            Class::C => 0b0111,
        }
    }
}

/// The rule word of a game of `class` under `rules` (0: the rulings).
pub fn word(class: Class, rules: &RuleOptions) -> u32 {
    let mut w = 0;
    if let Some(r) = rules.iago.reserve.filter(|&r| r != class.default_reserve()) {
        w |= RESERVE_SET | u32::from(r);
    }
    w |= (rules.iago.promotion as u32) << PROMOTION_SHIFT;
    if rules.iago.bare_king {
        w |= BARE_KING;
    }
    if rules.iago.castling_gates {
        w |= CASTLING_GATES;
    }
    if rules.iago.notation {
        w |= NOTATION;
    }
    w | type_word(rules.iago.gating, rules.iago.drops)
}

/// The reserve at the start, as a set over [`RESERVE_LETTERS`].
pub fn reserve(class: Class, word: u32) -> u8 {
    if word & RESERVE_SET != 0 { (word & RESERVE_MASK) as u8 } else { class.default_reserve() }
}

fn promotion(word: u32) -> IagoPromotion {
    match (word >> PROMOTION_SHIFT) & PROMOTION_MASK {
        0 => IagoPromotion::Equipment,
        1 => IagoPromotion::ReserveOnly,
        _ => IagoPromotion::Fide,
    }
}

/// The start position's FEN: in B-class the queen stays on d1/d8, in C-class
/// its square is empty; the reserve as the word says.
pub fn start_fen(class: Class, word: u32) -> &'static str {
    static FENS: OnceLock<[Vec<String>; 2]> = OnceLock::new();
    let fens = FENS.get_or_init(|| {
        [Class::B, Class::C].map(|c| {
            let board = match c {
                Class::B => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                Class::C => "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR",
            };
            (0..16u8)
                .map(|set| {
                    let white: String =
                        RESERVE_LETTERS.iter().enumerate().filter(|(i, _)| set & 1 << i != 0).map(|(_, c)| c).collect();
                    let black = white.to_lowercase();
                    format!("{board}[{white}{black}] w KQBCDFGkqbcdfg - 0 1")
                })
                .collect()
        })
    });
    &fens[class as usize][reserve(class, word) as usize]
}

/// How many pieces of type `t` one side's equipment holds: the set it
/// starts with, on the board and in reserve.
pub fn equipment(class: Class, word: u32, t: u8) -> u32 {
    let reserve = reserve(class, word);
    let in_reserve = RESERVE_TYPES.iter().position(|&r| r == t).map_or(0, |i| u32::from(reserve >> i & 1));
    match t {
        PAWN => 8,
        KNIGHT | BISHOP | ROOK => 2,
        KING => 1,
        QUEEN => u32::from(class == Class::B) + in_reserve,
        _ => in_reserve,
    }
}

/// `IagoPromotion`: whether a pawn of `us` may promote to `t` now.
pub fn promotion_allowed<V: Variant<G = Board8x8>>(class: Class, pos: &Position<V>, us: usize, t: u8) -> bool {
    match promotion(pos.rules) {
        IagoPromotion::Equipment => pos.pieces(us, t).count() < equipment(class, pos.rules, t),
        IagoPromotion::ReserveOnly => pos.hand[us][t as usize] > 0,
        IagoPromotion::Fide => {
            matches!(t, QUEEN | ROOK | BISHOP | KNIGHT)
                || RESERVE_TYPES.iter().position(|&r| r == t).is_some_and(|i| reserve(class, pos.rules) >> i & 1 != 0)
        }
    }
}

/// Whether a promotion to a type held in reserve uses it (all but `fide`).
#[inline]
pub fn promotion_uses_hand(word: u32) -> bool {
    promotion(word) != IagoPromotion::Fide
}

/// A side whose king stands alone: no other piece on the board, none in reserve.
fn bare<V: Variant>(pos: &Position<V>, c: usize) -> bool {
    pos.by_color[c].count() == 1 && pos.hand_count(c) == 0
}

/// `IagoBareKing`, judged before the side to move plays: bared by the last
/// move, it has lost (1:0) unless it can now take the opponent's last piece
/// other than the king (the game goes on; taking it leaves two bare kings, a
/// draw 0:0). A bare king that is checkmated loses by checkmate (2:0).
#[cold]
pub fn bare_king<V: Variant>(pos: &Position<V>) -> Option<Outcome> {
    let (us, them) = (pos.side, pos.side ^ 1);
    match (bare(pos, us), bare(pos, them)) {
        (false, false) => None,
        (true, true) => Some(Outcome::scores(us, 0, 0, "bare king")),
        // Bare since the move before and not saved by it.
        (false, true) => Some(Outcome::scores(us, 1, 0, "bare king")),
        (true, false) => {
            let last = pos.by_color[them] & !pos.pieces(them, V::KING);
            let moves = pos.legal_moves();
            let saving = pos.hand_count(them) == 0 && last.count() == 1 && moves.iter().any(|m| m.to() == last.lsb());
            if saving || (moves.is_empty() && pos.in_check()) {
                None
            } else {
                Some(Outcome::scores(them, 1, 0, "bare king"))
            }
        }
    }
}

/// An outcome in the seed's points where `IagoBareKing` is on: a checkmate
/// (or a forfeit) 2:0, a draw 0:0 (the bared king's 1:0 is made as such).
pub fn scored(word: u32, o: Outcome) -> Outcome {
    if word & BARE_KING == 0 || o.scores.is_some() {
        return o;
    }
    match o.winner {
        Some(w) => Outcome::scores(w, 2, 0, &o.reason),
        None => Outcome::scores(0, 0, 0, &o.reason),
    }
}

/// A move in the seed's notation (`IagoNotation iago`): long algebraic with
/// the piece letter (none for a pawn), `-` or `x`, a promotion as `=Q`, a
/// gated piece as `&C` (`Bc1-e3&C`), a drop as `&Me1`, castling `O-O` /
/// `O-O-O` with a gated piece and its square (`O-O&Mh1`).
pub fn iago_text<V: Variant>(pos: &Position<V>, m: Move) -> String {
    let letter = |t: u8| V::PIECES[t as usize - 1].letter;
    let sq = V::G::square_name;
    match m.kind() {
        Kind::Drop => format!("&{}{}", letter(m.piece()), sq(m.to())),
        Kind::Castling => {
            let side = if V::G::file_of(m.to()) > V::G::file_of(m.from()) { "O-O" } else { "O-O-O" };
            let gate = m.piece();
            if gate == 0 {
                return side.to_string();
            }
            let on = if gate & CASTLING_GATE_ON_ROOK != 0 { castling_rook::<V>(m.from(), m.to()).0 } else { m.from() };
            format!("{side}&{}{}", letter(gate & CASTLING_GATE_TYPE), sq(on))
        }
        kind => {
            let moved = pos.type_on(m.from());
            let piece = if moved == V::PAWN { "" } else { letter(moved) };
            let capture = kind == Kind::EnPassant || pos.board[m.to()] != 0;
            let mut s = format!("{piece}{}{}{}", sq(m.from()), if capture { 'x' } else { '-' }, sq(m.to()));
            match kind {
                Kind::Promotion => s += &format!("={}", letter(m.piece())),
                Kind::Gating => s += &format!("&{}", letter(m.piece())),
                _ => {}
            }
            s
        }
    }
}
