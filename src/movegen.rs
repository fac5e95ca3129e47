//! Move generation for every variant from its compiled piece tables, and
//! legality: pins and checkers where the variant allows it (FAST_LEGAL),
//! otherwise make-and-test.

use crate::bitboard::Bits;
use crate::geometry::{DIAG, Geometry, ORTH, opposite};
use crate::moves::{Kind, Move, MoveList};
use crate::piece::{hop_targets, rider_targets, slide_targets};
use crate::position::{CASTLING_GATE_ON_ROOK, NO_SQ, Position};
use crate::variant::{Bb, DropRule, MAX_TYPES, TypeTables, Variant, types_in};

/// Where generated moves go: a move list, or a counter of legal moves.
pub trait MoveSink<B: Bits> {
    fn push(&mut self, m: Move);
    /// Of the pieces `bb` about to be generated for, those whose moves are
    /// wanted (all of them unless the sink says otherwise).
    #[inline(always)]
    fn sources(&self, bb: B) -> B {
        bb
    }
    /// Plain moves of the piece on `from` to every square of `targets`.
    #[inline(always)]
    fn targets(&mut self, from: usize, targets: B) {
        for to in targets.iter() {
            self.push(Move::normal(from, to));
        }
    }
    /// Drops of type `t` on every square of `targets`.
    #[inline(always)]
    fn drops(&mut self, t: u8, targets: B) {
        for to in targets.iter() {
            self.push(Move::new(0, to, Kind::Drop, t));
        }
    }
}

impl<B: Bits> MoveSink<B> for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        arrayvec::ArrayVec::push(self, m);
    }
}

/// Counts legal moves; whole target sets are counted at once where pins and
/// checkers settle their legality (bulk counting at perft's last ply).
pub struct LegalCounter<'a, V: Variant> {
    pos: &'a Position<V>,
    ctx: LegalCtx<Bb<V>>,
    pub count: u64,
}

impl<V: Variant> MoveSink<Bb<V>> for LegalCounter<'_, V> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.count += u64::from(self.pos.is_legal(m, &self.ctx));
    }
    #[inline(always)]
    fn targets(&mut self, from: usize, targets: Bb<V>) {
        let ctx = &self.ctx;
        if V::FAST_LEGAL && (ctx.king == NO_SQ || (from != ctx.king && !ctx.pinned.has(from))) {
            let allowed = if ctx.checkers.is_empty() {
                targets
            } else if ctx.checkers.several() {
                Bb::<V>::ZERO
            } else {
                let c = ctx.checkers.lsb();
                targets & (V::G::between(ctx.king, c) | Bb::<V>::bit(c))
            };
            self.count += allowed.count() as u64;
        } else {
            for to in targets.iter() {
                self.push(Move::normal(from, to));
            }
        }
    }
    #[inline(always)]
    fn drops(&mut self, t: u8, targets: Bb<V>) {
        if V::FAST_LEGAL && (self.ctx.king == NO_SQ || self.ctx.checkers.is_empty()) {
            self.count += targets.count() as u64;
        } else {
            for to in targets.iter() {
                self.push(Move::new(0, to, Kind::Drop, t));
            }
        }
    }
}

/// What legality tests need about the side to move, computed once per node.
#[derive(Clone, Copy, Debug)]
pub struct LegalCtx<B> {
    pub king: usize,
    pub checkers: B,
    pub pinned: B,
}

/// What tells cheaply whether a move of the side to move gives check
/// ([`Position::gives_check`]): for each of its piece types the squares
/// from which it attacks the other side's royal piece, and its pieces that
/// stand alone between that piece and one of its sliders.
pub struct CheckInfo<B> {
    squares: [B; MAX_TYPES],
    discoverers: B,
}

/// The line riders of each group with its directions
/// ([`Position::line_riders`]).
pub type LineRiders<V> = [(Bb<V>, u8); 2];

/// Of `pieces`, the riders of `riders` that reach `sq` along a line
/// through `occ` (each line once for all the riders of a group).
#[inline(always)]
pub fn riders_attacking<V: Variant>(riders: &LineRiders<V>, sq: usize, occ: Bb<V>, pieces: Bb<V>) -> Bb<V> {
    let mut att = Bb::<V>::ZERO;
    for &(group, dirs) in riders {
        let r = group & pieces;
        if r.any() {
            att |= V::G::lines(sq, dirs, occ) & r;
        }
    }
    att
}

