//! Static evaluation. The generic terms (material, hand, placement,
//! mobility, threats, pawn structure, king safety, the king's centrality)
//! serve every variant; each variant's own terms are its `Evaluator` impl
//! in `src/variants/<name>/eval.rs`. Learned weights ([`weights`]) correct
//! the material, hand and piece-square values; the coefficients of the
//! generic terms are the variant's [`EvalWeights`] ([`terms`]).

pub mod nnue;
pub mod terms;
pub mod weights;

use crate::bitboard::Bits;
use crate::geometry::Geometry;
use crate::position::{NO_SQ, Position};
use crate::variant::{Bb, MAX_TYPES, Variant};
use std::sync::Arc;
pub use terms::EvalWeights;
use terms::{Columns, Terms, Weighted, col};
use weights::{Weights, WeightsError, WeightsSource};

/// Evaluation from the side to move's point of view, in centipawns.
pub trait Evaluator: Variant {
    /// Hand pieces are worth this percentage of their board value.
    const HAND_PCT: i32 = 100;
    /// The coefficients of the generic terms (mobility, pawn structure,
    /// king safety, tempo).
    const EVAL_WEIGHTS: EvalWeights = EvalWeights::DEFAULT;
    /// Pawn structure terms (doubled, isolated and passed pawns) apply:
    /// pawns that advance on files, as in chess.
    const PAWN_TERMS: bool = Self::PAWN != 0 && <Self::G as Geometry>::FILES > 1;
    /// King safety terms (attackers near the royal piece, safe checks, pawn
    /// shield, open file) and the king's centrality in the endgame apply: a
    /// royal piece on a board of files and ranks.
    const KING_SAFETY: bool = Self::KING != 0 && <Self::G as Geometry>::FILES > 1;
    /// The variant's built-in learned weights: a weights file's bytes
    /// (`docs/weights.md`), included in the binary; empty: none.
    const WEIGHTS: &'static [u8] = &[];
    /// The variant's built-in network: a net file's bytes (`docs/nnue.md`),
    /// included in the binary; empty: none (the formula evaluates).
    const NET: &'static [u8] = &[];
    /// Piece types a network may not know, each with the type whose
    /// feature rows it reads instead, `(type, stand-in)`: a network whose
    /// features cover only the variant's first types (trained on the piece
    /// set of the rules before an option added a type) is widened when it
    /// is loaded ([`nnue::Network::fit`]). Empty: a network must know every type.
    const NET_STAND_INS: &'static [(u8, u8)] = &[];
    /// The variant's evaluation tables (one static per variant: see [`eval_tables!`]).
    fn eval_tables() -> &'static EvalTables<Self::G>;
    /// The piece-square value of a piece of type `t` and colour `color` on
    /// `sq`, from that colour's point of view. The default: pieces like the
    /// centre, pawns like to advance, the king stays home.
    fn pst(t: u8, color: usize, sq: usize) -> i32 {
        default_pst::<Self>(t, color, sq)
    }
    /// The variant's own terms, from White's point of view.
    fn extra(_pos: &Position<Self>) -> i32 {
        0
    }
}

/// The static evaluation of `pos` with `eval`, from the side to move's
/// view: the network's where `eval` has one, else the formula's.
pub fn evaluate<V: Evaluator>(pos: &Position<V>, eval: &Evaluation) -> i32 {
    match &eval.net {
        Some(n) => n.evaluate(pos, eval),
        None => formula_eval(pos, eval),
    }
}

/// The hand-set formula's evaluation (with the learned piece corrections),
/// from the side to move's view, whether or not a network is in use.
pub fn formula_eval<V: Evaluator>(pos: &Position<V>, eval: &Evaluation) -> i32 {
    let mut sum = Weighted::<V>::new();
    eval_terms(pos, &eval.pieces, &mut sum);
    let white = sum.white();
    if pos.side == 0 { white } else { -white }
}

/// The evaluation from a network's output `out` for `pos`: added to the
/// formula's where the network corrects it, else the output itself with
/// the value a widened network misses of the types it reads as stand-ins
/// (none for most networks). (`eval`'s piece values serve the formula.)
#[inline(always)]
pub fn network_plus<V: Evaluator>(net: &nnue::Network, out: i32, pos: &Position<V>, eval: &Evaluation) -> i32 {
    if net.on_top { out + formula_eval(pos, eval) } else { out + net.stand_in_material(pos) }
}

/// A network in use and where it comes from.
pub struct NetSlot {
    pub net: Arc<nnue::Network>,
    pub source: WeightsSource,
}

impl NetSlot {
    /// The evaluation of `pos` with the network, from scratch (the side to
    /// move's view; `eval`'s piece values serve a network on top of the formula).
    pub fn evaluate<V: Evaluator>(&self, pos: &Position<V>, eval: &Evaluation) -> i32 {
        network_plus(&self.net, self.net.evaluate(pos), pos, eval)
    }
}

/// What a game is evaluated with: the piece values and the network, if
/// any. Immutable and shared: the engine holds one per variant (and rule
/// options that change its pieces) and hands it to each search; a new
/// `EvalFile` makes a new one, and the old one is freed when the last
/// search that uses it ends.
#[derive(Clone)]
pub struct Evaluation {
    pub pieces: Arc<PieceTables>,
    pub net: Option<Arc<NetSlot>>,
}

impl Evaluation {
    /// `V`'s built-in evaluation: its built-in weights and network.
    pub fn builtin<V: Evaluator>() -> Self {
        let t = V::eval_tables();
        Evaluation { pieces: t.builtin.clone(), net: t.builtin_net.clone() }
    }

