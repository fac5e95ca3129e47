// calvin board: draws what the server (and so the engine) says. The board's
// size, the pieces and hands come from the variant line and the FEN, the
// pieces' names and moves in words from the engine's `pieces`, the legal
// moves from the referee's `moves`; nothing here knows a rule.
'use strict';
const $ = id => document.getElementById(id);
let info = null;      // variants and engines
let st = null;        // the game's state from the server
let flipped = false;
let sel = null;       // {from: 'e2'} or {drop: 'N'}
let shownVer = -1, shownKey = '';
let receivedAt = 0;
let drag = null;
let hover = null;     // {from: 'e2', side: 'w'} or {drop: 'N', side: 'b'}: the piece under the pointer
let lastId = null;    // the game a new one replaces

// The pieces of each variant, named with their moves in words, come from the
// engine's `pieces` (the referee's variants in /api/info).
function variantInfo(name) { return info && info.variants.find(v => v.name === name); }
function pieceInfo(p) {
  const v = st && variantInfo(st.variant.name);
  const key = (p.prom ? '+' : '') + p.letter;
  const i = v && v.pieces && v.pieces.find(x => x.letter === key);
  return i && i.moves ? [i.name, i.moves] : null;
}
function pieceTitle(p) {
  const i = pieceInfo(p);
  const side = p.white ? 'White ' : 'Black ';
  const letter = (p.prom ? '+' : '') + p.letter;
  return i ? side + i[0] + ' (' + letter + '): ' + i[1] : side + letter;
}

// The strength levels (Skill Level), full strength first, with the UCI_Elo column of
// docs/levels.md (Stockfish 15.1's scale, fitted to games against it): a copy of src/search/skill.rs's
// LEVELS and FULL_ELO, held to them by tests/levels.rs.
const LEVEL_ELO = [2440, 2210, 2160, 2120, 2070, 2030, 1980, 1940, 1890, 1850, 1800, 1760, 1710, 1670, 1620, 1580, 1480, 1380, 1290, 1190, 1090, 850, 750, 680, 660, 640, 620, 600, 580, 560, 540];
const LEVELS = LEVEL_ELO.map((elo, i) => [20 - i, elo]);

async function api(path, form) {
  const opt = form ? {
    method: 'POST',
    headers: {'Content-Type': 'application/x-www-form-urlencoded', 'X-Calvin-Board': '1'},
    body: new URLSearchParams(form).toString(),
  } : {};
  let j;
  try {
    const r = await fetch(path, opt);
    try { j = await r.json(); } catch (e) { j = {error: 'unreadable answer (HTTP ' + r.status + ')'}; }
    if (!r.ok && !j.error) j.error = 'HTTP ' + r.status;
  } catch (e) {
    j = {error: 'the board server does not answer'};
  }
  return j;
}

function say(text) { $('message').textContent = text || ''; }

// ---- squares, FEN and moves --------------------------------------------------

const sqName = (f, r) => String.fromCharCode(97 + f) + (r + 1);
function parseSq(s) { const m = /^([a-z])(\d+)$/.exec(s); return m ? {f: m[1].charCodeAt(0) - 97, r: +m[2] - 1} : null; }

function parseFen(fen) {
  const place = fen.split(' ')[0];
  let board = place, hand = null;
  const i = place.indexOf('[');
  if (i >= 0) { board = place.slice(0, i); hand = place.slice(i + 1, place.indexOf(']', i)); }
  const rows = board.split('/');
  const pieces = {};
  rows.forEach((row, k) => {
    const r = rows.length - 1 - k;
    let f = 0, j = 0;
    while (j < row.length) {
      if (/[0-9]/.test(row[j])) {
        let n = '';
        while (j < row.length && /[0-9]/.test(row[j])) n += row[j++];
        f += +n;
        continue;
      }
      let prom = false;
      if (row[j] === '+') { prom = true; j++; }
      const L = row[j++];
      if (!L) break;
      if (row[j] === '~') j++;
      pieces[sqName(f, r)] = {letter: L.toUpperCase(), white: L !== L.toLowerCase(), prom};
      f++;
    }
  });
  const hands = {w: [], b: []};
  if (hand !== null) {
    for (const c of hand) {
      if (!/[A-Za-z]/.test(c)) continue;
      const side = c === c.toUpperCase() ? hands.w : hands.b;
      const e = side.find(x => x.letter === c.toUpperCase());
      if (e) e.count++; else side.push({letter: c.toUpperCase(), count: 1});
    }
  }
  return {pieces, hands, hasHand: hand !== null};
}