impl<V: Variant> Position<V> {
    /// Pieces of `color` that could capture on `sq` with occupancy `occ`.
    pub fn attackers_to(&self, sq: usize, color: usize, occ: Bb<V>) -> Bb<V> {
        let tables = V::tables();
        let mine = self.by_color[color] & occ;
        let mut att = self.line_attackers(sq, occ, mine) | (self.leap_attackers(sq, color) & occ);
        // The rest, in full.
        for t in types_in(tables.in_full) {
            let bb = self.by_type[t] & mine;
            if bb.is_empty() {
                continue;
            }
            let tt = &tables.types[t];
            // The reverse view: the opposite colour's moves from `sq`
            // (its leaps are `leap_attackers`'s already).
            let pt = &tt.by_color[color ^ 1];
            let mut a = Bb::<V>::ZERO;
            // Only the lines the groups above did not cover.
            let mut dirs = pt.slide_dirs_c;
            if tables.orth_riders & (1 << t) != 0 {
                dirs &= !ORTH;
            }
            if tables.diag_riders & (1 << t) != 0 {
                dirs &= !DIAG;
            }
            if dirs != 0 {
                a |= slide_targets::<V::G>(sq, occ, dirs, pt.limited_c, &pt.range_mask_c);
            }
            if tt.exotic {
                for l in &tt.by_color[color].lame_rev_c[sq] {
                    if (l.path & occ).is_empty() {
                        a |= Bb::<V>::bit(l.to);
                    }
                }
                for &(df, dr, mode) in &pt.riders {
                    if mode.captures() {
                        a |= rider_targets::<V::G>(sq, occ, df, dr);
                    }
                }
                for &(d, mode) in &pt.hops {
                    if let (true, (_, Some(v))) = (mode.captures(), hop_targets::<V::G>(sq, occ, d)) {
                        a |= Bb::<V>::bit(v);
                    }
                }
            }
            att |= a & bb;
        }
        att
    }

    /// The unlimited line riders of each group of
    /// `VariantTables::line_groups` (both colours), with the group's directions.
    #[inline(always)]
    pub fn line_riders(&self) -> LineRiders<V> {
        V::tables().line_groups().map(|(types, dirs)| (self.pieces_of_types(types), dirs))
    }

