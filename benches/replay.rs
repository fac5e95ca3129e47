//! `cargo bench --bench replay`: how fast a `position` command's moves are
//! read and played (microseconds a move, one thread). A GUI sends the whole
//! game with every move, and the time it takes comes out of the engine's
//! clock: a game of thousands of plies (Ita has no repetition rule) must
//! still be read in a few milliseconds.

use calvin::registry::{VARIANTS, new_game};
use calvin::rng::SplitMix64;
use std::time::Instant;

/// The longest game played for each variant, in plies.
const PLIES: usize = 2000;
/// Each game's moves are read this many times.
const ROUNDS: usize = 200;

fn main() {
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    println!("{:<14} {:>6} {:>9} {:>10}", "variant", "plies", "seconds", "us/move");
    for &v in VARIANTS {
        if !only.is_empty() && !only.iter().any(|o| o == v) {
            continue;
        }
        // A pseudo-random game (a fixed seed: the same game every run) to
        // its end or PLIES.
        let mut game = new_game(v).expect("variant");
        let mut moves = Vec::new();
        let mut rng = SplitMix64::new(1);
        while moves.len() < PLIES && game.outcome().is_none() {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())].clone();
            game.push_move(&m).expect("a legal move");
            moves.push(m);
        }
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut fresh = new_game(v).expect("variant");
        fresh.set_position(None, &texts).expect("the game reads back");
        let t = Instant::now();
        for _ in 0..ROUNDS {
            fresh.set_position(None, &texts).expect("the game reads back");
        }
        let s = t.elapsed().as_secs_f64();
        println!("{:<14} {:>6} {:>9.3} {:>10.2}", v, texts.len(), s, s * 1e6 / (ROUNDS * texts.len()) as f64);
    }
}