function parseMove(m) {
  let x = /^([A-Z])@([a-z]\d+)$/.exec(m);
  if (x) return {m, drop: x[1], to: x[2]};
  x = /^([a-z]\d+)([a-z]\d+)(.*)$/.exec(m);
  if (x) return {m, from: x[1], to: x[2], suffix: x[3]};
  return null;
}

// Chess-set glyphs for the FIDE letters on 8x8 boards; every other piece is its letter.
const GLYPHS = {K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F\uFE0E'};
function pieceEl(p) {
  const d = document.createElement('div');
  const v = st.variant;
  const glyph = v.files === 8 && v.ranks === 8 && !p.prom && GLYPHS[p.letter];
  d.className = 'piece ' + (p.white ? 'w' : 'b') + (p.prom ? ' promoted' : '') + (glyph ? ' glyph' : '');
  const face = document.createElement('span');
  face.className = 'face';
  face.textContent = glyph || ((p.prom ? '+' : '') + p.letter);
  d.appendChild(face);
  d.title = pieceTitle(p);
  return d;
}

// ---- drawing -----------------------------------------------------------------

function isLine() { return st.variant.files === 1; }

function cell(f, r) {
  const {files, ranks} = st.variant;
  if (isLine()) return {col: flipped ? ranks - 1 - r : r, row: 0};
  return {col: flipped ? files - 1 - f : f, row: flipped ? r : ranks - 1 - r};
}

// The board fits the window: the 1x31 line scales down to the width (no
// sideways scrolling), the others leave room for the panel beside them.
function squareSize() {
  const {files, ranks} = st.variant;
  const width = document.documentElement.clientWidth;
  if (isLine()) return Math.max(16, Math.min(60, Math.floor((width - 40) / ranks)));
  return Math.max(24, Math.min(68, Math.floor((window.innerHeight - 190) / ranks), Math.floor((width - 380) / files), Math.floor((width - 40) / files)));
}

function legalMoves() { return st.result ? [] : st.legal.map(parseMove).filter(x => x); }
function humanToMove() { return st && !st.preview && !st.result && st.players[st.turn === 'w' ? 0 : 1].kind === 'human'; }
function movesOf(list, s) { return s ? list.filter(x => s.from ? x.from === s.from : x.drop === s.drop) : []; }
function targetsOf(s) { return movesOf(legalMoves(), s); }
// Where a hovered piece can go: the side to move's from the legal moves (when
// a person is to move), the other side's from its moves as if it were to
// move (none while the side to move is in check: see docs/board.md).
function hintsOf(h) {
  if (!h || !st || st.preview || st.result) return [];
  if (h.side === st.turn) return humanToMove() ? targetsOf(h) : [];
  return movesOf((st.other_legal || []).map(parseMove).filter(x => x), h);
}

function render() {
  const v = st.variant;
  const pos = parseFen(st.fen);
  const main = document.querySelector('main');
  main.classList.toggle('line', isLine());
  main.classList.toggle('shogi', v.template === 'shogi');
  main.classList.toggle('flipped', flipped);
  const sq = squareSize();
  document.documentElement.style.setProperty('--sq', sq + 'px');
  document.documentElement.style.setProperty('--hsq', Math.max(30, Math.min(44, sq)) + 'px');
  const cols = isLine() ? v.ranks : v.files, rows = isLine() ? 1 : v.ranks;
  const board = $('board');
  board.style.setProperty('--cols', cols);
  board.replaceChildren();
  const targets = targetsOf(sel);
  const hints = hintsOf(hover);
  const last = st.moves.length ? parseMove(st.moves[st.moves.length - 1]) : null;
  const cells = [];
  for (let r = 0; r < v.ranks; r++) for (let f = 0; f < v.files; f++) {
    const c = cell(f, r);
    cells.push({f, r, ...c});
  }
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  for (const c of cells) {
    const name = sqName(c.f, c.r);
    const d = document.createElement('div');
    d.className = 'sq ' + ((c.f + c.r) % 2 ? 'light' : 'dark');
    d.dataset.sq = name;
    const p = pos.pieces[name];
    if (p) d.appendChild(pieceEl(p));
    if (last && (last.to === name || last.from === name)) d.classList.add('last');
    if (sel && sel.from === name) d.classList.add('sel');
    if (targets.some(t => t.to === name)) d.classList.add('target', ...(p ? ['capture'] : []));
    if (hints.some(t => t.to === name)) d.classList.add('hint');
    let label = '';
    if (isLine()) label = String(c.r + 1);
    else {
      if (c.row === rows - 1) label += String.fromCharCode(97 + c.f);
      if (c.col === 0) label += (c.r + 1);
    }
    if (label) { const s = document.createElement('span'); s.className = 'coord'; s.textContent = label; d.appendChild(s); }
    board.appendChild(d);
  }
  // Hands: White's below the board unless flipped.
  const legal = legalMoves();
  for (const [where, side] of [['bottom', flipped ? 'b' : 'w'], ['top', flipped ? 'w' : 'b']]) {
    const h = $(where + '-hand');
    h.replaceChildren();
    if (pos.hasHand) {
      for (const e of pos.hands[side]) {
        const d = document.createElement('div');
        d.className = 'hp';
        d.dataset.hand = side + e.letter;
        if (sel && sel.drop === e.letter && st.turn === side) d.classList.add('sel');
        d.appendChild(pieceEl({letter: e.letter, white: side === 'w', prom: false}));
        const n = document.createElement('span');
        n.className = 'count';
        n.textContent = e.count > 1 ? e.count : '';
        d.appendChild(n);
        h.appendChild(d);
      }
      if (!pos.hands[side].length) h.textContent = '(hand empty)';
    }
    const pl = st.players[side === 'w' ? 0 : 1];
    $(where + '-name').textContent = (side === 'w' ? 'White: ' : 'Black: ') + pl.name + (pl.status ? ' (' + pl.status + ')' : '');
  }
  // Status and result.
  let status;
  if (st.preview) {
    status = 'Choose the game and press Start game';
  } else if (st.result) {
    status = 'Game over: ' + st.result.result + (st.result.score ? ' (' + st.result.score + ')' : '') + ', ' + st.result.reason;
  } else {
    status = (st.turn === 'w' ? 'White' : 'Black') + ' to move' + (humanToMove() ? '' : ' (engine)');
  }
  $('status').textContent = status;
  $('status').dataset.result = st.result ? st.result.result : '';
  // Move list.
  const ml = $('movelist');
  ml.replaceChildren();
  const blackFirst = st.startfen.split(' ')[1] === 'b';
  let li = null;
  st.moves.forEach((m, i) => {
    const white = (i % 2 === 0) !== blackFirst;
    if (white || !li) { li = document.createElement('li'); ml.appendChild(li); if (!white) li.appendChild(document.createElement('span')).textContent = '...'; }
    const s = document.createElement('span');
    s.textContent = st.san && st.san.length === st.moves.length ? st.san[i] : m;
    s.title = m;
    if (i === st.moves.length - 1) s.className = 'cur';
    li.appendChild(s);
  });
  ml.start = +(st.startfen.split(' ')[5] || 1);
  ml.scrollTop = ml.scrollHeight;
  $('messages').textContent = st.messages.join('\n');
  $('pgn').value = st.pgn;
  $('analyse').textContent = st.analysis ? 'Stop analysis' : 'Analyse';
  $('analyser').textContent = st.analyser;
  renderLines();
  renderClocks();
  renderLegend();
}

// The legend: every piece of the variant, drawn, named, with its moves.
let legendOf = '';
function renderLegend() {
  const name = st.variant.name;
  if (legendOf === name) return;
  legendOf = name;
  const box = $('legend');
  box.replaceChildren();
  const v = variantInfo(name);
  if (!v || !v.pieces || !v.pieces.length) { box.textContent = 'no description of these pieces'; return; }
  for (const {letter: key, name: pname, moves} of v.pieces) {
    const row = document.createElement('div');
    row.className = 'legend-row';
    row.dataset.piece = key;
    const p = {letter: key.replace('+', ''), white: true, prom: key.startsWith('+')};
    const cellEl = document.createElement('div');
    cellEl.className = 'legend-piece';
    cellEl.appendChild(pieceEl(p));
    row.appendChild(cellEl);
    const text = document.createElement('div');
    const b = document.createElement('b');
    b.textContent = pname + ' (' + key + ')';
    text.appendChild(b);
    if (moves) text.appendChild(document.createTextNode(': ' + moves));
    row.appendChild(text);
    box.appendChild(row);
  }
  if (v.rules) box.appendChild(document.createElement('p')).textContent = v.rules;
}

// Win/draw/loss of the first line, from White's side: the engine gives the
// side to move's.
function renderWdl() {
  const l = st.analysis && st.lines.find(x => x.multipv === 1);
  const box = $('wdl');
  if (!l || !l.wdl) { box.hidden = true; return; }
  let [w, d, b] = l.wdl;
  if (st.turn === 'b') [w, b] = [b, w];
  const pct = x => (x / 10).toFixed(1) + '%';
  const bar = $('wdl-bar').children;
  bar[0].style.width = pct(w); bar[1].style.width = pct(d); bar[2].style.width = pct(b);
  $('wdl-text').textContent = 'White ' + pct(w) + ' \u00b7 draw ' + pct(d) + ' \u00b7 Black ' + pct(b) + ' (score ' + l.score + ', depth ' + l.depth + ')';
  box.hidden = false;
}

function renderLines() {
  const tb = document.querySelector('#lines tbody');
  tb.replaceChildren();
  $('lines').hidden = !st.lines.length;
  renderWdl();
  for (const l of st.lines) {
    const tr = document.createElement('tr');
    for (const t of [l.multipv, l.depth + '/' + l.seldepth, l.score, Math.round(l.nps / 1000), l.pv.slice(0, 12).join(' ')]) {
      tr.appendChild(document.createElement('td')).textContent = t;
    }
    tb.appendChild(tr);
  }
  drawArrows();
}

function center(name) {
  const s = parseSq(name);
  if (!s) return null;
  const sq = parseInt(getComputedStyle(document.documentElement).getPropertyValue('--sq'));
  const c = cell(s.f, s.r);
  return [c.col * sq + sq / 2, c.row * sq + sq / 2];
}

function drawArrows() {
  const svg = $('arrows');
  const b = $('board');
  svg.setAttribute('width', b.clientWidth);
  svg.setAttribute('height', b.clientHeight);
  svg.replaceChildren();
  const ns = 'http://www.w3.org/2000/svg';
  svg.innerHTML = '<defs><marker id="head" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="rgba(20,70,200,0.75)"/></marker></defs>';
  for (const l of st.lines.slice().reverse()) {
    const m = parseMove(l.pv[0] || '');
    if (!m) continue;
    const to = center(m.to);
    const w = l.multipv === 1 ? 8 : 4;
    if (m.drop || m.from === m.to) {
      const c = document.createElementNS(ns, 'circle');
      c.setAttribute('cx', to[0]); c.setAttribute('cy', to[1]); c.setAttribute('r', 12);
      c.setAttribute('fill', 'none'); c.setAttribute('stroke', 'rgba(20,70,200,0.75)'); c.setAttribute('stroke-width', w / 2);
      svg.appendChild(c);
      continue;
    }
    const from = center(m.from);
    const line = document.createElementNS(ns, 'line');
    line.setAttribute('x1', from[0]); line.setAttribute('y1', from[1]);
    line.setAttribute('x2', to[0]); line.setAttribute('y2', to[1]);
    line.setAttribute('stroke', 'rgba(20,70,200,' + (l.multipv === 1 ? 0.75 : 0.4) + ')');
    line.setAttribute('stroke-width', w);
    line.setAttribute('marker-end', 'url(#head)');
    svg.appendChild(line);
  }
}

function fmtClock(ms) {
  const s = Math.max(0, Math.floor(ms / 100)) / 10;
  const m = Math.floor(s / 60);
  return m + ':' + (s - m * 60).toFixed(1).padStart(4, '0');
}

function renderClocks() {
  for (const [where, side] of [['bottom', flipped ? 'b' : 'w'], ['top', flipped ? 'w' : 'b']]) {
    const el = $(where + '-clock');
    if (!st || !st.clocks) { el.textContent = ''; continue; }
    const running = st.clocks.running && st.turn === side;
    let ms = side === 'w' ? st.clocks.white : st.clocks.black;
    if (running) ms -= performance.now() - receivedAt;
    el.textContent = fmtClock(ms);
    el.classList.toggle('running', running);
  }
}

// ---- state -------------------------------------------------------------------

function accept(j) {
  if (j.error) say(j.error);
  if (j.id === undefined) return;
  const changed = !st || j.ver !== st.ver || j.id !== st.id;
  // A new position drops the selection; analysis lines arriving keep it.
  const moved = !st || j.id !== st.id || j.fen !== st.fen || j.moves.length !== st.moves.length;
  st = j;
  lastId = j.id;
  receivedAt = performance.now();
  if (location.hash !== '#game=' + st.id) history.replaceState(null, '', '#game=' + st.id);
  if (moved) { sel = null; hideChoice(); }
  if (changed) render();
}

async function poll() {
  if (st && !st.preview) {
    const j = await api('/api/state?game=' + st.id);
    if (j.error && j.error.startsWith('no such game')) { say(j.error); }
    else accept(j);
  }
  setTimeout(poll, 400);
}

async function newGame() {
  say('');
  const form = {
    variant: $('variant').value, white: $('white').value, black: $('black').value,
    limit: $('limit').value, base: $('limit-a').value, inc: $('limit-b').value, value: $('limit-a').value,
    fen: $('fen').value, level: $('level').value,
  };
  if (lastId !== null) form.replace = lastId;
  const j = await api('/api/new', form);
  if (j.id !== undefined) { st = null; flipped = $('black').value === 'human' && $('white').value !== 'human'; }
  accept(j);
}

// Before a game starts: the chosen variant's start position, no clock, no engine.
function preview() {
  const v = info.variants.find(x => x.name === $('variant').value) || info.variants[0];
  const who = id => ({kind: 'human', name: $(id).selectedOptions[0] ? $(id).selectedOptions[0].text : '', status: ''});
  st = {
    preview: true, ver: -1, variant: v, startfen: v.startpos, fen: v.startpos, moves: [], san: [], legal: [],
    turn: v.startpos.split(' ')[1] === 'b' ? 'b' : 'w', result: null, players: [who('white'), who('black')],
    clocks: null, analysis: false, analyser: '', lines: [], messages: [], pgn: '',
  };
  sel = null;
  hideChoice();
  flipped = $('black').value === 'human' && $('white').value !== 'human';
  render();
}

function levelChoice() {
  $('level').disabled = $('white').value === 'human' && $('black').value === 'human';
}

async function send(move) {
  sel = null;
  hideChoice();
  const j = await api('/api/move', {game: st.id, move});
  if (!j.error) say('');
  accept(j);
  if (j.error) render();
}

// ---- input -------------------------------------------------------------------

function hideChoice() { $('choice').hidden = true; $('choice').replaceChildren(); }

function choose(cands) {
  const c = $('choice');
  c.replaceChildren();
  c.appendChild(document.createElement('span')).textContent = cands.some(x => x.suffix) && cands.some(x => !x.suffix) ? 'gate:' : 'choose:';
  for (const x of cands) {
    const b = document.createElement('button');
    b.dataset.move = x.m;
    if (x.suffix) b.appendChild(pieceEl({letter: x.suffix.toUpperCase().replace('+', ''), white: st.turn === 'w', prom: false}));
    else b.textContent = 'none';
    b.title = x.m;
    b.onclick = () => send(x.m);
    c.appendChild(b);
  }
  c.hidden = false;
}

// A press on a square: select a piece of the side to move, or play to a target.
function pressSquare(name) {
  if (!st) return false;
  if (st.preview) { say('press Start game to begin'); return false; }
  if (st.result) { say('the game is over'); return false; }
  if (!humanToMove()) { say("it is the engine's turn"); return false; }
  const pos = parseFen(st.fen);
  const p = pos.pieces[name];
  if (sel) {
    const cands = targetsOf(sel).filter(x => x.to === name);
    if (cands.length === 1) { send(cands[0].m); return false; }
    if (cands.length > 1) { choose(cands); return false; }
    if (sel.from === name) return true;
  }
  hideChoice();
  const mine = p && p.white === (st.turn === 'w');
  if (mine && targetsOf({from: name}).length) {
    sel = {from: name};
    say('');
    render();
    return true;
  }
  const had = sel;
  sel = null;
  render();
  if (had) say('not a legal move: ' + (had.from || had.drop + '@') + ' to ' + name);
  else if (mine) say('that piece has no legal move');
  else say('pick a piece of the side to move');
  return false;
}

function pressHand(key) {
  if (st && st.preview) { say('press Start game to begin'); return false; }
  if (!st || !humanToMove()) { say(st && st.result ? 'the game is over' : "it is the engine's turn"); return false; }
  const side = key[0], letter = key.slice(1);
  if (side !== st.turn) { say('that is the other side\'s hand'); return false; }
  if (!targetsOf({drop: letter}).length) { say(letter + ' cannot be dropped now'); sel = null; render(); return false; }
  sel = {drop: letter};
  say('');
  render();
  return true;
}

function startDrag(e, el) {
  const ghost = el.querySelector('.piece');
  if (!ghost) return;
  drag = {x: e.clientX, y: e.clientY, moved: false, ghost: null, src: ghost};
}

document.addEventListener('pointerdown', e => {
  const sqEl = e.target.closest('.sq'), hp = e.target.closest('.hp');
  if (!sqEl && !hp) return;
  e.preventDefault();
  const picked = sqEl ? pressSquare(sqEl.dataset.sq) : pressHand(hp.dataset.hand);
  if (picked) {
    const el = sqEl ? document.querySelector('.sq[data-sq="' + sqEl.dataset.sq + '"]') : document.querySelector('.hp[data-hand="' + hp.dataset.hand + '"]');
    if (el) startDrag(e, el);
  }
});
// Hovering a piece shows where it can go (the side not to move's too).
document.addEventListener('pointerover', e => {
  if (drag || !st) return;
  const sqEl = e.target.closest && e.target.closest('.sq'), hp = e.target.closest && e.target.closest('.hp');
  let h = null;
  const p = sqEl && parseFen(st.fen).pieces[sqEl.dataset.sq];
  if (p) h = {from: sqEl.dataset.sq, side: p.white ? 'w' : 'b'};
  else if (hp) h = {drop: hp.dataset.hand.slice(1), side: hp.dataset.hand[0]};
  if (JSON.stringify(h) === JSON.stringify(hover)) return;
  hover = h;
  const hints = hintsOf(hover).map(t => t.to);
  for (const el of document.querySelectorAll('#board .sq')) el.classList.toggle('hint', hints.includes(el.dataset.sq));
});
document.addEventListener('pointermove', e => {
  if (!drag) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 5) return;
  if (!drag.ghost) {
    drag.moved = true;
    drag.ghost = drag.src.cloneNode(true);
    drag.ghost.classList.add('dragging');
    document.body.appendChild(drag.ghost);
  }
  const sq = parseInt(getComputedStyle(document.documentElement).getPropertyValue('--sq'));
  drag.ghost.style.left = (e.clientX - sq / 2) + 'px';
  drag.ghost.style.top = (e.clientY - sq / 2) + 'px';
});
document.addEventListener('pointerup', e => {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.ghost) d.ghost.remove();
  if (!d.moved) return;
  const t = document.elementFromPoint(e.clientX, e.clientY);
  const sqEl = t && t.closest('.sq');
  if (sqEl && sel && sel.from !== sqEl.dataset.sq) pressSquare(sqEl.dataset.sq);
});