    /// Of `pieces`, the unlimited line riders (both groups of
    /// `VariantTables::line_groups`) that reach `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn line_attackers(&self, sq: usize, occ: Bb<V>, pieces: Bb<V>) -> Bb<V> {
        riders_attacking::<V>(&self.line_riders(), sq, occ, pieces)
    }

    /// The pieces of `color` that capture on `sq` by a leap, whatever the
    /// occupancy: those of every leaper type (`VariantTables::leapers`),
    /// including the types `attackers_to` otherwise finds in full.
    #[inline(always)]
    pub fn leap_attackers(&self, sq: usize, color: usize) -> Bb<V> {
        self.leaps_from(sq, color ^ 1) & self.by_color[color]
    }

    /// The pieces (of either colour) of each leaper type on the squares a
    /// piece of that type and of `color` on `sq` would take by a leap. Of
    /// the other colour, they are the pieces that take on `sq` by a leap.
    #[inline(always)]
    pub fn leaps_from(&self, sq: usize, color: usize) -> Bb<V> {
        let tables = V::tables();
        let types = &tables.leaper_types;
        let n = types.len();
        let start = (color * V::G::SQUARES + sq) * n;
        let row = &tables.leap_rows[start..start + n];
        let mut att = Bb::<V>::ZERO;
        for (&leaps, &t) in row.iter().zip(types) {
            att |= leaps & self.by_type[t as usize];
        }
        att
    }

    /// [`CheckInfo`] for the side to move, where every capture is a line
    /// slider's or a leaper's (`FAST_LEGAL`) and the other side has a
    /// royal piece on the board; `None` elsewhere.
    pub fn check_info(&self) -> Option<CheckInfo<Bb<V>>> {
        let tables = V::tables();
        if !V::FAST_LEGAL || V::KING == 0 {
            return None;
        }
        let (us, them) = (self.side, self.side ^ 1);
        let king = self.king_sq(them);
        if king == NO_SQ {
            return None;
        }
        let occ = self.occupied();
        let mut squares = [Bb::<V>::ZERO; MAX_TYPES];
        for (t, sq) in squares.iter_mut().enumerate().take(tables.n_types + 1).skip(1) {
            // The reverse view, as in `attackers_to`: the other colour's moves from the king.
            let pt = &tables.types[t].by_color[them];
            let mut a = pt.leap_c[king];
            let mut dirs = pt.slide_dirs_c;
            if tables.orth_riders & (1 << t) != 0 {
                dirs &= !ORTH;
                a |= V::G::lines(king, ORTH, occ);
            }
            if tables.diag_riders & (1 << t) != 0 {
                dirs &= !DIAG;
                a |= V::G::lines(king, DIAG, occ);
            }
            if dirs != 0 {
                a |= slide_targets::<V::G>(king, occ, dirs, pt.limited_c, &pt.range_mask_c);
            }
            *sq = a;
        }
        // Our pieces alone between their king and one of our sliders (no
        // slider of ours sees their king: it is our move).
        let (_, discoverers) = self.line_scan(king, us, us);
        Some(CheckInfo { squares, discoverers })
    }

    /// One scan of the lines from `king` (line sliders and leapers only:
    /// `FAST_LEGAL`): the `slider` side's pieces that slide onto it
    /// directly, and the `blocker` side's pieces that stand alone between it
    /// and a `slider` side's piece that would slide onto it (pins, or
    /// discovered checks when both sides are one).
    #[inline(always)]
    fn line_scan(&self, king: usize, blocker: usize, slider: usize) -> (Bb<V>, Bb<V>) {
        let tables = V::tables();
        let occ = self.occupied();
        // Whether the `slider` side's piece on `sq` slides onto the king along direction `d` (seen from the king).
        let slides_onto_king = |sq: usize, d: usize| {
            let range = tables.types[self.type_on(sq) as usize].by_color[slider].slide_c[opposite(d)];
            self.color_on(sq) == slider && range > 0 && V::G::distance(sq, king) as u32 <= range
        };
        let (mut direct, mut blockers) = (Bb::<V>::ZERO, Bb::<V>::ZERO);
        if tables.line_sliders & tables.in_full == 0 {
            // Every line slider rides all the lines of its group without
            // limit (chess, IAGO): only the group's riders on the king's
            // lines of an empty board can slide onto it, each with nothing
            // (directly) or one `blocker` piece (a pin) between.
            let snipers = riders_attacking::<V>(&self.line_riders(), king, Bb::<V>::ZERO, self.by_color[slider]);
            for s in snipers.iter() {
                let between = V::G::between(king, s) & occ;
                if between.is_empty() {
                    if blocker != slider {
                        direct |= Bb::<V>::bit(s);
                    }
                } else if between.count() == 1 && (between & self.by_color[blocker]).any() {
                    blockers |= between;
                }
            }
            return (direct, blockers);
        }
        // Only a line where a `slider` side's slider stands can hold either.
        let sliders = self.pieces_of_types(tables.line_sliders) & self.by_color[slider];
        for (d, dir_rays) in V::G::tables().rays.iter().enumerate() {
            if (dir_rays[king] & sliders).is_empty() {
                continue;
            }
            let ray = dir_rays[king] & occ;
            let b1 = V::G::nearest(ray, d);
            if self.color_on(b1) != blocker {
                if slides_onto_king(b1, d) {
                    direct |= Bb::<V>::bit(b1);
                }
                continue;
            }
            let beyond = dir_rays[b1] & occ;
            if beyond.is_empty() {
                continue;
            }
            if slides_onto_king(V::G::nearest(beyond, d), d) {
                blockers |= Bb::<V>::bit(b1);
            }
        }
        (direct, blockers)
    }

    /// Whether the legal move `m` gives check: from `info` for an ordinary
    /// move that uncovers no line, else the attack test of the position
    /// after it, which `child` gives and is asked for only then (the same
    /// answer as `child().in_check()`).
    #[inline]
    pub fn gives_check<'c>(&self, m: Move, child: impl FnOnce() -> &'c Position<V>, info: &CheckInfo<Bb<V>>) -> bool
    where
        V: 'c,
    {
        if m.kind() != Kind::Normal || info.discoverers.has(m.from()) {
            return child().in_check();
        }
        info.squares[self.type_on(m.from()) as usize].has(m.to())
    }

    /// Whether the side to move's royal piece is attacked.
    pub fn in_check(&self) -> bool {
        let k = self.king_sq(self.side);
        k != NO_SQ && self.attackers_to(k, self.side ^ 1, self.occupied()).any()
    }

    pub fn legal_ctx(&self) -> LegalCtx<Bb<V>> {
        let us = self.side;
        let king = self.king_sq(us);
        if king == NO_SQ {
            return LegalCtx { king, checkers: Bb::<V>::ZERO, pinned: Bb::<V>::ZERO };
        }
        let occ = self.occupied();
        if !V::FAST_LEGAL {
            return LegalCtx { king, checkers: self.attackers_to(king, us ^ 1, occ), pinned: Bb::<V>::ZERO };
        }
        // Only line sliders and leapers capture here (FAST_LEGAL), so one scan
        // of the eight lines from the king finds the sliding checkers and the
        // pinned pieces; leaping checkers come from the tables.
        let them = us ^ 1;
        let mut checkers = self.leaps_from(king, us) & self.by_color[them];
        let (sliding, pinned) = self.line_scan(king, us, them);
        checkers |= sliding;
        LegalCtx { king, checkers, pinned }
    }

    /// Where a piece of type table `tt` and colour `us` on `from` can move
    /// (to empty squares) and capture (onto `cap_mask`); igui captures aside.
    #[inline(always)]
    pub fn piece_targets(
        tt: &TypeTables<Bb<V>>,
        us: usize,
        from: usize,
        occ: Bb<V>,
        empty: Bb<V>,
        cap_mask: Bb<V>,
    ) -> (Bb<V>, Bb<V>) {
        let pt = &tt.by_color[us];
        let mut quiet = pt.leap_m[from] & empty;
        let mut caps = pt.leap_c[from] & cap_mask;
        let uniform = pt.uniform;
        if pt.slide_dirs_c != 0 {
            let s = slide_targets::<V::G>(from, occ, pt.slide_dirs_c, pt.limited_c, &pt.range_mask_c);
            caps |= s & cap_mask;
            if uniform {
                quiet |= s & empty;
            }
        }
        if !uniform && pt.slide_dirs_m != 0 {
            quiet |= slide_targets::<V::G>(from, occ, pt.slide_dirs_m, pt.limited_m, &pt.range_mask_m) & empty;
        }
        if tt.exotic {
            for l in &pt.lame[from] {
                if (l.path & occ).is_empty() {
                    if l.mode.moves() && empty.has(l.to) {
                        quiet |= Bb::<V>::bit(l.to);
                    }
                    if l.mode.captures() && cap_mask.has(l.to) {
                        caps |= Bb::<V>::bit(l.to);
                    }
                }
            }
            for &(df, dr, mode) in &pt.riders {
                let r = rider_targets::<V::G>(from, occ, df, dr);
                if mode.moves() {
                    quiet |= r & empty;
                }
                if mode.captures() {
                    caps |= r & cap_mask;
                }
            }
            for &(d, mode) in &pt.hops {
                let (land, victim) = hop_targets::<V::G>(from, occ, d);
                if mode.moves() {
                    quiet |= land;
                }
                if let Some(v) = victim.filter(|&v| mode.captures() && cap_mask.has(v)) {
                    caps |= Bb::<V>::bit(v);
                }
            }
        }
        (quiet, caps)
    }

    /// Generates pseudo-legal moves (legal but for king safety and the
    /// variant's post-move rules).
    pub fn generate(&self, list: &mut MoveList) {
        self.generate_into::<false, _>(list);
    }

    /// Captures and promotions only (quiescence search).
    pub fn generate_captures(&self, list: &mut MoveList) {
        self.generate_into::<true, _>(list);
    }

    /// Counts the legal moves without listing them (perft's last ply).
    pub fn count_legal(&self) -> u64 {
        let mut counter = LegalCounter { pos: self, ctx: self.legal_ctx(), count: 0 };
        self.generate_into::<false, _>(&mut counter);
        counter.count
    }

    /// Generates into any sink: all moves, or (CAPS) captures and promotions.
    pub fn generate_into<const CAPS: bool, S: MoveSink<Bb<V>>>(&self, list: &mut S) {
        let us = self.side;
        let occ = self.occupied();
        let all = V::G::tables().all;
        let empty = !occ & all;
        if V::HAND {
            let only = match V::drop_rule(self) {
                DropRule::Free => None,
                DropRule::Only(sq) => Some(sq),
            };
            for t in 1..=V::PIECES.len() as u8 {
                if CAPS || self.hand[us][t as usize] == 0 {
                    continue;
                }
                let mut targets = V::drop_targets(self, us, t) & empty;
                if let Some(m) = only {
                    targets &= m;
                }
                list.drops(t, targets);
            }
            if only.is_some() {
                return;
            }
        }
        let tables = V::tables();
        for t in 1..=tables.n_types as u8 {
            let bb = list.sources(self.pieces(us, t));
            if bb.is_empty() {
                continue;
            }
            let tt = &tables.types[t as usize];
            let cap_mask = V::capture_targets(self, us, t);
            for from in bb.iter() {
                let (quiet, caps) = Self::piece_targets(tt, us, from, occ, empty, cap_mask);
                if tt.exotic {
                    for &d in &tt.by_color[us].igui {
                        if let (_, Some(v)) = hop_targets::<V::G>(from, occ, d)
                            && cap_mask.has(v)
                        {
                            list.push(Move::new(from, v, Kind::Igui, 0));
                        }
                    }
                }
                let targets = if CAPS {
                    caps | (quiet & if t == V::PAWN { tables.promotion_zone[us] } else { Bb::<V>::ZERO })
                } else {
                    quiet | caps
                };
                if t == V::PAWN {
                    let zone = tables.promotion_zone[us];
                    list.targets(from, targets & !zone);
                    for to in (targets & zone).iter() {
                        for &p in V::PROMOTIONS {
                            if V::promotion_allowed(self, us, p) {
                                list.push(Move::new(from, to, Kind::Promotion, p));
                            }
                        }
                        if !V::PROMOTION_MANDATORY {
                            list.push(Move::normal(from, to));
                        }
                    }
                } else if V::GATING && self.rights[1].has(from) && self.hand_count(us) > 0 {
                    for to in targets.iter() {
                        list.push(Move::normal(from, to));
                        for g in 1..=V::PIECES.len() as u8 {
                            if self.hand[us][g as usize] > 0 {
                                list.push(Move::new(from, to, Kind::Gating, g));
                            }
                        }
                    }
                } else {
                    list.targets(from, targets);
                }
            }
        }
        if V::EN_PASSANT && self.ep != NO_SQ {
            let pt = &tables.types[V::PAWN as usize].by_color[us ^ 1];
            for from in (pt.leap_c[self.ep] & self.pieces(us, V::PAWN)).iter() {
                list.push(Move::new(from, self.ep, Kind::EnPassant, 0));
            }
        }
        if V::CASTLING.is_some() && !CAPS {
            self.generate_castling(list);
        }
        let them = self.by_color[us ^ 1];
        V::extra_moves(self, &mut |m: Move| {
            if !CAPS || them.has(m.to()) {
                list.push(m);
            }
        });
    }

    fn generate_castling<S: MoveSink<Bb<V>>>(&self, list: &mut S) {
        let Some(castling) = V::CASTLING else { return };
        let us = self.side;
        let rank = if us == 0 { 0 } else { V::G::RANKS - 1 };
        let ksq = V::G::square(castling.king, rank);
        if !self.rights[0].has(ksq) || !self.pieces(us, V::KING).has(ksq) {
            return;
        }
        let occ = self.occupied();
        let them = us ^ 1;
        for (rook_file, to_file) in castling.rook.into_iter().zip(castling.king_to) {
            let rsq = V::G::square(rook_file, rank);
            if !self.rights[0].has(rsq) || self.color_on(rsq) != us || self.board[rsq] == 0 {
                continue;
            }
            if (V::G::between(ksq, rsq) & occ).any() {
                continue;
            }
            let to = V::G::square(to_file, rank);
            let path = V::G::between(ksq, to) | Bb::<V>::bit(ksq) | Bb::<V>::bit(to);
            if path.iter().any(|s| self.attackers_to(s, them, occ).any()) {
                continue;
            }
            list.push(Move::new(ksq, to, Kind::Castling, 0));
            if V::castling_gates(self) {
                self.castling_gates(list, ksq, rsq, to);
            }
        }
    }

    /// Castling that gates a hand piece onto the king's or the rook's vacated
    /// square, where that square keeps its gating right.
    #[cold]
    fn castling_gates<S: MoveSink<Bb<V>>>(&self, list: &mut S, ksq: usize, rsq: usize, to: usize) {
        let us = self.side;
        for g in 1..=V::PIECES.len() as u8 {
            if self.hand[us][g as usize] == 0 {
                continue;
            }
            if self.rights[1].has(ksq) {
                list.push(Move::new(ksq, to, Kind::Castling, g));
            }
            if self.rights[1].has(rsq) {
                list.push(Move::new(ksq, to, Kind::Castling, g | CASTLING_GATE_ON_ROOK));
            }
        }
    }

    /// King safety alone (no post-move rules): make the move and look.
    pub fn king_safe_after(&self, m: Move) -> bool {
        let child = self.play(m);
        let k = child.king_sq(self.side);
        k == NO_SQ || child.attackers_to(k, child.side, child.occupied()).is_empty()
    }

    /// Whether a pseudo-legal move is legal.
    #[inline(always)]
    pub fn is_legal(&self, m: Move, ctx: &LegalCtx<Bb<V>>) -> bool {
        if V::FAST_LEGAL {
            return ctx.king == NO_SQ || self.fast_legal(m, ctx);
        }
        self.legal_child(&self.play(m))
    }

    /// The position after the pseudo-legal move `m`, or `None` when `m` is
    /// illegal: played once, however legality is tested.
    #[inline(always)]
    pub fn play_legal(&self, m: Move, ctx: &LegalCtx<Bb<V>>) -> Option<Position<V>> {
        if V::FAST_LEGAL {
            return self.is_legal(m, ctx).then(|| self.play(m));
        }
        let child = self.play(m);
        self.legal_child(&child).then_some(child)
    }

    /// Whether `child`, this position after one of its pseudo-legal moves,
    /// is legal by the rules `is_legal` applies when `V::FAST_LEGAL` is off
    /// (the mover's royal piece not attacked, the variant's `post_legal`).
    #[inline(always)]
    fn legal_child(&self, child: &Position<V>) -> bool {
        let k = child.king_sq(self.side);
        (k == NO_SQ || child.attackers_to(k, child.side, child.occupied()).is_empty()) && V::post_legal(self, child)
    }

    #[inline(always)]
    fn fast_legal(&self, m: Move, ctx: &LegalCtx<Bb<V>>) -> bool {
        let kind = m.kind();
        let from = m.from();
        let to = m.to();
        let king = ctx.king;
        match kind {
            Kind::Castling => return true,
            Kind::EnPassant => return self.king_safe_after(m),
            Kind::Drop => {
                if ctx.checkers.is_empty() {
                    return true;
                }
                if ctx.checkers.several() {
                    return false;
                }
                return V::G::between(king, ctx.checkers.lsb()).has(to);
            }
            // The gated piece may block a line: judge the whole move.
            Kind::Gating if from == king || ctx.checkers.any() => return self.king_safe_after(m),
            _ => {}
        }
        if from == king {
            let occ = self.occupied() ^ Bb::<V>::bit(king);
            return (self.attackers_to(to, self.side ^ 1, occ) & !Bb::<V>::bit(to)).is_empty();
        }
        if ctx.checkers.any() {
            if ctx.checkers.several() || ctx.pinned.has(from) {
                return false;
            }
            let c = ctx.checkers.lsb();
            return to == c || V::G::between(king, c).has(to);
        }
        if !ctx.pinned.has(from) || kind == Kind::Gating {
            // A gated piece fills the vacated square on the pin line.
            return true;
        }
        V::G::between(king, to).has(from) || V::G::between(king, from).has(to)
    }

    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        let ctx = self.legal_ctx();
        list.retain(|m| self.is_legal(*m, &ctx));
        list
    }

    /// Whether any move passes king safety (not the post-move rules). Used by
    /// Ito Shogi's "stalemating moves are illegal".
    pub fn has_king_safe_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.iter().any(|&m| self.king_safe_after(m))
    }
}

