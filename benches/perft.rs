//! `cargo bench`: perft speed (leaves per second, one thread, bulk counting
//! at the leaves) from each variant's start position.

use calvin::registry::{VARIANTS, new_game};
use std::time::Instant;

fn depth_for(variant: &str) -> u32 {
    match variant {
        "chess" => 6,
        "iago-b" => 5,
        "iago-c" => 6,
        "historia-sako" => 4,
        "ita" => 4,
        "ito-shogi" => 6,
        "etcetera" => 5,
        _ => 4,
    }
}

fn main() {
    // `cargo bench -- <name>` measures one variant.
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    println!("{:<14} {:>5} {:>13} {:>9} {:>12}", "variant", "depth", "leaves", "seconds", "leaves/s");
    for &v in VARIANTS {
        if !only.is_empty() && !only.iter().any(|o| o == v) {
            continue;
        }
        let game = new_game(v).expect("variant");
        let d = depth_for(v);
        let t = Instant::now();
        let n = game.perft(d);
        let s = t.elapsed().as_secs_f64();
        println!("{:<14} {:>5} {:>13} {:>9.2} {:>11.1}M", v, d, n, s, n as f64 / s / 1e6);
    }
}