$('new').onclick = newGame;
$('variant').onchange = () => { $('fen').value = ''; preview(); };
for (const id of ['white', 'black']) $(id).addEventListener('change', () => { levelChoice(); if (st && st.preview) preview(); });
$('flip').onclick = () => { flipped = !flipped; if (st) render(); };
$('undo').onclick = async () => { if (st && !st.preview) accept(await api('/api/undo', {game: st.id})); };
$('movenow').onclick = async () => { if (st && !st.preview) accept(await api('/api/movenow', {game: st.id})); };
$('analyse').onclick = async () => {
  if (!st || st.preview) { say('press Start game to begin'); return; }
  const on = !st.analysis;
  if (!on) { st.lines = []; st.analysis = false; renderLines(); $('analyse').textContent = 'Analyse'; }
  accept(await api('/api/analyse', {game: st.id, on: on ? '1' : '0', multipv: $('multipv').value}));
};
$('multipv').onchange = async () => { if (st && !st.preview && st.analysis) accept(await api('/api/analyse', {game: st.id, on: '1', multipv: $('multipv').value})); };
$('pgn-copy').onclick = async () => {
  if (!st) return;
  try { await navigator.clipboard.writeText(st.pgn); say('PGN copied'); }
  catch (e) { $('pgn').select(); say(document.execCommand('copy') ? 'PGN copied' : 'select the PGN below and copy it'); }
};
$('limit').onchange = () => {
  const defaults = {clock: ['5', '3'], movetime: ['2', ''], depth: ['8', ''], nodes: ['200000', '']};
  [$('limit-a').value, $('limit-b').value] = defaults[$('limit').value];
  $('limit-b').hidden = $('limit').value !== 'clock';
};
window.addEventListener('resize', () => { if (st) render(); });
setInterval(() => { if (st) renderClocks(); }, 200);

