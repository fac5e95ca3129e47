//! The match's results in a machine-readable form (`calvin-match
//! --results FILE`) and `calvin-match merge FILE...`, which adds up the
//! files of the shards of one match (`--shard I/N`) and prints the report a
//! single run prints. The format is JSON lines, specified in
//! `protocol/match-runner.md`: a header (engines, settings, shard), then
//! one line per finished opening pair, appended as the pair finishes.

use super::Summary;
use super::config::MatchConfig;
use super::record::{Forfeit, GameRecord};
use super::referee::Player;
use super::shard::Shard;
use super::stats::{Sprt, SprtVerdict};
use crate::registry::RuleOption;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The `format` of a results file's header.
pub const FORMAT: &str = "calvin-match results";
pub const VERSION: u64 = 1;

/// A JSON value (enough of JSON for these files: numbers keep their text).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn str(s: &str) -> Json {
        Json::Str(s.to_string())
    }
    pub fn num(x: impl std::fmt::Display) -> Json {
        Json::Num(x.to_string())
    }
    /// A float as JSON (`null` for a value JSON cannot hold).
    pub fn float(x: f64) -> Json {
        if x.is_finite() { Json::num(x) } else { Json::Null }
    }
    pub fn obj(pairs: Vec<(&str, Json)>) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_arr(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// The value on one line, keys in their order.
    pub fn write(&self) -> String {
        let mut s = String::new();
        self.write_to(&mut s);
        s
    }
    fn write_to(&self, s: &mut String) {
        match self {
            Json::Null => s.push_str("null"),
            Json::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => s.push_str(n),
            Json::Str(t) => quote(t, s),
            Json::Arr(a) => {
                s.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    v.write_to(s);
                }
                s.push(']');
            }
            Json::Obj(m) => {
                s.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    quote(k, s);
                    s.push(':');
                    v.write_to(s);
                }
                s.push('}');
            }
        }
    }

    /// Reads one JSON value (the whole of `text` but white space).
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser { b: text.as_bytes(), at: 0 };
        let v = p.value(0)?;
        p.space();
        if p.at != p.b.len() {
            return Err(format!("unexpected text at column {}", p.at + 1));
        }
        Ok(v)
    }
}

fn quote(t: &str, s: &mut String) {
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
}

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.b.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at column {}", self.at + 1))
    }
    fn eat(&mut self, c: u8) -> bool {
        self.space();
        if self.b.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 32 {
            return self.err("nested too deep");
        }
        self.space();
        let Some(&c) = self.b.get(self.at) else { return self.err("unexpected end") };
        match c {
            b'{' => {
                self.at += 1;
                let mut m = Vec::new();
                if self.eat(b'}') {
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.space();
                    let k = self.string()?;
                    if !self.eat(b':') {
                        return self.err("':' expected");
                    }
                    m.push((k, self.value(depth + 1)?));
                    if self.eat(b'}') {
                        return Ok(Json::Obj(m));
                    }
                    if !self.eat(b',') {
                        return self.err("',' or '}' expected");
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut a = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Arr(a));
                }
                loop {
                    a.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Json::Arr(a));
                    }
                    if !self.eat(b',') {
                        return self.err("',' or ']' expected");
                    }
                }
            }
            b'"' => self.string().map(Json::Str),
            b't' | b'f' | b'n' => {
                for (word, v) in [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null)] {
                    if self.b[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(v);
                    }
                }
                self.err("unknown word")
            }
            b'-' | b'0'..=b'9' => {
                let start = self.at;
                while self.b.get(self.at).is_some_and(|c| c.is_ascii_digit() || b"+-.eE".contains(c)) {
                    self.at += 1;
                }
                let n = String::from_utf8_lossy(&self.b[start..self.at]).into_owned();
                if n.parse::<f64>().is_err() {
                    return self.err("bad number");
                }
                Ok(Json::Num(n))
            }
            _ => self.err("unexpected character"),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        if self.b.get(self.at) != Some(&b'"') {
            return self.err("string expected");
        }
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.b.get(self.at) else { return self.err("unterminated string") };
            self.at += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| "a string is not UTF-8".to_string()),
                b'\\' => {
                    let Some(&e) = self.b.get(self.at) else { return self.err("unterminated string") };
                    self.at += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hex = self.b.get(self.at..self.at + 4).and_then(|h| std::str::from_utf8(h).ok());
                            let Some(code) = hex.and_then(|h| u32::from_str_radix(h, 16).ok()) else {
                                return self.err("bad \\u escape");
                            };
                            self.at += 4;
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return self.err("bad escape"),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
    }
}

