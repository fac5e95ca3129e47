//! Evaluation weights as a file (`docs/weights.md`): learned corrections to
//! a variant's material, hand and piece-square values. A variant's built-in
//! weights are such a file included in the binary; the `EvalFile` option
//! loads another. Reading checks everything: no content of a file can panic.

use std::fmt;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"CALVINWT";
/// The format version this engine reads and writes.
pub const VERSION: u16 = 1;

/// One piece type's corrections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceWeights {
    /// The piece's letter as the variant writes it (`P`, `+T`).
    pub letter: String,
    /// Added to the piece's value on the board.
    pub material: i16,
    /// Added to the piece's value in hand (per piece in hand).
    pub hand: i16,
    /// Per square seen from the piece's own side: index `rank * files +
    /// file`, rank 0 the own back rank (Black's ranks mirrored, files not).
    pub squares: Vec<i16>,
}

/// A weights file's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The `UCI_Variant` name the weights are for.
    pub variant: String,
    /// Free text: how the weights were made ("texel, 184486 positions").
    pub description: String,
    pub files: u8,
    pub ranks: u8,
    /// The piece types in the variant's order (type 1 first).
    pub pieces: Vec<PieceWeights>,
}

/// Why weights cannot be used; the file's weights are not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file cannot be read (the system's reason).
    Missing(String),
    /// The file ends inside `what`.
    Truncated {
        what: &'static str,
    },
    BadMagic,
    BadVersion(u16),
    /// A text field that is not UTF-8.
    BadText {
        what: &'static str,
    },
    /// Bytes after the last piece type.
    Trailing(usize),
    /// For a variant this engine does not play.
    UnknownVariant(String),
    /// For another variant than the one asked for.
    WrongVariant {
        file: String,
        expected: String,
    },
    /// The board or the piece types differ from the variant's.
    WrongShape(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Missing(why) => write!(f, "cannot be read ({why})"),
            WeightsError::Truncated { what } => write!(f, "truncated: the file ends in {what}"),
            WeightsError::BadMagic => write!(f, "not a weights file (no CALVINWT magic)"),
            WeightsError::BadVersion(v) => write!(f, "format version {v}, this engine reads version {VERSION}"),
            WeightsError::BadText { what } => write!(f, "{what} is not UTF-8"),
            WeightsError::Trailing(n) => write!(f, "{n} bytes after the weights"),
            WeightsError::UnknownVariant(v) => write!(f, "the weights are for variant '{v}', which is not played here"),
            WeightsError::WrongVariant { file, expected } => {
                write!(f, "the weights are for variant {file}, not {expected}")
            }
            WeightsError::WrongShape(why) => write!(f, "wrong shape: {why}"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// Reads the fields in order; every read checks the length.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader past a file's common head: the magic (a file shorter than
    /// it that starts like it is cut off; any other is not ours), the
    /// format version and the variant's name, which it returns.
    pub(crate) fn open(bytes: &'a [u8], magic: &[u8; 8], version: u16) -> Result<(Self, String), WeightsError> {
        let (r, _, variant) = Self::open_versions(bytes, magic, version..=version)?;
        Ok((r, variant))
    }
    /// [`Self::open`] for a format read in several versions: also returns the file's.
    pub(crate) fn open_versions(
        bytes: &'a [u8],
        magic: &[u8; 8],
        versions: std::ops::RangeInclusive<u16>,
    ) -> Result<(Self, u16, String), WeightsError> {
        let head = &bytes[..bytes.len().min(magic.len())];
        if head != &magic[..head.len()] {
            return Err(WeightsError::BadMagic);
        }
        let mut r = Reader { bytes, at: 0 };
        r.take(magic.len(), "the magic")?;
        let v = r.u16("the version")?;
        if !versions.contains(&v) {
            return Err(WeightsError::BadVersion(v));
        }
        let n = r.u8("the variant name")? as usize;
        let variant = r.text(n, "the variant name")?;
        Ok((r, v, variant))
    }
    /// The bytes not read yet.
    pub(crate) fn left(&self) -> usize {
        self.bytes.len() - self.at
    }
    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, WeightsError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], WeightsError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(WeightsError::Truncated { what })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8, WeightsError> {
        Ok(self.take(1, what)?[0])
    }
    pub(crate) fn u16(&mut self, what: &'static str) -> Result<u16, WeightsError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub(crate) fn i16(&mut self, what: &'static str) -> Result<i16, WeightsError> {
        let b = self.take(2, what)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }
    /// A text of `len` bytes.
    pub(crate) fn text(&mut self, len: usize, what: &'static str) -> Result<String, WeightsError> {
        let b = self.take(len, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| WeightsError::BadText { what })
    }
}

