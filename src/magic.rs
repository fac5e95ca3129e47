//! Magic bitboards for the boards that fit a u64 (8x8, 7x8): the orthogonal
//! and the diagonal slides from a square, each one table lookup instead of
//! one ray scan per direction. The tables are built once from the
//! geometry's rays (so they agree with [`Geometry::ray_attacks`] by
//! construction) and multipliers found once by [`Magics::build`]'s search
//! (fixed seed) and kept below, so building takes milliseconds.

use crate::bitboard::Bits;
use crate::geometry::Geometry;
use crate::rng::SplitMix64;

/// Board8x8's multipliers: the orthogonal slides' of every square, then the diagonal ones'.
pub const MULTIPLIERS_8X8: [u64; 128] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0050500500080100,
    0x0000020080040080,
    0x0c10010400420810,
    0x1040008200005104,
    0x01808240088004a0,
    0x0882804004802000,
    0x0880402001001100,
    0x2000210409001000,
    0x2000480131001500,
    0x0000800400800200,
    0x000002380c001003,
    0x4600084882000431,
    0x0080002000504000,
    0x0300500020004002,
    0x0040408200220011,
    0x0010040008004040,
    0x0000080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
    0x20c0090901061081,
    0x7020024202006004,
    0x008c0c4082080010,
    0x0011040484620000,
    0x0081104002221000,
    0x0009012011001350,
    0x1001421220210000,
    0x0000420210010408,
    0x0080402405140300,
    0x0001028484040044,
    0x2a00880810408804,
    0x7020022282000100,
    0x0084040420100a50,
    0x000401010840e000,
    0x010046010c210d04,
    0x0008084202012010,
    0x0408602006044800,
    0x0445122008020840,
    0x0804100808002008,
    0x8004001803282020,
    0x0080804400a00280,
    0x000a021101019224,
    0x480c210084010800,
    0x3004442500480420,
    0x1010102240048100,
    0x00182009084220a3,
    0x000201000a041400,
    0x0208080040202020,
    0x000c044084010040,
    0x0008008011406007,
    0x6008210020640202,
    0x1401005221024800,
    0x0008200400308c12,
    0x008c0c2011242344,
    0x0000508200100c00,
    0x0402004042940100,
    0x0860108400008020,
    0x000c080022021000,
    0x0208050300304810,
    0x4005031221010401,
    0x2001902460005011,
    0x1004040404201280,
    0x8c81003804020200,
    0x0200006011000801,
    0x9000081300424400,
    0x0412020801080e00,
    0x1012501200800201,
    0x000408008b000020,
    0x0104208414200200,
    0x2002120084045420,
    0x0704020062080002,
    0x0000001084040001,
    0x8000605026020104,
    0x0800200a04084401,
    0x0140824832008042,
    0x0882860206060400,
    0x0083042805141020,
    0x002c12009a011000,
    0x0041a00044140400,
    0x0007108002840400,
    0x0000140010020210,
    0x8000400a30210200,
    0x2048184841440c00,
    0x0005011802058200,
];

