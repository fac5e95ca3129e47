//! The command line of `calvin-match`, cutechess style: per-engine
//! `key=value` settings after `--engine`, shared ones after `--each`.

use super::engine::EngineCmd;
use super::shard::Shard;
use super::stats::Sprt;
use super::timecontrol::{Limits, parse_seconds_ms, parse_tc};
use crate::registry::{RuleOption, RuleOptions, VariantId};
use std::path::PathBuf;
use std::time::Duration;

/// The help text with `{rule_options}` and `{clock_modes}` to fill in from
/// the variants' declarations (see [`usage`]).
const USAGE: &str = "\
calvin-match: plays games between two UCI engines, refereed by calvin's rules.

usage: calvin-match --engine cmd=CMD [name=N] [KEY=VALUE...]
                    --engine cmd=CMD [KEY=VALUE...] [--each KEY=VALUE...] [OPTIONS]

engine settings (after --engine, or --each for both):
  cmd=\"prog args\"     command line (quotes group words)
  name=N              name in the record (default: the engine's id name)
  dir=PATH            working directory
  option.NAME=VALUE   setoption sent after uciok (in order given); rule options
{rule_options}                      are the referee's rules too, and both engines
                      must be given the same
  variant=NAME        the UCI_Variant value this engine uses (default: --variant)
  tc=[MOVES/]BASE[+INC]  clock in seconds (BASE may be m:ss), e.g. tc=40+0.4
{clock_modes}  st=SECONDS          fixed time per move
  nodes=N, depth=N    node or depth limit sent with go
  timemargin=MS       how late a move may come before it loses on time

options:
  --variant NAME      variant to play (default chess)
  --games N           number of games (default 2); --rounds N plays 2N
  --concurrency N     games played at once (default 1)
  --openings FILE     openings: a FEN a line, or 'fen FEN moves ...', 'startpos moves ...'
  --openings-order sequential|random
  --random-plies N    random legal plies after the opening
  --seed N            seed for the random openings and order (default: from the clock)
  --pgnout FILE       append each finished game to FILE
  --results FILE      write the results (JSON lines: settings, then one line per
                      finished opening pair) to FILE, for 'calvin-match merge'
  --resume            continue the run whose --results FILE this is: the
                      pairs in it are not played again, new ones are added
                      (the seed is the file's unless --seed is given)
  --shard I/N         play only the opening pairs p with p mod N = I - 1 (needs
                      --seed; the SPRT does not stop a shard)
  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05   stop when the SPRT decides
  --tc X, --st X, --nodes N, --depth N, --timemargin MS   same as --each KEY=X
  --maxplies N        adjudicate a draw after N plies by the engines
  --start-timeout S   wait for uciok/readyok (default 10)
  --move-timeout S    wait for a bestmove limited only by nodes/depth (default 60)
  --stop-grace S      wait for bestmove after stop on a time forfeit (default 1)
  --event NAME        PGN Event tag
  --debug             log the engine traffic to stderr
  --spsa FILE         SPSA tuning instead of a match: FILE lists the engine
                      options to tune, a line each: NAME, start, min, max,
                      c_end, r_end; engine 1 plays theta+delta, engine 2
                      theta-delta; --games bounds this run
  --spsa-state FILE   the tuning's state, written after every pair and read
                      back to continue (default: the --spsa FILE + .state)
  --spsa-iterations N the tuning's length in pairs (default: --games / 2)
  --help

calvin-match merge FILE...
  adds up --results files of one match (its shards) and prints the report a
  single run prints at its end, then one JSON line (games, pentanomial, llr,
  verdict)
";

/// `calvin-match --help`: [`USAGE`] with the rule options and the clock
/// modes (`tc=<prefix>:MODE`) that the variants declare.
pub fn usage() -> String {
    let names: Vec<&str> = RuleOption::all().map(|o| o.name()).collect();
    let mut rule_options = String::new();
    let mut line = String::new();
    for (i, n) in names.iter().enumerate() {
        let word = if i + 1 < names.len() { format!("{n},") } else { n.to_string() };
        if !line.is_empty() && 22 + line.len() + 1 + word.len() > 78 {
            rule_options += &format!("{:22}{line}\n", "");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &word;
    }
    if !line.is_empty() {
        rule_options += &format!("{:22}{line}\n", "");
    }
    let clock_modes: String = crate::registry::clock_modes()
        .iter()
        .map(|c| format!("  {:<20}{} modes: {}\n", format!("tc={}:MODE", c.tc_prefix), c.option, c.modes.join(", ")))
        .collect();
    USAGE.replace("{rule_options}", &rule_options).replace("{clock_modes}", &clock_modes)
}

/// One engine as given on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSpec {
    pub name: Option<String>,
    pub cmd: EngineCmd,
    /// `variant=`; the match variant when not given.
    pub variant: Option<String>,
    pub limits: Limits,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    pub variant: String,
    pub games: u32,
    pub concurrency: usize,
    pub players: [PlayerSpec; 2],
    pub openings: Option<PathBuf>,
    pub random_order: bool,
    pub random_plies: usize,
    pub seed: Option<u64>,
    pub pgnout: Option<PathBuf>,
    /// `--results FILE`: the machine-readable results.
    pub results: Option<PathBuf>,
    /// `--resume`: continue the `--results` file of an earlier run.
    pub resume: bool,
    /// `--shard I/N`: play only this shard's opening pairs.
    pub shard: Option<Shard>,
    pub sprt: Option<Sprt>,
    pub max_plies: Option<usize>,
    pub start_timeout: Duration,
    pub move_timeout: Duration,
    pub stop_grace: Duration,
    pub event: String,
    pub debug: bool,
    /// The rule options (`option.IagoReserve=QMCA`, ...) given to the engines:
    /// both must be given the same rules, and the referee plays by them.
    pub rules: RuleOptions,
    /// `--spsa FILE`: tune the parameters FILE lists instead of a match.
    pub spsa: Option<PathBuf>,
    /// `--spsa-state FILE`: where the tuning's state is kept (default: the
    /// parameters file's name with `.state` added).
    pub spsa_state: Option<PathBuf>,
    /// `--spsa-iterations N`: the tuning's length (default: `--games` / 2).
    pub spsa_iterations: Option<u64>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            variant: "chess".into(),
            games: 2,
            concurrency: 1,
            players: Default::default(),
            openings: None,
            random_order: false,
            random_plies: 0,
            seed: None,
            pgnout: None,
            results: None,
            resume: false,
            shard: None,
            sprt: None,
            max_plies: None,
            start_timeout: Duration::from_secs(10),
            move_timeout: Duration::from_secs(60),
            stop_grace: Duration::from_secs(1),
            event: "calvin-match".into(),
            debug: false,
            rules: RuleOptions::default(),
            spsa: None,
            spsa_state: None,
            spsa_iterations: None,
        }
    }
}

