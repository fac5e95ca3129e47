//! One perft runner for every variant: reads block files (`id`, `fen`,
//! optional `moves`, `perft <depth> <count>`) and checks each count.
//! Files: this project's `tests/perft/*.perft` and the independent reference
//! counts in `../shared/rules/perft/` when that folder is there.
//! Counts above `CALVIN_PERFT_MAX` nodes (default 20 million) are skipped in
//! debug builds; `cargo test --release` runs them all.

use calvin::registry::new_game;
use std::path::{Path, PathBuf};

struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    depth: u32,
    count: u64,
}

fn parse(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let (mut id, mut fen, mut moves) = (String::new(), String::new(), Vec::new());
    for line in text.lines() {
        let line = line.trim();
        if let Some(r) = line.strip_prefix("id ") {
            id = r.to_string();
            moves.clear();
        } else if let Some(r) = line.strip_prefix("fen ") {
            fen = r.to_string();
        } else if let Some(r) = line.strip_prefix("moves ") {
            moves = r.split_whitespace().map(String::from).collect();
        } else if let Some(r) = line.strip_prefix("perft ") {
            let mut it = r.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok()).expect("depth");
            let count = it.next().and_then(|d| d.parse().ok()).expect("count");
            out.push(Case { id: id.clone(), fen: fen.clone(), moves: moves.clone(), depth, count });
        }
    }
    out
}

fn limit() -> u64 {
    let default = if cfg!(debug_assertions) { 2_000_000 } else { 20_000_000 };
    std::env::var("CALVIN_PERFT_MAX").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/rules/perft")
}

/// Runs every case of a file; returns how many counts were checked.
fn run_file(variant: &str, path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut checked = 0;
    for case in parse(&text) {
        if case.count > limit() {
            continue;
        }
        let mut game = new_game(variant).unwrap_or_else(|| panic!("no variant {variant}"));
        game.set_position(Some(&case.fen), &[]).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert_eq!(game.fen(), case.fen, "{}: FEN does not round-trip", case.id);
        if !case.moves.is_empty() {
            // The moves lead from the start position to the FEN.
            let mv: Vec<&str> = case.moves.iter().map(|s| s.as_str()).collect();
            let mut from_start = new_game(variant).unwrap();
            from_start.set_position(None, &mv).unwrap_or_else(|e| panic!("{}: {e}", case.id));
            assert_eq!(from_start.fen(), case.fen, "{}: moves from the start", case.id);
        }
        assert_eq!(game.perft(case.depth), case.count, "{} perft {}", case.id, case.depth);
        checked += 1;
    }
    checked
}

fn run(variant: &str) {
    let mut checked = 0;
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/perft/{variant}.perft"));
    if own.exists() {
        checked += run_file(variant, &own);
    }
    let shared = shared_dir().join(format!("{variant}.perft"));
    if shared.exists() {
        checked += run_file(variant, &shared);
    }
    assert!(checked > 0, "no perft count checked for {variant}");
}

#[test]
fn chess() {
    run("chess");
}

#[test]
fn iago_b() {
    run("iago-b");
}

#[test]
fn iago_c() {
    run("iago-c");
}

#[test]
fn historia_sako() {
    run("historia-sako");
}

#[test]
fn ita() {
    run("ita");
}

#[test]
fn ito_shogi() {
    run("ito-shogi");
}

#[test]
fn etcetera() {
    run("etcetera");
}
