//! Time controls: a clock with base time, increment and moves per period,
//! a variant's own clock modes (with their regeneration), fixed time per move, and
//! node or depth limits; the `go` command built from them; and the check
//! that a move came in time (with the time margin).

use std::time::Duration;

use crate::registry::clock_modes;
use crate::variants::ClockModes;

/// How a side's clock runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockSpec {
    /// `moves` per period (0: the whole game), `base_ms` per period, `inc_ms` per move.
    Fixed { moves: u32, base_ms: u64, inc_ms: u64 },
    /// One of a variant's clock modes (its index in `clock.modes`; the
    /// times may differ by colour).
    Modes { clock: &'static ClockModes, mode: usize },
}

/// Everything that limits one engine's thinking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub clock: Option<ClockSpec>,
    /// Fixed time per move (`st=`), ms.
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// How far past its time an engine may answer before it loses, ms.
    pub margin_ms: u64,
}

/// Reads a seconds value: `40`, `0.4`, or `m:ss` (`1:30`).
pub fn parse_seconds_ms(s: &str) -> Result<u64, String> {
    let bad = || format!("bad time '{s}'");
    let secs: f64 = match s.split_once(':') {
        Some((m, sec)) => {
            let m: f64 = m.parse().map_err(|_| bad())?;
            let sec: f64 = sec.parse().map_err(|_| bad())?;
            m * 60.0 + sec
        }
        None => s.parse().map_err(|_| bad())?,
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(bad());
    }
    Ok((secs * 1000.0).round() as u64)
}

