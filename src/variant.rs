//! What a variant is: a short description (board, pieces, start position,
//! hand, promotion, rights field) plus hooks for the rules no description covers.
//! The generic core (position, move generation, search) is monomorphised per variant.

use crate::bitboard::Bits;
use crate::geometry::{FixedArray, Geometry};
use crate::moves::{Kind, Move};
use crate::piece::{PieceTable, parse_betza};
use crate::position::Position;

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
/// Piece types are 1..=15; 0 means "none".
pub const MAX_TYPES: usize = 16;

/// One piece type of a variant.
#[derive(Clone, Copy, Debug)]
pub struct PieceDef {
    pub name: &'static str,
    /// FEN letter (upper case); promoted faces are written `+X`.
    pub letter: &'static str,
    /// Movement in the Betza subset of [`crate::piece`].
    pub betza: &'static str,
    /// Material value in centipawns (for evaluation and move ordering).
    pub value: i32,
}

/// How a game ended: the winner (or a draw), the score pair where the game
/// keeps scores (White's, Black's), and the reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<usize>,
    pub scores: Option<[i32; 2]>,
    pub reason: String,
}

impl Outcome {
    pub fn win(winner: usize, reason: &str) -> Outcome {
        Outcome { winner: Some(winner), scores: None, reason: reason.to_string() }
    }
    pub fn draw(reason: &str) -> Outcome {
        Outcome { winner: None, scores: None, reason: reason.to_string() }
    }
    /// A score pair given as (mover, opponent) for the side `mover`.
    pub fn scores(mover: usize, mine: i32, theirs: i32, reason: &str) -> Outcome {
        let mut s = [0; 2];
        s[mover] = mine;
        s[mover ^ 1] = theirs;
        let winner = if mine > theirs {
            Some(mover)
        } else if theirs > mine {
            Some(mover ^ 1)
        } else {
            None
        };
        Outcome { winner, scores: Some(s), reason: reason.to_string() }
    }
    /// "1-0", "0-1", "1/2-1/2", or "5:1" style for score games.
    pub fn result_string(&self) -> String {
        match (self.scores, self.winner) {
            (Some(s), _) => format!("{}:{}", s[0], s[1]),
            (None, Some(0)) => "1-0".into(),
            (None, Some(_)) => "0-1".into(),
            (None, None) => "1/2-1/2".into(),
        }
    }
}

/// Where the side to move may or must drop this turn.
pub enum DropRule<B> {
    /// Drops and board moves as usual.
    Free,
    /// Only drops, and only onto these squares (any piece in hand).
    Only(B),
}

pub type Bb<V> = <<V as Variant>::G as Geometry>::B;