#[cfg(test)]
mod check_tests {
    use crate::bitboard::Bits;
    use crate::geometry::Geometry;
    use crate::position::Position;
    use crate::registry::{RuleOptions, VariantId, VariantVisitor};
    use crate::variant::types_in;
    use crate::variants::EngineVariant;

    /// Plays pseudo-random games (captures and checks preferred) and
    /// compares `gives_check` with the child's own attack test for every
    /// legal move. Returns the moves `check_info` answered and, of those,
    /// the checks.
    struct SameChecks;
    impl VariantVisitor for SameChecks {
        type Out = (usize, usize);
        fn visit<V: EngineVariant>(self) -> (usize, usize) {
            let (mut answered, mut checks) = (0, 0);
            crate::testing::random_games::<V>(5, 10, 160, |pos, moves, rng| {
                let info = pos.check_info();
                let mut checking = Vec::new();
                for &m in moves {
                    let child = pos.play(m);
                    if let Some(info) = &info {
                        let check = pos.gives_check(m, || &child, info);
                        assert_eq!(check, child.in_check(), "{}: {} {}", V::NAME, pos.fen(), pos.move_to_uci(m));
                        answered += 1;
                        checks += usize::from(check);
                    }
                    if child.in_check() {
                        checking.push(m);
                    }
                }
                let takes: Vec<_> = moves.iter().filter(|m| pos.occupied().has(m.to())).collect();
                match rng.below(4) {
                    0 if !checking.is_empty() => checking[rng.below(checking.len())],
                    1 | 2 if !takes.is_empty() => *takes[rng.below(takes.len())],
                    _ => moves[rng.below(moves.len())],
                }
            });
            (answered, checks)
        }
    }

