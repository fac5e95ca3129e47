//! Move texts as each mode writes them. The engine speaks canonical UCI
//! (`e2e4`, `e7e8q`, `N@c1`, `a10a9`); the modes differ:
//! - UCI: canonical, or with the variant's native square names where it
//!   has them (Ita's, option `ItaNotation native`: the variant's native
//!   notation where it renames squares, [`crate::variants::NativeWriter`];
//!   IAGO's seed notation comes written by the position);
//! - USI: drops are written `P*e4`; native names as in UCI;
//! - CECP: on boards of exactly 10 ranks XBoard counts ranks from 0
//!   (`a0`..`j9`); drops `P@e4` as in UCI.

use super::Mode;
use super::core::Core;
use crate::errors::MoveError;
use crate::variants::SquareNames;
use std::io::Write;

/// Converts move texts between the engine and the GUI for one mode and variant.
#[derive(Clone, Copy)]
pub struct MoveText {
    pub mode: Mode,
    /// The variant's native square names, when chosen (UCI and USI), and
    /// the option that chose them.
    pub native: Option<(&'static str, &'static SquareNames)>,
    /// The board has exactly 10 ranks and the mode is CECP.
    pub zero_based_ranks: bool,
}

/// Rewrites every square (a lower-case letter and digits) of a move text
/// with `f`; other characters stay. `None` if `f` refuses a square.
pub fn map_squares(text: &str, mut f: impl FnMut(char, u32) -> Option<(char, u32)>) -> Option<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_ascii_lowercase() && i + 1 < c.len() && c[i + 1].is_ascii_digit() {
            let file = c[i];
            let mut j = i + 1;
            while j < c.len() && c[j].is_ascii_digit() {
                j += 1;
            }
            let digits: String = c[i + 1..j].iter().collect();
            let rank: u32 = digits.parse().ok()?;
            let (f2, r2) = f(file, rank)?;
            out.push(f2);
            out += &r2.to_string();
            i = j;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    Some(out)
}

impl MoveText {
    /// The engine's move as the GUI reads it.
    pub fn write(&self, m: &str) -> String {
        if m == "0000" {
            return if self.mode == Mode::Cecp { "@@@@".into() } else { m.into() };
        }
        match self.mode {
            Mode::Uci | Mode::Usi => {
                let m = if self.mode == Mode::Usi { m.replacen('@', "*", 1) } else { m.to_string() };
                match self.native {
                    Some((_, n)) => (n.move_to_native)(&m).unwrap_or(m),
                    None => m,
                }
            }
            Mode::Cecp => {
                if self.zero_based_ranks {
                    map_squares(m, |f, r| Some((f, r - 1))).unwrap_or_else(|| m.into())
                } else {
                    m.into()
                }
            }
        }
    }

    /// The GUI's move text in the engine's notation. Errors say why the
    /// text is not a move of this notation.
    pub fn read(&self, m: &str) -> Result<String, MoveError> {
        match self.mode {
            Mode::Uci | Mode::Usi => {
                let m = if self.mode == Mode::Usi { m.replacen('*', "@", 1) } else { m.to_string() };
                match self.native {
                    Some((option, n)) if m != "0000" => (n.move_to_canonical)(&m)
                        .ok_or_else(|| MoveError::NotNative { notation: option.trim_end_matches("Notation"), text: m }),
                    _ => Ok(m),
                }
            }
            Mode::Cecp => {
                if m == "@@@@" {
                    return Ok("0000".into());
                }
                if self.zero_based_ranks {
                    map_squares(m, |f, r| r.checked_add(1).map(|r| (f, r)))
                        .ok_or_else(|| MoveError::NotAMove { text: m.into() })
                } else {
                    Ok(m.into())
                }
            }
        }
    }
}

