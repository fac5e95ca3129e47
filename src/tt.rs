//! Transposition table shared by all search threads without locks: each
//! entry is two u64 words, the key stored xor-ed with the data, so a torn
//! write (one word from each of two writers) fails the key check.

use crate::moves::Move;
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
}

struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

pub struct TranspositionTable {
    entries: Vec<Entry>,
    /// Number of buckets (entries / BUCKET).
    buckets: usize,
    generation: AtomicU8,
}

/// Data word: move (23 bits) | generation (3) | bound (2) | depth (6) |
/// score (16) | static eval (14, clamped to +-8191): 64 bits in all.
/// The largest static evaluation the table keeps exactly.
pub const EVAL_LIMIT: i32 = 8191;

#[inline]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.0 as u64 & 0x7F_FFFF)
        | ((generation as u64 & 7) << 23)
        | ((bound as u64) << 26)
        | ((depth.clamp(0, 63) as u64) << 28)
        | ((score as i16 as u16 as u64) << 34)
        | (((eval.clamp(-EVAL_LIMIT, EVAL_LIMIT) as i64 as u64) & 0x3FFF) << 50)
}

impl TranspositionTable {
    pub fn new(mib: usize) -> Self {
        let bytes = mib.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Entry>()).max(BUCKET);
        let buckets = n / BUCKET;
        let mut entries = Vec::with_capacity(buckets * BUCKET);
        entries.resize_with(buckets * BUCKET, || Entry { key: AtomicU64::new(0), data: AtomicU64::new(0) });
        TranspositionTable { entries, buckets, generation: AtomicU8::new(0) }
    }

    pub fn clear(&self) {
        for e in &self.entries {
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
    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let b = self.bucket(key);
        for e in &self.entries[b..b + BUCKET] {
            let data = e.data.load(Ordering::Relaxed);
            if e.key.load(Ordering::Relaxed) ^ data == key && data != 0 {
                let bound = match (data >> 26) & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    3 => Bound::Upper,
                    _ => return None,
                };
                return Some(TtHit {
                    mv: Move((data & 0x7F_FFFF) as u32),
                    bound,
                    depth: ((data >> 28) & 63) as i32,
                    score: (data >> 34) as u16 as i16 as i32,
                    eval: ((data as i64) >> 50) as i32,
                });
            }
        }
        None
    }

    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let generation = self.generation.load(Ordering::Relaxed) & 7;
        let mut victim = b;
        let mut worst = i32::MAX;
        for i in b..b + BUCKET {
            let e = &self.entries[i];
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key.load(Ordering::Relaxed) ^ data;
            if data == 0 || k == key {
                // Same position: keep an older move when this store has none.
                let keep_old = k == key && (mv == Move::NONE || mv.is_null());
                let mv = if keep_old { Move((data & 0x7F_FFFF) as u32) } else { mv };
                if k == key && bound != Bound::Exact && depth + 2 < ((data >> 28) & 63) as i32 {
                    return;
                }
                let d = pack(mv, score, eval, depth, bound, generation);
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
        let mv = if mv == Move::NONE { Move::NULL } else { mv };
        let d = pack(mv, score, eval, depth, bound, generation);
        self.entries[victim].key.store(key ^ d, Ordering::Relaxed);
        self.entries[victim].data.store(d, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries used in this generation.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 7;
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
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
        tt.store(0xDEAD_BEEF, m, -31000, 57, 12, Bound::Lower);
        let h = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((h.mv, h.score, h.eval, h.depth, h.bound), (m, -31000, 57, 12, Bound::Lower));
        // Negative and out-of-range static evaluations come back exactly / clamped.
        for (eval, want) in [(-1066, -1066), (-8191, -8191), (8191, 8191), (20000, 8191), (-20000, -8191)] {
            tt.store(0xFEED, Move::NULL, 31999, eval, 63, Bound::Exact);
            let h = tt.probe(0xFEED).unwrap();
            assert_eq!((h.eval, h.score, h.depth, h.bound), (want, 31999, 63, Bound::Exact));
        }
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }
}
