//! A position of one variant: board, hands, side, rights, clocks and Zobrist key.
//! Copy-make: `play` returns the position after a move.

use crate::bitboard::Bits;
use crate::geometry::{FixedArray, Geometry};
use crate::moves::{Kind, Move};
use crate::variant::{Bb, MAX_TYPES, Variant, castling_rook, types_in};
use std::marker::PhantomData;
use std::sync::OnceLock;

pub const NO_SQ: usize = 255;
/// Squares of the largest board (the Zobrist tables, shared by every variant).
pub const MAX_SQ: usize = 128;
const MAX_HAND: usize = 32;
/// A castling move's piece field: the gated type in the low four bits ...
pub const CASTLING_GATE_TYPE: u8 = 15;
/// ... and this bit when it enters the rook's square rather than the king's.
pub const CASTLING_GATE_ON_ROOK: u8 = 16;

/// Zobrist keys shared by all variants.
pub struct Zobrist {
    pub piece: Vec<[u64; MAX_SQ]>,
    pub hand: Vec<[[u64; MAX_HAND]; MAX_TYPES]>,
    pub rights: [[u64; MAX_SQ]; 2],
    pub ep: [u64; MAX_SQ],
    pub side: u64,
}

pub fn zobrist() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| {
        // A fixed xorshift sequence: keys are the same in every run.
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let piece = (0..32).map(|_| std::array::from_fn(|_| next())).collect();
        let hand = (0..2).map(|_| std::array::from_fn(|_| std::array::from_fn(|_| next()))).collect();
        let rights = [std::array::from_fn(|_| next()), std::array::from_fn(|_| next())];
        let ep = std::array::from_fn(|_| next());
        let side = next();
        Zobrist { piece, hand, rights, ep, side }
    })
}

/// Piece code on the board: type in the low 4 bits, colour in bit 4; 0 = empty.
const TYPE_MASK: u8 = 15;
const COLOR_SHIFT: u8 = 4;

#[inline(always)]
pub fn code(color: usize, t: u8) -> u8 {
    t | (color as u8) << COLOR_SHIFT
}

#[derive(Clone, Copy)]
pub struct Position<V: Variant> {
    /// The piece code on each square (0: empty; see [`code`]).
    pub board: <V::G as Geometry>::Squares,
    pub by_color: [Bb<V>; 2],
    pub by_type: V::ByType,
    pub hand: [[u8; MAX_TYPES]; 2],
    pub side: usize,
    /// Variant-defined rights: castling squares and gating squares for the
    /// chess family, Flags with their alley / capture abilities for Ita.
    pub rights: [Bb<V>; 2],
    pub ep: usize,
    ep_hashed: bool,
    pub halfmove: u32,
    pub fullmove: u32,
    pub key: u64,
    /// The Zobrist key of the pawns alone (see [`Self::pawn_key`]), kept by
    /// `put` and `remove` as `key` is.
    pawn_key: u64,
    /// The Zobrist keys of each side's pieces other than pawns (see
    /// [`Self::piece_keys`]), kept by `put` and `remove` as `key` is.
    piece_keys: [u64; 2],
    /// The rule word: every rule option of the game, packed as the variant
    /// defines (its `rule_word`; 0: the rulings). Set once for a game,
    /// carried by every move. The rules read it here, or, for the bits the
    /// variant's `visit` copied into the type's const parameters
    /// ([`Variant::TYPE_WORD`]), from those.
    pub rules: u32,
    _v: PhantomData<V>,
}

impl<V: Variant> PartialEq for Position<V> {
    fn eq(&self, o: &Self) -> bool {
        self.board.as_ref() == o.board.as_ref()
            && self.hand == o.hand
            && self.side == o.side
            && self.rights == o.rights
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
    }
}

impl<V: Variant> std::fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fen())
    }
}

