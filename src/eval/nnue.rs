//! An efficiently updatable neural network (NNUE) evaluation: one hidden
//! layer seen from both sides, `(F -> H) x 2 -> 1`, trained by
//! `tools/nnue/train.py` (format: `docs/nnue.md`).
//!
//! **Features.** The same for every variant, read from the position's
//! bitboards and hands, so no rule of any variant needs a hook: from the
//! point of view of side `p`, a piece of type `t` of the side `rel` (0: `p`'s
//! own, 1: the other's) on square `s` is feature `(rel * T + t - 1) * N + s'`,
//! where `s'` is `s` seen from `p`'s side ([`seen_from`]: ranks counted
//! from `p`'s first, files turned too where the game is symmetric by a half
//! turn), `T` the variant's piece types and `N` its squares; `k`
//! pieces of a type in hand are the `min(k, HAND_CAP)` features
//! `2 T N + (rel * T + t - 1) * HAND_CAP + i`, `i < k`.
//!
//! **Inference.** An accumulator per side (`H` i16 sums of the active
//! features' weights) is kept per ply by [`NnueStack`]: a node's accumulator
//! is the parent's plus the weights of the features that appeared and less
//! those that went, found by comparing the two positions' piece bitboards
//! and hands (a copy-make engine has both at hand, and the comparison knows
//! every variant's moves: drops, igui captures, flips, cannibals). The
//! output is `sum(clamp(acc_us, 0, QA) * w_us) + sum(clamp(acc_them, 0, QA)
//! * w_them) + b`, scaled by `SCALE / (QA * QB)` to centipawns; with the
//! squared clipped activation (SCReLU, version 3 files) the clamped values
//! are squared, `QB` is [`QB_SCRELU`] and the scale `SCALE / (QA * QA * QB)`.

use super::weights::{Reader, WeightsError, read_bytes};
use crate::bitboard::Bits;
use crate::geometry::{FixedArray, Geometry};
use crate::position::Position;
use crate::variant::{Bb, MAX_TYPES, Variant, seen_from};

pub const MAGIC: &[u8; 8] = b"CALVINNN";
/// Version 2 adds the kind byte (version 1 files are read as networks that
/// are the whole evaluation); version 3 the activation byte (version 1 and 2
/// files are read as clipped ReLU); version 4 output buckets (the bucket
/// count and the board pieces one spans, then an output layer per bucket;
/// earlier files have one).
pub const VERSION: u16 = 4;
/// The feature transformer's quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output weights' quantisation: 1.0 is `QB`.
pub const QB: i32 = 1024;
/// The output weights' quantisation under SCReLU: `|w| <= 127`, so that
/// `clamp(acc, 0, QA) * w` fits an i16 (the product is then multiplied by
/// the clamped value again in i32).
pub const QB_SCRELU: i32 = 64;

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Clipped ReLU, `clamp(x, 0, 1)`.
    CReLU,
    /// Squared clipped ReLU, `clamp(x, 0, 1)^2`.
    SCReLU,
}

impl Activation {
    /// The output weights' quantisation.
    pub fn qb(self) -> i32 {
        match self {
            Activation::CReLU => QB,
            Activation::SCReLU => QB_SCRELU,
        }
    }
}
/// The network's output 1.0 is `SCALE` centipawns.
pub const SCALE: i32 = 400;
/// Pieces of one type in hand beyond this many add no feature.
pub const HAND_CAP: usize = 8;
/// The hidden layer's width must be a multiple of this (the SIMD lanes).
pub const LANES: usize = 16;
/// The widest hidden layer read.
pub const MAX_HIDDEN: usize = 2048;

/// The number of features of `V`.
pub fn feature_count<V: Variant>() -> usize {
    let t = V::PIECES.len();
    2 * t * V::G::SQUARES + 2 * t * HAND_CAP
}

/// The feature of a piece of `color` and type `t` on `sq`, seen by `persp`.
#[inline(always)]
pub fn board_feature<V: Variant>(persp: usize, color: usize, t: u8, sq: usize) -> usize {
    let rel = (color != persp) as usize;
    let s = seen_from::<V>(persp, sq);
    (rel * V::PIECES.len() + t as usize - 1) * V::G::SQUARES + s
}

/// The `i`-th feature (from 0) of pieces of `color` and type `t` in hand, seen by `persp`.
#[inline(always)]
pub fn hand_feature<V: Variant>(persp: usize, color: usize, t: u8, i: usize) -> usize {
    let rel = (color != persp) as usize;
    let types = V::PIECES.len();
    2 * types * V::G::SQUARES + (rel * types + t as usize - 1) * HAND_CAP + i
}

/// The active features of `pos` seen by `persp`, in a fixed order (board
/// pieces by colour, type and square, then hands).
pub fn active_features<V: Variant>(pos: &Position<V>, persp: usize, out: &mut Vec<u16>) {
    out.clear();
    for color in 0..2 {
        for t in 1..=V::PIECES.len() as u8 {
            for sq in pos.pieces(color, t).iter() {
                out.push(board_feature::<V>(persp, color, t, sq) as u16);
            }
            for i in 0..(pos.hand[color][t as usize] as usize).min(HAND_CAP) {
                out.push(hand_feature::<V>(persp, color, t, i) as u16);
            }
        }
    }
}

