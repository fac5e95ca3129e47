//! The referee: a calvin process asked, over UCI, what the variants are, which
//! moves are legal, what the position is and whether the game is over.

use crate::engine::{describe, spawn};
use calvin_uci_client::{Error, Process};
use std::time::Duration;

/// A long deadline: a loaded machine must not make the board fail.
const ANSWER: Duration = Duration::from_secs(20);

/// One variant as the engine's variant line describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantInfo {
    pub name: String,
    pub files: u32,
    pub ranks: u32,
    pub pocket: u32,
    pub template: String,
    pub startpos: String,
    /// The pieces as the engine's `pieces` command names them, in the
    /// legend's order, and the rules beyond the moves (may be empty).
    pub pieces: Vec<PieceInfo>,
    pub rules: String,
    /// Whether the game record writes moves in SAN: the engine's
    /// `info string notation san` (`lan`: its own move text).
    pub san: bool,
}

/// One piece: FEN letter (`+X` for a promoted face), name and moves in words.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceInfo {
    pub letter: String,
    pub name: String,
    pub moves: String,
}

/// `info string piece <letter> <name>[: <moves>]`
pub fn parse_piece_line(line: &str) -> Option<PieceInfo> {
    let (letter, rest) = line.strip_prefix("info string piece ")?.split_once(' ')?;
    let (name, moves) = rest.split_once(": ").unwrap_or((rest, ""));
    Some(PieceInfo { letter: letter.to_string(), name: name.trim().to_string(), moves: moves.trim().to_string() })
}

/// `info string variant <name> files <F> ranks <R> pocket <N> template <T> startpos <FEN>`
pub fn parse_variant_line(line: &str) -> Option<VariantInfo> {
    let rest = line.strip_prefix("info string variant ")?;
    let (head, startpos) = rest.split_once(" startpos ")?;
    let w: Vec<&str> = head.split_whitespace().collect();
    if w.len() != 9 || w[1] != "files" || w[3] != "ranks" || w[5] != "pocket" || w[7] != "template" {
        return None;
    }
    Some(VariantInfo {
        name: w[0].to_string(),
        files: w[2].parse().ok()?,
        ranks: w[4].parse().ok()?,
        pocket: w[6].parse().ok()?,
        template: w[8].to_string(),
        startpos: startpos.trim().to_string(),
        pieces: Vec::new(),
        rules: String::new(),
        san: false,
    })
}

impl VariantInfo {
    /// Takes what the engine's `pieces` answer says: the pieces, the rules
    /// beyond the moves and the notation of game records.
    pub fn read_pieces(&mut self, lines: &[String]) {
        self.pieces = lines.iter().filter_map(|l| parse_piece_line(l)).collect();
        self.rules = lines.iter().find_map(|l| l.strip_prefix("info string rules ")).unwrap_or_default().to_string();
        self.san = lines.iter().any(|l| l.trim_end() == "info string notation san");
    }
}

/// The end of a game: `1-0`, an optional score pair (Ita) and the reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub result: String,
    pub score: Option<String>,
    pub reason: String,
}

/// `info string result none` or `info string result <R> [score <W>:<B>] reason <words>`.
pub fn parse_result_line(line: &str) -> Option<Option<Outcome>> {
    let rest = line.strip_prefix("info string result ")?.trim();
    if rest == "none" {
        return Some(None);
    }
    let (head, reason) = rest.split_once(" reason ")?;
    let mut w = head.split_whitespace();
    let result = w.next()?.to_string();
    let score = match (w.next(), w.next()) {
        (Some("score"), Some(s)) => Some(s.to_string()),
        (None, None) => None,
        _ => return None,
    };
    Some(Some(Outcome { result, score, reason: reason.to_string() }))
}

/// What the referee says about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub fen: String,
    pub legal: Vec<String>,
    /// The moves of the side not to move, as if it were to move (empty when
    /// the game is over or the side to move is in check; see
    /// [`Referee::other_side_moves`]).
    pub other: Vec<String>,
    pub outcome: Option<Outcome>,
    /// The result if the side to move lost on time here, as the variant
    /// scores a forfeit (`result forfeit`: Ita's `1:4`, a plain loss in chess).
    pub forfeit: Option<Outcome>,
}

/// A failed query to the referee process, as the board reports it.
fn failed(e: Error) -> String {
    format!("referee: {}", describe(&e, "isready"))
}

pub struct Referee {
    proc: Process,
    variant: String,
}

impl Referee {
    pub fn start(engine: &[String]) -> Result<Referee, String> {
        let mut proc = spawn(engine)?;
        let lines = proc.query(&["uci".into(), "setoption name Hash value 1".into()], ANSWER).map_err(failed)?;
        if !lines.iter().any(|l| l == "uciok") {
            return Err("referee: no uciok".into());
        }
        Ok(Referee { proc, variant: "chess".into() })
    }

    /// The engine's variant names (the `UCI_Variant` combo) and their variant lines.
    pub fn variants(&mut self) -> Result<Vec<VariantInfo>, String> {
        let lines = self.proc.query(&["uci".into()], ANSWER).map_err(failed)?;
        let names: Vec<String> = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant "))
            .map(|l| l.split(" var ").skip(1).map(|v| v.trim().to_string()).collect())
            .unwrap_or_default();
        let mut out = Vec::new();
        for name in names {
            let lines = self
                .proc
                .query(&[format!("setoption name UCI_Variant value {name}"), "pieces".into()], ANSWER)
                .map_err(failed)?;
            let mut info = lines
                .iter()
                .find_map(|l| parse_variant_line(l))
                .ok_or(format!("referee: no variant line for {name}"))?;
            info.read_pieces(&lines);
            out.push(info);
        }
        self.variant = out.last().map(|v| v.name.clone()).unwrap_or_default();
        if out.is_empty() {
            return Err("referee: the engine lists no variants".into());
        }
        Ok(out)
    }