    /// The type masks `attackers_to` walks: every type in exactly one of
    /// `grouped_only`, `leap_only` and `in_full`, and a `leap_only` type
    /// captures, for both colours from every square of the start position,
    /// exactly its leaps and the lines of its groups. Returns the three masks.
    struct TypeMasks;
    impl VariantVisitor for TypeMasks {
        type Out = (u32, u32, u32);
        fn visit<V: EngineVariant>(self) -> (u32, u32, u32) {
            let tables = V::tables();
            let all_types = ((1u32 << (tables.n_types + 1)) - 1) & !1;
            let (g, l, f) = (tables.grouped_only, tables.leap_only, tables.in_full);
            assert_eq!((g & l, g & f, l & f, g | l | f), (0, 0, 0, all_types), "{}", V::NAME);
            let p = Position::<V>::from_fen(V::START_FEN).unwrap();
            let (occ, board) = (p.occupied(), V::G::tables().all);
            for t in types_in(l) {
                for color in 0..2 {
                    for sq in 0..V::G::SQUARES {
                        let pt = &tables.types[t].by_color[color];
                        let mut want = pt.leap_c[sq];
                        for (group, dirs) in tables.line_groups() {
                            if group >> t & 1 == 1 {
                                want |= V::G::lines(sq, dirs, occ);
                            }
                        }
                        let caps =
                            Position::<V>::piece_targets(&tables.types[t], color, sq, occ, !occ & board, board).1;
                        assert_eq!(caps, want, "{} type {t} colour {color} square {sq}", V::NAME);
                    }
                }
            }
            (g, l, f)
        }
    }