impl<W: Write> Core<W> {
    /// The board picture of `d`, with the native file names when chosen (UCI, USI).
    pub fn board_picture(&self) -> String {
        let p = self.engine.game().pretty();
        let Some((_, native)) = self.move_text(Mode::Uci).native else {
            return p;
        };
        let mut lines: Vec<String> = p.lines().map(String::from).collect();
        if let Some(last) = lines.iter_mut().rev().find(|l| !l.trim().is_empty()) {
            let mut s = String::from("  ");
            for f in native.file_names {
                s += &format!("{f:^3} ");
            }
            *last = s;
        }
        let mut out = lines.join("\n");
        if p.ends_with('\n') {
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn conversions() {
        let usi = MoveText { mode: Mode::Usi, native: None, zero_based_ranks: false };
        assert_eq!(usi.write("P@a13"), "P*a13");
        assert_eq!(usi.read("P*a13").unwrap(), "P@a13");
        let cecp10 = MoveText { mode: Mode::Cecp, native: None, zero_based_ranks: true };
        assert_eq!(cecp10.write("e2e3"), "e1e2");
        assert_eq!(cecp10.write("a10a9"), "a9a8");
        assert_eq!(cecp10.read("a9a8").unwrap(), "a10a9");
        assert_eq!(cecp10.read("e0e1").unwrap(), "e1e2");
        assert_eq!(cecp10.read("e5a5,a5e5").unwrap(), "e6a6,a6e6");
        let ita = crate::registry::new_game_with("ita", &Default::default()).unwrap().native_notation().unwrap();
        let native =
            MoveText { mode: Mode::Uci, native: Some((ita.option, ita.squares().unwrap())), zero_based_ranks: false };
        assert_eq!(native.write("f2f3"), "œ2œ3");
        assert_eq!(native.read("lz1lz7").unwrap(), "g1g7");
        assert!(native.read("b1b2").is_err());
        assert_eq!(map_squares("N@c1", |f, r| Some((f, r + 1))).unwrap(), "N@c2");
        assert_eq!(map_squares("e7e8q", |f, r| Some((f, r))).unwrap(), "e7e8q");
    }

    use crate::position::Position;
    use crate::registry::{RuleOption, RuleOptions, VariantId, new_game_with};
    use crate::variants::{EngineVariant, NativeWriter, VariantVisitor, iago};

    /// Writes every legal move of the variant's bench positions and `fens`
    /// in its native notation as the protocol does (the position's text,
    /// then [`MoveText::write`]) and reads it back ([`MoveText::read`], then
    /// the position); returns how many moves it tried.
    struct RoundTrip<'a> {
        word: u32,
        fens: &'a [&'a str],
    }

    impl VariantVisitor for RoundTrip<'_> {
        type Out = usize;
        fn visit<V: EngineVariant>(self) -> usize {
            let n = V::native_notation().expect("a native notation");
            let w = MoveText { mode: Mode::Uci, native: n.squares().map(|s| (n.option, s)), zero_based_ranks: false };
            let mut tried = 0;
            for fen in V::BENCH.iter().chain(self.fens) {
                let pos = Position::<V>::from_fen_with(fen, self.word).expect(fen);
                let legal = pos.legal_moves();
                let mut seen = std::collections::HashSet::new();
                for &m in &legal {
                    let text = w.write(&pos.move_to_uci(m));
                    // The native text is written, and it is no other move's.
                    assert_ne!(text, pos.move_to_canonical(m), "{fen}");
                    assert!(seen.insert(text.clone()), "{text} twice in {fen}");
                    let back = w.read(&text).unwrap_or_else(|e| panic!("{text} in {fen}: {e}"));
                    assert_eq!(pos.parse_uci_move(&back), Ok(m), "{text} in {fen}");
                }
                tried += legal.len();
            }
            tried
        }
    }

    /// The moves tried in `variant` under `rules`, its native notation chosen
    /// through its declaration as the protocol chooses it.
    fn round_trip(variant: &str, rules: &[(RuleOption, &str)], fens: &[&str]) -> usize {
        let mut r = RuleOptions::default();
        for (o, v) in rules {
            o.apply(&mut r, v).unwrap();
        }
        let n = new_game_with(variant, &r).unwrap().native_notation().expect("a native notation");
        if let NativeWriter::Position(o) = n.writer {
            o.apply(&mut r, n.values[1]).unwrap();
        }
        let id = VariantId::from_name(variant).unwrap();
        id.visit(&r, RoundTrip { word: id.rule_word(&r), fens })
    }

    #[test]
    fn native_notations_round_trip_over_every_legal_move() {
        // IAGO with gating and drops (and castling gates): drops, gates,
        // castling with a gate on either square, promotion, en passant.
        let gates = [(iago::options::CASTLING_GATES, "true")];
        let special =
            ["r3k2r/1P6/8/3pP3/8/8/8/R3K2R[M] w KQkq d6 0 1", "r3k2r/8/8/8/8/8/8/R3K2R[MCmc] b KQBCDFGkqbcdfg - 0 1"];
        let tried = [
            round_trip("iago-b", &gates, &special),
            round_trip("iago-c", &gates, &[]),
            // Without drops, IAGO-C still fills the queen's square.
            round_trip("iago-c", &[(iago::options::DROPS, "false")], &[]),
            // Ita: every kind of move of its bench positions, either capture rule.
            round_trip("ita", &[], &[]),
            round_trip("ita", &[(crate::variants::ita::options::LEAPER_CAPTURE, "replacement")], &[]),
        ];
        assert_eq!(tried, [285, 120, 120, 228, 228]);
    }
}
