//! One perft runner for every variant: reads block files (`id`, `fen`,
//! optional `moves`, `perft <depth> <count>`) and checks each count.
//! Files: `tests/perft/<variant>.perft` in this repository (every variant has
//! one; the counts of the variants other than chess come from an independent
//! reference implementation of the rules in `docs/rules/`).
//! Optional extra: if `CALVIN_PERFT_EXTRA` names a folder, its
//! `<variant>.perft` files are checked too; the suite never needs it.
//! Counts above `CALVIN_PERFT_MAX` nodes are skipped: by default 20 million
//! in optimised builds (`cargo test --profile quick`), 2 million in debug
//! builds; `CALVIN_PERFT_MAX=999999999999` checks them all.

use calvin::registry::{VARIANTS, new_game};
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

/// The optional extra folder named by `CALVIN_PERFT_EXTRA` (unset: none).
fn extra_dir() -> Option<PathBuf> {
    std::env::var_os("CALVIN_PERFT_EXTRA").map(PathBuf::from)
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
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/perft/{variant}.perft"));
    let checked = run_file(variant, &own);
    assert!(checked > 0, "no perft count checked for {variant}");
    if let Some(extra) = extra_dir().map(|d| d.join(format!("{variant}.perft"))).filter(|p| p.exists()) {
        run_file(variant, &extra);
    }
}

/// Every variant of the registry, each with its own reference file: a new
/// variant without `tests/perft/<name>.perft` fails here.
#[test]
fn every_variant() {
    for name in VARIANTS {
        run(name);
    }
}
