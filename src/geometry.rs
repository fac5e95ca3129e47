//! Board geometry, fixed at compile time: one type per board size, each with
//! its own bitboard width and its own tables (built once, on first use).

use crate::bitboard::Bits;
use crate::magic::Magics;
use std::ops::{Index, IndexMut};
use std::sync::OnceLock;

/// An array of fixed length known at compile time, named by the trait that
/// sizes it: a geometry's board of squares, a variant's bitboards by piece
/// type. A position is copied for every move searched, so each holds no more
/// entries than its own board or its own pieces need.
pub trait FixedArray<T>:
    Copy + Send + Sync + std::fmt::Debug + 'static + Index<usize, Output = T> + IndexMut<usize> + AsRef<[T]> + AsMut<[T]>
{
    /// Every entry `v`.
    fn filled(v: T) -> Self;
}

impl<T: Copy + Send + Sync + std::fmt::Debug + 'static, const N: usize> FixedArray<T> for [T; N] {
    #[inline(always)]
    fn filled(v: T) -> Self {
        [v; N]
    }
}

/// The eight line directions as (file step, rank step). Even indices point to
/// higher square numbers (their first blocker is the lowest bit), odd indices
/// are their opposites.
pub const DIRS: [(i32, i32); 8] = [
    (0, 1),   // N
    (0, -1),  // S
    (1, 0),   // E
    (-1, 0),  // W
    (1, 1),   // NE
    (-1, -1), // SW
    (-1, 1),  // NW
    (1, -1),  // SE
];

/// Index of the opposite direction.
#[inline(always)]
pub const fn opposite(d: usize) -> usize {
    d ^ 1
}

/// Tables every geometry owns.
pub struct GeoTables<B> {
    /// `rays[d][sq]`: the squares from `sq` (exclusive) to the edge in direction `d`.
    pub rays: [Vec<B>; 8],
    /// `between[a * SQUARES + b]`: the squares strictly between a and b on a line (or empty).
    pub between: Vec<B>,
    pub files: Vec<B>,
    pub ranks: Vec<B>,
    /// All squares of the board.
    pub all: B,
    /// Dark squares (a1 is dark).
    pub dark: B,
}