/// A network read from a `CALVINNN` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub variant: String,
    pub features: usize,
    pub hidden: usize,
    /// The network's output is added to the formula's evaluation (trained
    /// on what the formula misses) instead of replacing it.
    pub on_top: bool,
    pub activation: Activation,
    /// The piece types the network was widened to ([`Network::fit`]) and
    /// the types whose rows they read, `A read as Q`; empty: none.
    pub read_as: String,
    /// A network that is the whole evaluation, widened: for each type that
    /// reads a stand-in's rows, its value less the stand-in's
    /// ([`Network::stand_in_material`]); empty otherwise.
    pub value_gaps: Vec<(u8, i32)>,
    /// `ft_weights[f * hidden..][..hidden]`: feature `f`'s row.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// Output buckets: the output layer a position is read with is chosen
    /// by the pieces on its board, `divisor` of them a bucket ([`Network::bucket`]).
    pub divisor: usize,
    /// Per bucket: the side to move's half, then the other side's.
    out_weights: Vec<i16>,
    /// Per bucket (its length is the bucket count).
    out_bias: Vec<i32>,
}

impl Network {
    /// Parses a net file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, WeightsError> {
        let (mut r, version, variant) = Reader::open_versions(bytes, MAGIC, 1..=VERSION)?;
        let features = r.u32("the feature count")? as usize;
        let hidden = r.u32("the hidden width")? as usize;
        let on_top = match if version >= 2 { r.u8("the kind")? } else { 0 } {
            0 => false,
            1 => true,
            k => {
                return Err(WeightsError::WrongShape(format!(
                    "kind {k} (0: the evaluation, 1: on top of the formula)"
                )));
            }
        };
        let activation = match if version >= 3 { r.u8("the activation")? } else { 0 } {
            0 => Activation::CReLU,
            1 => Activation::SCReLU,
            a => {
                return Err(WeightsError::WrongShape(format!(
                    "activation {a} (0: clipped ReLU, 1: squared clipped ReLU)"
                )));
            }
        };
        let (buckets, divisor) =
            if version >= 4 { (r.u8("the bucket count")? as usize, r.u8("the bucket size")? as usize) } else { (1, 1) };
        if buckets == 0 || divisor == 0 {
            return Err(WeightsError::WrongShape(format!("{buckets} output buckets of {divisor} pieces")));
        }
        if hidden == 0 || !hidden.is_multiple_of(LANES) || hidden > MAX_HIDDEN || features > u16::MAX as usize {
            return Err(WeightsError::WrongShape(format!(
                "{features} features and {hidden} hidden (at most {} features; hidden a multiple of {LANES} up to {MAX_HIDDEN})",
                u16::MAX
            )));
        }
        let mut i16s = |count: usize, what: &'static str| -> Result<Vec<i16>, WeightsError> {
            let b = r.take(count * 2, what)?;
            Ok(b.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect())
        };
        let ft_weights = i16s(features * hidden, "the feature weights")?;
        let ft_bias = i16s(hidden, "the feature biases")?;
        let out_weights = i16s(buckets * 2 * hidden, "the output weights")?;
        let out_bias = (0..buckets).map(|_| r.u32("the output bias").map(|b| b as i32)).collect::<Result<_, _>>()?;
        if r.left() > 0 {
            return Err(WeightsError::Trailing(r.left()));
        }
        if activation == Activation::SCReLU && out_weights.iter().any(|w| w.unsigned_abs() > 127) {
            return Err(WeightsError::WrongShape("an output weight beyond +-127 (SCReLU)".into()));
        }
        Ok(Network {
            variant,
            features,
            hidden,
            on_top,
            activation,
            read_as: String::new(),
            value_gaps: Vec::new(),
            ft_weights,
            ft_bias,
            divisor,
            out_weights,
            out_bias,
        })
    }

    pub fn read_file(path: &str) -> Result<Network, WeightsError> {
        Network::from_bytes(&read_bytes(path)?)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(VERSION.to_le_bytes());
        let name = &self.variant.as_bytes()[..self.variant.len().min(255)];
        out.push(name.len() as u8);
        out.extend(name);
        out.extend((self.features as u32).to_le_bytes());
        out.extend((self.hidden as u32).to_le_bytes());
        out.push(u8::from(self.on_top));
        out.push(match self.activation {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        });
        out.extend([self.buckets() as u8, self.divisor as u8]);
        for w in self.ft_weights.iter().chain(&self.ft_bias).chain(&self.out_weights) {
            out.extend(w.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend(b.to_le_bytes());
        }
        out
    }

    /// A network of the given shape with weights from `f(index)`, in file
    /// order (tests); `buckets` output buckets of `divisor` pieces each.
    pub fn from_fn(
        variant: &str,
        features: usize,
        hidden: usize,
        (buckets, divisor): (usize, usize),
        mut f: impl FnMut(usize) -> i16,
    ) -> Network {
        let mut i = 0;
        let mut take = |n: usize| -> Vec<i16> {
            (0..n)
                .map(|_| {
                    i += 1;
                    f(i - 1)
                })
                .collect()
        };
        let ft_weights = take(features * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(buckets * 2 * hidden);
        let out_bias = take(buckets).into_iter().map(|b| b as i32 * QA).collect();
        Network {
            variant: variant.into(),
            features,
            hidden,
            on_top: false,
            activation: Activation::CReLU,
            read_as: String::new(),
            value_gaps: Vec::new(),
            ft_weights,
            ft_bias,
            divisor,
            out_weights,
            out_bias,
        }
    }

    /// Its shape, `<features>x<hidden>` (what `eval` and `EvalFile` show),
    /// `on top of the formula` where it corrects the formula, its output
    /// buckets where it has more than one, and the types
    /// it was widened to (`A read as Q`).
    pub fn shape(&self) -> String {
        let kind = if self.on_top { " on top of the formula" } else { "" };
        let act = if self.activation == Activation::SCReLU { " SCReLU" } else { "" };
        let buckets = if self.buckets() > 1 { format!(", {} output buckets", self.buckets()) } else { String::new() };
        let sep = if self.read_as.is_empty() { "" } else { ", " };
        format!("{}x{}{act}{kind}{buckets}{sep}{}", self.features, self.hidden, self.read_as)
    }

    /// Whether the network is `V`'s: its name and feature count.
    pub fn check<V: Variant>(&self) -> Result<(), WeightsError> {
        if self.variant != V::NAME {
            return Err(WeightsError::WrongVariant { file: self.variant.clone(), expected: V::NAME.into() });
        }
        if self.features != feature_count::<V>() {
            return Err(WeightsError::WrongShape(format!(
                "{} features, {} has {}",
                self.features,
                V::NAME,
                feature_count::<V>()
            )));
        }
        Ok(())
    }

    /// The network for `V`: itself where its feature count is `V`'s
    /// ([`Network::check`]); or, where it knows only `V`'s first piece types
    /// (a piece set that a rule option widens, as IAGO's Amazon), widened
    /// to all of them: the known types' rows (board and hand) go to their
    /// places in `V`'s layout, and each other type reads the rows of its
    /// stand-in, `(type, stand-in)` in `stand_ins` (`Evaluator::NET_STAND_INS`).
    /// A type without one makes the network `V`'s feature count's error.
    pub fn fit<V: Variant>(&self, stand_ins: &[(u8, u8)]) -> Result<Network, WeightsError> {
        let wrong = match self.check::<V>() {
            Ok(()) => return Ok(self.clone()),
            Err(e @ WeightsError::WrongShape(_)) => e,
            Err(e) => return Err(e),
        };
        let (n, types) = (V::G::SQUARES, V::PIECES.len());
        let per_type = 2 * (n + HAND_CAP);
        let known = self.features / per_type;
        // The type whose rows each of `V`'s types reads (types from 1).
        let source = |t: usize| -> Option<usize> {
            if t <= known {
                return Some(t);
            }
            let s = stand_ins.iter().find(|&&(a, _)| a as usize == t)?.1 as usize;
            (1..=known).contains(&s).then_some(s)
        };
        let widens = self.features.is_multiple_of(per_type) && known < types;
        let sources: Option<Vec<usize>> = (1..=types).map(source).collect();
        let Some(sources) = sources.filter(|_| widens) else { return Err(wrong) };
        let h = self.hidden;
        let mut ft_weights = vec![0i16; feature_count::<V>() * h];
        for rel in 0..2 {
            for (t, &s) in (1..=types).zip(&sources) {
                // Board rows, then hand rows: `(rel * T + t - 1) * count`, after `2 T N` for the hand.
                for (base, count) in [(0, n), (2 * n, HAND_CAP)] {
                    let from = base * known + (rel * known + s - 1) * count;
                    let to = base * types + (rel * types + t - 1) * count;
                    ft_weights[to * h..(to + count) * h]
                        .copy_from_slice(&self.ft_weights[from * h..(from + count) * h]);
                }
            }
        }
        let read_as: Vec<String> = (known + 1..=types)
            .map(|t| format!("{} read as {}", V::PIECES[t - 1].letter, V::PIECES[sources[t - 1] - 1].letter))
            .collect();
        // A network on top of the formula has the type's own value from the
        // formula; one that is the whole evaluation sees the stand-in's.
        let value_gaps = if self.on_top {
            Vec::new()
        } else {
            (known + 1..=types)
                .map(|t| (t as u8, V::PIECES[t - 1].value - V::PIECES[sources[t - 1] - 1].value))
                .collect()
        };
        // Field by field: `..self.clone()` would copy the old feature rows only to drop them.
        Ok(Network {
            variant: self.variant.clone(),
            features: feature_count::<V>(),
            hidden: h,
            on_top: self.on_top,
            activation: self.activation,
            read_as: read_as.join(", "),
            value_gaps,
            ft_weights,
            ft_bias: self.ft_bias.clone(),
            divisor: self.divisor,
            out_weights: self.out_weights.clone(),
            out_bias: self.out_bias.clone(),
        })
    }

    /// What a widened network that is the whole evaluation misses of the
    /// types it reads as stand-ins: each one's value less its stand-in's, per
    /// piece (board and hand) of the side to move less the other side's.
    #[inline]
    pub fn stand_in_material<V: Variant>(&self, pos: &Position<V>) -> i32 {
        let mut sum = 0;
        for &(t, gap) in &self.value_gaps {
            let count = |c: usize| pos.pieces(c, t).count() as i32 + pos.hand[c][t as usize] as i32;
            sum += gap * (count(pos.side) - count(pos.side ^ 1));
        }
        sum
    }

    #[inline(always)]
    fn row(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The accumulator of one side's features, from scratch.
    fn refresh(&self, features: &[u16], acc: &mut [i16]) {
        acc.copy_from_slice(&self.ft_bias);
        for chunk in features.chunks(MAX_CHANGES) {
            let rows: Rows = chunk.iter().map(|&f| self.row(f as usize)).collect();
            add_sub(acc, None, &rows, &[]);
        }
    }

    /// How many output layers it has.
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The output bucket of `pos`: one per `divisor` pieces on the board
    /// (the first for 1 to `divisor` pieces), the last for all beyond.
    #[inline]
    pub fn bucket<V: Variant>(&self, pos: &Position<V>) -> usize {
        let pieces = pos.occupied().count() as usize;
        (pieces.saturating_sub(1) / self.divisor).min(self.out_bias.len() - 1)
    }

    /// The output from the side to move's accumulator and the other's,
    /// read with output bucket `bucket`, in centipawns.
    #[inline]
    fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let (w_us, w_them) = self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h);
        let bias = self.out_bias[bucket] as i64;
        match self.activation {
            Activation::CReLU => {
                let sum = dot_crelu(us, w_us) as i64 + dot_crelu(them, w_them) as i64 + bias;
                (sum * SCALE as i64 / (QA * QB) as i64) as i32
            }
            Activation::SCReLU => {
                let sum = dot_screlu(us, w_us) + dot_screlu(them, w_them) + bias * QA as i64;
                (sum * SCALE as i64 / (QA * QA * QB_SCRELU) as i64) as i32
            }
        }
    }

    /// The network's output for `pos` from the side to move's view, from scratch.
    pub fn evaluate<V: Variant>(&self, pos: &Position<V>) -> i32 {
        let mut feats = Vec::with_capacity(64);
        let mut acc = [vec![0i16; self.hidden], vec![0i16; self.hidden]];
        for (persp, a) in acc.iter_mut().enumerate() {
            active_features(pos, persp, &mut feats);
            self.refresh(&feats, a);
        }
        self.output(&acc[pos.side], &acc[1 - pos.side], self.bucket(pos))
    }
}