/// A variant: description plus hooks. Defaults describe plain chess-like rules.
pub trait Variant: 'static + Copy + Default + Send + Sync + std::fmt::Debug {
    type G: Geometry;
    /// A position's bitboards by piece type, index 0 unused:
    /// `[Bb; PIECES.len() + 1]` (checked when a position is made).
    type ByType: FixedArray<<Self::G as Geometry>::B>;
    const NAME: &'static str;
    const START_FEN: &'static str;
    /// Piece types in order: `PIECES[i]` is type `i + 1`.
    const PIECES: &'static [PieceDef];
    /// The FEN carries a `[hand]`.
    const HAND: bool = false;
    /// The royal piece type (0: none, so no check rules).
    const KING: u8 = 0;
    /// The piece type that promotes on reaching the promotion zone (0: none).
    const PAWN: u8 = 0;
    /// The types a pawn may promote to.
    const PROMOTIONS: &'static [u8] = &[];
    /// Promotion (when possible) is mandatory in the zone.
    const PROMOTION_MANDATORY: bool = true;
    /// A promotion to a type held in hand uses that hand piece up (IAGO).
    const PROMOTION_USES_HAND: bool = false;
    /// Where castling's king and rooks stand and land (`None`: no castling).
    const CASTLING: Option<Castling> = None;
    const EN_PASSANT: bool = false;
    /// Seirawan-style gating from the hand onto a vacated gating square (`rights[1]`).
    const GATING: bool = false;
    /// Legality can be decided from pins and checkers (only line sliders and
    /// leapers capture, and no hook adds rules of its own). Otherwise every
    /// move is made and tested.
    const FAST_LEGAL: bool = true;
    /// Captured pieces go to the captor's hand (shogi).
    const CAPTURES_TO_HAND: bool = false;
    /// A capturing piece other than the king turns over (Ito Shogi).
    const FLIP_ON_CAPTURE: bool = false;
    /// A side with no legal move and not in check: stalemate is a draw (chess) or a loss.
    const STALEMATE_DRAWS: bool = false;
    /// Null-move pruning is sound enough for this variant.
    const NULL_MOVE_OK: bool = true;
    /// A node in check is searched one ply deeper (off in chess, where
    /// self-play measured it no stronger for a third more nodes to a depth).
    const CHECK_EXTENSION: bool = true;
    /// The game looks the same to both sides after a half turn of the board
    /// (Historia Ŝako: pawns and drop squares), not after a flip of its
    /// ranks (chess): Black's view of a square then turns its file too.
    const HALF_TURN: bool = false;
    /// The bits of the rule word ([`Position::rules`]) this type is compiled
    /// for: its const parameters, which the variant's `visit` copied from
    /// the word (0 for a type without any). A position made without a rule
    /// word (`Position::startpos`, `Position::from_fen`) starts with them.
    const TYPE_WORD: u32 = 0;

    /// The start position's FEN under the rule word `rules` (see
    /// [`Position::rules`]); the rulings' [`Variant::START_FEN`] by default.
    fn start_fen(_rules: u32) -> &'static str {
        Self::START_FEN
    }
    /// Whether a promotion to a type held in hand uses that piece up now.
    #[inline(always)]
    fn promotion_uses_hand(_pos: &Position<Self>) -> bool {
        Self::PROMOTION_USES_HAND
    }
    /// Whether castling may gate a hand piece onto the king's or the rook's
    /// vacated square (Seirawan chess; IAGO's `IagoCastlingGates`).
    #[inline(always)]
    fn castling_gates(_pos: &Position<Self>) -> bool {
        false
    }

    /// The move's text in the variant's native notation where only the
    /// position can write it and the game's rule word chose it (IAGO's
    /// `IagoNotation iago`, declared as
    /// [`crate::variants::NativeWriter::Position`]); `None`: the canonical
    /// text. The engine writes it (`bestmove`, `pv`) and reads it besides the
    /// canonical one.
    fn native_move_text(_pos: &Position<Self>, _m: Move) -> Option<String> {
        None
    }

    /// The variant's compiled tables (one static per variant: see [`variant_tables!`]).
    fn tables() -> &'static VariantTables<Self::G>;

    /// Squares where a type's moves may end (Etcetera's fortress for the King).
    fn piece_zone(_t: u8, _color: usize) -> Option<Bb<Self>> {
        None
    }
    /// Squares where a pawn of `color` promotes.
    fn promotion_zone(_color: usize) -> Bb<Self> {
        Bb::<Self>::ZERO
    }
    /// The other face of a piece (promoted <-> unpromoted); identity without faces.
    fn flip(t: u8) -> u8 {
        t
    }
    /// The type a captured piece becomes in hand.
    fn unpromoted(t: u8) -> u8 {
        t
    }
    /// Whether promoting to `t` is allowed now (IAGO: equipment limit).
    fn promotion_allowed(_pos: &Position<Self>, _us: usize, _t: u8) -> bool {
        true
    }
    /// Which pieces this type may capture (default: every enemy piece).
    #[inline(always)]
    fn capture_targets(pos: &Position<Self>, us: usize, _t: u8) -> Bb<Self> {
        pos.by_color[us ^ 1]
    }
    /// Whether the side to move is restricted to drops this turn.
    fn drop_rule(_pos: &Position<Self>) -> DropRule<Bb<Self>> {
        DropRule::Free
    }
    /// Empty squares where the side to move may drop a piece of type `t`.
    fn drop_targets(pos: &Position<Self>, _us: usize, _t: u8) -> Bb<Self> {
        !pos.occupied() & Self::G::tables().all
    }
    /// Moves the description cannot express (Ita's Flag abilities), given to `push`.
    fn extra_moves(_pos: &Position<Self>, _push: &mut impl FnMut(Move)) {}
    /// The rights field after a move (castling/gating by default).
    fn next_rights(pos: &Position<Self>, m: Move, _moved: u8, _captured: u8) -> [Bb<Self>; 2] {
        default_next_rights::<Self>(pos.rights, m)
    }
    /// Legality beyond king safety, judged on the position after the move.
    fn post_legal(_before: &Position<Self>, _after: &Position<Self>) -> bool {
        true
    }
    /// A result decided by the board alone after a move (Ita's goals).
    fn board_end(_pos: &Position<Self>) -> Option<Outcome> {
        None
    }
    /// The result when the side to move has no legal move.
    fn no_moves(pos: &Position<Self>, in_check: bool) -> Outcome {
        let stm = pos.side;
        if in_check {
            Outcome::win(stm ^ 1, "checkmate")
        } else if Self::STALEMATE_DRAWS {
            Outcome::draw("stalemate")
        } else {
            Outcome::win(stm ^ 1, "stalemate")
        }
    }
    /// The result when `loser` forfeits (on time, or by a fault the referee
    /// saw) in `pos`: a plain win for the other side unless the game keeps
    /// scores (Ita's time result, IAGO's bare-king points under its options).
    fn forfeit(_pos: &Position<Self>, loser: usize, reason: &str) -> Outcome {
        Outcome::win(loser ^ 1, reason)
    }
    /// The result of a third occurrence (where [`Variant::REPETITION_DRAWS`]).
    fn repetition(_pos: &Position<Self>) -> Outcome {
        Outcome::draw("threefold repetition")
    }
    /// Whether this move resets the halfmove clock.
    fn resets_clock(moved: u8, captured: u8, kind: Kind) -> bool {
        captured != 0 || moved == Self::PAWN || kind == Kind::Drop
    }
    /// Draw (or other end) by the game's own rules, needing the history: the
    /// n-move rule and insufficient material. Repetition is handled by the game.
    fn rule_end(pos: &Position<Self>) -> Option<Outcome> {
        if pos.halfmove >= 100 {
            return Some(Outcome::draw("50-move rule"));
        }
        None
    }
    /// Repetition: `true` when the third occurrence is an illegal move instead of a draw.
    const REPETITION_ILLEGAL: bool = false;
    /// A third occurrence of a position ends the game as a draw (false for
    /// games that know no draws, such as Ita's score pairs).
    const REPETITION_DRAWS: bool = true;
    /// The best margin of the variant's score pairs (Ita's 5:0): the search
    /// ranks a result by the margin it gives up below this
    /// ([`crate::score::outcome_value`]); a result without a score pair counts
    /// as the best. 1 where results carry no points.
    const SCORE_SCALE: i32 = 1;

    /// Parses the rights field.
    fn parse_rights(field: &str) -> Option<[Bb<Self>; 2]> {
        if field == "-" { Some([Bb::<Self>::ZERO; 2]) } else { None }
    }
    fn format_rights(_rights: &[Bb<Self>; 2]) -> String {
        "-".to_string()
    }
    /// The rights field as the FEN writes it. Variants whose field depends on
    /// the board (Ita lists each side's Flags, White's first) override this;
    /// the default formats the rights alone.
    fn rights_fen(pos: &Position<Self>) -> String {
        Self::format_rights(&pos.rights)
    }
    /// Extra checks that a parsed position is possible.
    fn validate(_pos: &Position<Self>) -> Result<(), String> {
        Ok(())
    }
}

