// playtest board renderer, part 2 of 3: a scene into the SVG, keeping what did not change
// (uses draw.js).

// Build the drawing. Returns the size, a map id -> [g, ...] (several items may
// share an id: a slot and its piece), and what the next redraw may reuse.
//
// A redraw keeps what did not change. Each board's base (its lines, slots and
// coordinates) is kept while that board and its place are the same. Each
// item's <g> is kept when everything its drawing depends on is the same: the
// item but for where it sits, whether it can light up, and its board's scale;
// it is moved to its place (placeItem) and reused. Only new and removed items
// touch the page beyond that, so a move restyles a few nodes, not the board,
// even when a ring closes up and every piece on it moves.
// Classes a kept item loses before it is drawn again. "pt-movable" and "pt-last" are not
// among them: they are set to what the new scene says only where that differs, so an item
// that stays movable (or marked) is not touched, and the browser does not restyle it.
const TRANSIENT = ["pt-selected", "pt-target", "pt-menu-source"];

function setClass(g, name, on) {
  if (g.classList.contains(name) !== on) g.classList.toggle(name, on);
}

// The positions in `seq` (numbers; -1: none) of a longest strictly increasing
// subsequence, as a Set: the nodes that can stay where they are.
function inOrder(seq) {
  const tails = []; // tails[len - 1]: the position ending the best run of that length
  const before = new Array(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    const v = seq[i];
    if (v < 0) continue;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]] < v) lo = mid + 1; else hi = mid;
    }
    before[i] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = i;
  }
  const out = new Set();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = before[i]) out.add(i);
  return out;
}

const SPARE_BASES = 32; // detached board bases a view keeps for reuse

// Where each board goes: left to right, and on to a new row when the next board would pass
// `avail` (the width the page has for the drawing, in drawing units; Infinity: one row). A row's
// boards leave room above for their titles when one of them has one.
function placeBoards(layouts, avail) {
  const rows = [];
  let row = null;
  for (const L of layouts) {
    if (!row || (row.boards.length && row.right + BOARD_GAP + L.w + MARGIN > avail)) {
      row = { boards: [], right: MARGIN };
      rows.push(row);
    }
    if (row.boards.length) row.right += BOARD_GAP;
    L.ox = row.right;
    row.right += L.w;
    row.boards.push(L);
  }
  let top = MARGIN;
  let width = 0;
  for (const r of rows) {
    const title = r.boards.some((L) => str(L.board.title)) ? TITLE_H : 0;
    let bottom = top;
    for (const L of r.boards) {
      L.oy = top + title;
      bottom = Math.max(bottom, L.oy + L.h);
    }
    width = Math.max(width, r.right + MARGIN);
    top = bottom + BOARD_GAP;
  }
  return { width: rows.length ? width : 0, height: rows.length ? top - BOARD_GAP + MARGIN : 0, rows: rows.length };
}

