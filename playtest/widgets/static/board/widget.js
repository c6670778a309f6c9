// playtest board renderer: draws any scene (see playtest/scene.py) as SVG.
//
// An anywidget ES module with no dependencies and no build step. It knows
// nothing of any game: boards, items, what is clickable and what a click
// commits all come from the `scene_json` trait (the scene as JSON text).
// Only committed actions are sent to Python, as {type: "action", action}; a button may instead carry a table
// command ({type: "command", name, seat}: roll the dice, lift the curtain).
// While the pointer rests on something a click would commit, when a piece is
// selected (its targets) and when a menu opens (its options), the page asks
// for previews ({type: "preview", n, version, actions}); the kernel's answer
// (a custom message {type: "preview", n, scenes}: the scene each action
// leads to, or null) is drawn the moment the click commits, before the
// kernel's own redraw.
// The `curtain` trait, when it has text, hides the board behind a screen
// ("Pass to East: click when ready") until a seat is chosen. Boards carry
// their coordinates (`labels`), and `last` outlines what the last move
// touched. Every string from the scene is inserted with textContent, never
// as HTML.
//
// Part 3 of 3: the widget (its page parts, clicks, menus, previews, traits).
// It uses draw.js and scene.js, joined before it into one module by
// playtest/widgets/board.py (no build step).

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
  // zoom: "fit" (the default) draws the boards as large as the width the page gives them allows,
  // at most at their own size, stacking boards that do not fit side by side; a number is a fixed
  // scale (the boards still stack to that width, and the stage scrolls when they are wider)
  const zoomDiv = htmlEl("div", "pt-zoom", root);
  zoomDiv.setAttribute("role", "group");
  zoomDiv.setAttribute("aria-label", "Zoom");
  const zoomButtons = {};
  for (const [name, text, title] of [["out", "−", "Smaller"], ["fit", "Fit", "Fit the width there is"], ["in", "+", "Larger"]]) {
    const b = htmlEl("button", `pt-zoom-${name}`, zoomDiv);
    b.type = "button";
    b.textContent = text;
    b.title = title;
    b.dataset.zoom = name;
    zoomButtons[name] = b;
  }
  const zoomText = htmlEl("span", "pt-zoom-text", zoomDiv);
  const stage = htmlEl("div", "pt-stage", root);
  const drawing = htmlEl("div", "pt-drawing", stage); // the boards, and under them what their marks mean
  const svg = svgEl("svg", { class: "pt-svg", xmlns: SVG_NS, "data-version": "" }, drawing);
  const panelsDiv = htmlEl("div", "pt-panels", stage);
  const ruleDiv = htmlEl("div", "pt-rule", root); // the text of a rule a reason cites, below the board
  ruleDiv.setAttribute("aria-live", "polite");
  ruleDiv.hidden = true;
  const keyDiv = htmlEl("div", "pt-key", drawing); // what the board's marks mean (scene.legend)
  keyDiv.hidden = true;
  const legendDiv = htmlEl("div", "pt-legend", drawing); // says what the outline means
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
    askPreviews(options.map((option) => option.action)); // one of them comes next
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
    // the scene version the click was made on: a click that reaches the kernel after the position
    // changed (a double click, a bot's move in between) is refused there, never played on the new one
    const message = { type: "action", action: action === undefined ? null : action };
    if (typeof scene.version === "number") message.version = scene.version;
    model.send(message);
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

  // -- previews: what a click would commit (the target the pointer rests on, a selected piece's
  // targets, a menu's options), the page asks the kernel what it leads to, several actions in
  // one message ({type: "preview"}); the kernel answers with the scene of each, or null when it
  // cannot be known before the move (secrets, chance, an illegal action).
  const MAX_PREVIEWS = 64; // asked per scene version at most
  const MAX_ASKED = 16; // actions in one request at most (the kernel refuses more)
  const REST_MS = 40; // the pointer rests this long on an item before its preview is asked
  let resting = null; // the timer of that
  let previews = new Map(); // action JSON -> scene JSON ("" while asked, null: none)
  let asking = new Map(); // request number -> the actions' JSON, in order
  let previewsFor = null; // the scene version they are for
  let requests = 0;
  let previewing = false; // the board shows a preview, until the kernel's answer
  let previewsShown = 0;

  function askPreviews(list) {
    if (previewing || typeof scene.version !== "number") return;
    if (previewsFor !== scene.version) {
      previews = new Map();
      asking = new Map();
      previewsFor = scene.version;
    }
    const actions = [];
    const keys = [];
    for (const action of list) {
      if (action === undefined || actions.length >= MAX_ASKED || previews.size >= MAX_PREVIEWS) continue;
      const key = JSON.stringify(action);
      if (previews.has(key)) continue;
      previews.set(key, "");
      actions.push(action);
      keys.push(key);
    }
    if (!actions.length) return;
    requests += 1;
    asking.set(requests, keys);
    model.send({ type: "preview", n: requests, version: scene.version, actions });
  }

  function onPreview(content) {
    const keys = asking.get(content.n);
    if (keys === undefined) return; // an answer for a scene shown no more
    asking.delete(content.n);
    const scenes = Array.isArray(content.scenes) ? content.scenes : [];
    keys.forEach((key, i) => {
      if (i >= scenes.length) previews.delete(key); // not made (the kernel's time ran out): ask again later
      else previews.set(key, typeof scenes[i] === "string" ? scenes[i] : null);
    });
  }

  // the action of each of these options, when it is the only one (a click commits it)
  function onlyActions(optionsById) {
    const out = [];
    for (const options of Object.values(optionsById)) {
      const list = Array.isArray(options) ? options.filter(Boolean) : [];
      if (list.length === 1) out.push(list[0].action);
    }
    return out;
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
    const only = onlyActions({ [id]: options });
    if (only.length) resting = setTimeout(askPreviews, REST_MS, only);
  }

  function onLeave() {
    clearTimeout(resting);
  }

  function onButtonsOver(event) {
    const b = event.target && event.target.closest ? event.target.closest("button.pt-button") : null;
    const buttons = Array.isArray(scene.buttons) ? scene.buttons : [];
    const option = b ? buttons[Number(b.dataset.index)] : null;
    clearTimeout(resting);
    if (option && option.command === undefined) resting = setTimeout(askPreviews, REST_MS, [option.action]);
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
      // the kernel keeps the attempt (a playtest's rule confusions), reading the reason from its own scene
      if (!previewing && typeof scene.version === "number") model.send({ type: "refused", item: str(ids[0]), version: scene.version });
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
      askPreviews(onlyActions(targetsOf(pick))); // one of them comes next (a touch has no pointer to rest)
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
    layout();
    drawStatus();
    drawButtons();
    drawPanels();
    drawKey();
    showMessage(hint(), false);
  }

  // -- size: the drawing fits the width the page gives the board (see zoomDiv)
  const ZOOMS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2];
  let zoom = "fit";
  let laidFor = -1; // the width the drawing was laid out for
  // The widget's own box is as wide as its column (less the root's padding and a scrollbar's
  // room). It is measured by the resize observer, never read during a redraw: reading a size
  // then would make the browser lay the page out before the click's frame.
  let columnWidth = 0;
  function availableWidth() {
    return columnWidth > 0 ? Math.max(120, columnWidth - 12) : 0;
  }

  function layout() {
    const avail = availableWidth();
    laidFor = avail;
    const z = zoom === "fit" ? 1 : zoom;
    const built = buildScene(scene, svg, reuse, avail > 0 ? avail / z : Infinity);
    reuse = built.reuse;
    byId = built.byId;
    const scale = zoom === "fit" ? (avail > 0 && built.width > avail ? avail / built.width : 1) : z;
    const size = [String(round(built.width * scale)), String(round(built.height * scale))];
    const box = `0 0 ${round(built.width)} ${round(built.height)}`;
    if (svg.getAttribute("width") !== size[0]) svg.setAttribute("width", size[0]);
    if (svg.getAttribute("height") !== size[1]) svg.setAttribute("height", size[1]);
    if (svg.getAttribute("viewBox") !== box) svg.setAttribute("viewBox", box);
    svg.setAttribute("data-scale", String(round(scale)));
    // the words under the boards are as wide as the drawing (a little wider under a small one),
    // so they never push the panels away from the boards
    const keyWidth = `${Math.round(Math.max(280, built.width * scale))}px`;
    if (keyDiv.style.maxWidth !== keyWidth) keyDiv.style.maxWidth = keyWidth;
    svg.setAttribute("data-rows", String(built.rows));
    const percent = `${Math.round(scale * 100)}%`;
    zoomText.textContent = zoom === "fit" ? `fit (${percent})` : percent;
    zoomButtons.fit.classList.toggle("pt-on", zoom === "fit");
    zoomDiv.hidden = built.width === 0;
    legendDiv.hidden = built.lastMarks === 0;
    if (selected !== null && !has(selects(), selected)) selected = null;
    applySelection();
  }

  function onZoomClick(event) {
    const b = event.target.closest("button");
    if (!b) return;
    const now = zoom === "fit" ? Number(svg.getAttribute("data-scale")) || 1 : zoom;
    if (b.dataset.zoom === "fit") zoom = "fit";
    else if (b.dataset.zoom === "in") zoom = ZOOMS.find((z) => z > now + 0.01) || ZOOMS[ZOOMS.length - 1];
    else zoom = [...ZOOMS].reverse().find((z) => z < now - 0.01) || ZOOMS[0];
    closeMenu();
    layout();
  }

  // a column that got wider or narrower (the file browser opened, the window resized): lay out again
  let resized = null;
  function onResize(entries) {
    const entry = entries && entries[entries.length - 1];
    if (entry && entry.contentRect) columnWidth = entry.contentRect.width;
    if (Math.abs(availableWidth() - laidFor) < 1) return;
    cancelAnimationFrame(resized);
    resized = requestAnimationFrame(() => {
      if (Math.abs(availableWidth() - laidFor) < 1) return;
      closeMenu();
      layout();
    });
  }
  const watcher = typeof ResizeObserver === "function" ? new ResizeObserver(onResize) : null;
  if (watcher) watcher.observe(el);

  // What the board's marks mean: one small picture drawn as the board draws it, then its words.
  function drawKey() {
    const entries = Array.isArray(scene.legend) ? scene.legend : [];
    if (!changed("legend", entries)) return;
    const frag = document.createDocumentFragment();
    for (const entry of entries) {
      if (!entry || typeof entry !== "object") continue;
      const row = htmlEl("span", "pt-key-entry", frag);
      const look = entry.item && typeof entry.item === "object" ? entry.item : null;
      if (look) keySwatch(look, row);
      htmlEl("span", "pt-key-text", row).textContent = str(entry.text);
    }
    keyDiv.replaceChildren(frag);
    keyDiv.hidden = !keyDiv.childElementCount;
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

  const doc = el.ownerDocument || document;
  const listeners = [ // [target, event, handler, capture]: added now, removed with the view
    [svg, "click", onSvgClick], [svg, "mouseover", onSvgOver], [svg, "mouseleave", onLeave],
    [buttonsDiv, "click", onButtonsClick], [buttonsDiv, "mouseover", onButtonsOver],
    [buttonsDiv, "mouseleave", onLeave], [curtainDiv, "click", onCurtainClick], [zoomDiv, "click", onZoomClick],
    [doc, "keydown", onKeyDown, true],
  ];
  for (const [target, name, handler, capture] of listeners) target.addEventListener(name, handler, !!capture);
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
    cancelAnimationFrame(resized);
    if (watcher) watcher.disconnect();
    for (const [target, name, handler, capture] of listeners) target.removeEventListener(name, handler, !!capture);
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
