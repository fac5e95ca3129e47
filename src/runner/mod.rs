//! The match runner behind `calvin-match`: plays games between two UCI
//! engines over pipes, in any variant calvin knows, refereed by calvin's own
//! rules, several games at once; writes a record of each game as it ends
//! and reports the score, the Elo difference and an SPRT verdict.
//!
//! - [`config`]: the command line
//! - [`engine`]: one engine process (pipes, threads, timeouts)
//! - [`timecontrol`]: clocks, Ita's time modes, the `go` command
//! - [`openings`]: opening files and random openings
//! - [`referee`]: one game
//! - [`record`]: the PGN-like record
//! - [`stats`]: Elo, error bar, LOS, SPRT
//! - [`results`]: the machine-readable results file and `calvin-match merge`
//! - [`shard`]: `--shard I/N`, the part of the games a shard plays
//! - [`spsa`]: `--spsa FILE`, SPSA tuning of engine options

pub mod config;
pub mod engine;
pub mod openings;
pub mod record;
pub mod referee;
pub mod results;
pub mod shard;
pub mod spsa;
pub mod stats;
pub mod timecontrol;

use crate::registry::{VARIANTS, new_game};
use config::MatchConfig;
use crossbeam_channel::unbounded;
use engine::Engine;
use openings::Book;
use record::{Forfeit, GameRecord, PgnWriter};
use referee::{GameSettings, Player, play_game};
use results::{GameResult, ResultsWriter};
use stats::{Sprt, SprtVerdict, Wdl};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// What a match came to, from the first engine's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub names: [String; 2],
    pub wdl: Wdl,
    /// Score points of each engine, summed over the games that keep scores (Ita).
    pub points: [i64; 2],
    pub scored_games: u64,
    /// Forfeits of each engine, in the order of [`Forfeit::ALL`].
    pub forfeits: [[u64; 5]; 2],
    pub llr: Option<f64>,
    pub verdict: Option<SprtVerdict>,
    pub seed: u64,
}

impl Summary {
    /// Adds a game; `a_color` is the colour the first engine had.
    pub fn add(&mut self, rec: &GameRecord, a_color: usize) {
        self.add_result(&GameResult::of(rec, a_color));
    }

    /// Adds a game's result (as a results file keeps it).
    pub fn add_result(&mut self, g: &GameResult) {
        match g.a_half_points {
            2 => self.wdl.wins += 1,
            0 => self.wdl.losses += 1,
            _ => self.wdl.draws += 1,
        }
        if let Some(p) = g.points {
            self.points[0] += p[0];
            self.points[1] += p[1];
            self.scored_games += 1;
        }
        if let Some((who, how)) = g.forfeit {
            let k = Forfeit::ALL.iter().position(|&f| f == how).unwrap_or(0);
            self.forfeits[who.min(1)][k] += 1;
        }
    }

    pub fn score_line(&self, total: u32) -> String {
        let w = &self.wdl;
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}/{}",
            self.names[0],
            self.names[1],
            w.wins,
            w.losses,
            w.draws,
            w.score().unwrap_or(0.5),
            w.games(),
            total
        )
    }

    /// The closing report: score, Elo with its 95% error bar, SPRT, points, forfeits.
    pub fn report(&self, sprt: Option<&Sprt>, total: u32) -> String {
        let mut s = self.score_line(total) + "\n";
        let w = &self.wdl;
        if let Some((elo, err)) = w.elo() {
            s += &format!(
                "Elo difference: {} +/- {} (95%), LOS: {:.1} %, DrawRatio: {:.1} %\n",
                fixed(elo, 1),
                fixed(err, 1),
                w.los().unwrap_or(0.5) * 100.0,
                w.draw_ratio().unwrap_or(0.0) * 100.0
            );
        }
        if let (Some(sp), Some(llr)) = (sprt, self.llr) {
            let (lo, hi) = sp.bounds();
            let verdict = match self.verdict {
                Some(SprtVerdict::H1) => "H1 was accepted",
                Some(SprtVerdict::H0) => "H0 was accepted",
                None => "no decision",
            };
            s += &format!(
                "SPRT: llr {} ({}%), lbound {lo:.3}, ubound {hi:.3} - {verdict} \
                 (elo0={} elo1={} alpha={} beta={})\n",
                fixed(llr, 3),
                fixed(100.0 * llr / hi, 1),
                sp.elo0,
                sp.elo1,
                sp.alpha,
                sp.beta
            );
        }
        if self.scored_games > 0 {
            s += &format!(
                "Points in {} scored games: {} {}, {} {}\n",
                self.scored_games, self.names[0], self.points[0], self.names[1], self.points[1]
            );
        }
        for (i, f) in self.forfeits.iter().enumerate() {
            let parts: Vec<String> = Forfeit::ALL
                .iter()
                .zip(f)
                .filter(|(_, n)| **n > 0)
                .map(|(k, n)| format!("{n} {}", k.label()))
                .collect();
            if !parts.is_empty() {
                s += &format!("Forfeits of {}: {}\n", self.names[i], parts.join(", "));
            }
        }
        s
    }
}

