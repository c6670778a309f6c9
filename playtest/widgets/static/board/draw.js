// playtest board renderer, part 1 of 3: constants, helpers, the geometry of each board
// kind and the drawing of each item kind. (playtest/widgets/board.py joins
// draw.js, scene.js and widget.js into the one ES module the widget loads; see
// widget.js for what the renderer does.)

const SVG_NS = "http://www.w3.org/2000/svg";
const MARGIN = 14; // around the whole drawing
const BOARD_GAP = 32; // between boards, left to right
const TITLE_H = 26; // room above the boards for their titles
const HIT_WIDTH = 14; // px, invisible click area of an edge: wider than its line, narrower than a cell
const LABEL_W = 20; // px, room left of a grid for its row labels
const LABEL_H = 17; // px, room beside a grid's row 0 for its column labels
const SHAPES = ["circle", "triangle", "diamond", "square", "hexagon", "cross", "ring"];
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
    case "cross": {
      // an X: a plus of arms w wide, turned 45 degrees
      const w = r * 0.34, l = r * 1.05, c = Math.SQRT1_2;
      const plus = [[-w, -l], [w, -l], [w, -w], [l, -w], [l, w], [w, w], [w, l], [-w, l], [-w, w], [-l, w], [-l, -w], [-w, -w]];
      node = svgEl("polygon", { points: pts(plus.map(([x, y]) => [cx + (x - y) * c, cy + (x + y) * c])) }, parent);
      break;
    }
    case "ring": {
      // a thick ring (an O): two circles, the inner one cut out
      const ri = r * 0.56;
      const circle = (rad) => `M${round(cx - rad)} ${round(cy)}a${round(rad)} ${round(rad)} 0 1 0 ${round(2 * rad)} 0a${round(rad)} ${round(rad)} 0 1 0 ${round(-2 * rad)} 0Z`;
      node = svgEl("path", { d: circle(r) + circle(ri), "fill-rule": "evenodd" }, parent);
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
  return { cols: list(raw.cols), rows: list(raw.rows), slots: list(raw.slots), cells: list(raw.cells) };
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
  if (kind === "hex") {
    // hexagonal cells in axial coordinates [q, r]; pointy: rows of hexes, flat: columns
    const size = num(board.size, 26);
    const flat = board.orientation === "flat";
    const cells = (Array.isArray(board.cells) ? board.cells : []).filter((c) => Array.isArray(c)).slice(0, 2000);
    const rel = (q, r) => (flat ? [size * 1.5 * q, size * Math.sqrt(3) * (r + q / 2)]
                                : [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r]);
    let [minX, minY, maxX, maxY] = [0, 0, 0, 0];
    cells.forEach(([q, r], i) => {
      const [x, y] = rel(num(q, 0), num(r, 0));
      if (i === 0) [minX, minY, maxX, maxY] = [x, y, x, y];
      minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    });
    const pad = size * 1.05;
    return {
      board, kind, size, flat, cells, cellPx: size * 1.55, labels: { ...labels, cells: boardLabels(board).cells },
      w: maxX - minX + 2 * pad, h: maxY - minY + 2 * pad,
      unit(q, r) { const [x, y] = rel(q, r); return [this.ox + pad + x - minX, this.oy + pad + y - minY]; },
      at(a) { return Array.isArray(a) ? this.unit(num(a[0], 0), num(a[1], 0)) : null; },
      corners(x, y, rad) {
        const out = [];
        for (let k = 0; k < 6; k++) {
          const ang = (flat ? 0 : Math.PI / 6) + (k * Math.PI) / 3;
          out.push([x + rad * Math.cos(ang), y + rad * Math.sin(ang)]);
        }
        return out;
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
  } else if (L.kind === "hex") {
    let d = "";
    for (const [q, r] of L.cells) {
      const [x, y] = L.at([q, r]);
      d += `M${pts(L.corners(x, y, L.size)).replace(/ /g, "L")}Z`;
    }
    if (d) svgEl("path", { class: "pt-hex-lines", d }, g);
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
  } else if (L.kind === "hex") {
    // each cell's coordinates, small, in its lower part: the notation's words for it
    const cellsLabels = L.labels.cells || [];
    for (let i = 0; i < Math.min(cellsLabels.length, L.cells.length); i++) {
      const [x, y] = L.at(L.cells[i]);
      textEl(x, y + L.size * 0.62, cellsLabels[i], { class: "pt-coord pt-hex-coord", "font-size": round(Math.max(7, L.size * 0.3)) }, g);
    }
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
  } else if (L.kind === "hex") {
    size = L.size * 1.5;
    svgEl("polygon", { class: "pt-shape pt-hex-tile", points: pts(L.corners(x, y, L.size - 1)), fill: fill || "transparent" }, g);
    if (lit) hl = svgEl("polygon", { class: "pt-hl", points: pts(L.corners(x, y, L.size - 4)) }, g);
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
    } else if (L.kind === "hex") {
      mark = svgEl("polygon", { points: pts(L.corners(x, y, L.size - 2)) });
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

// A legend's picture (scene.legend): one item drawn as a board draws it, in a small SVG of its
// own: a piece or a cell on one 22-px grid cell, an edge or a line across it, a gap's mark.
const KEY_CELL = 22;
function keySwatch(look, parent) {
  const svg = svgEl("svg", { class: "pt-key-swatch", width: KEY_CELL + 8, height: KEY_CELL, viewBox: `0 0 ${KEY_CELL + 8} ${KEY_CELL}`, "aria-hidden": "true" }, parent);
  const kind = str(look.kind);
  const g = svgEl("g", { class: `pt-item pt-${kind} pt-inert` }, svg);
  if (look.cls) for (const token of str(look.cls).split(/\s+/)) if (token) g.classList.add(token);
  if (kind === "edge") {
    // an edge across the middle: the side between two cells stacked one above the other
    const L = layoutBoard({ kind: "grid", cols: 1, rows: 2, cell: KEY_CELL });
    L.ox = 4; L.oy = -KEY_CELL / 2;
    drawEdge(L, { ...look, a: [0, 0], b: [0, 1] }, g, false, false);
    return svg;
  }
  const L = layoutBoard({ kind: "grid", cols: 1, rows: 1, cell: KEY_CELL });
  L.ox = 4; L.oy = 0;
  if (kind === "line") {
    drawLine(L, { ...look, points: [[0, 0.5], [1, 0.5]] }, g, false, false);
  } else if (kind === "gap") {
    shapeEl("diamond", 4 + KEY_CELL / 2, KEY_CELL / 2, 5, { class: "pt-shape pt-gap-mark", fill: look.fill ? str(look.fill) : undefined }, g);
  } else if (kind === "piece" || kind === "cell") {
    DRAW[kind](L, { ...look, at: [0, 0] }, g, false, false);
    placeItem(L, look, g, L.at([0, 0]));
  } else {
    svg.remove();
    return null;
  }
  return svg;
}