pub enum Command {
    Help,
    Run(Box<MatchConfig>),
}

fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{key}: bad number '{v}'"))
}

fn seconds(key: &str, v: &str) -> Result<Duration, String> {
    parse_seconds_ms(v).map(Duration::from_millis).map_err(|e| format!("{key}: {e}"))
}

/// `text` of the engine setting `key`, refused if it holds a line break: it
/// is sent to the engine in a UCI command, which is one line (the shared
/// client would refuse to send it and the engine would never get it).
fn one_line<'a>(key: &str, text: &'a str) -> Result<&'a str, String> {
    if text.contains(['\n', '\r']) {
        return Err(format!("{}: a line break cannot be sent to an engine", key.escape_debug()));
    }
    Ok(text)
}

/// Applies one `key=value` engine setting.
pub fn apply_setting(p: &mut PlayerSpec, kv: &str) -> Result<(), String> {
    let (k, v) = kv.split_once('=').ok_or_else(|| format!("engine setting '{kv}' is not key=value"))?;
    match k {
        "cmd" => p.cmd.cmd = v.to_string(),
        "name" => p.name = Some(v.to_string()),
        "dir" => p.cmd.dir = Some(v.to_string()),
        "proto" if v == "uci" => {}
        "proto" => return Err(format!("proto={v}: only uci is spoken")),
        "variant" => p.variant = Some(one_line(k, v)?.to_string()),
        "tc" => p.limits.clock = parse_tc(v).map_err(|e| format!("tc: {e}"))?,
        "st" => p.limits.movetime_ms = Some(parse_seconds_ms(v).map_err(|e| format!("st: {e}"))?),
        "nodes" => p.limits.nodes = Some(num(k, v)?),
        "depth" => p.limits.depth = Some(num(k, v)?),
        "timemargin" => p.limits.margin_ms = num(k, v)?,
        _ => match k.strip_prefix("option.") {
            Some(name) if !name.is_empty() => {
                one_line(k, kv)?;
                p.cmd.options.retain(|(n, _)| n != name);
                p.cmd.options.push((name.to_string(), v.to_string()));
            }
            _ => return Err(format!("unknown engine setting '{k}'")),
        },
    }
    Ok(())
}

