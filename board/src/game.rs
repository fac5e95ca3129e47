//! One game on the board: its referee, its engines, its clocks and its record.

use crate::engine::{EngineSlot, Event, Job};
use crate::referee::{Outcome, Referee, VariantInfo, Verdict};
use calvin_uci_client::json::Json;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Who plays a side: a person at the page, or configured engine number `n`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Player {
    Human,
    Engine(usize),
}

/// How the engines are limited (and, with `Clock`, the clocks of both sides).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Clock { base_ms: i64, inc_ms: i64 },
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

impl Limit {
    fn describe(&self) -> String {
        match self {
            Limit::Clock { base_ms, inc_ms } => format!("{}+{}", secs(*base_ms), secs(*inc_ms)),
            Limit::MoveTime(ms) => format!("{} per move", secs(*ms as i64)),
            Limit::Depth(d) => format!("depth {d}"),
            Limit::Nodes(n) => format!("{n} nodes"),
        }
    }
}

fn secs(ms: i64) -> String {
    if ms % 1000 == 0 { format!("{}s", ms / 1000) } else { format!("{:.1}s", ms as f64 / 1000.0) }
}

/// One principal variation as the engine reported it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PvLine {
    pub multipv: u32,
    pub depth: u32,
    pub seldepth: u32,
    pub score: String,
    pub nodes: u64,
    pub nps: u64,
    pub time: u64,
    pub pv: Vec<String>,
    /// `wdl W D L` (per mille, the side to move's) where the engine gives it.
    pub wdl: Option<[u32; 3]>,
}