impl<V: Variant> Position<V> {
    pub fn empty() -> Self {
        const {
            assert!(
                std::mem::size_of::<V::ByType>() > V::PIECES.len() * std::mem::size_of::<Bb<V>>(),
                "Variant::ByType needs one bitboard per piece type and one for index 0"
            )
        };
        Position {
            board: FixedArray::filled(0),
            by_color: [Bb::<V>::ZERO; 2],
            by_type: FixedArray::filled(Bb::<V>::ZERO),
            hand: [[0; MAX_TYPES]; 2],
            side: 0,
            rights: [Bb::<V>::ZERO; 2],
            ep: NO_SQ,
            ep_hashed: false,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            piece_keys: [0; 2],
            rules: V::TYPE_WORD,
            _v: PhantomData,
        }
    }

    /// The start position under the type's own rule word ([`Variant::TYPE_WORD`]).
    pub fn startpos() -> Self {
        Self::startpos_with(V::TYPE_WORD)
    }

    /// The start position under the rule word `rules` (see [`Variant::start_fen`]).
    pub fn startpos_with(rules: u32) -> Self {
        match Self::from_fen_with(V::start_fen(rules), rules) {
            Ok(p) => p,
            Err(e) => panic!("{}: bad start FEN: {e}", V::NAME),
        }
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bb<V> {
        self.by_color[0] | self.by_color[1]
    }
    #[inline(always)]
    pub fn pieces(&self, color: usize, t: u8) -> Bb<V> {
        self.by_color[color] & self.by_type[t as usize]
    }
    /// Both colours' pieces of the types in `mask` (bit `t` for type `t`).
    #[inline(always)]
    pub fn pieces_of_types(&self, mask: u32) -> Bb<V> {
        types_in(mask).fold(Bb::<V>::ZERO, |b, t| b | self.by_type[t])
    }
    /// Type of the piece on `sq` (0 if empty).
    #[inline(always)]
    pub fn type_on(&self, sq: usize) -> u8 {
        self.board[sq] & TYPE_MASK
    }
    /// Colour of the piece on `sq` (meaningless if empty).
    #[inline(always)]
    pub fn color_on(&self, sq: usize) -> usize {
        (self.board[sq] >> COLOR_SHIFT) as usize
    }
    /// The square of `color`'s royal piece, or NO_SQ.
    #[inline(always)]
    pub fn king_sq(&self, color: usize) -> usize {
        if V::KING == 0 {
            return NO_SQ;
        }
        let k = self.pieces(color, V::KING);
        if k.is_empty() { NO_SQ } else { k.lsb() }
    }
    /// The game's ply: 0 at the first move, counted from the move number.
    pub fn game_ply(&self) -> u32 {
        2 * self.fullmove.saturating_sub(1) + self.side as u32
    }
    pub fn hand_count(&self, color: usize) -> u32 {
        self.hand[color].iter().map(|&c| c as u32).sum()
    }

    #[inline(always)]
    pub fn put(&mut self, color: usize, t: u8, sq: usize) {
        let b = Bb::<V>::bit(sq);
        self.board[sq] = code(color, t);
        self.by_color[color] |= b;
        self.by_type[t as usize] |= b;
        self.toggle_keys(code(color, t), sq);
    }
    /// The keys with the piece `c` (colour and type) put on or taken from
    /// `sq`: the whole key, and the pawns' or its side's pieces' key.
    #[inline(always)]
    fn toggle_keys(&mut self, c: u8, sq: usize) {
        let z = zobrist().piece[c as usize][sq];
        self.key ^= z;
        if V::PAWN != 0 {
            if c & TYPE_MASK == V::PAWN {
                self.pawn_key ^= z;
            } else {
                self.piece_keys[(c >> COLOR_SHIFT) as usize] ^= z;
            }
        }
    }
    /// The piece on `from` goes to `to`, taking what stands there, and the
    /// other side is to move: the pieces and the rights, for exchange
    /// evaluation (`search::see`). Nothing else follows the move (keys, en
    /// passant, clocks), so the position must not be played on.
    #[inline]
    pub(crate) fn exchange_move(&mut self, from: usize, to: usize) {
        let (mover, victim) = (self.board[from], self.board[to]);
        let (f, t) = (Bb::<V>::bit(from), Bb::<V>::bit(to));
        if victim != 0 {
            self.by_color[(victim >> COLOR_SHIFT) as usize] &= !t;
            self.by_type[(victim & TYPE_MASK) as usize] &= !t;
        }
        self.by_color[(mover >> COLOR_SHIFT) as usize] ^= f | t;
        self.by_type[(mover & TYPE_MASK) as usize] ^= f | t;
        self.board[to] = mover;
        self.board[from] = 0;
        // Rights decide what may follow (IAGO-C's queen square).
        let m = Move::normal(from, to);
        self.rights = V::next_rights(self, m, mover & TYPE_MASK, victim & TYPE_MASK);
        self.side ^= 1;
    }
    #[inline(always)]
    pub fn remove(&mut self, sq: usize) {
        let c = self.board[sq];
        let b = Bb::<V>::bit(sq);
        self.by_color[(c >> COLOR_SHIFT) as usize] &= !b;
        self.by_type[(c & TYPE_MASK) as usize] &= !b;
        self.board[sq] = 0;
        self.toggle_keys(c, sq);
    }
    #[inline]
    pub fn hand_add(&mut self, color: usize, t: u8) {
        let z = &zobrist().hand[color][t as usize];
        let n = self.hand[color][t as usize] as usize;
        self.key ^= z[n.min(MAX_HAND - 1)] ^ z[(n + 1).min(MAX_HAND - 1)];
        self.hand[color][t as usize] += 1;
    }
    #[inline]
    pub fn hand_remove(&mut self, color: usize, t: u8) {
        let z = &zobrist().hand[color][t as usize];
        let n = self.hand[color][t as usize] as usize;
        self.key ^= z[n.min(MAX_HAND - 1)] ^ z[n.saturating_sub(1).min(MAX_HAND - 1)];
        self.hand[color][t as usize] -= 1;
    }
    fn rights_key(r: &[Bb<V>; 2]) -> u64 {
        let z = zobrist();
        let mut k = 0;
        for (i, bb) in r.iter().enumerate() {
            for s in bb.iter() {
                k ^= z.rights[i][s];
            }
        }
        k
    }
    pub fn set_rights(&mut self, r: [Bb<V>; 2]) {
        if r != self.rights {
            self.key ^= Self::rights_key(&self.rights) ^ Self::rights_key(&r);
            self.rights = r;
        }
    }

    /// Whether an en-passant square matters (a pawn of `capturer` could take
    /// there): only then is it part of the key.
    fn ep_matters(&self, ep: usize, capturer: usize) -> bool {
        let pt = &V::tables().types[V::PAWN as usize].by_color[capturer ^ 1];
        (pt.leap_c[ep] & self.pieces(capturer, V::PAWN)).any()
    }

    /// The Zobrist key of the pawns alone (0 where the variant has none):
    /// the search's correction history is kept per pawn structure.
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// [`Self::pawn_key`] from scratch (what `put` and `remove` keep).
    pub fn compute_pawn_key(&self) -> u64 {
        if V::PAWN == 0 {
            return 0;
        }
        let z = zobrist();
        let mut k = 0;
        for c in 0..2 {
            let table = &z.piece[code(c, V::PAWN) as usize];
            for sq in self.pieces(c, V::PAWN).iter() {
                k ^= table[sq];
            }
        }
        k
    }

    /// The Zobrist keys of White's and Black's pieces on the board other
    /// than pawns (kings included; 0 where the variant has no pawns, whose
    /// evaluation is not corrected): the search's correction history is
    /// also kept per side's pieces.
    #[inline]
    pub fn piece_keys(&self) -> [u64; 2] {
        self.piece_keys
    }

    /// [`Self::piece_keys`] from scratch (what `put` and `remove` keep).
    pub fn compute_piece_keys(&self) -> [u64; 2] {
        let z = zobrist();
        let mut k = [0; 2];
        if V::PAWN == 0 {
            return k;
        }
        for sq in 0..V::G::SQUARES {
            let c = self.board[sq];
            if c != 0 && c & TYPE_MASK != V::PAWN {
                k[(c >> COLOR_SHIFT) as usize] ^= z.piece[c as usize][sq];
            }
        }
        k
    }

    /// Recomputes the key from scratch (after a FEN is read).
    pub fn compute_key(&self) -> u64 {
        let z = zobrist();
        let mut k = 0;
        for sq in 0..V::G::SQUARES {
            if self.board[sq] != 0 {
                k ^= z.piece[self.board[sq] as usize][sq];
            }
        }
        for c in 0..2 {
            for t in 0..MAX_TYPES {
                let n = self.hand[c][t] as usize;
                if n > 0 {
                    k ^= z.hand[c][t][n.min(MAX_HAND - 1)] ^ z.hand[c][t][0];
                }
            }
        }
        k ^= Self::rights_key(&self.rights);
        if self.ep_hashed {
            k ^= z.ep[self.ep];
        }
        if self.side == 1 {
            k ^= z.side;
        }
        k
    }

    /// The position after `m` (which must be pseudo-legal here).
    #[inline]
    pub fn play(&self, m: Move) -> Self {
        let mut p = *self;
        p.make(m);
        p
    }

    /// Passes the turn (for null-move search).
    pub fn play_null(&self) -> Self {
        let mut p = *self;
        if p.ep_hashed {
            p.key ^= zobrist().ep[p.ep];
            p.ep_hashed = false;
        }
        p.ep = NO_SQ;
        p.side ^= 1;
        p.key ^= zobrist().side;
        p.halfmove += 1;
        p
    }

    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let z = zobrist();
        if self.ep_hashed {
            self.key ^= z.ep[self.ep];
            self.ep_hashed = false;
        }
        self.ep = NO_SQ;
        let to = m.to();
        let kind = m.kind();
        let mut captured = 0u8;
        let mut captured_color = us ^ 1;
        let moved;
        match kind {
            Kind::Drop => {
                moved = m.piece();
                self.hand_remove(us, moved);
                self.put(us, moved, to);
            }
            Kind::Igui => {
                moved = self.type_on(m.from());
                captured = self.type_on(to);
                captured_color = self.color_on(to);
                self.remove(to);
            }
            _ => {
                let from = m.from();
                moved = self.type_on(from);
                if kind == Kind::EnPassant {
                    let cap = if us == 0 { to - V::G::FILES } else { to + V::G::FILES };
                    captured = self.type_on(cap);
                    self.remove(cap);
                } else if self.board[to] != 0 {
                    captured = self.type_on(to);
                    captured_color = self.color_on(to);
                    self.remove(to);
                }
                self.remove(from);
                let mut new_type = moved;
                if kind == Kind::Promotion {
                    new_type = m.piece();
                    if V::promotion_uses_hand(self) && self.hand[us][new_type as usize] > 0 {
                        self.hand_remove(us, new_type);
                    }
                }
                if V::FLIP_ON_CAPTURE && captured != 0 && moved != V::KING {
                    new_type = V::flip(new_type);
                }
                self.put(us, new_type, to);
                match kind {
                    Kind::Gating => {
                        self.hand_remove(us, m.piece());
                        self.put(us, m.piece(), from);
                    }
                    Kind::Castling => {
                        let (rf, rt) = castling_rook::<V>(from, to);
                        let rook = self.type_on(rf);
                        self.remove(rf);
                        self.put(us, rook, rt);
                        // A castling gate (IAGO's `IagoCastlingGates`): the
                        // piece enters the king's square, or the rook's (bit 4).
                        let gate = m.piece();
                        if gate != 0 {
                            let t = gate & CASTLING_GATE_TYPE;
                            self.hand_remove(us, t);
                            self.put(us, t, if gate & CASTLING_GATE_ON_ROOK != 0 { rf } else { from });
                        }
                    }
                    _ => {}
                }
                if V::EN_PASSANT && moved == V::PAWN && from.abs_diff(to) == 2 * V::G::FILES {
                    let ep = (from + to) / 2;
                    self.ep = ep;
                    if self.ep_matters(ep, us ^ 1) {
                        self.key ^= z.ep[ep];
                        self.ep_hashed = true;
                    }
                }
            }
        }
        if V::CAPTURES_TO_HAND && captured != 0 && captured_color != us {
            self.hand_add(us, V::unpromoted(captured));
        }
        let r = V::next_rights(self, m, moved, captured);
        self.set_rights(r);
        if V::resets_clock(moved, captured, kind) {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if us == 1 {
            self.fullmove += 1;
        }
        self.side ^= 1;
        self.key ^= z.side;
    }

    // ---------------------------------------------------------------- FEN

    fn letter_of(t: u8) -> &'static str {
        V::PIECES[t as usize - 1].letter
    }
    /// Type for an upper-case letter (optionally with a leading '+').
    pub fn type_from_letter(s: &str) -> Option<u8> {
        V::PIECES.iter().position(|d| d.letter == s).map(|i| (i + 1) as u8)
    }
    pub fn piece_string(color: usize, t: u8) -> String {
        let l = Self::letter_of(t);
        if color == 0 { l.to_string() } else { l.to_lowercase() }
    }

