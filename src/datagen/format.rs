//! The training-data file: a header, then one block per finished game.
//! All integers are little-endian. The layout is specified in
//! `docs/datagen.md`; this module is its only writer and reader in Rust
//! (`tools/train/calvin_data.py` reads it in Python).

use std::io::Read;

/// The first eight bytes of every file.
pub const MAGIC: &[u8; 8] = b"CALVINDG";
/// The format's version (bumped on any change of the layout).
pub const VERSION: u16 = 1;
/// `white_points`/`black_points` of a game without a score pair.
pub const NO_POINTS: u8 = 255;

/// How the settings of a run are stored: a run continues a file only if
/// they are the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: String,
    /// The rule options, one bit each (0: the rulings; datagen plays the rulings).
    pub rule_flags: u8,
    pub seed: u64,
    pub nodes: u32,
    pub random_plies: u16,
    pub max_plies: u16,
    /// Resign adjudication: |score| at least this (centipawns) ...
    pub resign_score: u16,
    /// ... for this many plies in a row, both sides agreeing.
    pub resign_plies: u16,
    /// The table size of each thread in MiB (it changes the searches).
    pub hash_mib: u32,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum End {
    /// By the rules (mate, stalemate, repetition, goal, score pair, ...).
    Rules = 0,
    /// The ply cap was reached: adjudicated a draw.
    PlyCap = 1,
    /// Both sides' scores were decisive for `resign_plies` plies: the side ahead wins.
    Resign = 2,
}

/// One position a trainer may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The search's score in centipawns from the side to move's view (never decisive).
    pub score: i16,
    /// Plies played from the start position before this position.
    pub ply: u16,
    /// The side to move (0 White, 1 Black).
    pub stm: u8,
    /// The position as the engine writes it (FEN with hands and rights).
    pub fen: String,
}

/// A finished game: its result and the positions kept from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBlock {
    /// The game's number in the run (its opening comes from seed and number).
    pub index: u32,
    /// From White's view: 2 White won, 1 draw, 0 Black won.
    pub result: u8,
    /// Score pairs (Ita): White's and Black's points, else [`NO_POINTS`].
    pub white_points: u8,
    pub black_points: u8,
    pub end: End,
    /// The game's length in plies.
    pub plies: u16,
    pub records: Vec<Record>,
}

/// Why a file cannot be read.
#[derive(Debug, PartialEq, Eq)]
pub enum FormatError {
    NotDatagen,
    Version(u16),
    /// A block that is complete by its length but does not parse: the file is damaged.
    Corrupt {
        offset: u64,
        why: String,
    },
    Io(String),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::NotDatagen => write!(f, "not a calvin datagen file (bad magic)"),
            FormatError::Version(v) => write!(f, "datagen format version {v}, this build reads {VERSION}"),
            FormatError::Corrupt { offset, why } => write!(f, "damaged block at byte {offset}: {why}"),
            FormatError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl Header {
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(40);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.push(self.variant.len() as u8);
        b.extend_from_slice(self.variant.as_bytes());
        b.push(self.rule_flags);
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.nodes.to_le_bytes());
        for v in [self.random_plies, self.max_plies, self.resign_score, self.resign_plies] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.hash_mib.to_le_bytes());
        b
    }

    /// Reads a header from the start of `bytes`; returns it and its length.
    pub fn decode(bytes: &[u8]) -> Result<(Header, usize), FormatError> {
        let mut c = Cursor { b: bytes, at: 0 };
        let truncated = |_| FormatError::NotDatagen;
        if c.take(8).map_err(truncated)? != MAGIC {
            return Err(FormatError::NotDatagen);
        }
        let version = c.u16().map_err(truncated)?;
        if version != VERSION {
            return Err(FormatError::Version(version));
        }
        let n = c.u8().map_err(truncated)? as usize;
        let variant = String::from_utf8(c.take(n).map_err(truncated)?.to_vec()).map_err(|_| FormatError::NotDatagen)?;
        let h = Header {
            variant,
            rule_flags: c.u8().map_err(truncated)?,
            seed: c.u64().map_err(truncated)?,
            nodes: c.u32().map_err(truncated)?,
            random_plies: c.u16().map_err(truncated)?,
            max_plies: c.u16().map_err(truncated)?,
            resign_score: c.u16().map_err(truncated)?,
            resign_plies: c.u16().map_err(truncated)?,
            hash_mib: c.u32().map_err(truncated)?,
        };
        Ok((h, c.at))
    }
}

/// Bytes of a block before its records: length, index, result, points, end, plies, count.
const BLOCK_FIXED: usize = 4 + 4 + 1 + 2 + 1 + 2 + 4;

impl GameBlock {
    /// The block as it is appended to the file, in one piece. Positions
    /// whose FEN is longer than 255 bytes are left out (none of the
    /// variants comes near).
    pub fn encode(&self) -> Vec<u8> {
        let records: Vec<&Record> = self.records.iter().filter(|r| r.fen.len() <= 255).collect();
        let mut b = Vec::with_capacity(BLOCK_FIXED + records.iter().map(|r| 6 + r.fen.len()).sum::<usize>());
        b.extend_from_slice(&[0; 4]); // length, filled in below
        b.extend_from_slice(&self.index.to_le_bytes());
        b.extend_from_slice(&[self.result, self.white_points, self.black_points, self.end as u8]);
        b.extend_from_slice(&self.plies.to_le_bytes());
        b.extend_from_slice(&(records.len() as u32).to_le_bytes());
        for r in records {
            b.extend_from_slice(&r.score.to_le_bytes());
            b.extend_from_slice(&r.ply.to_le_bytes());
            b.push(r.stm);
            b.push(r.fen.len() as u8);
            b.extend_from_slice(r.fen.as_bytes());
        }
        let len = (b.len() - 4) as u32;
        b[..4].copy_from_slice(&len.to_le_bytes());
        b
    }

