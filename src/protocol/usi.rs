//! USI (the shogi protocol), entered with `usi`. It shares UCI's commands
//! (see `uci.rs`) with these differences: `usiok`, `usinewgame`, `gameover`,
//! the options `USI_Hash`, `USI_Ponder`, `USI_Variant`; `position sfen`
//! takes an SFEN; `go` reads `btime`/`binc` as the first player's clock
//! (USI's "black", our White) and `wtime`/`winc` as the second's, plus
//! `byoyomi`; drops are written `P*a13`; `bestmove resign` / `bestmove win`
//! when the game is already over.

use super::Mode;
use super::uci::{Dialect, UciLike};
use crate::errors::PositionError;
use crate::game::VariantDesc;
use crate::timeman::Limits;

/// USI: UCI's commands ([`UciLike`]) in the words of shogi GUIs.
pub type Usi<'a, W> = UciLike<'a, W, UsiDialect>;

/// USI's words.
pub struct UsiDialect;

impl Dialect for UsiDialect {
    const MODE: Mode = Mode::Usi;
    const OK: &'static str = "usiok";
    const BYOYOMI: bool = true;
    fn limits(l: Limits, byoyomi: Option<u64>) -> Limits {
        usi_limits(l, byoyomi)
    }
    fn no_move(stm_won: bool) -> &'static str {
        if stm_won { "bestmove win" } else { "bestmove resign" }
    }
}

/// USI's clocks to ours: USI's `btime` is the first player's (sente's)
/// time, which is our White's. Byoyomi is time per move once the main time
/// is used up (see [`crate::timeman::TimeManager::new`]).
pub fn usi_limits(mut l: Limits, byoyomi: Option<u64>) -> Limits {
    std::mem::swap(&mut l.wtime, &mut l.btime);
    std::mem::swap(&mut l.winc, &mut l.binc);
    l.byoyomi = byoyomi.filter(|&b| b > 0);
    l
}

/// An SFEN (`<board> <b|w> <hand|-> [<move number>]`) as our FEN. USI's `b`
/// (sente, black) moves first: it is our White (`w`). The hand lists counts
/// before letters (`2Pp`), upper case for the first player. A text that is
/// already our FEN (a `[hand]` or more fields) is taken as it is.
pub fn sfen_to_fen(sfen: &str, d: &VariantDesc) -> Result<String, PositionError> {
    sfen_fields(sfen, d).map_err(PositionError::Sfen)
}

fn sfen_fields(sfen: &str, d: &VariantDesc) -> Result<String, String> {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    if f.first().is_some_and(|b| b.contains('[')) || f.len() > 4 {
        return Ok(sfen.to_string());
    }
    if f.len() < 3 {
        return Err("position sfen: expected board, side and hand".into());
    }
    let side = match f[1] {
        "b" => "w",
        "w" => "b",
        s => return Err(format!("position sfen: side '{s}' is not b or w")),
    };
    let mut hand = String::new();
    if f[2] != "-" {
        let mut n = 0usize;
        for c in f[2].chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d as usize;
                if n > 99 {
                    return Err("position sfen: too many pieces in hand".into());
                }
            } else if c.is_ascii_alphabetic() {
                for _ in 0..n.max(1) {
                    hand.push(c);
                }
                n = 0;
            } else {
                return Err(format!("position sfen: unexpected '{c}' in the hand"));
            }
        }
    }
    if d.hand_types.is_empty() && !hand.is_empty() {
        return Err(format!("position sfen: {} has no hand", d.name));
    }
    let ply: u32 = match f.get(3) {
        Some(m) => m.parse().map_err(|_| format!("position sfen: bad move number '{m}'"))?,
        None => 1,
    };
    let full = ply.max(1).div_ceil(2);
    let board = if d.hand_types.is_empty() { f[0].to_string() } else { format!("{}[{hand}]", f[0]) };
    Ok(format!("{board} {side} - - 0 {full}"))
}

/// Our FEN as an SFEN (board, side, hand, move number).
pub fn fen_to_sfen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let (board, hand) = match f.first().and_then(|b| b.split_once('[')) {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (f.first().copied().unwrap_or(""), ""),
    };
    let white = f.get(1) != Some(&"b");
    let side = if white { "b" } else { "w" };
    let mut hs = String::new();
    let mut chars: Vec<char> = hand.chars().collect();
    chars.dedup();
    for c in chars {
        let n = hand.chars().filter(|&x| x == c).count();
        if n > 1 {
            hs += &n.to_string();
        }
        hs.push(c);
    }
    if hs.is_empty() {
        hs.push('-');
    }
    let full: u32 = f.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let ply = 2 * full - if white { 1 } else { 0 };
    format!("{board} {side} {hs} {ply}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::new_game;
    #[test]
    fn sfen_round_trip() {
        let d = new_game("ito-shogi").unwrap().describe();
        let fen = d.start_fen;
        let sfen = fen_to_sfen(fen);
        assert_eq!(sfen, "k/1/1/1/s/g/1/h/c/1/1/t/p/1/1/1/1/1/P/T/1/1/C/H/1/G/S/1/1/1/K b - 1");
        assert_eq!(sfen_to_fen(&sfen, &d).unwrap(), fen);
        assert_eq!(sfen_to_fen("k/30 w 2Pt 6", &d).unwrap(), "k/30[PPt] b - - 0 3");
        assert!(sfen_to_fen("k/30 x - 1", &d).is_err());
        let l = usi_limits(Limits { btime: Some(0), wtime: Some(0), ..Limits::default() }, Some(3000));
        assert_eq!(l.byoyomi, Some(3000));
        let l = usi_limits(Limits { btime: Some(60000), wtime: Some(1000), ..Limits::default() }, None);
        assert_eq!((l.wtime, l.btime), (Some(60000), Some(1000)));
    }
}
