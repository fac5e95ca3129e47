//! Helpers for the crate's unit tests.

use crate::moves::Move;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::variant::Variant;

/// Plays `games` pseudo-random games from the start position, each ending
/// after `plies` plies or when no move is left. At every position `step`
/// gets the position, its legal moves and the random source, checks what
/// it tests, and chooses the move to play.
pub(crate) fn random_games<V: Variant>(
    seed: u64,
    games: usize,
    plies: usize,
    mut step: impl FnMut(&Position<V>, &[Move], &mut SplitMix64) -> Move,
) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..games {
        let mut pos = Position::<V>::from_fen(V::START_FEN).expect("the start position reads");
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = step(&pos, &moves, &mut rng);
            pos = pos.play(m);
        }
    }
}