(async function init() {
  info = await api('/api/info');
  if (info.error) { say(info.error); return; }
  for (const v of info.variants) $('variant').appendChild(new Option(v.name + ' (' + v.files + 'x' + v.ranks + ')', v.name));
  for (const id of ['white', 'black']) {
    $(id).appendChild(new Option('human', 'human'));
    info.engines.forEach((e, i) => $(id).appendChild(new Option(e.split('/').pop(), String(i))));
  }
  for (const [l, elo] of LEVELS) {
    $('level').appendChild(new Option(l === 20 ? "full strength (~" + elo + " Elo)" : l + ' (~' + elo + ' Elo)', String(l)));
  }
  $('level').value = '20';
  $('black').value = '0';
  // `?variant=ita&white=human&black=human` preselects a new game's settings.
  const q = new URLSearchParams(location.search);
  for (const k of ['variant', 'white', 'black', 'limit', 'level']) if (q.get(k) && [...$(k).options].some(o => o.value === q.get(k))) $(k).value = q.get(k);
  const m = /^#game=(\d+)$/.exec(location.hash);
  if (m) {
    const j = await api('/api/state?game=' + m[1]);
    if (j.id !== undefined) { $('variant').value = j.variant.name; accept(j); }
  }
  // Nothing starts by itself: the person chooses and presses Start game.
  levelChoice();
  if (!st) preview();
  poll();
})();
