//! calvin-random: a UCI engine that plays a random legal move in any variant
//! calvin knows. An opponent for testing the match runner (`tests/runner.rs`)
//! and for smoke-testing variants as they land. The move depends only on
//! `--seed` and the position.
//!
//! usage: calvin-random [--seed N] [--think-ms T] [--name NAME] [--greedy]
//! (`--think-ms`: wait T ms before answering, or until `stop`. `--greedy`: a
//! beginner's play, the weakest opponent the strength levels are measured
//! against: it takes the free piece worth most when there is one (a capture
//! that wins material by static exchange: the piece is undefended or worth
//! more than its taker), else moves at random.)

use calvin::engine_game::EngineGame;
use calvin::registry::{RuleOption, RuleOptions, VARIANTS, new_game_with};
use calvin::rng::SplitMix64;
use crossbeam_channel::{RecvTimeoutError, unbounded};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let seed: u64 = arg("--seed").and_then(|s| s.parse().ok()).unwrap_or(1);
    let think = Duration::from_millis(arg("--think-ms").and_then(|s| s.parse().ok()).unwrap_or(0));
    let name = arg("--name").unwrap_or_else(|| "calvin-random".into());
    let greedy = args.iter().any(|a| a == "--greedy");

    let (tx, rx) = unbounded::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdout = std::io::stdout();
    let say = |s: &str| {
        let mut o = stdout.lock();
        let _ = writeln!(o, "{s}");
        let _ = o.flush();
    };
    let mut variant = VARIANTS[0].to_string();
    // Rule options (`setoption name IagoReserve value A`) hold from the next game on.
    let mut rules = RuleOptions::default();
    let mut game: Box<dyn EngineGame> = new_game_with(&variant, &rules).expect("default variant");
    while let Ok(line) = rx.recv() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say(&format!("id name {name}"));
                say("id author calvin tests");
                let vars: Vec<String> = VARIANTS.iter().map(|v| format!("var {v}")).collect();
                say(&format!("option name UCI_Variant type combo default {} {}", VARIANTS[0], vars.join(" ")));
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => {
                let name = line.split(" name ").nth(1).and_then(|r| r.split(" value ").next()).unwrap_or("").trim();
                let value = line.split(" value ").nth(1).unwrap_or("").trim();
                if let Some(o) = RuleOption::from_name(name) {
                    let _ = o.apply(&mut rules, value);
                } else if name == "UCI_Variant"
                    && let Some(g) = new_game_with(value, &rules)
                {
                    variant = value.to_string();
                    game = g;
                }
            }
            Some("position") => {
                let moves_at = words.iter().position(|w| *w == "moves");
                let head = &words[1..moves_at.unwrap_or(words.len())];
                let fen = (head.first() == Some(&"fen")).then(|| head[1..].join(" "));
                let moves: Vec<&str> = moves_at.map(|i| words[i + 1..].to_vec()).unwrap_or_default();
                let mut g = new_game_with(&variant, &rules).expect("variant");
                if let Err(e) = g.set_position(fen.as_deref(), &moves) {
                    say(&format!("info string bad position: {e}"));
                }
                game = g;
            }
            Some("go") => {
                let end = Instant::now() + think;
                loop {
                    let left = end.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    match rx.recv_timeout(left) {
                        Ok(l) if l.trim() == "stop" => break,
                        Ok(_) => {}
                        Err(RecvTimeoutError::Timeout) => break,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
                let legal = game.legal_moves();
                // The most won, the first in move order among equals.
                let free = if greedy { game.free_captures() } else { Vec::new() };
                let most = free.iter().map(|f| f.1).max();
                let mv = if let Some((mv, _)) = free.iter().find(|f| Some(f.1) == most) {
                    mv.clone()
                } else if legal.is_empty() {
                    "0000".to_string()
                } else {
                    let mut rng = SplitMix64::new(seed ^ game.key());
                    legal[rng.below(legal.len())].clone()
                };
                say(&format!("bestmove {mv}"));
            }
            Some("quit") => return,
            _ => {}
        }
    }
}
