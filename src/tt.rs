//! Transposition table shared by all search threads without locks: each
//! entry is two u64 words, the key stored xor-ed with the data, so a torn
//! write (one word from each of two writers) fails the key check.

use crate::moves::Move;
use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position was on a principal variation when stored (Stockfish's
    /// `ttPv`).
    pub pv: bool,
}

struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// The entries one key may use: one cache line, aligned so that a probe
/// touches one line only.
#[repr(align(64))]
struct Bucket([Entry; BUCKET]);

pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
}

/// The table's memory: `len` empty buckets in one block aligned to 2 MiB,
/// which Linux is asked to back with huge pages before it is first
/// written, as Stockfish does: with 4 KiB pages a probe of a large table
/// mostly misses the TLB, and the page walk cost as much as the probe.
struct Buckets {
    ptr: NonNull<Bucket>,
    len: usize,
}

const HUGE_PAGE: usize = 2 << 20;

// SAFETY: the buckets are atomics, shared as `&[Bucket]` only.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

impl Buckets {
    fn layout(len: usize) -> Layout {
        Layout::from_size_align(len * std::mem::size_of::<Bucket>(), HUGE_PAGE).expect("table size overflows")
    }

    fn new(len: usize) -> Self {
        let layout = Self::layout(len);
        // SAFETY: `layout` has a non-zero size (len >= 1).
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut Bucket) else { handle_alloc_error(layout) };
        #[cfg(target_os = "linux")]
        {
            unsafe extern "C" {
                fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
            }
            const MADV_HUGEPAGE: i32 = 14;
            // SAFETY: the block is ours and page-aligned; the advice is a
            // hint, and its failure (no huge pages) leaves ordinary pages.
            unsafe { madvise(raw as *mut std::ffi::c_void, layout.size(), MADV_HUGEPAGE) };
        }
        // SAFETY: the block is `layout.size()` bytes, and all-zero bytes are
        // empty buckets (an `AtomicU64` is laid out as a `u64`).
        unsafe { raw.write_bytes(0, layout.size()) };
        Buckets { ptr, len }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `new` initialised all `len` buckets, which live until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; buckets need no drop.
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, Self::layout(self.len)) };
    }
}

/// Data word: move (23 bits) | generation (3) | bound (2) | depth (6) |
/// score (16) | on a PV (1) | static eval (13, clamped to +-4095): 64 bits
/// in all. The largest static evaluation the table keeps exactly (three
/// queens and more in the chess network's unit).
pub const EVAL_LIMIT: i32 = 4095;

/// What a store writes besides the key, the move and the generation.
#[derive(Clone, Copy, Debug)]
pub struct TtData {
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    pub pv: bool,
}

#[inline]
fn pack(mv: Move, d: TtData, generation: u8) -> u64 {
    (mv.0 as u64 & 0x7F_FFFF)
        | ((generation as u64 & 7) << 23)
        | ((d.bound as u64) << 26)
        | ((d.depth.clamp(0, 63) as u64) << 28)
        | ((d.score as i16 as u16 as u64) << 34)
        | ((d.pv as u64) << 50)
        | (((d.eval.clamp(-EVAL_LIMIT, EVAL_LIMIT) as i64 as u64) & 0x1FFF) << 51)
}

/// The move of a data word: `Move::NONE` where the entry keeps none (stored
/// as `Move::NULL`, or as `Move::NONE`'s low bits).
#[inline]
fn unpack_move(data: u64) -> Move {
    match (data & 0x7F_FFFF) as u32 {
        0 | 0x7F_FFFF => Move::NONE,
        m => Move(m),
    }
}

impl TranspositionTable {
    pub fn new(mib: usize) -> Self {
        let bytes = mib.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable { buckets: Buckets::new(n), generation: AtomicU8::new(0) }
    }

