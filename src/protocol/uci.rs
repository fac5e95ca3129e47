//! UCI commands and output.

use super::parse::{GoCmd, parse_position};
use super::text::MoveText;
use super::{Mode, Session, Timing};
use crate::errors::PositionError;
use crate::search::{Event, Info, Score};
use std::io::Write;
use vampirc_uci::UciMessage;

pub const ENGINE_NAME: &str = concat!("calvin ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the calvin developers";

/// The `info ...` line for a search report, moves written by `w`.
pub fn info_line(i: &Info, w: &MoveText) -> String {
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
        i.pv.iter().map(|m| w.write(m)).collect::<Vec<_>>().join(" ")
    )
}

impl<W: Write> Session<W> {
    /// Prints a search event (UCI and USI).
    pub fn uci_event(&mut self, ev: Event) {
        let w = self.move_writer();
        match ev {
            Event::Info(i) => {
                let l = info_line(&i, &w);
                self.say(&l);
            }
            Event::BestMove { best, ponder, over } => {
                let stm_won = over.as_ref().is_some_and(|o| {
                    let stm = (self.engine.game().fen().split_whitespace().nth(1) == Some("b")) as usize;
                    o.winner == Some(stm)
                });
                if let Some(o) = &over {
                    let l = format!("info string game over {}", Self::result_words(o));
                    self.say(&l);
                }
                let l = match (best, ponder) {
                    (Some(b), Some(p)) => {
                        format!("bestmove {} ponder {}", w.write(&b), w.write(&p))
                    }
                    (Some(b), None) => format!("bestmove {}", w.write(&b)),
                    (None, _) if self.mode == Mode::Usi => {
                        if stm_won {
                            "bestmove win".to_string()
                        } else {
                            "bestmove resign".to_string()
                        }
                    }
                    (None, _) => "bestmove (none)".to_string(),
                };
                self.say(&l);
            }
        }
    }

    /// The handshake's `id`, options and `uciok` / `usiok`.
    fn handshake(&mut self) {
        self.say(&UciMessage::id_name(ENGINE_NAME).to_string());
        self.say(&UciMessage::id_author(ENGINE_AUTHOR).to_string());
        for o in super::options::options(self.engine.variant()) {
            let l = super::options::uci_line(&o, self.mode);
            self.say(&l);
        }
        self.say(if self.mode == Mode::Usi { "usiok" } else { "uciok" });
    }

    /// UCI and USI share their commands; USI differs in names and notation.
    pub fn handle_uci_like(&mut self, line: &str) -> bool {
        let (cmd, rest) = super::split_command(line.trim());
        match cmd {
            "" => {}
            "uci" => {
                self.mode = Mode::Uci;
                self.handshake();
            }
            "usi" => {
                self.mode = Mode::Usi;
                self.handshake();
            }
            "xboard" => self.enter_cecp(),
            "isready" => self.say(&UciMessage::ReadyOk.to_string()),
            "ucinewgame" | "usinewgame" => self.engine.new_game(),
            "stop" | "gameover" => self.stop_search(),
            "ponderhit" => self.engine.ponderhit(),
            "quit" => return false,
            "setoption" => match parse_setoption(rest) {
                Ok((name, value)) => {
                    if let Err(e) = self.set_option(&name, value.as_deref()) {
                        self.error(&e);
                    }
                }
                Err(e) => self.error(&e),
            },
            "position" => self.position(rest),
            "go" => self.go(rest),
            "d" | "fen" | "moves" | "result" | "eval" | "variant" => self.report(cmd),
            "bench" => self.bench(rest),
            _ => self.error(format!("unknown command '{cmd}'")),
        }
        true
    }

