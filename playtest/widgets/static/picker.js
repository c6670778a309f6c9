// playtest picker: a list (or a drop-down menu) of labelled choices, for the
// table's move log and branch menu. No dependencies, no build step.
//
// `items` is JSON text, [[label, value], ...]; `value` the current choice.
// A redraw touches only the rows whose label or value changed (a move adds
// one row to a log of hundreds). A pick is sent to Python as
// {type: "pick", value}; Python checks it and sets `value`. Labels are
// inserted with textContent, never as HTML.
// A row may fold more below it ([label, value, {lines, members}]): a ▸ beside
// it unfolds its lines of text and its members, choices of their own (a move
// log's row standing for several steps). What is unfolded is this page's own.

function parseItems(text) {
  let items;
  try { items = JSON.parse(String(text)); } catch (err) { return []; }
  if (!Array.isArray(items)) return [];
  return items.filter((it) => Array.isArray(it) && (it.length === 2 || it.length === 3) && typeof it[1] === "number")
    .map((it) => [String(it[0]), it[1], foldOf(it[2])]);
}

function foldOf(extra) {
  if (!extra || typeof extra !== "object") return null;
  const lines = Array.isArray(extra.lines) ? extra.lines.map(String) : [];
  const members = (Array.isArray(extra.members) ? extra.members : [])
    .filter((m) => Array.isArray(m) && m.length === 2 && typeof m[1] === "number").map((m) => [String(m[0]), m[1]]);
  return lines.length || members.length ? { lines, members } : null;
}

