//! FIDE chess (IAGO A-class).

use crate::bitboard::Bits;
use crate::geometry::{Board8x8, Geometry};
use crate::position::Position;
use crate::variant::{Bb, Castling, Outcome, PieceDef, Variant, WHITE};

mod engine;
mod eval;

pub use engine::visit;

pub const PAWN: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const ROOK: u8 = 4;
pub const QUEEN: u8 = 5;
pub const KING: u8 = 6;

/// The six FIDE pieces in the order every 8x8 chess-family variant starts with.
pub const FIDE_PIECES: [PieceDef; 6] = [
    PieceDef { name: "Pawn", letter: "P", betza: "fmWfcFifmnD", value: 100 },
    PieceDef { name: "Knight", letter: "N", betza: "N", value: 320 },
    PieceDef { name: "Bishop", letter: "B", betza: "B", value: 330 },
    PieceDef { name: "Rook", letter: "R", betza: "R", value: 500 },
    PieceDef { name: "Queen", letter: "Q", betza: "Q", value: 950 },
    PieceDef { name: "King", letter: "K", betza: "K", value: 0 },
];

/// How each piece moves, in words ("forward" is toward the opponent), by
/// letter, in the order a legend lists them (the `pieces` command).
pub const PIECE_MOVES: [(&str, &str); 6] = [
    ("K", "one step in any direction; castles with a rook"),
    ("Q", "any distance along ranks, files and diagonals"),
    ("R", "any distance along ranks and files"),
    ("B", "any distance diagonally"),
    ("N", "leaps two squares one way and one sideways (an L), over anything"),
    (
        "P",
        "one step forward (two from its first rank), captures one step diagonally forward, en passant; promotes on the last rank",
    ),
];

#[derive(Clone, Copy, Debug, Default)]
pub struct Chess;

impl Variant for Chess {
    type G = Board8x8;
    type ByType = [u64; 7];
    const NAME: &'static str = "chess";
    const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const PIECES: &'static [PieceDef] = &FIDE_PIECES;
    const KING: u8 = KING;
    const PAWN: u8 = PAWN;
    const PROMOTIONS: &'static [u8] = &[QUEEN, ROOK, BISHOP, KNIGHT];
    const CASTLING: Option<Castling> = Some(Castling::FIDE);
    const EN_PASSANT: bool = true;
    const STALEMATE_DRAWS: bool = true;
    /// No check extension: measured in self-play (docs/measurements.md).
    const CHECK_EXTENSION: bool = false;
    crate::variant_tables!(Board8x8);

    fn promotion_zone(color: usize) -> u64 {
        Board8x8::rank_bb(if color == WHITE { 7 } else { 0 })
    }
    fn parse_rights(field: &str) -> Option<[u64; 2]> {
        parse_castling(field, false)
    }
    fn format_rights(r: &[u64; 2]) -> String {
        format_castling(r, false)
    }
    fn rule_end(pos: &Position<Self>) -> Option<Outcome> {
        if pos.halfmove >= 100 {
            return Some(Outcome::draw("50-move rule"));
        }
        insufficient_material(pos)
    }
}

/// Insufficient material for FIDE chess: K v K, K+minor v K, and bishops all on one colour.
pub fn insufficient_material<V: Variant<G = Board8x8>>(pos: &Position<V>) -> Option<Outcome> {
    let occ = pos.occupied();
    let minors_only = occ & !(pos.by_type[KING as usize] | pos.by_type[KNIGHT as usize] | pos.by_type[BISHOP as usize]);
    if minors_only.any() || pos.hand_count(0) + pos.hand_count(1) > 0 {
        return None;
    }
    let knights = pos.by_type[KNIGHT as usize].count();
    let bishops = pos.by_type[BISHOP as usize];
    let dark = Board8x8::tables().dark;
    let n = occ.count();
    if n <= 3 || (knights == 0 && ((bishops & dark).is_empty() || (bishops & !dark).is_empty())) {
        return Some(Outcome::draw("insufficient material"));
    }
    None
}

/// Reads `KQkq` plus (when `gating`) the files of gating squares. `K`/`Q`
/// set castling (king and rook squares in rights[0]); with gating they also
/// give the gating right on the king's and that rook's squares (rights[1]).
pub fn parse_castling(field: &str, gating: bool) -> Option<[u64; 2]> {
    let mut r = [0u64; 2];
    if field == "-" {
        return Some(r);
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { 0 } else { 1 };
        let rank = if color == 0 { 0 } else { 7 };
        let sq = |f: usize| Board8x8::square(f, rank);
        match c.to_ascii_uppercase() {
            'K' | 'Q' => {
                let rook = if c.eq_ignore_ascii_case(&'K') { 7 } else { 0 };
                r[0] |= u64::bit(sq(4)) | u64::bit(sq(rook));
                if gating {
                    r[1] |= u64::bit(sq(4)) | u64::bit(sq(rook));
                }
            }
            f @ 'A'..='H' if gating => r[1] |= u64::bit(sq((f as u8 - b'A') as usize)),
            _ => return None,
        }
    }
    Some(r)
}

pub fn format_castling(r: &[u64; 2], gating: bool) -> String {
    let mut s = String::new();
    for color in 0..2 {
        let rank = if color == 0 { 0 } else { 7 };
        let sq = |f: usize| Board8x8::square(f, rank);
        let king = r[0].has(sq(4));
        let mut implied = 0u64;
        for (rook, letter) in [(7, 'K'), (0, 'Q')] {
            if king && r[0].has(sq(rook)) {
                s.push(if color == 0 { letter } else { letter.to_ascii_lowercase() });
                implied |= u64::bit(sq(4)) | u64::bit(sq(rook));
            }
        }
        if gating {
            for f in 0..8 {
                if r[1].has(sq(f)) && !implied.has(sq(f)) {
                    let l = (b'A' + f as u8) as char;
                    s.push(if color == 0 { l } else { l.to_ascii_lowercase() });
                }
            }
        }
    }
    if s.is_empty() { "-".into() } else { s }
}

pub type ChessBb = Bb<Chess>;