/// Castling and gating rights end when a piece leaves or is captured on a
/// square; castling needs the king's square too (so rights on the rook
/// squares alone are dropped). Drops keep the right of the square (IAGO-C).
/// Square `sq` as `color` sees it (`rank * FILES + file`, ranks counted
/// from `color`'s own edge; files too where the game is symmetric by a
/// half turn): what the learned piece-square values and the network's
/// features are indexed by, so both sides share them.
#[inline(always)]
pub fn seen_from<V: Variant>(color: usize, sq: usize) -> usize {
    let file = V::G::file_of(sq);
    let file = if V::HALF_TURN && color == 1 { V::G::FILES - 1 - file } else { file };
    V::G::relative_rank(color, sq) * V::G::FILES + file
}

pub fn default_next_rights<V: Variant>(rights: [Bb<V>; 2], m: Move) -> [Bb<V>; 2] {
    let mut r = rights;
    if (r[0] | r[1]).is_empty() || m.kind() == Kind::Drop {
        return r;
    }
    let mut touched = Bb::<V>::bit(m.to());
    touched |= Bb::<V>::bit(m.from());
    if m.kind() == Kind::Castling {
        let (rook_from, _) = castling_rook::<V>(m.from(), m.to());
        touched |= Bb::<V>::bit(rook_from);
    }
    r[0] &= !touched;
    r[1] &= !touched;
    if let Some(castling) = V::CASTLING {
        // Castling needs the king's square and a rook's: a lone one is no right
        // (so equal positions have equal keys however they were reached).
        for c in 0..2 {
            let rank = if c == 0 { 0 } else { V::G::RANKS - 1 };
            let king = Bb::<V>::bit(V::G::square(castling.king, rank));
            let own = r[0] & V::G::rank_bb(rank);
            if (own & king).is_empty() || own == king {
                r[0] &= !V::G::rank_bb(rank);
            }
        }
    }
    r
}