    #[test]
    fn type_masks_sort_every_type_once() {
        // (grouped_only, leap_only, in_full), bit t for type t. Chess: bishop,
        // rook and queen; pawn, knight and king (the pawn's lame double step
        // captures nothing); none in full. IAGO adds the Marshall and
        // Cardinal (and more) to the leapers; Ita, Ito Shogi and Etcetera
        // keep their lame, hopping or igui capturers in full.
        let got: Vec<_> =
            VariantId::ALL.iter().map(|&v| (v.name(), v.visit(&RuleOptions::default(), TypeMasks))).collect();
        let want = [
            ("chess", (56, 70, 0)),
            ("iago-b", (56, 454, 0)),
            ("iago-c", (56, 454, 0)),
            ("historia-sako", (24, 230, 0)),
            ("ita", (0, 130, 124)),
            ("ito-shogi", (0, 7022, 9360)),
            ("etcetera", (0, 122, 4)),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn gives_check_answers_as_the_child_does() {
        for &v in VariantId::ALL {
            let (answered, checks) = v.visit(&RuleOptions::default(), SameChecks);
            match v.name() {
                "ita" | "ito-shogi" | "etcetera" => assert_eq!(answered, 0, "{}", v.name()),
                name => assert!(answered > 10_000 && checks > 500, "{name}: {answered} {checks}"),
            }
        }
    }
}