    pub fn clear(&self) {
        for e in self.buckets.iter().flat_map(|b| &b.0) {
            e.key.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// A new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(((key as u128) * (self.buckets.len() as u128)) >> 64) as usize]
    }

    /// Asks the processor to fetch `key`'s bucket into the cache ahead of
    /// its probe (called right after a move is made). A hint: no effect on
    /// what the table holds.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch only hints the cache; it never faults or
            // reads memory into the program, and `p` points into the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Ordering::Relaxed);
            if e.key.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let bound = match (data >> 26) & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    3 => Bound::Upper,
                    _ => return None,
                };
                return Some(TtHit {
                    mv: unpack_move(data),
                    bound,
                    depth: ((data >> 28) & 63) as i32,
                    score: (data >> 34) as u16 as i16 as i32,
                    eval: ((data as i64) >> 51) as i32,
                    pv: (data >> 50) & 1 != 0,
                });
            }
        }
        None
    }

    pub fn store(&self, key: u64, mv: Move, new: TtData) {
        let TtData { depth, bound, .. } = new;
        let mv = if mv.is_null() { Move::NONE } else { mv };
        let bucket = &self.bucket(key).0;
        let generation = self.generation.load(Ordering::Relaxed) & 7;
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed) ^ data;
            if data == 0 || k == key {
                // Same position: keep an older move when this store has none.
                let keep_old = k == key && mv == Move::NONE;
                let mv = if keep_old { unpack_move(data) } else { mv };
                if k == key && bound != Bound::Exact && depth + 2 < ((data >> 28) & 63) as i32 {
                    return;
                }
                let d = pack(mv, new, generation);
                e.key.store(key ^ d, Ordering::Relaxed);
                e.data.store(d, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(((data >> 23) & 7) as u8) & 7) as i32;
            let value = ((data >> 28) & 63) as i32 - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let d = pack(mv, new, generation);
        bucket[victim].key.store(key ^ d, Ordering::Relaxed);
        bucket[victim].data.store(d, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in this generation.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 7;
        let n = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| &b.0)
            .take(n)
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && ((d >> 23) & 7) as u8 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Kind;
    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(99, 98, Kind::Promotion, 13);
        tt.store(0xDEAD_BEEF, m, TtData { score: -31000, eval: -57, depth: 12, bound: Bound::Lower, pv: true });
        let h = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((h.mv, h.score, h.eval, h.depth, h.bound, h.pv), (m, -31000, -57, 12, Bound::Lower, true));
        // Negative and out-of-range static evaluations come back exactly / clamped.
        for (eval, want) in [(-1066, -1066), (-4095, -4095), (4095, 4095), (20000, 4095), (-20000, -4095)] {
            tt.store(0xFEED, Move::NULL, TtData { score: 31999, eval, depth: 63, bound: Bound::Exact, pv: false });
            let h = tt.probe(0xFEED).unwrap();
            assert_eq!((h.eval, h.score, h.depth, h.bound, h.pv), (want, 31999, 63, Bound::Exact, false));
        }
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }

    #[test]
    fn a_bucket_is_one_cache_line_and_the_table_starts_on_a_huge_page() {
        assert_eq!((std::mem::size_of::<Bucket>(), std::mem::align_of::<Bucket>()), (64, 64));
        let tt = TranspositionTable::new(3);
        assert_eq!(tt.buckets.len(), 3 * 1024 * 1024 / 64);
        assert_eq!(tt.buckets.as_ptr() as usize % HUGE_PAGE, 0);
        // Every bucket starts empty, the last one included.
        let key = u64::MAX;
        assert!(std::ptr::eq(tt.bucket(key), &tt.buckets[tt.buckets.len() - 1]));
        assert!(tt.probe(key).is_none());
        tt.store(key, Move::NULL, TtData { score: 5, eval: 6, depth: 7, bound: Bound::Upper, pv: false });
        assert_eq!(tt.probe(key).map(|h| (h.score, h.eval, h.depth)), Some((5, 6, 7)));
    }

    /// An entry stored without a move, in an empty slot or over one of the
    /// same position, comes back with `Move::NONE`; over one with a move,
    /// it keeps that move.
    #[test]
    fn an_entry_without_a_move_probes_as_none() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(12, 28, Kind::Normal, 0);
        for (key, first) in [(0x1234_5678_u64, Move::NONE), (0x2345_6789, Move::NULL), (0x3456_789A, m)] {
            tt.store(key, first, TtData { score: 1, eval: 2, depth: 3, bound: Bound::Upper, pv: false });
            let want = if first == m { m } else { Move::NONE };
            assert_eq!(tt.probe(key).map(|h| h.mv), Some(want));
            tt.store(key, Move::NONE, TtData { score: 4, eval: 5, depth: 6, bound: Bound::Upper, pv: false });
            assert_eq!(tt.probe(key).map(|h| (h.mv, h.score)), Some((want, 4)));
        }
    }
}