/// Castling, described by files on the own back rank: the king's start,
/// and for each side (king side first, then queen side) the rook's start,
/// where the king lands and where the rook lands.
#[derive(Clone, Copy, Debug)]
pub struct Castling {
    pub king: usize,
    pub rook: [usize; 2],
    pub king_to: [usize; 2],
    pub rook_to: [usize; 2],
}

impl Castling {
    /// FIDE chess: king e, rooks h and a; O-O to g (rook f), O-O-O to c (rook d).
    pub const FIDE: Castling = Castling { king: 4, rook: [7, 0], king_to: [6, 2], rook_to: [5, 3] };
}

/// The rook's from and to squares for a king move `from -> to` that castles.
#[inline]
pub fn castling_rook<V: Variant>(from: usize, to: usize) -> (usize, usize) {
    let c = V::CASTLING.unwrap_or(Castling::FIDE);
    let rank = V::G::rank_of(from);
    let side = usize::from(V::G::file_of(to) != c.king_to[0]);
    (V::G::square(c.rook[side], rank), V::G::square(c.rook_to[side], rank))
}

/// One type's tables for both colours plus a few summary facts.
pub struct TypeTables<B> {
    pub by_color: [PieceTable<B>; 2],
    /// Has lame leaps, riders, hops or igui (the slow parts of generation).
    pub exotic: bool,
}

/// Everything a variant precomputes.
pub struct VariantTables<G: Geometry> {
    /// Indexed by type; index 0 is an empty placeholder.
    pub types: Vec<TypeTables<G::B>>,
    pub n_types: usize,
    pub promotion_zone: [G::B; 2],
    /// Types that capture by sliding without range limit along all four
    /// orthogonal (resp. diagonal) lines, as bitmasks over types: attack
    /// detection computes those lines once for all of them.
    pub orth_riders: u32,
    pub diag_riders: u32,
    /// Types whose captures are all covered by the two groups above.
    pub grouped_only: u32,
    /// Types with leaping captures (a table lookup finds them).
    pub leapers: u32,
    /// Types that capture by sliding along some line, limited or not:
    /// the only ones that can pin or give check from afar.
    pub line_sliders: u32,
    /// Types whose captures outside the two groups are all leaps (pawns,
    /// knights, kings; the Marshall beside its rook lines), and the types
    /// neither these nor `grouped_only`, whose captures are found in full.
    pub leap_only: u32,
    pub in_full: u32,
    /// Every type, cheapest first (by value, then by type): the order in
    /// which exchanges bring in their attackers.
    pub cheapest_first: arrayvec::ArrayVec<u8, MAX_TYPES>,
    /// The types of `leapers`, lowest first, and their leaping captures in
    /// one block: `leap_rows[(color * SQUARES + sq) * n + k]` is where a
    /// piece of type `leaper_types[k]` and colour `color` on `sq` captures
    /// by a leap (`n` leaper types). One row per square and colour, so the
    /// leapers attacking a square are a few adjacent loads
    /// ([`Position::leaps_from`]).
    pub leaper_types: arrayvec::ArrayVec<u8, MAX_TYPES>,
    pub leap_rows: Vec<G::B>,
}