impl Weights {
    /// Parses a weights file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let (mut r, variant) = Reader::open(bytes, MAGIC, VERSION)?;
        let n = r.u16("the description")? as usize;
        let description = r.text(n, "the description")?;
        let files = r.u8("the board size")?;
        let ranks = r.u8("the board size")?;
        let types = r.u8("the number of piece types")? as usize;
        let squares = files as usize * ranks as usize;
        let mut pieces = Vec::with_capacity(types);
        for _ in 0..types {
            let n = r.u8("a piece letter")? as usize;
            let letter = r.text(n, "a piece letter")?;
            let material = r.i16("a material correction")?;
            let hand = r.i16("a hand correction")?;
            let squares = (0..squares).map(|_| r.i16("the piece-square corrections")).collect::<Result<_, _>>()?;
            pieces.push(PieceWeights { letter, material, hand, squares });
        }
        if r.at < bytes.len() {
            return Err(WeightsError::Trailing(bytes.len() - r.at));
        }
        Ok(Weights { variant, description, files, ranks, pieces })
    }

    /// Reads and parses a file.
    pub fn read_file(path: &str) -> Result<Weights, WeightsError> {
        Weights::from_bytes(&read_bytes(path)?)
    }

    /// The file's bytes. Texts longer than their length field holds are cut
    /// (at a character boundary).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(VERSION.to_le_bytes());
        let text = |out: &mut Vec<u8>, s: &str, max: usize, wide: bool| {
            let mut end = s.len().min(max);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            if wide {
                out.extend((end as u16).to_le_bytes());
            } else {
                out.push(end as u8);
            }
            out.extend(&s.as_bytes()[..end]);
        };
        text(&mut out, &self.variant, u8::MAX as usize, false);
        text(&mut out, &self.description, u16::MAX as usize, true);
        out.extend([self.files, self.ranks, self.pieces.len() as u8]);
        for p in &self.pieces {
            text(&mut out, &p.letter, u8::MAX as usize, false);
            out.extend(p.material.to_le_bytes());
            out.extend(p.hand.to_le_bytes());
            for &v in &p.squares {
                out.extend(v.to_le_bytes());
            }
        }
        out
    }

    /// The letters of the piece types, space-separated.
    pub fn letters(&self) -> String {
        self.pieces.iter().map(|p| p.letter.as_str()).collect::<Vec<_>>().join(" ")
    }
}

/// A file's bytes; a file that cannot be read is `Missing`, with why.
pub(crate) fn read_bytes(path: &str) -> Result<Vec<u8>, WeightsError> {
    std::fs::read(path).map_err(|e| WeightsError::Missing(io_reason(&e)))
}

/// Why a file cannot be read: the same words on every system for the
/// common cases, else the system's reason without Rust's "(os error N)".
fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => return "no such file".into(),
        std::io::ErrorKind::PermissionDenied => return "permission denied".into(),
        std::io::ErrorKind::IsADirectory => return "a directory".into(),
        _ => {}
    }
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Where a variant's weights come from (what `eval` shows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsSource {
    /// The variant has no learned weights: the hand-set evaluation.
    None,
    /// The weights shipped in the binary (their description).
    BuiltIn(String),
    /// A file loaded by `EvalFile` (its path and description).
    File { path: String, description: String },
}

impl fmt::Display for WeightsSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsSource::None => f.write_str("none (the hand-set evaluation)"),
            WeightsSource::BuiltIn(d) => write!(f, "built-in ({d})"),
            WeightsSource::File { path, description } => write!(f, "file {path} ({description})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        Weights {
            variant: "ito-shogi".into(),
            description: "test, 3 positions, ŝ".into(),
            files: 1,
            ranks: 3,
            pieces: vec![
                PieceWeights { letter: "K".into(), material: 0, hand: 0, squares: vec![-1, 0, 1] },
                PieceWeights { letter: "+P".into(), material: -300, hand: 7, squares: vec![i16::MIN, 2, i16::MAX] },
            ],
        }
    }

    #[test]
    fn round_trip_is_exact() {
        let w = sample();
        let b = w.to_bytes();
        // magic 8, version 2, name 1+9, description 2+21 (ŝ is two bytes),
        // board 2, types 1, per type: letter 1+len, material 2, hand 2, squares 3*2.
        assert_eq!(b.len(), 8 + 2 + 10 + 23 + 3 + (2 + 10) + (3 + 10));
        assert_eq!(&b[..10], b"CALVINWT\x01\x00");
        assert_eq!(Weights::from_bytes(&b), Ok(w.clone()));
        assert_eq!(Weights::from_bytes(&b).map(|r| r.to_bytes()), Ok(b));
        assert_eq!(w.letters(), "K +P");
    }

    #[test]
    fn every_cut_is_truncated_and_errors_are_typed() {
        let b = sample().to_bytes();
        for n in 0..b.len() {
            assert!(
                matches!(Weights::from_bytes(&b[..n]), Err(WeightsError::Truncated { .. })),
                "cut at {n}: {:?}",
                Weights::from_bytes(&b[..n])
            );
        }
        let e = Weights::from_bytes(&b[..b.len() - 1]).unwrap_err();
        assert_eq!(e.to_string(), "truncated: the file ends in the piece-square corrections");
        let mut long = b.clone();
        long.push(0);
        assert_eq!(Weights::from_bytes(&long), Err(WeightsError::Trailing(1)));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert_eq!(Weights::from_bytes(&bad), Err(WeightsError::BadMagic));
        assert_eq!(Weights::from_bytes(b"hello"), Err(WeightsError::BadMagic));
        let mut v2 = b.clone();
        v2[8] = 2;
        assert_eq!(Weights::from_bytes(&v2).unwrap_err().to_string(), "format version 2, this engine reads version 1");
        let mut text = b;
        text[11] = 0xff;
        assert_eq!(Weights::from_bytes(&text), Err(WeightsError::BadText { what: "the variant name" }));
        let e = Weights::read_file("no/such/file.weights").unwrap_err();
        assert_eq!(e.to_string(), "cannot be read (no such file)");
    }
}
