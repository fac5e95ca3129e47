//! `calvin-match --spsa FILE`: SPSA tuning of engine options (the search's
//! `TUNE_*` numbers of calvin's `tune` build, or any engine's spin options).
//!
//! Each iteration k (1-based) draws a perturbation of +1 or -1 per parameter,
//! plays a game pair from one opening between the first engine with
//! theta + c_k * flip and the second with theta - c_k * flip (colours
//! swapped), and moves theta by a_k / c_k * result * flip, where result is
//! the plus side's wins minus losses in the pair (-2..2), clamped to the
//! parameter's bounds. The gains, as Fishtest and Spall have them, for N
//! iterations: c_k = c_end * (N / k)^gamma, a_k = a_end * ((A + N) / (A + k))^alpha,
//! with a_end = r_end * c_end^2, A = N / 10, alpha = 0.602, gamma = 0.101.
//!
//! The state (seed, N, iterations done, theta) is written after every update
//! to a state file; a run given the same command continues from it.

use super::config::MatchConfig;
use super::engine::Engine;
use super::referee::{GameSettings, Player, play_game};
use super::results::GameResult;
use crate::registry::{VARIANTS, new_game};
use crate::rng::SplitMix64;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
/// A as a share of the iterations.
pub const A_RATIO: f64 = 0.1;

/// One parameter of the parameters file.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

/// Reads a parameters file: one parameter a line, `NAME, start, min, max,
/// c_end, r_end` (Fishtest's SPSA format; commas or blanks between the
/// fields), blank lines and `#` comments skipped.
pub fn parse_params(text: &str) -> Result<Vec<Param>, String> {
    let mut out: Vec<Param> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()).collect();
        let at = |what: &str| format!("line {}: {what}", i + 1);
        if f.len() != 6 {
            return Err(at("NAME, start, min, max, c_end, r_end expected"));
        }
        let mut n = [0.0; 5];
        for (k, w) in f[1..].iter().enumerate() {
            n[k] = w.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| at(&format!("bad number '{w}'")))?;
        }
        let p = Param { name: f[0].to_string(), start: n[0], min: n[1], max: n[2], c_end: n[3], r_end: n[4] };
        if !(p.min <= p.start && p.start <= p.max) {
            return Err(at("min <= start <= max is needed"));
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            return Err(at("c_end and r_end must be above 0"));
        }
        if out.iter().any(|q| q.name == p.name) {
            return Err(at(&format!("{} is given twice", p.name)));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err("no parameter".into());
    }
    Ok(out)
}

/// Where a tuning run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub seed: u64,
    /// N: the iterations of the whole run (the gains' schedule).
    pub iterations: u64,
    /// Iterations done.
    pub done: u64,
    pub theta: Vec<f64>,
}

impl State {
    /// The state file's text (floats written so that they read back exactly).
    pub fn to_text(&self, params: &[Param]) -> String {
        let mut s = String::from("# calvin-match --spsa state: the same command continues from it\n");
        s += &format!("seed {}\niterations {}\ndone {}\n", self.seed, self.iterations, self.done);
        for (p, t) in params.iter().zip(&self.theta) {
            s += &format!("theta {} {t:?}\n", p.name);
        }
        s
    }

    /// Reads a state file written for `params`.
    pub fn parse(text: &str, params: &[Param]) -> Result<State, String> {
        let (mut seed, mut iterations, mut done) = (None, None, None);
        let mut theta = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let w: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("bad line '{line}'");
            match (w[0], w.len()) {
                ("seed", 2) => seed = Some(w[1].parse::<u64>().map_err(|_| bad())?),
                ("iterations", 2) => iterations = Some(w[1].parse::<u64>().map_err(|_| bad())?),
                ("done", 2) => done = Some(w[1].parse::<u64>().map_err(|_| bad())?),
                ("theta", 3) => theta.push((w[1].to_string(), w[2].parse::<f64>().map_err(|_| bad())?)),
                _ => return Err(bad()),
            }
        }
        let names: Vec<&str> = theta.iter().map(|(n, _)| n.as_str()).collect();
        let wanted: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        if names != wanted {
            return Err(format!("its parameters ({}) are not the file's ({})", names.join(" "), wanted.join(" ")));
        }
        match (seed, iterations, done) {
            (Some(seed), Some(iterations), Some(done)) if iterations > 0 && done <= iterations => {
                Ok(State { seed, iterations, done, theta: theta.into_iter().map(|(_, t)| t).collect() })
            }
            _ => Err("seed, iterations and done (at most iterations) are needed".into()),
        }
    }
}