/// Reads the arguments (without the program name). Options may be written
/// with one dash or two (`-games` as cutechess has it, or `--games`).
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut cfg = MatchConfig::default();
    let mut engines: Vec<Vec<String>> = Vec::new();
    let mut each: Vec<String> = Vec::new();
    let mut i = 0;
    let is_option = |a: &str| a.starts_with('-') && a.len() > 1 && !a[1..].starts_with(|c: char| c.is_ascii_digit());
    while i < args.len() {
        let a = &args[i];
        if !is_option(a) {
            return Err(format!("unexpected argument '{a}' (see --help)"));
        }
        let key = a.trim_start_matches('-');
        i += 1;
        // Options that take a list of key=value words.
        if matches!(key, "engine" | "each" | "sprt") {
            let start = i;
            while i < args.len() && !is_option(&args[i]) {
                i += 1;
            }
            let list = args[start..i].to_vec();
            match key {
                "engine" => engines.push(list),
                "each" => each.extend(list),
                _ => cfg.sprt = Some(Sprt::parse(&list)?),
            }
            continue;
        }
        if matches!(key, "help" | "h") {
            return Ok(Command::Help);
        }
        if key == "debug" {
            cfg.debug = true;
            continue;
        }
        if key == "resume" {
            cfg.resume = true;
            continue;
        }
        let v = args.get(i).ok_or_else(|| format!("{a} needs a value"))?.as_str();
        i += 1;
        match key {
            "variant" => cfg.variant = v.to_string(),
            "games" => cfg.games = num(a, v)?,
            "rounds" => cfg.games = 2 * num::<u32>(a, v)?,
            "concurrency" => cfg.concurrency = num::<usize>(a, v)?.max(1),
            "openings" => cfg.openings = Some(PathBuf::from(v)),
            "openings-order" => {
                cfg.random_order = match v {
                    "random" => true,
                    "sequential" => false,
                    _ => return Err(format!("{a}: sequential or random")),
                }
            }
            "random-plies" => cfg.random_plies = num(a, v)?,
            "seed" => cfg.seed = Some(num(a, v)?),
            "pgnout" => cfg.pgnout = Some(PathBuf::from(v)),
            "results" => cfg.results = Some(PathBuf::from(v)),
            "shard" => cfg.shard = Some(Shard::parse(v)?),
            "tc" | "st" | "nodes" | "depth" | "timemargin" => each.push(format!("{key}={v}")),
            "maxplies" => cfg.max_plies = Some(num(a, v)?),
            "start-timeout" => cfg.start_timeout = seconds(a, v)?,
            "move-timeout" => cfg.move_timeout = seconds(a, v)?,
            "stop-grace" => cfg.stop_grace = seconds(a, v)?,
            "event" => cfg.event = v.to_string(),
            "spsa" => cfg.spsa = Some(PathBuf::from(v)),
            "spsa-state" => cfg.spsa_state = Some(PathBuf::from(v)),
            "spsa-iterations" => cfg.spsa_iterations = Some(num(a, v)?),
            _ => return Err(format!("unknown option '{a}' (see --help)")),
        }
    }
    if engines.len() != 2 {
        return Err(format!("two engines are needed (--engine cmd=...), {} given", engines.len()));
    }
    for (p, list) in cfg.players.iter_mut().zip(&engines) {
        for kv in each.iter().chain(list) {
            apply_setting(p, kv)?;
        }
        if p.cmd.cmd.is_empty() {
            return Err("an --engine has no cmd=".into());
        }
    }
    if cfg.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if cfg.resume && cfg.results.is_none() {
        return Err("--resume continues a --results file: give one".into());
    }
    if cfg.shard.is_some() && cfg.seed.is_none() {
        return Err("--shard needs --seed (every shard must draw the same openings)".into());
    }
    if cfg.spsa.is_some() {
        if cfg.sprt.is_some() || cfg.shard.is_some() || cfg.results.is_some() || cfg.resume {
            return Err("--spsa plays no match: --sprt, --shard, --results and --resume do not go with it".into());
        }
        if cfg.games < 2 {
            return Err("--spsa plays game pairs: --games must be at least 2".into());
        }
        if cfg.spsa_iterations == Some(0) {
            return Err("--spsa-iterations must be at least 1".into());
        }
    } else if cfg.spsa_state.is_some() || cfg.spsa_iterations.is_some() {
        return Err("--spsa-state and --spsa-iterations need --spsa".into());
    }
    cfg.rules = match_rules(&cfg.variant, &cfg.players)?;
    Ok(Command::Run(Box::new(cfg)))
}