    /// `V`'s hand-set evaluation: no learned weights, no network.
    pub fn handset<V: Evaluator>() -> Self {
        Evaluation { pieces: V::eval_tables().handset.clone(), net: None }
    }

    /// This evaluation with `choice` for `V`; weights that do not fit `V`
    /// are refused. A weights file replaces the piece values and drops the
    /// network; a network keeps the piece values.
    pub fn with<V: Evaluator>(&self, choice: WeightsChoice) -> Result<Self, WeightsError> {
        Ok(match choice {
            WeightsChoice::BuiltIn => Self::builtin::<V>(),
            WeightsChoice::HandSet => Self::handset::<V>(),
            WeightsChoice::File(w, path) => {
                let source = WeightsSource::File { path: path.into(), description: w.description.clone() };
                Evaluation { pieces: Arc::new(PieceTables::build::<V>(Some(w), source)?), net: None }
            }
            WeightsChoice::Net(n, path) => {
                let net = n.fit::<V>(V::NET_STAND_INS)?;
                let description = format!("network {}", net.shape());
                let source = WeightsSource::File { path: path.into(), description };
                Evaluation { pieces: self.pieces.clone(), net: Some(Arc::new(NetSlot { net: Arc::new(net), source })) }
            }
        })
    }
}

/// Every term of the evaluation of `pos` added to `acc`: the generic terms,
/// the variant's own and the tempo.
#[inline(always)]
pub fn eval_terms<V: Evaluator, A: Terms>(pos: &Position<V>, pieces: &PieceTables, acc: &mut A) {
    generic_terms(pos, pieces, acc);
    acc.add(0, col::EXTRA, V::extra(pos));
    acc.add(pos.side, col::TEMPO, 1);
}

/// The terms of `pos`'s evaluation as counts from White's view (one row of
/// `calvin datagen terms`): their dot product with
/// `V::EVAL_WEIGHTS.columns()` is the evaluation from White's view.
pub fn term_columns<V: Evaluator>(pos: &Position<V>, eval: &Evaluation) -> [i32; col::COUNT] {
    let mut c = Columns::new(V::EVAL_WEIGHTS);
    eval_terms(pos, &eval.pieces, &mut c);
    c.row
}

/// How central `sq` is: twice the Manhattan distance from the board's
/// centre to its farthest corner less `sq`'s (0 in a corner).
#[inline]
fn centrality<G: Geometry>(sq: usize) -> i32 {
    let f = 2 * G::file_of(sq) as i32 - (G::FILES as i32 - 1);
    let r = 2 * G::rank_of(sq) as i32 - (G::RANKS as i32 - 1);
    (G::FILES + G::RANKS) as i32 - 2 - f.abs() - r.abs()
}

/// The default piece-square value (see [`Evaluator::pst`]).
pub fn default_pst<V: Variant>(t: u8, color: usize, sq: usize) -> i32 {
    let central = centrality::<V::G>(sq);
    let rank = V::G::relative_rank(color, sq) as i32;
    if t == V::KING {
        // Kings stay home while there is material to attack them.
        -2 * rank.min(3) * 5
    } else if t == V::PAWN {
        4 * rank + central / 2
    } else {
        central
    }
}

/// The values of the pieces that learned weights correct, built once per
/// set of weights (see [`Evaluation`]).
pub struct PieceTables {
    /// `pst[(color * MAX_TYPES + t) * squares + sq]`, from `color`'s view:
    /// the hand-set placement value plus the learned material and square
    /// correction (the piece's value is added apart).
    pst: Vec<i32>,
    /// The learned part of `pst` alone (what `eval` shows).
    learned: Vec<i32>,
    /// A piece of each type in hand: its value at `HAND_PCT` plus the
    /// learned hand correction.
    hand: [i32; MAX_TYPES],
    /// The learned hand correction alone.
    hand_learned: [i32; MAX_TYPES],
    /// Where the weights come from.
    pub source: WeightsSource,
}

impl PieceTables {
    /// `V`'s hand-set values corrected by `w` (none: no correction). The
    /// weights must be for `V`: its name, its board, and piece types that
    /// are its first types in order (types past the file's get no correction).
    pub fn build<V: Evaluator>(w: Option<&Weights>, source: WeightsSource) -> Result<Self, WeightsError> {
        if let Some(w) = w {
            check_shape::<V>(w)?;
        }
        let squares = V::G::SQUARES;
        let mut pst = vec![0; 2 * MAX_TYPES * squares];
        let mut learned = vec![0; 2 * MAX_TYPES * squares];
        let mut hand = [0; MAX_TYPES];
        let mut hand_learned = [0; MAX_TYPES];
        for t in 1..=V::PIECES.len() as u8 {
            let pw = w.and_then(|w| w.pieces.get(t as usize - 1));
            let delta = pw.map_or(0, |p| p.hand as i32);
            hand[t as usize] = V::PIECES[t as usize - 1].value * V::HAND_PCT / 100 + delta;
            hand_learned[t as usize] = delta;
            for color in 0..2 {
                for sq in 0..squares {
                    let rel = crate::variant::seen_from::<V>(color, sq);
                    let l = pw.map_or(0, |p| p.material as i32 + p.squares[rel] as i32);
                    let i = (color * MAX_TYPES + t as usize) * squares + sq;
                    pst[i] = V::pst(t, color, sq) + l;
                    learned[i] = l;
                }
            }
        }
        Ok(PieceTables { pst, learned, hand, hand_learned, source })
    }
}

