//! Piece movement described as data (a subset of Betza's notation) and
//! compiled, per variant, into per-square tables for move generation.
//!
//! Atoms: `W F D N A H C Z G` (leapers), `(x,y)` any leaper, `K` = `WF`,
//! `R` = `WW`, `B` = `FF`, `Q` = `RB`; a doubled leaper is a rider (`DD`), a
//! number after a rider limits its range (`R6`). Modifiers apply to the atom
//! that follows: `f b l r v s` directions, `m` move only, `c` capture only,
//! `n` lame (every square of the path must be empty; oblique paths go
//! straight along the longer leg first), `p` hop over exactly one screen,
//! `u` with `p`: igui (capture the piece beyond the screen without moving),
//! `i` only from the side's second rank (the chess pawn's double step).

use crate::bitboard::Bits;
use crate::geometry::{DIRS, Geometry};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Both,
    Move,
    Capture,
}

impl Mode {
    pub fn moves(self) -> bool {
        self != Mode::Capture
    }
    pub fn captures(self) -> bool {
        self != Mode::Move
    }
}

/// One movement component of a piece, for White (Black mirrors ranks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Component {
    /// A leap to (df, dr); lame when the path squares must be empty.
    Leap { df: i32, dr: i32, mode: Mode, lame: bool, initial: bool },
    /// A line slide of at most `range` squares (0: unlimited) in direction `dir` (index into DIRS).
    Slide { dir: usize, range: u32, mode: Mode },
    /// A rider of a leap (df, dr): each step leaps, landing squares block.
    Rider { df: i32, dr: i32, mode: Mode },
    /// A hop along `dir` over exactly one screen (a cannon).
    Hop { dir: usize, mode: Mode },
    /// Igui along `dir`: captures the piece beyond one screen without moving.
    Igui { dir: usize },
}