/// Rows of the feature weights to add to, or take from, an accumulator.
type Rows<'a> = arrayvec::ArrayVec<&'a [i16], MAX_CHANGES>;

/// A wide block of an accumulator held in registers at once: four
/// 256-bit registers (two of 512 bits); an accumulator of a multiple of
/// twice that (256 values) goes eight registers at a time, which halves
/// the work of walking the rows.
const WIDE: usize = 4 * LANES;

/// `acc` becomes `from` (`acc` itself without one) plus the rows `adds`
/// minus the rows `subs` (each as long as `acc`), in wrapping i16 arithmetic.
#[inline(always)]
fn add_sub(acc: &mut [i16], from: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
    // The changes of most moves from the parent's accumulator: a quiet
    // move (one feature added, one taken) and a capture (one added, two
    // taken), each one pass over the values.
    if let Some(from) = from {
        let n = acc.len();
        match (adds, subs) {
            ([a], [s]) => {
                let (from, a, s) = (&from[..n], &a[..n], &s[..n]);
                for i in 0..n {
                    acc[i] = from[i].wrapping_add(a[i]).wrapping_sub(s[i]);
                }
                return;
            }
            ([a], [s1, s2]) => {
                let (from, a, s1, s2) = (&from[..n], &a[..n], &s1[..n], &s2[..n]);
                for i in 0..n {
                    acc[i] = from[i].wrapping_add(a[i]).wrapping_sub(s1[i]).wrapping_sub(s2[i]);
                }
                return;
            }
            _ => {}
        }
    }
    if acc.len().is_multiple_of(2 * WIDE) {
        add_sub_blocks::<{ 2 * WIDE }>(acc, from, adds, subs);
    } else if acc.len().is_multiple_of(WIDE) {
        add_sub_blocks::<WIDE>(acc, from, adds, subs);
    } else {
        add_sub_blocks::<LANES>(acc, from, adds, subs);
    }
}

