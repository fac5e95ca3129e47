//! The Ray cluster driver (`tools/cluster/cluster.py`) on a local Ray: the
//! shards of a datagen run and of a match, played as Ray tasks and merged
//! on the head, hold the same games as one run with the same seed; a
//! worker lost in the middle of a shard loses nothing and doubles nothing;
//! a re-run skips the shards already done; a match with an SPRT stops when
//! the merge of its first shards decides.
//!
//! The last test starts a cluster of two nodes on this machine (`ray start
//! --head` and `ray start --address`, each a raylet with one CPU and its own
//! temp directory, token authentication), plays a match and a datagen on both
//! and kills every process of the worker node in the middle of a shard.
//!
//! They need Ray in tools/cluster/.venv (`tools/cluster/setup.sh`), which
//! `.ci/run` installs: `cargo test --profile quick --test cluster -- --ignored`.

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

/// The one-thread datagen run with `settings` that a cluster's shards must
/// give again, written to `out`.
fn single_datagen(settings: &[&str], out: &str) {
    let single = Command::new(CALVIN)
        .arg("datagen")
        .args(settings)
        .args(["--threads", "1", "--quiet", "--out", out])
        .output()
        .expect("calvin datagen");
    assert!(single.status.success(), "{}", text(&single));
}

#[test]
#[ignore = "needs ray in tools/cluster/.venv (tools/cluster/setup.sh); .ci/run installs it"]
fn datagen_shards_on_ray_hold_the_single_runs_games() {
    let dir = temp("datagen");
    let p = |n: &str| dir.join(n).to_str().expect("utf-8").to_string();
    let settings = ["--variant", "chess", "--games", "6", "--nodes", "300", "--seed", "7", "--random-plies", "6"];
    single_datagen(&settings, &p("single.bin"));
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

/// A process of this machine as /proc shows it.
struct Proc {
    pid: u32,
    ppid: u32,
    pgid: u32,
    cmd: Vec<String>,
}

fn processes() -> Vec<Proc> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let (Ok(stat), Ok(cmd)) =
            (std::fs::read_to_string(e.path().join("stat")), std::fs::read(e.path().join("cmdline")))
        else {
            continue;
        };
        // After the command's name in parentheses: the state, the parent, the process group.
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        let (Some(Ok(ppid)), Some(Ok(pgid))) = (f.get(1).map(|x| x.parse()), f.get(2).map(|x| x.parse())) else {
            continue;
        };
        let cmd =
            cmd.split(|&b| b == 0).filter(|a| !a.is_empty()).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        out.push(Proc { pid, ppid, pgid, cmd });
    }
    out
}

/// `root` and every process below it.
fn below(procs: &[Proc], root: u32) -> Vec<u32> {
    let mut all = vec![root];
    let mut i = 0;
    while i < all.len() {
        let parent = all[i];
        all.extend(procs.iter().filter(|p| p.ppid == parent && p.pid != parent).map(|p| p.pid));
        i += 1;
    }
    all
}

fn kill(pids: &[u32]) {
    if !pids.is_empty() {
        let _ = Command::new("kill").arg("-KILL").args(pids.iter().map(u32::to_string)).output();
    }
}

/// One node of a Ray cluster on this machine, started by `ray start` with its own temp
/// directory. Its processes: the process group of its `ray start` (the GCS on the head, the
/// raylet, its agents) and everything below its raylet (the Ray workers, each a process group
/// of its own, and the shards' processes). Dropping it kills them all: `ray stop` would stop
/// every Ray of the machine.
struct Node {
    dir: PathBuf,
    pgid: u32,
}

