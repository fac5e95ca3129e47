//! Input errors, typed: what the protocol prints for a bad move, position
//! or option. Each `Display` is the text after `info string error ` (UCI,
//! USI) or inside `Error (...)` (CECP); the protocol and the match runner
//! read the fields instead of parsing the text back.

use std::fmt;

/// Why a move text is not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not the shape of a move.
    NotAMove { text: String },
    /// Not a move in the variant's native square names (`notation`: whose).
    NotNative { text: String, notation: &'static str },
    /// Names a square the board does not have.
    NotASquare { text: String, square: String, variant: &'static str },
    /// Not a legal move here; `rule`: the rule beyond the board that forbids it.
    Illegal { text: String, rule: Option<String> },
    /// The game has ended.
    GameOver { result: String, reason: String },
}

impl MoveError {
    /// The move text the error names, if it names one.
    pub fn text(&self) -> Option<&str> {
        match self {
            MoveError::NotAMove { text }
            | MoveError::NotNative { text, .. }
            | MoveError::NotASquare { text, .. }
            | MoveError::Illegal { text, .. } => Some(text),
            MoveError::GameOver { .. } => None,
        }
    }

    /// The same error naming the move as `write` turns it (the GUI's notation).
    pub fn written(mut self, write: impl Fn(&str) -> String) -> Self {
        match &mut self {
            MoveError::NotAMove { text }
            | MoveError::NotNative { text, .. }
            | MoveError::NotASquare { text, .. }
            | MoveError::Illegal { text, .. } => *text = write(text),
            MoveError::GameOver { .. } => {}
        }
        self
    }

    /// What more there is to say than "illegal move": `None` for a move
    /// that is simply not legal here.
    pub fn detail(&self) -> Option<String> {
        match self {
            MoveError::Illegal { rule, .. } => rule.clone(),
            MoveError::NotASquare { square, variant, .. } => Some(format!("{square} is not a square of {variant}")),
            other => Some(other.to_string()),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotAMove { text } => write!(f, "'{text}' is not a move"),
            MoveError::NotNative { text, notation } => write!(f, "'{text}' is not a move in native {notation} squares"),
            MoveError::NotASquare { text, .. } | MoveError::Illegal { text, .. } => match self.detail() {
                Some(d) => write!(f, "illegal move '{text}': {d}"),
                None => write!(f, "illegal move '{text}'"),
            },
            MoveError::GameOver { result, reason } => write!(f, "the game is over ({result}, {reason})"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a position is not set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The `position` command is not of its form (the message says how).
    Command(String),
    /// The FEN does not describe a position of the variant.
    Fen(String),
    /// The SFEN cannot be read (the message says why).
    Sfen(String),
    /// More moves than any game has.
    TooManyMoves(usize),
    /// A move of the list.
    Move(MoveError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Command(s) | PositionError::Sfen(s) => f.write_str(s),
            PositionError::Fen(s) => write!(f, "bad FEN: {s}"),
            PositionError::TooManyMoves(n) => write!(f, "position: more than {n} moves"),
            PositionError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<MoveError> for PositionError {
    fn from(e: MoveError) -> Self {
        PositionError::Move(e)
    }
}

impl From<PositionError> for String {
    fn from(e: PositionError) -> Self {
        e.to_string()
    }
}

impl From<MoveError> for String {
    fn from(e: MoveError) -> Self {
        e.to_string()
    }
}

/// Why an option is not set (the old value is kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    NeedsValue(String),
    NotANumber {
        name: String,
        value: String,
    },
    /// Outside `min..=max`; `note` says why the bound is what it is.
    Range {
        name: &'static str,
        min: usize,
        max: usize,
        note: &'static str,
    },
    /// Outside a range that may be negative (`Skill Level`).
    Between {
        name: &'static str,
        min: i64,
        max: i64,
    },
    /// Not one of the values: `choices` says which are.
    Choice {
        name: &'static str,
        choices: String,
    },
    /// A hash table larger than the machine can hold.
    Memory {
        mb: usize,
        total_mb: usize,
    },
    UnknownVariant {
        name: String,
        known: String,
    },
    /// A rule option's own complaint.
    Rule(String),
    /// Weights that `EvalFile` cannot load (the path as given).
    EvalFile {
        path: String,
        error: crate::eval::weights::WeightsError,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::NeedsValue(name) => write!(f, "option {name} needs a value"),
            OptionError::NotANumber { name, value } => write!(f, "option {name}: '{value}' is not a number"),
            OptionError::Range { name, min, max, note } => write!(f, "{name} must be {min}..{max}{note}"),
            OptionError::Between { name, min, max } => write!(f, "{name} must be {min}..{max}"),
            OptionError::Choice { name, choices } => write!(f, "{name} is {choices}"),
            OptionError::Memory { mb, total_mb } => {
                write!(f, "Hash {mb} MiB is more than half of this machine's memory ({total_mb} MiB)")
            }
            OptionError::UnknownVariant { name, known } => write!(f, "unknown variant '{name}' (known: {known})"),
            OptionError::Rule(s) => f.write_str(s),
            OptionError::EvalFile { path, error } => write!(f, "EvalFile {path}: {error}"),
        }
    }
}

impl std::error::Error for OptionError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        let e = MoveError::Illegal { text: "e1e3".into(), rule: None };
        assert_eq!(e.to_string(), "illegal move 'e1e3'");
        assert_eq!(e.detail(), None);
        let e = MoveError::NotASquare { text: "a1a10".into(), square: "a10".into(), variant: "chess" };
        assert_eq!(e.to_string(), "illegal move 'a1a10': a10 is not a square of chess");
        assert_eq!(e.written(|t| t.to_uppercase()).text(), Some("A1A10"));
        assert_eq!(PositionError::Fen("x".into()).to_string(), "bad FEN: x");
        let o = OptionError::Range { name: "MultiPV", min: 1, max: 256, note: "" };
        assert_eq!(o.to_string(), "MultiPV must be 1..256");
    }
}
