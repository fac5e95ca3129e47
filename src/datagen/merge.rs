//! `calvin datagen merge OUT IN...`: one file of the games of several
//! (the shards of a run, `--shard I/N`), in the order of their numbers.

use super::format::{self, DataFile, GameBlock};
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// What a merge wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    pub games: usize,
    pub positions: usize,
    /// Bytes of games cut off at the end of an input (an unfinished shard), left out.
    pub dropped_bytes: u64,
}

/// Reads `inputs`, checks that they were written with the same settings
/// (the same header: variant, seed, nodes, ... and the format version) and
/// hold no game twice, and writes their games to `out`, ordered by game
/// number. `out` is written whole to a temporary file beside it and then
/// renamed, so it is either the old file or the complete new one.
pub fn merge(out: &Path, inputs: &[&Path]) -> Result<Merged, String> {
    if inputs.is_empty() {
        return Err("merge needs at least one input file".into());
    }
    let mut files: Vec<(String, DataFile)> = Vec::new();
    for p in inputs {
        if same_file(p, out) {
            return Err(format!("{} is both an input and the output", p.display()));
        }
        let bytes = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let data = format::parse(&bytes).map_err(|e| format!("{}: {e}", p.display()))?;
        files.push((p.display().to_string(), data));
    }
    let (first_name, first) = &files[0];
    let header = first.header.clone();
    for (name, f) in &files[1..] {
        if f.header != header {
            return Err(format!(
                "{name} was written with other settings than {first_name} ({:?} / {:?}); only the shards of one run merge",
                f.header, header
            ));
        }
    }
    let mut seen: HashMap<u32, &str> = HashMap::new();
    let mut games: Vec<&GameBlock> = Vec::new();
    for (name, f) in &files {
        for g in &f.games {
            if let Some(other) = seen.insert(g.index, name) {
                return Err(format!("game {} is in both {other} and {name}", g.index));
            }
            games.push(g);
        }
    }
    games.sort_by_key(|g| g.index);
    let mut bytes = header.encode();
    for g in &games {
        bytes.extend(g.encode());
    }
    let tmp = out.with_file_name(format!(
        ".{}.merge-{}",
        out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        std::process::id()
    ));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, out)
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {}: {e}", out.display()));
    }
    Ok(Merged {
        games: games.len(),
        positions: games.iter().map(|g| g.records.len()).sum(),
        dropped_bytes: files.iter().map(|(_, f)| f.trailing).sum(),
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