function render({ model, el }) {
  const menu = model.get("mode") === "menu";
  const root = document.createElement("div");
  root.className = "pt-picker " + (menu ? "pt-picker-menu" : "pt-picker-list");
  el.appendChild(root);
  const label = document.createElement("label");
  label.className = "pt-picker-label";
  root.appendChild(label);
  const caption = document.createElement("span");
  caption.className = "pt-picker-caption";
  label.appendChild(caption);
  let box; // the <select> of a menu, or the list's scrolling box
  if (menu) {
    box = document.createElement("select");
    box.className = "pt-picker-select";
    label.appendChild(box);
  } else {
    box = document.createElement("div");
    box.className = "pt-picker-rows";
    box.setAttribute("role", "listbox");
    box.tabIndex = 0;
    root.appendChild(box);
  }
  let rows = []; // [element, label, value, fold JSON, wrapper, fold element, [[member element, value], ...]]
  const open = new Set(); // the values of the rows unfolded here

  const pick = (value) => {
    if (!model.get("disabled") && value !== model.get("value")) model.send({ type: "pick", value });
  };

  function drawItems() {
    const items = parseItems(model.get("items"));
    for (let i = 0; i < items.length; i++) {
      const [text, value, fold] = items[i];
      let row = rows[i];
      if (!row) {
        const e = document.createElement(menu ? "option" : "div");
        let wrap = e;
        if (!menu) {
          e.className = "pt-picker-row";
          e.setAttribute("role", "option");
          wrap = document.createElement("div");
          wrap.className = "pt-picker-item";
          wrap.appendChild(e);
        }
        box.appendChild(wrap);
        row = rows[i] = [e, null, null, "", wrap, null, []];
      }
      if (row[1] !== text) { row[0].textContent = text; row[1] = text; }
      if (row[2] !== value) {
        row[2] = value;
        if (menu) row[0].value = String(value); else row[0].dataset.value = String(value);
      }
      if (!menu) drawFold(row, fold);
    }
    for (const row of rows.splice(items.length)) row[4].remove();
    drawValue();
  }

  // a row's fold: a toggle before it, and (when unfolded) its lines and members below it
  function drawFold(row, fold) {
    const key = fold ? JSON.stringify(fold) + (open.has(row[2]) ? "+" : "") : "";
    if (row[3] === key) return;
    row[3] = key;
    const wrap = row[4];
    let toggle = wrap.querySelector(":scope > .pt-picker-toggle");
    if (row[5]) { row[5].remove(); row[5] = null; }
    row[6] = [];
    wrap.classList.toggle("pt-folds", !!fold);
    if (!fold) { if (toggle) toggle.remove(); return; }
    const unfolded = open.has(row[2]);
    if (!toggle) {
      toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "pt-picker-toggle";
      wrap.insertBefore(toggle, row[0]);
    }
    toggle.textContent = unfolded ? "▾" : "▸";
    toggle.title = unfolded ? "Fold" : `Show ${fold.members.length ? `its ${fold.members.length} steps` : "the details"}`;
    toggle.setAttribute("aria-expanded", String(unfolded));
    if (!unfolded) return;
    const box2 = document.createElement("div");
    box2.className = "pt-picker-fold";
    for (const line of fold.lines) {
      const e = document.createElement("div");
      e.className = "pt-picker-line";
      e.textContent = line;
      box2.appendChild(e);
    }
    for (const [text, value] of fold.members) {
      const e = document.createElement("div");
      e.className = "pt-picker-member";
      e.setAttribute("role", "option");
      e.dataset.value = String(value);
      e.textContent = text;
      box2.appendChild(e);
      row[6].push([e, value]);
    }
    wrap.appendChild(box2);
    row[5] = box2;
  }

  let current = null;
  function drawValue() {
    const value = model.get("value");
    if (menu) {
      box.value = value === null ? "" : String(value);
      return;
    }
    // the row of the value, or the row whose fold holds it (and the member itself, when unfolded)
    let row = rows.find((r) => r[2] === value);
    let member = null;
    if (!row) {
      for (const r of rows) {
        const items = parseFold(r);
        if (items && items.some((m) => m[1] === value)) { row = r; break; }
      }
      if (row) member = (row[6].find((m) => m[1] === value) || [null])[0];
    }
    for (const e of box.querySelectorAll(".pt-picker-member.pt-current")) if (e !== member) e.classList.remove("pt-current");
    if (member) member.classList.add("pt-current");
    if (current && current !== row) {
      current[0].classList.remove("pt-current");
      current[0].removeAttribute("aria-selected");
    }
    current = row || null;
    if (!current) return;
    current[0].classList.add("pt-current");
    current[0].setAttribute("aria-selected", "true");
    const e = member || current[0];
    requestAnimationFrame(() => { // keep the current row in view, after this frame's layout
      if (e.offsetTop < box.scrollTop) box.scrollTop = e.offsetTop;
      else if (e.offsetTop + e.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = e.offsetTop + e.offsetHeight - box.clientHeight;
      }
    });
  }

  function parseFold(row) {
    if (!row[3]) return null;
    try { return JSON.parse(row[3].replace(/\+$/, "")).members; } catch (err) { return null; }
  }

  function drawFrame() {
    caption.textContent = String(model.get("description") || "");
    caption.hidden = !caption.textContent;
    label.hidden = !menu && caption.hidden;
    root.classList.toggle("pt-disabled", !!model.get("disabled"));
    if (menu) box.disabled = !!model.get("disabled");
    box.style.maxHeight = menu ? "" : `calc(${Math.max(1, Number(model.get("rows")) || 12)} * 1.5em + 4px)`;
  }

  function onClick(event) {
    const toggle = event.target.closest && event.target.closest(".pt-picker-toggle");
    if (toggle && box.contains(toggle)) {
      const row = rows.find((r) => r[4] === toggle.parentNode);
      if (!row) return;
      if (open.has(row[2])) open.delete(row[2]); else open.add(row[2]);
      drawItems();
      return;
    }
    const row = event.target.closest && event.target.closest(".pt-picker-row, .pt-picker-member");
    if (row && box.contains(row)) pick(Number(row.dataset.value));
  }
  function onChange() {
    if (box.value !== "") pick(Number(box.value));
  }
  function onKey(event) { // up and down walk the list, as in a <select>
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    const at = rows.findIndex((r) => r[2] === model.get("value"));
    const next = rows[Math.min(rows.length - 1, Math.max(0, at + (event.key === "ArrowUp" ? -1 : 1)))];
    if (next) { event.preventDefault(); event.stopPropagation(); pick(next[2]); } // (not the notebook's)
  }
  if (menu) box.addEventListener("change", onChange);
  else { box.addEventListener("click", onClick); box.addEventListener("keydown", onKey); }
  // The table's board redraws on the same click: let its frame be painted first, and
  // update the list in the frame after (a person sees the board change, then the log).
  let pending = false;
  function later() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => setTimeout(() => { pending = false; drawItems(); }, 0));
  }
  model.on("change:items", later);
  model.on("change:value", later);
  model.on("change:description change:disabled change:rows", drawFrame);
  drawFrame();
  drawItems();
  return () => {
    model.off("change:items", later);
    model.off("change:value", later);
    model.off("change:description change:disabled change:rows", drawFrame);
    root.remove();
  };
}

export default { render };
