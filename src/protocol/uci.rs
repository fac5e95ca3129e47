//! UCI commands and output.

use super::Session;
use super::parse::{GoCmd, parse_go, parse_position};
use crate::engine::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use crate::game::VARIANTS;
use crate::search::{Event, Info, Score};
use std::io::Write;
use vampirc_uci::{UciMessage, UciOptionConfig, parse_one};

pub const ENGINE_NAME: &str = concat!("calvin ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the calvin developers";

/// The `info ...` line for a search report.
pub fn info_line(i: &Info) -> String {
    let score = match i.score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score,
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms,
        i.pv.join(" ")
    )
}

impl<W: Write> Session<W> {
    pub fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Info(i) => {
                let l = info_line(&i);
                self.say(&l);
            }
            Event::BestMove { best, ponder, over } => {
                if let Some(o) = over {
                    let l = format!("info string game over {} {}", o.result_string(), o.reason);
                    self.say(&l);
                }
                let l = match (best, ponder) {
                    (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
                    (Some(b), None) => format!("bestmove {b}"),
                    (None, _) => "bestmove (none)".to_string(),
                };
                self.say(&l);
            }
        }
    }

    fn options(&self) -> Vec<UciOptionConfig> {
        vec![
            UciOptionConfig::Spin {
                name: "Hash".into(),
                default: Some(DEFAULT_HASH_MB as i64),
                min: Some(1),
                max: Some(MAX_HASH_MB as i64),
            },
            UciOptionConfig::Button { name: "Clear Hash".into() },
            UciOptionConfig::Spin {
                name: "Threads".into(),
                default: Some(1),
                min: Some(1),
                max: Some(MAX_THREADS as i64),
            },
            UciOptionConfig::Spin { name: "MultiPV".into(), default: Some(1), min: Some(1), max: Some(256) },
            UciOptionConfig::Check { name: "Ponder".into(), default: Some(false) },
            UciOptionConfig::Combo {
                name: "UCI_Variant".into(),
                default: Some(VARIANTS[0].into()),
                var: VARIANTS.iter().map(|s| s.to_string()).collect(),
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let int = |v: Option<&str>| -> Result<usize, String> {
            v.ok_or(format!("option {name} needs a value"))?
                .trim()
                .parse::<usize>()
                .map_err(|_| format!("option {name}: '{}' is not a number", v.unwrap_or("")))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.engine.set_hash(int(value)?),
            "threads" => {
                let n = int(value)?;
                if !(1..=MAX_THREADS).contains(&n) {
                    return Err(format!("Threads must be 1..{MAX_THREADS}"));
                }
                self.engine.threads = n;
                Ok(())
            }
            "multipv" => {
                let n = int(value)?;
                if !(1..=256).contains(&n) {
                    return Err("MultiPV must be 1..256".into());
                }
                self.engine.multipv = n;
                Ok(())
            }
            "clear hash" => {
                self.engine.clear_hash();
                Ok(())
            }
            "ponder" => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("true") | Some("false") => Ok(()),
                _ => Err("Ponder is true or false".into()),
            },
            "uci_variant" => {
                let v = value.ok_or("option UCI_Variant needs a value")?.trim();
                self.engine.set_variant(v)
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        if !matches!(cmd, "" | "isready" | "stop" | "ponderhit" | "quit") {
            self.settle();
        }
        match cmd {
            "" => {}
            // The plain commands go through the UCI crate.
            "uci" | "isready" | "setoption" | "ucinewgame" | "stop" | "ponderhit" | "quit" => match parse_one(line) {
                UciMessage::Uci => {
                    self.say(&UciMessage::id_name(ENGINE_NAME).to_string());
                    self.say(&UciMessage::id_author(ENGINE_AUTHOR).to_string());
                    for o in self.options() {
                        self.say(&UciMessage::Option(o).to_string());
                    }
                    self.say(&UciMessage::UciOk.to_string());
                }
                UciMessage::IsReady => self.say(&UciMessage::ReadyOk.to_string()),
                UciMessage::SetOption { name, value } => {
                    if let Err(e) = self.set_option(&name, value.as_deref()) {
                        self.error(&e);
                    }
                }
                UciMessage::UciNewGame => self.engine.new_game(),
                UciMessage::Stop => self.engine.stop(),
                UciMessage::PonderHit => self.engine.ponderhit(),
                UciMessage::Quit => return false,
                _ => self.error(&format!("cannot parse '{line}'")),
            },
            "position" => match parse_position(rest) {
                Ok(p) => {
                    if let Err(e) = self.engine.set_position(p.fen.as_deref(), &p.moves) {
                        self.error(&e);
                    }
                }
                Err(e) => self.error(&e),
            },
            "go" => match parse_go(rest) {
                Ok(GoCmd::Perft(d)) => self.start_perft(d),
                Ok(GoCmd::Search(l)) => {
                    self.search_is_finite = !l.infinite && !l.ponder;
                    self.engine.go(l);
                }
                Err(e) => self.error(&e),
            },
            "d" => {
                let g = &self.engine.game;
                let text = format!("{}\nFen: {}\nKey: {:016X}", g.pretty(), g.fen(), g.key());
                self.say(&text);
            }
            "fen" => {
                let f = self.engine.game.fen();
                self.say(&format!("info string fen {f}"));
            }
            "moves" => {
                let l = self.engine.game.legal_moves().join(" ");
                self.say(&format!("info string moves {l}"));
            }
            "result" => {
                let l = match self.engine.game.outcome() {
                    Some(o) => format!("info string result {} {}", o.result_string(), o.reason),
                    None => "info string result none".to_string(),
                };
                self.say(&l);
            }
            "eval" => {
                let v = self.engine.game.evaluate();
                self.say(&format!("info string eval {v}"));
            }
            "bench" => self.bench(rest),
            _ => self.error(&format!("unknown command '{cmd}'")),
        }
        true
    }

    fn start_perft(&mut self, depth: u32) {
        let game = self.engine.game.clone_box();
        let tx = self.text_tx.clone();
        self.perft = Some(std::thread::spawn(move || {
            let mut total = 0;
            for (m, n) in game.divide(depth) {
                let _ = tx.send(format!("{m}: {n}"));
                total += n;
            }
            let _ = tx.send(String::new());
            let _ = tx.send(format!("Nodes searched: {total}"));
        }));
    }

    fn bench(&mut self, rest: &str) {
        let depth = match rest.split_whitespace().next() {
            None => None,
            Some(d) => match d.parse::<i32>() {
                Ok(d) if (1..=30).contains(&d) => Some(d),
                _ => {
                    self.error("bench: depth must be 1..30");
                    return;
                }
            },
        };
        self.engine.wait();
        let report = crate::bench::run_bench(depth);
        for l in report {
            self.say(&l);
        }
    }
}