/// Whether `w` fits `V`: its name, board and piece letters.
fn check_shape<V: Evaluator>(w: &Weights) -> Result<(), WeightsError> {
    if w.variant != V::NAME {
        return Err(WeightsError::WrongVariant { file: w.variant.clone(), expected: V::NAME.into() });
    }
    let letters = V::PIECES.iter().map(|p| p.letter).collect::<Vec<_>>().join(" ");
    let (files, ranks) = (V::G::FILES, V::G::RANKS);
    if (w.files as usize, w.ranks as usize) != (files, ranks) {
        return Err(WeightsError::WrongShape(format!(
            "a {}x{} board, {} has {files}x{ranks}",
            w.files,
            w.ranks,
            V::NAME
        )));
    }
    let fits = w.pieces.len() <= V::PIECES.len()
        && w.pieces.iter().zip(V::PIECES).all(|(p, d)| p.letter.eq_ignore_ascii_case(d.letter));
    if !fits {
        return Err(WeightsError::WrongShape(format!("piece types {}, {} has {letters}", w.letters(), V::NAME)));
    }
    Ok(())
}

/// What the evaluation precomputes per variant, once.
pub struct EvalTables<G: Geometry> {
    /// The built-in weights' table and the hand-set one (no weights).
    builtin: Arc<PieceTables>,
    handset: Arc<PieceTables>,
    /// The built-in network, if any.
    builtin_net: Option<Arc<NetSlot>>,
    /// The square and its neighbours (a king's zone).
    pub zone: Vec<G::B>,
    /// For a pawn of each colour: the squares ahead of it on its own and
    /// the adjacent files (no enemy pawn there: passed).
    pub front_span: [Vec<G::B>; 2],
    /// The files beside each file (isolated pawns).
    pub adjacent_files: Vec<G::B>,
    /// For a king of each colour: the squares one and two ranks ahead on its
    /// own and the adjacent files (its pawn shield).
    pub shield: [Vec<G::B>; 2],
}

impl<G: Geometry> EvalTables<G> {
    pub fn build<V: Evaluator<G = G>>() -> Self {
        let handset = match PieceTables::build::<V>(None, WeightsSource::None) {
            Ok(t) => Arc::new(t),
            Err(e) => panic!("{}: {e}", V::NAME), // no weights: nothing to check
        };
        let builtin = if V::WEIGHTS.is_empty() {
            handset.clone()
        } else {
            // The binary's own bytes (a test reads every variant's).
            match Weights::from_bytes(V::WEIGHTS)
                .and_then(|w| PieceTables::build::<V>(Some(&w), WeightsSource::BuiltIn(w.description.clone())))
            {
                Ok(t) => Arc::new(t),
                Err(e) => panic!("{}: the built-in weights are broken: {e}", V::NAME),
            }
        };
        let builtin_net = (!V::NET.is_empty()).then(|| {
            match nnue::Network::from_bytes(V::NET).and_then(|n| n.fit::<V>(V::NET_STAND_INS)) {
                Ok(net) => {
                    let source = WeightsSource::BuiltIn(format!("network {}", net.shape()));
                    Arc::new(NetSlot { net: Arc::new(net), source })
                }
                Err(e) => panic!("{}: the built-in network is broken: {e}", V::NAME),
            }
        });
        let near = |sq: usize, files: std::ops::RangeInclusive<i32>, ranks: std::ops::RangeInclusive<i32>| {
            let mut b = G::B::ZERO;
            for df in files {
                for dr in ranks.clone() {
                    if let Some(t) = G::offset(sq, df, dr) {
                        b |= G::B::bit(t);
                    }
                }
            }
            b
        };
        let zone = (0..G::SQUARES).map(|sq| near(sq, -1..=1, -1..=1)).collect();
        // Ranks `from..=to` ahead of the square, seen from `color`'s side.
        let ahead = |color: usize, from: i32, to: i32| -> Vec<G::B> {
            let ranks = if color == 0 { from..=to } else { -to..=-from };
            (0..G::SQUARES).map(|sq| near(sq, -1..=1, ranks.clone())).collect()
        };
        let max = G::RANKS as i32;
        let front_span = [ahead(0, 1, max), ahead(1, 1, max)];
        let shield = [ahead(0, 1, 2), ahead(1, 1, 2)];
        let adjacent_files = (0..G::FILES)
            .map(|f| {
                let mut b = G::B::ZERO;
                if f > 0 {
                    b |= G::file_bb(f - 1);
                }
                if f + 1 < G::FILES {
                    b |= G::file_bb(f + 1);
                }
                b
            })
            .collect();
        EvalTables { builtin, handset, builtin_net, zone, front_span, adjacent_files, shield }
    }
}

impl PieceTables {
    #[inline(always)]
    pub fn pst<G: Geometry>(&self, color: usize, t: u8, sq: usize) -> i32 {
        self.pst[(color * MAX_TYPES + t as usize) * G::SQUARES + sq]
    }
}

/// Which weights a variant evaluates with.
#[derive(Clone, Copy, Debug)]
pub enum WeightsChoice<'a> {
    /// Its built-in weights (the hand-set evaluation where it has none).
    BuiltIn,
    /// No learned weights: the hand-set evaluation.
    HandSet,
    /// Weights read from a file (the path, for `eval`); no network.
    File(&'a Weights, &'a str),
    /// A network read from a file (the path); the piece weights stay.
    Net(&'a nnue::Network, &'a str),
}

/// The learned part of `pos`'s evaluation, from White's view: the
/// weights' corrections of the pieces on the board and in hand.
pub fn learned_eval<V: Evaluator>(pos: &Position<V>, eval: &Evaluation) -> i32 {
    let pieces = &eval.pieces;
    let mut score = [0i32; 2];
    for (c, s) in score.iter_mut().enumerate() {
        for t in 1..=V::PIECES.len() as u8 {
            *s += pieces.hand_learned[t as usize] * pos.hand[c][t as usize] as i32;
            for sq in pos.pieces(c, t).iter() {
                *s += pieces.learned[(c * MAX_TYPES + t as usize) * V::G::SQUARES + sq];
            }
        }
    }
    score[0] - score[1]
}