/// [`add_sub`] a block of `W` values at a time: the block stays in a local
/// array (the compiler keeps it in vector registers) while every row's
/// part is added or taken, so each value is read (from `from` or `acc`)
/// and written once however many rows change.
#[inline(always)]
fn add_sub_blocks<const W: usize>(acc: &mut [i16], from: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
    let from = from.map(|f| f.as_chunks::<W>().0);
    let (blocks, _) = acc.as_chunks_mut::<W>();
    for (k, block) in blocks.iter_mut().enumerate() {
        let mut v = from.map_or(*block, |f| f[k]);
        for row in adds {
            let r = &row.as_chunks::<W>().0[k];
            for i in 0..W {
                v[i] = v[i].wrapping_add(r[i]);
            }
        }
        for row in subs {
            let r = &row.as_chunks::<W>().0[k];
            for i in 0..W {
                v[i] = v[i].wrapping_sub(r[i]);
            }
        }
        *block = v;
    }
}

/// One block of `LANES` values copied into a fixed-size array (the
/// compiler then keeps it in a vector register and needs no bounds checks).
#[inline(always)]
fn block(x: &[i16]) -> [i16; LANES] {
    let mut v = [0i16; LANES];
    v.copy_from_slice(x);
    v
}

/// `sum(clamp(acc, 0, QA) * w)`.
#[inline(always)]
fn dot_crelu(acc: &[i16], w: &[i16]) -> i32 {
    let mut sums = [0i32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        let (a, w) = (block(a), block(w));
        for i in 0..LANES {
            sums[i] = sums[i].wrapping_add(a[i].clamp(0, QA as i16) as i32 * w[i] as i32);
        }
    }
    sums.iter().fold(0i32, |s, &x| s.wrapping_add(x))
}

/// `sum(clamp(acc, 0, QA)^2 * w)`, as `(v * w) * v` with `v * w` in i16
/// (`|w| <= 127`, checked when the file is read) and the second product
/// in i32, a multiply-add of pairs of lanes: each i32 lane sums at most
/// `2 * MAX_HIDDEN / 16` terms of at most `255 * 127 * 255` (below 2^31),
/// and the lanes are added in i64. With AVX2 in the build's target
/// features (`target-cpu=native` where the CPU has it) the loop is written
/// with its instructions (the compiler's own vectorisation of the loop
/// below gathered the values a word at a time); the result is the same.
#[inline(always)]
fn dot_screlu(acc: &[i16], w: &[i16]) -> i64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the build's target features include AVX2 (the cfg).
        unsafe { dot_screlu_avx2(acc, w) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        dot_screlu_scalar(acc, w)
    }
}

