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

impl Move {
    pub const NULL: Move = Move(0);
    /// Any move that can never be generated, used as "none".
    pub const NONE: Move = Move(u32::MAX);

    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: Kind, piece: u8) -> Move {
        Move(to as u32 | (from as u32) << 7 | (kind as u32) << 14 | (piece as u32) << 18)
    }
    #[inline(always)]
    pub fn normal(from: usize, to: usize) -> Move {
        Move::new(from, to, Kind::Normal, 0)
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 & 127) as usize
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        ((self.0 >> 7) & 127) as usize
    }
    #[inline(always)]
    pub fn kind(self) -> Kind {
        match (self.0 >> 14) & 15 {
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
        ((self.0 >> 18) & 31) as u8
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
