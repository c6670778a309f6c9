// playtest board renderer: draws any scene (see playtest/scene.py) as SVG.
//
// An anywidget ES module with no dependencies and no build step. It knows
// nothing of any game: boards, items, what is clickable and what a click
// commits all come from the `scene_json` trait (the scene as JSON text).
// Only committed actions are sent to Python, as {type: "action", action}; a button may instead carry a table
// command ({type: "command", name, seat}: roll the dice, lift the curtain).
// The `curtain` trait, when it has text, hides the board behind a screen
// ("Pass to East: click when ready") until a seat is chosen. Boards carry
// their coordinates (`labels`), and `last` outlines what the last move
// touched. Every string from the scene is inserted with textContent, never
// as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";
const MARGIN = 14; // around the whole drawing
const BOARD_GAP = 32; // between boards, left to right
const TITLE_H = 26; // room above the boards for their titles
const HIT_WIDTH = 14; // px, invisible click area of an edge: wider than its line, narrower than a cell
const LABEL_W = 20; // px, room left of a grid for its row labels
const LABEL_H = 17; // px, room beside a grid's row 0 for its column labels
const SHAPES = ["circle", "triangle", "diamond", "square", "hexagon"];
const CITED_RULE = /\brule ([A-Z](?:\.\d+(?: §\d+(?:\.\d+)*)?|\d+))/g; // as playtest/rulebook.py reads them

// ---------------------------------------------------------------- helpers
function svgEl(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  if (attrs) {
    for (const key in attrs) {
      const value = attrs[key];
      if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
    }
  }
  if (parent) parent.appendChild(node);
  return node;
}

function htmlEl(tag, className, parent) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

function str(value) {
  return value === undefined || value === null ? "" : String(value);
}

function num(value, fallback) {
  const n = Number(value);
  return value === undefined || value === null || value === "" || !Number.isFinite(n) ? fallback : n;
}

function round(v) {
  return Math.round(v * 100) / 100;
}

function pts(list) {
  return list.map(([x, y]) => `${round(x)},${round(y)}`).join(" ");
}

// Text colour that reads on a given fill: resolve any CSS colour once via a
// canvas context, then pick dark or light by luminance.
const contrastCache = new Map();
let colorCtx = null;
function textColorOn(fill) {
  const key = str(fill);
  if (contrastCache.has(key)) return contrastCache.get(key);
  let result = "#222";
  try {
    if (!colorCtx) colorCtx = document.createElement("canvas").getContext("2d");
    if (colorCtx && key && key !== "none" && key !== "transparent") {
      colorCtx.fillStyle = "#010203";
      colorCtx.fillStyle = key;
      const v = colorCtx.fillStyle;
      let r, g, b, a = 1;
      if (v[0] === "#") {
        r = parseInt(v.slice(1, 3), 16); g = parseInt(v.slice(3, 5), 16); b = parseInt(v.slice(5, 7), 16);
      } else {
        const m = v.match(/[\d.]+/g) || [];
        [r, g, b] = m.slice(0, 3).map(Number);
        if (m.length > 3) a = Number(m[3]);
      }
      if (v !== "#010203" || key.replace(/\s/g, "") === "#010203") {
        const lum = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        result = a < 0.5 || lum > 0.6 ? "#1d1d1f" : "#ffffff";
      }
    }
  } catch (err) {
    result = "#222";
  }
  contrastCache.set(key, result);
  return result;
}

// A shape centred on (cx, cy) with "radius" r (half its nominal size).
function shapeEl(shape, cx, cy, r, attrs, parent) {
  let node;
  switch (shape) {
    case "square":
      node = svgEl("rect", { x: round(cx - r * 0.9), y: round(cy - r * 0.9), width: round(r * 1.8), height: round(r * 1.8), rx: round(r * 0.18) }, parent);
      break;
    case "diamond":
      node = svgEl("polygon", { points: pts([[cx, cy - r * 1.08], [cx + r * 1.08, cy], [cx, cy + r * 1.08], [cx - r * 1.08, cy]]) }, parent);
      break;
    case "triangle": {
      const h = r * 1.1;
      node = svgEl("polygon", { points: pts([[cx, cy - h], [cx + h * 0.98, cy + h * 0.72], [cx - h * 0.98, cy + h * 0.72]]) }, parent);
      break;
    }
    case "hexagon": {
      const corners = [];
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 6 + (k * Math.PI) / 3;
        corners.push([cx + r * 1.02 * Math.cos(a), cy + r * 1.02 * Math.sin(a)]);
      }
      node = svgEl("polygon", { points: pts(corners) }, parent);
      break;
    }
    default:
      node = svgEl("circle", { cx: round(cx), cy: round(cy), r: round(r) }, parent);
  }
  if (attrs) for (const key in attrs) if (attrs[key] !== undefined && attrs[key] !== null) node.setAttribute(key, String(attrs[key]));
  return node;
}