#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
#[inline(always)]
fn dot_screlu_scalar(acc: &[i16], w: &[i16]) -> i64 {
    let mut sums = [0i32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        let (a, w) = (block(a), block(w));
        for i in 0..LANES {
            let v = a[i].clamp(0, QA as i16);
            sums[i] = sums[i].wrapping_add(v.wrapping_mul(w[i]) as i32 * v as i32);
        }
    }
    sums.iter().map(|&x| x as i64).sum()
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
unsafe fn dot_screlu_avx2(acc: &[i16], w: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    let n = acc.len().min(w.len()) / 16 * 16;
    let mut lanes = [0i32; 8];
    // SAFETY: the build has AVX2 (the cfg); every load reads 16 i16 at
    // `k + 16 <= n`, within both slices, and the store writes 8 i32 into
    // `lanes`; loads and store are unaligned.
    unsafe {
        let mut sum = _mm256_setzero_si256();
        let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let mut k = 0;
        while k < n {
            let a = _mm256_loadu_si256(acc.as_ptr().add(k) as *const __m256i);
            let ww = _mm256_loadu_si256(w.as_ptr().add(k) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, ww), v));
            k += 16;
        }
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
    }
    lanes.iter().map(|&x| x as i64).sum()
}

/// What the features are read from: the pieces on the board and in hand.
#[derive(Clone, Copy)]
struct Pieces<V: Variant> {
    by_color: [Bb<V>; 2],
    by_type: V::ByType,
    hand: [[u8; MAX_TYPES]; 2],
}

impl<V: Variant> Pieces<V> {
    fn of(pos: &Position<V>) -> Self {
        Pieces { by_color: pos.by_color, by_type: pos.by_type, hand: pos.hand }
    }
}

/// One ply's accumulators and the pieces they were computed for.
struct Entry<V: Variant> {
    valid: bool,
    pieces: Pieces<V>,
    /// Seen by White, then by Black.
    acc: [Vec<i16>; 2],
}

/// The accumulators of a search path, one entry per ply (see the module's
/// documentation). Any entry may serve as the base of another position's:
/// the difference is taken from the entry's own pieces, so an entry left
/// from another path gives the right result too, only more slowly.
pub struct NnueStack<V: Variant> {
    net: std::sync::Arc<Network>,
    entries: Vec<Entry<V>>,
    feats: Vec<u16>,
}

/// Beyond this many changed features a position is computed from scratch.
const MAX_CHANGES: usize = 24;

impl<V: Variant> NnueStack<V> {
    pub fn new(net: std::sync::Arc<Network>, plies: usize) -> Self {
        let hidden = net.hidden;
        let entry = || Entry {
            valid: false,
            pieces: Pieces {
                by_color: [Bb::<V>::ZERO; 2],
                by_type: FixedArray::filled(Bb::<V>::ZERO),
                hand: [[0; MAX_TYPES]; 2],
            },
            acc: [vec![0; hidden], vec![0; hidden]],
        };
        NnueStack { net, entries: (0..plies).map(|_| entry()).collect(), feats: Vec::with_capacity(64) }
    }

    /// The network the stack evaluates with.
    pub fn net(&self) -> &Network {
        &self.net
    }

    /// The network's output for `pos`, the position at `ply` of the path,
    /// from the side to move's view; the entry at `ply` then holds its accumulators.
    pub fn evaluate(&mut self, pos: &Position<V>, ply: usize) -> i32 {
        let ply = ply.min(self.entries.len() - 1);
        let (before, rest) = self.entries.split_at_mut(ply);
        let entry = &mut rest[0];
        let net = &*self.net;
        let updated = match before.last().filter(|b| b.valid) {
            Some(parent) => update(net, Some(parent), pos, entry),
            None if entry.valid => update(net, None, pos, entry),
            None => false,
        };
        if !updated {
            for persp in 0..2 {
                active_features(pos, persp, &mut self.feats);
                net.refresh(&self.feats, &mut entry.acc[persp]);
            }
        }
        entry.valid = true;
        entry.pieces = Pieces::of(pos);
        net.output(&entry.acc[pos.side], &entry.acc[1 - pos.side], net.bucket(pos))
    }
}

/// A feature that appeared (`add`) or went, as seen by White and by Black.
#[derive(Clone, Copy)]
struct Change {
    add: bool,
    feature: [usize; 2],
}

type Changes = arrayvec::ArrayVec<Change, MAX_CHANGES>;

/// The features that changed from the pieces `old` to `pos`'s; `None`
/// when there are more than `MAX_CHANGES`.
fn changes<V: Variant>(old: &Pieces<V>, pos: &Position<V>) -> Option<Changes> {
    let Pieces { by_color, by_type, hand } = old;
    let mut list = Changes::new();
    // A type's pieces of a colour change only where the type's squares
    // change or a square of the type changes colour: most types are
    // passed over with one test.
    let recoloured = (by_color[0] ^ pos.by_color[0]) | (by_color[1] ^ pos.by_color[1]);
    for t in 1..=V::PIECES.len() as u8 {
        let of_type = pos.by_type[t as usize];
        if of_type != by_type[t as usize] || (of_type & recoloured).any() {
            for (color, (&was, &is)) in by_color.iter().zip(&pos.by_color).enumerate() {
                let old = was & by_type[t as usize];
                let new = is & of_type;
                for (add, squares) in [(false, old & !new), (true, new & !old)] {
                    for sq in squares.iter() {
                        let feature = [0, 1].map(|p| board_feature::<V>(p, color, t, sq));
                        list.try_push(Change { add, feature }).ok()?;
                    }
                }
            }
        }
        if !V::HAND {
            continue;
        }
        for (color, (was, is)) in hand.iter().zip(&pos.hand).enumerate() {
            let h0 = (was[t as usize] as usize).min(HAND_CAP);
            let h1 = (is[t as usize] as usize).min(HAND_CAP);
            for (add, range) in [(false, h1..h0), (true, h0..h1)] {
                for i in range {
                    let feature = [0, 1].map(|p| hand_feature::<V>(p, color, t, i));
                    list.try_push(Change { add, feature }).ok()?;
                }
            }
        }
    }
    Some(list)
}