/// A board size known at compile time.
pub trait Geometry: 'static + Copy + Send + Sync + Default + std::fmt::Debug {
    type B: Bits;
    /// One byte per square (a position's board): `[u8; SQUARES]`.
    type Squares: FixedArray<u8>;
    const FILES: usize;
    const RANKS: usize;
    const SQUARES: usize = Self::FILES * Self::RANKS;
    const NAME: &'static str;
    fn tables() -> &'static GeoTables<Self::B>;

    #[inline(always)]
    fn file_of(sq: usize) -> usize {
        sq % Self::FILES
    }
    #[inline(always)]
    fn rank_of(sq: usize) -> usize {
        sq / Self::FILES
    }
    #[inline(always)]
    fn square(file: usize, rank: usize) -> usize {
        rank * Self::FILES + file
    }
    /// The square `(file + df, rank + dr)` if it is on the board.
    #[inline]
    fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
        let f = Self::file_of(sq) as i32 + df;
        let r = Self::rank_of(sq) as i32 + dr;
        if f >= 0 && r >= 0 && (f as usize) < Self::FILES && (r as usize) < Self::RANKS {
            Some(Self::square(f as usize, r as usize))
        } else {
            None
        }
    }
    /// Rank counted from a side's own edge (0 = its first rank).
    #[inline(always)]
    fn relative_rank(color: usize, sq: usize) -> usize {
        let r = Self::rank_of(sq);
        if color == 0 { r } else { Self::RANKS - 1 - r }
    }
    #[inline(always)]
    fn rank_bb(rank: usize) -> Self::B {
        Self::tables().ranks[rank]
    }
    #[inline(always)]
    fn file_bb(file: usize) -> Self::B {
        Self::tables().files[file]
    }
    #[inline(always)]
    fn between(a: usize, b: usize) -> Self::B {
        Self::tables().between[a * Self::SQUARES + b]
    }
    /// The square of `on_ray` (a non-empty subset of a ray in direction `d`)
    /// nearest to the ray's origin.
    #[inline(always)]
    fn nearest(on_ray: Self::B, d: usize) -> usize {
        if d & 1 == 0 { on_ray.lsb() } else { on_ray.msb() }
    }
    /// Distance in king steps (the larger of the file and rank distances).
    #[inline]
    fn distance(a: usize, b: usize) -> usize {
        Self::file_of(a).abs_diff(Self::file_of(b)).max(Self::rank_of(a).abs_diff(Self::rank_of(b)))
    }
    /// Slider attacks along one direction, stopping at (and including) the first blocker.
    #[inline(always)]
    fn ray_attacks(sq: usize, d: usize, occ: Self::B) -> Self::B {
        let t = Self::tables();
        let ray = t.rays[d][sq];
        let blockers = ray & occ;
        if blockers.is_empty() { ray } else { ray ^ t.rays[d][Self::nearest(blockers, d)] }
    }
    /// Slider attacks along every direction whose bit is set in `dirs`
    /// (bit `d`: [`DIRS`]`[d]`). The boards of a u64 look them up in magic
    /// tables; the others scan each ray.
    #[inline(always)]
    fn lines(sq: usize, dirs: u8, occ: Self::B) -> Self::B {
        let mut att = Self::B::ZERO;
        let mut m = dirs;
        while m != 0 {
            att |= Self::ray_attacks(sq, m.trailing_zeros() as usize, occ);
            m &= m - 1;
        }
        att
    }
    /// `a1`, `j10`, `a31`.
    fn square_name(sq: usize) -> String {
        format!("{}{}", (b'a' + Self::file_of(sq) as u8) as char, Self::rank_of(sq) + 1)
    }
    /// Parses a square name; `None` when it is not on this board.
    fn parse_square(s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 3
            || !digits.bytes().all(|c| c.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let r: usize = digits.parse().ok()?;
        let file = (f as u8 - b'a') as usize;
        if file < Self::FILES && r >= 1 && r <= Self::RANKS { Some(Self::square(file, r - 1)) } else { None }
    }
}

/// Builds a geometry's tables; every geometry calls this once.
pub fn build_tables<G: Geometry>() -> GeoTables<G::B> {
    let n = G::SQUARES;
    let rays: [Vec<G::B>; 8] = std::array::from_fn(|d| {
        (0..n)
            .map(|sq| {
                let mut bb = G::B::ZERO;
                let mut cur = sq;
                while let Some(s) = G::offset(cur, DIRS[d].0, DIRS[d].1) {
                    bb |= G::B::bit(s);
                    cur = s;
                }
                bb
            })
            .collect()
    });
    let mut between = vec![G::B::ZERO; n * n];
    for a in 0..n {
        for &(df, dr) in &DIRS {
            let mut cur = a;
            let mut acc = G::B::ZERO;
            while let Some(s) = G::offset(cur, df, dr) {
                between[a * n + s] = acc;
                acc |= G::B::bit(s);
                cur = s;
            }
        }
    }
    let files = (0..G::FILES).map(|f| (0..G::RANKS).fold(G::B::ZERO, |b, r| b | G::B::bit(G::square(f, r)))).collect();
    let ranks = (0..G::RANKS).map(|r| (0..G::FILES).fold(G::B::ZERO, |b, f| b | G::B::bit(G::square(f, r)))).collect();
    let all = (0..n).fold(G::B::ZERO, |b, s| b | G::B::bit(s));
    let dark = (0..n).filter(|&s| (G::file_of(s) + G::rank_of(s)) % 2 == 0).fold(G::B::ZERO, |b, s| b | G::B::bit(s));
    GeoTables { rays, between, files, ranks, all, dark }
}

/// The orthogonal directions' bits in a `dirs` mask of [`Geometry::lines`].
pub const ORTH: u8 = 0x0f;
/// The diagonal directions' bits.
pub const DIAG: u8 = 0xf0;