/// Board7x8's multipliers: the orthogonal slides' of every square, then the diagonal ones'.
pub const MULTIPLIERS_7X8: [u64; 112] = [
    0x4100020002084086,
    0x008040020010008c,
    0x5100208010080080,
    0x0400402028021008,
    0x0100200040200100,
    0x0500080040004020,
    0x0400100804402c00,
    0x0012000808001001,
    0x1002020004004410,
    0x0022008004004060,
    0x4224008020021220,
    0x020c004020012801,
    0x0010001041182800,
    0x9002001000200050,
    0x0100020004002108,
    0x0001120004040020,
    0x090a100108811000,
    0x003008100200100b,
    0x00b4080042020081,
    0x0028040800808000,
    0x0000100020202400,
    0x0001000800201044,
    0x4000802400140048,
    0x2124089008080083,
    0x0010004802004000,
    0xc004009001000200,
    0x2000084000843000,
    0x8064022000208408,
    0x4700020008080010,
    0x0800808048002001,
    0x2240400810080088,
    0x8002008010020000,
    0x1030200810010012,
    0x0040088080011008,
    0x8000844040002101,
    0x0420840400200421,
    0x8040808008300402,
    0x4001100804800812,
    0x0000280100401000,
    0x1418040080208004,
    0x1018008080800100,
    0x011a0050012004c4,
    0x1004040105108000,
    0x9180840400408008,
    0x1042208004004008,
    0x0202004002004004,
    0x0000200800804050,
    0x0c64012001088000,
    0x0300084008210031,
    0x1100260044002840,
    0x0140008008001140,
    0x0020010040020020,
    0x0118008088080200,
    0x0108004004040201,
    0x8144014040005100,
    0x1002005000911480,
    0x0240800814210098,
    0x01a040d00a002801,
    0x801020080000022e,
    0x0008501030982210,
    0x3c08406200140002,
    0x8010108088001000,
    0x0000888244040004,
    0x040c410080106480,
    0x2084401420820000,
    0x4000442009040000,
    0x2880210400030000,
    0x80021080c0400880,
    0xc040088044400000,
    0x8100812100848000,
    0x0008028201114018,
    0x0240001484402000,
    0x0004002081400400,
    0x500810c046000003,
    0x0004086010804000,
    0x31100410128800c0,
    0x1082401028481000,
    0x0020140100840021,
    0x1810824444208408,
    0x0000409c20308000,
    0x4481200040480000,
    0x00c2080004040002,
    0x002044084082b400,
    0x0028040040108210,
    0x006021004106a508,
    0x0001204014218100,
    0x0042a04002801010,
    0x0010700201804001,
    0x0102082015404050,
    0x0008055000840031,
    0x0020100840112810,
    0x0444201280100002,
    0x0008044480048008,
    0x0000480520840046,
    0x1040020120050000,
    0x002d004012088200,
    0x0008814024004000,
    0x006440102000a042,
    0x0302201501800008,
    0x1404044022048402,
    0xc1000304c2008b80,
    0x60080080a5000001,
    0x2800020080c20400,
    0x0014210080508090,
    0x8808208011401000,
    0x0848040502020000,
    0x10190008c0c88810,
    0x8c120080202c0011,
    0x0010214004120820,
    0x0a18280401588100,
    0x0804010200438020,
    0x0011041084422212,
];
/// One square's lookup: `offset + ((occ & mask) * magic) >> shift`.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Entry {
    #[inline(always)]
    fn index(&self, occ: u64) -> usize {
        self.offset + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Orthogonal (directions 0-3) and diagonal (4-7) slide tables of one geometry.
pub struct Magics {
    orth: Vec<Entry>,
    diag: Vec<Entry>,
    table: Vec<u64>,
    /// How many multipliers the build had to search for (not given or not fitting).
    searched: usize,
}

impl Magics {
    /// The orthogonal slides from `sq` (up to and including the first blocker).
    #[inline(always)]
    pub fn orth(&self, sq: usize, occ: u64) -> u64 {
        self.table[self.orth[sq].index(occ)]
    }
    /// The diagonal slides from `sq`.
    #[inline(always)]
    pub fn diag(&self, sq: usize, occ: u64) -> u64 {
        self.table[self.diag[sq].index(occ)]
    }

    /// Builds `G`'s tables with the multipliers `known` (orthogonal ones of
    /// every square, then diagonal ones), searching for any missing or not
    /// fitting (a few milliseconds each).
    pub fn build<G: Geometry<B = u64>>(known: &[u64]) -> Self {
        let mut m = Magics { orth: Vec::new(), diag: Vec::new(), table: Vec::new(), searched: 0 };
        let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        for sq in 0..G::SQUARES {
            let e = m.add::<G>(sq, 0..4, known.get(sq).copied(), &mut rng);
            m.orth.push(e);
            let e = m.add::<G>(sq, 4..8, known.get(G::SQUARES + sq).copied(), &mut rng);
            m.diag.push(e);
        }
        m
    }

    /// The multipliers in use, in `build`'s order.
    pub fn multipliers(&self) -> Vec<u64> {
        self.orth.iter().chain(&self.diag).map(|e| e.magic).collect()
    }

    /// Finds a multiplier for `sq`'s slides along `dirs` (`known` first) and appends its table.
    fn add<G: Geometry<B = u64>>(
        &mut self,
        sq: usize,
        dirs: std::ops::Range<usize>,
        known: Option<u64>,
        rng: &mut SplitMix64,
    ) -> Entry {
        let rays = &G::tables().rays;
        // The squares whose occupancy matters: each ray but its last square.
        let mask = dirs.clone().fold(0u64, |m, d| {
            let ray = rays[d][sq];
            if ray == 0 { m } else { m | (ray & !u64::bit(if d & 1 == 0 { ray.msb() } else { ray.lsb() })) }
        });
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Every subset of the mask (carry-rippler) with its slides.
        let mut subsets = Vec::with_capacity(size);
        let mut occ = 0u64;
        loop {
            let att = dirs.clone().fold(0u64, |a, d| a | G::ray_attacks(sq, d, occ));
            subsets.push((occ, att));
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                break;
            }
        }
        let shift = 64 - bits.max(1);
        let mut slots = vec![(0u32, 0u64); size.max(2)];
        let mut attempt = 0u32;
        let mut searching = false;
        loop {
            attempt += 1;
            let magic = match known {
                Some(k) if attempt == 1 => k,
                _ => {
                    if !searching {
                        self.searched += 1;
                        searching = true;
                    }
                    rng.next_u64() & rng.next_u64() & rng.next_u64()
                }
            };
            let entry = Entry { mask, magic, shift, offset: 0 };
            let fits = subsets.iter().all(|&(occ, att)| {
                let slot = &mut slots[entry.index(occ)];
                if slot.0 != attempt {
                    *slot = (attempt, att);
                    true
                } else {
                    slot.1 == att
                }
            });
            if fits {
                let offset = self.table.len();
                self.table.resize(offset + slots.len(), 0);
                for (i, &(stamp, att)) in slots.iter().enumerate() {
                    if stamp == attempt {
                        self.table[offset + i] = att;
                    }
                }
                return Entry { offset, ..entry };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Board7x8, Board8x8};

    /// The lookups equal the ray scans for every square and many occupancies.
    fn agrees<G: Geometry<B = u64>>(known: &[u64]) {
        let m = Magics::build::<G>(known);
        assert_eq!(m.searched, 0, "{}: every given multiplier fits", G::NAME);
        assert_eq!(m.multipliers(), known);
        let mut rng = SplitMix64::new(7);
        let all = G::tables().all;
        for sq in 0..G::SQUARES {
            for _ in 0..200 {
                let occ = rng.next_u64() & rng.next_u64() & all;
                let orth = (0..4).fold(0, |a, d| a | G::ray_attacks(sq, d, occ));
                let diag = (4..8).fold(0, |a, d| a | G::ray_attacks(sq, d, occ));
                assert_eq!(m.orth(sq, occ), orth, "{} orth {sq} {occ:#x}", G::NAME);
                assert_eq!(m.diag(sq, occ), diag, "{} diag {sq} {occ:#x}", G::NAME);
            }
        }
    }

    #[test]
    fn magic_slides_equal_ray_scans() {
        agrees::<Board8x8>(&MULTIPLIERS_8X8);
        agrees::<Board7x8>(&MULTIPLIERS_7X8);
        // A rook on d4 (8x8) with blockers on d6 and b4: d5 d6, d3 d2 d1, c4 b4, e4 f4 g4 h4.
        let m = Magics::build::<Board8x8>(&MULTIPLIERS_8X8);
        let occ = u64::bit(43) | u64::bit(25);
        assert_eq!(m.orth(27, occ).count(), 11);
    }

    /// Without given multipliers the search finds ones that agree too.
    #[test]
    fn searched_multipliers_agree() {
        let m = Magics::build::<Board7x8>(&[]);
        assert_eq!(m.searched, 2 * 56);
        agrees::<Board7x8>(&m.multipliers());
    }
}