/// Both accumulators with the changes `list` applied: to `base`'s, or to
/// their own without one.
fn apply(net: &Network, list: &[Change], base: Option<&[Vec<i16>; 2]>, acc: &mut [Vec<i16>; 2]) {
    for (persp, a) in acc.iter_mut().enumerate() {
        let (mut adds, mut subs) = (Rows::new(), Rows::new());
        for c in list {
            let row = net.row(c.feature[persp]);
            if c.add { adds.push(row) } else { subs.push(row) }
        }
        add_sub(a, base.map(|b| b[persp].as_slice()), &adds, &subs);
    }
}

/// `entry`'s accumulators for `pos` from `base`'s, or from its own (the
/// root's parent is none); false when too much changed.
fn update<V: Variant>(net: &Network, base: Option<&Entry<V>>, pos: &Position<V>, entry: &mut Entry<V>) -> bool {
    let old = base.map_or(&entry.pieces, |b| &b.pieces);
    let Some(list) = changes(old, pos) else { return false };
    apply(net, &list, base.map(|b| &b.acc), &mut entry.acc);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{RuleOptions, VariantId, VariantVisitor};
    use crate::variants::EngineVariant;
    use crate::variants::historia::HistoriaSako;

    /// A network of `V`'s shape with pseudo-random weights (a fixed LCG):
    /// feature weights in -64..64, output weights in -32..32.
    /// The same as `tools/nnue/reference.py`'s `random_net`.
    fn random_net<V: Variant>(hidden: usize) -> Network {
        random_net_with::<V>(hidden, Activation::CReLU, (1, 1))
    }

    fn random_net_with<V: Variant>(hidden: usize, activation: Activation, buckets: (usize, usize)) -> Network {
        let features = feature_count::<V>();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let ft = features * hidden;
        let mut net = Network::from_fn(V::NAME, features, hidden, buckets, |i| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let r = (x >> 33) as i64;
            if i < ft + hidden { (r % 128 - 64) as i16 } else { (r % 64 - 32) as i16 }
        });
        net.activation = activation;
        net
    }

    /// The integer output equals the plain Python reference's
    /// (`tools/nnue/reference.py`, which reads the features from the FEN
    /// itself) for the same random network of width 256, exactly, in
    /// chess, iago-b and iago-c, with both activations, and with 4 output
    /// buckets of 8 pieces (from 32 pieces on the board down to 4).
    #[test]
    fn the_output_equals_the_python_reference() {
        use crate::variants::chess::Chess;
        use crate::variants::iago::{IagoB, IagoC};
        fn row<V: Variant>(fens: &[&str], activation: Activation, buckets: (usize, usize)) -> Vec<i32> {
            let net = random_net_with::<V>(256, activation, buckets);
            let bytes = net.to_bytes();
            assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&net));
            fens.iter().map(|f| net.evaluate(&Position::<V>::from_fen(f).unwrap())).collect()
        }
        let chess = [
            Chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/P5k1/8/8/8/8/5Kp1/8 b - - 0 1",
        ];
        let iago_b = [IagoB::START_FEN, "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/RMBQKB1R[Cmc] b - - 5 4"];
        let iago_c = [IagoC::START_FEN, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[MCmc] b - - 0 3"];
        for (activation, buckets, expected) in [
            (Activation::CReLU, (1, 1), [-77, -83, -82, -30, -55, -2, -38, -34]),
            (Activation::SCReLU, (1, 1), [-1333, -1448, -867, -375, -645, 123, -376, -344]),
            (Activation::SCReLU, (4, 8), [-1510, -1965, -666, -288, -213, 460, -593, 85]),
        ] {
            let mut got = row::<Chess>(&chess, activation, buckets);
            got.extend(row::<IagoB>(&iago_b, activation, buckets));
            got.extend(row::<IagoC>(&iago_c, activation, buckets));
            assert_eq!(got, expected, "{activation:?}, {buckets:?}");
        }
    }

    /// The SCReLU dot product the build uses (AVX2 where it has it) equals
    /// the plain loop, at the ends of the ranges too (every value clamped
    /// to QA against weights of +-127).
    #[test]
    fn the_screlu_dot_product_equals_the_plain_loop() {
        let mut x = 99u64;
        let mut next = |m: i64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) as i64 % (2 * m + 1) - m) as i16
        };
        for h in [16, 256, 2048] {
            let acc: Vec<i16> = (0..h).map(|_| next(400)).collect();
            let w: Vec<i16> = (0..h).map(|_| next(127)).collect();
            assert_eq!(dot_screlu(&acc, &w), dot_screlu_scalar(&acc, &w), "{h}");
            let expected: i64 = acc.iter().zip(&w).map(|(&a, &w)| (a.clamp(0, 255) as i64).pow(2) * w as i64).sum();
            assert_eq!(dot_screlu(&acc, &w), expected, "{h}");
        }
        let (full, top) = (vec![QA as i16; MAX_HIDDEN], vec![127i16; MAX_HIDDEN]);
        assert_eq!(dot_screlu(&full, &top), 255 * 255 * 127 * MAX_HIDDEN as i64);
        assert_eq!(dot_screlu(&full, &top), dot_screlu_scalar(&full, &top));
        let bottom = vec![-127i16; MAX_HIDDEN];
        assert_eq!(dot_screlu(&full, &bottom), -255 * 255 * 127 * MAX_HIDDEN as i64);
    }

    /// Counts of the kinds of moves a game played: captures, promotions,
    /// castlings, drops, gatings.
    #[derive(Debug, Default)]
    struct Kinds {
        captures: usize,
        promotions: usize,
        castlings: usize,
        drops: usize,
        gatings: usize,
    }

    /// A pseudo-random game that prefers the rarer kinds of moves
    /// (castling, promotion, gating, drops, then captures), with a SCReLU
    /// network of width 256 and 4 output buckets: the incremental output equals the one from
    /// scratch at every ply and at a sibling of each.
    fn wide_game<V: Variant>(seed: u64) -> Kinds {
        use crate::moves::Kind;
        let net = std::sync::Arc::new(random_net_with::<V>(256, Activation::SCReLU, (4, 8)));
        let mut stack = NnueStack::<V>::new(net.clone(), 10);
        let mut pos = Position::<V>::from_fen(V::START_FEN).unwrap();
        assert_eq!(stack.evaluate(&pos, 0), net.evaluate(&pos));
        let mut x = seed;
        let mut kinds = Kinds::default();
        for ply in 1..=200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut next = || {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 33) as usize
            };
            let capture = |m: &crate::moves::Move| pos.occupied().has(m.to()) || m.kind() == Kind::EnPassant;
            let rare: Vec<_> = moves.iter().filter(|m| !matches!(m.kind(), Kind::Normal | Kind::EnPassant)).collect();
            let takes: Vec<_> = moves.iter().filter(|m| capture(m)).collect();
            let m = if !rare.is_empty() && next() % 4 != 0 {
                *rare[next() % rare.len()]
            } else if !takes.is_empty() && next() % 4 == 0 {
                *takes[next() % takes.len()]
            } else {
                moves[next() % moves.len()]
            };
            if capture(&m) {
                kinds.captures += 1;
            }
            match m.kind() {
                Kind::Promotion => kinds.promotions += 1,
                Kind::Castling => kinds.castlings += 1,
                Kind::Drop => kinds.drops += 1,
                Kind::Gating => kinds.gatings += 1,
                _ => {}
            }
            let at = ply % 12;
            let sibling = pos.play(moves[next() % moves.len()]);
            assert_eq!(stack.evaluate(&sibling, at), net.evaluate(&sibling), "{}: {}", V::NAME, sibling.fen());
            pos = pos.play(m);
            assert_eq!(stack.evaluate(&pos, at), net.evaluate(&pos), "{}: {}", V::NAME, pos.fen());
        }
        kinds
    }

    #[test]
    fn a_wide_screlu_network_updates_incrementally_through_every_kind_of_move() {
        use crate::variants::chess::Chess;
        use crate::variants::iago::{IagoB, IagoC};
        let (mut b, mut c) = (Kinds::default(), Kinds::default());
        for seed in 1..=4 {
            let k = wide_game::<Chess>(seed);
            assert!(k.captures > 0 && k.promotions > 0 && k.castlings > 0, "chess {seed}: {k:?}");
            for (total, k) in [(&mut b, wide_game::<IagoB>(seed)), (&mut c, wide_game::<IagoC>(seed))] {
                assert!(k.captures > 0 && k.drops + k.gatings > 0, "iago {seed}: {k:?}");
                total.captures += k.captures;
                total.promotions += k.promotions;
                total.castlings += k.castlings;
                total.drops += k.drops;
                total.gatings += k.gatings;
            }
        }
        assert!(b.gatings > 0 && b.drops > 0 && c.drops > 0 && c.gatings > 0, "{b:?} {c:?}");
        assert!(b.promotions + c.promotions > 0 && b.castlings + c.castlings > 0, "{b:?} {c:?}");
    }

    /// Plays a game of pseudo-random legal moves; at every ply evaluates a
    /// sibling first (the entry is then another position's) and then the
    /// move played, incrementally, and checks both against a from-scratch
    /// evaluation. Returns the plies played.
    struct Incremental;
    impl VariantVisitor for Incremental {
        type Out = usize;
        fn visit<V: EngineVariant>(self) -> usize {
            let net = std::sync::Arc::new(random_net::<V>(32));
            let mut stack = NnueStack::<V>::new(net.clone(), 8);
            let mut pos = Position::<V>::from_fen(V::START_FEN).unwrap();
            let mut x = 7u64;
            let mut plies = 0;
            assert_eq!(stack.evaluate(&pos, 0), net.evaluate(&pos));
            for ply in 1..=300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let i = (x >> 33) as usize % moves.len();
                // Plies beyond the stack's entries reuse its last one.
                let at = ply % 12;
                let sibling = pos.play(moves[(i + 1) % moves.len()]);
                assert_eq!(stack.evaluate(&sibling, at), net.evaluate(&sibling), "{}: {}", V::NAME, sibling.fen());
                pos = pos.play(moves[i]);
                assert_eq!(stack.evaluate(&pos, at), net.evaluate(&pos), "{}: {}", V::NAME, pos.fen());
                plies += 1;
            }
            plies
        }
    }

    #[test]
    fn incremental_equals_from_scratch_in_every_variant() {
        for v in VariantId::ALL {
            let plies = v.visit(&RuleOptions::default(), Incremental);
            assert!(plies >= 20, "{}: {plies} plies", v.name());
        }
    }

    #[test]
    fn net_file_round_trip_and_errors() {
        let net = random_net::<HistoriaSako>(16);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert_eq!(net.check::<HistoriaSako>(), Ok(()));
        assert!(matches!(net.check::<crate::variants::chess::Chess>(), Err(WeightsError::WrongVariant { .. })));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 3]),
            Err(WeightsError::Truncated { what: "the output bias" })
        );
        assert_eq!(
            Network::from_bytes(&bytes[..26]).err(),
            Some(WeightsError::Truncated { what: "the feature count" })
        );
        assert_eq!(Network::from_bytes(b"CALVINWT\x01\x00"), Err(WeightsError::BadMagic));
        let mut more = bytes.clone();
        more.push(0);
        assert_eq!(Network::from_bytes(&more), Err(WeightsError::Trailing(1)));
    }

    #[test]
    fn a_network_on_top_of_the_formula_and_version_1_files() {
        let mut net = random_net::<HistoriaSako>(16);
        net.on_top = true;
        let bytes = net.to_bytes();
        // magic 8, version 2, name 1 + 13, features 4, hidden 4: the kind byte,
        // then the activation byte and the output buckets' two.
        let kind = 8 + 2 + 1 + "historia-sako".len() + 4 + 4;
        assert_eq!(bytes[kind..kind + 4], [1, 0, 1, 1]);
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert_eq!(net.shape(), "1008x16 on top of the formula");
        let mut bad = bytes.clone();
        bad[kind] = 2;
        assert!(matches!(Network::from_bytes(&bad), Err(WeightsError::WrongShape(_))));
        let mut no_bucket = bytes.clone();
        no_bucket[kind + 2] = 0;
        assert!(matches!(Network::from_bytes(&no_bucket), Err(WeightsError::WrongShape(_))));
        // Version 3 had no output buckets: one.
        // Version 2 had no activation byte: clipped ReLU.
        // Version 1 had no kind byte: the network is the whole evaluation.
        let mut v3 = bytes.clone();
        v3.drain(kind + 2..kind + 4);
        v3[8] = 3;
        assert_eq!(Network::from_bytes(&v3), Ok(net.clone()));
        let mut v2 = v3.clone();
        v2.remove(kind + 1);
        v2[8] = 2;
        assert_eq!(Network::from_bytes(&v2), Ok(net.clone()));
        let mut screlu = bytes.clone();
        screlu[kind + 1] = 1;
        let wide = Network::from_bytes(&screlu).unwrap();
        assert_eq!(
            (wide.activation, wide.shape().as_str()),
            (Activation::SCReLU, "1008x16 SCReLU on top of the formula")
        );
        let mut big = wide.clone();
        big.out_weights[3] = -128;
        assert_eq!(
            Network::from_bytes(&big.to_bytes()),
            Err(WeightsError::WrongShape("an output weight beyond +-127 (SCReLU)".into()))
        );
        screlu[kind + 1] = 2;
        assert!(matches!(Network::from_bytes(&screlu), Err(WeightsError::WrongShape(_))));
        let four = random_net_with::<HistoriaSako>(16, Activation::SCReLU, (4, 8));
        assert_eq!(four.shape(), "1008x16 SCReLU, 4 output buckets");
        assert_eq!(Network::from_bytes(&four.to_bytes()), Ok(four));
        let mut v1 = v2.clone();
        v1.remove(kind);
        v1[8] = 1;
        net.on_top = false;
        assert_eq!(Network::from_bytes(&v1), Ok(net));
        v1[8] = 5;
        assert_eq!(Network::from_bytes(&v1), Err(WeightsError::BadVersion(5)));
    }

    #[test]
    fn features_of_the_start_turn_with_the_board() {
        let pos = Position::<HistoriaSako>::from_fen(HistoriaSako::START_FEN).unwrap();
        let (mut w, mut b) = (Vec::new(), Vec::new());
        active_features(&pos, 0, &mut w);
        active_features(&pos, 1, &mut b);
        // 16 pawns, and 10 pieces in each hand: K Q R R B B N N E E.
        assert_eq!((w.len(), b.len()), (36, 36));
        // Pawns (type 7) on a2 and a6: White sees its own on a2 (square 8);
        // Black, the board turned by a half turn, its own on a6 as on h3
        // (square 23) and White's a2 pawn as an enemy pawn on h7 (square 55).
        assert!(w.contains(&(6 * 64 + 8)) && !w.contains(&(6 * 64 + 16)));
        assert!(b.contains(&(6 * 64 + 23)) && b.contains(&((7 + 6) * 64 + 55)));
        // The start is the same position for both sides after a half turn:
        // both see the same features.
        let (mut ws, mut bs) = (w.clone(), b.clone());
        ws.sort_unstable();
        bs.sort_unstable();
        assert_eq!(ws, bs);
        // The hands: one King each (hand features of type 1, own then enemy).
        let hand = 2 * 7 * 64;
        assert!(w.contains(&(hand as u16)) && w.contains(&((hand + 7 * 8) as u16)));
        assert!(!w.contains(&((hand + 1) as u16)));
        assert_eq!(feature_count::<HistoriaSako>(), 2 * 7 * 64 + 2 * 7 * 8);
    }
}