    /// Sets up `fen` plus `moves` and reads back the FEN, the legal moves and
    /// the result. `Err` carries the engine's own error line (a bad FEN, an
    /// illegal move) or says that the referee stopped answering.
    pub fn judge(&mut self, variant: &str, fen: &str, moves: &[String]) -> Result<Verdict, String> {
        let mut cmds = Vec::new();
        if variant != self.variant {
            cmds.push(format!("setoption name UCI_Variant value {variant}"));
        }
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        cmds.extend([position, "fen".into(), "moves".into(), "result".into(), "result forfeit".into()]);
        let lines = self.proc.query(&cmds, ANSWER).map_err(|e| match e {
            Error::Exited => "the referee process has exited".to_string(),
            e => failed(e),
        })?;
        self.variant = variant.to_string();
        if let Some(err) = lines.iter().find_map(|l| l.strip_prefix("info string error ")) {
            return Err(err.to_string());
        }
        let fen = lines.iter().find_map(|l| l.strip_prefix("info string fen ")).ok_or("referee: no fen")?;
        let legal = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string moves"))
            .ok_or("referee: no moves")?
            .split_whitespace()
            .map(String::from)
            .collect();
        let mut results = lines.iter().filter_map(|l| parse_result_line(l));
        let outcome = results.next().ok_or("referee: no result")?;
        let forfeit = results.next().flatten();
        let fen = fen.trim().to_string();
        let other = if outcome.is_none() { self.other_side_moves(&fen) } else { Vec::new() };
        Ok(Verdict { fen, legal, other, outcome, forfeit })
    }
}

impl Referee {
    /// The moves the side not to move in `fen` (of the current variant)
    /// would have if it were to move: the legal moves of the same position
    /// with the other side to move and no en passant square. The engine
    /// refuses that position when the side to move is in check ("the side
    /// not to move is in check"): then, and on any other error, none.
    pub fn other_side_moves(&mut self, fen: &str) -> Vec<String> {
        let cmds = [format!("position fen {}", crate::san::other_side_to_move(fen)), "moves".into()];
        match self.proc.query(&cmds, ANSWER) {
            Ok(lines) if !lines.iter().any(|l| l.starts_with("info string error")) => lines
                .iter()
                .find_map(|l| l.strip_prefix("info string moves"))
                .map(|m| m.split_whitespace().map(String::from).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Whether the side to move in `fen` is in check: the referee refuses the
    /// same position with the other side to move ("the side not to move is
    /// in check"). Used for the `+` of SAN; an unanswered question is no check.
    pub fn in_check(&mut self, variant: &str, fen: &str) -> bool {
        let mut cmds = Vec::new();
        if variant != self.variant {
            cmds.push(format!("setoption name UCI_Variant value {variant}"));
        }
        cmds.push(format!("position fen {}", crate::san::other_side_to_move(fen)));
        match self.proc.query(&cmds, ANSWER) {
            Ok(lines) => {
                self.variant = variant.to_string();
                lines
                    .iter()
                    .any(|l| l.starts_with("info string error") && l.ends_with("the side not to move is in check"))
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_variant_line() {
        let v = parse_variant_line("info string variant ito-shogi files 1 ranks 31 pocket 6 template shogi startpos k/1/1/1/s/g/1/h/c/1/1/t/p/1/1/1/1/1/P/T/1/1/C/H/1/G/S/1/1/1/K[] w - - 0 1").unwrap();
        assert_eq!(
            (v.name.as_str(), v.files, v.ranks, v.pocket, v.template.as_str()),
            ("ito-shogi", 1, 31, 6, "shogi")
        );
        assert_eq!(v.startpos, "k/1/1/1/s/g/1/h/c/1/1/t/p/1/1/1/1/1/P/T/1/1/C/H/1/G/S/1/1/1/K[] w - - 0 1");
        assert_eq!(parse_variant_line("info string variant x files 8"), None);
        assert_eq!(
            parse_variant_line("info string variant x files 8 ranks y pocket 0 template fairy startpos 8/8 w"),
            None
        );
    }

    #[test]
    fn reads_piece_lines() {
        assert_eq!(
            parse_piece_line("info string piece +T Silver General: step 1 forward, or jump 2 forward or back"),
            Some(PieceInfo {
                letter: "+T".into(),
                name: "Silver General".into(),
                moves: "step 1 forward, or jump 2 forward or back".into()
            })
        );
        assert_eq!(
            parse_piece_line("info string piece X Mystery"),
            Some(PieceInfo { letter: "X".into(), name: "Mystery".into(), moves: String::new() })
        );
        assert_eq!(parse_piece_line("info string piece K"), None);
        assert_eq!(parse_piece_line("info string rules stalemate wins"), None);
    }

    #[test]
    fn reads_result_lines() {
        assert_eq!(parse_result_line("info string result none"), Some(None));
        assert_eq!(
            parse_result_line("info string result 0-1 score 1:4 reason flags captured"),
            Some(Some(Outcome { result: "0-1".into(), score: Some("1:4".into()), reason: "flags captured".into() }))
        );
        assert_eq!(
            parse_result_line("info string result 1/2-1/2 reason threefold repetition"),
            Some(Some(Outcome { result: "1/2-1/2".into(), score: None, reason: "threefold repetition".into() }))
        );
        assert_eq!(parse_result_line("info string result 1-0 banana"), None);
        assert_eq!(parse_result_line("info string fen x"), None);
    }
}
