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