function textEl(x, y, text, attrs, parent) {
  const node = svgEl("text", { x: round(x), y: round(y), "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  node.textContent = str(text);
  return node;
}

// A board's coordinate labels, as lists of strings: {cols, rows, slots}.
function boardLabels(board) {
  const raw = board.labels && typeof board.labels === "object" ? board.labels : {};
  const list = (v) => (Array.isArray(v) ? v.map(str) : []);
  return { cols: list(raw.cols), rows: list(raw.rows), slots: list(raw.slots) };
}

// ---------------------------------------------------------------- geometry
// Each laid-out board knows its size and maps scene coordinates to pixels:
//   unit(x, y): a point in board units; at(a): the centre of a place
//   (a cell / point [c, r], or a ring slot index); cellPx: what a piece's
//   `size` is a fraction of.
function layoutBoard(board) {
  const kind = board.kind;
  const labels = boardLabels(board);
  if (kind === "grid") {
    const cell = num(board.cell, 36);
    const cols = Math.max(0, num(board.cols, 8));
    const rows = Math.max(0, num(board.rows, 8));
    const flip = !!board.flip;
    // labels: row labels on the left, column labels beside row 0 (below when flipped)
    const padL = labels.rows.length ? LABEL_W : 0;
    const padCols = labels.cols.length ? LABEL_H : 0;
    const padT = flip ? 0 : padCols;
    return {
      board, kind, cols, rows, flip, cell, cellPx: cell, labels,
      gw: cols * cell, gh: rows * cell,
      w: cols * cell + padL, h: rows * cell + padCols,
      get gx() { return this.ox + padL; }, // the grid's own top-left corner
      get gy() { return this.oy + padT; },
      unit(x, y) { return [this.gx + x * cell, this.gy + (flip ? rows - y : y) * cell]; },
      at(a) { return Array.isArray(a) ? this.unit(num(a[0], 0) + 0.5, num(a[1], 0) + 0.5) : null; },
    };
  }
  if (kind === "points") {
    const sp = num(board.spacing, 40);
    const cols = Math.max(1, num(board.cols, 9));
    const rows = Math.max(1, num(board.rows, 9));
    const flip = !!board.flip;
    const pad = sp * Math.max(0.3, num(board.pad, 0.55)); // room around the outer points (labels)
    return {
      board, kind, cols, rows, flip, sp, pad, cellPx: sp, labels,
      w: (cols - 1) * sp + 2 * pad, h: (rows - 1) * sp + 2 * pad,
      unit(x, y) { return [this.ox + pad + x * sp, this.oy + pad + (flip ? rows - 1 - y : y) * sp]; },
      at(a) { return Array.isArray(a) ? this.unit(num(a[0], 0), num(a[1], 0)) : null; },
    };
  }
  if (kind === "ring") {
    const n = Math.max(1, Math.floor(num(board.slots, 12)));
    const slot = num(board.slot, 34);
    const radius = Math.max(120, (n * slot * 1.15) / (2 * Math.PI));
    const size = 2 * radius + slot * 1.5;
    return {
      board, kind, n, slot, radius, cellPx: slot, labels,
      w: size, h: size,
      get cx() { return this.ox + size / 2; },
      get cy() { return this.oy + size / 2; },
      angle(i) { return -Math.PI / 2 + (i * 2 * Math.PI) / n; },
      polar(i, rad) { const a = this.angle(i); return [this.cx + rad * Math.cos(a), this.cy + rad * Math.sin(a)]; },
      // Ring board units: a number is a slot index (fractions allowed);
      // [x, y] is measured from the ring's centre in slot sizes (y down).
      unit(x, y) { return [this.cx + x * slot, this.cy + y * slot]; },
      at(a) {
        if (typeof a === "number") return this.polar(a, radius);
        if (Array.isArray(a)) return this.unit(num(a[0], 0), num(a[1], 0));
        return null;
      },
    };
  }
  return null;
}

function boardPoint(L, p) {
  if (L.kind === "ring" && typeof p === "number") return L.at(p);
  if (!Array.isArray(p)) return null;
  return L.unit(num(p[0], 0), num(p[1], 0));
}

// ---------------------------------------------------------------- drawing
function drawBoardBase(L, parent) {
  const g = svgEl("g", { class: `pt-board pt-board-${L.kind}`, "data-board": str(L.board.id) }, parent);
  const title = str(L.board.title);
  if (title) textEl(L.ox, L.oy - 9, title, { class: "pt-board-title", "text-anchor": "start", "dominant-baseline": "auto" }, g);
  if (L.kind === "grid") {
    const [x0, y0] = [L.gx, L.gy];
    svgEl("rect", { class: "pt-board-bg", x: x0, y: y0, width: L.gw, height: L.gh, rx: 3 }, g);
    let d = "";
    for (let c = 1; c < L.cols; c++) d += `M${round(x0 + c * L.cell)} ${y0}v${L.gh}`;
    for (let r = 1; r < L.rows; r++) d += `M${x0} ${round(y0 + r * L.cell)}h${L.gw}`;
    if (d) svgEl("path", { class: "pt-grid-lines", d }, g);
    svgEl("rect", { class: "pt-board-frame", x: x0, y: y0, width: L.gw, height: L.gh, rx: 3 }, g);
  } else if (L.kind === "points") {
    svgEl("rect", { class: "pt-board-bg", x: L.ox, y: L.oy, width: L.w, height: L.h, rx: 4 }, g);
    let d = "";
    const [x0, y0] = [L.ox + L.pad, L.oy + L.pad];
    const [x1, y1] = [x0 + (L.cols - 1) * L.sp, y0 + (L.rows - 1) * L.sp];
    for (let c = 0; c < L.cols; c++) d += `M${round(x0 + c * L.sp)} ${round(y0)}V${round(y1)}`;
    for (let r = 0; r < L.rows; r++) d += `M${round(x0)} ${round(y0 + r * L.sp)}H${round(x1)}`;
    svgEl("path", { class: "pt-point-lines", d }, g);
  } else if (L.kind === "ring") {
    svgEl("circle", { class: "pt-ring-track", cx: round(L.cx), cy: round(L.cy), r: round(L.radius), "stroke-width": round(L.slot * 1.25) }, g);
    svgEl("circle", { class: "pt-ring-line", cx: round(L.cx), cy: round(L.cy), r: round(L.radius) }, g);
    const s = L.slot * 0.86;
    for (let i = 0; i < L.n; i++) {
      const [x, y] = L.at(i);
      svgEl("rect", { class: "pt-ring-slot", x: round(x - s / 2), y: round(y - s / 2), width: round(s), height: round(s), rx: round(s * 0.2) }, g);
    }
  }
  drawLabels(L, g);
  return g;
}

// Make the drawn node `old` look like the fresh, not-yet-shown `fresh` by
// changing only what differs (attributes, texts, extra or missing children),
// and return it: the status swatch and the side panels change a cell or two
// instead of being drawn anew, so the browser restyles only what changed.
function morph(old, fresh) {
  if (old.tagName !== fresh.tagName) { old.replaceWith(fresh); return fresh; }
  const attrs = fresh.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const { name, value } = attrs[i];
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  if (old.attributes.length !== attrs.length) {
    for (let i = old.attributes.length - 1; i >= 0; i--) {
      const name = old.attributes[i].name;
      if (!fresh.hasAttribute(name)) old.removeAttribute(name);
    }
  }
  let kid = fresh.firstElementChild;
  if (!kid) {
    if (old.firstElementChild || old.textContent !== fresh.textContent) old.textContent = fresh.textContent;
    return old;
  }
  let had = old.firstElementChild;
  while (kid) {
    const next = kid.nextElementSibling; // (kid may move into old)
    if (had) { const after = had.nextElementSibling; morph(had, kid); had = after; } else old.appendChild(kid);
    kid = next;
  }
  while (had) { const after = had.nextElementSibling; had.remove(); had = after; }
  return old;
}

// The coordinates beside a board, as the game's notation writes them.
function drawLabels(L, g) {
  const { cols, rows, slots } = L.labels;
  const label = (x, y, text) => textEl(x, y, text, { class: "pt-coord" }, g);
  if (L.kind === "grid") {
    for (let c = 0; c < Math.min(cols.length, L.cols); c++) {
      const x = L.gx + (c + 0.5) * L.cell;
      label(x, L.flip ? L.gy + L.gh + LABEL_H / 2 : L.gy - LABEL_H / 2, cols[c]);
    }
    for (let r = 0; r < Math.min(rows.length, L.rows); r++) label(L.gx - LABEL_W / 2, L.unit(0, r + 0.5)[1], rows[r]);
  } else if (L.kind === "points") {
    const off = Math.min(L.pad * 0.68, L.sp * 0.66);
    const edgeY = L.unit(0, 0)[1] + (L.flip ? off : -off); // beside row 0
    for (let c = 0; c < Math.min(cols.length, L.cols); c++) label(L.unit(c, 0)[0], edgeY, cols[c]);
    for (let r = 0; r < Math.min(rows.length, L.rows); r++) label(L.unit(0, r)[0] - off, L.unit(0, r)[1], rows[r]);
  } else if (L.kind === "ring") {
    for (let i = 0; i < Math.min(slots.length, L.n); i++) {
      const [x, y] = L.polar(i, L.radius - L.slot * 0.86);
      label(x, y, slots[i]);
    }
  }
}

function drawCell(L, item, g, hasId, lit) {
  const [x, y] = [0, 0]; // drawn round its place (see anchorOf)
  const fill = item.fill === undefined || item.fill === null ? null : str(item.fill);
  let size;
  let hl;
  if (L.kind === "grid") {
    size = L.cell;
    svgEl("rect", { class: "pt-shape", x: round(x - size / 2), y: round(y - size / 2), width: size, height: size, fill: fill || "transparent" }, g);
    if (lit) hl = svgEl("rect", { class: "pt-hl", x: round(x - size / 2 + 2), y: round(y - size / 2 + 2), width: size - 4, height: size - 4, rx: 3 }, g);
  } else if (L.kind === "points") {
    size = L.sp * 0.42;
    if (hasId) svgEl("circle", { class: "pt-hit", cx: round(x), cy: round(y), r: round(L.sp * 0.45) }, g);
    if (fill) {
      svgEl("rect", { class: "pt-shape pt-marker", x: round(x - size / 2), y: round(y - size / 2), width: round(size), height: round(size), rx: round(size * 0.2), fill }, g);
    } else {
      // a bare intersection: the grid lines already show it; a small dot keeps it findable
      svgEl("circle", { class: "pt-shape pt-point", cx: round(x), cy: round(y), r: round(Math.max(2, L.sp * 0.06)) }, g);
    }
    if (lit) hl = svgEl("rect", { class: "pt-hl", x: round(x - size / 2 - 3), y: round(y - size / 2 - 3), width: round(size + 6), height: round(size + 6), rx: round(size * 0.3) }, g);
  } else {
    size = L.slot * 0.9;
    svgEl("rect", { class: "pt-shape pt-slot-tile", x: round(x - size / 2), y: round(y - size / 2), width: round(size), height: round(size), rx: round(size * 0.2), fill: fill || "#fffdf8" }, g);
    if (lit) hl = svgEl("rect", { class: "pt-hl", x: round(x - size / 2 - 1), y: round(y - size / 2 - 1), width: round(size + 2), height: round(size + 2), rx: round(size * 0.22) }, g);
  }
  const text = str(item.text);
  if (text) {
    const fs = Math.max(8, Math.min(L.cellPx * 0.36, (size * 1.6) / Math.max(1, text.length)));
    textEl(x, y, text, { class: "pt-label", "font-size": round(fs), fill: textColorOn(fill || "#fffdf8") }, g);
  }
  if (hl) g.appendChild(hl); // highlight above the label
  return true;
}

function edgeSegment(L, a, b) {
  if (L.kind !== "grid" || !Array.isArray(a) || !Array.isArray(b)) return null;
  const [ac, ar] = [num(a[0], 0), num(a[1], 0)];
  const [bc, br] = [num(b[0], 0), num(b[1], 0)];
  if (ac === bc && Math.abs(ar - br) === 1) {
    const y = Math.max(ar, br);
    return [L.unit(ac, y), L.unit(ac + 1, y)];
  }
  if (ar === br && Math.abs(ac - bc) === 1) {
    const x = Math.max(ac, bc);
    return [L.unit(x, ar), L.unit(x, ar + 1)];
  }
  return null;
}

function drawEdge(L, item, g, hasId, lit) {
  const seg = edgeSegment(L, item.a, item.b);
  if (!seg) return false;
  const [[x1, y1], [x2, y2]] = seg;
  const style = ["wall", "old", "slot", "blank"].includes(item.style) ? item.style : "wall";
  g.classList.add(`pt-edge-${style}`);
  // The hit area stops short of the corners so neighbouring edges stay apart.
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const trim = Math.min(5, len * 0.15);
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const inner = { x1: round(x1 + ux * trim), y1: round(y1 + uy * trim), x2: round(x2 - ux * trim), y2: round(y2 - uy * trim) };
  const full = { x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2) };
  const line = svgEl("line", { class: "pt-shape pt-edge-line", ...(style === "slot" || style === "blank" ? inner : full) }, g);
  if (item.color) line.setAttribute("stroke", str(item.color));
  if (lit) svgEl("line", { class: "pt-hl", ...inner }, g);
  if (hasId) svgEl("line", { class: "pt-hit", ...inner, "stroke-width": HIT_WIDTH }, g);
  return true;
}

function drawGap(L, item, g, hasId, lit) {
  const [x, y] = [0, 0]; // drawn round its place; the tick across the ring turns with it (placeItem)
  const s = Math.max(5, L.slot * 0.17);
  g._turn = svgEl("line", { class: "pt-gap-tick", x1: round(-L.slot * 0.5), y1: 0, x2: round(L.slot * 0.5), y2: 0 }, g);
  if (hasId) svgEl("circle", { class: "pt-hit", cx: round(x), cy: round(y), r: round(Math.max(9, s * 1.7)) }, g);
  const diamond = shapeEl("diamond", x, y, s, { class: "pt-shape pt-gap-mark" }, g);
  if (item.fill) diamond.setAttribute("fill", str(item.fill));
  if (lit) svgEl("circle", { class: "pt-hl", cx: round(x), cy: round(y), r: round(s * 1.5) }, g);
  return true;
}

function drawPiece(L, item, g, hasId, lit) {
  const [x, y] = [0, 0]; // drawn round its place (see anchorOf)
  const r = (Math.min(1.2, Math.max(0.05, num(item.size, 0.7))) * L.cellPx) / 2;
  const shape = SHAPES.includes(item.shape) ? item.shape : "circle";
  const color = str(item.color) || "#8a8f98";
  // dim (an unconnected or inactive piece): a faded, dashed shape; its label stays readable
  const body = svgEl("g", { class: item.dim ? "pt-body pt-dim" : "pt-body" }, g);
  const outline = item.outline ? str(item.outline) : null;
  // hollow: a pawn drawn as a thick outline in its colour on white, beside a filled king
  const stroke = item.hollow
    ? { fill: "#fff", stroke: color, "stroke-width": round(Math.max(2.5, r * 0.22)) }
    : { fill: color, stroke: outline || "rgba(0,0,0,0.45)", "stroke-width": outline ? round(Math.max(2, r * 0.16)) : 1.2 };
  if (item.double) {
    const d = r * 0.16;
    shapeEl(shape, x + d, y + d, r * 0.92, { ...stroke, class: "pt-shape pt-back" }, body);
    svgEl("g", { class: "pt-back-shade" }, body).appendChild(
      shapeEl(shape, x + d, y + d, r * 0.92, { fill: "rgba(0,0,0,0.22)", stroke: "none" }));
    shapeEl(shape, x - d, y - d, r * 0.92, { ...stroke, class: "pt-shape" }, body);
  } else {
    shapeEl(shape, x, y, r, { ...stroke, class: "pt-shape" }, body);
  }
  const text = str(item.text);
  if (text) {
    const dy = shape === "triangle" ? r * 0.2 : 0;
    const off = item.double ? -r * 0.16 : 0;
    const fs = Math.max(8, Math.min(r * 0.95, (r * 2.6) / Math.max(1, text.length)));
    const ink = item.hollow || item.dim ? color : textColorOn(color);
    textEl(x + off, y + off + dy, text, { class: "pt-label", "font-size": round(fs), fill: ink }, body);
  }
  if (lit) svgEl("circle", { class: "pt-hl", cx: round(x), cy: round(y), r: round(r * 1.12 + 3) }, g);
  return true;
}

function drawLine(L, item, g, hasId, lit) {
  const raw = Array.isArray(item.points) ? item.points : [];
  const points = raw.map((p) => boardPoint(L, p)).filter(Boolean);
  if (points.length < 2) return false;
  const color = str(item.color) || "#222";
  const width = Math.max(0.5, num(item.width, 3));
  let drawn = points;
  let head = null;
  if (item.arrow) {
    const [px, py] = points[points.length - 2];
    const [tx, ty] = points[points.length - 1];
    const len = Math.hypot(tx - px, ty - py) || 1;
    const hl = Math.min(len * 0.6, Math.max(9, width * 3.2));
    const [ux, uy] = [(tx - px) / len, (ty - py) / len];
    const [bx, by] = [tx - ux * hl, ty - uy * hl];
    const hw = hl * 0.55;
    head = [[tx, ty], [bx - uy * hw, by + ux * hw], [bx + uy * hw, by - ux * hw]];
    drawn = points.slice(0, -1).concat([[tx - ux * hl * 0.8, ty - uy * hl * 0.8]]);
  }
  if (hasId) svgEl("polyline", { class: "pt-hit", points: pts(points), "stroke-width": round(Math.max(HIT_WIDTH, width + 8)) }, g);
  if (lit) svgEl("polyline", { class: "pt-hl", points: pts(points), "stroke-width": round(width + 6) }, g);
  svgEl("polyline", {
    class: "pt-shape pt-line-path", points: pts(drawn), fill: "none", stroke: color, "stroke-width": round(width),
    "stroke-linecap": item.dash ? "butt" : "round", "stroke-linejoin": "round",
    "stroke-dasharray": item.dash ? `${round(width * 2.2)} ${round(width * 1.6)}` : undefined,
  }, g);
  if (head) svgEl("polygon", { class: "pt-shape pt-arrow-head", points: pts(head), fill: color }, g);
  return true;
}

function drawText(L, item, g) {
  textEl(0, 0, item.text, { class: "pt-text-label", "font-size": round(num(item.size, 13)), fill: str(item.color) || "#33302b" }, g);
  return true;
}

const DRAW = { cell: drawCell, edge: drawEdge, gap: drawGap, piece: drawPiece, line: drawLine, text: drawText };

// Where an item sits. Cells, pieces, gaps and texts are drawn round (0, 0) and
// moved to their place, so an item that only moved (a ring closing up after a
// slot went) keeps its nodes: the redraw changes one attribute. Edges and
// lines are drawn where they are (null: no place, nothing drawn).
const PLACED = new Set(["cell", "piece", "gap", "text"]);
function anchorOf(L, item) {
  switch (item.kind) {
    case "cell":
    case "piece":
      return L.at(item.at);
    case "gap":
      return L.kind === "ring" && typeof item.at === "number" ? L.polar(item.at - 0.5, L.radius) : null;
    case "text":
      return boardPoint(L, item.at);
    default:
      return [0, 0];
  }
}

// Move a placed item's <g> to its place (and turn a gap's tick across the ring).
function placeItem(L, item, g, at) {
  const move = `translate(${round(at[0])} ${round(at[1])})`;
  if (g.getAttribute("transform") !== move) g.setAttribute("transform", move);
  if (g._turn) {
    const turn = `rotate(${round((L.angle(item.at - 0.5) * 180) / Math.PI)})`;
    if (g._turn.getAttribute("transform") !== turn) g._turn.setAttribute("transform", turn);
  }
}

// The outline of the last move on one item: around its place (a cell, a
// point, a slot; a piece is marked on its place), along an edge or a line
// (under its stroke), or round a gap. Below any highlight, so targets stay lit.
function drawLastMark(L, item, g) {
  let mark = null;
  const kind = item.kind;
  if (kind === "cell" || kind === "piece") {
    const [x, y] = [0, 0]; // in the item's own coordinates (placeItem moved it)
    if (L.kind === "grid") {
      const size = L.cell - 3;
      mark = svgEl("rect", { x: round(x - size / 2), y: round(y - size / 2), width: round(size), height: round(size), rx: 4 });
    } else if (L.kind === "points") {
      mark = svgEl("circle", { cx: round(x), cy: round(y), r: round(L.sp * 0.4) });
    } else {
      const size = L.slot * 0.9 + 6;
      mark = svgEl("rect", { x: round(x - size / 2), y: round(y - size / 2), width: round(size), height: round(size), rx: round(size * 0.24) });
    }
  } else if (kind === "edge") {
    const seg = edgeSegment(L, item.a, item.b);
    if (!seg) return false;
    mark = svgEl("line", { class: "pt-last-edge", x1: round(seg[0][0]), y1: round(seg[0][1]), x2: round(seg[1][0]), y2: round(seg[1][1]) });
    g.insertBefore(mark, g.firstChild); // under the wall itself
    mark.classList.add("pt-last-mark");
    g._mark = mark;
    return true;
  } else if (kind === "gap" && L.kind === "ring" && typeof item.at === "number") {
    mark = svgEl("circle", { cx: 0, cy: 0, r: round(Math.max(9, L.slot * 0.3)) });
  } else if (kind === "line") {
    const points = (Array.isArray(item.points) ? item.points : []).map((p) => boardPoint(L, p)).filter(Boolean);
    if (points.length < 2) return false;
    mark = svgEl("polyline", { class: "pt-last-edge", points: pts(points) });
    g.insertBefore(mark, g.firstChild);
    mark.classList.add("pt-last-mark");
    g._mark = mark;
    return true;
  }
  if (!mark) return false;
  mark.classList.add("pt-last-mark");
  const hl = g.querySelector(":scope > .pt-hl");
  if (hl) g.insertBefore(mark, hl);
  else g.appendChild(mark);
  g._mark = mark;
  return true;
}

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

function buildScene(scene, svg, prev) {
  const byId = new Map();
  const boards = Array.isArray(scene.boards) ? scene.boards : [];
  const layouts = new Map();
  const anyTitle = boards.some((b) => b && str(b.title));
  let x = MARGIN;
  let height = 0;
  for (const board of boards) {
    if (!board) continue;
    const L = layoutBoard(board);
    if (!L) continue;
    L.ox = x;
    L.oy = MARGIN + (anyTitle ? TITLE_H : 0);
    x += L.w + BOARD_GAP;
    height = Math.max(height, L.oy + L.h + MARGIN);
    // what an item's drawing depends on besides the item: where the board is
    // (edges and lines are drawn in place), or only its kind and scale
    L.key = `${L.ox},${L.oy}:${JSON.stringify(board)}`;
    L.scale = `${L.kind}:${L.cellPx}`;
    layouts.set(str(board.id), L);
  }
  const width = layouts.size ? x - BOARD_GAP + MARGIN : 0;
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
  return { width, height, byId, lastMarks, reuse: { bases, spare, boardLayer, itemLayer, drawn } };
}

// ---------------------------------------------------------------- widget
function render({ model, el }) {
  const root = htmlEl("div", "pt-root", el);
  root.tabIndex = -1;
  const statusDiv = htmlEl("div", "pt-status", root);
  const swatch = svgEl("svg", { class: "pt-swatch", width: 18, height: 18, viewBox: "0 0 18 18", "aria-hidden": "true" }, statusDiv);
  const statusText = htmlEl("span", "pt-status-text", statusDiv);
  const errorDiv = htmlEl("div", "pt-error", root);
  errorDiv.setAttribute("role", "alert");
  const messageDiv = htmlEl("div", "pt-message", root);
  messageDiv.setAttribute("aria-live", "polite");
  const buttonsDiv = htmlEl("div", "pt-buttons", root); // above the board, near the status line
  const stage = htmlEl("div", "pt-stage", root);
  const svg = svgEl("svg", { class: "pt-svg", xmlns: SVG_NS, "data-version": "" }, stage);
  const panelsDiv = htmlEl("div", "pt-panels", stage);
  const ruleDiv = htmlEl("div", "pt-rule", root); // the text of a rule a reason cites, below the board
  ruleDiv.setAttribute("aria-live", "polite");
  ruleDiv.hidden = true;
  const legendDiv = htmlEl("div", "pt-legend", root); // says what the outline means
  htmlEl("span", "pt-legend-swatch", legendDiv);
  htmlEl("span", "pt-legend-text", legendDiv).textContent = "outlined: the last move";
  legendDiv.hidden = true;
  const curtainDiv = htmlEl("div", "pt-curtain", root);
  curtainDiv.setAttribute("role", "dialog");
  const curtainText = htmlEl("div", "pt-curtain-text", curtainDiv);
  const curtainButtons = htmlEl("div", "pt-curtain-buttons", curtainDiv);
  let menu = null;
  let menuSource = []; // the item whose options the menu shows

  let scene = {};
  let byId = new Map();
  let reuse = null; // what the last drawing leaves for the next (see buildScene)
  let selected = null;
  let marked = []; // elements carrying pt-selected / pt-target

  const hint = () => str(scene.hint);
  const moves = () => (scene.moves && typeof scene.moves === "object" ? scene.moves : {});
  const selects = () => (scene.selects && typeof scene.selects === "object" ? scene.selects : {});
  const has = (obj, key) => key !== null && Object.prototype.hasOwnProperty.call(obj, key);
  const targetsOf = (id) => (has(selects(), id) && selects()[id] && typeof selects()[id] === "object" ? selects()[id] : {});

  // A reason that cites a rule (`... (rule A.1 §14.3)`) shows the rule's text from
  // `scene.rules` below the board (there it moves nothing the mouse is over).
  function showMessage(text, why) {
    if (messageDiv.textContent !== text) messageDiv.textContent = text;
    messageDiv.classList.toggle("pt-why", !!why);
    const rules = scene.rules && typeof scene.rules === "object" ? scene.rules : {};
    const texts = [];
    if (why) {
      for (const match of str(text).matchAll(CITED_RULE)) {
        if (has(rules, match[1]) && !texts.includes(str(rules[match[1]]))) texts.push(str(rules[match[1]]));
      }
    }
    const rule = texts.join("\n\n");
    if (ruleDiv.textContent !== rule) ruleDiv.textContent = rule;
    ruleDiv.hidden = texts.length === 0;
  }

  // -- highlighting (synchronous: class changes only)
  function applySelection() {
    for (const node of marked) node.classList.remove("pt-selected", "pt-target");
    marked = [];
    root.classList.toggle("pt-has-selection", selected !== null);
    if (selected === null) return;
    for (const node of byId.get(selected) || []) { node.classList.add("pt-selected"); marked.push(node); }
    for (const target of Object.keys(targetsOf(selected))) {
      for (const node of byId.get(target) || []) { node.classList.add("pt-target"); marked.push(node); }
    }
  }

  function select(id) {
    selected = id;
    applySelection();
  }

  // -- menu
  function closeMenu() {
    for (const node of menuSource) node.classList.remove("pt-menu-source");
    menuSource = [];
    if (!menu) return;
    menu.removeEventListener("click", onMenuClick);
    menu.remove();
    menu = null;
  }

  function openMenu(options, event, sourceId) {
    closeMenu();
    for (const node of byId.get(sourceId) || []) { node.classList.add("pt-menu-source"); menuSource.push(node); }
    menu = htmlEl("div", "pt-menu", root);
    menu.setAttribute("role", "menu");
    options.forEach((option, index) => {
      const b = htmlEl("button", "pt-menu-option", menu);
      b.type = "button";
      b.dataset.index = String(index);
      b.textContent = str(option && option.label) || `Option ${index + 1}`;
    });
    const cancel = htmlEl("button", "pt-menu-cancel", menu);
    cancel.type = "button";
    cancel.textContent = "Cancel";
    menu._options = options;
    menu.addEventListener("click", onMenuClick);
    for (const option of options.slice(0, 8)) askPreview(option.action); // one of them comes next
    const box = root.getBoundingClientRect();
    let left = (event && event.clientX ? event.clientX - box.left : 20) + 8;
    let top = (event && event.clientY ? event.clientY - box.top : 20) + 8;
    menu.style.left = `${Math.max(0, left)}px`;
    menu.style.top = `${Math.max(0, top)}px`;
    const overflow = left + menu.offsetWidth - root.clientWidth;
    if (overflow > 0) menu.style.left = `${Math.max(0, left - overflow - 4)}px`;
    const first = menu.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }

  function onMenuClick(event) {
    const b = event.target.closest("button");
    if (!b || !menu) return;
    event.stopPropagation();
    if (b.classList.contains("pt-menu-cancel")) {
      closeMenu();
      root.focus({ preventScroll: true });
      return;
    }
    const option = menu._options[Number(b.dataset.index)];
    if (option) sendAction(option.action);
  }

  // -- committing
  // A committed action leaves the page as it is (but for an open menu) until the kernel
  // answers: the redraw with the move clears the highlight, a refusal clears it with its
  // reason, and so does a kernel that says nothing for a while. So the click changes nothing
  // the browser must draw while the kernel works: on a page as big as JupyterLab's, drawing
  // that frame (the highlight going) kept the page busy when the answer came in.
  // When the kernel showed ahead what the action leads to (a preview, below), the click draws
  // that at once; the kernel's redraw follows and changes nothing that is already right.
  let committed = null; // the timer that clears a committed selection if no answer comes
  const COMMIT_WAIT_MS = 400;
  const PREVIEW_WAIT_MS = 2000; // a preview shown with no answer this long goes back
  function sendAction(action) {
    model.send({ type: "action", action: action === undefined ? null : action });
    closeMenu();
    selected = null;
    clearTimeout(committed);
    const ahead = previewOf(action);
    if (ahead) showPreview(ahead);
    committed = setTimeout(settleCommit, ahead || previewing ? PREVIEW_WAIT_MS : COMMIT_WAIT_MS);
  }

  function settleCommit() {
    clearTimeout(committed);
    committed = null;
    if (previewing) {   // refused, or no answer: back to what the kernel shows
      drawScene();
      return;
    }
    applySelection();
    showMessage(hint(), false);
  }

  // -- previews: while the pointer rests on something a click would commit, the page asks the
  // kernel what the action leads to ({type: "preview"}); the kernel answers with that scene, or
  // with null when it cannot be known before the move (secrets, chance, an illegal action).
  const MAX_PREVIEWS = 64; // asked per scene version at most
  const REST_MS = 40; // the pointer rests this long on an item before its preview is asked
  let resting = null; // the timer of that
  let previews = new Map(); // action JSON -> scene JSON ("" while asked, null: none)
  let asking = new Map(); // request number -> action JSON
  let previewsFor = null; // the scene version they are for
  let requests = 0;
  let previewing = false; // the board shows a preview, until the kernel's answer
  let previewsShown = 0;

  function askPreview(action) {
    if (previewing || action === undefined || typeof scene.version !== "number") return;
    if (previewsFor !== scene.version) {
      previews = new Map();
      asking = new Map();
      previewsFor = scene.version;
    }
    const key = JSON.stringify(action);
    if (previews.has(key) || previews.size >= MAX_PREVIEWS) return;
    previews.set(key, "");
    requests += 1;
    asking.set(requests, key);
    model.send({ type: "preview", n: requests, version: scene.version, action });
  }

  function onPreview(content) {
    const key = asking.get(content.n);
    if (key === undefined) return; // an answer for a scene shown no more
    asking.delete(content.n);
    previews.set(key, typeof content.scene === "string" ? content.scene : null);
  }

  function previewOf(action) {
    if (previewing || previewsFor !== scene.version || action === undefined) return null;
    return previews.get(JSON.stringify(action)) || null;
  }

  function showPreview(text) {
    let value = null;
    try { value = JSON.parse(text); } catch (err) { return; }
    if (!value || typeof value !== "object" || Array.isArray(value)) return;
    paint(value);
    previewing = true;
    svg.setAttribute("data-preview", String(++previewsShown));
  }

  // the one action a click on this item would commit now, if it is one (see onSvgClick)
  function onSvgOver(event) {
    clearTimeout(resting); // a pointer sweeping over the board asks nothing
    const g = event.target && event.target.closest ? event.target.closest("[data-id]") : null;
    if (!g || !svg.contains(g)) return;
    const id = g.getAttribute("data-id");
    let options;
    if (selected !== null && has(targetsOf(selected), id)) options = targetsOf(selected)[id];
    else if (has(moves(), id) && (id === selected || !has(selects(), id))) options = moves()[id];
    const list = Array.isArray(options) ? options.filter(Boolean) : [];
    if (list.length === 1) resting = setTimeout(askPreview, REST_MS, list[0].action);
  }

  function onLeave() {
    clearTimeout(resting);
  }

  function onButtonsOver(event) {
    const b = event.target && event.target.closest ? event.target.closest("button.pt-button") : null;
    const buttons = Array.isArray(scene.buttons) ? scene.buttons : [];
    const option = b ? buttons[Number(b.dataset.index)] : null;
    clearTimeout(resting);
    if (option && option.command === undefined) resting = setTimeout(askPreview, REST_MS, option.action);
  }

  function sendCommand(name, seat) {
    const message = { type: "command", name: str(name) };
    if (typeof seat === "number") message.seat = seat;
    model.send(message);
    closeMenu();
    select(null);
  }

  function commit(options, event, sourceId) {
    const list = Array.isArray(options) ? options.filter(Boolean) : [];
    if (list.length === 1) sendAction(list[0].action);
    else if (list.length > 1) openMenu(list, event, sourceId);
    else showMessage(`Not a legal choice now. ${hint()}`.trim(), true);
  }

  // -- clicks on the board (one delegated listener)
  function idsAt(event) {
    const ids = [];
    const top = event.target && event.target.closest ? event.target.closest("[data-id]") : null;
    if (top && svg.contains(top)) ids.push(top.getAttribute("data-id"));
    // A usable top item wins (see onSvgClick): no need to ask what lies under it,
    // which would make the browser lay the page out before the click is sent.
    if (ids.length && usable(ids[0])) return ids;
    // Underneath: a clickable place below an inert-for-now item (a target
    // cell under a piece that has an id of its own).
    const doc = root.getRootNode && root.getRootNode().elementsFromPoint ? root.getRootNode() : document;
    if (typeof event.clientX === "number" && doc.elementsFromPoint) {
      const stack = doc.elementsFromPoint(event.clientX, event.clientY);
      if (stack.includes(event.target)) {
        for (const node of stack) {
          const g = node.closest ? node.closest("[data-id]") : null;
          if (g && svg.contains(g)) {
            const id = g.getAttribute("data-id");
            if (!ids.includes(id)) ids.push(id);
          }
        }
      }
    }
    return ids;
  }

  function isEdge(id) {
    return (byId.get(id) || []).some((g) => g.classList.contains("pt-edge"));
  }

  function usable(id) {
    return (selected !== null && has(targetsOf(selected), id)) || has(selects(), id) || has(moves(), id);
  }

  function onSvgClick(event) {
    if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });
    const hadMenu = !!menu;
    closeMenu();
    const ids = idsAt(event);
    const reasons = scene.reasons && typeof scene.reasons === "object" ? scene.reasons : {};
    // The top item wins when it is usable. Otherwise a click falls through to
    // a target of the selection underneath it (a piece on its target cell),
    // or, unless the top item has a reason of its own, to anything usable.
    // An edge with a reason never lets a click through: its click area is
    // wider than its line on purpose, and the designer aimed at the edge.
    let pick = ids.length && usable(ids[0]) ? ids[0] : undefined;
    const edgeSays = ids.length > 0 && has(reasons, ids[0]) && isEdge(ids[0]);
    if (pick === undefined && ids.length > 1 && !edgeSays) {
      const lower = ids.slice(1);
      pick = selected !== null ? lower.find((id) => has(targetsOf(selected), id)) : undefined;
      if (pick === undefined && !has(reasons, ids[0])) pick = lower.find(usable);
    }
    if (pick === undefined) {
      if (ids.length === 0) {
        // empty space: clear everything
        select(null);
        showMessage(hint(), false);
        return;
      }
      if (hadMenu) return; // first click only dismisses the menu
      const why = has(reasons, ids[0]) ? str(reasons[ids[0]]) : `Not a legal choice now. ${hint()}`.trim();
      showMessage(why, true);
      return;
    }
    if (selected !== null && has(targetsOf(selected), pick)) {
      commit(targetsOf(selected)[pick], event, pick);
      return;
    }
    if (pick === selected) {
      if (has(moves(), pick)) {
        commit(moves()[pick], event, pick);
      } else {
        select(null);
        showMessage(hint(), false);
      }
      return;
    }
    if (has(selects(), pick)) {
      select(pick);
      const extra = has(moves(), pick) ? " Click it again for its own actions." : "";
      showMessage(`${hint() || "Choose a highlighted target."}${extra}`.trim(), false);
      return;
    }
    select(null);
    showMessage(hint(), false);
    commit(moves()[pick], event, pick);
  }

  function onButtonsClick(event) {
    const b = event.target.closest("button.pt-button");
    if (!b) return;
    const buttons = Array.isArray(scene.buttons) ? scene.buttons : [];
    const option = buttons[Number(b.dataset.index)];
    if (!option) return;
    if (option.command !== undefined) sendCommand(option.command, option.seat);
    else sendAction(option.action);
  }

  function onCurtainClick(event) {
    const b = event.target.closest("button.pt-curtain-button");
    if (!b) return;
    sendCommand("reveal", Number(b.dataset.seat));
  }

  // Escape anywhere clears this board's selection and menu. It listens on
  // the document in the capture phase, so a host that handles keys itself
  // (JupyterLab) cannot swallow it; it does not stop the event.
  function onKeyDown(event) {
    if (event.key !== "Escape" && event.key !== "Esc") return;
    if (selected === null && !menu) return;
    const menuHadFocus = menu && menu.contains(document.activeElement);
    closeMenu();
    select(null);
    showMessage(hint(), false);
    if (menuHadFocus) root.focus({ preventScroll: true });
  }

  // -- trait rendering
  // The text parts are redrawn only when they changed: an unchanged page part
  // costs the browser no restyle and no layout.
  const drawnParts = {};
  function changed(part, value) {
    const key = JSON.stringify(value === undefined ? null : value);
    if (drawnParts[part] === key) return false;
    drawnParts[part] = key;
    return true;
  }

  function drawStatus() {
    const status = scene.status && typeof scene.status === "object" ? scene.status : {};
    if (!changed("status", status)) return;
    statusText.textContent = str(status.text);
    const color = str(status.color);
    const shape = str(status.shape);
    const fresh = swatch.cloneNode(false);
    if (color || shape) {
      shapeEl(SHAPES.includes(shape) ? shape : "circle", 9, 9.5, 6.6, { fill: color || "#8a8f98", stroke: "rgba(0,0,0,0.45)", "stroke-width": 1 }, fresh);
      fresh.style.display = "";
    } else {
      fresh.style.display = "none";
    }
    morph(swatch, fresh);
    statusDiv.hidden = !statusText.textContent && !(color || shape);
  }

  function drawButtons() {
    const buttons = Array.isArray(scene.buttons) ? scene.buttons : [];
    if (!changed("buttons", buttons)) return;
    const frag = document.createDocumentFragment();
    buttons.forEach((option, index) => {
      if (!option) return;
      const b = htmlEl("button", "pt-button", frag);
      b.type = "button";
      b.dataset.index = String(index);
      b.textContent = str(option.label);
      if (option.command !== undefined) b.classList.add("pt-command");
      if (option.title) b.title = str(option.title);
    });
    buttonsDiv.replaceChildren(frag);
    buttonsDiv.hidden = buttons.length === 0;
  }

  function drawPanels() {
    const panels = Array.isArray(scene.panels) ? scene.panels : [];
    if (!changed("panels", panels)) return;
    const fresh = panelsDiv.cloneNode(false); // morphed into the shown one: only changed cells change
    for (const panel of panels) {
      if (!panel) continue;
      const table = htmlEl("table", "pt-panel", fresh);
      htmlEl("caption", null, table).textContent = str(panel.title);
      const body = htmlEl("tbody", null, table);
      for (const row of Array.isArray(panel.rows) ? panel.rows : []) {
        const tr = htmlEl("tr", null, body);
        for (const cell of Array.isArray(row) ? row : [row]) {
          const text = str(cell);
          // running text (a note) wraps and keeps its line breaks; short values stay on one line
          htmlEl("td", text.length > 24 || text.includes("\n") ? "pt-text" : null, tr).textContent = text;
        }
      }
    }
    fresh.hidden = panels.length === 0;
    morph(panelsDiv, fresh);
  }

  function drawScene() {
    let value = null;
    try { value = JSON.parse(str(model.get("scene_json"))); } catch (err) { value = null; }
    previewing = false;
    paint(value);
    if (svg.hasAttribute("data-preview")) svg.removeAttribute("data-preview");
    svg.setAttribute("data-version", str(scene.version));
  }

  // draw a scene: the kernel's (drawScene) or a preview of the next one (showPreview)
  function paint(value) {
    scene = value && typeof value === "object" && !Array.isArray(value) ? value : {};
    clearTimeout(resting);
    closeMenu();
    clearTimeout(committed);
    committed = null;
    for (const node of marked) node.classList.remove("pt-selected", "pt-target"); // it may be reused
    marked = [];
    const built = buildScene(scene, svg, reuse);
    reuse = built.reuse;
    byId = built.byId;
    const size = [String(round(built.width)), String(round(built.height))];
    if (svg.getAttribute("width") !== size[0]) svg.setAttribute("width", size[0]);
    if (svg.getAttribute("height") !== size[1]) svg.setAttribute("height", size[1]);
    if (svg.getAttribute("viewBox") !== `0 0 ${size[0]} ${size[1]}`) svg.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
    legendDiv.hidden = built.lastMarks === 0;
    if (selected !== null && !has(selects(), selected)) selected = null;
    applySelection();
    drawStatus();
    drawButtons();
    drawPanels();
    showMessage(hint(), false);
  }

  // The curtain hides everything a seat may not see until the right person clicks.
  function drawCurtain() {
    const value = model.get("curtain");
    const curtain = value && typeof value === "object" ? value : {};
    const text = str(curtain.text);
    const frag = document.createDocumentFragment();
    for (const entry of Array.isArray(curtain.seats) ? curtain.seats : []) {
      if (!Array.isArray(entry) || typeof entry[1] !== "number") continue;
      const b = htmlEl("button", "pt-curtain-button", frag);
      b.type = "button";
      b.dataset.seat = String(entry[1]);
      b.textContent = str(entry[0]);
    }
    curtainText.textContent = text;
    curtainButtons.replaceChildren(frag);
    curtainDiv.hidden = !text;
    root.classList.toggle("pt-curtained", !!text);
    if (text) { closeMenu(); select(null); }
  }

  // An error's first paragraph is the message; what follows a blank line
  // (the text of the rule it cites) is shown below it, smaller.
  function drawError() {
    if (committed !== null) settleCommit(); // a refused action: its highlight goes with the reason
    const text = str(model.get("error"));
    const cut = text.indexOf("\n\n");
    const head = cut < 0 ? text : text.slice(0, cut);
    const rest = cut < 0 ? "" : text.slice(cut + 2).trim();
    errorDiv.replaceChildren();
    htmlEl("div", "pt-error-text", errorDiv).textContent = head;
    if (rest) htmlEl("div", "pt-error-rule", errorDiv).textContent = rest;
    errorDiv.hidden = !text;
  }

  svg.addEventListener("click", onSvgClick);
  svg.addEventListener("mouseover", onSvgOver);
  svg.addEventListener("mouseleave", onLeave);
  buttonsDiv.addEventListener("click", onButtonsClick);
  buttonsDiv.addEventListener("mouseover", onButtonsOver);
  buttonsDiv.addEventListener("mouseleave", onLeave);
  curtainDiv.addEventListener("click", onCurtainClick);
  const doc = el.ownerDocument || document;
  doc.addEventListener("keydown", onKeyDown, true);
  model.on("change:scene_json", drawScene);
  model.on("change:error", drawError);
  model.on("change:curtain", drawCurtain);
  drawScene();
  drawError();
  drawCurtain();
  // A file from the kernel (the session file): the browser saves it as a download.
  function onCustom(content, buffers) {
    if (content && content.type === "preview") {
      onPreview(content);
      return;
    }
    if (!content || content.type !== "download" || !buffers || !buffers.length) return;
    const blob = new Blob([buffers[0]], { type: str(content.mime) || "application/octet-stream" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = str(content.name).replace(/[\\/]/g, "_") || "session.playtest.json";
    root.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }
  model.on("msg:custom", onCustom);
  // Tell the kernel a view of this board is on screen (a table with none left can rest).
  model.send({ type: "view", open: true });

  return () => {
    clearTimeout(committed);
    clearTimeout(resting);
    svg.removeEventListener("click", onSvgClick);
    svg.removeEventListener("mouseover", onSvgOver);
    svg.removeEventListener("mouseleave", onLeave);
    buttonsDiv.removeEventListener("click", onButtonsClick);
    buttonsDiv.removeEventListener("mouseover", onButtonsOver);
    buttonsDiv.removeEventListener("mouseleave", onLeave);
    curtainDiv.removeEventListener("click", onCurtainClick);
    doc.removeEventListener("keydown", onKeyDown, true);
    model.off("change:scene_json", drawScene);
    model.off("change:error", drawError);
    model.off("change:curtain", drawCurtain);
    model.off("msg:custom", onCustom);
    try { model.send({ type: "view", open: false }); } catch (err) { /* the kernel is gone */ }
    closeMenu();
    root.remove();
  };
}

export default { render };
