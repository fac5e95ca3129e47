//! Parsing of `position` and `go` (our own code: the UCI crate only knows 8x8).

use crate::errors::PositionError;
use crate::timeman::Limits;

#[derive(Debug, PartialEq, Eq)]
pub struct PositionCmd<'a> {
    pub fen: Option<String>,
    /// The position was given as `sfen` (USI's form).
    pub sfen: bool,
    pub moves: Vec<&'a str>,
}

/// The most moves a `position` command may list (replaying is quadratic in
/// the moves for the repetition rules). Ita, with no repetition rule, can
/// outlast it: a longer game cannot be given to the engine.
pub const MAX_POSITION_MOVES: usize = 20_000;

/// `startpos [moves ...]` or `fen <fields> [moves ...]`.
pub fn parse_position(rest: &str) -> Result<PositionCmd<'_>, PositionError> {
    let bad = |s: String| Err(PositionError::Command(s));
    let mut tokens = rest.split_whitespace();
    let first = tokens.next();
    let fen = match first {
        Some("startpos") => None,
        Some("fen") | Some("sfen") => {
            let mut fields = Vec::new();
            let mut it = tokens.clone();
            for t in it.by_ref() {
                if t == "moves" {
                    break;
                }
                fields.push(t);
            }
            // Re-sync `tokens` to just before "moves".
            for _ in 0..fields.len() {
                tokens.next();
            }
            if fields.is_empty() {
                return bad("position fen: the FEN is missing".into());
            }
            Some(fields.join(" "))
        }
        Some(t) => return bad(format!("position: expected startpos or fen, got '{t}'")),
        None => return bad("position: expected startpos or fen".into()),
    };
    let moves: Vec<&str> = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens.collect(),
        Some(t) => return bad(format!("position: unexpected '{t}'")),
    };
    if moves.len() > MAX_POSITION_MOVES {
        return Err(PositionError::TooManyMoves(MAX_POSITION_MOVES));
    }
    Ok(PositionCmd { fen, sfen: first == Some("sfen"), moves })
}

#[derive(Debug, PartialEq, Eq)]
pub enum GoCmd {
    Search(Limits),
    Perft(u32),
}

const GO_WORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// `go` arguments. Numbers must be non-negative integers (negative clock
/// times, which some GUIs send, count as 0).
pub fn parse_go(rest: &str) -> Result<GoCmd, String> {
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    let mut l = Limits::default();
    let mut i = 0;
    let num = |i: usize, name: &str| -> Result<u64, String> {
        let t = tokens.get(i + 1).ok_or_else(|| format!("go {name}: a number is missing"))?;
        if let Ok(v) = t.parse::<u64>() {
            Ok(v)
        } else if let Ok(v) = t.parse::<i64>() {
            Ok(v.max(0) as u64)
        } else {
            Err(format!("go {name}: '{t}' is not a number"))
        }
    };
    while i < tokens.len() {
        let w = tokens[i];
        match w {
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "searchmoves" => {
                while i + 1 < tokens.len() && !GO_WORDS.contains(&tokens[i + 1]) {
                    l.searchmoves.push(tokens[i + 1].to_string());
                    i += 1;
                }
                i += 1;
                continue;
            }
            "perft" => {
                let d = num(i, w)?;
                if d == 0 || d > 64 {
                    return Err("go perft: depth must be 1..64".into());
                }
                return Ok(GoCmd::Perft(d as u32));
            }
            _ => {
                let v = num(i, w)?;
                match w {
                    "wtime" => l.wtime = Some(v),
                    "btime" => l.btime = Some(v),
                    "winc" => l.winc = Some(v),
                    "binc" => l.binc = Some(v),
                    "movestogo" => l.movestogo = Some(v.min(u32::MAX as u64) as u32),
                    "depth" => l.depth = Some(v.clamp(1, 1000) as i32),
                    "nodes" => l.nodes = Some(v),
                    "mate" => l.mate = Some(v.clamp(1, 1000) as i32),
                    "movetime" => l.movetime = Some(v),
                    _ => return Err(format!("go: unknown parameter '{w}'")),
                }
                i += 2;
                continue;
            }
        }
        i += 1;
    }
    Ok(GoCmd::Search(l))
}

/// USI's `go`: as UCI's plus `byoyomi <ms>`, returned apart.
pub fn parse_go_usi(rest: &str) -> Result<(GoCmd, Option<u64>), String> {
    let tokens: Vec<&str> = rest.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut byoyomi = None;
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "byoyomi" {
            let t = tokens.get(i + 1).ok_or("go byoyomi: a number is missing")?;
            let v = t.parse::<i64>().map_err(|_| format!("go byoyomi: '{t}' is not a number"))?;
            byoyomi = Some(v.max(0) as u64);
            i += 2;
        } else {
            kept.push(tokens[i]);
            i += 1;
        }
    }
    Ok((parse_go(&kept.join(" "))?, byoyomi))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn position_forms() {
        assert_eq!(parse_position("startpos").unwrap(), PositionCmd { fen: None, sfen: false, moves: vec![] });
        let p = parse_position("fen 8/8/8/8/8/8/8/8 w - - 0 1 moves a10a9 N@c1").unwrap();
        assert_eq!(p.fen.as_deref(), Some("8/8/8/8/8/8/8/8 w - - 0 1"));
        assert_eq!(p.moves, vec!["a10a9", "N@c1"]);
        assert!(parse_position("fen").is_err());
        assert!(parse_position("startpos e2e4").is_err());
        assert!(parse_position("banana").is_err());
    }
    #[test]
    fn go_forms() {
        let GoCmd::Search(l) =
            parse_go("wtime 1000 btime -5 winc 10 depth 256 searchmoves e2e4 d2d4 movetime 50").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.depth, l.movetime),
            (Some(1000), Some(0), Some(10), Some(256), Some(50))
        );
        assert_eq!(l.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(parse_go("perft 3").unwrap(), GoCmd::Perft(3));
        assert!(parse_go("depth x").is_err());
        assert!(parse_go("depth").is_err());
        assert!(parse_go("sideways 3").is_err());
        assert!(parse_go("mate 300").is_ok());
    }
}