    /// A position read from `fen` under the type's own rule word ([`Variant::TYPE_WORD`]).
    pub fn from_fen(fen: &str) -> Result<Self, String> {
        Self::from_fen_with(fen, V::TYPE_WORD)
    }

    /// A position read from `fen` under the rule word `rules`.
    pub fn from_fen_with(fen: &str, rules: u32) -> Result<Self, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err("empty FEN".into());
        }
        let mut pos = Self::empty();
        pos.rules = rules;
        let (board, hand) = match fields[0].find('[') {
            Some(i) => {
                let rest = &fields[0][i + 1..];
                let h = rest.strip_suffix(']').ok_or("hand without closing ']'")?;
                (&fields[0][..i], Some(h))
            }
            None => (fields[0], None),
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != V::G::RANKS {
            return Err(format!("{} ranks, {} needs {}", ranks.len(), V::NAME, V::G::RANKS));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = V::G::RANKS - 1 - i;
            let mut file = 0usize;
            let chars: Vec<char> = row.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if c.is_ascii_digit() {
                    let mut n = 0usize;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        n = n * 10 + chars[j].to_digit(10).unwrap_or(0) as usize;
                        j += 1;
                        if n > V::G::FILES {
                            return Err(format!("rank {} is too long", rank + 1));
                        }
                    }
                    if n == 0 {
                        return Err("empty run of 0 squares".into());
                    }
                    file += n;
                    continue;
                }
                let (letter, color) = if c == '+' {
                    j += 1;
                    let n = *chars.get(j).ok_or("'+' at the end of a rank")?;
                    (format!("+{}", n.to_ascii_uppercase()), if n.is_ascii_uppercase() { 0 } else { 1 })
                } else if c.is_ascii_alphabetic() {
                    (c.to_ascii_uppercase().to_string(), if c.is_ascii_uppercase() { 0 } else { 1 })
                } else {
                    return Err(format!("unexpected '{c}' in the board"));
                };
                let t = Self::type_from_letter(&letter).ok_or_else(|| format!("no piece '{letter}' in {}", V::NAME))?;
                if file >= V::G::FILES {
                    return Err(format!("rank {} is too long", rank + 1));
                }
                pos.put(color, t, V::G::square(file, rank));
                file += 1;
                j += 1;
            }
            if file != V::G::FILES {
                return Err(format!("rank {} has {} squares, not {}", rank + 1, file, V::G::FILES));
            }
        }
        match (hand, V::HAND) {
            (Some(h), true) => {
                for c in h.chars() {
                    let t = Self::type_from_letter(&c.to_ascii_uppercase().to_string())
                        .ok_or_else(|| format!("no piece '{c}' for the hand"))?;
                    let color = if c.is_ascii_uppercase() { 0 } else { 1 };
                    if pos.hand[color][t as usize] as usize >= MAX_HAND - 1 {
                        return Err("too many pieces in hand".into());
                    }
                    pos.hand[color][t as usize] += 1;
                }
            }
            (None, true) => return Err(format!("{} needs a [hand] after the board", V::NAME)),
            (Some(_), false) => return Err(format!("{} has no hand", V::NAME)),
            (None, false) => {}
        }
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" => 0,
            "b" => 1,
            s => return Err(format!("side to move '{s}' is not w or b")),
        };
        let rights = fields.get(2).copied().unwrap_or("-");
        pos.rights = V::parse_rights(rights).ok_or_else(|| format!("bad rights field '{rights}'"))?;
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let sq = V::G::parse_square(ep).ok_or_else(|| format!("bad en-passant square '{ep}'"))?;
            if !V::EN_PASSANT {
                return Err(format!("{} has no en passant", V::NAME));
            }
            let want = if pos.side == 0 { V::G::RANKS - 3 } else { 2 };
            if V::G::rank_of(sq) != want {
                return Err(format!("en-passant square '{ep}' is on the wrong rank"));
            }
            pos.ep = sq;
            pos.ep_hashed = pos.ep_matters(sq, pos.side);
        }
        pos.halfmove = match fields.get(4) {
            Some(s) => s.parse().map_err(|_| format!("bad halfmove clock '{s}'"))?,
            None => 0,
        };
        pos.fullmove = match fields.get(5) {
            Some(s) => s.parse().map_err(|_| format!("bad fullmove number '{s}'"))?,
            None => 1,
        };
        if pos.fullmove == 0 {
            pos.fullmove = 1;
        }
        if fields.len() > 6 {
            return Err("too many FEN fields".into());
        }
        pos.key = pos.compute_key();
        pos.validate()?;
        Ok(pos)
    }

    fn validate(&self) -> Result<(), String> {
        if V::KING != 0 {
            for c in 0..2 {
                let n = self.pieces(c, V::KING).count() + self.hand[c][V::KING as usize] as u32;
                if n != 1 {
                    return Err(format!("{} must have exactly one king, has {n}", ["white", "black"][c]));
                }
            }
            let them = self.side ^ 1;
            let k = self.king_sq(them);
            if k != NO_SQ && self.attackers_to(k, self.side, self.occupied()).any() {
                return Err("the side not to move is in check".into());
            }
        }
        if V::PAWN != 0 {
            for c in 0..2 {
                let pawns = self.pieces(c, V::PAWN);
                let back = V::G::rank_bb(if c == 0 { 0 } else { V::G::RANKS - 1 });
                if (pawns & back).any() && V::G::FILES > 1 {
                    return Err("a pawn stands on its own first rank".into());
                }
                if V::PROMOTION_MANDATORY && (pawns & V::tables().promotion_zone[c]).any() {
                    return Err("a pawn stands where it must have promoted".into());
                }
            }
        }
        V::validate(self)
    }

    pub fn board_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..V::G::RANKS).rev() {
            let mut run = 0;
            for file in 0..V::G::FILES {
                let sq = V::G::square(file, rank);
                if self.board[sq] == 0 {
                    run += 1;
                } else {
                    if run > 0 {
                        s += &run.to_string();
                        run = 0;
                    }
                    s += &Self::piece_string(self.color_on(sq), self.type_on(sq));
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    pub fn hand_string(&self) -> String {
        let mut s = String::new();
        for c in 0..2 {
            for t in 1..=V::PIECES.len() as u8 {
                for _ in 0..self.hand[c][t as usize] {
                    s += &Self::piece_string(c, t);
                }
            }
        }
        s
    }

    pub fn fen(&self) -> String {
        let mut s = self.board_fen();
        if V::HAND {
            s += &format!("[{}]", self.hand_string());
        }
        let ep = if self.ep == NO_SQ { "-".to_string() } else { V::G::square_name(self.ep) };
        format!(
            "{} {} {} {} {} {}",
            s,
            if self.side == 0 { 'w' } else { 'b' },
            V::rights_fen(self),
            ep,
            self.halfmove,
            self.fullmove
        )
    }

    /// A picture of the board, as Stockfish's `d` draws it.
    pub fn pretty(&self) -> String {
        let line = format!(" +{}\n", "---+".repeat(V::G::FILES));
        let mut s = String::from("\n");
        s += &line;
        for rank in (0..V::G::RANKS).rev() {
            s.push_str(" |");
            for file in 0..V::G::FILES {
                let sq = V::G::square(file, rank);
                let p = if self.board[sq] == 0 {
                    " ".to_string()
                } else {
                    Self::piece_string(self.color_on(sq), self.type_on(sq))
                };
                s += &format!("{p:^3}|");
            }
            s += &format!(" {}\n", rank + 1);
            s += &line;
        }
        s.push_str("  ");
        for file in 0..V::G::FILES {
            s += &format!(" {} ", (b'a' + file as u8) as char);
            s.push(' ');
        }
        s.push('\n');
        s
    }
}