/// The rule options among an engine's `option.NAME=VALUE` settings.
fn rules_of(p: &PlayerSpec) -> Result<RuleOptions, String> {
    let mut rules = RuleOptions::default();
    for (name, value) in &p.cmd.options {
        if let Some(o) = RuleOption::from_name(name) {
            o.apply(&mut rules, value).map_err(|e| format!("option.{name}: {e}"))?;
        }
    }
    Ok(rules)
}

/// The rules of the match: both engines must be given the same game of
/// `variant` (options that do not concern it, or that select its rulings,
/// may differ).
fn match_rules(variant: &str, players: &[PlayerSpec; 2]) -> Result<RuleOptions, String> {
    let rules = [rules_of(&players[0])?, rules_of(&players[1])?];
    let same = match VariantId::from_name(variant) {
        Some(v) => v.rule_word(&rules[0]) == v.rule_word(&rules[1]),
        None => rules[0] == rules[1],
    };
    if !same {
        let show = |r: &RuleOptions| {
            let set: Vec<String> = RuleOption::all()
                .filter(|o| o.value(r) != o.value(&RuleOptions::default()))
                .map(|o| format!("{}={}", o.name(), o.value(r)))
                .collect();
            if set.is_empty() { "the defaults".to_string() } else { set.join(" ") }
        };
        return Err(format!(
            "the engines are given different rules of {variant} ({} / {}); the referee plays one game",
            show(&rules[0]),
            show(&rules[1])
        ));
    }
    Ok(rules[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::timecontrol::ClockSpec;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn run(s: &[&str]) -> MatchConfig {
        match parse_args(&args(s)).unwrap() {
            Command::Run(c) => *c,
            Command::Help => panic!("help"),
        }
    }

    #[test]
    fn parses_a_match() {
        let c = run(&[
            "--engine",
            "cmd=./calvin",
            "name=calvin",
            "option.Hash=16",
            "--engine",
            "cmd=fairy-stockfish bench",
            "variant=ita-x",
            "option.VariantPath=v.ini",
            "tc=1+0.1",
            "--each",
            "tc=40+0.4",
            "option.Threads=1",
            "timemargin=50",
            "-games",
            "10",
            "--concurrency",
            "2",
            "--variant",
            "chess",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "--seed",
            "5",
            "--random-plies",
            "4",
            "--pgnout",
            "out.pgn",
        ]);
        assert_eq!(c.games, 10);
        assert_eq!(c.concurrency, 2);
        assert_eq!(c.seed, Some(5));
        assert_eq!(c.random_plies, 4);
        assert_eq!(c.sprt.unwrap().elo1, 10.0);
        let a = &c.players[0];
        assert_eq!(a.name.as_deref(), Some("calvin"));
        assert_eq!(a.cmd.cmd, "./calvin");
        assert_eq!(
            a.cmd.options,
            vec![("Threads".to_string(), "1".to_string()), ("Hash".to_string(), "16".to_string())]
        );
        assert_eq!(a.limits.clock, Some(ClockSpec::Fixed { moves: 0, base_ms: 40_000, inc_ms: 400 }));
        assert_eq!(a.limits.margin_ms, 50);
        let b = &c.players[1];
        assert_eq!(b.variant.as_deref(), Some("ita-x"));
        assert_eq!(b.cmd.cmd, "fairy-stockfish bench");
        // The engine's own setting wins over --each.
        assert_eq!(b.limits.clock, Some(ClockSpec::Fixed { moves: 0, base_ms: 1000, inc_ms: 100 }));
    }

    #[test]
    fn shorthands_and_errors() {
        let c = run(&["--engine", "cmd=a", "--engine", "cmd=b", "--st", "0.5", "--depth", "3"]);
        assert_eq!(c.players[1].limits.movetime_ms, Some(500));
        assert_eq!(c.players[0].limits.depth, Some(3));
        assert!(matches!(parse_args(&args(&["--help"])).unwrap(), Command::Help));
        // The help names the rule options and clock modes the variants declare.
        let help = usage();
        let lines: Vec<&str> = help.lines().collect();
        let i = lines.iter().position(|l| l.starts_with("  option.NAME=VALUE")).unwrap();
        assert_eq!(
            lines[i + 1..i + 6],
            [
                "                      IagoGating, IagoDrops, IagoReserve, IagoPromotion,",
                "                      IagoBareKing, IagoCastlingGates, IagoNotation,",
                "                      ItaLeaperCapture, ItaGoal",
                "                      are the referee's rules too, and both engines",
                "                      must be given the same",
            ]
        );
        assert!(
            lines.contains(&"  tc=ita:MODE         ItaTimeMode modes: peaceful, easy, medium, hard, hardcore"),
            "{help}"
        );
        assert!(!help.contains('{'), "{help}");
        let err = |s: &[&str]| match parse_args(&args(s)) {
            Err(e) => e,
            Ok(_) => panic!("{s:?} should fail"),
        };
        assert!(err(&["--engine", "cmd=a"]).contains("two engines"));
        assert!(err(&["--engine", "cmd=a", "bogus=1", "--engine", "cmd=b"]).contains("bogus"));
        assert!(err(&["--engine", "name=a", "--engine", "cmd=b"]).contains("no cmd"));
        assert!(err(&["--engine", "cmd=a", "--engine", "cmd=b", "--games"]).contains("value"));
        assert!(err(&["--engine", "cmd=a", "--engine", "cmd=b", "--frob", "1"]).contains("frob"));
        assert!(err(&["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "x"]).contains("tc"));
        fn spsa<'a>(rest: &[&'a str]) -> Vec<&'a str> {
            [&["--engine", "cmd=a", "--engine", "cmd=b"], rest].concat()
        }
        assert_eq!(
            err(&spsa(&["--spsa", "p.txt", "--sprt", "elo1=5"])),
            "--spsa plays no match: --sprt, --shard, --results and --resume do not go with it"
        );
        assert_eq!(err(&spsa(&["--spsa", "p", "--games", "1"])), "--spsa plays game pairs: --games must be at least 2");
        assert_eq!(err(&spsa(&["--spsa-state", "s"])), "--spsa-state and --spsa-iterations need --spsa");
        let c = run(&spsa(&["--spsa", "p", "--spsa-state", "s", "--spsa-iterations", "9"]));
        assert_eq!((c.spsa, c.spsa_state, c.spsa_iterations), (Some("p".into()), Some("s".into()), Some(9)));
    }
}
