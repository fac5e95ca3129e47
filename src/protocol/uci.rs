//! UCI, and the commands USI shares with it: [`UciLike`] is the protocol
//! type for both, in the words of a [`Dialect`]: [`Uci`] here,
//! [`Usi`](super::Usi) in `usi.rs`.

use super::core::{Core, result_words};
use super::parse::{GoCmd, parse_position};
use super::text::MoveText;
use super::{Flow, Mode, Protocol, Timing};
use crate::errors::PositionError;
use crate::search::{Event, Info, Score};
use crate::timeman::Limits;
use crate::wdl::WdlModel;
use std::fmt::Display;
use std::io::Write;
use vampirc_uci::UciMessage;

pub const ENGINE_NAME: &str = concat!("calvin ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the calvin developers";

/// The line the engine prints first when it starts, as Stockfish does:
/// `calvin <version> by the calvin developers`.
pub fn banner() -> String {
    format!("{ENGINE_NAME} by {ENGINE_AUTHOR}")
}

/// The `info ...` line for a search report, moves written by `w`; with a
/// win-rate model (`UCI_ShowWDL`), `wdl W D L` follows the score.
pub fn info_line(i: &Info, w: &MoveText, wdl: Option<WdlModel>) -> String {
    let mut score = match i.score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    if let Some(model) = wdl {
        let [win, draw, loss] = model.wdl(i.score);
        score += &format!(" wdl {win} {draw} {loss}");
    }
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

/// What USI changes in UCI's commands and output (USI is UCI's dialect for
/// shogi: see `usi.rs`).
pub trait Dialect {
    /// The dialect as a [`Mode`]: its option names and move texts.
    const MODE: Mode;
    /// The end of the handshake (`uciok`).
    const OK: &'static str;
    /// Whether `go` takes USI's `byoyomi`.
    const BYOYOMI: bool;
    /// The search limits from `go`'s clocks (and USI's `byoyomi`).
    fn limits(l: Limits, byoyomi: Option<u64>) -> Limits;
    /// The `bestmove` line of a search without a move (the game is over;
    /// `stm_won`: the side to move has won).
    fn no_move(stm_won: bool) -> &'static str;
}

/// UCI, the protocol the engine starts in.
pub type Uci<'a, W> = UciLike<'a, W, UciDialect>;

/// UCI's words.
pub struct UciDialect;

impl Dialect for UciDialect {
    const MODE: Mode = Mode::Uci;
    const OK: &'static str = "uciok";
    const BYOYOMI: bool = false;
    fn limits(l: Limits, _: Option<u64>) -> Limits {
        l
    }
    fn no_move(_: bool) -> &'static str {
        "bestmove (none)"
    }
}

/// UCI or USI over the session's core: the commands both protocols have,
/// in the words of dialect `D`.
pub struct UciLike<'a, W: Write, D: Dialect> {
    pub core: &'a mut Core<W>,
    pub dialect: D,
}

impl<W: Write, D: Dialect> Protocol for UciLike<'_, W, D> {
    fn timing(&self, cmd: &str, _: &str) -> Timing {
        timing(cmd)
    }

    fn execute(&mut self, line: &str) -> Flow {
        let (cmd, rest) = super::split_command(line.trim());
        match cmd {
            "" => {}
            "uci" => return Flow::Switch(Mode::Uci),
            "usi" => return Flow::Switch(Mode::Usi),
            "xboard" => return Flow::Switch(Mode::Cecp),
            "isready" => self.core.say(&UciMessage::ReadyOk.to_string()),
            "ucinewgame" | "usinewgame" => self.core.engine.new_game(),
            "stop" | "gameover" => self.core.stop_search(),
            "ponderhit" => self.core.ponderhit(),
            "quit" => return Flow::Quit,
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "result" if !rest.trim().is_empty() => self.forfeit(rest),
            "d" | "fen" | "moves" | "result" | "eval" | "variant" | "pieces" => self.report(cmd),
            "bench" => self.bench(rest),
            _ => self.error(&format!("unknown command '{cmd}'")),
        }
        Flow::Continue
    }

    fn on_event(&mut self, ev: Event) {
        let w = self.writer();
        match ev {
            Event::Info(i) => {
                let wdl = self.core.show_wdl.then(|| self.core.engine.game().wdl_model());
                let l = info_line(&i, &w, wdl);
                self.core.say(&l);
            }
            Event::BestMove { best, ponder, over } => {
                let game = self.core.engine.game();
                let stm_won = over.as_ref().is_some_and(|o| o.winner == Some(game.side_to_move()));
                if let Some(o) = &over {
                    self.core.say(&format!("info string game over {}", result_words(o)));
                }
                let l = match (best, ponder) {
                    (Some(b), Some(p)) => format!("bestmove {} ponder {}", w.write(&b), w.write(&p)),
                    (Some(b), None) => format!("bestmove {}", w.write(&b)),
                    (None, _) => D::no_move(stm_won).to_string(),
                };
                self.core.say(&l);
            }
        }
    }

    fn error(&mut self, msg: &dyn Display) {
        self.core.say(&format!("info string error {msg}"));
    }

    /// The handshake's `id`, options and `uciok` / `usiok`.
    fn enter(&mut self) {
        self.core.say(&UciMessage::id_name(ENGINE_NAME).to_string());
        self.core.say(&UciMessage::id_author(ENGINE_AUTHOR).to_string());
        for o in super::options::options(self.core.engine.variant()) {
            self.core.say(&super::options::uci_line(&o, D::MODE));
        }
        self.core.say(D::OK);
    }
}