impl Node {
    fn start(args: &[&str], dir: PathBuf, token: &str) -> Node {
        use std::os::unix::process::CommandExt;
        let ray = python().with_file_name("ray");
        let child = Command::new(ray)
            .arg("start")
            .args(args)
            .args(["--num-cpus", "1", "--node-ip-address", "127.0.0.1", "--disable-usage-stats"])
            .arg("--temp-dir")
            .arg(&dir)
            .env("RAY_AUTH_MODE", "token")
            .env("RAY_AUTH_TOKEN", token)
            .process_group(0)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("ray start");
        let node = Node { dir, pgid: child.id() };
        let out = child.wait_with_output().expect("ray start");
        assert!(out.status.success(), "ray start {args:?}: {}", text(&out));
        node
    }

    /// The node's raylet: the raylet with this node's temp directory.
    fn raylet(&self, procs: &[Proc]) -> Option<u32> {
        let arg = format!("--temp_dir={}", self.dir.display());
        procs
            .iter()
            .find(|p| p.cmd.first().is_some_and(|c| c.ends_with("/raylet")) && p.cmd.contains(&arg))
            .map(|p| p.pid)
    }

    /// Ray's id of the node (its raylet's `--node_id`).
    fn id(&self) -> String {
        let procs = processes();
        let raylet = self.raylet(&procs).expect("the node's raylet runs");
        let p = procs.iter().find(|p| p.pid == raylet).expect("raylet");
        p.cmd.iter().find_map(|a| a.strip_prefix("--node_id=")).expect("--node_id").to_string()
    }

