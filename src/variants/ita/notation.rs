//! Ita's native square names (`ItaNotation native`): files u g s f t œ lz a y o
//! for a..j. Notation, not rules: the protocol asks for it through
//! [`crate::variants::EngineVariant::native_notation`].

use crate::geometry::{Board10x10, Geometry};
use std::sync::OnceLock;

/// Ita's own file names for files a..j.
pub const NATIVE_FILES: [&str; 10] = ["u", "g", "s", "f", "t", "œ", "lz", "a", "y", "o"];

struct Names {
    canonical: Vec<String>,
    native: Vec<String>,
}

fn names() -> &'static Names {
    static N: OnceLock<Names> = OnceLock::new();
    N.get_or_init(|| {
        let sqs = 0..Board10x10::SQUARES;
        Names {
            canonical: sqs.clone().map(Board10x10::square_name).collect(),
            native: sqs
                .map(|sq| {
                    let f = NATIVE_FILES[Board10x10::file_of(sq)];
                    format!("{f}{}", Board10x10::rank_of(sq) + 1)
                })
                .collect(),
        }
    })
}

/// Reads one square at the start of `s` (native or canonical file names);
/// returns the square and the rest of the text.
fn split_square(s: &str, native: bool) -> Option<(usize, &str)> {
    let (file, rest) = if native {
        NATIVE_FILES.iter().position(|f| s.starts_with(f)).map(|f| (f, &s[NATIVE_FILES[f].len()..]))?
    } else {
        let c = s.chars().next()?;
        if !('a'..='j').contains(&c) {
            return None;
        }
        ((c as u8 - b'a') as usize, &s[1..])
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (rank, rest) = rest.split_at(digits);
    if rank.is_empty() || rank.starts_with('0') || rank.len() > 2 {
        return None;
    }
    let rank: usize = rank.parse().ok()?;
    (1..=10).contains(&rank).then(|| (Board10x10::square(file, rank - 1), rest))
}

/// `a1`..`j10` -> `u1`..`o10` (`f3` -> `œ3`); `None` if not an Ita square.
pub fn canonical_to_native(square: &str) -> Option<&'static str> {
    match split_square(square, false)? {
        (sq, "") => Some(&names().native[sq]),
        _ => None,
    }
}

/// `u1`..`o10` -> `a1`..`j10` (`œ3` -> `f3`, `lz10` -> `g10`).
pub fn native_to_canonical(square: &str) -> Option<&'static str> {
    match split_square(square, true)? {
        (sq, "") => Some(&names().canonical[sq]),
        _ => None,
    }
}

fn rewrite_move(text: &str, native_in: bool) -> Option<String> {
    if text == "0000" {
        return Some(text.into());
    }
    let (a, rest) = split_square(text, native_in)?;
    let (b, rest) = split_square(rest, native_in)?;
    if !rest.is_empty() {
        return None;
    }
    let n = names();
    let out = if native_in { &n.canonical } else { &n.native };
    Some(format!("{}{}", out[a], out[b]))
}

/// A move text in canonical squares rewritten with native file names
/// (`e2e3` -> `t2t3`, `c2c9` -> `s2s9`); `0000` stays. `None` if the text
/// is not two Ita squares.
pub fn move_to_native(text: &str) -> Option<String> {
    rewrite_move(text, false)
}

/// A move text in native squares rewritten canonically (`œ2œ3` -> `f2f3`).
pub fn move_to_canonical(text: &str) -> Option<String> {
    rewrite_move(text, true)
}