/// One game's result as the results file keeps it, from the first engine's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// 1-based game number (the PGN `Round`).
    pub game: u32,
    /// Whether the first engine had White.
    pub a_white: bool,
    /// 2 the first engine won, 1 a draw, 0 it lost.
    pub a_half_points: u8,
    /// Score points (Ita): the first engine's, the second's.
    pub points: Option<[i64; 2]>,
    /// Who forfeited (0 the first engine, 1 the second) and how.
    pub forfeit: Option<(usize, Forfeit)>,
}

impl GameResult {
    /// The result of a finished game; `a_color` is the first engine's colour.
    pub fn of(rec: &GameRecord, a_color: usize) -> GameResult {
        GameResult {
            game: rec.number,
            a_white: a_color == 0,
            a_half_points: match rec.outcome.winner {
                Some(c) if c == a_color => 2,
                Some(_) => 0,
                None => 1,
            },
            points: rec.outcome.scores.map(|s| [i64::from(s[a_color]), i64::from(s[a_color ^ 1])]),
            forfeit: rec.forfeit.map(|(loser, how)| (usize::from(loser != a_color), how)),
        }
    }

    fn json(&self) -> Json {
        Json::obj(vec![
            ("game", Json::num(self.game)),
            ("a_white", Json::Bool(self.a_white)),
            ("a", Json::str(["L", "D", "W"][self.a_half_points.min(2) as usize])),
            ("points", self.points.map_or(Json::Null, |p| Json::Arr(vec![Json::num(p[0]), Json::num(p[1])]))),
            (
                "forfeit",
                self.forfeit.map_or(Json::Null, |(who, how)| {
                    Json::obj(vec![("engine", Json::num(who + 1)), ("how", Json::str(how.label()))])
                }),
            ),
        ])
    }

    fn from_json(v: &Json) -> Option<GameResult> {
        let a_half_points = match v.get("a")?.as_str()? {
            "W" => 2,
            "D" => 1,
            "L" => 0,
            _ => return None,
        };
        let points = match v.get("points")? {
            Json::Null => None,
            Json::Arr(p) if p.len() == 2 => Some([p[0].as_f64()? as i64, p[1].as_f64()? as i64]),
            _ => return None,
        };
        let forfeit = match v.get("forfeit")? {
            Json::Null => None,
            f => {
                let who = f.get("engine")?.as_u64()?;
                let label = f.get("how")?.as_str()?;
                let how = Forfeit::ALL.into_iter().find(|k| k.label() == label)?;
                Some((usize::from(who == 2), how))
            }
        };
        let a_white = match v.get("a_white")? {
            Json::Bool(b) => *b,
            _ => return None,
        };
        Some(GameResult { game: v.get("game")?.as_u64()? as u32, a_white, a_half_points, points, forfeit })
    }
}

/// The games of pair `pair` (0-based): game numbers `2 pair + 1` and
/// `2 pair + 2` (the last pair of an odd number of games has one).
pub fn pair_line(pair: u32, games: &[GameResult]) -> String {
    let penta = match games {
        [a, b] => Json::num(a.a_half_points + b.a_half_points),
        _ => Json::Null,
    };
    Json::obj(vec![
        ("pair", Json::num(pair)),
        ("games", Json::Arr(games.iter().map(GameResult::json).collect())),
        ("penta", penta),
    ])
    .write()
}

