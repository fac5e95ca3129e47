//! `calvin datagen ...` on the command line (see `docs/datagen.md`).

use super::format;
use super::play::PlayConfig;
use super::run::{RunConfig, run};
use crate::registry::{VARIANTS, VariantId};
use crate::runner::shard::Shard;
use std::path::PathBuf;

pub const USAGE: &str = "usage: calvin datagen --variant V --games N --nodes K --out FILE
           [--threads T] [--seed S] [--random-plies R] [--max-plies P]
           [--resign-score CP] [--resign-plies N] [--hash MIB] [--quiet]
           [--shard I/N]
       calvin datagen merge OUT IN...
       calvin datagen info FILE
       calvin datagen eval FILE OUT
       calvin datagen terms FILE OUT
       calvin datagen features FILE OUT
Plays N self-play games (K nodes a move after R random plies) and appends
their positions to FILE; run again with the same settings to continue.
`--shard I/N` plays only the game numbers g with g mod N = I - 1; `merge`
writes the games of such files (the same settings) to OUT, by number.
`info` summarises a file; `eval` writes the static evaluation of each of
its positions (White's view, i32 little-endian) to OUT; `terms` the
evaluation's terms of each (docs/datagen.md); `features` the network's
features of each, with score and result (docs/nnue.md).";

/// Runs `calvin datagen` with the arguments after `datagen`; returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let result = match args.first().map(String::as_str) {
        Some("info") => match args.get(1) {
            Some(path) => info(path),
            None => Err("info needs a FILE".into()),
        },
        Some("merge") => match (args.get(1), &args[args.len().min(2)..]) {
            (Some(out), inputs) if !inputs.is_empty() => {
                let inputs: Vec<&std::path::Path> = inputs.iter().map(std::path::Path::new).collect();
                super::merge::merge(std::path::Path::new(out), &inputs).map(|m| {
                    if m.dropped_bytes > 0 {
                        eprintln!(
                            "datagen: left out {} bytes of games cut off at the end of an input",
                            m.dropped_bytes
                        );
                    }
                    println!(
                        "datagen: merged {} games ({} positions) from {} files into {out}",
                        m.games,
                        m.positions,
                        inputs.len()
                    );
                })
            }
            _ => Err("merge needs OUT and at least one IN".into()),
        },
        Some("eval") => match (args.get(1), args.get(2)) {
            (Some(input), Some(output)) => super::evals::write_evals(input, output).map(|n| {
                println!("datagen: wrote {n} evaluations to {output}");
            }),
            _ => Err("eval needs FILE and OUT".into()),
        },
        Some("terms") => match (args.get(1), args.get(2)) {
            (Some(input), Some(output)) => super::terms::write_terms(input, output).map(|n| {
                println!("datagen: wrote the terms of {n} positions to {output}");
            }),
            _ => Err("terms needs FILE and OUT".into()),
        },
        Some("features") => match (args.get(1), args.get(2)) {
            (Some(input), Some(output)) => super::features::write_features(input, output).map(|n| {
                println!("datagen: wrote the features of {n} positions to {output}");
            }),
            _ => Err("features needs FILE and OUT".into()),
        },
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            return 0;
        }
        _ => parse(args).and_then(|cfg| {
            let s = run(&cfg)?;
            if s.dropped_bytes > 0 {
                eprintln!("datagen: dropped {} bytes of a game cut off by an earlier stop", s.dropped_bytes);
            }
            println!(
                "datagen: {} games were in {}, played {}, wrote {} positions ({} nodes)",
                s.games_before,
                cfg.out.display(),
                s.games_played,
                s.positions,
                s.nodes
            );
            Ok(())
        }),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("datagen: error: {e}\n{USAGE}");
            2
        }
    }
}

/// The run's settings from `--key value` pairs.
pub fn parse(args: &[String]) -> Result<RunConfig, String> {
    let mut cfg = RunConfig {
        variant: VariantId::ALL[0],
        games: 0,
        threads: 1,
        hash_mib: 16,
        out: PathBuf::new(),
        play: PlayConfig { seed: 1, nodes: 0, random_plies: 8, max_plies: 400, resign_score: 1000, resign_plies: 8 },
        progress: true,
        shard: None,
    };
    let (mut variant, mut out) = (None, None);
    let mut it = args.iter();
    while let Some(key) = it.next() {
        if key == "--quiet" {
            cfg.progress = false;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{key} needs a value"))?;
        let p = &mut cfg.play;
        match key.as_str() {
            "--variant" => {
                let v = VariantId::from_name(value)
                    .ok_or_else(|| format!("unknown variant '{value}' (one of {})", VARIANTS.join(", ")))?;
                variant = Some(v);
            }
            "--out" => out = Some(PathBuf::from(value)),
            "--shard" => cfg.shard = Some(Shard::parse(value)?),
            "--games" => cfg.games = number(key, value, 1, u32::MAX as u64)? as u32,
            "--nodes" => p.nodes = number(key, value, 1, u32::MAX as u64)?,
            "--threads" => cfg.threads = number(key, value, 1, 1024)? as usize,
            "--hash" => cfg.hash_mib = number(key, value, 1, 1 << 16)? as usize,
            "--seed" => p.seed = number(key, value, 0, u64::MAX)?,
            "--random-plies" => p.random_plies = number(key, value, 0, 1000)? as usize,
            "--max-plies" => p.max_plies = number(key, value, 1, u16::MAX as u64)? as usize,
            "--resign-score" => p.resign_score = number(key, value, 1, 20000)? as i32,
            "--resign-plies" => p.resign_plies = number(key, value, 1, 1000)? as usize,
            _ => return Err(format!("unknown argument '{key}'")),
        }
    }
    cfg.variant = variant.ok_or("--variant is required")?;
    cfg.out = out.ok_or("--out is required")?;
    if cfg.games == 0 || cfg.play.nodes == 0 {
        return Err("--games and --nodes are required".into());
    }
    Ok(cfg)
}

fn number(key: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("{key} wants a whole number from {min} to {max}, not '{value}'")),
    }
}

/// `calvin datagen info FILE`: the settings, games, positions, results.
/// Written in one piece; a reader that closes early (`| head -1`) only
/// cuts the text short.
fn info(path: &str) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let data = format::read(std::io::BufReader::new(file)).map_err(|e| format!("{path}: {e}"))?;
    let h = &data.header;
    let mut results = [0usize; 3];
    let mut ends = [0usize; 3];
    for g in &data.games {
        results[g.result as usize] += 1;
        ends[g.end as usize] += 1;
    }
    use std::fmt::Write as _;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "variant {} seed {} nodes {} random-plies {} max-plies {} resign-score {} resign-plies {} hash {}",
        h.variant, h.seed, h.nodes, h.random_plies, h.max_plies, h.resign_score, h.resign_plies, h.hash_mib
    );
    let _ =
        writeln!(text, "games {} positions {} trailing-bytes {}", data.games.len(), data.positions(), data.trailing);
    let _ = writeln!(text, "results white-wins {} draws {} black-wins {}", results[2], results[1], results[0]);
    let _ = writeln!(text, "ends rules {} ply-cap {} adjudicated {}", ends[0], ends[1], ends[2]);
    match std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write: {e}")),
        _ => Ok(()),
    }
}
