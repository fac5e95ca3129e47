//! The record of a finished game and its PGN-like text: tags (Event,
//! Variant, FEN of the start, White, Black, Result, Termination, Ita's
//! Scores), then the moves in the engines' notation.

use crate::variant::Outcome;
use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// Why an engine lost other than by the rules of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forfeit {
    Time,
    Illegal,
    Crash,
    Stall,
    Garbage,
}

impl Forfeit {
    pub const ALL: [Forfeit; 5] = [Forfeit::Time, Forfeit::Illegal, Forfeit::Crash, Forfeit::Stall, Forfeit::Garbage];
    pub fn label(self) -> &'static str {
        match self {
            Forfeit::Time => "time forfeit",
            Forfeit::Illegal => "illegal move",
            Forfeit::Crash => "crash",
            Forfeit::Stall => "stall",
            Forfeit::Garbage => "garbage",
        }
    }
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number (the PGN `Round`).
    pub number: u32,
    pub variant: String,
    pub white: String,
    pub black: String,
    /// Time controls, White's and Black's.
    pub time_control: [String; 2],
    pub start_fen: String,
    /// Every move from the start FEN, the opening's included.
    pub moves: Vec<String>,
    /// How many of `moves` came from the opening.
    pub opening_plies: usize,
    pub outcome: Outcome,
    /// The side that forfeited, and how.
    pub forfeit: Option<(usize, Forfeit)>,
}

impl GameRecord {
    /// `1-0`, `0-1` or `1/2-1/2` (from the winner; Ita's scores are a tag).
    pub fn result(&self) -> &'static str {
        match self.outcome.winner {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }
    /// The score pair as `5:1` (White's first), where the game keeps scores.
    pub fn scores(&self) -> Option<String> {
        self.outcome.scores.map(|s| format!("{}:{}", s[0], s[1]))
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day) (H. Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The game as PGN-like text, ending with an empty line.
pub fn format_pgn(r: &GameRecord, event: &str, date: &str) -> String {
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| s += &format!("[{k} \"{}\"]\n", escape(v));
    tag("Event", event);
    tag("Site", "?");
    tag("Date", date);
    tag("Round", &r.number.to_string());
    tag("White", &r.white);
    tag("Black", &r.black);
    tag("Result", r.result());
    tag("Variant", &r.variant);
    tag("FEN", &r.start_fen);
    tag("SetUp", "1");
    if r.time_control[0] == r.time_control[1] {
        tag("TimeControl", &r.time_control[0]);
    } else {
        tag("WhiteTimeControl", &r.time_control[0]);
        tag("BlackTimeControl", &r.time_control[1]);
    }
    tag("PlyCount", &r.moves.len().to_string());
    tag("OpeningPlies", &r.opening_plies.to_string());
    tag("Termination", &r.outcome.reason);
    if let Some(sc) = r.scores() {
        tag("Scores", &sc);
    }
    s.push('\n');

    // Move numbers from the start FEN's side to move and fullmove number.
    let mut fields = r.start_fen.split_whitespace().skip(1);
    let mut black = fields.next() == Some("b");
    let mut number: u32 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in r.moves.iter().enumerate() {
        if !black {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.clone());
        if black {
            number += 1;
        }
        black = !black;
    }
    tokens.push(format!("{{{}}}", r.outcome.reason));
    tokens.push(r.result().to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            s += &line;
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &t;
    }
    s += &line;
    s += "\n\n";
    s
}

/// Appends games to a file, flushed after each so nothing played is lost.
pub struct PgnWriter {
    file: std::fs::File,
    event: String,
    date: String,
}

impl PgnWriter {
    pub fn open(path: &std::path::Path, event: &str) -> Result<PgnWriter, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Ok(PgnWriter { file, event: event.to_string(), date: today() })
    }
    pub fn write(&mut self, r: &GameRecord) -> std::io::Result<()> {
        self.file.write_all(format_pgn(r, &self.event, &self.date).as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &[&str], fen: &str, outcome: Outcome) -> GameRecord {
        GameRecord {
            number: 3,
            variant: "chess".into(),
            white: "A".into(),
            black: "B \"x\"".into(),
            time_control: ["10+0.1".into(), "10+0.1".into()],
            start_fen: fen.into(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            opening_plies: 0,
            outcome,
            forfeit: None,
        }
    }

    #[test]
    fn writes_pgn() {
        let r = record(
            &["f2f3", "e7e5", "g2g4", "d8h4"],
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Outcome::win(1, "checkmate"),
        );
        let text = format_pgn(&r, "test", "2024.01.02");
        assert_eq!(
            text,
            "[Event \"test\"]\n[Site \"?\"]\n[Date \"2024.01.02\"]\n[Round \"3\"]\n\
             [White \"A\"]\n[Black \"B \\\"x\\\"\"]\n[Result \"0-1\"]\n[Variant \"chess\"]\n\
             [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\
             [SetUp \"1\"]\n[TimeControl \"10+0.1\"]\n[PlyCount \"4\"]\n[OpeningPlies \"0\"]\n\
             [Termination \"checkmate\"]\n\n\
             1. f2f3 e7e5 2. g2g4 d8h4 {checkmate} 0-1\n\n"
        );
    }

    #[test]
    fn black_to_move_scores_and_wrapping() {
        let moves: Vec<&str> = std::iter::repeat_n("a1a2", 41).collect();
        let mut r = record(
            &moves,
            "8/8/8/8/8/8/8/8 b - - 0 7",
            Outcome::scores(0, 1, 4, "time forfeit: A took 2.000 s, allowed 1.000 s"),
        );
        r.time_control = ["ita:easy".into(), "ita:hard".into()];
        let text = format_pgn(&r, "e", "d");
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("[Scores \"1:4\"]"));
        assert!(text.contains("[WhiteTimeControl \"ita:easy\"]"));
        assert!(text.contains("\n7... a1a2 8. a1a2 a1a2 9."));
        assert!(text.lines().all(|l| l.len() <= 80));
        assert!(text.ends_with("allowed 1.000 s} 0-1\n\n"));
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(today().len(), 10);
    }
}