    /// `go ...`: a search, or `go perft <depth>`.
    fn go(&mut self, rest: &str) {
        match super::parse::parse_go_usi(rest) {
            Ok((_, Some(_))) if self.mode != Mode::Usi => self.error("go: unknown parameter 'byoyomi'"),
            Ok((GoCmd::Perft(d), _)) => self.start_perft(d),
            Ok((GoCmd::Search(mut l), byoyomi)) => {
                let w = self.move_writer();
                let mut bad = None;
                for m in l.searchmoves.iter_mut() {
                    match w.read(m) {
                        Ok(c) => *m = c,
                        Err(e) => bad = Some(e),
                    }
                }
                if self.mode == Mode::Usi {
                    l = super::usi::usi_limits(l, byoyomi);
                }
                match bad {
                    Some(e) => self.error(format!("go searchmoves: {e}")),
                    None => self.start_search(l),
                }
            }
            Err(e) => self.error(&e),
        }
    }

    /// The read-only commands, answered from the current position (the one
    /// being searched while a search runs).
    fn report(&mut self, cmd: &str) {
        match cmd {
            "d" => {
                let g = self.engine.game();
                let text = format!("{}\nFen: {}\nKey: {:016X}", self.board_picture(), g.fen(), g.key());
                self.say(&text);
            }
            "fen" => {
                let f = self.engine.game().fen();
                self.say(&format!("info string fen {f}"));
            }
            "moves" => {
                let w = self.move_writer();
                let l: Vec<String> = self.engine.game().legal_moves().iter().map(|m| w.write(m)).collect();
                self.say(&format!("info string moves {}", l.join(" ")));
            }
            "result" => {
                let l = match self.engine.game().outcome() {
                    Some(o) => format!("info string result {}", Self::result_words(&o)),
                    None => "info string result none".to_string(),
                };
                self.say(&l);
            }
            "eval" => {
                let t = self.engine.game().eval_terms();
                self.say(&format!(
                    "info string eval {} white {} material {} hand {} variant {} positional {} learned {}",
                    t.total,
                    t.material + t.hand + t.variant + t.positional,
                    t.material,
                    t.hand,
                    t.variant,
                    t.positional,
                    t.learned
                ));
                let w = self.engine.game().weights_source();
                self.say(&format!("info string weights {w}"));
            }
            "variant" => {
                let l = self.variant_line();
                self.say(&l);
            }
            _ => {}
        }
    }

    /// `position startpos|fen <FEN>|sfen <SFEN> [moves ...]`: on any error
    /// the position is kept.
    fn position(&mut self, rest: &str) {
        if let Err(e) = self.try_position(rest) {
            self.error(e);
        }
    }

    fn try_position(&mut self, rest: &str) -> Result<(), PositionError> {
        let p = parse_position(rest)?;
        let fen = match (&p.fen, p.sfen) {
            (Some(f), true) => Some(super::usi::sfen_to_fen(f, &self.engine.game().describe())?),
            (f, _) => f.clone(),
        };
        let w = self.move_writer();
        let moves = p.moves.iter().map(|m| w.read(m)).collect::<Result<Vec<String>, _>>()?;
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.engine.set_position(fen.as_deref(), &moves).map_err(|e| match e {
            // Name the move as the GUI wrote it.
            PositionError::Move(m) => PositionError::Move(m.written(|t| w.write(t))),
            e => e,
        })
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
        self.start_bench(depth);
    }
}

/// What a UCI or USI command does during a search (see [`Timing`]).
pub fn timing(cmd: &str) -> Timing {
    match cmd {
        "d" | "fen" | "moves" | "result" | "eval" | "variant" => Timing::ReadOnly,
        "uci" | "usi" | "xboard" | "ucinewgame" | "usinewgame" | "setoption" | "position" | "go" | "bench" => {
            Timing::Change
        }
        "" | "isready" | "stop" | "ponderhit" | "quit" | "gameover" => Timing::Urgent,
        _ => Timing::Now,
    }
}

/// `name <name words> [value <value words>]` (our parser: the UCI crate
/// drops names it does not expect).
pub fn parse_setoption(rest: &str) -> Result<(String, Option<String>), String> {
    let rest = rest
        .strip_prefix("name")
        .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
        .ok_or("setoption: expected 'name'")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let v = words.iter().position(|&w| w == "value");
    let (name, value) = match v {
        Some(i) => (words[..i].join(" "), Some(words[i + 1..].join(" "))),
        None => (words.join(" "), None),
    };
    if name.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    Ok((name, value))
}