/// Reads a `tc=` value: `[moves/]base[+inc]` in seconds (`40+0.4`,
/// `40/60`, `1:30+1`), `<prefix>:<mode>` of a variant's clock modes
/// (`ita:easy`), or `inf` (no clock).
pub fn parse_tc(s: &str) -> Result<Option<ClockSpec>, String> {
    if s == "inf" || s == "infinite" || s == "-" {
        return Ok(None);
    }
    if let Some((prefix, mode)) = s.split_once(':')
        && let Some(clock) = clock_modes().into_iter().find(|c| c.tc_prefix == prefix)
    {
        let m = clock
            .find(mode)
            .ok_or_else(|| format!("unknown {} '{mode}' ({})", clock.option, clock.modes.join(", ")))?;
        return Ok(Some(ClockSpec::Modes { clock, mode: m }));
    }
    let (moves, rest) = match s.split_once('/') {
        Some((m, r)) => (m.parse::<u32>().map_err(|_| format!("bad moves per period in '{s}'"))?, r),
        None => (0, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (parse_seconds_ms(b)?, parse_seconds_ms(i)?),
        None => (parse_seconds_ms(rest)?, 0),
    };
    if base == 0 && inc == 0 {
        return Err(format!("time control '{s}' gives no time"));
    }
    Ok(Some(ClockSpec::Fixed { moves, base_ms: base, inc_ms: inc }))
}

/// The clock modes without a clock, as `tc=` names them: ` (tc=<prefix>:<mode>
/// has no clock)`, or nothing where every mode has one.
fn no_clock_hint() -> String {
    let none: Vec<String> = clock_modes()
        .iter()
        .flat_map(|c| {
            let free = c.modes.iter().enumerate().filter(|&(i, _)| (c.start_ms)(i, 0).is_none());
            free.map(|(_, m)| format!("tc={}:{m}", c.tc_prefix)).collect::<Vec<_>>()
        })
        .collect();
    match none.len() {
        0 => String::new(),
        1 => format!(" ({} has no clock)", none[0]),
        _ => format!(" ({} have no clock)", none.join(", ")),
    }
}

fn secs(ms: u64) -> String {
    let s = format!("{:.3}", ms as f64 / 1000.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Limits {
    /// Whether a clock runs (a clock mode may have none: Ita's peaceful).
    pub fn has_clock(&self) -> bool {
        match self.clock {
            Some(ClockSpec::Modes { clock, mode }) => (clock.start_ms)(mode, 0).is_some(),
            Some(ClockSpec::Fixed { .. }) => true,
            None => false,
        }
    }
    /// An engine must have some limit or it would think forever.
    pub fn validate(&self) -> Result<(), String> {
        if !self.has_clock() && self.movetime_ms.is_none() && self.nodes.is_none() && self.depth.is_none() {
            return Err(format!("no limit: give tc=, st=, nodes= or depth={}", no_clock_hint()));
        }
        Ok(())
    }
    /// The PGN `TimeControl` text (plus the other limits, cutechess style).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match &self.clock {
            Some(ClockSpec::Fixed { moves, base_ms, inc_ms }) => {
                let mut s = String::new();
                if *moves > 0 {
                    s += &format!("{moves}/");
                }
                s += &secs(*base_ms);
                if *inc_ms > 0 {
                    s += &format!("+{}", secs(*inc_ms));
                }
                parts.push(s);
            }
            Some(ClockSpec::Modes { clock, mode }) => parts.push(format!("{}:{}", clock.tc_prefix, clock.modes[*mode])),
            None => {}
        }
        if let Some(st) = self.movetime_ms {
            parts.push(format!("st={}", secs(st)));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if parts.is_empty() { "-".into() } else { parts.join(" ") }
    }
    /// The clock mode to tell an engine that has its option: (option, mode).
    pub fn clock_mode(&self) -> Option<(String, String)> {
        match self.clock {
            Some(ClockSpec::Modes { clock, mode }) => Some((clock.option.to_string(), clock.modes[mode].to_string())),
            _ => None,
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    pub limits: Limits,
    /// Time left (ms); `None` without a clock.
    left_ms: Option<i64>,
    own_moves: u32,
    inc_ms: u64,
    period_moves: u32,
    period_ms: u64,
    regen: Option<(u32, u64)>,
}

impl Clock {
    pub fn new(limits: &Limits, color: usize) -> Clock {
        let mut c = Clock {
            limits: limits.clone(),
            left_ms: None,
            own_moves: 0,
            inc_ms: 0,
            period_moves: 0,
            period_ms: 0,
            regen: None,
        };
        match &limits.clock {
            Some(ClockSpec::Fixed { moves, base_ms, inc_ms }) => {
                c.left_ms = Some(*base_ms as i64);
                c.inc_ms = *inc_ms;
                c.period_moves = *moves;
                c.period_ms = *base_ms;
            }
            Some(ClockSpec::Modes { clock, mode }) => {
                c.left_ms = (clock.start_ms)(*mode, color).map(|t| t as i64);
                c.regen = (clock.regeneration)(*mode);
            }
            None => {}
        }
        c
    }
    pub fn left_ms(&self) -> Option<i64> {
        self.left_ms
    }
    pub fn inc_ms(&self) -> u64 {
        self.inc_ms
    }
    pub fn own_moves(&self) -> u32 {
        self.own_moves
    }
    /// Moves to the next time control, where periods are used.
    pub fn movestogo(&self) -> Option<u32> {
        if self.left_ms.is_some() && self.period_moves > 0 {
            Some(self.period_moves - self.own_moves % self.period_moves)
        } else {
            None
        }
    }
    /// How long the engine may take for this move, margin included; `None`
    /// when only nodes or depth limit it.
    pub fn allowed(&self) -> Option<Duration> {
        let margin = self.limits.margin_ms as i64;
        let by_clock = self.left_ms.map(|l| (l + margin).max(0) as u64);
        let by_move = self.limits.movetime_ms.map(|t| t + margin as u64);
        let ms = match (by_clock, by_move) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        ms.map(Duration::from_millis)
    }
    /// Charges a move that took `elapsed`: `Err` (with the time allowed)
    /// when it came too late, else the clock moves on (increment, period,
    /// a clock mode's regeneration).
    pub fn spend(&mut self, elapsed: Duration) -> Result<(), Duration> {
        if let Some(allowed) = self.allowed()
            && elapsed > allowed
        {
            return Err(allowed);
        }
        self.own_moves += 1;
        if let Some(left) = self.left_ms.as_mut() {
            *left -= elapsed.as_millis() as i64;
            // Within the margin: the engine goes on with nothing left.
            if *left < 0 {
                *left = 0;
            }
            *left += self.inc_ms as i64;
            if self.period_moves > 0 && self.own_moves.is_multiple_of(self.period_moves) {
                *left += self.period_ms as i64;
            }
            if let Some((every, add)) = self.regen
                && self.own_moves.is_multiple_of(every)
            {
                *left += add as i64;
            }
        }
        Ok(())
    }
}

/// The `go` command for `side` to move, given both clocks.
pub fn go_command(clocks: &[Clock; 2], side: usize) -> String {
    let me = &clocks[side];
    let mut s = String::from("go");
    if me.left_ms.is_some() {
        for (c, key) in [(0, "w"), (1, "b")] {
            if let Some(left) = clocks[c].left_ms {
                s += &format!(" {key}time {}", left.max(0));
            }
        }
        for (c, key) in [(0, "w"), (1, "b")] {
            if clocks[c].left_ms.is_some() {
                s += &format!(" {key}inc {}", clocks[c].inc_ms);
            }
        }
        if let Some(n) = me.movestogo() {
            s += &format!(" movestogo {n}");
        }
    }
    if let Some(t) = me.limits.movetime_ms {
        s += &format!(" movetime {t}");
    }
    if let Some(n) = me.limits.nodes {
        s += &format!(" nodes {n}");
    }
    if let Some(d) = me.limits.depth {
        s += &format!(" depth {d}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::ita::{ARCMIN_MS, CLOCK_MODES, ItaTimeMode as ItaMode};

    /// An Ita clock mode as `tc=ita:<mode>` gives it.
    fn ita(m: ItaMode) -> Option<ClockSpec> {
        Some(ClockSpec::Modes { clock: &CLOCK_MODES, mode: m as usize })
    }

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn parses_time_controls() {
        assert_eq!(parse_tc("40+0.4").unwrap(), Some(ClockSpec::Fixed { moves: 0, base_ms: 40_000, inc_ms: 400 }));
        assert_eq!(parse_tc("40/60").unwrap(), Some(ClockSpec::Fixed { moves: 40, base_ms: 60_000, inc_ms: 0 }));
        assert_eq!(parse_tc("1:30+1").unwrap(), Some(ClockSpec::Fixed { moves: 0, base_ms: 90_000, inc_ms: 1000 }));
        assert_eq!(parse_tc("ita:easy").unwrap(), ita(ItaMode::Easy));
        assert_eq!(parse_tc("ita:peaceful").unwrap(), ita(ItaMode::Peaceful));
        let peaceful = Limits { clock: parse_tc("ita:peaceful").unwrap(), ..Limits::default() };
        assert!(!peaceful.has_clock());
        assert_eq!(
            peaceful.validate(),
            Err("no limit: give tc=, st=, nodes= or depth= (tc=ita:peaceful has no clock)".to_string())
        );
        assert_eq!(Clock::new(&peaceful, 0).allowed(), None);
        assert_eq!(parse_tc("inf").unwrap(), None);
        assert_eq!(
            parse_tc("ita:slow"),
            Err("unknown ItaTimeMode 'slow' (peaceful, easy, medium, hard, hardcore)".to_string())
        );
        assert_eq!(Limits { clock: parse_tc("ita:hard").unwrap(), ..Limits::default() }.describe(), "ita:hard");
        assert!(parse_tc("abc").is_err());
        assert!(parse_tc("0").is_err());
        let l = Limits {
            clock: parse_tc("40/60+0.25").unwrap(),
            movetime_ms: None,
            nodes: Some(100),
            depth: None,
            margin_ms: 0,
        };
        assert_eq!(l.describe(), "40/60+0.25 nodes=100");
    }

    #[test]
    fn ita_modes_match_the_rules() {
        // 1 degree = 42.12 s, 360 arc-minutes.
        assert_eq!(ARCMIN_MS, 117);
        let mmss = |ms: u64| {
            let s = (ms as f64 / 1000.0).round() as u64;
            format!("{}:{:02}", s / 60, s % 60)
        };
        let table = [
            (ItaMode::Easy, "52:39", "56:10"),
            (ItaMode::Medium, "21:04", "22:51"),
            (ItaMode::Hard, "7:22", "8:39"),
            (ItaMode::Hardcore, "3:31", "4:13"),
        ];
        for (m, w, b) in table {
            assert_eq!(mmss(m.start_ms(0).unwrap()), w, "{m:?} White");
            assert_eq!(mmss(m.start_ms(1).unwrap()), b, "{m:?} Black");
        }
        assert_eq!(ItaMode::Easy.start_ms(0), Some(3_159_000));
        assert_eq!(ItaMode::Medium.start_ms(1), Some(32 * 42_120 + 200 * 117));
        assert_eq!(ItaMode::Peaceful.start_ms(0), None);
    }

    #[test]
    fn ita_regeneration_every_sixth_own_move() {
        let l = Limits { clock: ita(ItaMode::Easy), ..Limits::default() };
        let mut c = Clock::new(&l, 0);
        let start = c.left_ms().unwrap();
        for i in 1..=6 {
            c.spend(ms(1000)).unwrap();
            let expect = start - 1000 * i + if i == 6 { 5 * 42_120 } else { 0 };
            assert_eq!(c.left_ms().unwrap(), expect, "after move {i}");
        }
        let l = Limits { clock: ita(ItaMode::Hard), ..Limits::default() };
        let mut c = Clock::new(&l, 1);
        let start = c.left_ms().unwrap();
        for _ in 0..9 {
            c.spend(ms(0)).unwrap();
        }
        assert_eq!(c.left_ms().unwrap(), start + 42_120);
        let l = Limits { clock: ita(ItaMode::Hardcore), ..Limits::default() };
        let mut c = Clock::new(&l, 1);
        for _ in 0..20 {
            c.spend(ms(0)).unwrap();
        }
        assert_eq!(c.left_ms().unwrap(), 6 * 42_120);
    }

    #[test]
    fn increment_periods_and_forfeits() {
        let l = Limits { clock: parse_tc("2/1+0.1").unwrap(), margin_ms: 50, ..Limits::default() };
        let mut c = Clock::new(&l, 0);
        assert_eq!(c.movestogo(), Some(2));
        assert_eq!(c.allowed(), Some(ms(1050)));
        c.spend(ms(400)).unwrap();
        assert_eq!(c.left_ms(), Some(700));
        assert_eq!(c.movestogo(), Some(1));
        c.spend(ms(600)).unwrap();
        // 100 left + 100 increment + a new period of 1000.
        assert_eq!(c.left_ms(), Some(1200));
        // Within the margin: allowed, the clock stays at zero plus increment.
        c.spend(ms(1240)).unwrap();
        assert_eq!(c.left_ms(), Some(100));
        assert_eq!(c.spend(ms(151)), Err(ms(150)));
    }

    #[test]
    fn move_time_and_go_commands() {
        let st = Limits { movetime_ms: Some(100), margin_ms: 10, ..Limits::default() };
        let mut c = Clock::new(&st, 0);
        assert_eq!(c.allowed(), Some(ms(110)));
        assert_eq!(c.spend(ms(111)), Err(ms(110)));
        let other = Clock::new(&st, 1);
        assert_eq!(go_command(&[c.clone(), other], 0), "go movetime 100");
        let tc = Limits { clock: parse_tc("10+0.1").unwrap(), ..Limits::default() };
        let clocks = [Clock::new(&tc, 0), Clock::new(&tc, 1)];
        assert_eq!(go_command(&clocks, 1), "go wtime 10000 btime 10000 winc 100 binc 100");
        let d = Limits { depth: Some(3), nodes: Some(1000), ..Limits::default() };
        let clocks = [Clock::new(&d, 0), Clock::new(&d, 1)];
        assert_eq!(go_command(&clocks, 0), "go nodes 1000 depth 3");
        assert_eq!(clocks[0].allowed(), None);
        let ita = Limits { clock: ita(ItaMode::Hardcore), ..Limits::default() };
        let clocks = [Clock::new(&ita, 0), Clock::new(&ita, 1)];
        assert_eq!(go_command(&clocks, 0), "go wtime 210600 btime 252720 winc 0 binc 0");
    }
}
