//! The engine's move: 32 bits holding from, to, a kind and a piece type.
//! The protocol's text move is converted through the position (see `Position::parse_move`).

use arrayvec::ArrayVec;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    Normal = 0,
    /// `piece` is the new type.
    Promotion = 1,
    /// `piece` is the dropped type; `from` is unused.
    Drop = 2,
    /// `piece` is the type gated onto `from`.
    Gating = 3,
    /// King from/to; the rook is found by the position.
    Castling = 4,
    EnPassant = 5,
    /// Capture without moving: `to` is the victim.
    Igui = 6,
}

/// The move's bit fields: to (bits 0-6), from (7-13), kind (14-17), piece (18-22).
const SQUARE_BITS: u32 = 7;
const SQUARE_MASK: u32 = (1 << SQUARE_BITS) - 1;
const FROM_SHIFT: u32 = SQUARE_BITS;
const KIND_SHIFT: u32 = 2 * SQUARE_BITS;
const KIND_MASK: u32 = 15;
const PIECE_SHIFT: u32 = KIND_SHIFT + 4;
const PIECE_MASK: u32 = 31;

impl Move {
    pub const NULL: Move = Move(0);
    /// Any move that can never be generated, used as "none".
    pub const NONE: Move = Move(u32::MAX);

    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: Kind, piece: u8) -> Move {
        Move(to as u32 | (from as u32) << FROM_SHIFT | (kind as u32) << KIND_SHIFT | (piece as u32) << PIECE_SHIFT)
    }
    #[inline(always)]
    pub fn normal(from: usize, to: usize) -> Move {
        Move::new(from, to, Kind::Normal, 0)
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 & SQUARE_MASK) as usize
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        ((self.0 >> FROM_SHIFT) & SQUARE_MASK) as usize
    }
    #[inline(always)]
    pub fn kind(self) -> Kind {
        match (self.0 >> KIND_SHIFT) & KIND_MASK {
            0 => Kind::Normal,
            1 => Kind::Promotion,
            2 => Kind::Drop,
            3 => Kind::Gating,
            4 => Kind::Castling,
            5 => Kind::EnPassant,
            _ => Kind::Igui,
        }
    }
    #[inline(always)]
    pub fn piece(self) -> u8 {
        ((self.0 >> PIECE_SHIFT) & PIECE_MASK) as u8
    }
    pub fn is_null(self) -> bool {
        self == Move::NULL
    }
}

pub const MAX_MOVES: usize = 600;
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn fields_round_trip() {
        let m = Move::new(99, 98, Kind::Gating, 13);
        assert_eq!((m.from(), m.to(), m.kind(), m.piece()), (99, 98, Kind::Gating, 13));
        assert_eq!(Move::new(0, 5, Kind::Igui, 0).kind(), Kind::Igui);
    }
}