/// Writes a variant's `eval_tables()` with its own static (a static inside
/// a generic function would be shared by every variant). A generic impl
/// (Ita's rule options) shares one static among its types: its `pst`,
/// `WEIGHTS` and `NET` must not depend on the type parameters, and the
/// engine keeps one [`Evaluation`] for all of them (keyed by the static:
/// [`crate::engine_game::EngineGame::eval_slot`]; an `EvalFile`'s piece
/// letters are checked against the current game's type). Where a parameter changes the pieces (IAGO's `X`, the Amazon),
/// `eval_tables!(G, key)` keeps a static per value of `key`
/// ([`crate::variants::RuleOptions::each_table`] reaches both).
#[macro_export]
macro_rules! eval_tables {
    ($g:ty) => {
        $crate::eval_tables!($g, false);
    };
    // One static per value of `$key`, as `variant_tables!`'s.
    ($g:ty, $key:expr) => {
        $crate::keyed_tables!(eval_tables, $crate::eval::EvalTables<$g>, $key);
    };
}

/// Below this much non-pawn material on the opponent's side (board and
/// hand) the king's shelter does not matter, and the king's centrality
/// begins to (the more, the less is left).
const SHELTER_MATERIAL: i32 = 1300;

/// Material, hand, placement, mobility, threats, pawn structure, king
/// safety and the king's centrality, added to `acc` per side.
fn generic_terms<V: Evaluator, A: Terms>(pos: &Position<V>, pieces: &PieceTables, acc: &mut A) {
    let tables = V::tables();
    let eval = V::eval_tables();
    let occ = pos.occupied();
    let all = V::G::tables().all;
    let empty = !occ & all;
    let kings = [pos.king_sq(0), pos.king_sq(1)];
    let safety = V::KING_SAFETY && kings.iter().all(|&k| k != NO_SQ);
    // Per side: non-pawn material, and the units and number of pieces attacking the enemy king's zone.
    let mut power = [0i32; 2];
    let mut attack = [(0i32, 0i32); 2];
    // Per side and piece type: the squares its pieces attack (threats,
    // checks); the pawns' first (mobility counts the squares they leave).
    let mut attacks = [[Bb::<V>::ZERO; MAX_TYPES]; 2];
    if V::PAWN != 0 {
        let tt = &tables.types[V::PAWN as usize];
        for (c, by_side) in attacks.iter_mut().enumerate() {
            for sq in pos.pieces(c, V::PAWN).iter() {
                by_side[V::PAWN as usize] |= Position::<V>::piece_targets(tt, c, sq, occ, empty, all).1;
            }
        }
    }
    for c in 0..2 {
        // Squares attacked by an enemy pawn are no room for a piece.
        let room = !attacks[c ^ 1][V::PAWN as usize];
        let own_base = pos.pieces(c, V::PAWN) | pos.pieces(c, V::KING);
        let enemy_zone = if safety { eval.zone[kings[c ^ 1]] } else { Bb::<V>::ZERO };
        for t in 1..=tables.n_types as u8 {
            let value = V::PIECES[t as usize - 1].value;
            let in_hand = pos.hand[c][t as usize] as i32;
            acc.add(c, col::MATERIAL, pieces.hand[t as usize] * in_hand);
            let bb = pos.pieces(c, t);
            if t != V::PAWN && t != V::KING {
                power[c] += value * (in_hand + bb.count() as i32);
            }
            if bb.is_empty() {
                continue;
            }
            let tt = &tables.types[t as usize];
            let mobile = t != V::KING && t != V::PAWN;
            let attacker = safety && mobile;
            for sq in bb.iter() {
                acc.add(c, col::MATERIAL, value + pieces.pst::<V::G>(c, t, sq));
                if t == V::PAWN {
                    continue; // its attacks are in already
                }
                let (quiet, pattern) = Position::<V>::piece_targets(tt, c, sq, occ, empty, all);
                attacks[c][t as usize] |= pattern;
                if mobile {
                    // Moves and captures; trapped: also the own pieces defended.
                    let moves = (quiet | (pattern & pos.by_color[c ^ 1])) & room;
                    acc.add(c, col::MOBILITY, moves.count() as i32);
                    let reach = (moves | (pattern & room & !own_base)).count() as i32;
                    acc.add(c, col::TRAPPED, (TRAPPED_BELOW - reach).max(0));
                }
                if attacker && (pattern & enemy_zone).any() {
                    attack[c].0 += (value / 200).clamp(1, 5);
                    attack[c].1 += 1;
                }
            }
        }
    }
    // Per side: every square it attacks.
    let reach = attacks.map(|by_type| by_type.iter().fold(Bb::<V>::ZERO, |b, &a| b | a));
    threats(pos, &attacks, &reach, 0, acc);
    threats(pos, &attacks, &reach, 1, acc);
    if V::PAWN_TERMS {
        pawn_structure(pos, eval, 0, acc);
        pawn_structure(pos, eval, 1, acc);
    }
    if safety {
        for c in 0..2 {
            let (units, attackers) = attack[c ^ 1];
            let checkers = safe_checks(pos, &attacks, &reach, c, kings[c]);
            acc.king_danger(c, units + SAFE_CHECK_UNITS * checkers, attackers + checkers);
            if V::PAWN_TERMS && power[c ^ 1] >= SHELTER_MATERIAL {
                shelter(pos, eval, c, kings[c], acc);
            }
            // The fewer enemy pieces, the more the king belongs in the centre.
            let endgame = (SHELTER_MATERIAL - power[c ^ 1]).max(0);
            if endgame > 0 {
                acc.add(c, col::KING_CENTER, centrality::<V::G>(kings[c]) * endgame / 100);
            }
        }
    }
}