/// An FNV-1a hash of a file's bytes (the openings: shards on other
/// machines may read them from another path).
fn fnv64(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn sprt_json(s: &Option<Sprt>) -> Json {
    match s {
        Some(s) => Json::obj(vec![
            ("elo0", Json::float(s.elo0)),
            ("elo1", Json::float(s.elo1)),
            ("alpha", Json::float(s.alpha)),
            ("beta", Json::float(s.beta)),
        ]),
        None => Json::Null,
    }
}

/// An engine's command compared between shards: the program's file name
/// and its arguments (the driver of a cluster may ship the binary to a
/// different directory on each machine).
fn program(cmd: &str) -> String {
    match super::engine::split_command(cmd) {
        Ok(words) if !words.is_empty() => {
            let prog = Path::new(&words[0]).file_name().map(|f| f.to_string_lossy().into_owned());
            std::iter::once(prog.unwrap_or_else(|| words[0].clone()))
                .chain(words[1..].iter().cloned())
                .collect::<Vec<_>>()
                .join(" ")
        }
        _ => cmd.to_string(),
    }
}

/// The header line of a match's results file: `settings` are what must
/// agree between shards of one match (what decides the games and the
/// report), `commands` are for information only.
pub fn header_line(
    cfg: &MatchConfig,
    players: &[Player; 2],
    seed: u64,
    shard: Option<Shard>,
) -> Result<String, String> {
    let openings = match &cfg.openings {
        Some(p) => {
            let bytes = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            Json::str(&fnv64(&bytes))
        }
        None => Json::Null,
    };
    let rules: Vec<String> = RuleOption::all()
        .filter(|o| o.value(&cfg.rules) != o.value(&Default::default()))
        .map(|o| format!("{}={}", o.name(), o.value(&cfg.rules)))
        .collect();
    let engine = |p: &Player| {
        let options = p.cmd.options.iter().map(|(n, v)| Json::Arr(vec![Json::str(n), Json::str(v)])).collect();
        Json::obj(vec![
            ("name", Json::str(&p.name)),
            ("program", Json::str(&program(&p.cmd.cmd))),
            ("variant", Json::str(&p.cmd.variant)),
            ("options", Json::Arr(options)),
            ("limits", Json::str(&format!("{} timemargin={}", p.limits.describe(), p.limits.margin_ms))),
        ])
    };
    let settings = Json::obj(vec![
        ("variant", Json::str(&cfg.variant)),
        ("rules", Json::str(&rules.join(" "))),
        ("games", Json::num(cfg.games)),
        ("seed", Json::num(seed)),
        ("openings", openings),
        ("openings_order", Json::str(if cfg.random_order { "random" } else { "sequential" })),
        ("random_plies", Json::num(cfg.random_plies)),
        ("max_plies", cfg.max_plies.map_or(Json::Null, Json::num)),
        ("sprt", sprt_json(&cfg.sprt)),
        ("engines", Json::Arr(players.iter().map(engine).collect())),
    ]);
    let commands = players
        .iter()
        .map(|p| {
            Json::obj(vec![("cmd", Json::str(&p.cmd.cmd)), ("dir", p.cmd.dir.as_deref().map_or(Json::Null, Json::str))])
        })
        .collect();
    Ok(Json::obj(vec![
        ("format", Json::str(FORMAT)),
        ("version", Json::num(VERSION)),
        ("shard", shard.map_or(Json::Null, |s| Json::str(&s.to_string()))),
        ("settings", settings),
        ("commands", Json::Arr(commands)),
    ])
    .write())
}

/// The results file being written: a line per finished pair, each in one
/// write, flushed (a killed run loses only the pairs not finished).
pub struct ResultsWriter {
    file: std::fs::File,
    /// Games of pairs not finished yet, by pair.
    pending: BTreeMap<u32, Vec<GameResult>>,
    total: u32,
}

impl ResultsWriter {
    /// Creates (or empties) `path` and writes the header.
    pub fn create(path: &Path, header: &str, total: u32) -> Result<ResultsWriter, String> {
        let mut file = std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        file.write_all(format!("{header}\n").as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(ResultsWriter { file, pending: BTreeMap::new(), total })
    }

    /// Adds a finished game; writes its pair's line once the pair is complete.
    pub fn add(&mut self, g: GameResult) -> std::io::Result<()> {
        let pair = (g.game - 1) / 2;
        let size = if 2 * pair + 2 <= self.total { 2 } else { 1 };
        let games = self.pending.entry(pair).or_default();
        games.push(g);
        if games.len() < size {
            return Ok(());
        }
        let mut games = self.pending.remove(&pair).unwrap_or_default();
        games.sort_by_key(|g| g.game);
        self.write_pair(pair, &games)
    }

    /// Writes the pairs of which one game was played (a match the SPRT stopped).
    pub fn finish(&mut self) -> std::io::Result<()> {
        for (pair, games) in std::mem::take(&mut self.pending) {
            self.write_pair(pair, &games)?;
        }
        Ok(())
    }

    fn write_pair(&mut self, pair: u32, games: &[GameResult]) -> std::io::Result<()> {
        self.file.write_all(format!("{}\n", pair_line(pair, games)).as_bytes())?;
        self.file.flush()
    }
}

/// A results file read back.
struct ResultsFile {
    name: String,
    shard: Option<Shard>,
    settings: Json,
    pairs: Vec<(u32, Vec<GameResult>)>,
}

fn read_results(path: &str) -> Result<ResultsFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut lines = text.split_inclusive('\n');
    let not_ours = || format!("{path} is not a calvin-match results file");
    let head = Json::parse(lines.next().ok_or_else(not_ours)?).map_err(|_| not_ours())?;
    if head.get("format").and_then(Json::as_str) != Some(FORMAT) {
        return Err(not_ours());
    }
    match head.get("version").and_then(Json::as_u64) {
        Some(VERSION) => {}
        v => return Err(format!("{path}: results format version {v:?}, this build reads {VERSION}")),
    }
    let shard = match head.get("shard") {
        Some(Json::Str(s)) => Some(Shard::parse(s).map_err(|e| format!("{path}: {e}"))?),
        _ => None,
    };
    let settings = head.get("settings").cloned().ok_or_else(not_ours)?;
    let mut pairs = Vec::new();
    for (i, line) in lines.enumerate() {
        if !line.ends_with('\n') {
            // A line cut off while written (a run killed): the pair is not there.
            eprintln!("calvin-match: {path}: left out a line cut off at its end");
            break;
        }
        let bad = |why: String| format!("{path} line {}: {why}", i + 2);
        let v = Json::parse(line).map_err(bad)?;
        let pair = v.get("pair").and_then(Json::as_u64).ok_or_else(|| bad("no pair number".into()))? as u32;
        let games: Option<Vec<GameResult>> =
            v.get("games").and_then(Json::as_arr).and_then(|a| a.iter().map(GameResult::from_json).collect());
        let games = games.ok_or_else(|| bad("bad games".into()))?;
        pairs.push((pair, games));
    }
    Ok(ResultsFile { name: path.to_string(), shard, settings, pairs })
}

/// What merged results came to (the last, machine-readable line of `merge`).
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub summary: Summary,
    pub total: u32,
    pub pairs: usize,
    pub penta: [u64; 5],
    pub sprt: Option<Sprt>,
    pub shards: Vec<u32>,
    pub of: u32,
}