/// c_k of a parameter at iteration `k` (1-based) of `n`.
pub fn c_k(p: &Param, k: u64, n: u64) -> f64 {
    p.c_end * (n as f64 / k as f64).powf(GAMMA)
}

/// a_k of a parameter at iteration `k` (1-based) of `n`.
pub fn a_k(p: &Param, k: u64, n: u64) -> f64 {
    let a = A_RATIO * n as f64;
    p.r_end * p.c_end * p.c_end * ((a + n as f64) / (a + k as f64)).powf(ALPHA)
}

/// The perturbation of iteration `k`: +1 or -1 per parameter, from the seed
/// and `k` alone (so a resumed run draws what an uninterrupted one would).
pub fn flips(seed: u64, k: u64, count: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5B5A_5B5A);
    (0..count).map(|_| if rng.next_u64() >> 63 == 1 { 1.0 } else { -1.0 }).collect()
}

/// The option values of one side: theta +/- c_k * flip, within the bounds, rounded.
pub fn side_values(params: &[Param], state: &State, k: u64, flip: &[f64], sign: f64) -> Vec<i64> {
    params
        .iter()
        .zip(&state.theta)
        .zip(flip)
        .map(|((p, t), f)| (t + sign * c_k(p, k, state.iterations) * f).clamp(p.min, p.max).round() as i64)
        .collect()
}

/// Moves theta after iteration `k`'s pair; `result` is the plus side's wins
/// minus losses.
pub fn update(params: &[Param], state: &mut State, k: u64, flip: &[f64], result: i32) {
    let n = state.iterations;
    for ((p, t), f) in params.iter().zip(state.theta.iter_mut()).zip(flip) {
        *t = (*t + a_k(p, k, n) / c_k(p, k, n) * f64::from(result) * f).clamp(p.min, p.max);
    }
    state.done = state.done.max(k);
}

/// The state file: `--spsa-state`, or the parameters file's path with `.state` added.
pub fn state_path(cfg: &MatchConfig, params_file: &Path) -> PathBuf {
    cfg.spsa_state.clone().unwrap_or_else(|| {
        let mut s = params_file.as_os_str().to_owned();
        s.push(".state");
        PathBuf::from(s)
    })
}

fn write_state(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("writing {}: {e}", path.display()))
}

fn values_line(params: &[Param], theta: &[f64]) -> String {
    params.iter().zip(theta).map(|(p, t)| format!("{}={}", p.name, super::fixed(*t, 2))).collect::<Vec<_>>().join(" ")
}