/// [`Geometry::lines`] by magic lookups: one for the orthogonal and one for
/// the diagonal directions, masked to the rays asked for when not all four.
#[inline(always)]
fn magic_lines<G: Geometry<B = u64>>(magics: &Magics, sq: usize, dirs: u8, occ: u64) -> u64 {
    let part = |set: u8, att: u64| {
        if set == ORTH || set == DIAG {
            att
        } else {
            // The rays' table only for a partial set: most calls ask for
            // all four lines and skip its look-up.
            let rays = &G::tables().rays;
            let mut m = set;
            let mut keep = 0;
            while m != 0 {
                keep |= rays[m.trailing_zeros() as usize][sq];
                m &= m - 1;
            }
            att & keep
        }
    };
    let mut att = 0;
    if dirs & ORTH != 0 {
        att |= part(dirs & ORTH, magics.orth(sq, occ));
    }
    if dirs & DIAG != 0 {
        att |= part(dirs & DIAG, magics.diag(sq, occ));
    }
    att
}

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, u64, $files:expr, $ranks:expr, magic($multipliers:expr)) => {
        geometry!($(#[$doc])* $name, u64, $files, $ranks, {
            #[inline(always)]
            fn lines(sq: usize, dirs: u8, occ: u64) -> u64 {
                static M: OnceLock<Magics> = OnceLock::new();
                magic_lines::<$name>(M.get_or_init(|| Magics::build::<$name>(&$multipliers)), sq, dirs, occ)
            }
        });
    };
    ($(#[$doc:meta])* $name:ident, $bits:ty, $files:expr, $ranks:expr) => {
        geometry!($(#[$doc])* $name, $bits, $files, $ranks, {});
    };
    ($(#[$doc:meta])* $name:ident, $bits:ty, $files:expr, $ranks:expr, { $($extra:tt)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
        impl Geometry for $name {
            type B = $bits;
            type Squares = [u8; $files * $ranks];
            const FILES: usize = $files;
            const RANKS: usize = $ranks;
            const NAME: &'static str = stringify!($name);
            #[inline(always)]
            fn tables() -> &'static GeoTables<$bits> {
                static T: OnceLock<GeoTables<$bits>> = OnceLock::new();
                T.get_or_init(build_tables::<$name>)
            }
            $($extra)*
        }
        const _: () = assert!($files * $ranks <= <$bits>::BITS as usize);
    };
}

geometry!(
    /// 8x8: chess, IAGO, Historia Ŝako.
    Board8x8, u64, 8, 8, magic(crate::magic::MULTIPLIERS_8X8)
);
geometry!(
    /// 10x10: Ita.
    Board10x10, u128, 10, 10
);
geometry!(
    /// 7 files x 8 ranks: Etcetera.
    Board7x8, u64, 7, 8, magic(crate::magic::MULTIPLIERS_7X8)
);
geometry!(
    /// 1 file x 31 ranks: Ito Shogi.
    Board1x31, u32, 1, 31
);

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn squares_round_trip() {
        assert_eq!(Board10x10::parse_square("j10"), Some(99));
        assert_eq!(Board10x10::square_name(99), "j10");
        assert_eq!(Board1x31::parse_square("a31"), Some(30));
        assert_eq!(Board1x31::parse_square("b1"), None);
        assert_eq!(Board8x8::parse_square("a9"), None);
        assert_eq!(Board8x8::parse_square("a01"), None);
        assert_eq!(Board7x8::parse_square("g8"), Some(55));
        assert_eq!(Board7x8::parse_square("h1"), None);
    }
    #[test]
    fn rays_and_between() {
        // a1 -> north on 7x8 is a2..a8: 7 squares, stepping by 7.
        let r = Board7x8::tables().rays[0][0];
        assert_eq!(r.count(), 7);
        assert!(r.has(7) && r.has(49));
        assert_eq!(Board10x10::between(0, 99).count(), 8);
        assert_eq!(Board8x8::between(0, 10), 0);
        // blocked ray on 10x10: rook on a1, blocker on a4 -> a2, a3, a4.
        let occ = u128::bit(30);
        assert_eq!(Board10x10::ray_attacks(0, 0, occ).count(), 3);
    }
}
