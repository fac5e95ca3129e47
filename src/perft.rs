//! Perft: counts the leaves of the legal move tree (bulk counting at depth 1).

use crate::moves::MoveList;
use crate::position::Position;
use crate::variant::Variant;

pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if V::board_end(pos).is_some() {
        return 0;
    }
    if depth == 1 {
        return pos.count_legal();
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let ctx = pos.legal_ctx();
    let mut n = 0;
    for &m in list.iter() {
        if let Some(child) = pos.play_legal(m, &ctx) {
            n += perft(&child, depth - 1);
        }
    }
    n
}

/// Perft split by root move: (move text, count) in generation order.
pub fn divide<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<(String, u64)> {
    if V::board_end(pos).is_some() || depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().iter().map(|&m| (pos.move_to_uci(m), perft(&pos.play(m), depth - 1))).collect()
}