/// Runs (or continues) the tuning; returns the final state.
pub fn run_spsa(cfg: &MatchConfig, out: &mut dyn Write) -> Result<State, String> {
    let file = cfg.spsa.as_ref().ok_or("no --spsa file")?;
    if new_game(&cfg.variant).is_none() {
        return Err(format!("unknown variant '{}' (known: {})", cfg.variant, VARIANTS.join(", ")));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let params = parse_params(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let spath = state_path(cfg, file);
    let mut state = match std::fs::read_to_string(&spath) {
        Ok(t) => State::parse(&t, &params).map_err(|e| format!("{}: {e}", spath.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => State {
            seed: cfg.seed.unwrap_or_else(super::default_seed),
            iterations: cfg.spsa_iterations.unwrap_or(u64::from(cfg.games / 2)).max(1),
            done: 0,
            theta: params.iter().map(|p| p.start).collect(),
        },
        Err(e) => return Err(format!("cannot read {}: {e}", spath.display())),
    };
    let resumed = state.done > 0;
    let book = super::opening_book(cfg, state.seed)?;
    let names: Vec<&str> = params.iter().map(|q| q.name.as_str()).collect();
    let base = super::players(cfg, &names)?;
    let mut pgn = super::pgn_writer(cfg)?;
    let settings = GameSettings::of(cfg);
    let pairs = u64::from(cfg.games / 2).min(state.iterations - state.done);
    let workers = cfg.concurrency.max(1) as u64;
    let _ = writeln!(
        out,
        "SPSA of {} parameters ({}), {} of {} iterations done, {pairs} pairs of {} in this run, {} at once, seed {}{}",
        params.len(),
        spath.display(),
        state.done,
        state.iterations,
        cfg.variant,
        workers.min(pairs.max(1)),
        state.seed,
        if resumed { " (resumed)" } else { "" }
    );
    let _ = writeln!(out, "theta: {}", values_line(&params, &state.theta));
    let end = state.done + pairs;
    while state.done < end {
        // Up to `workers` pairs at once, all from the theta they start with;
        // the updates follow in the order of the iterations.
        let ks: Vec<u64> = (state.done + 1..=end.min(state.done + workers)).collect();
        let jobs: Vec<(u64, Vec<f64>, [Player; 2])> = ks
            .iter()
            .map(|&k| {
                let flip = flips(state.seed, k, params.len());
                let sides = [1.0, -1.0].map(|sign| side_values(&params, &state, k, &flip, sign));
                let players = [0, 1].map(|i| {
                    let name = ["theta+", "theta-"][i].to_string();
                    let mut p = Player { name, cmd: base[i].cmd.clone(), limits: base[i].limits.clone() };
                    for (param, v) in params.iter().zip(&sides[i]) {
                        p.cmd.options.retain(|(n, _)| n != &param.name);
                        p.cmd.options.push((param.name.clone(), v.to_string()));
                    }
                    p
                });
                (k, flip, players)
            })
            .collect();
        let done: Vec<(u64, [crate::runner::record::GameRecord; 2])> = std::thread::scope(|s| {
            let handles: Vec<_> = jobs
                .iter()
                .map(|(k, _, players)| {
                    let (book, settings) = (&book, &settings);
                    s.spawn(move || {
                        let opening = book.get((*k - 1) as usize);
                        let mut slots: [Option<Engine>; 2] = [None, None];
                        let [a, b] = &mut slots;
                        let first =
                            play_game(2 * *k as u32 - 1, &opening, [&players[0], &players[1]], [a, b], settings);
                        let second = play_game(2 * *k as u32, &opening, [&players[1], &players[0]], [b, a], settings);
                        for e in slots.into_iter().flatten() {
                            e.quit(Duration::from_millis(300));
                        }
                        (*k, [first, second])
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a pair's thread does not panic")).collect()
        });
        for ((k, recs), (_, flip, _)) in done.into_iter().zip(&jobs) {
            let mut half_points = 0;
            for (rec, plus_color) in recs.iter().zip([0, 1]) {
                if let Some(w) = pgn.as_mut() {
                    w.write(rec).map_err(|e| format!("writing game {}: {e}", rec.number))?;
                }
                half_points += i32::from(GameResult::of(rec, plus_color).a_half_points);
            }
            let result = half_points - 2;
            update(&params, &mut state, k, flip, result);
            write_state(&spath, &state.to_text(&params))?;
            let points = |half: i32| super::fixed(f64::from(half) / 2.0, 1);
            let _ = writeln!(
                out,
                "Iteration {k} of {}: plus {} - minus {}  {}",
                state.iterations,
                points(half_points),
                points(4 - half_points),
                values_line(&params, &state.theta)
            );
            let _ = out.flush();
        }
    }
    write_state(&spath, &state.to_text(&params))?;
    let finished = if state.done == state.iterations { "finished" } else { "to be continued" };
    let _ = writeln!(out, "SPSA {finished}: {} of {} iterations", state.done, state.iterations);
    let opts: Vec<String> =
        params.iter().zip(&state.theta).map(|(p, t)| format!("option.{}={}", p.name, t.round())).collect();
    let _ = writeln!(out, "Values: {}", opts.join(" "));
    let _ = out.flush();
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Vec<Param> {
        parse_params(text).unwrap()
    }

    #[test]
    fn parameters_file() {
        let ps = p(
            "# name, start, min, max, c_end, r_end\nTUNE_RFP_MARGIN, 90, 20, 300, 10, 0.0020\n\nB 1 0 4 0.5 0.002 # c\n",
        );
        assert_eq!(
            ps,
            [
                Param { name: "TUNE_RFP_MARGIN".into(), start: 90.0, min: 20.0, max: 300.0, c_end: 10.0, r_end: 0.002 },
                Param { name: "B".into(), start: 1.0, min: 0.0, max: 4.0, c_end: 0.5, r_end: 0.002 },
            ]
        );
        let err = |t: &str| parse_params(t).unwrap_err();
        assert_eq!(err("A, 1, 2, 3, 1, 1"), "line 1: min <= start <= max is needed");
        assert_eq!(err("A, 1, 0, 3, 1"), "line 1: NAME, start, min, max, c_end, r_end expected");
        assert_eq!(err("A, 1, 0, 3, x, 1"), "line 1: bad number 'x'");
        assert_eq!(err("A 1 0 3 1 1\nA 1 0 3 1 1"), "line 2: A is given twice");
        assert_eq!(err("A 1 0 3 0 1"), "line 1: c_end and r_end must be above 0");
        assert_eq!(err("# nothing"), "no parameter");
    }

    #[test]
    fn gains_reach_their_end_values() {
        let q = &p("X 90 20 300 10 0.002")[0];
        // c_N = c_end, a_N = r_end * c_end^2.
        assert!((c_k(q, 100, 100) - 10.0).abs() < 1e-12);
        assert!((a_k(q, 100, 100) - 0.2).abs() < 1e-12);
        // c_1 = c_end * N^gamma, a_1 = a_end * ((A + N) / (A + 1))^alpha with A = 10.
        assert!((c_k(q, 1, 100) - 10.0 * 100f64.powf(0.101)).abs() < 1e-12);
        assert!((a_k(q, 1, 100) - 0.2 * (110.0f64 / 11.0).powf(0.602)).abs() < 1e-12);
    }

    #[test]
    fn updates_and_state_round_trip() {
        let ps = p("X 90 20 300 10 0.002\nY 1 0 4 0.5 0.002");
        let mut s = State { seed: 7, iterations: 4, done: 0, theta: vec![90.0, 1.0] };
        let flip = flips(7, 1, 2);
        assert_eq!(flips(7, 1, 2), flip, "the same draw for the same seed and iteration");
        let plus = side_values(&ps, &s, 1, &flip, 1.0);
        let minus = side_values(&ps, &s, 1, &flip, -1.0);
        let c = c_k(&ps[0], 1, 4);
        assert_eq!(plus[0], (90.0 + c * flip[0]).round() as i64);
        assert_eq!(minus[0], (90.0 - c * flip[0]).round() as i64);
        update(&ps, &mut s, 1, &flip, 2);
        assert_eq!(s.done, 1);
        assert!((s.theta[0] - (90.0 + a_k(&ps[0], 1, 4) / c * 2.0 * flip[0])).abs() < 1e-12);
        let back = State::parse(&s.to_text(&ps), &ps).unwrap();
        assert_eq!(back, s);
        assert!(State::parse(&s.to_text(&ps), &ps[..1]).unwrap_err().contains("not the file's"));
    }
}