/// `x` with `prec` decimals, without the sign of a value that rounds to zero.
pub fn fixed(x: f64, prec: usize) -> String {
    let s = format!("{x:.prec$}");
    match s.strip_prefix('-') {
        Some(r) if r.chars().all(|c| c == '0' || c == '.') => r.to_string(),
        _ => s,
    }
}

fn default_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
        % 1_000_000_007
}

/// Sets up the two players: checks their limits, starts each once (so that
/// a wrong command fails at once rather than losing every game), names
/// them, and checks that each lists the engine options in `required` (a
/// tuned option an engine lacks would change nothing).
fn players(cfg: &MatchConfig, required: &[&str]) -> Result<[Player; 2], String> {
    let mut out: [Player; 2] = Default::default();
    let mut listed: [Vec<String>; 2] = Default::default();
    for (i, spec) in cfg.players.iter().enumerate() {
        spec.limits.validate().map_err(|e| format!("engine {} ({}): {e}", i + 1, spec.cmd.cmd))?;
        let mut cmd = spec.cmd.clone();
        cmd.variant = spec.variant.clone().unwrap_or_else(|| cfg.variant.clone());
        cmd.clock_mode = spec.limits.clock_mode();
        let log = cfg.debug.then(|| format!("[check {}]", i + 1));
        let e = Engine::start(&cmd, cfg.start_timeout, log)
            .map_err(|f| format!("engine {} does not start: {}", i + 1, f.describe(&format!("'{}'", cmd.cmd))))?;
        let fallback = engine::split_command(&cmd.cmd)
            .ok()
            .and_then(|w| std::path::Path::new(&w[0]).file_name().map(|f| f.to_string_lossy().into_owned()))
            .unwrap_or_else(|| format!("engine{}", i + 1));
        let name = spec.name.clone().or_else(|| e.id_name.clone()).unwrap_or(fallback);
        listed[i] = e.options.clone();
        e.quit(Duration::from_millis(300));
        out[i] = Player { name, cmd, limits: spec.limits.clone() };
    }
    if out[0].name == out[1].name {
        out[1].name += " (2)";
    }
    for (i, p) in out.iter().enumerate() {
        let missing: Vec<&str> = required.iter().copied().filter(|n| !listed[i].iter().any(|o| o == n)).collect();
        if !missing.is_empty() {
            return Err(format!(
                "engine {} ({}) has no option {} (calvin's TUNE_* options need its tune build: --features tune)",
                i + 1,
                p.name,
                missing.join(", ")
            ));
        }
    }
    Ok(out)
}

/// The opening book of a match or a tuning run: `--openings` (or random
/// plies alone), drawn with `seed`, under the match's rule options.
fn opening_book(cfg: &MatchConfig, seed: u64) -> Result<Book, String> {
    let openings = match &cfg.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            openings::parse_file(&text, &cfg.variant, &cfg.rules).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => Vec::new(),
    };
    let mut book = Book::new(&cfg.variant, openings, cfg.random_order, cfg.random_plies, seed);
    book.rules = cfg.rules;
    Ok(book)
}

/// `--pgnout`'s writer, if given.
fn pgn_writer(cfg: &MatchConfig) -> Result<Option<PgnWriter>, String> {
    cfg.pgnout.as_ref().map(|p| PgnWriter::open(p, &cfg.event)).transpose()
}

