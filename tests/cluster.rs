//! The Ray cluster driver (`tools/cluster/cluster.py`) on a local Ray: the
//! shards of a datagen run and of a match, played as Ray tasks and merged
//! on the head, hold the same games as one run with the same seed; a
//! worker lost in the middle of a shard loses nothing and doubles nothing;
//! a re-run skips the shards already done; a match with an SPRT stops when
//! the merge of its first shards decides.
//!
//! They need Ray in tools/cluster/.venv (`tools/cluster/setup.sh`), which
//! `.ci/run` installs: `cargo test --release --test cluster -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CALVIN: &str = env!("CARGO_BIN_EXE_calvin");
const MATCH: &str = env!("CARGO_BIN_EXE_calvin-match");

fn python() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/cluster/.venv/bin/python");
    assert!(p.exists(), "tools/cluster/.venv missing: run tools/cluster/setup.sh");
    p
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("calvin-cluster-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The driver with `args`, on a local Ray of 2 CPUs.
fn driver(args: &[&str]) -> Output {
    Command::new(python())
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/cluster/cluster.py"))
        .args(["--num-cpus", "2"])
        .args(args)
        .output()
        .expect("the driver runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn ok(o: Output) -> String {
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The last line of `out` that holds `key` (a run prints a score line after each game).
fn line_with<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines().rev().find(|l| l.contains(key)).unwrap_or_else(|| panic!("no '{key}' in:\n{out}"))
}

#[test]
#[ignore = "needs ray in tools/cluster/.venv (tools/cluster/setup.sh); .ci/run installs it"]
fn datagen_shards_on_ray_hold_the_single_runs_games() {
    let dir = temp("datagen");
    let p = |n: &str| dir.join(n).to_str().expect("utf-8").to_string();
    let settings = ["--variant", "chess", "--games", "6", "--nodes", "300", "--seed", "7", "--random-plies", "6"];
    let single = Command::new(CALVIN)
        .arg("datagen")
        .args(settings)
        .args(["--threads", "1", "--quiet", "--out", &p("single.bin")])
        .output()
        .expect("calvin datagen");
    assert!(single.status.success(), "{}", text(&single));
    let state = p("state");
    let run = |extra: &[&str]| {
        let mut args = vec!["--state", &state];
        args.extend_from_slice(extra);
        let out = p("merged.bin");
        args.extend_from_slice(&["datagen", "--calvin", CALVIN, "--shards", "3", "--out", &out, "--"]);
        args.extend_from_slice(&settings);
        driver(&args)
    };
    // The first run stops (as if the head were lost) after one shard ...
    let stopped = run(&["--stop-after", "1"]);
    assert_eq!(stopped.status.code(), Some(3), "{}", text(&stopped));
    assert!(text(&stopped).contains("3 shards, 0 already done"), "{}", text(&stopped));
    // ... the second plays the other two, and the worker of shard 2 (or 3)
    // dies once in the middle of it (the hook kills the shard's process
    // when it has written part of its file, and then its Ray worker).
    let done = std::fs::read_dir(&state)
        .expect("state")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".shard.bin"))
        .count();
    assert_eq!(done, 1);
    let out = ok(run(&["--die-once", "1,2,3"]));
    assert!(out.contains("3 shards, 1 already done"), "{out}");
    assert!(out.contains("played 2 shards"), "{out}");
    // The hook fired for the two shards played in this run (their markers), not for the one
    // already done.
    let died: usize = (1..=3).filter(|i| Path::new(&state).join(format!("die-once/{i}")).exists()).count();
    assert_eq!(died, 2);
    let merged = std::fs::read(p("merged.bin")).expect("the merged file");
    assert_eq!(merged, std::fs::read(p("single.bin")).expect("the single run's file"), "{out}");
    // `info` agrees line for line, the file name aside.
    let info = |f: &str| {
        let o = Command::new(CALVIN).args(["datagen", "info", f]).output().expect("info");
        String::from_utf8_lossy(&o.stdout).replace(f, "FILE")
    };
    assert_eq!(info(&p("merged.bin")), info(&p("single.bin")));
    // A third run finds every shard done and plays nothing.
    let again = ok(run(&[]));
    assert!(again.contains("3 shards, 3 already done in"), "{again}");
    assert_eq!(std::fs::read(p("merged.bin")).expect("merged"), merged);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games of a PGN file, each without its Date tag, sorted.
fn games(pgn: &str) -> Vec<String> {
    let mut games: Vec<String> = pgn
        .split("\n\n[")
        .map(|g| {
            g.trim().trim_start_matches('[').lines().filter(|l| !l.starts_with("Date ")).collect::<Vec<_>>().join("\n")
        })
        .filter(|g| !g.is_empty())
        .collect();
    games.sort();
    games
}

#[test]
#[ignore = "needs ray in tools/cluster/.venv (tools/cluster/setup.sh); .ci/run installs it"]
fn match_shards_on_ray_play_the_single_runs_games() {
    let dir = temp("match");
    let p = |n: &str| dir.join(n).to_str().expect("utf-8").to_string();
    let engines = |calvin: &str| -> Vec<String> {
        let words = [
            "--engine",
            "cmd=CALVIN",
            "name=small",
            "option.Hash=4",
            "--engine",
            "cmd=CALVIN",
            "name=large",
            "option.Hash=8",
        ];
        words.iter().map(|w| w.replace("CALVIN", calvin)).collect()
    };
    let rest = ["--each", "nodes=400", "--games", "10", "--seed", "11", "--random-plies", "4", "--maxplies", "200"];
    let single = Command::new(MATCH)
        .args(engines(CALVIN))
        .args(rest)
        .args(["--concurrency", "1", "--pgnout", &p("single.pgn")])
        .output()
        .expect("calvin-match");
    assert!(single.status.success(), "{}", text(&single));
    let single_out = String::from_utf8_lossy(&single.stdout).into_owned();
    let ship = format!("calvin={CALVIN}");
    let state = p("state");
    let pgn = p("cluster.pgn");
    let mut args = vec!["--state", &state, "--die-once", "2", "match", "--calvin-match", MATCH, "--ship", &ship];
    args.extend_from_slice(&["--shards", "3", "--pgnout", &pgn, "--"]);
    let shipped = engines("{calvin}");
    args.extend(shipped.iter().map(String::as_str));
    args.extend_from_slice(&rest);
    let out = ok(driver(&args));
    assert!(Path::new(&state).join("die-once/2").exists(), "the hook did not fire:\n{out}");
    let cluster_pgn = std::fs::read_to_string(&pgn).expect("the cluster's PGN");
    let single_pgn = std::fs::read_to_string(p("single.pgn")).expect("the single run's PGN");
    assert_eq!(games(&cluster_pgn).len(), 10);
    assert_eq!(games(&cluster_pgn), games(&single_pgn));
    for key in ["Score of small vs large", "Elo difference"] {
        if single_out.contains(key) {
            assert_eq!(line_with(&out, key), line_with(&single_out, key));
        }
    }
    assert!(single_out.contains("Score of small vs large"), "{single_out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "needs ray in tools/cluster/.venv (tools/cluster/setup.sh); .ci/run installs it"]
fn match_on_ray_stops_when_the_merged_sprt_decides() {
    // 2000 nodes a move against 20: decided within a few shards of 2 pairs.
    let dir = temp("sprt");
    let p = |n: &str| dir.join(n).to_str().expect("utf-8").to_string();
    let state = p("state");
    let pgn = p("games.pgn");
    let ship = format!("calvin={CALVIN}");
    let args = [
        "--state",
        &state,
        "match",
        "--calvin-match",
        MATCH,
        "--ship",
        &ship,
        "--shard-pairs",
        "2",
        "--window",
        "2",
        "--pgnout",
        &pgn,
        "--",
        "--engine",
        "cmd={calvin}",
        "name=strong",
        "nodes=2000",
        "--engine",
        "cmd={calvin}",
        "name=weak",
        "nodes=20",
        "--each",
        "option.Hash=4",
        "--games",
        "400",
        "--seed",
        "3",
        "--random-plies",
        "4",
        "--maxplies",
        "200",
        "--sprt",
        "elo0=0",
        "elo1=100",
        "alpha=0.1",
        "beta=0.1",
    ];
    let out = ok(driver(&args));
    let decided = line_with(&out, "the SPRT decided after shards 1..");
    let k: usize = decided
        .split("1..")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{decided}"));
    assert!(k < 100, "{out}");
    assert!(line_with(&out, "SPRT: ").contains("H1 was accepted"), "{out}");
    // The PGN holds the games of shards 1..k: 4 each.
    let n = games(&std::fs::read_to_string(&pgn).expect("pgn")).len();
    assert_eq!(n, 4 * k, "{out}");
    assert!(line_with(&out, "Score of strong vs weak").contains(&format!(" {n}/")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