/// The types in a bitmask over types (bit `t` for type `t`), lowest first.
#[inline(always)]
pub fn types_in(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let t = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            t
        })
    })
}

impl<G: Geometry> VariantTables<G> {
    /// The two rider groups with the lines each rides: `(orth_riders,
    /// ORTH)` and `(diag_riders, DIAG)`.
    #[inline(always)]
    pub fn line_groups(&self) -> [(u32, u8); 2] {
        [(self.orth_riders, crate::geometry::ORTH), (self.diag_riders, crate::geometry::DIAG)]
    }

    pub fn build<V: Variant<G = G>>() -> Self {
        let mut types = Vec::with_capacity(V::PIECES.len() + 1);
        let empty = TypeTables {
            by_color: [PieceTable::build::<G>(&[], 0, None), PieceTable::build::<G>(&[], 1, None)],
            exotic: false,
        };
        types.push(empty);
        let (mut orth_riders, mut diag_riders, mut grouped_only, mut leapers) = (0u32, 0u32, 0u32, 0u32);
        let (mut line_sliders, mut leap_only, mut in_full) = (0u32, 0u32, 0u32);
        for (i, def) in V::PIECES.iter().enumerate() {
            let t = (i + 1) as u8;
            let comps = match parse_betza(def.betza) {
                Ok(c) => c,
                Err(e) => panic!("variant {} piece {}: {e}", V::NAME, def.name),
            };
            let by_color = [0, 1].map(|c| PieceTable::build::<G>(&comps, c, V::piece_zone(t, c)));
            let exotic = by_color.iter().any(|p| {
                p.lame.iter().any(|l| !l.is_empty()) || !p.riders.is_empty() || !p.hops.is_empty() || !p.igui.is_empty()
            });
            let unlimited =
                |dirs: std::ops::Range<usize>| by_color.iter().all(|p| dirs.clone().all(|d| p.slide_c[d] == u32::MAX));
            let (orth, diag) = (unlimited(0..4), unlimited(4..8));
            orth_riders |= u32::from(orth) << t;
            diag_riders |= u32::from(diag) << t;
            // Every sliding capture along a line one of the two groups rides.
            let lines_grouped =
                by_color.iter().all(|p| (0..8).all(|d| p.slide_c[d] == 0 || (d < 4 && orth) || (d >= 4 && diag)));
            let leaps = by_color.iter().any(|p| p.leap_c.iter().any(|b| b.any()));
            leapers |= u32::from(leaps) << t;
            if by_color.iter().any(|p| p.slide_c.iter().any(|&r| r > 0)) {
                line_sliders |= 1 << t;
            }
            // Captures beyond leaps and lines (a lame move's, as the pawn's
            // double step, captures nothing).
            let exotic_captures = by_color.iter().any(|p| {
                p.lame_rev_c.iter().any(|l| !l.is_empty())
                    || p.riders.iter().any(|r| r.2.captures())
                    || p.hops.iter().any(|h| h.1.captures())
                    || !p.igui.is_empty()
            });
            if lines_grouped && !leaps && !exotic && (orth || diag) {
                grouped_only |= 1 << t;
            } else if lines_grouped && !exotic_captures {
                leap_only |= 1 << t;
            } else {
                in_full |= 1 << t;
            }
            types.push(TypeTables { by_color, exotic });
        }
        let mut cheapest_first: arrayvec::ArrayVec<u8, MAX_TYPES> = (1..=V::PIECES.len() as u8).collect();
        cheapest_first.sort_by_key(|&t| (V::PIECES[t as usize - 1].value, t));
        let leaper_types: arrayvec::ArrayVec<u8, MAX_TYPES> = types_in(leapers).map(|t| t as u8).collect();
        let leap_rows = (0..2)
            .flat_map(|c| (0..G::SQUARES).map(move |sq| (c, sq)))
            .flat_map(|(c, sq)| leaper_types.iter().map(move |&t| (c, sq, t as usize)))
            .map(|(c, sq, t)| types[t].by_color[c].leap_c[sq])
            .collect();
        VariantTables {
            types,
            n_types: V::PIECES.len(),
            promotion_zone: [V::promotion_zone(0), V::promotion_zone(1)],
            orth_riders,
            diag_riders,
            grouped_only,
            leapers,
            line_sliders,
            leap_only,
            in_full,
            cheapest_first,
            leaper_types,
            leap_rows,
        }
    }
}

