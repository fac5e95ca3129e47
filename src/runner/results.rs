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
use calvin_uci_client::json::Json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// The `format` of a results file's header.
pub const FORMAT: &str = "calvin-match results";
pub const VERSION: u64 = 1;

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
            Json::str(fnv64(&bytes))
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
            ("program", Json::str(program(&p.cmd.cmd))),
            ("variant", Json::str(&p.cmd.variant)),
            ("options", Json::Arr(options)),
            ("limits", Json::str(format!("{} timemargin={}", p.limits.describe(), p.limits.margin_ms))),
        ])
    };
    let settings = Json::obj(vec![
        ("variant", Json::str(&cfg.variant)),
        ("rules", Json::str(rules.join(" "))),
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
        ("shard", shard.map_or(Json::Null, |s| Json::str(s.to_string()))),
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

    /// Continues `path`, the results file of an earlier run of this match
    /// (`--resume`): its header must be `header` but for the commands (the
    /// same shard and settings), a line cut off at its end is dropped, and
    /// new pairs are appended. Returns the writer and the pairs played
    /// before. A missing file is created as by [`ResultsWriter::create`].
    #[allow(clippy::type_complexity)]
    pub fn resume(
        path: &Path,
        header: &str,
        total: u32,
    ) -> Result<(ResultsWriter, Vec<(u32, Vec<GameResult>)>), String> {
        let name = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((ResultsWriter::create(path, header, total)?, Vec::new()));
            }
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        };
        let (head, pairs, complete) = parse_results(&name, &text)?;
        let ours = Json::parse(header).map_err(|_| "the results header does not parse".to_string())?;
        let mut diff = Vec::new();
        let shard = |h: &Json| h.get("shard").map_or("null".to_string(), Json::write);
        if shard(&head) != shard(&ours) {
            diff.push(format!("shard {} / {}", shard(&head), shard(&ours)));
        }
        if let (Some(a), Some(b)) = (head.get("settings"), ours.get("settings"))
            && a != b
        {
            diff.push(differences(a, b));
        }
        if !diff.is_empty() {
            return Err(format!(
                "--resume: {name} holds another match's results ({}); give another --results file",
                diff.join(", ")
            ));
        }
        let file =
            std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("cannot write {name}: {e}"))?;
        file.set_len(complete as u64).map_err(|e| format!("cannot write {name}: {e}"))?;
        let file =
            std::fs::OpenOptions::new().append(true).open(path).map_err(|e| format!("cannot write {name}: {e}"))?;
        Ok((ResultsWriter { file, pending: BTreeMap::new(), total }, pairs))
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
    let (head, pairs, _) = parse_results(path, &text)?;
    let shard = match head.get("shard") {
        Some(Json::Str(s)) => Some(Shard::parse(s).map_err(|e| format!("{path}: {e}"))?),
        _ => None,
    };
    let not_ours = || format!("{path} is not a calvin-match results file");
    let settings = head.get("settings").cloned().ok_or_else(not_ours)?;
    Ok(ResultsFile { name: path.to_string(), shard, settings, pairs })
}

/// A results file's text read: its header, its pairs, and the length of
/// its complete lines (a last line cut off while written is left out, with
/// a note on stderr).
#[allow(clippy::type_complexity)]
fn parse_results(path: &str, text: &str) -> Result<(Json, Vec<(u32, Vec<GameResult>)>, usize), String> {
    let mut lines = text.split_inclusive('\n');
    let not_ours = || format!("{path} is not a calvin-match results file");
    let first = lines.next().ok_or_else(not_ours)?;
    let head = Json::parse(first).map_err(|_| not_ours())?;
    if head.get("format").and_then(Json::as_str) != Some(FORMAT) {
        return Err(not_ours());
    }
    match head.get("version").and_then(Json::as_u64) {
        Some(VERSION) => {}
        v => return Err(format!("{path}: results format version {v:?}, this build reads {VERSION}")),
    }
    let mut complete = first.len();
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
        complete += line.len();
    }
    Ok((head, pairs, complete))
}

/// The seed in the header of results file `path`, if it can be read (a
/// run resumed without `--seed` draws the openings its file was made with).
pub fn seed_of(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let head = Json::parse(text.split_inclusive('\n').next()?).ok()?;
    head.get("settings")?.get("seed")?.as_u64()
}

/// The fields in which two JSON objects differ, as `key A / B`.
fn differences(a: &Json, b: &Json) -> String {
    match (a, b) {
        (Json::Obj(x), Json::Obj(y)) => x
            .iter()
            .filter(|(k, v)| b.get(k) != Some(v))
            .map(|(k, v)| format!("{k} {} / {}", v.write(), b.get(k).map_or("-".into(), Json::write)))
            .chain(y.iter().filter(|(k, _)| a.get(k).is_none()).map(|(k, _)| k.clone()))
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    }
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
            let keys = differences(&first.settings, &f.settings);
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