impl Merged {
    /// The report a single run prints at its end.
    pub fn report(&self) -> String {
        self.summary.report(self.sprt.as_ref(), self.total)
    }
    /// One JSON line with the totals and the SPRT's decision.
    pub fn json_line(&self) -> String {
        let w = &self.summary.wdl;
        let verdict = match self.summary.verdict {
            Some(SprtVerdict::H1) => Json::str("H1"),
            Some(SprtVerdict::H0) => Json::str("H0"),
            None => Json::Null,
        };
        Json::obj(vec![
            ("games", Json::num(w.games())),
            ("total", Json::num(self.total)),
            ("pairs", Json::num(self.pairs)),
            ("wdl", Json::Arr(vec![Json::num(w.wins), Json::num(w.draws), Json::num(w.losses)])),
            ("penta", Json::Arr(self.penta.iter().map(|&n| Json::num(n)).collect())),
            ("llr", self.summary.llr.filter(|x| x.is_finite()).map_or(Json::Null, |x| Json::Num(super::fixed(x, 6)))),
            ("verdict", verdict),
            ("shards", Json::Arr(self.shards.iter().map(|&s| Json::num(s)).collect())),
            ("of", Json::num(self.of)),
        ])
        .write()
    }
}

/// Adds up results files of one match (its shards, or one run's file).
/// Files whose settings differ, of different shard counts, or that hold
/// the same pair are refused.
pub fn merge(paths: &[String]) -> Result<Merged, String> {
    if paths.is_empty() {
        return Err("merge needs at least one results file".into());
    }
    let files = paths.iter().map(|p| read_results(p)).collect::<Result<Vec<_>, _>>()?;
    let first = &files[0];
    let of = |f: &ResultsFile| f.shard.map_or(1, |s| s.count);
    for f in &files[1..] {
        if f.settings != first.settings {
            let keys = match (&first.settings, &f.settings) {
                (Json::Obj(a), Json::Obj(b)) => {
                    let diff: Vec<String> = a
                        .iter()
                        .filter(|(k, v)| f.settings.get(k) != Some(v))
                        .map(|(k, v)| {
                            format!("{k} {} / {}", v.write(), f.settings.get(k).map_or("-".into(), Json::write))
                        })
                        .chain(b.iter().filter(|(k, _)| first.settings.get(k).is_none()).map(|(k, _)| k.clone()))
                        .collect();
                    diff.join(", ")
                }
                _ => String::new(),
            };
            return Err(format!(
                "{} and {} are not of one match: their engines or settings differ ({keys})",
                first.name, f.name
            ));
        }
        if of(f) != of(first) {
            return Err(format!(
                "{} and {} are shards of different splits ({} / {})",
                first.name,
                f.name,
                of(first),
                of(f)
            ));
        }
    }
    let s = &first.settings;
    let bad = |what: &str| format!("{}: settings without {what}", first.name);
    let total = s.get("games").and_then(Json::as_u64).ok_or_else(|| bad("games"))? as u32;
    let sprt = match s.get("sprt") {
        Some(Json::Null) | None => None,
        Some(v) => {
            let x = |k: &str| v.get(k).and_then(Json::as_f64).ok_or_else(|| bad("sprt bounds"));
            Some(Sprt { elo0: x("elo0")?, elo1: x("elo1")?, alpha: x("alpha")?, beta: x("beta")? })
        }
    };
    let names: Vec<String> = s
        .get("engines")
        .and_then(Json::as_arr)
        .map(|e| e.iter().filter_map(|x| x.get("name").and_then(Json::as_str).map(String::from)).collect())
        .unwrap_or_default();
    let [a, b] = names.as_slice() else { return Err(bad("engine names")) };
    let mut summary = Summary { names: [a.clone(), b.clone()], ..Summary::default() };
    summary.seed = s.get("seed").and_then(Json::as_u64).unwrap_or(0);
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    let mut penta = [0u64; 5];
    for f in &files {
        for (pair, games) in &f.pairs {
            if 2 * u64::from(*pair) >= u64::from(total) {
                return Err(format!("{}: pair {pair} is past the match's {total} games", f.name));
            }
            if let Some(other) = seen.insert(*pair, &f.name) {
                return Err(format!(
                    "pair {pair} (games {} and {}) is in both {other} and {}",
                    2 * pair + 1,
                    2 * pair + 2,
                    f.name
                ));
            }
            for g in games {
                summary.add_result(g);
            }
            if let [x, y] = games.as_slice() {
                penta[usize::from((x.a_half_points + y.a_half_points).min(4))] += 1;
            }
        }
    }
    if let Some(sp) = &sprt
        && summary.wdl.games() > 0
    {
        let llr = sp.llr(&summary.wdl);
        summary.llr = Some(llr);
        summary.verdict = sp.verdict(llr);
    }
    let mut shards: Vec<u32> = files.iter().map(|f| f.shard.map_or(1, |s| s.index)).collect();
    shards.sort();
    shards.dedup();
    Ok(Merged { summary, total, pairs: seen.len(), penta, sprt, shards, of: of(first) })
}