/// Writes a variant's `tables()` with its own static (a static inside a
/// generic function would be shared by every variant).
#[macro_export]
macro_rules! variant_tables {
    ($g:ty) => {
        $crate::variant_tables!($g, false);
    };
    // A generic impl whose parameters change the pieces: one static per
    // value of `$key` (a `bool` of the impl's const parameters), as the one
    // static of a generic impl would serve every instance.
    ($g:ty, $key:expr) => {
        $crate::keyed_tables!(tables, $crate::variant::VariantTables<$g>, $key);
    };
}

/// Writes `fn $name() -> &'static $t`, built once by `$t::build::<Self>`
/// into one static per value of `$key` (a `bool`): the body of
/// [`variant_tables!`] and [`crate::eval_tables!`].
#[doc(hidden)]
#[macro_export]
macro_rules! keyed_tables {
    ($name:ident, $t:ty, $key:expr) => {
        fn $name() -> &'static $t {
            static T: [std::sync::OnceLock<$t>; 2] = [const { std::sync::OnceLock::new() }; 2];
            T[usize::from($key)].get_or_init(<$t>::build::<Self>)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::etcetera::Etcetera;
    use crate::variants::iago::{IagoB, IagoCRules};
    use crate::variants::ita::Ita;
    use crate::variants::ito::ItoShogi;
    use crate::variants::{chess::Chess, historia::HistoriaSako};

    /// Entries of `V::ByType` and bytes of a position (copied for every move searched).
    fn sizes<V: Variant>() -> (usize, usize, usize) {
        let by_type = V::ByType::filled(Bb::<V>::ZERO).as_ref().len();
        (V::PIECES.len(), by_type, std::mem::size_of::<Position<V>>())
    }

    #[test]
    fn a_position_holds_what_its_variant_needs() {
        // One bitboard per piece type plus index 0; IAGO's array also fits
        // the Amazon of its extra rules (`X`).
        assert_eq!(sizes::<Chess>(), (6, 7, 248));
        assert_eq!(sizes::<IagoB>(), (8, 10, 272));
        assert_eq!(sizes::<IagoCRules<true, true, true>>(), (9, 10, 272));
        assert_eq!(sizes::<HistoriaSako>(), (7, 8, 256));
        assert_eq!(sizes::<Ita>(), (7, 8, 400));
        assert_eq!(sizes::<ItoShogi>(), (13, 14, 200));
        assert_eq!(sizes::<Etcetera>(), (6, 7, 240));
    }

    #[test]
    fn squares_seen_from_each_side() {
        // e2 (12) and e7 (52): in chess Black sees e7 as White sees e2; in
        // Historia Ŝako, turned by a half turn, as White sees d2 (11).
        assert_eq!((seen_from::<Chess>(0, 12), seen_from::<Chess>(1, 52)), (12, 12));
        assert_eq!((seen_from::<HistoriaSako>(0, 12), seen_from::<HistoriaSako>(1, 52)), (12, 11));
        // a1 and h8 are each side's own corner.
        assert_eq!((seen_from::<HistoriaSako>(1, 63), seen_from::<Chess>(1, 63)), (0, 7));
    }
}