/// King danger units per enemy piece type that can check safely.
const SAFE_CHECK_UNITS: i32 = 2;

/// A piece reaching fewer squares than this is trapped (`col::TRAPPED`).
const TRAPPED_BELOW: i32 = 2;

/// The enemy piece types (not royal, not pawns) that can give `color`'s
/// king at `king` a safe check: move to a square from which they attack it,
/// that `color` does not attack. (A piece attacks the king from the squares
/// that the same piece of the king's colour reaches from the king: pieces
/// move alike to the left and right.)
fn safe_checks<V: Evaluator>(
    pos: &Position<V>,
    attacks: &[[Bb<V>; MAX_TYPES]; 2],
    reach: &[Bb<V>; 2],
    color: usize,
    king: usize,
) -> i32 {
    let tables = V::tables();
    let enemy = color ^ 1;
    let occ = pos.occupied();
    let all = V::G::tables().all;
    let open = !pos.by_color[enemy] & !reach[color];
    // The orthogonal and diagonal lines through the king, each looked up
    // once for every type that rides all of them and nothing else.
    let mut lines = [None; 2];
    let mut n = 0;
    for t in (1..=V::PIECES.len() as u8).filter(|&t| t != V::KING && t != V::PAWN) {
        let reach = attacks[enemy][t as usize] & open;
        if reach.is_empty() {
            continue;
        }
        let from = if tables.grouped_only >> t & 1 == 1 {
            let mut from = Bb::<V>::ZERO;
            for (i, (group, dirs)) in tables.line_groups().into_iter().enumerate() {
                if group >> t & 1 == 1 {
                    from |= *lines[i].get_or_insert_with(|| V::G::lines(king, dirs, occ));
                }
            }
            from
        } else {
            Position::<V>::piece_targets(&tables.types[t as usize], color, king, occ, !occ & all, all).1
        };
        n += i32::from((from & reach).any());
    }
    n
}

/// The threats of `color` on the enemy's pieces (not its royal piece, nor
/// its pawns): a piece attacked by one of lower value, and a piece attacked
/// and not defended.
fn threats<V: Evaluator, A: Terms>(
    pos: &Position<V>,
    attacks: &[[Bb<V>; MAX_TYPES]; 2],
    reach: &[Bb<V>; 2],
    color: usize,
    acc: &mut A,
) {
    let types = 1..=V::PIECES.len() as u8;
    let (ours, theirs) = (reach[color], reach[color ^ 1]);
    for t in types.clone().filter(|&t| t != V::KING && t != V::PAWN) {
        let attacked = pos.pieces(color ^ 1, t) & ours;
        if attacked.is_empty() {
            continue;
        }
        let value = V::PIECES[t as usize - 1].value;
        let lesser = types
            .clone()
            .filter(|&a| a != V::KING && V::PIECES[a as usize - 1].value < value)
            .fold(Bb::<V>::ZERO, |b, a| b | attacks[color][a as usize]);
        acc.add(color, col::THREAT_BY_LESSER, (attacked & lesser).count() as i32);
        acc.add(color, col::HANGING, (attacked & !theirs).count() as i32);
    }
}

/// Doubled, isolated and passed pawns of `color`.
fn pawn_structure<V: Evaluator, A: Terms>(pos: &Position<V>, eval: &EvalTables<V::G>, color: usize, acc: &mut A) {
    let ours = pos.pieces(color, V::PAWN);
    let theirs = pos.pieces(color ^ 1, V::PAWN);
    let files = &V::G::tables().files;
    for (f, &file) in files.iter().enumerate() {
        let n = (ours & file).count() as i32;
        if n == 0 {
            continue;
        }
        acc.add(color, col::DOUBLED, n - 1);
        if (ours & eval.adjacent_files[f]).is_empty() {
            acc.add(color, col::ISOLATED, n);
        }
    }
    for sq in ours.iter() {
        if (eval.front_span[color][sq] & theirs).is_empty() {
            let rank = V::G::relative_rank(color, sq) * 7 / (V::G::RANKS - 1);
            acc.add(color, col::PASSED + rank, 1);
        }
    }
}