/// `info depth .. multipv .. score cp|mate .. nodes .. nps .. pv ..`; lines
/// without a score and a pv (currmove, string) give `None`.
pub fn parse_info(line: &str) -> Option<PvLine> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let mut l = PvLine { multipv: 1, ..PvLine::default() };
    let mut i = 1;
    let mut has_score = false;
    while i < w.len() {
        let next = w.get(i + 1).copied().unwrap_or("");
        match w[i] {
            "depth" => l.depth = next.parse().ok()?,
            "seldepth" => l.seldepth = next.parse().ok()?,
            "multipv" => l.multipv = next.parse().ok()?,
            "nodes" => l.nodes = next.parse().ok()?,
            "nps" => l.nps = next.parse().ok()?,
            "time" => l.time = next.parse().ok()?,
            "wdl" => {
                let n = |k: usize| w.get(i + k).and_then(|v| v.parse::<u32>().ok());
                l.wdl = Some([n(1)?, n(2)?, n(3)?]);
                i += 4;
                continue;
            }
            "score" => {
                let v: i64 = w.get(i + 2)?.parse().ok()?;
                l.score = match next {
                    "cp" => format!("{:+.2}", v as f64 / 100.0),
                    "mate" => format!("#{v}"),
                    _ => return None,
                };
                has_score = true;
                i += 1;
                if matches!(w.get(i + 2), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
            }
            "pv" => {
                l.pv = w[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "string" | "currmove" => return None,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    (has_score && !l.pv.is_empty()).then_some(l)
}

/// Checks a FEN typed on the page before any engine sees it: printable
/// characters of FEN only, one line, a sane length.
pub fn check_fen_text(fen: &str) -> Result<String, String> {
    let fen = fen.split_whitespace().collect::<Vec<_>>().join(" ");
    if fen.is_empty() {
        return Err("empty FEN".into());
    }
    if fen.len() > 300 {
        return Err("FEN too long".into());
    }
    if let Some(c) = fen.chars().find(|c| !(c.is_ascii_alphanumeric() || "/+[]-, ~*".contains(*c))) {
        return Err(format!("character {c:?} cannot be in a FEN"));
    }
    Ok(fen)
}

const ANALYSER: usize = 2;

/// A game nobody has asked about for this long starts no more searches.
const IDLE: Duration = Duration::from_secs(120);

pub struct Game {
    pub id: u64,
    pub variant: VariantInfo,
    pub start_fen: String,
    pub moves: Vec<String>,
    verdict: Verdict,
    referee: Referee,
    pub players: [Player; 2],
    limit: Limit,
    /// Remaining time of White and Black, and since when the side to move's runs.
    clocks: [i64; 2],
    since: Instant,
    flagged: Option<Outcome>,
    /// Engines: White's player, Black's player, the analyser.
    slots: [Option<EngineSlot>; 3],
    engine_names: Vec<String>,
    /// Bumped on every change of position: answers for an older one are dropped.
    epoch: u64,
    /// Bumped on every change the page should see.
    pub ver: u64,
    pub analysis_on: bool,
    pub multipv: u32,
    lines: BTreeMap<u32, PvLine>,
    lines_from: Option<usize>,
    messages: Vec<String>,
    pub last_used: Instant,
    /// Searches not started because nobody was looking; resumed by `touch`.
    paused: bool,
    me: Weak<Mutex<Game>>,
    engine_cmds: Vec<Vec<String>>,
    /// The engines' `Skill Level` (-10..20); `None` is full strength, nothing sent.
    level: Option<i32>,
    /// The moves in SAN where the variant is written so ([`crate::san`]).
    sans: Vec<String>,
}

pub struct NewGame {
    pub variant: VariantInfo,
    pub fen: Option<String>,
    pub players: [Player; 2],
    pub limit: Limit,
    pub level: Option<i32>,
}

impl Game {
    /// A new game: the referee judges the start position (a bad FEN gives the
    /// referee's error line) and the engines of the players start.
    pub fn create(
        id: u64,
        new: NewGame,
        referee_cmd: &[String],
        engine_cmds: &[Vec<String>],
    ) -> Result<Arc<Mutex<Game>>, String> {
        let fen = match &new.fen {
            Some(f) => check_fen_text(f)?,
            None => new.variant.startpos.clone(),
        };
        let mut referee = Referee::start(referee_cmd)?;
        let verdict = referee.judge(&new.variant.name, &fen, &[]).map_err(|e| format!("referee: {e}"))?;
        let base = match new.limit {
            Limit::Clock { base_ms, .. } => base_ms,
            _ => 0,
        };
        let names = engine_cmds
            .iter()
            .map(|c| {
                let mut c = c.clone();
                if let Some(p) = c.first_mut() {
                    *p = p.rsplit('/').next().unwrap_or(p).to_string();
                }
                c.join(" ")
            })
            .collect();
        let game = Game {
            id,
            start_fen: verdict.fen.clone(),
            variant: new.variant,
            moves: Vec::new(),
            verdict,
            referee,
            players: new.players,
            limit: new.limit,
            clocks: [base, base],
            since: Instant::now(),
            flagged: None,
            slots: [None, None, None],
            engine_names: names,
            epoch: 0,
            ver: 0,
            analysis_on: false,
            multipv: 1,
            lines: BTreeMap::new(),
            lines_from: None,
            messages: Vec::new(),
            last_used: Instant::now(),
            paused: false,
            me: Weak::new(),
            engine_cmds: engine_cmds.to_vec(),
            level: new.level,
            sans: Vec::new(),
        };
        let arc = Arc::new(Mutex::new(game));
        {
            let mut g = arc.lock().unwrap_or_else(|e| e.into_inner());
            g.me = Arc::downgrade(&arc);
            for side in 0..2 {
                if let Player::Engine(n) = g.players[side] {
                    g.start_engine(side, n);
                }
            }
            g.after_change();
        }
        Ok(arc)
    }

    fn start_engine(&mut self, slot: usize, n: usize) {
        let me = self.me.clone();
        let cmd = self.engine_cmds[n].clone();
        let variant = self.variant.name.clone();
        let report = move |ev: Event| match me.upgrade() {
            Some(g) => {
                g.lock().unwrap_or_else(|e| e.into_inner()).on_event(slot, ev);
                true
            }
            None => false,
        };
        let s = EngineSlot::start(cmd, variant, report);
        if !s.alive {
            self.messages.push(format!("{}: {}", s.name, s.status));
        }
        self.slots[slot] = Some(s);
    }

    pub fn white_to_move(&self) -> bool {
        self.verdict.fen.split_whitespace().nth(1) != Some("b")
    }

    fn side(&self) -> usize {
        if self.white_to_move() { 0 } else { 1 }
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.flagged.as_ref().or(self.verdict.outcome.as_ref())
    }

    fn clock_runs(&self) -> bool {
        matches!(self.limit, Limit::Clock { .. }) && self.outcome().is_none()
    }

    /// Remaining times now.
    fn clocks_now(&self) -> [i64; 2] {
        let mut c = self.clocks;
        if self.clock_runs() {
            c[self.side()] -= self.since.elapsed().as_millis() as i64;
        }
        c
    }

    /// Ends the game when the side to move has run out of time.
    pub fn tick(&mut self) {
        if !self.clock_runs() {
            return;
        }
        let side = self.side();
        if self.clocks_now()[side] <= 0 {
            self.clocks = self.clocks_now();
            self.clocks[side] = 0;
            // The variant's result for a loss on time, as the referee gave it.
            let plain =
                Outcome { result: if side == 0 { "0-1" } else { "1-0" }.into(), score: None, reason: "time".into() };
            self.flagged = Some(self.verdict.forfeit.clone().unwrap_or(plain));
            self.stop_all();
            self.ver += 1;
        }
    }

    fn stop_all(&mut self) {
        for s in self.slots.iter().flatten() {
            if s.pending > 0 {
                s.stop();
            }
        }
    }

    /// Plays `mv` if the referee lists it; the error text is for the page.
    pub fn play(&mut self, mv: &str, by_engine: bool) -> Result<(), String> {
        self.tick();
        if let Some(o) = self.outcome() {
            return Err(format!("the game is over ({} {})", o.result, o.reason));
        }
        if !by_engine && self.players[self.side()] != Player::Human {
            return Err("it is the engine's turn".into());
        }
        if !self.verdict.legal.iter().any(|m| m == mv) {
            return Err(format!("illegal move '{}'", mv.chars().take(20).collect::<String>()));
        }
        let mut moves = self.moves.clone();
        moves.push(mv.to_string());
        let verdict = self.referee.judge(&self.variant.name, &self.start_fen, &moves)?;
        if crate::san::uses_san(&self.variant) {
            let mate = verdict.outcome.as_ref().is_some_and(|o| o.reason == "checkmate");
            let check = mate || self.referee.in_check(&self.variant.name, &verdict.fen);
            self.sans.truncate(self.moves.len());
            self.sans.push(crate::san::san(&self.verdict.fen, &self.verdict.legal, mv, check, mate));
        }
        if let Limit::Clock { inc_ms, .. } = self.limit {
            let side = self.side();
            self.clocks = self.clocks_now();
            self.clocks[side] += inc_ms;
        }
        self.since = Instant::now();
        self.moves = moves;
        self.verdict = verdict;
        self.after_change();
        Ok(())
    }

    /// Takes back one ply, or two when that gives the move back to a person.
    pub fn undo(&mut self) -> Result<(), String> {
        if self.moves.is_empty() {
            return Err("no move to take back".into());
        }
        let mut moves = self.moves.clone();
        moves.pop();
        let mut verdict = self.referee.judge(&self.variant.name, &self.start_fen, &moves)?;
        let mover = |v: &Verdict| if v.fen.split_whitespace().nth(1) == Some("b") { 1 } else { 0 };
        if !moves.is_empty() && self.players[mover(&verdict)] != Player::Human && self.players.contains(&Player::Human)
        {
            moves.pop();
            verdict = self.referee.judge(&self.variant.name, &self.start_fen, &moves)?;
        }
        self.clocks = self.clocks_now();
        self.since = Instant::now();
        self.flagged = None;
        self.sans.truncate(moves.len());
        self.moves = moves;
        self.verdict = verdict;
        self.after_change();
        Ok(())
    }

    /// The page has asked: the game is in use, paused searches go on.
    pub fn touch(&mut self) {
        self.last_used = Instant::now();
        if self.paused {
            self.paused = false;
            self.after_change();
        }
    }

    /// Analysis on or off (with `multipv` lines); off stops the analyser at once.
    pub fn analyse(&mut self, on: bool, multipv: u32) -> Result<(), String> {
        if on && self.players != [Player::Human, Player::Human] {
            return Err("analysis is for games without an engine player".into());
        }
        if on && self.engine_cmds.is_empty() {
            return Err("no engine configured".into());
        }
        self.analysis_on = on;
        self.multipv = multipv.clamp(1, 8);
        self.epoch += 1;
        self.lines.clear();
        if let Some(s) = &self.slots[ANALYSER] {
            s.stop();
        }
        if on && self.slots[ANALYSER].as_ref().is_none_or(|s| !s.alive) {
            self.start_engine(ANALYSER, 0);
        }
        self.after_change();
        Ok(())
    }

    /// Asks the engine to move now.
    pub fn move_now(&mut self) {
        if let Some(s) = &self.slots[self.side()] {
            s.stop();
        }
    }

    /// A new position: answers for the old one are dropped, engines told.
    fn after_change(&mut self) {
        self.epoch += 1;
        self.ver += 1;
        self.lines.clear();
        self.lines_from = None;
        self.stop_all();
        if self.outcome().is_some() {
            return;
        }
        let setup = setup_position(&self.start_fen, &self.moves);
        let side = self.side();
        // Nobody has looked for a while (the page was closed): engines rest.
        if self.last_used.elapsed() > IDLE {
            if self.analysis_on || self.players[side] != Player::Human {
                self.paused = true;
            }
            return;
        }
        if self.players[side] != Player::Human {
            let go = match self.limit {
                Limit::Clock { inc_ms, .. } => {
                    let c = self.clocks_now();
                    format!("go wtime {} btime {} winc {inc_ms} binc {inc_ms}", c[0].max(0), c[1].max(0))
                }
                Limit::MoveTime(ms) => format!("go movetime {ms}"),
                Limit::Depth(d) => format!("go depth {d}"),
                Limit::Nodes(n) => format!("go nodes {n}"),
            };
            let deadline = match self.limit {
                Limit::Clock { .. } => {
                    Some(Instant::now() + Duration::from_millis(self.clocks_now()[side].max(0) as u64 + 2000))
                }
                Limit::MoveTime(ms) => Some(Instant::now() + Duration::from_millis(ms + 2000)),
                _ => None,
            };
            let epoch = self.epoch;
            let setup =
                self.level.map(|l| format!("setoption name Skill Level value {l}")).into_iter().chain(setup).collect();
            if let Some(s) = self.slots[side].as_mut().filter(|s| s.alive && s.status != "starting") {
                s.submit(Job { epoch, setup, go, deadline });
                s.status = "thinking".into();
            }
        } else if self.analysis_on {
            let epoch = self.epoch;
            let mut setup = vec![
                format!("setoption name MultiPV value {}", self.multipv),
                "setoption name UCI_ShowWDL value true".to_string(),
            ];
            setup.extend(setup_position(&self.start_fen, &self.moves));
            if let Some(s) = self.slots[ANALYSER].as_mut().filter(|s| s.alive && s.status != "starting") {
                s.submit(Job { epoch, setup, go: "go infinite".into(), deadline: None });
                s.status = "analysing".into();
            }
        }
    }

    fn on_event(&mut self, slot: usize, ev: Event) {
        self.ver += 1;
        match ev {
            Event::Ready(name) => {
                if let Some(s) = self.slots[slot].as_mut() {
                    s.status = "ready".into();
                    if let Some(n) = name.filter(|n| !n.is_empty()) {
                        s.name = n;
                    }
                }
                if slot == ANALYSER || slot == self.side() {
                    self.after_change();
                }
            }
            Event::Info { epoch, line } => {
                if epoch == self.epoch
                    && let Some(l) = parse_info(&line)
                {
                    if self.lines_from != Some(slot) {
                        self.lines.clear();
                        self.lines_from = Some(slot);
                    }
                    self.lines.retain(|k, _| *k <= self.multipv.max(1) || slot != ANALYSER);
                    self.lines.insert(l.multipv, l);
                }
            }
            Event::BestMove { epoch, mv } => {
                if let Some(s) = self.slots[slot].as_mut() {
                    s.pending = s.pending.saturating_sub(1);
                    if s.pending == 0 {
                        s.status = "ready".into();
                    }
                }
                if epoch != self.epoch || slot == ANALYSER || slot != self.side() {
                    return;
                }
                if let Err(e) = self.play(&mv, true) {
                    let name = self.slots[slot].as_ref().map(|s| s.name.clone()).unwrap_or_default();
                    self.messages.push(format!("{name} answered bestmove {mv}: {e}; a person plays this side now"));
                    self.players[slot] = Player::Human;
                }
            }
            Event::Died(why) => {
                if let Some(s) = self.slots[slot].as_mut() {
                    self.messages.push(format!("engine {} stopped: {why}; the game stays", s.name));
                    s.died(&why);
                }
                if slot < 2 {
                    self.players[slot] = Player::Human;
                } else {
                    self.analysis_on = false;
                }
            }
        }
    }

    /// Stops whatever runs (the page closed the game).
    pub fn close(&mut self) {
        self.stop_all();
        self.slots = [None, None, None];
    }

    /// The game as PGN, moves in the engine's notation, with the Variant tag.
    pub fn pgn(&self) -> String {
        let result = self.outcome().map_or("*".to_string(), |o| o.result.clone());
        let name = |side: usize| match self.players[side] {
            Player::Human => "Human".to_string(),
            Player::Engine(n) => match &self.slots[side] {
                Some(s) => s.name.clone(),
                None => self.engine_names.get(n).cloned().unwrap_or_default(),
            },
        };
        let mut s = String::new();
        let mut tag =
            |k: &str, v: &str| s.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
        tag("Event", "calvin-board game");
        tag("Site", "calvin-board");
        tag("Round", "-");
        tag("White", &name(0));
        tag("Black", &name(1));
        tag("Result", &result);
        tag("Variant", &self.variant.name);
        if self.start_fen != self.variant.startpos {
            tag("SetUp", "1");
            tag("FEN", &self.start_fen);
        }
        tag("TimeControl", &self.limit.describe());
        s.push('\n');
        let black_first = self.start_fen.split_whitespace().nth(1) == Some("b");
        let mut number: u32 = self.start_fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
        let mut body = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            let white = (i % 2 == 0) != black_first;
            if white {
                body.push(format!("{number}."));
            } else if i == 0 {
                body.push(format!("{number}..."));
            }
            body.push(self.sans.get(i).filter(|_| self.sans.len() == self.moves.len()).unwrap_or(m).clone());
            if !white {
                number += 1;
            }
        }
        if let Some(o) = self.outcome() {
            body.push(format!("{{{}{}}}", o.reason, o.score.as_ref().map_or(String::new(), |sc| format!(" {sc}"))));
        }
        body.push(result);
        s.push_str(&body.join(" "));
        s.push('\n');
        s
    }

    /// Everything the page shows, as JSON.
    pub fn state(&self) -> Json {
        let clocks = self.clocks_now();
        let players = (0..2)
            .map(|i| {
                let slot = self.slots[i].as_ref();
                Json::obj(vec![
                    ("kind", Json::str(if self.players[i] == Player::Human { "human" } else { "engine" })),
                    ("name", Json::str(slot.map_or("Human".to_string(), |s| s.name.clone()))),
                    ("status", Json::str(slot.map_or(String::new(), |s| s.status.clone()))),
                ])
            })
            .collect();
        let lines = self
            .lines
            .values()
            .map(|l| {
                Json::obj(vec![
                    ("multipv", Json::num(l.multipv as i64)),
                    ("depth", Json::num(l.depth as i64)),
                    ("seldepth", Json::num(l.seldepth as i64)),
                    ("score", Json::str(&l.score)),
                    ("nodes", Json::num(l.nodes as i64)),
                    ("nps", Json::num(l.nps as i64)),
                    ("time", Json::num(l.time as i64)),
                    ("pv", Json::strs(&l.pv)),
                    ("wdl", l.wdl.map_or(Json::Null, |w| Json::Arr(w.iter().map(|&x| Json::num(x as i64)).collect()))),
                ])
            })
            .collect();
        let outcome = self.outcome().map_or(Json::Null, |o| {
            Json::obj(vec![
                ("result", Json::str(&o.result)),
                ("score", Json::opt(o.score.clone())),
                ("reason", Json::str(&o.reason)),
            ])
        });
        let v = &self.variant;
        Json::obj(vec![
            ("id", Json::num(self.id as i64)),
            ("ver", Json::num(self.ver as i64)),
            (
                "variant",
                Json::obj(vec![
                    ("name", Json::str(&v.name)),
                    ("files", Json::num(v.files as i64)),
                    ("ranks", Json::num(v.ranks as i64)),
                    ("pocket", Json::num(v.pocket as i64)),
                    ("template", Json::str(&v.template)),
                    ("startpos", Json::str(&v.startpos)),
                ]),
            ),
            ("startfen", Json::str(&self.start_fen)),
            ("fen", Json::str(&self.verdict.fen)),
            ("moves", Json::strs(&self.moves)),
            ("san", Json::strs(if self.sans.len() == self.moves.len() { &self.sans[..] } else { &[] })),
            ("level", self.level.map_or(Json::Null, |l| Json::num(l as i64))),
            ("legal", Json::strs(&self.verdict.legal)),
            ("other_legal", Json::strs(&self.verdict.other)),
            ("turn", Json::str(if self.white_to_move() { "w" } else { "b" })),
            ("result", outcome),
            ("players", Json::Arr(players)),
            ("limit", Json::str(self.limit.describe())),
            (
                "clocks",
                if matches!(self.limit, Limit::Clock { .. }) {
                    Json::obj(vec![
                        ("white", Json::num(clocks[0].max(0))),
                        ("black", Json::num(clocks[1].max(0))),
                        ("running", Json::Bool(self.clock_runs())),
                    ])
                } else {
                    Json::Null
                },
            ),
            ("analysis", Json::Bool(self.analysis_on)),
            ("multipv", Json::num(self.multipv as i64)),
            (
                "analyser",
                Json::str(self.slots[ANALYSER].as_ref().map_or(String::new(), |s| format!("{} {}", s.name, s.status))),
            ),
            ("lines", Json::Arr(lines)),
            ("messages", Json::strs(&self.messages[self.messages.len().saturating_sub(5)..])),
            ("pgn", Json::str(self.pgn())),
        ])
    }
}

fn setup_position(start: &str, moves: &[String]) -> Vec<String> {
    vec![format!("position fen {start}{}{}", if moves.is_empty() { "" } else { " moves " }, moves.join(" "))]
}

impl Drop for Game {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_info_lines() {
        let l = parse_info(
            "info depth 5 seldepth 7 multipv 2 score cp -23 nodes 1234 nps 50000 hashfull 3 time 12 pv e2e4 e7e5",
        )
        .unwrap();
        assert_eq!(
            l,
            PvLine {
                multipv: 2,
                depth: 5,
                seldepth: 7,
                score: "-0.23".into(),
                nodes: 1234,
                nps: 50000,
                time: 12,
                pv: vec!["e2e4".into(), "e7e5".into()],
                wdl: None,
            }
        );
        let m = parse_info("info depth 9 score mate -3 lowerbound nodes 5 pv a13a14").unwrap();
        assert_eq!((m.score.as_str(), m.multipv, m.nodes), ("#-3", 1, 5));
        let w = parse_info("info depth 7 seldepth 9 multipv 1 score cp 35 wdl 120 800 80 nodes 99 pv e2e4").unwrap();
        assert_eq!((w.score.as_str(), w.wdl, w.nodes, w.pv.len()), ("+0.35", Some([120, 800, 80]), 99, 1));
        assert_eq!(parse_info("info depth 7 score cp 35 wdl 120 x 80 pv e2e4"), None);
        assert_eq!(parse_info("info string variant chess"), None);
        assert_eq!(parse_info("info depth 3 currmove e2e4 currmovenumber 1"), None);
        assert_eq!(parse_info("info depth x score cp 1 pv e2e4"), None);
    }

    #[test]
    fn fen_text_is_checked_before_any_engine_sees_it() {
        assert_eq!(check_fen_text("  8/8/8/8/8/8/8/K6k   w - -  0 1 ").unwrap(), "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(check_fen_text("8/8 w\nquit").unwrap(), "8/8 w quit");
        assert_eq!(check_fen_text("8/8;rm").unwrap_err(), "character ';' cannot be in a FEN");
        assert_eq!(check_fen_text("   ").unwrap_err(), "empty FEN");
        assert_eq!(check_fen_text(&"1".repeat(301)).unwrap_err(), "FEN too long");
    }
}
