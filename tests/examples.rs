//! `examples/analyse.py` (the README's script for analysing a variant over a
//! plain pipe) run against the engine. They fail where `python3` is missing
//! (`.ci/run` installs it).

use std::process::{Command, Stdio};

fn need_python3() {
    let ok = Command::new("python3").arg("--version").stdout(Stdio::null()).status().is_ok_and(|s| s.success());
    assert!(ok, "python3 not found: it is needed to run the example scripts");
}

fn engine() -> &'static str {
    env!("CARGO_BIN_EXE_calvin")
}

/// The engine's legal moves after `moves` from the variant's start.
fn legal_moves(variant: &str, moves: &[&str]) -> Vec<String> {
    let input = format!(
        "setoption name UCI_Variant value {variant}\nposition startpos moves {}\nmoves\nquit\n",
        moves.join(" ")
    );
    let mut child = Command::new(engine()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("engine");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().expect("engine output");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find_map(|l| l.strip_prefix("info string moves ")).expect("moves line");
    line.split_whitespace().map(String::from).collect()
}

/// Runs the repository's Python `script` with the engine, `variant`,
/// `depth` and `moves`; returns its standard output.
fn run_script(script: &str, variant: &str, depth: u32, moves: &[&str]) -> String {
    let path = format!("{}/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args([&path, engine(), variant, &depth.to_string()])
        .args(moves)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{script} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs the script; returns its two output lines (last scored info, bestmove).
fn analyse(variant: &str, depth: u32, moves: &[&str]) -> (String, String) {
    let text = run_script("examples/analyse.py", variant, depth, moves);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "output: {text}");
    (lines[0].to_string(), lines[1].to_string())
}

fn check(variant: &str, depth: u32, moves: &[&str]) {
    need_python3();
    let (info, best) = analyse(variant, depth, moves);
    assert!(info.starts_with(&format!("info depth {depth} ")), "{variant}: {info}");
    assert!(info.contains(" score "), "{variant}: {info}");
    let mv = best.strip_prefix("bestmove ").expect("bestmove line");
    assert!(legal_moves(variant, moves).iter().any(|m| m == mv), "{variant}: {mv} is not legal");
}

#[test]
fn analyse_ita() {
    check("ita", 3, &["e2e3", "e9e8"]);
}

#[test]
fn analyse_iago_c_after_drops() {
    check("iago-c", 3, &["Q@d1", "Q@d8"]);
}

#[test]
fn analyse_ito_shogi() {
    check("ito-shogi", 4, &[]);
}

#[test]
fn analyse_unknown_variant_fails() {
    need_python3();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/analyse.py");
    let out = Command::new("python3").args([script, engine(), "no-such-game", "2"]).output().expect("python3 runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("info string error"));
}

/// `tools/uci.py`, the driver the measuring tools share: one search's depth,
/// nodes and a legal best move.
#[test]
fn tools_uci_driver() {
    need_python3();
    let moves = ["K@e2", "K@e8"];
    let text = run_script("tools/uci.py", "historia-sako", 3, &moves);
    let tok: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(
        (tok.len(), tok[0], tok[1], tok[2], tok[4], tok[6]),
        (8, "depth", "3", "nodes", "score", "bestmove"),
        "{text}"
    );
    assert!(tok[3].parse::<u64>().is_ok_and(|n| n > 0), "{text}");
    assert!(tok[5].parse::<i32>().is_ok(), "{text}");
    assert!(legal_moves("historia-sako", &moves).iter().any(|m| m == tok[7]), "{text}");
}

/// `tools/pairs.py`: two versions' records against Fairy-Stockfish on the
/// same openings compared pair by pair (the figures of docs/measurements.md:
/// 1696d4f against 3220604 in chess, seeds 2601 and 2603), and a couple of
/// records with different openings refused.
#[test]
fn tools_pairs_compares_records_on_the_same_openings() {
    need_python3();
    let dir = format!("{}/tools", env!("CARGO_MANIFEST_DIR"));
    let run = |files: &[&str]| {
        Command::new("python3")
            .arg(format!("{dir}/pairs.py"))
            .args(files.iter().map(|f| format!("{dir}/data/{f}")))
            .output()
            .expect("python3 runs")
    };
    let out = run(&[
        "chess-fsf-10s-2601-1696d4f.pgn",
        "chess-fsf-10s-2601-3220604.pgn",
        "chess-fsf-10s-2603-1696d4f.pgn",
        "chess-fsf-10s-2603-3220604.pgn",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "100 pairs: +0.110 +- 0.123 a pair (new 54.0%, old 48.5%)\n");
    let out = run(&["chess-fsf-10s-2601-1696d4f.pgn", "chess-fsf-10s-2603-3220604.pgn"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pair 1: the openings differ"));
}
