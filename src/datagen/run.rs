//! A datagen run: games shared out to threads (each with its own table),
//! every finished game appended to the file in one write, a progress line
//! on stderr, and a stopped run continued where it stopped.

use super::format::{self, GameBlock, Header};
use super::play::{PlayConfig, play_game};
use crate::registry::{RuleOptions, VariantId, VariantVisitor};
use crate::runner::shard::Shard;
use crate::tt::TranspositionTable;
use crate::variants::EngineVariant;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub variant: VariantId,
    /// The number of games the file should hold when the run ends.
    pub games: u32,
    pub threads: usize,
    pub hash_mib: usize,
    pub out: PathBuf,
    pub play: PlayConfig,
    /// Print the progress line on stderr.
    pub progress: bool,
    /// Play only this shard's game numbers (game `g` is shard `g mod N + 1`'s).
    pub shard: Option<Shard>,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games found in the file when the run started (a continued run; of a
    /// shard, its own).
    pub games_before: u32,
    pub games_played: u32,
    pub positions: u64,
    pub nodes: u64,
    /// Bytes of a game cut off by an earlier stop, dropped from the file.
    pub dropped_bytes: u64,
}

impl RunConfig {
    fn header(&self) -> Header {
        let p = &self.play;
        Header {
            variant: self.variant.name().to_string(),
            rule_flags: 0,
            seed: p.seed,
            nodes: p.nodes.min(u32::MAX as u64) as u32,
            random_plies: p.random_plies.min(u16::MAX as usize) as u16,
            max_plies: p.max_plies.min(u16::MAX as usize) as u16,
            resign_score: p.resign_score.clamp(0, u16::MAX as i32) as u16,
            resign_plies: p.resign_plies.min(u16::MAX as usize) as u16,
            hash_mib: self.hash_mib as u32,
        }
    }
}

/// Runs the games the file does not hold yet.
pub fn run(cfg: &RunConfig) -> Result<Summary, String> {
    let (file, done, dropped_bytes) = open_output(cfg)?;
    let mine = |i: &u32| cfg.shard.is_none_or(|s| s.contains(u64::from(*i)));
    let todo: Vec<u32> = (0..cfg.games).filter(|i| mine(i) && !done.contains(i)).collect();
    struct Go<'a> {
        cfg: &'a RunConfig,
        file: File,
        todo: &'a [u32],
    }
    impl VariantVisitor for Go<'_> {
        type Out = Result<(u64, u64), String>;
        fn visit<V: EngineVariant>(self) -> Self::Out {
            play_all::<V>(self.cfg, self.file, self.todo)
        }
    }
    let (positions, nodes) = cfg.variant.visit(&RuleOptions::default(), Go { cfg, file, todo: &todo })?;
    let games_before = done.iter().filter(|i| mine(i)).count() as u32;
    Ok(Summary { games_before, games_played: todo.len() as u32, positions, nodes, dropped_bytes })
}

/// Opens the output for appending: a new file gets the header; an existing
/// one must have been written with the same settings, loses a game cut off
/// at its end, and tells which games it holds. The run holds an exclusive
/// lock on the file until it ends (released by the system if it is
/// killed): a second run on the same file would play the same games and
/// append them twice, so it is refused.
fn open_output(cfg: &RunConfig) -> Result<(File, Vec<u32>, u64), String> {
    let path = cfg.out.display();
    let header = cfg.header();
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| format!("cannot open {path}: {e}"))?;
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => format!("{path} is being written by another datagen run"),
        std::fs::TryLockError::Error(e) => format!("cannot lock {path}: {e}"),
    })?;
    // Read through the locked handle (appending moves only the writes to the end).
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.is_empty() {
        file.write_all(&header.encode()).map_err(|e| format!("cannot write {path}: {e}"))?;
        return Ok((file, Vec::new(), 0));
    }
    let data = format::parse(&bytes).map_err(|e| format!("{path}: {e}"))?;
    if data.header != header {
        return Err(format!(
            "{path} was written with other settings ({:?}); continue it with the same ones or write a new file",
            data.header
        ));
    }
    if data.trailing > 0 {
        file.set_len(data.valid_len).map_err(|e| format!("cannot truncate {path}: {e}"))?;
    }
    Ok((file, data.games.iter().map(|g| g.index).collect(), data.trailing))
}

/// Counters shared by the threads, for the progress line.
struct Progress {
    start: Instant,
    total: usize,
    games: AtomicUsize,
    positions: AtomicU64,
    nodes: AtomicU64,
    last_print: Mutex<Instant>,
    show: bool,
}

impl Progress {
    fn line(&self) -> String {
        let games = self.games.load(Ordering::Relaxed);
        let positions = self.positions.load(Ordering::Relaxed);
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let eta = if games == 0 { 0.0 } else { secs / games as f64 * (self.total - games) as f64 };
        format!(
            "datagen: games {games}/{} positions {positions} ({:.0}/s, {:.0} nodes/s) elapsed {} ETA {}",
            self.total,
            positions as f64 / secs,
            self.nodes.load(Ordering::Relaxed) as f64 / secs,
            clock(secs),
            clock(eta)
        )
    }
    fn game_done(&self, positions: usize, nodes: u64) {
        self.games.fetch_add(1, Ordering::Relaxed);
        self.positions.fetch_add(positions as u64, Ordering::Relaxed);
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        if !self.show {
            return;
        }
        let mut last = self.last_print.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= Duration::from_secs(2) {
            *last = Instant::now();
            eprintln!("{}", self.line());
        }
    }
}

fn clock(secs: f64) -> String {
    let s = secs.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Plays the games `todo` on the run's threads; returns (positions, nodes).
fn play_all<V: EngineVariant>(cfg: &RunConfig, file: File, todo: &[u32]) -> Result<(u64, u64), String> {
    let progress = Progress {
        start: Instant::now(),
        total: todo.len(),
        games: AtomicUsize::new(0),
        positions: AtomicU64::new(0),
        nodes: AtomicU64::new(0),
        last_print: Mutex::new(Instant::now()),
        show: cfg.progress,
    };
    let next = AtomicUsize::new(0);
    let file = Mutex::new(file);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let worker = || {
        let tt = TranspositionTable::new(cfg.hash_mib);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = todo.get(i) else { break };
            if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                break;
            }
            let (block, nodes) = play_game::<V>(&cfg.play, index, &tt);
            if let Err(e) = append(&file, &block) {
                *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{}: {e}", cfg.out.display()));
                break;
            }
            progress.game_done(block.records.len(), nodes);
        }
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..cfg.threads.max(1))
            .map(|_| std::thread::Builder::new().stack_size(32 << 20).spawn_scoped(s, worker))
            .collect();
        for h in handles {
            match h {
                Ok(h) => {
                    let _ = h.join();
                }
                Err(e) => {
                    *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("cannot start a thread: {e}"))
                }
            }
        }
    });
    if cfg.progress {
        eprintln!("{}", progress.line());
    }
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok((progress.positions.load(Ordering::Relaxed), progress.nodes.load(Ordering::Relaxed)))
}

/// Appends one game in a single write and flushes it to the file.
fn append(file: &Mutex<File>, block: &GameBlock) -> std::io::Result<()> {
    let bytes = block.encode();
    let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
    f.write_all(&bytes)?;
    f.flush()
}