/// `calvin-match merge FILE...`: prints the report and the JSON line; the exit code.
pub fn merge_main(paths: &[String], out: &mut dyn Write) -> i32 {
    match merge(paths) {
        Ok(m) => {
            let _ = writeln!(out, "{}{}", m.report(), m.json_line());
            let _ = out.flush();
            0
        }
        Err(e) => {
            eprintln!("calvin-match: merge: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trips() {
        let text = r#"{"a":[1,-2.5e3,true,null],"b":"x\"y\\z\n\u00e9","c":{}}"#;
        let v = Json::parse(text).expect("parses");
        assert_eq!(v.get("b").and_then(Json::as_str), Some("x\"y\\z\né"));
        assert_eq!(v.get("a").and_then(Json::as_arr).map(|a| a[1].as_f64()), Some(Some(-2500.0)));
        assert_eq!(Json::parse(&v.write()).expect("again"), v);
        assert_eq!(v.write(), r#"{"a":[1,-2.5e3,true,null],"b":"x\"y\\z\né","c":{}}"#);
        for bad in ["{", "[1,]", "{\"a\" 1}", "tru", "\"x", "1 2", "[-]"] {
            assert!(Json::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Json::float(f64::NAN), Json::Null);
        assert_eq!(Json::float(0.05).write(), "0.05");
    }

    #[test]
    fn pairs_and_their_pentanomial() {
        let g = |game, a_white, a_half_points| GameResult { game, a_white, a_half_points, points: None, forfeit: None };
        let line = pair_line(1, &[g(3, true, 2), g(4, false, 1)]);
        assert_eq!(
            line,
            r#"{"pair":1,"games":[{"game":3,"a_white":true,"a":"W","points":null,"forfeit":null},{"game":4,"a_white":false,"a":"D","points":null,"forfeit":null}],"penta":3}"#
        );
        let v = Json::parse(&line).expect("parses");
        let back: Vec<GameResult> =
            v.get("games").and_then(Json::as_arr).expect("games").iter().filter_map(GameResult::from_json).collect();
        assert_eq!(back, [g(3, true, 2), g(4, false, 1)]);
        let f = GameResult { points: Some([1, 4]), forfeit: Some((1, Forfeit::Time)), ..g(5, true, 2) };
        let line = pair_line(2, std::slice::from_ref(&f));
        assert!(
            line.ends_with(r#""points":[1,4],"forfeit":{"engine":2,"how":"time forfeit"}}],"penta":null}"#),
            "{line}"
        );
        let v = Json::parse(&line).expect("parses");
        assert_eq!(v.get("games").and_then(Json::as_arr).and_then(|a| GameResult::from_json(&a[0])), Some(f));
        assert_eq!(program("/tmp/bin/calvin --flag"), "calvin --flag");
        assert_eq!(program("'/tmp/x y/calvin' --flag"), "calvin --flag");
    }
}