/// Runs the match, printing progress to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<Summary, String> {
    if new_game(&cfg.variant).is_none() {
        return Err(format!("unknown variant '{}' (known: {})", cfg.variant, VARIANTS.join(", ")));
    }
    // A resumed run draws the openings of its results file's seed.
    let seed = cfg
        .seed
        .or_else(|| cfg.results.as_deref().filter(|_| cfg.resume).and_then(results::seed_of))
        .unwrap_or_else(default_seed);
    let book = opening_book(cfg, seed)?;
    let players = players(cfg, &[])?;
    let settings = GameSettings::of(cfg);
    let mut sum = Summary { names: [players[0].name.clone(), players[1].name.clone()], seed, ..Summary::default() };
    let (mut results, before) = match &cfg.results {
        Some(p) => {
            let header = results::header_line(cfg, &players, seed, cfg.shard)?;
            let (w, before) = if cfg.resume {
                ResultsWriter::resume(p, &header, cfg.games)?
            } else {
                (ResultsWriter::create(p, &header, cfg.games)?, Vec::new())
            };
            (Some(w), before)
        }
        None => (None, Vec::new()),
    };
    let mut pgn = pgn_writer(cfg)?;
    // The games this run plays: all, or those of its shard's opening
    // pairs, less the pairs a resumed run's file holds.
    let mine: Vec<u32> = (0..cfg.games).filter(|&n| cfg.shard.is_none_or(|s| s.contains(u64::from(n / 2)))).collect();
    let total = mine.len() as u32;
    let played: std::collections::BTreeSet<u32> = before.iter().map(|(p, _)| *p).collect();
    if let Some(p) = played.iter().find(|&&p| !mine.contains(&(2 * p))) {
        let file = cfg.results.as_deref().map(|f| f.display().to_string()).unwrap_or_default();
        return Err(format!("--resume: {file} holds pair {p}, which is not among this run's games"));
    }
    for g in before.iter().flat_map(|(_, games)| games) {
        sum.add_result(g);
    }
    let mine: Vec<u32> = mine.into_iter().filter(|n| !played.contains(&(n / 2))).collect();
    let workers = cfg.concurrency.clamp(1, mine.len().max(1));
    let part = match cfg.shard {
        Some(s) => format!("{total} of {} games of {} (shard {s})", cfg.games, cfg.variant),
        None => format!("{total} games of {}", cfg.variant),
    };
    let _ = writeln!(out, "{} vs {}: {part}, {workers} at once, seed {seed}", sum.names[0], sum.names[1]);
    let stop = AtomicBool::new(false);
    if !before.is_empty() {
        let pairs =
            if before.len() == 1 { "1 opening pair".to_string() } else { format!("{} opening pairs", before.len()) };
        let _ = writeln!(out, "Resumed: {} games played before, in {pairs}", sum.wdl.games());
        if let Some(sp) = &cfg.sprt {
            let llr = sp.llr(&sum.wdl);
            sum.llr = Some(llr);
            // A whole run whose file has decided plays no more.
            if cfg.shard.is_none() {
                sum.verdict = sp.verdict(llr);
                stop.store(sum.verdict.is_some(), Ordering::SeqCst);
            }
        }
    }
    let next = AtomicU32::new(0);
    let (tx, rx) = unbounded::<(GameRecord, usize)>();
    let mut write_error: Option<String> = None;
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, book, players, settings, mine) = (&next, &stop, &book, &players, &settings, &mine);
            s.spawn(move || {
                let mut slots: [Option<Engine>; 2] = [None, None];
                while !stop.load(Ordering::SeqCst) {
                    let Some(&n) = mine.get(next.fetch_add(1, Ordering::SeqCst) as usize) else { break };
                    // Games in pairs from one opening, the first engine White first.
                    let a_color = (n % 2) as usize;
                    let opening = book.get((n / 2) as usize);
                    let [a, b] = &mut slots;
                    let (pw, pb, sw, sb) =
                        if a_color == 0 { (&players[0], &players[1], a, b) } else { (&players[1], &players[0], b, a) };
                    let rec = play_game(n + 1, &opening, [pw, pb], [sw, sb], settings);
                    if tx.send((rec, a_color)).is_err() {
                        break;
                    }
                }
                for e in slots.into_iter().flatten() {
                    e.quit(Duration::from_millis(300));
                }
            });
        }
        drop(tx);
        for (rec, a_color) in rx {
            if let Some(w) = pgn.as_mut()
                && let Err(e) = w.write(&rec)
            {
                write_error = Some(format!("writing game {}: {e}", rec.number));
                eprintln!("calvin-match: {}", write_error.as_deref().unwrap_or(""));
            }
            if let (Some(r), Some(p)) = (results.as_mut(), &cfg.results)
                && let Err(e) = r.add(GameResult::of(&rec, a_color))
            {
                write_error = Some(format!("writing {}: {e}", p.display()));
                eprintln!("calvin-match: {}", write_error.as_deref().unwrap_or(""));
            }
            sum.add(&rec, a_color);
            let result = rec.scores().unwrap_or_else(|| rec.result().to_string());
            let _ = writeln!(
                out,
                "Finished game {} ({} vs {}): {} {{{}}}",
                rec.number, rec.white, rec.black, result, rec.outcome.reason
            );
            let mut line = sum.score_line(total);
            if let Some(sp) = &cfg.sprt {
                let llr = sp.llr(&sum.wdl);
                sum.llr = Some(llr);
                let (lo, hi) = sp.bounds();
                line += &format!("  LLR {} [{lo:.2}, {hi:.2}]", fixed(llr, 2));
                // A shard does not stop: the merge of all shards decides.
                if sum.verdict.is_none()
                    && cfg.shard.is_none()
                    && let Some(v) = sp.verdict(llr)
                {
                    sum.verdict = Some(v);
                    stop.store(true, Ordering::SeqCst);
                    line += match v {
                        SprtVerdict::H1 => "  H1 accepted, stopping",
                        SprtVerdict::H0 => "  H0 accepted, stopping",
                    };
                }
            }
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    });
    if let (Some(r), Some(p)) = (results.as_mut(), &cfg.results)
        && let Err(e) = r.finish()
    {
        write_error = Some(format!("writing {}: {e}", p.display()));
        eprintln!("calvin-match: {}", write_error.as_deref().unwrap_or(""));
    }
    let _ = write!(out, "{}", sum.report(cfg.sprt.as_ref(), total));
    let _ = out.flush();
    match write_error {
        Some(e) => Err(e),
        None => Ok(sum),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_without_negative_zero() {
        assert_eq!(fixed(-0.00001, 3), "0.000");
        assert_eq!(fixed(-0.0, 1), "0.0");
        assert_eq!(fixed(-1.25, 1), "-1.2");
        assert_eq!(fixed(f64::INFINITY, 1), "inf");
    }
}