fn atom_vectors(atom: char) -> Option<(i32, i32)> {
    Some(match atom {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All 8 (or 4) symmetric images of a leap vector.
fn symmetric(v: (i32, i32)) -> Vec<(i32, i32)> {
    let (a, b) = v;
    let mut out = Vec::new();
    for &(x, y) in &[(a, b), (b, a)] {
        for &(sx, sy) in &[(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let p = (x * sx, y * sy);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

fn dir_index(df: i32, dr: i32) -> Option<usize> {
    DIRS.iter().position(|&d| d == (df.signum(), dr.signum()))
}

/// Parses a Betza-subset description into components. Errors name the problem.
pub fn parse_betza(s: &str) -> Result<Vec<Component>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < chars.len() {
        let mut mods = String::new();
        while i < chars.len() && "fblrvsmcnpui".contains(chars[i]) {
            mods.push(chars[i]);
            i += 1;
        }
        if i >= chars.len() {
            return Err(format!("modifiers without atom in {s}"));
        }
        // The atom: a letter, or (x,y).
        let (base, is_rider_atom): (Vec<(i32, i32)>, bool) = match chars[i] {
            '(' => {
                let end = chars[i..].iter().position(|&c| c == ')').ok_or("unclosed (")? + i;
                let inner: String = chars[i + 1..end].iter().collect();
                let mut it = inner.split(',').map(|x| x.trim().parse::<i32>());
                let (x, y) = match (it.next(), it.next()) {
                    (Some(Ok(x)), Some(Ok(y))) => (x, y),
                    _ => return Err(format!("bad leaper {inner}")),
                };
                i = end + 1;
                (vec![(x, y)], false)
            }
            'K' => {
                i += 1;
                (vec![(0, 1), (1, 1)], false)
            }
            'R' => {
                i += 1;
                (vec![(0, 1)], true)
            }
            'B' => {
                i += 1;
                (vec![(1, 1)], true)
            }
            'Q' => {
                i += 1;
                (vec![(0, 1), (1, 1)], true)
            }
            c => {
                let v = atom_vectors(c).ok_or_else(|| format!("unknown atom {c} in {s}"))?;
                i += 1;
                if i < chars.len() && chars[i] == c {
                    i += 1;
                    (vec![v], true)
                } else {
                    (vec![v], false)
                }
            }
        };
        let mut range = 0u32;
        while i < chars.len() && chars[i].is_ascii_digit() {
            range = range * 10 + chars[i].to_digit(10).unwrap_or(0);
            i += 1;
        }
        let mode = match (mods.contains('m'), mods.contains('c')) {
            (true, false) => Mode::Move,
            (false, true) => Mode::Capture,
            _ => Mode::Both,
        };
        let dirmods: Vec<char> = mods.chars().filter(|c| "fblrvs".contains(*c)).collect();
        let allowed = |df: i32, dr: i32| -> bool {
            dirmods.is_empty()
                || dirmods.iter().any(|&m| match m {
                    'f' => dr > 0,
                    'b' => dr < 0,
                    'l' => df < 0,
                    'r' => df > 0,
                    'v' => df == 0,
                    's' => dr == 0,
                    _ => false,
                })
        };
        let lame = mods.contains('n');
        let hop = mods.contains('p');
        let igui = mods.contains('u');
        let initial = mods.contains('i');
        for v in base {
            for (df, dr) in symmetric(v) {
                if !allowed(df, dr) {
                    continue;
                }
                let line = df == 0 || dr == 0 || df.abs() == dr.abs();
                if is_rider_atom {
                    let unit = df.abs().max(dr.abs());
                    if unit == 1 && line {
                        let dir = dir_index(df, dr).ok_or("bad direction")?;
                        if igui {
                            out.push(Component::Igui { dir });
                        } else if hop {
                            out.push(Component::Hop { dir, mode });
                        } else {
                            out.push(Component::Slide { dir, range, mode });
                        }
                    } else {
                        out.push(Component::Rider { df, dr, mode });
                    }
                } else {
                    out.push(Component::Leap { df, dr, mode, lame, initial });
                }
            }
        }
    }
    Ok(out)
}

/// The squares a lame leap from `sq` by (df, dr) passes over: straight along
/// the longer leg first, then diagonally.
fn lame_path<G: Geometry>(sq: usize, df: i32, dr: i32) -> Option<G::B> {
    let (mut f, mut r) = (0i32, 0i32);
    let mut path = G::B::ZERO;
    let steps = df.abs().max(dr.abs());
    let diag = df.abs().min(dr.abs());
    for k in 0..steps - 1 {
        // First the straight part, then the diagonal part.
        if k < steps - diag {
            if df.abs() >= dr.abs() {
                f += df.signum();
            } else {
                r += dr.signum();
            }
        } else {
            f += df.signum();
            r += dr.signum();
        }
        path |= G::B::bit(G::offset(sq, f, r)?);
    }
    Some(path)
}

/// A lame leap available from one square.
#[derive(Clone, Copy, Debug)]
pub struct LameLeap<B> {
    pub to: usize,
    pub path: B,
    pub mode: Mode,
}

/// One piece type's movement for one colour, compiled for a geometry.
#[derive(Clone, Debug)]
pub struct PieceTable<B> {
    pub leap_m: Vec<B>,
    pub leap_c: Vec<B>,
    /// Slide ranges per direction (0: none, else the maximum distance).
    pub slide_m: [u32; 8],
    pub slide_c: [u32; 8],
    /// Directions with a slide (bit `d`: [`DIRS`]`[d]`), moving and capturing.
    pub slide_dirs_m: u8,
    pub slide_dirs_c: u8,
    pub range_mask_m: Vec<B>,
    pub range_mask_c: Vec<B>,
    pub limited_m: bool,
    pub limited_c: bool,
    /// Slides are the same for moving and capturing.
    pub uniform: bool,
    /// Lame leaps from each square, and for captures the reverse view: which
    /// squares could lame-capture onto each square, with their path.
    pub lame: Vec<Vec<LameLeap<B>>>,
    pub lame_rev_c: Vec<Vec<LameLeap<B>>>,
    pub riders: Vec<(i32, i32, Mode)>,
    pub hops: Vec<(usize, Mode)>,
    pub igui: Vec<usize>,
}

impl<B: Bits> PieceTable<B> {
    pub fn build<G: Geometry<B = B>>(comps: &[Component], color: usize, zone: Option<B>) -> Self {
        let n = G::SQUARES;
        let flip = if color == 0 { 1 } else { -1 };
        let mut t = PieceTable {
            leap_m: vec![B::ZERO; n],
            leap_c: vec![B::ZERO; n],
            slide_m: [0; 8],
            slide_c: [0; 8],
            slide_dirs_m: 0,
            slide_dirs_c: 0,
            range_mask_m: vec![B::ZERO; n],
            range_mask_c: vec![B::ZERO; n],
            limited_m: false,
            limited_c: false,
            uniform: true,
            lame: vec![Vec::new(); n],
            lame_rev_c: vec![Vec::new(); n],
            riders: vec![],
            hops: vec![],
            igui: vec![],
        };
        let zone = zone.unwrap_or(G::tables().all);
        for c in comps {
            match *c {
                Component::Leap { df, dr, mode, lame, initial } => {
                    let dr = dr * flip;
                    for sq in 0..n {
                        if initial && G::relative_rank(color, sq) != 1 {
                            continue;
                        }
                        let Some(to) = G::offset(sq, df, dr) else {
                            continue;
                        };
                        if !zone.has(to) {
                            continue;
                        }
                        let path = if lame { lame_path::<G>(sq, df, dr) } else { Some(B::ZERO) };
                        let Some(path) = path else { continue };
                        if path.any() {
                            t.lame[sq].push(LameLeap { to, path, mode });
                            if mode.captures() {
                                t.lame_rev_c[to].push(LameLeap { to: sq, path, mode });
                            }
                        } else {
                            if mode.moves() {
                                t.leap_m[sq] |= B::bit(to);
                            }
                            if mode.captures() {
                                t.leap_c[sq] |= B::bit(to);
                            }
                        }
                    }
                }
                Component::Slide { dir, range, mode } => {
                    let (df, dr) = DIRS[dir];
                    let dir = crate::geometry::DIRS.iter().position(|&d| d == (df, dr * flip)).unwrap_or(dir);
                    let r = if range == 0 { u32::MAX } else { range };
                    if mode.moves() {
                        t.slide_m[dir] = r;
                    }
                    if mode.captures() {
                        t.slide_c[dir] = r;
                    }
                }
                Component::Rider { df, dr, mode } => t.riders.push((df, dr * flip, mode)),
                Component::Hop { dir, mode } => {
                    let (df, dr) = DIRS[dir];
                    let d = DIRS.iter().position(|&d| d == (df, dr * flip)).unwrap_or(dir);
                    t.hops.push((d, mode));
                }
                Component::Igui { dir } => {
                    let (df, dr) = DIRS[dir];
                    let d = DIRS.iter().position(|&d| d == (df, dr * flip)).unwrap_or(dir);
                    t.igui.push(d);
                }
            }
        }
        for d in 0..8 {
            if t.slide_m[d] > 0 {
                t.slide_dirs_m |= 1 << d;
            }
            if t.slide_c[d] > 0 {
                t.slide_dirs_c |= 1 << d;
            }
        }
        t.limited_m = t.slide_m.iter().any(|&r| r > 0 && r != u32::MAX);
        t.limited_c = t.slide_c.iter().any(|&r| r > 0 && r != u32::MAX);
        t.uniform = t.slide_m == t.slide_c;
        for sq in 0..n {
            for (ranges, mask) in [(&t.slide_m, &mut t.range_mask_m), (&t.slide_c, &mut t.range_mask_c)] {
                for d in 0..8 {
                    let mut cur = sq;
                    let mut k = 0;
                    while k < ranges[d] {
                        let Some(s) = G::offset(cur, DIRS[d].0, DIRS[d].1) else {
                            break;
                        };
                        mask[sq] |= B::bit(s);
                        cur = s;
                        k += 1;
                    }
                }
                mask[sq] &= zone;
            }
        }
        t
    }
}

/// Slides in the given directions, masked to a range when limited.
#[inline(always)]
pub fn slide_targets<G: Geometry>(sq: usize, occ: G::B, dirs: u8, limited: bool, mask: &[G::B]) -> G::B {
    let att = G::lines(sq, dirs, occ);
    if limited { att & mask[sq] } else { att }
}

/// Rider (leap-rider) targets: landing squares until the first occupied one (included).
pub fn rider_targets<G: Geometry>(sq: usize, occ: G::B, df: i32, dr: i32) -> G::B {
    let mut out = G::B::ZERO;
    let mut cur = sq;
    while let Some(s) = G::offset(cur, df, dr) {
        out |= G::B::bit(s);
        if occ.has(s) {
            break;
        }
        cur = s;
    }
    out
}

/// Hop along `dir`: (empty landing squares beyond one screen, first piece beyond the screen).
#[inline]
pub fn hop_targets<G: Geometry>(sq: usize, occ: G::B, dir: usize) -> (G::B, Option<usize>) {
    let rays = &G::tables().rays[dir];
    let first = rays[sq] & occ;
    if first.is_empty() {
        return (G::B::ZERO, None);
    }
    let screen = G::nearest(first, dir);
    let beyond = G::ray_attacks(screen, dir, occ);
    let beyond_occ = beyond & occ;
    if beyond_occ.is_empty() {
        (beyond, None)
    } else {
        let v = G::nearest(beyond_occ, dir);
        (beyond & !G::B::bit(v), Some(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Board8x8, Board10x10};

    #[test]
    fn knight_and_pawn() {
        let c = parse_betza("N").unwrap();
        assert_eq!(c.len(), 8);
        let t = PieceTable::<u64>::build::<Board8x8>(&c, 0, None);
        assert_eq!(t.leap_c[0].count(), 2);
        let p = parse_betza("fmWfcFifmnD").unwrap();
        let wt = PieceTable::<u64>::build::<Board8x8>(&p, 0, None);
        let bt = PieceTable::<u64>::build::<Board8x8>(&p, 1, None);
        // e2: push e3, captures d3 f3, double step e4 via e3.
        assert_eq!(wt.leap_m[12], 1 << 20);
        assert_eq!(wt.leap_c[12], (1 << 19) | (1 << 21));
        assert_eq!(wt.lame[12].len(), 1);
        assert_eq!(wt.lame[12][0].to, 28);
        assert_eq!(bt.leap_m[52], 1 << 44);
        assert!(bt.lame[12].is_empty());
    }

    #[test]
    fn lame_camel_path_goes_straight_first() {
        let c = parse_betza("nNnC").unwrap();
        let t = PieceTable::<u128>::build::<Board10x10>(&c, 0, None);
        // a1 -> d2 passes b1 and c1.
        let d2 = Board10x10::square(3, 1);
        let e = t.lame[0].iter().find(|l| l.to == d2).unwrap();
        assert_eq!(e.path, (1u128 << 1) | (1u128 << 2));
        // a1 -> c2 passes b1.
        let c2 = Board10x10::square(2, 1);
        assert_eq!(t.lame[0].iter().find(|l| l.to == c2).unwrap().path, 1u128 << 1);
    }

    #[test]
    fn limited_rook() {
        let c = parse_betza("R6").unwrap();
        let t = PieceTable::<u128>::build::<Board10x10>(&c, 0, None);
        let att = slide_targets::<Board10x10>(0, 0, t.slide_dirs_c, t.limited_c, &t.range_mask_c);
        assert_eq!(att.count(), 12);
    }

    #[test]
    fn bad_betza_is_an_error() {
        assert!(parse_betza("Xq").is_err());
        assert!(parse_betza("fm").is_err());
    }
}