    /// Decodes one block's body (the bytes after its length field).
    fn decode_body(body: &[u8]) -> Result<GameBlock, String> {
        let mut c = Cursor { b: body, at: 0 };
        let index = c.u32()?;
        let (result, white_points, black_points) = (c.u8()?, c.u8()?, c.u8()?);
        let end = match c.u8()? {
            0 => End::Rules,
            1 => End::PlyCap,
            2 => End::Resign,
            e => return Err(format!("unknown end code {e}")),
        };
        if result > 2 {
            return Err(format!("result {result} out of range"));
        }
        let plies = c.u16()?;
        let n = c.u32()? as usize;
        let mut records = Vec::with_capacity(n.min(body.len() / 6));
        for _ in 0..n {
            let score = c.u16()? as i16;
            let ply = c.u16()?;
            let stm = c.u8()?;
            let len = c.u8()? as usize;
            let fen = String::from_utf8(c.take(len)?.to_vec()).map_err(|_| "a FEN is not UTF-8".to_string())?;
            records.push(Record { score, ply, stm, fen });
        }
        if c.at != body.len() {
            return Err(format!("{} bytes after the last record", body.len() - c.at));
        }
        Ok(GameBlock { index, result, white_points, black_points, end, plies, records })
    }
}

/// A file read back: the header, the complete games, and where the
/// complete part ends (bytes after it are a game cut off while written).
#[derive(Debug)]
pub struct DataFile {
    pub header: Header,
    pub games: Vec<GameBlock>,
    pub valid_len: u64,
    pub trailing: u64,
}

impl DataFile {
    pub fn positions(&self) -> usize {
        self.games.iter().map(|g| g.records.len()).sum()
    }
}

/// Reads a whole file. A last block cut short (a run stopped while writing)
/// is not an error: it is counted in `trailing`.
pub fn read(mut r: impl Read) -> Result<DataFile, FormatError> {
    let mut bytes = Vec::new();
    r.read_to_end(&mut bytes).map_err(|e| FormatError::Io(e.to_string()))?;
    parse(&bytes)
}

/// Parses a file held in memory (see [`read`]).
pub fn parse(bytes: &[u8]) -> Result<DataFile, FormatError> {
    let (header, mut at) = Header::decode(bytes)?;
    let mut games = Vec::new();
    while at + 4 <= bytes.len() {
        let len = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
        let Some(body) = bytes.get(at + 4..at + 4 + len) else { break };
        let game = GameBlock::decode_body(body).map_err(|why| FormatError::Corrupt { offset: at as u64, why })?;
        games.push(game);
        at += 4 + len;
    }
    Ok(DataFile { header, games, valid_len: at as u64, trailing: (bytes.len() - at) as u64 })
}

/// A reader over a byte slice that reports running out.
struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self.b.get(self.at..self.at + n).ok_or_else(|| "cut short".to_string())?;
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Result<u32, String> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn u64(&mut self) -> Result<u64, String> {
        let mut a = [0; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Header, GameBlock) {
        let h = Header {
            variant: "ita".into(),
            rule_flags: 0,
            seed: 7,
            nodes: 5000,
            random_plies: 8,
            max_plies: 400,
            resign_score: 1000,
            resign_plies: 8,
            hash_mib: 16,
        };
        let g = GameBlock {
            index: 3,
            result: 2,
            white_points: 3,
            black_points: 1,
            end: End::Rules,
            plies: 77,
            records: vec![
                Record { score: -42, ply: 9, stm: 1, fen: "8/8/8/8/8/8/8/K6k b - - 0 5".into() },
                Record { score: 300, ply: 10, stm: 0, fen: "8/8/8/8/8/8/8/K5k1 w - - 0 6".into() },
            ],
        };
        (h, g)
    }

    #[test]
    fn write_then_read_back_exactly() {
        let (h, g) = sample();
        let mut bytes = h.encode();
        bytes.extend(g.encode());
        bytes.extend(GameBlock { index: 4, records: vec![], ..g.clone() }.encode());
        let f = parse(&bytes).expect("reads");
        assert_eq!(f.header, h);
        assert_eq!(f.games.len(), 2);
        assert_eq!(f.games[0], g);
        assert_eq!(f.games[1].index, 4);
        assert_eq!((f.valid_len, f.trailing), (bytes.len() as u64, 0));
        assert_eq!(f.positions(), 2);
    }

    #[test]
    fn a_cut_last_block_is_trailing_and_a_damaged_one_an_error() {
        let (h, g) = sample();
        let head = h.encode();
        let block = g.encode();
        for cut in 1..block.len() {
            let mut bytes = head.clone();
            bytes.extend(&block);
            bytes.extend(&block[..cut]);
            let f = parse(&bytes).expect("reads");
            assert_eq!(f.games.len(), 1);
            assert_eq!(f.valid_len, (head.len() + block.len()) as u64);
            assert_eq!(f.trailing, cut as u64);
        }
        let mut bytes = head.clone();
        let mut bad = block.clone();
        bad[11] = 9; // the end code
        bytes.extend(bad);
        assert!(matches!(parse(&bytes), Err(FormatError::Corrupt { .. })));
        assert_eq!(parse(b"CALVINDX").err(), Some(FormatError::NotDatagen));
    }
}
