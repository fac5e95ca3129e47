//! The match runner end to end: `calvin-match` against fake engines
//! (`tests/fake_engines/fake_uci.py`, a scripted Python engine, and the
//! `calvin-random` engine), with the exact result and reason of each game
//! read back from the record it writes.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const FOOLS_MATE: &str = "f2f3 e7e5 g2g4 d8h4";
/// Sam Loyd's ten-move stalemate.
const STALEMATE: &str =
    "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_F3: &str = "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1";

struct Game {
    tags: HashMap<String, String>,
    moves: Vec<String>,
}

impl Game {
    fn tag(&self, k: &str) -> &str {
        self.tags.get(k).map(|s| s.as_str()).unwrap_or("")
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    games: Vec<Game>,
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("runner-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// The fake engine's command line.
fn fake(args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/fake_uci.py");
    format!("python3 {} {args}", script.display())
}

/// The random mover's command line (`src/bin/calvin-random.rs`).
fn random_mover(args: &str) -> String {
    format!("{} {args}", env!("CARGO_BIN_EXE_calvin-random"))
}

fn parse_pgn(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut tags = HashMap::new();
    let mut moves = Vec::new();
    let mut in_moves = false;
    for line in text.lines() {
        if let Some(t) = line.strip_prefix('[') {
            if in_moves {
                games.push(Game { tags: std::mem::take(&mut tags), moves: std::mem::take(&mut moves) });
                in_moves = false;
            }
            let (k, v) = t.trim_end_matches(']').split_once(' ').unwrap();
            tags.insert(k.to_string(), v.trim_matches('"').replace("\\\"", "\""));
        } else if !line.is_empty() {
            in_moves = true;
            let no_comment = match (line.find('{'), line.rfind('}')) {
                (Some(a), Some(b)) => format!("{}{}", &line[..a], &line[b + 1..]),
                _ => line.to_string(),
            };
            for w in no_comment.split_whitespace() {
                if !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2"].contains(&w) {
                    moves.push(w.to_string());
                }
            }
        }
    }
    if !tags.is_empty() {
        games.push(Game { tags, moves });
    }
    games.sort_by_key(|g| g.tag("Round").parse::<u32>().unwrap());
    games
}

fn run(name: &str, args: &[String]) -> Run {
    let pgn = tmp(&format!("{name}.pgn"));
    let out = Command::new(env!("CARGO_BIN_EXE_calvin-match")).args(args).arg("--pgnout").arg(&pgn).output().unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        games: parse_pgn(&text),
    }
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Two scripted fakes named A and B, plus more arguments.
fn fakes(a: &str, b: &str, rest: &[&str]) -> Vec<String> {
    let mut v = vec![
        "--engine".to_string(),
        format!("cmd={}", fake(a)),
        "name=A".into(),
        "--engine".into(),
        format!("cmd={}", fake(b)),
        "name=B".into(),
    ];
    v.extend(args(rest));
    v
}

fn check(g: &Game, white: &str, result: &str, termination: &str) {
    assert_eq!(g.tag("White"), white, "White of game {}", g.tag("Round"));
    assert_eq!(g.tag("Result"), result, "Result of game {}", g.tag("Round"));
    assert_eq!(g.tag("Termination"), termination, "Termination of game {}", g.tag("Round"));
}

#[test]
fn checkmate_in_pairs_with_options_and_sprt() {
    let log = tmp("mate.log");
    let a = format!("--moves '{FOOLS_MATE}' --log {}", log.display());
    let b = format!("--moves '{FOOLS_MATE}'");
    let r = run(
        "mate",
        &fakes(&a, &b, &["--each", "option.Hash=32", "--tc", "10+0.1", "--games", "2", "--sprt", "elo0=0", "elo1=5"]),
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.games.len(), 2);
    for (g, white) in r.games.iter().zip(["A", "B"]) {
        check(g, white, "0-1", "checkmate");
        assert_eq!(g.moves, FOOLS_MATE.split(' ').collect::<Vec<_>>());
        assert_eq!(g.tag("Variant"), "chess");
        assert_eq!(g.tag("FEN"), START);
        assert_eq!(g.tag("TimeControl"), "10+0.1");
        assert_eq!(g.tag("PlyCount"), "4");
        assert_eq!(g.tags.get("Scores"), None);
    }
    assert_eq!(r.games[0].tag("Black"), "B");
    assert!(r.stdout.contains("Score of A vs B: 1 - 1 - 0  [0.500] 2/2"), "{}", r.stdout);
    assert!(r.stdout.contains("Elo difference: 0.0"), "{}", r.stdout);
    assert!(r.stdout.contains("SPRT: llr 0.000"), "{}", r.stdout);
    assert!(r.stdout.contains("lbound -2.944, ubound 2.944"), "{}", r.stdout);
    let log = std::fs::read_to_string(&log).unwrap();
    for want in [
        "setoption name Hash value 32",
        "setoption name UCI_Variant value chess",
        "ucinewgame",
        "position startpos",
        "go wtime 10000 btime 10000 winc 100 binc 100",
        "position startpos moves f2f3 e7e5",
    ] {
        assert!(log.lines().any(|l| l == want), "'{want}' not sent:\n{log}");
    }
    // Hash before the variant, and ItaTimeMode only with an Ita clock.
    let hash = log.find("setoption name Hash").unwrap();
    assert!(hash < log.find("setoption name UCI_Variant").unwrap());
    assert!(!log.contains("ItaTimeMode"));
}

#[test]
fn draw_by_repetition() {
    let line = "--moves 'g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3'";
    let r = run("repetition", &fakes(line, line, &["--depth", "1", "--games", "1"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.games.len(), 1);
    check(&r.games[0], "A", "1/2-1/2", "threefold repetition");
    assert_eq!(r.games[0].moves.len(), 8);
    assert!(r.stdout.contains("Score of A vs B: 0 - 0 - 1"), "{}", r.stdout);
}

#[test]
fn stalemate() {
    let line = format!("--moves '{STALEMATE}'");
    let r = run("stalemate", &fakes(&line, &line, &["--st", "5", "--games", "1"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "1/2-1/2", "stalemate");
    assert_eq!(r.games[0].moves.len(), 19);
    assert_eq!(r.games[0].tag("TimeControl"), "st=5");
}

#[test]
fn illegal_move_loses() {
    let line = "--moves 'e2e4 e7e5 e1e3'";
    let r = run("illegal", &fakes(line, line, &["--depth", "1", "--games", "1"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "0-1", "illegal move by A: e1e3");
    assert_eq!(r.games[0].moves, vec!["e2e4", "e7e5"]);
    assert!(r.stdout.contains("Forfeits of A: 1 illegal move"), "{}", r.stdout);
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let a = format!("--moves '{FOOLS_MATE}' --crash-at 2");
    let b = format!("--moves '{FOOLS_MATE}'");
    let r = run("crash", &fakes(&a, &b, &["--depth", "1", "--games", "2"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.games.len(), 2);
    check(&r.games[0], "A", "0-1", "crash: A exited (exit status: 3) while thinking");
    assert_eq!(r.games[0].moves, vec!["f2f3", "e7e5"]);
    // Restarted: A plays the whole second game (as Black, so no ply 2).
    check(&r.games[1], "B", "0-1", "checkmate");
    assert!(r.stdout.contains("Score of A vs B: 1 - 1 - 0"), "{}", r.stdout);
    assert!(r.stdout.contains("Forfeits of A: 1 crash"), "{}", r.stdout);
}

#[test]
fn hang_in_search_is_a_stall() {
    let a = format!("--moves '{FOOLS_MATE}' --hang-at 0");
    let b = format!("--moves '{FOOLS_MATE}'");
    let r = run("hang", &fakes(&a, &b, &["--depth", "1", "--move-timeout", "3", "--games", "2"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "0-1", "stall: A sent no bestmove within 3.0 s");
    check(&r.games[1], "B", "0-1", "checkmate");
    assert!(r.stdout.contains("Forfeits of A: 1 stall"), "{}", r.stdout);
}

#[test]
fn no_readyok_is_a_stall_every_game() {
    let a = format!("--moves '{FOOLS_MATE}'");
    let b = format!("--moves '{FOOLS_MATE}' --no-readyok-after-newgame");
    let r = run("readyok", &fakes(&a, &b, &["--depth", "1", "--start-timeout", "3", "--games", "2"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "1-0", "stall: B sent no readyok within 3.0 s");
    check(&r.games[1], "B", "0-1", "stall: B sent no readyok within 3.0 s");
    assert!(r.stdout.contains("Score of A vs B: 2 - 0 - 0"), "{}", r.stdout);
}

#[test]
fn time_forfeits() {
    let slow = format!("--moves '{FOOLS_MATE}' --think-ms 8000");
    let fast = format!("--moves '{FOOLS_MATE}'");
    let r = run("time", &fakes(&slow, &fast, &["--tc", "2", "--games", "1"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "0-1", "time forfeit: A sent no move within 2.000 s");
    assert!(r.games[0].moves.is_empty());
    assert!(r.stdout.contains("Forfeits of A: 1 time forfeit"), "{}", r.stdout);
    // Fixed time per move with a margin; the slow one is Black here.
    let r = run("time-st", &fakes(&fast, &slow, &["--st", "2", "--timemargin", "200", "--games", "1"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "1-0", "time forfeit: B sent no move within 2.200 s");
    assert_eq!(r.games[0].moves, vec!["f2f3"]);
}

#[test]
fn endless_output_cannot_hold_the_runner() {
    let a = format!("--moves '{FOOLS_MATE}' --spam-at 0");
    let b = format!("--moves '{FOOLS_MATE}'");
    let r = run("spam", &fakes(&a, &b, &["--st", "2", "--timemargin", "200", "--stop-grace", "0.2", "--games", "2"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "0-1", "time forfeit: A sent no move within 2.200 s");
    // Killed and restarted: the second game is played normally.
    check(&r.games[1], "B", "0-1", "checkmate");
}

#[test]
fn ita_clock_and_engine_variant_names_are_sent() {
    let log = tmp("itaclock.log");
    let a = format!("--moves '{FOOLS_MATE}' --log {}", log.display());
    let b = format!("--moves '{FOOLS_MATE}'");
    let mut list = fakes(&a, &b, &["--tc", "ita:hardcore", "--games", "1"]);
    list.insert(3, "variant=fide".into());
    let r = run("itaclock", &list);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "0-1", "checkmate");
    assert_eq!(r.games[0].tag("TimeControl"), "ita:hardcore");
    let log = std::fs::read_to_string(&log).unwrap();
    for want in [
        "setoption name UCI_Variant value fide",
        "setoption name ItaTimeMode value hardcore",
        "go wtime 210600 btime 252720 winc 0 binc 0",
    ] {
        assert!(log.lines().any(|l| l == want), "'{want}' not sent:\n{log}");
    }
}

#[test]
fn garbage_output_loses() {
    let a = format!("--moves '{FOOLS_MATE}' --garbage-at 0");
    let b = format!("--moves '{FOOLS_MATE}' --binary-at 2");
    let r = run("garbage", &fakes(&a, &b, &["--depth", "1", "--games", "2"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    check(&r.games[0], "A", "0-1", "garbage: A sent 'bestmove xyzzy!', which is not a move");
    let g = &r.games[1];
    assert_eq!(g.tag("White"), "B");
    assert_eq!(g.tag("Result"), "0-1");
    assert!(
        g.tag("Termination").starts_with("garbage: B sent bytes that are not UTF-8 text"),
        "{}",
        g.tag("Termination")
    );
    assert_eq!(g.moves, vec!["f2f3", "e7e5"]);
}

#[test]
fn an_engine_that_never_starts_stops_the_match_at_once() {
    let a = "--no-uciok";
    let r = run("nostart", &fakes(a, "", &["--depth", "1", "--start-timeout", "3"]));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("engine 1 does not start: stall: ") && r.stderr.contains("sent no uciok within 3.0 s"),
        "{}",
        r.stderr
    );
    assert!(r.games.is_empty());
    let r = run(
        "nocmd",
        &args(&["--engine", "cmd=/nonexistent/engine", "--engine", "cmd=/nonexistent/other", "--depth", "1"]),
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("could not be started"), "{}", r.stderr);
    let r = run("badvariant", &fakes("", "", &["--depth", "1", "--variant", "nope"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("unknown variant 'nope'"), "{}", r.stderr);
    let r = run("nolimit", &fakes("", "", &[]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no limit"), "{}", r.stderr);
}

#[test]
fn openings_from_a_file() {
    let book = tmp("book.txt");
    std::fs::write(&book, format!("# one opening\nfen {AFTER_F3} moves e7e5\n")).unwrap();
    let log = tmp("book.log");
    // The fake plays by the number of moves in `position`, counted from the FEN.
    let a = format!("--moves 'x g2g4 d8h4' --log {}", log.display());
    let b = "--moves 'x g2g4 d8h4'".to_string();
    let r = run("book", &fakes(&a, &b, &["--openings", book.to_str().unwrap(), "--depth", "1", "--games", "2"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.games.len(), 2);
    for (g, white) in r.games.iter().zip(["A", "B"]) {
        check(g, white, "0-1", "checkmate");
        assert_eq!(g.tag("FEN"), AFTER_F3);
        assert_eq!(g.tag("OpeningPlies"), "1");
        assert_eq!(g.moves, vec!["e7e5", "g2g4", "d8h4"]);
    }
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains(&format!("position fen {AFTER_F3} moves e7e5\n")), "{log}");
    let bad = tmp("badbook.txt");
    std::fs::write(&bad, "startpos moves e2e5\n").unwrap();
    let r = run("badbook", &fakes("", "", &["--openings", bad.to_str().unwrap(), "--depth", "1"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("line 1: illegal move 'e2e5'"), "{}", r.stderr);
}

fn random_match(name: &str, extra: &[&str]) -> Run {
    let mut a = vec![
        "--engine".to_string(),
        format!("cmd={}", random_mover("--seed 1")),
        "name=R1".into(),
        "--engine".into(),
        format!("cmd={}", random_mover("--seed 2")),
        "name=R2".into(),
    ];
    a.extend(args(extra));
    run(name, &a)
}

#[test]
fn random_openings_concurrency_and_repeatable_seed() {
    let extra = [
        "--games",
        "4",
        "--concurrency",
        "2",
        "--random-plies",
        "6",
        "--seed",
        "11",
        "--maxplies",
        "30",
        "--depth",
        "1",
    ];
    let r1 = random_match("random1", &extra);
    assert_eq!(r1.code, 0, "{}{}", r1.stdout, r1.stderr);
    assert!(r1.stdout.contains("seed 11"), "{}", r1.stdout);
    assert_eq!(r1.games.len(), 4);
    for (i, g) in r1.games.iter().enumerate() {
        assert_eq!(g.tag("Round"), (i + 1).to_string());
        assert_eq!(g.tag("White"), ["R1", "R2"][i % 2]);
        assert_eq!(g.tag("OpeningPlies"), "6");
        assert!(g.moves.len() >= 6);
        assert!(g.tag("PlyCount").parse::<usize>().unwrap() <= 36);
        let t = g.tag("Termination");
        assert!(t == "adjudication: move limit (30 plies)" || !t.contains(':'), "{t}");
    }
    // Pairs share their opening; pairs differ.
    assert_eq!(r1.games[0].moves[..6], r1.games[1].moves[..6]);
    assert_eq!(r1.games[2].moves[..6], r1.games[3].moves[..6]);
    assert_ne!(r1.games[0].moves[..6], r1.games[2].moves[..6]);
    // The same seed plays the same games.
    let r2 = random_match("random2", &extra);
    assert_eq!(r2.code, 0, "{}{}", r2.stdout, r2.stderr);
    for (a, b) in r1.games.iter().zip(&r2.games) {
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.tag("Termination"), b.tag("Termination"));
    }
}

#[test]
fn every_variant_plays_to_an_end() {
    for v in calvin::registry::VARIANTS {
        let r = random_match(
            &format!("variant-{v}"),
            &["--variant", v, "--games", "2", "--random-plies", "2", "--maxplies", "60", "--depth", "1"],
        );
        assert_eq!(r.code, 0, "{v}: {}{}", r.stdout, r.stderr);
        assert_eq!(r.games.len(), 2, "{v}");
        for g in &r.games {
            assert_eq!(g.tag("Variant"), *v);
            let mut game = calvin::registry::new_game(v).unwrap();
            game.set_position(Some(g.tag("FEN")), &[]).unwrap();
            for m in &g.moves {
                game.push_move(m).unwrap();
            }
            // The recorded end is the rules' end (or the move limit).
            match game.outcome() {
                Some(o) => {
                    assert_eq!(g.tag("Termination"), o.reason, "{v}");
                    if let Some(s) = o.scores {
                        assert_eq!(g.tag("Scores"), format!("{}:{}", s[0], s[1]));
                    }
                }
                None => assert_eq!(g.tag("Termination"), "adjudication: move limit (60 plies)"),
            }
        }
    }
}

/// Rule options given to both engines are the referee's rules too; different
/// rules for the two engines are refused before any game.
#[test]
fn rule_options_reach_the_referee() {
    let iago = ["--variant", "iago-c", "--games", "2", "--maxplies", "20", "--depth", "1"];
    let mut a = vec!["--each", "option.IagoReserve=A", "option.IagoBareKing=true"];
    a.extend(iago);
    let r = random_match("iago-rules", &a);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for g in &r.games {
        assert_eq!(g.tag("FEN"), "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Aa] w KQBCDFGkqbcdfg - 0 1");
        // The only piece in reserve fills the queen's square first.
        assert_eq!(g.moves[..2], ["A@d1", "A@d8"]);
    }
    // Different rules: refused. The class's own reserve is the default.
    let mut a = vec!["--engine".to_string(), format!("cmd={}", random_mover("")), "option.IagoReserve=QMCA".into()];
    a.extend(args(&["--engine", &format!("cmd={}", random_mover(""))]));
    a.extend(args(&iago));
    let r = run("iago-different", &a);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("different rules of iago-c (IagoReserve=QMCA / the defaults)"), "{}", r.stderr);
    let mut a = vec!["--engine".to_string(), format!("cmd={}", random_mover("")), "option.IagoReserve=cmq".into()];
    a.extend(args(&["--engine", &format!("cmd={}", random_mover("")), "--games", "1", "--variant", "iago-c"]));
    a.extend(args(&["--maxplies", "4", "--depth", "1"]));
    assert_eq!(run("iago-same", &a).code, 0);
}

/// A setting the runner would send to an engine in a `setoption` line is
/// refused at start-up if it holds a line break (it would be two commands).
#[test]
fn a_line_break_in_an_engine_option_is_refused_at_start() {
    for (setting, key) in [
        ("option.Style=calm\nquit", "option.Style"),
        ("option.Style=calm\r", "option.Style"),
        ("option.Bad\nName=1", "option.Bad\\nName"),
        ("variant=chess\nquit", "variant"),
    ] {
        let r = run("line-break", &fakes("", "", &["--each", setting, "--games", "2"]));
        assert_eq!(r.code, 2, "{setting:?}: {}{}", r.stdout, r.stderr);
        assert_eq!(r.stderr, format!("calvin-match: {key}: a line break cannot be sent to an engine\n"), "{setting:?}");
        assert_eq!(r.stdout, "");
        assert!(r.games.is_empty());
    }
}

/// Ita's time result (1 for the side that ran out, 4 for the other).
#[test]
fn ita_time_forfeit_scores_one_to_four() {
    let mut a = vec![
        "--engine".to_string(),
        format!("cmd={}", random_mover("--think-ms 8000")),
        "name=Slow".into(),
        "--engine".into(),
        format!("cmd={}", random_mover("")),
        "name=Fast".into(),
    ];
    a.extend(args(&["--variant", "ita", "--tc", "2", "--games", "1"]));
    let r = run("ita-time", &a);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let g = &r.games[0];
    check(g, "Slow", "0-1", "time forfeit: Slow sent no move within 2.000 s");
    assert_eq!(g.tag("Scores"), "1:4");
    assert!(r.stdout.contains("Points in 1 scored games: Slow 1, Fast 4"), "{}", r.stdout);
}

/// calvin prints a banner line (`calvin <version> by ...`) before it is
/// asked anything: the runner's handshake passes over it and names the
/// engine by its `id name`.
#[test]
fn the_engines_banner_is_passed_over() {
    let r = run(
        "banner",
        &args(&[
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_calvin")),
            "--engine",
            &format!("cmd={}", random_mover("--seed 3")),
            "name=R",
            "--nodes",
            "300",
            "--games",
            "1",
        ]),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.games.len(), 1, "{}", r.stdout);
    assert_eq!(r.games[0].tag("White"), concat!("calvin ", env!("CARGO_PKG_VERSION")));
    assert_eq!(r.games[0].tag("Black"), "R");
    assert!(r.games[0].moves.len() >= 2, "{:?}", r.games[0].moves);
}

/// `calvin-random --greedy`: takes the free piece worth most (undefended,
/// or worth more than its taker, by static exchange), else a random move.
#[test]
fn greedy_random_mover_takes_free_pieces() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_calvin-random"))
        .args(["--greedy", "--seed", "3"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("calvin-random");
    let input = [
        // A pawn takes a defended knight (worth more than the pawn).
        "position fen 4k3/1p6/2n5/1P6/8/8/8/4K3 w - - 0 1",
        // The undefended queen rather than the undefended rook.
        "position fen 4k3/8/8/3q4/7r/8/8/3QK2R w - - 0 1",
        // Rxh5 wins the rook: the queen that defends it would be lost to Qxh5.
        "position fen 4k3/8/8/3q3r/8/8/8/3QK2R w - - 0 1",
        // The only capture loses the queen for a pawn: a random move.
        "position fen 4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1",
    ];
    let mut text = String::new();
    for p in input {
        text += &format!("{p}\ngo\n");
    }
    text += "quit\n";
    child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("output");
    let moves: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove ").map(String::from))
        .collect();
    assert_eq!(moves, ["b5c6", "d1d5", "h1h5", "d1b1"]);
}

/// The engine itself on both sides, named A and B, a few hundred nodes a move.
fn self_play(games: &str, seed: &str, extra: &[&str]) -> Vec<String> {
    let calvin = env!("CARGO_BIN_EXE_calvin");
    let mut v = args(&["--engine", &format!("cmd={calvin}"), "name=A", "--engine", &format!("cmd={calvin}"), "name=B"]);
    v.extend(args(&["--each", "nodes=300", "option.Hash=1", "--games", games, "--seed", seed]));
    v.extend(args(&["--random-plies", "6", "--maxplies", "120", "--sprt", "elo0=0", "elo1=10"]));
    v.extend(args(extra));
    v
}

/// `calvin-match merge FILES...`: (exit code, stdout, stderr).
fn merge(files: &[&Path]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_calvin-match")).arg("merge").args(files).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The games of a run as (Round, moves), in Round order.
fn move_texts(games: &[Game]) -> Vec<(String, Vec<String>)> {
    games.iter().map(|g| (g.tag("Round").to_string(), g.moves.clone())).collect()
}

const SELF_PLAY_REPORT: &str = "Score of A vs B: 1 - 1 - 4  [0.500] 6/6
Elo difference: 0.0 +/- 173.7 (95%), LOS: 50.0 %, DrawRatio: 66.7 %
SPRT: llr -0.007 (-0.3%), lbound -2.944, ubound 2.944 - no decision (elo0=0 elo1=10 alpha=0.05 beta=0.05)
";

#[test]
fn two_shards_play_the_single_runs_games_and_merge_to_its_report() {
    let whole_results = tmp("whole.jsonl");
    let whole = run("shard-whole", &self_play("6", "7", &["--results", whole_results.to_str().unwrap()]));
    assert_eq!(whole.code, 0, "{}{}", whole.stdout, whole.stderr);
    assert_eq!(whole.games.len(), 6);
    assert!(whole.stdout.ends_with(SELF_PLAY_REPORT), "{}", whole.stdout);
    let mut shard_games = Vec::new();
    let mut files = Vec::new();
    for (i, rounds) in [(1, ["1", "2", "5", "6"]), (2, ["3", "4", "", ""])] {
        let results = tmp(&format!("shard{i}.jsonl"));
        let r = run(
            &format!("shard{i}"),
            &self_play("6", "7", &["--shard", &format!("{i}/2"), "--results", results.to_str().unwrap()]),
        );
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let first = r.stdout.lines().next().unwrap().to_string();
        let n = if i == 1 { 4 } else { 2 };
        assert_eq!(first, format!("A vs B: {n} of 6 games of chess (shard {i}/2), 1 at once, seed 7"));
        // Both colours of an opening pair stay in one shard.
        let got: Vec<&str> = r.games.iter().map(|g| g.tag("Round")).collect();
        assert_eq!(got, rounds[..n]);
        shard_games.extend(r.games);
        files.push(results);
    }
    shard_games.sort_by_key(|g| g.tag("Round").parse::<u32>().unwrap());
    assert_eq!(move_texts(&shard_games), move_texts(&whole.games));
    let json = r#"{"games":6,"total":6,"pairs":3,"wdl":[1,4,1],"penta":[0,0,3,0,0],"llr":-0.007452,"verdict":null"#;
    let (code, out, err) = merge(&[&files[1], &files[0]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{SELF_PLAY_REPORT}{json},\"shards\":[1,2],\"of\":2}}\n"));
    // The single run's own file gives its report too.
    let (code, out, _) = merge(&[&whole_results]);
    assert_eq!((code, out), (0, format!("{SELF_PLAY_REPORT}{json},\"shards\":[1],\"of\":1}}\n")));
    // A run killed while writing a pair's line: that pair is left out.
    let text = std::fs::read_to_string(&whole_results).unwrap();
    let cut = tmp("cut.jsonl");
    std::fs::write(&cut, &text[..text.len() - 10]).unwrap();
    let (code, out, err) = merge(&[&cut]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Score of A vs B: "), "{out}");
    assert!(out.contains(r#"{"games":4,"total":6,"pairs":2,"#), "{out}");
    assert_eq!(err, format!("calvin-match: {}: left out a line cut off at its end\n", cut.display()));
    // Twenty pairs won twice decide the SPRT, as a single run would.
    let header = text.lines().next().unwrap().replace(r#""games":6,"#, r#""games":40,"#);
    let won = r#"{"game":1,"a_white":true,"a":"W","points":null,"forfeit":null}"#;
    let lines: Vec<String> = (0..20).map(|p| format!(r#"{{"pair":{p},"games":[{won},{won}],"penta":4}}"#)).collect();
    let decided = tmp("decided.jsonl");
    std::fs::write(&decided, format!("{header}\n{}\n", lines.join("\n"))).unwrap();
    let (code, out, _) = merge(&[&decided]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Score of A vs B: 40 - 0 - 0  [1.000] 40/40\n"), "{out}");
    assert!(out.contains("SPRT: llr 18.774 (637.6%), lbound -2.944, ubound 2.944 - H1 was accepted (elo0=0 elo1=10 alpha=0.05 beta=0.05)\n"), "{out}");
    std::fs::write(&decided, format!("{}\n{}\n", text.lines().next().unwrap(), lines[3])).unwrap();
    let (code, _, err) = merge(&[&decided]);
    assert_eq!(
        (code, err),
        (2, format!("calvin-match: merge: {}: pair 3 is past the match's 6 games\n", decided.display()))
    );
    assert!(
        out.ends_with("\"penta\":[0,0,0,0,20],\"llr\":18.773782,\"verdict\":\"H1\",\"shards\":[1],\"of\":1}\n"),
        "{out}"
    );
}

#[test]
fn a_resumed_run_plays_only_the_pairs_its_results_file_lacks() {
    let whole_results = tmp("resume-whole.jsonl");
    let whole = run("resume-whole", &self_play("6", "7", &["--results", whole_results.to_str().unwrap()]));
    assert_eq!(whole.code, 0, "{}{}", whole.stdout, whole.stderr);
    // A run killed after its first pair, while writing the second's line.
    let text = std::fs::read_to_string(&whole_results).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 4);
    let cut = tmp("resume-cut.jsonl");
    std::fs::write(&cut, format!("{}{}{}", lines[0], lines[1], &lines[2][..20])).unwrap();
    let resumed = run("resumed", &self_play("6", "7", &["--results", cut.to_str().unwrap(), "--resume"]));
    assert_eq!(resumed.code, 0, "{}{}", resumed.stdout, resumed.stderr);
    let head: Vec<&str> = resumed.stdout.lines().take(2).collect();
    assert_eq!(
        head,
        ["A vs B: 6 games of chess, 1 at once, seed 7", "Resumed: 2 games played before, in 1 opening pair"]
    );
    assert_eq!(resumed.stderr, format!("calvin-match: {}: left out a line cut off at its end\n", cut.display()));
    // The pairs not in the file, and the same games as the whole run's.
    assert_eq!(move_texts(&resumed.games), move_texts(&whole.games[2..]));
    assert!(resumed.stdout.ends_with(SELF_PLAY_REPORT), "{}", resumed.stdout);
    assert_eq!(merge(&[&cut]).1, merge(&[&whole_results]).1);
    // Resumed again without --seed (the file's is taken): nothing is left to play.
    let mut no_seed = self_play("6", "7", &["--results", cut.to_str().unwrap(), "--resume"]);
    let at = no_seed.iter().position(|a| a == "--seed").unwrap();
    no_seed.drain(at..at + 2);
    let again = run("resumed-again", &no_seed);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.games.is_empty());
    assert!(
        again.stdout.starts_with(
            "A vs B: 6 games of chess, 1 at once, seed 7\nResumed: 6 games played before, in 3 opening pairs\n"
        ),
        "{}",
        again.stdout
    );
    assert!(again.stdout.ends_with(SELF_PLAY_REPORT), "{}", again.stdout);
    // Another match's file, or no file to resume, is refused before any game.
    let other = run("resume-other", &self_play("6", "8", &["--results", cut.to_str().unwrap(), "--resume"]));
    assert_eq!(
        (other.code, other.stderr),
        (
            1,
            format!(
                "calvin-match: --resume: {} holds another match's results (seed 7 / 8); give another --results file\n",
                cut.display()
            )
        )
    );
    assert!(other.games.is_empty());
    let shard =
        run("resume-shard", &self_play("6", "7", &["--shard", "2/2", "--results", cut.to_str().unwrap(), "--resume"]));
    assert_eq!(shard.code, 1);
    assert_eq!(
        shard.stderr,
        format!(
            "calvin-match: --resume: {} holds another match's results (shard null / \"2/2\"); give another --results file\n",
            cut.display()
        )
    );
    let bare = run("resume-bare", &self_play("2", "7", &["--resume"]));
    assert_eq!((bare.code, bare.stderr.as_str()), (2, "calvin-match: --resume continues a --results file: give one\n"));
}

#[test]
fn bad_shards_and_results_of_other_matches_are_refused() {
    for bad in ["0/3", "4/3", "x/y"] {
        let r = run("badshard", &self_play("2", "7", &["--shard", bad]));
        assert_eq!(r.code, 2, "{bad}");
        assert_eq!(
            r.stderr,
            format!("calvin-match: --shard wants I/N with 1 <= I <= N (whole numbers), not '{bad}'\n")
        );
        assert!(r.games.is_empty());
    }
    let mut no_seed = self_play("2", "7", &["--shard", "1/2"]);
    let at = no_seed.iter().position(|a| a == "--seed").unwrap();
    no_seed.drain(at..at + 2);
    let r = run("noseed", &no_seed);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (2, "calvin-match: --shard needs --seed (every shard must draw the same openings)\n")
    );
    let (a, b, c) = (tmp("other-a.jsonl"), tmp("other-b.jsonl"), tmp("other-c.jsonl"));
    for (file, seed, shard) in [(&a, "7", "1/2"), (&b, "8", "2/2"), (&c, "7", "1/3")] {
        let r = run("other", &self_play("2", seed, &["--shard", shard, "--results", file.to_str().unwrap()]));
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let (code, out, err) = merge(&[&a, &b]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "calvin-match: merge: {} and {} are not of one match: their engines or settings differ (seed 7 / 8)\n",
            a.display(),
            b.display()
        )
    );
    let (code, _, err) = merge(&[&a, &c]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!("calvin-match: merge: {} and {} are shards of different splits (2 / 3)\n", a.display(), c.display())
    );
    let (code, _, err) = merge(&[&a, &a]);
    assert_eq!(code, 2);
    assert_eq!(err, format!("calvin-match: merge: pair 0 (games 1 and 2) is in both {0} and {0}\n", a.display()));
    std::fs::write(&b, "[Event \"x\"]\n").unwrap();
    let (code, _, err) = merge(&[&b]);
    assert_eq!((code, err), (2, format!("calvin-match: merge: {} is not a calvin-match results file\n", b.display())));
    let (code, _, err) = merge(&[]);
    assert_eq!((code, err.as_str()), (2, "calvin-match: merge: merge needs at least one results file\n"));
}

/// `--spsa`: a tiny tuning run of calvin's tune build (`cargo test --features
/// tune --test runner spsa`; `.ci/run` runs it so) at 200 nodes a move, from
/// its parameters file to the state it writes, exactly.
#[cfg(feature = "tune")]
fn spsa_run(name: &str, games: &str, fresh: bool) -> (Run, String) {
    let params = tmp(&format!("{name}.spsa"));
    let state = PathBuf::from(format!("{}.state", params.display()));
    if fresh {
        let _ = std::fs::remove_file(&state);
    }
    std::fs::write(
        &params,
        "# name, start, min, max, c_end, r_end\n\
         TUNE_RFP_MARGIN, 90, 20, 300, 20, 0.02\n\
         TUNE_FUTILITY_MARGIN, 120, 20, 400, 20, 0.02\n\
         TUNE_LMR_DIVISOR, 225, 100, 500, 30, 0.02\n",
    )
    .unwrap();
    let calvin = env!("CARGO_BIN_EXE_calvin");
    let mut a = args(&["--engine", &format!("cmd={calvin}"), "--engine", &format!("cmd={calvin}")]);
    a.extend(args(&["--nodes", "200", "--seed", "7", "--random-plies", "4", "--maxplies", "120"]));
    a.extend(args(&["--spsa-iterations", "4", "--games", games, "--spsa"]));
    a.push(params.display().to_string());
    let r = run(name, &a);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    (r, std::fs::read_to_string(&state).unwrap())
}

#[cfg(feature = "tune")]
const SPSA_AFTER_4: &str = "\
# calvin-match --spsa state: the same command continues from it
seed 7
iterations 4
done 4
theta TUNE_RFP_MARGIN 89.6
theta TUNE_FUTILITY_MARGIN 120.4
theta TUNE_LMR_DIVISOR 224.4
";

#[cfg(feature = "tune")]
#[test]
fn spsa_tunes_from_the_file_to_the_state() {
    let (r, state) = spsa_run("spsa-one", "8", true);
    assert_eq!(state, SPSA_AFTER_4);
    // Four pairs, each from its own opening with colours swapped.
    assert_eq!(r.games.len(), 8);
    for pair in r.games.chunks(2) {
        assert_eq!((pair[0].tag("White"), pair[1].tag("White")), ("theta+", "theta-"));
        assert_eq!(pair[0].moves[..4], pair[1].moves[..4]);
    }
    // theta moves after the pairs the two sides did not share evenly: by
    // a_k / c_k * result * flip (pairs 1 to 3 even: no step; pair 4 won by
    // one point by the plus side: the step goes the way of its flip).
    let lines: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("Iteration ")).collect();
    assert_eq!(
        lines,
        [
            "Iteration 1 of 4: plus 1.0 - minus 1.0  TUNE_RFP_MARGIN=90.00 TUNE_FUTILITY_MARGIN=120.00 TUNE_LMR_DIVISOR=225.00",
            "Iteration 2 of 4: plus 1.0 - minus 1.0  TUNE_RFP_MARGIN=90.00 TUNE_FUTILITY_MARGIN=120.00 TUNE_LMR_DIVISOR=225.00",
            "Iteration 3 of 4: plus 1.0 - minus 1.0  TUNE_RFP_MARGIN=90.00 TUNE_FUTILITY_MARGIN=120.00 TUNE_LMR_DIVISOR=225.00",
            "Iteration 4 of 4: plus 1.5 - minus 0.5  TUNE_RFP_MARGIN=89.60 TUNE_FUTILITY_MARGIN=120.40 TUNE_LMR_DIVISOR=224.40",
        ]
    );
    assert!(
        r.stdout.ends_with(
            "SPSA finished: 4 of 4 iterations\n\
             Values: option.TUNE_RFP_MARGIN=90 option.TUNE_FUTILITY_MARGIN=120 option.TUNE_LMR_DIVISOR=224\n"
        ),
        "{}",
        r.stdout
    );
    // A finished run plays no more.
    let (again, state) = spsa_run("spsa-one", "8", false);
    assert_eq!((again.games.len(), state.as_str()), (0, SPSA_AFTER_4));
}

#[cfg(feature = "tune")]
#[test]
fn spsa_resumes_where_it_stopped() {
    let (first, _) = spsa_run("spsa-two", "4", true);
    assert!(first.stdout.contains("SPSA to be continued: 2 of 4 iterations"), "{}", first.stdout);
    let (second, state) = spsa_run("spsa-two", "4", false);
    assert!(second.stdout.contains("2 of 4 iterations done, 2 pairs of chess in this run"), "{}", second.stdout);
    assert!(second.stdout.contains("(resumed)"), "{}", second.stdout);
    assert_eq!(second.games[0].tag("Round"), "5");
    assert_eq!(state, SPSA_AFTER_4);
}

/// `--spsa` with an option the engine does not list: refused before any game
/// (a misspelt name, or calvin's TUNE_* options without its tune build).
#[test]
fn spsa_refuses_an_option_the_engine_lacks() {
    let params = tmp("spsa-missing.spsa");
    std::fs::write(&params, "TUNE_NOPE, 90, 20, 300, 20, 0.02\n").unwrap();
    let calvin = env!("CARGO_BIN_EXE_calvin");
    let mut a = args(&["--engine", &format!("cmd={calvin}"), "name=c", "--engine", &format!("cmd={calvin}")]);
    a.extend(args(&["--nodes", "200", "--games", "2", "--spsa"]));
    a.push(params.display().to_string());
    let r = run("spsa-missing", &a);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "calvin-match: engine 1 (c) has no option TUNE_NOPE \
         (calvin's TUNE_* options need its tune build: --features tune)\n"
    );
    assert_eq!(r.games.len(), 0);
    assert!(!Path::new(&format!("{}.state", params.display())).exists());
}