impl<W: Write, D: Dialect> UciLike<'_, W, D> {
    /// The dialect's move texts.
    fn writer(&self) -> MoveText {
        self.core.move_text(D::MODE)
    }

    /// `setoption name <name> [value <value>]`; a new variant is announced.
    fn setoption(&mut self, rest: &str) {
        let set = parse_setoption(rest)
            .map_err(|e| e.to_string())
            .and_then(|(name, value)| self.core.set_option(&name, value.as_deref()).map_err(|e| e.to_string()));
        match set {
            Ok(super::options::Changed::Variant) => {
                let l = self.core.variant_line();
                self.core.say(&l);
            }
            Ok(super::options::Changed::Weights(done)) => self.core.say(&format!("info string {done}")),
            Ok(_) => {}
            Err(e) => self.error(&e),
        }
    }

    /// `go ...`: a search, or `go perft <depth>`.
    fn go(&mut self, rest: &str) {
        match super::parse::parse_go_usi(rest) {
            Ok((_, Some(_))) if !D::BYOYOMI => self.error(&"go: unknown parameter 'byoyomi'"),
            Ok((GoCmd::Perft(d), _)) => {
                let w = self.writer();
                self.core.start_perft(d, w);
            }
            Ok((GoCmd::Search(mut l), byoyomi)) => {
                // Each move must be legal here: the first that is not gets
                // one error line and no search starts.
                let w = self.writer();
                let game = self.core.engine.game();
                let checked: Result<Vec<String>, _> = l
                    .searchmoves
                    .iter()
                    .map(|m| w.read(m).and_then(|c| game.legal_move_text(&c).map_err(|e| e.written(|t| w.write(t)))))
                    .collect();
                match checked {
                    Ok(moves) => {
                        l.searchmoves = moves;
                        self.core.start_search(D::limits(l, byoyomi))
                    }
                    Err(e) => self.error(&format!("go searchmoves: {e}")),
                }
            }
            Err(e) => self.error(&e),
        }
    }

    /// `result forfeit [white|black]`: the result if that side (by default
    /// the side to move) lost on time now, as the variant scores a forfeit
    /// (a plain loss, or a score pair where the game keeps scores), so that a
    /// GUI with its own clock gives the variant's time result.
    fn forfeit(&mut self, rest: &str) {
        let side = match rest.split_whitespace().collect::<Vec<_>>()[..] {
            ["forfeit"] => None,
            ["forfeit", "white"] => Some(0),
            ["forfeit", "black"] => Some(1),
            _ => return self.error(&format!("result: expected 'result forfeit [white|black]', got '{}'", rest.trim())),
        };
        let g = self.core.engine.game();
        let o = g.forfeit(side.unwrap_or_else(|| g.side_to_move()), "time");
        self.core.say(&format!("info string result {}", result_words(&o)));
    }

    /// The read-only commands, answered from the current position (the one
    /// being searched while a search runs).
    fn report(&mut self, cmd: &str) {
        let g = self.core.engine.game();
        let l = match cmd {
            "d" => format!("{}\nFen: {}\nKey: {:016X}", self.core.board_picture(), g.fen(), g.key()),
            "fen" => format!("info string fen {}", g.fen()),
            "moves" => {
                let w = self.writer();
                let l: Vec<String> = g.legal_moves().iter().map(|m| w.write(m)).collect();
                format!("info string moves {}", l.join(" "))
            }
            "result" => match g.outcome() {
                Some(o) => format!("info string result {}", result_words(&o)),
                None => "info string result none".to_string(),
            },
            "eval" => {
                let e = self.core.engine.evaluation();
                let t = g.eval_terms(&e);
                let terms = format!(
                    "info string eval {} white {} material {} hand {} variant {} positional {} learned {}\ninfo string weights {}",
                    t.total,
                    t.material + t.hand + t.variant + t.positional,
                    t.material,
                    t.hand,
                    t.variant,
                    t.positional,
                    t.learned,
                    e.pieces.source
                );
                match g.network_eval(&e) {
                    Some((e, source)) => format!("{terms}\ninfo string network eval {e} weights {source}"),
                    None => terms,
                }
            }
            "variant" => self.core.variant_line(),
            "pieces" => pieces_lines(g),
            _ => return,
        };
        self.core.say(&l);
    }

    /// `position startpos|fen <FEN>|sfen <SFEN> [moves ...]`: on any error
    /// the position is kept.
    fn position(&mut self, rest: &str) {
        if let Err(e) = self.try_position(rest) {
            self.error(&e);
        }
    }

    fn try_position(&mut self, rest: &str) -> Result<(), PositionError> {
        let p = parse_position(rest)?;
        let fen = match (&p.fen, p.sfen) {
            (Some(f), true) => Some(super::usi::sfen_to_fen(f, &self.core.engine.game().describe())?),
            (f, _) => f.clone(),
        };
        let w = self.writer();
        let moves = p.moves.iter().map(|m| w.read(m)).collect::<Result<Vec<String>, _>>()?;
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        self.core.engine.set_position(fen.as_deref(), &moves).map_err(|e| match e {
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
                _ => return self.error(&"bench: depth must be 1..30"),
            },
        };
        self.core.start_bench(depth);
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

/// `pieces`: one `info string piece <letter> <name>: <moves>` line per piece
/// type of the variant (the legend's order; a piece with no description
/// gets its name only), then `info string rules <sentence>` where the
/// variant has rules a player must know beyond the moves, then
/// `info string notation san` or `info string notation lan`: the notation
/// of the variant's game records (SAN, or the engine's move text).
fn pieces_lines(g: &dyn crate::engine_game::EngineGame) -> String {
    let defs = g.describe().pieces;
    let (moves, note) = g.piece_moves();
    let mut out: Vec<String> = moves
        .iter()
        .filter_map(|(letter, text)| {
            let def = defs.iter().find(|d| d.letter == *letter)?;
            Some(format!("info string piece {letter} {}: {text}", def.name))
        })
        .collect();
    for d in defs.iter().filter(|d| !moves.iter().any(|(l, _)| *l == d.letter)) {
        out.push(format!("info string piece {} {}", d.letter, d.name));
    }
    if !note.is_empty() {
        out.push(format!("info string rules {note}"));
    }
    out.push(format!("info string notation {}", if g.san() { "san" } else { "lan" }));
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::pieces_lines;
    use crate::registry::{RuleOptions, VariantId};

    #[test]
    fn every_piece_of_every_variant_is_described() {
        // Under every set of tables (IAGO's with the Amazon too), each piece
        // type gets a line with words after its name, in the legend's order.
        let mut lines = 0;
        for rules in RuleOptions::each_table() {
            for &v in VariantId::ALL {
                let g = v.engine_game(&rules);
                let text = pieces_lines(g.as_ref());
                let pieces: Vec<&str> = text.lines().filter(|l| l.starts_with("info string piece ")).collect();
                assert_eq!(pieces.len(), g.describe().pieces.len(), "{}", v.name());
                assert!(pieces.iter().all(|l| l.split_once(": ").is_some_and(|(_, w)| w.len() > 10)), "{text}");
                lines += pieces.len();
            }
        }
        // 6 + 8 + 8 + 7 + 7 + 13 + 6 pieces, then with IAGO's Amazon.
        assert_eq!(lines, 55 + 57);
        let chess = VariantId::from_name("chess").map(|v| v.engine_game(&RuleOptions::default()));
        let first = chess.map(|g| pieces_lines(g.as_ref()).lines().next().map(String::from));
        assert_eq!(
            first.flatten().as_deref(),
            Some("info string piece K King: one step in any direction; castles with a rook")
        );
    }

    #[test]
    fn the_notation_line_follows_the_variants_declaration() {
        let last = |v: VariantId| {
            let text = pieces_lines(v.engine_game(&RuleOptions::default()).as_ref());
            text.lines().last().unwrap_or_default().to_string()
        };
        // Every variant ends its answer with one of the two.
        for &v in VariantId::ALL {
            let line = last(v);
            assert!(line == "info string notation san" || line == "info string notation lan", "{}: {line}", v.name());
        }
        let notation = |name: &str| VariantId::from_name(name).map(|v| last(v).replace("info string notation ", ""));
        let names = ["chess", "iago-b", "iago-c", "historia-sako", "ita", "ito-shogi", "etcetera"];
        let got: Vec<Option<String>> = names.iter().map(|n| notation(n)).collect();
        let want = ["san", "san", "san", "san", "lan", "lan", "lan"].map(|n| Some(n.to_string()));
        assert_eq!(got, want);
    }
}
