// playtest picker: a list (or a drop-down menu) of labelled choices, for the
// table's move log and branch menu. No dependencies, no build step.
//
// `items` is JSON text, [[label, value], ...]; `value` the current choice.
// A redraw touches only the rows whose label or value changed (a move adds
// one row to a log of hundreds). A pick is sent to Python as
// {type: "pick", value}; Python checks it and sets `value`. Labels are
// inserted with textContent, never as HTML.

function parseItems(text) {
  let items;
  try { items = JSON.parse(String(text)); } catch (err) { return []; }
  if (!Array.isArray(items)) return [];
  return items.filter((it) => Array.isArray(it) && it.length === 2 && typeof it[1] === "number")
    .map((it) => [String(it[0]), it[1]]);
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
  let rows = []; // [element, label, value]

  const pick = (value) => {
    if (!model.get("disabled") && value !== model.get("value")) model.send({ type: "pick", value });
  };

  function drawItems() {
    const items = parseItems(model.get("items"));
    for (let i = 0; i < items.length; i++) {
      const [text, value] = items[i];
      let row = rows[i];
      if (!row) {
        const e = document.createElement(menu ? "option" : "div");
        if (!menu) { e.className = "pt-picker-row"; e.setAttribute("role", "option"); }
        box.appendChild(e);
        row = rows[i] = [e, null, null];
      }
      if (row[1] !== text) { row[0].textContent = text; row[1] = text; }
      if (row[2] !== value) {
        row[2] = value;
        if (menu) row[0].value = String(value); else row[0].dataset.value = String(value);
      }
    }
    for (const row of rows.splice(items.length)) row[0].remove();
    drawValue();
  }

  let current = null;
  function drawValue() {
    const value = model.get("value");
    if (menu) {
      box.value = value === null ? "" : String(value);
      return;
    }
    const row = rows.find((r) => r[2] === value);
    if (current && current !== row) {
      current[0].classList.remove("pt-current");
      current[0].removeAttribute("aria-selected");
    }
    current = row || null;
    if (!current) return;
    current[0].classList.add("pt-current");
    current[0].setAttribute("aria-selected", "true");
    const e = current[0];
    requestAnimationFrame(() => { // keep the current row in view, after this frame's layout
      if (e.offsetTop < box.scrollTop) box.scrollTop = e.offsetTop;
      else if (e.offsetTop + e.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = e.offsetTop + e.offsetHeight - box.clientHeight;
      }
    });
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
    const row = event.target.closest && event.target.closest(".pt-picker-row");
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