/// The king's pawn shield and the file it stands on, for `color`.
fn shelter<V: Evaluator, A: Terms>(pos: &Position<V>, eval: &EvalTables<V::G>, color: usize, king: usize, acc: &mut A) {
    if V::G::relative_rank(color, king) > 1 {
        return; // a king that has left home has no shield to keep
    }
    let ours = pos.pieces(color, V::PAWN);
    let theirs = pos.pieces(color ^ 1, V::PAWN);
    let shield = eval.shield[color][king] & ours;
    let near = eval.zone[king];
    let kf = V::G::file_of(king);
    for f in kf.saturating_sub(1)..=(kf + 1).min(V::G::FILES - 1) {
        let on_file = shield & V::G::file_bb(f);
        let kind = if (on_file & near).any() {
            col::SHIELD_NEAR
        } else if on_file.any() {
            col::SHIELD_FAR
        } else {
            col::SHIELD_NONE
        };
        acc.add(color, kind, 1);
    }
    let file = V::G::file_bb(kf);
    if (file & ours).is_empty() {
        acc.add(color, col::KING_FILE_SEMI_OPEN, 1);
        let riders = V::tables().orth_riders;
        let rides = (1..=V::PIECES.len() as u8).any(|t| riders >> t & 1 == 1 && pos.pieces(color ^ 1, t).any());
        if (file & theirs).is_empty() && rides {
            acc.add(color, col::KING_FILE_OPEN, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;

    /// Chess's built-in evaluation.
    fn chess() -> Evaluation {
        Evaluation::builtin::<Chess>()
    }
    #[test]
    fn start_is_balanced_and_material_counts() {
        let p = Position::<Chess>::startpos();
        assert_eq!(formula_eval(&p, &chess()), 10);
        let q = Position::<Chess>::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(formula_eval(&q, &chess()) > 900);
    }

    /// `color`'s score from what `f` adds with chess's weights.
    fn weighted(color: usize, f: impl FnOnce(&mut Weighted<Chess>)) -> i32 {
        let mut w = Weighted::new();
        f(&mut w);
        w.score[color]
    }

    #[test]
    fn pawn_structure_counts_exactly() {
        let t = Chess::eval_tables();
        // White: a2 b2 (a pair), d5 and f2 isolated; no black pawns, so all
        // four are passed: 5 + 5 + 5 (rank 2) + 35 (rank 5) - 2 * 10.
        let p = Position::<Chess>::from_fen("4k3/8/8/3P4/8/8/PP3P2/4K3 w - - 0 1").unwrap();
        assert_eq!(weighted(0, |w| pawn_structure(&p, t, 0, w)), 30);
        assert_eq!(weighted(1, |w| pawn_structure(&p, t, 1, w)), 0);
        // Doubled and blocked: c2 c3 against c6 (not passed, isolated both).
        let p = Position::<Chess>::from_fen("4k3/8/2p5/8/8/2P5/2P5/4K3 w - - 0 1").unwrap();
        assert_eq!(weighted(0, |w| pawn_structure(&p, t, 0, w)), -12 - 2 * 10);
        // Black's c6: isolated, and not passed (white pawns stand ahead of it on its file).
        assert_eq!(weighted(1, |w| pawn_structure(&p, t, 1, w)), -10);
    }

    #[test]
    fn shelter_counts_shield_and_open_file() {
        let t = Chess::eval_tables();
        let shelter_of = |p: &Position<Chess>| weighted(0, |w| shelter(p, t, 0, p.king_sq(0), w));
        // f2 and g2 next to the king (+10 each), h3 two ahead (+5).
        let p = Position::<Chess>::from_fen("6k1/8/8/8/8/7P/5PP1/6K1 w - - 0 1").unwrap();
        assert_eq!(shelter_of(&p), 25);
        // No pawn on the g-file: -12 for the gap, -15 semi-open, -10 open
        // with a black rook on the board.
        let p = Position::<Chess>::from_fen("6k1/6r1/8/8/8/8/5P1P/6K1 w - - 0 1").unwrap();
        assert_eq!(shelter_of(&p), 10 - 12 + 10 - 15 - 10);
        // A king off its first two ranks has no shelter term.
        let p = Position::<Chess>::from_fen("6k1/8/8/8/8/6K1/5PPP/8 w - - 0 1").unwrap();
        assert_eq!(shelter_of(&p), 0);
    }

    #[test]
    fn king_danger_needs_two_attackers() {
        assert_eq!(weighted(0, |w| w.king_danger(0, 4, 1)), 0);
        assert_eq!(weighted(0, |w| w.king_danger(0, 5, 2)), -125);
        assert_eq!(weighted(1, |w| w.king_danger(1, 20, 5)), -400);
    }

    #[test]
    fn threats_safe_checks_and_king_centrality_counted_by_hand() {
        // White's knight e3 attacks Black's rook d5 (a lesser piece, and
        // nothing defends d5); Black's bishop c5 attacks the knight (not a
        // lesser piece, and the king f2 defends it). Black's rook can check
        // from d2, which White does not attack: one checker, 2 units, one
        // attacker more; the bishop attacks e3 in the king's zone (1 unit):
        // 3 units, 9 squared (White's). Black can give no check. Mobility:
        // rook 11 (the bishop blocks c5), bishop 9 (with the capture on e3);
        // the knight 8 (d1 f1 c2 g2 c4 g4 f5 and the capture on d5).
        // Centrality: Black's king e8 6 times (1300 - 320) / 100 = 58,
        // White's king f2 6 times (1300 - 830) / 100 = 28.
        let p = Position::<Chess>::from_fen("4k3/8/8/2br4/8/4N3/5K2/8 w - - 0 1").unwrap();
        let row = term_columns(&p, &chess());
        let picked = [col::THREAT_BY_LESSER, col::HANGING, col::MOBILITY, col::DANGER_UNITS2, col::KING_CENTER];
        assert_eq!(picked.map(|c| row[c]), [1, 1, 8 - 20, 9, 28 - 58]);
        let mut attacks = [[0u64; MAX_TYPES]; 2];
        let mut reach = [0u64; 2];
        let tables = Chess::tables();
        for (c, by_type) in attacks.iter_mut().enumerate() {
            for t in 1..=6u8 {
                for sq in p.pieces(c, t).iter() {
                    let a = Position::<Chess>::piece_targets(
                        &tables.types[t as usize],
                        c,
                        sq,
                        p.occupied(),
                        !p.occupied(),
                        !0,
                    )
                    .1;
                    by_type[t as usize] |= a;
                    reach[c] |= a;
                }
            }
        }
        assert_eq!(safe_checks(&p, &attacks, &reach, 0, p.king_sq(0)), 1);
        assert_eq!(safe_checks(&p, &attacks, &reach, 1, p.king_sq(1)), 0);
    }

    #[test]
    fn trapped_pieces_counted_by_hand() {
        // White's knight a1 reaches only b3 and c2, its own pawns: 2 short
        // of 2 squares. Black's knight h8 reaches f7 and g6, which the h5
        // pawn attacks: 1 short. The kings are not counted.
        let white = Position::<Chess>::from_fen("4k3/8/8/8/8/1P6/2P5/N3K3 w - - 0 1").unwrap();
        assert_eq!(term_columns(&white, &chess())[col::TRAPPED], 2);
        let black = Position::<Chess>::from_fen("4k2n/8/8/7P/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(term_columns(&black, &chess())[col::TRAPPED], -1);
        let p = Position::<Chess>::from_fen("4k2n/8/8/7P/8/1P6/2P5/N3K3 w - - 0 1").unwrap();
        assert_eq!(term_columns(&p, &chess())[col::TRAPPED], 2 - 1);
        let untrapped = Position::<Chess>::from_fen("4k2n/8/8/8/7P/1P6/2P5/1N2K3 w - - 0 1").unwrap();
        assert_eq!(term_columns(&untrapped, &chess())[col::TRAPPED], 0);
        assert_eq!(Chess::EVAL_WEIGHTS.trapped, -20);
    }

    #[test]
    fn a_row_of_terms_counted_by_hand() {
        // Black's queen d4 (4 attack units, through f2) and knight e4 (1,
        // on f2) attack White's king zone, and the queen (d1) and the rook
        // (a1) can check where White attacks nothing: 5 + 2 * 2 units, 81
        // squared, past the cap. Black
        // has Q + N + R = 1770 of material, so White's shelter counts: f2
        // and g2 next to the king, h3 two ahead, pawns on the king's file.
        // Mobility: queen 19 squares (d5-d8, d3-d1, c4-a4, e5 f6, c5 b6 a7,
        // the capture on f2, c3 b2 a1; not e3, attacked by the f2 pawn),
        // rook 12 (a7-a1, b8-f8), knight 7 (d2 c3 c5 g5 d6 f6 and the
        // capture on f2; not g3, attacked by the f2 pawn); White has none.
        // No pawn is doubled, isolated or passed. White has no pieces: Black's king g8 counts
        // its centrality (14 - 12) times 13, White's none.
        let p = Position::<Chess>::from_fen("r5k1/5ppp/8/8/3qn3/7P/5PP1/6K1 w - - 0 1").unwrap();
        let row = term_columns(&p, &chess());
        let mut material = 0;
        for (c, sign) in [(0, 1), (1, -1)] {
            for t in 1..=6u8 {
                for sq in p.pieces(c, t).iter() {
                    material += sign
                        * (Chess::PIECES[t as usize - 1].value
                            + chess().pieces.pst::<crate::geometry::Board8x8>(c, t, sq));
                }
            }
        }
        let mut expected = [0; col::COUNT];
        expected[col::MATERIAL] = material;
        expected[col::TEMPO] = 1;
        expected[col::MOBILITY] = -38;
        expected[col::SHIELD_NEAR] = 2;
        expected[col::SHIELD_FAR] = 1;
        expected[col::DANGER_CAPPED] = 1;
        expected[col::KING_CENTER] = -26;
        assert_eq!(row, expected);
        let w = Chess::EVAL_WEIGHTS.columns();
        let dot: i32 = row.iter().zip(w).map(|(x, w)| x * w).sum();
        assert_eq!(dot, material + 10 - 76 + 25 - 400 - 26);
        assert_eq!(dot, formula_eval(&p, &chess()));
    }

    /// The built-in chess weights are the table `tuned.rs` held before
    /// (material plus square correction per type P N B R Q K and square
    /// from the piece's side): its sum, a weighted sum and four entries.
    #[test]
    fn builtin_chess_weights_are_the_old_table() {
        let t = &Chess::eval_tables().builtin;
        assert!(matches!(&t.source, WeightsSource::BuiltIn(d) if d.starts_with("texel.py on 184486 positions")));
        let white: Vec<i32> = (1..=6).flat_map(|p| (0..64).map(move |sq| t.learned[p * 64 + sq])).collect();
        assert_eq!(white.iter().sum::<i32>(), 258);
        assert_eq!(white.iter().enumerate().map(|(i, v)| v.abs() * (i as i32 + 1)).sum::<i32>(), 409619);
        assert_eq!((white[0], white[64 + 1], white[5 * 64 + 4], white[3 * 64 + 15]), (6, -11, -10, -21));
        // Black's ranks mirrored: the king on e8, a knight on g8.
        let black = |p: usize, sq: usize| t.learned[(MAX_TYPES + p) * 64 + sq];
        assert_eq!((black(6, 60), black(2, 62), black(2, 6)), (-10, -9, 1));
        // The table in use adds them to the hand-set values.
        for i in 0..t.pst.len() {
            assert_eq!(t.pst[i], Chess::eval_tables().handset.pst[i] + t.learned[i]);
        }
    }

    /// `tests/weights/chess-pawn50.weights` (the `EvalFile` session's) is
    /// the built-in chess weights with the pawn's material 50 higher.
    #[test]
    fn the_session_file_differs_by_fifty() {
        let builtin = Weights::from_bytes(Chess::WEIGHTS).unwrap();
        let mut w = Weights::read_file("tests/weights/chess-pawn50.weights").unwrap();
        assert_eq!((w.pieces[0].material, builtin.pieces[0].material), (56, 6));
        w.pieces[0].material -= 50;
        w.description = builtin.description.clone();
        assert_eq!(w, builtin);
    }

    #[test]
    fn a_network_on_top_adds_the_formula() {
        use crate::variants::historia::HistoriaSako;
        let fen = "8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee] w - - 0 1";
        let pos = Position::<HistoriaSako>::from_fen(fen).unwrap();
        let pos = pos.play(pos.legal_moves()[3]);
        let mut net = nnue::Network::from_fn("historia-sako", nnue::feature_count::<HistoriaSako>(), 16, (1, 1), |i| {
            (i % 7) as i16 - 3
        });
        let out = net.evaluate(&pos);
        let eval = Evaluation::builtin::<HistoriaSako>();
        assert_eq!(network_plus(&net, out, &pos, &eval), out);
        net.on_top = true;
        assert_eq!(network_plus(&net, out, &pos, &eval), out + formula_eval(&pos, &eval));
        assert_ne!(formula_eval(&pos, &eval), 0);
    }

    /// The fitted variants have built-in weights (Ito Shogi keeps its
    /// hand-set formula), and every variant's default rules a built-in
    /// network on top of its formula.
    #[test]
    fn builtin_weights_and_networks() {
        for name in crate::registry::VARIANTS {
            let g = crate::registry::new_game_with(name, &Default::default()).unwrap();
            let eval = g.builtin_evaluation();
            let builtin = matches!(eval.pieces.source, WeightsSource::BuiltIn(_));
            let fitted = ["chess", "historia-sako", "iago-b", "iago-c", "ita", "etcetera"];
            assert_eq!(builtin, fitted.contains(name), "{name}");
            let net = g.network_eval(&eval).map(|(_, s)| s);
            assert!(matches!(net, Some(WeightsSource::BuiltIn(_))), "{name}: {net:?}");
        }
    }

    #[test]
    fn weights_must_fit_the_variant() {
        let chess = Weights::from_bytes(Chess::WEIGHTS).unwrap();
        let err = |w: &Weights| check_shape::<Chess>(w).unwrap_err().to_string();
        let mut w = chess.clone();
        w.variant = "historia-sako".into();
        assert_eq!(err(&w), "the weights are for variant historia-sako, not chess");
        let mut w = chess.clone();
        w.files = 7;
        assert_eq!(err(&w), "wrong shape: a 7x8 board, chess has 8x8");
        let mut w = chess.clone();
        w.pieces.swap(1, 2);
        assert_eq!(err(&w), "wrong shape: piece types P B N R Q K, chess has P N B R Q K");
        let mut w = chess.clone();
        w.pieces.push(w.pieces[4].clone());
        assert_eq!(err(&w), "wrong shape: piece types P N B R Q K Q, chess has P N B R Q K");
        // Fewer types than the variant's: the others get no correction.
        let mut w = chess;
        w.pieces.truncate(1);
        let t = PieceTables::build::<Chess>(Some(&w), WeightsSource::None).unwrap();
        assert_eq!((t.learned[64], t.learned[2 * 64]), (6, 0));
    }

    /// What `safe_checks` relies on: a type that captures only along whole
    /// orthogonal or diagonal lines (`grouped_only`) captures exactly on
    /// those lines, for both colours, from every square, in the chess
    /// family and Historia Ŝako.
    #[test]
    fn grouped_types_capture_on_their_lines() {
        fn check<V: Evaluator>(fen: &str) -> u32 {
            let p = Position::<V>::from_fen(fen).unwrap();
            let tables = V::tables();
            let (occ, all) = (p.occupied(), V::G::tables().all);
            let mut grouped = 0;
            for t in 1..=V::PIECES.len() as u8 {
                if tables.grouped_only >> t & 1 == 0 {
                    continue;
                }
                grouped += 1;
                for color in 0..2 {
                    for sq in 0..V::G::SQUARES {
                        let mut lines = Bb::<V>::ZERO;
                        for (group, dirs) in tables.line_groups() {
                            if group >> t & 1 == 1 {
                                lines |= V::G::lines(sq, dirs, occ);
                            }
                        }
                        let tt = &tables.types[t as usize];
                        let caps = Position::<V>::piece_targets(tt, color, sq, occ, !occ & all, all).1;
                        assert_eq!(caps, lines, "{} type {t} colour {color} square {sq}", V::NAME);
                    }
                }
            }
            grouped
        }
        use crate::variants::historia::HistoriaSako;
        use crate::variants::iago::IagoB;
        // Bishop, rook and queen; IAGO-B's too; Historia Ŝako's.
        assert_eq!(check::<Chess>("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), 3);
        assert!(check::<IagoB>(IagoB::START_FEN) >= 3);
        check::<HistoriaSako>(HistoriaSako::START_FEN);
    }

    #[test]
    fn tables_follow_the_board() {
        use crate::geometry::{Board8x8, Board10x10};
        use crate::variants::ita::Ita;
        let t = Chess::eval_tables();
        let sq = |n: &str| Board8x8::parse_square(n).unwrap();
        let bb = |names: &[&str]| names.iter().fold(0u64, |b, n| b | 1u64 << sq(n));
        assert_eq!(t.zone[sq("a1")], bb(&["a1", "b1", "a2", "b2"]));
        assert_eq!(t.shield[0][sq("g1")], bb(&["f2", "g2", "h2", "f3", "g3", "h3"]));
        assert_eq!(t.shield[1][sq("b8")], bb(&["a7", "b7", "c7", "a6", "b6", "c6"]));
        assert_eq!(t.front_span[1][sq("a3")], bb(&["a2", "b2", "a1", "b1"]));
        // Ita's 10x10 board: the zone of j10 and the span of a white pawn on e9.
        let t = Ita::eval_tables();
        let sq = |n: &str| Board10x10::parse_square(n).unwrap();
        let bb = |names: &[&str]| names.iter().fold(0u128, |b, n| b | 1u128 << sq(n));
        assert_eq!(t.zone[sq("j10")], bb(&["i9", "j9", "i10", "j10"]));
        assert_eq!(t.front_span[0][sq("e9")], bb(&["d10", "e10", "f10"]));
    }
}