    /// Kills every process of the node at once, as when its machine is lost.
    fn kill(&self) {
        let procs = processes();
        let mut pids = self.raylet(&procs).map(|r| below(&procs, r)).unwrap_or_default();
        pids.extend(procs.iter().filter(|p| p.pgid == self.pgid).map(|p| p.pid));
        kill(&pids);
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The node that played each shard, from the first line of the shards' logs in `state`.
fn shard_nodes(state: &Path) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = std::fs::read_dir(state)
        .expect("state")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
        .filter_map(|e| {
            let log = std::fs::read_to_string(e.path()).ok()?;
            let first = log.lines().next()?;
            let rest = first.strip_prefix("cluster: shard ")?;
            let index = rest.split('/').next()?.parse().ok()?;
            Some((index, rest.split(" played on node ").nth(1)?.split(' ').next()?.to_string()))
        })
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "needs ray in tools/cluster/.venv (tools/cluster/setup.sh), .ci/run installs it; starts a two-node Ray cluster on this machine"]
fn a_two_node_cluster_shares_the_shards_and_survives_losing_a_node() {
    let dir = temp("nodes");
    let p = |n: &str| dir.join(n).to_str().expect("utf-8").to_string();
    let settings = ["--variant", "chess", "--games", "20", "--nodes", "20000", "--seed", "5", "--random-plies", "6"];
    single_datagen(&settings, &p("single.bin"));
    // A head and a worker, one CPU each, with token authentication (as tools/cluster/README.md
    // sets a cluster up) on a free port. Ray's sockets live under the temp directories: a short
    // path (a socket's path has at most 107 bytes).
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("port").port();
    let mut random = [0u8; 32];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom").expect("urandom"), &mut random)
        .expect("urandom");
    let token: String = random.iter().map(|b| format!("{b:02x}")).collect();
    let raydir = std::env::temp_dir().join(format!("cray-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&raydir);
    let started = std::time::Instant::now();
    let head =
        Node::start(&["--head", "--port", &port.to_string(), "--include-dashboard", "false"], raydir.join("h"), &token);
    let address = format!("127.0.0.1:{port}");
    let worker = Node::start(&["--address", &address], raydir.join("w"), &token);
    let (head_id, worker_id) = (head.id(), worker.id());
    eprintln!("two nodes up in {:.1} s", started.elapsed().as_secs_f64());
    // The driver against the cluster's address, its output in the file `log`.
    let cluster = |args: &[&str], log: &str| {
        let log = std::fs::File::create(p(log)).expect("log");
        Command::new(python())
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/cluster/cluster.py"))
            .args(["--address", &address])
            .args(args)
            .env("RAY_AUTH_MODE", "token")
            .env("RAY_AUTH_TOKEN", &token)
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .expect("the driver runs")
    };
    let finish = |mut child: std::process::Child, log: &str| {
        let status = child.wait().expect("the driver");
        (status, std::fs::read_to_string(p(log)).expect("the driver's output"))
    };

    // A match in 4 shards on both nodes: the single run's games.
    let engines =
        ["--engine", "cmd=CALVIN", "name=a", "option.Hash=4", "--engine", "cmd=CALVIN", "name=b", "option.Hash=8"];
    let rest = ["--each", "nodes=400", "--games", "8", "--seed", "11", "--random-plies", "4", "--maxplies", "200"];
    let single = Command::new(MATCH)
        .args(engines.map(|w| w.replace("CALVIN", CALVIN)))
        .args(rest)
        .args(["--concurrency", "1", "--pgnout", &p("single.pgn")])
        .output()
        .expect("calvin-match");
    assert!(single.status.success(), "{}", text(&single));
    let ship = format!("calvin={CALVIN}");
    let (state, pgn) = (p("state-match"), p("cluster.pgn"));
    let mut args = vec!["--state", &state, "match", "--calvin-match", MATCH, "--ship", &ship, "--shards", "4"];
    args.extend_from_slice(&["--pgnout", &pgn, "--"]);
    let shipped = engines.map(|w| w.replace("CALVIN", "{calvin}"));
    args.extend(shipped.iter().map(String::as_str));
    args.extend_from_slice(&rest);
    let (status, out) = finish(cluster(&args, "match.log"), "match.log");
    assert!(status.success(), "{out}");
    let cluster_pgn = std::fs::read_to_string(&pgn).expect("the cluster's PGN");
    assert_eq!(games(&cluster_pgn).len(), 8);
    assert_eq!(games(&cluster_pgn), games(&std::fs::read_to_string(p("single.pgn")).expect("the single run's PGN")));
    let key = "Score of a vs b";
    assert_eq!(line_with(&out, key), line_with(&String::from_utf8_lossy(&single.stdout), key));
    let nodes = shard_nodes(Path::new(&state));
    assert_eq!(nodes.len(), 4, "{out}");
    for id in [&head_id, &worker_id] {
        assert!(nodes.iter().any(|(_, n)| n == id), "no shard on {id}: {nodes:?}\n{out}");
    }
    eprintln!("the match took {:.1} s from the cluster's start", started.elapsed().as_secs_f64());

    // A datagen in 10 shards, and once the worker node has played a shard and is playing
    // another, all its processes die.
    let state = dir.join("state");
    let datagen = |extra: &[&str], calvin: &str, state: &Path, log: &str| {
        let mut args = vec!["--state", state.to_str().expect("utf-8")];
        args.extend_from_slice(extra);
        let out = p("merged.bin");
        args.extend_from_slice(&["datagen", "--calvin", calvin, "--shards", "10", "--out", &out, "--"]);
        args.extend_from_slice(&settings);
        cluster(&args, log)
    };
    let mut run = datagen(&[], CALVIN, &state, "run.log");
    let mut lost = None;
    let status = loop {
        if let Some(status) = run.try_wait().expect("the driver") {
            break status;
        }
        assert!(started.elapsed().as_secs() < 600, "the driver did not finish");
        if lost.is_none() && state.is_dir() && shard_nodes(&state).iter().any(|(_, n)| *n == worker_id) {
            let procs = processes();
            let shard = worker.raylet(&procs).and_then(|r| {
                below(&procs, r).into_iter().find_map(|pid| {
                    let cmd = &procs.iter().find(|p| p.pid == pid)?.cmd;
                    let i = cmd.iter().position(|a| a == "--shard")?;
                    cmd.get(i + 1)?.split('/').next()?.parse::<usize>().ok()
                })
            });
            if let Some(i) = shard {
                worker.kill();
                lost = Some(i);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let out = std::fs::read_to_string(p("run.log")).expect("the driver's output");
    assert!(status.success(), "{out}");
    eprintln!("the run took {:.1} s from the cluster's start", started.elapsed().as_secs_f64());
    let lost = lost.unwrap_or_else(|| panic!("the worker node never played a second shard:\n{out}"));
    assert!(worker.raylet(&processes()).is_none(), "the worker node's raylet survived");
    assert!(out.contains("cluster: 2 nodes: "), "{out}");
    assert!(out.contains("10 shards, 0 already done"), "{out}");
    assert!(out.contains("played 10 shards"), "{out}");
    // Both nodes played shards; the one lost with the worker node was played again on the head.
    let nodes = shard_nodes(&state);
    assert_eq!(nodes.iter().map(|(i, _)| *i).collect::<Vec<_>>(), (1..=10).collect::<Vec<_>>(), "{out}");
    assert!(nodes.iter().all(|(_, n)| *n == head_id || *n == worker_id), "{nodes:?}");
    let on_worker = nodes.iter().filter(|(_, n)| *n == worker_id).count();
    assert!((1..10).contains(&on_worker), "{nodes:?}");
    assert_eq!(nodes[lost - 1].1, head_id, "shard {lost} was lost with the worker node:\n{out}");
    // Nothing lost, nothing doubled: the single run's file, byte for byte.
    let merged = std::fs::read(p("merged.bin")).expect("the merged file");
    assert_eq!(merged, std::fs::read(p("single.bin")).expect("the single run's file"), "{out}");

    // A binary the node's CPU cannot run: one clear error, not a traceback (the fake calvin
    // stops with SIGILL as a build for another CPU does); and the check of the nodes' CPUs
    // warns of a feature the head has (a test hook adds one) that the node lacks.
    let fake = p("calvin-sigill");
    std::fs::write(&fake, "#!/bin/sh\nkill -ILL $$\n").expect("fake");
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
    let bad = datagen(&["--assume-head-flags", "avx512_test"], &fake, &dir.join("state-sigill"), "sigill.log");
    let (status, out) = finish(bad, "sigill.log");
    assert_eq!(status.code(), Some(2), "{out}");
    let error = line_with(&out, "cluster: error: ");
    assert!(error.contains(&format!("on node {}", &head_id[..12])), "{out}");
    assert!(error.contains("calvin stopped with SIGILL (Illegal instruction)"), "{out}");
    assert!(error.contains("RUSTFLAGS='-C target-cpu=x86-64-v3'"), "{out}");
    assert!(!out.contains("Traceback"), "{out}");
    let warning = line_with(&out, "cluster: warning: ");
    assert!(warning.starts_with(&format!("cluster: warning: node {} ", &head_id[..12])), "{out}");
    assert!(warning.contains("lacks CPU features this machine has (avx512_test)"), "{out}");
    // A binary for another architecture is refused before any shard is played.
    let foreign = p("calvin-foreign");
    let machine: u8 = if std::env::consts::ARCH == "x86_64" { 0xB7 } else { 0x3E };
    let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
    elf.resize(18, 0);
    elf.extend_from_slice(&[machine, 0, 1, 0, 0, 0]);
    std::fs::write(&foreign, elf).expect("foreign");
    let bad = datagen(&[], &foreign, &dir.join("state-foreign"), "foreign.log");
    let (status, out) = finish(bad, "foreign.log");
    assert_eq!(status.code(), Some(2), "{out}");
    assert!(line_with(&out, "cluster: error: ").contains("binary: build one for that machine"), "{out}");
    assert!(!out.contains(" shards, 0 already done"), "{out}");
    drop((worker, head));
    eprintln!("done in {:.1} s from the cluster's start", started.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&raydir);
    let _ = std::fs::remove_dir_all(&dir);
}