function buildScene(scene, svg, prev, avail) {
  const byId = new Map();
  const boards = Array.isArray(scene.boards) ? scene.boards : [];
  const layouts = new Map();
  const laid = [];
  for (const board of boards) {
    if (!board) continue;
    const L = layoutBoard(board);
    if (!L) continue;
    laid.push(L);
  }
  const placed = placeBoards(laid, num(avail, Infinity));
  for (const L of laid) {
    // what an item's drawing depends on besides the item: where the board is
    // (edges and lines are drawn in place), or only its kind and scale
    L.key = `${L.ox},${L.oy}:${JSON.stringify(L.board)}`;
    L.scale = `${L.kind}:${L.cellPx}`;
    layouts.set(str(L.board.id), L);
  }
  const { width, height } = placed;
  const live = !!prev && prev.itemLayer.parentNode === svg;
  // the boards' bases: each kept while its board and its place are the same. A base that
  // is not shown any more waits, detached, for its board to look that way again: Eat
  // Thyself's ring changes size on most moves and comes back to sizes it had, and putting
  // back a drawing costs the page almost nothing before the frame (drawing it again, or
  // reshaping the one shown, cost the click a millisecond)
  const bases = new Map();
  const oldBases = live ? prev.bases : new Map();
  const spare = live ? prev.spare : new Map();
  let basesSame = live && oldBases.size === layouts.size;
  for (const L of layouts.values()) {
    let base = oldBases.get(L.key);
    if (!base) {
      base = spare.get(L.key);
      if (base) spare.delete(L.key);
      else base = drawBoardBase(L);
      basesSame = false;
    }
    bases.set(L.key, base);
  }
  for (const [key, base] of oldBases) {
    if (!bases.has(key)) spare.set(key, base);
  }
  while (spare.size > SPARE_BASES) spare.delete(spare.keys().next().value); // the oldest first
  const boardLayer = live ? prev.boardLayer : svgEl("g", { class: "pt-boards" });
  const itemLayer = live ? prev.itemLayer : svgEl("g", { class: "pt-items" });
  if (!basesSame) boardLayer.replaceChildren(...bases.values());
  // the <g> of each item drawn last time, by its key (reused once each, in order)
  const pool = new Map();
  if (live) {
    for (const [key, g] of prev.drawn) {
      let list = pool.get(key);
      if (!list) pool.set(key, (list = []));
      list.push(g);
    }
  }

  const moves = scene.moves && typeof scene.moves === "object" ? scene.moves : {};
  const selects = scene.selects && typeof scene.selects === "object" ? scene.selects : {};
  const movable = new Set([...Object.keys(moves), ...Object.keys(selects)]);
  // Only items that can ever light up get a highlight outline (fewer nodes).
  const interactive = new Set(movable);
  for (const key of Object.keys(selects)) {
    const targets = selects[key];
    if (targets && typeof targets === "object") for (const t of Object.keys(targets)) interactive.add(t);
  }
  const wanted = new Set(Array.isArray(scene.last) ? scene.last.map(str) : []);
  const lastItems = new Map(); // id -> [[layout, item, g], ...] for the last move's marks
  const items = Array.isArray(scene.items) ? scene.items : [];
  const drawn = []; // [key, g] in drawing order
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    const L = layouts.get(str(item.board));
    const draw = DRAW[item.kind];
    if (!L || !draw) continue;
    const placed = PLACED.has(item.kind);
    const at = anchorOf(L, item);
    if (!at) continue;
    const hasId = item.id !== undefined && item.id !== null && item.id !== "";
    const id = hasId ? str(item.id) : null;
    // A placed item with an id always carries its (invisible until lit) outline, so a turn
    // that changes who may move keeps its nodes; edges and lines, many on a grid, only when
    // they can light up now.
    const lit = hasId && (placed || interactive.has(id));
    // a placed item's drawing depends neither on where it is nor on its id (a ring's ids may
    // follow its slots' numbers): both are set on the kept <g>
    const key = (lit ? "1" : "0") + (placed ? `${hasId}${L.scale}${JSON.stringify({ ...item, at: null, id: null })}`
                                            : L.key + JSON.stringify(item));
    let g = pool.has(key) ? pool.get(key).shift() : undefined;
    if (g) {
      for (const name of TRANSIENT) if (g.classList.contains(name)) g.classList.remove(name);
      if (hasId && g.getAttribute("data-id") !== id) g.setAttribute("data-id", id);
    } else {
      g = svgEl("g", { class: `pt-item pt-${String(item.kind)}` });
      if (hasId) g.setAttribute("data-id", id);
      else g.classList.add("pt-inert");
      if (item.cls) for (const token of str(item.cls).split(/\s+/)) if (token) g.classList.add(token);
      if (item.title !== undefined && item.title !== null && item.title !== "") {
        svgEl("title", null, g).textContent = str(item.title);
      }
      if (!draw(L, item, g, hasId, lit)) continue;
    }
    if (placed) placeItem(L, item, g, at);
    if (hasId) {
      setClass(g, "pt-movable", movable.has(id));
      let list = byId.get(id);
      if (!list) byId.set(id, (list = []));
      list.push(g);
      if (wanted.has(id)) {
        let marks = lastItems.get(id);
        if (!marks) lastItems.set(id, (marks = []));
        marks.push([L, item, g]);
      }
    }
    drawn.push([key, g]);
  }
  // the last move: each id once, on its place (cell, edge, gap) rather than its piece; a kept
  // item keeps its mark when it is still marked (its drawing is the same), others lose theirs
  const marked = new Set();
  const lastSet = new Set(); // the drawings of the last move's items
  let lastMarks = 0;
  for (const [, marks] of lastItems) {
    const [L, item, g] = marks.find((entry) => entry[1].kind !== "piece") || marks[0];
    if (!(g._mark && g._mark.parentNode === g) && !drawLastMark(L, item, g)) continue;
    marked.add(g);
    for (const entry of marks) lastSet.add(entry[2]);
    lastMarks += 1;
  }
  for (const [, g] of drawn) {
    if (g._mark && !marked.has(g)) { g._mark.remove(); g._mark = null; }
    setClass(g, "pt-last", lastSet.has(g));
  }
  // into the page: unchanged items stay where they are; the rest is removed, added or moved.
  // A node moved in the page is laid out anew with all it holds, so the fewest move: the
  // longest run of kept nodes already in the new order stays, and the others go around it
  // (a piece that went five slots on moves alone, not the five items it passed)
  if (live) {
    const keep = new Set(drawn.map((entry) => entry[1]));
    for (const child of Array.from(itemLayer.children)) if (!keep.has(child)) child.remove();
    const place = new Map();
    let at = 0;
    for (const child of itemLayer.children) place.set(child, at++);
    const stay = inOrder(drawn.map((entry) => (place.has(entry[1]) ? place.get(entry[1]) : -1)));
    let next = null;
    for (let k = drawn.length - 1; k >= 0; k--) {
      const g = drawn[k][1];
      if (!stay.has(k)) itemLayer.insertBefore(g, next);
      next = g;
    }
  } else {
    for (const [, g] of drawn) itemLayer.appendChild(g);
    svg.replaceChildren(boardLayer, itemLayer);
  }
  return { width, height, rows: placed.rows, byId, lastMarks, reuse: { bases, spare, boardLayer, itemLayer, drawn } };
}
