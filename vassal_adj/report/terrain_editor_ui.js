// The terrain painter's panel and pointer (terrain_editor.js holds the map and the drawing,
// terrain_editor_save.js the file).
// One listener per kind of event on the panel and one set on the canvas (event delegation), so a
// board of thousands of hexes adds no listeners.
"use strict";
(() => {
  const E = window.terrainEditorParts;
  const { D, VOC, TINT, FCOL, PLACE_COLOURS, LABEL, N, terrain, features, places, offmap, low, checked, doubt,
    sideChecked } = E;
  const tools = document.getElementById("tools");
  const canvas = document.getElementById("board");
  const statusLine = document.getElementById("status");
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const src = D.source;

  tools.innerHTML = `
    <p class="muted">${esc(src.module || "")}${src.where ? ", " + esc(src.where) : ""}<br>
      started from: ${esc(src.terrain || "nothing (an empty map)")}</p>
    <div class="row"><button id="undo" title="Ctrl+Z">Undo</button><button id="redo" title="Ctrl+Y">Redo</button>
      <button id="fit">Fit board</button><button id="save" title="Ctrl+S">Save ${esc(src.save_as || "terrain.csv")}</button></div>
    <div id="message"></div>
    <h2>Hex terrain</h2>
    <div class="brushes">${VOC.terrain.map((t) => `<button data-brush="terrain" data-name="${esc(t)}">
      <span class="swatch" style="background:${TINT.get(t)}"></span>${esc(t)}</button>`).join("")}
      <button data-brush="none" title="Remove the hex's terrain">no terrain</button></div>
    <label class="row small"><input type="checkbox" id="combine">add or remove the type, keep the others (Ctrl+click)</label>
    <label class="row small">tint <input type="range" id="tint" min="0" max="0.9" step="0.05" value="${E.tintAlpha}"></label>
    <h2>Hexside features</h2>
    <div class="brushes">${VOC.features.map((f) => `<button data-brush="feature" data-name="${esc(f)}">
      <span class="bar" style="background:${FCOL.get(f)}"></span>${esc(f)}</button>`).join("") ||
      '<span class="muted">the pack names none</span>'}</div>
    <p class="muted">Click near the middle of a hexside to set or clear the feature there.</p>
    <h2>Places</h2>
    <div class="brushes" id="places"></div>
    <div id="place-kinds" class="kinds"></div>
    <div class="row"><input type="text" id="place-name" placeholder="new place: name"></div>
    <div class="kinds" id="new-kinds">${VOC.place_kinds.map((k) => `<label><input type="checkbox" value="${esc(k)}">
      ${esc(k)}</label>`).join("")}</div>
    <div class="row"><button id="add-place">Add place</button><button id="delete-place">Delete place</button></div>
    <h2>Off the playing area</h2>
    <div class="brushes"><button data-brush="offmap">off map</button></div>
    <h2>Check</h2>
    <div id="counts"></div>
    <div class="row"><button id="next-low">Next to check</button></div>
    <p class="muted">Click: paint the hex (or hexside). Shift+drag: paint many hexes. Drag: move the board.
      Wheel: zoom. Magenta X: the draft's low-confidence hexes, until painted; magenta ring:
      a doubtful hexside, until a feature is set or cleared there.</p>`;
  const $ = (id) => document.getElementById(id);

  function placeButtons() {
    $("places").innerHTML = places.map((p, k) => (p ? `<button data-brush="place" data-index="${k}">
      <span class="swatch" style="background:${PLACE_COLOURS[k % PLACE_COLOURS.length]}"></span>${esc(p.name)}
      <span class="muted">(${p.hexes.length})</span></button>` : "")).join("") || '<span class="muted">none yet</span>';
    const b = E.brush, p = b.kind === "place" ? places[b.index] : null;
    $("place-kinds").innerHTML = p ? `<span class="muted">kinds of ${esc(p.name)}:</span> ` + VOC.place_kinds.map((k) =>
      `<label><input type="checkbox" data-kind="${esc(k)}" ${p.kinds.includes(k) ? "checked" : ""}>${esc(k)}</label>`)
      .join("") : "";
    $("delete-place").disabled = !p;
  }
  function highlight() {
    const b = E.brush;
    for (const el of tools.querySelectorAll("[data-brush]")) {
      const on = el.dataset.brush === b.kind && (el.dataset.name === undefined || el.dataset.name === b.name) &&
        (el.dataset.index === undefined || Number(el.dataset.index) === b.index);
      el.classList.toggle("on", on);
    }
  }
  function counts() {
    const painted = terrain.filter((ts) => ts.length).length;
    const left = [...low.keys()].filter((i) => !checked.has(i)).length;
    const sides = [...doubt.keys()].filter((s) => !sideChecked.has(s)).length;
    $("counts").textContent = `${painted} of ${N} hexes have terrain; ${features.size} hexsides have features; ` +
      `${left} low-confidence hex(es) and ${sides} doubtful hexside(s) to check`;
    $("next-low").disabled = !left && !sides;
  }
  function refresh() {
    $("undo").disabled = !E.done.length;
    $("redo").disabled = !E.undone.length;
    placeButtons();
    highlight();
    counts();
    E.redraw(true);
  }
  const message = (text) => { $("message").textContent = text; };
  E.onChange(refresh);

  // -- the panel: one click listener for every button ------------------------------------
  tools.addEventListener("click", (e) => {
    const el = e.target.closest("button");
    if (!el) return;
    message("");
    if (el.dataset.brush) {
      const k = el.dataset.index === undefined ? undefined : Number(el.dataset.index);
      E.brush = { kind: el.dataset.brush, name: el.dataset.name, index: k };
      refresh();
    } else if (el.id === "undo") E.undo();
    else if (el.id === "redo") E.redo();
    else if (el.id === "fit") E.fit();
    else if (el.id === "save") message(E.save());
    else if (el.id === "add-place") addPlace();
    else if (el.id === "delete-place") deletePlace();
    else if (el.id === "next-low") nextLow();
  });
  tools.addEventListener("input", (e) => { if (e.target.id === "tint") E.tintAlpha = Number(e.target.value); });
  tools.addEventListener("change", (e) => {
    const el = e.target;
    if (el.id === "combine") E.combine = el.checked;
    else if (el.dataset.kind && E.brush.kind === "place") {
      const p = places[E.brush.index];
      const kinds = el.checked ? [...p.kinds, el.dataset.kind].sort() : p.kinds.filter((k) => k !== el.dataset.kind);
      if (!kinds.length) { el.checked = true; message("a place needs at least one kind"); return; }
      const step = [];
      E.change(step, "place", E.brush.index, { ...p, kinds });
      E.commit(step);
    }
  });
  function addPlace() {
    const name = $("place-name").value.trim();
    const kinds = [...$("new-kinds").querySelectorAll("input:checked")].map((el) => el.value).sort();
    if (!name || /[\r\n]/.test(name)) return message("give the place a name (one line)");
    if (places.some((p) => p && p.name === name)) return message(`there is already a place '${name}'`);
    if (!kinds.length) return message("tick at least one kind for the place");
    const step = [];
    E.change(step, "place", places.length, { name, kinds, hexes: [] });
    E.brush = { kind: "place", index: places.length - 1 };
    E.commit(step);
    $("place-name").value = "";
    for (const el of $("new-kinds").querySelectorAll("input")) el.checked = false;
    message(`click the hexes of '${name}', in order`);
  }
  function deletePlace() {
    const step = [];
    E.change(step, "place", E.brush.index, null);
    E.brush = VOC.terrain.length ? { kind: "terrain", name: VOC.terrain[0] } : { kind: "none" };
    E.commit(step);
  }
  // The next thing the bootstrap doubted: low-confidence hexes in label order, then hexsides.
  let lowAt = -1;
  function nextLow() {
    const left = [...low.keys()].filter((i) => !checked.has(i)).sort((a, b) => a - b)
      .concat([...doubt.keys()].filter((s) => !sideChecked.has(s)).sort((a, b) => a - b).map((s) => N + s));
    if (!left.length) return;
    lowAt = left.find((k) => k > lowAt) ?? left[0];
    E.centreOn(lowAt < N ? lowAt : D.sides[lowAt - N][0]);
  }

  // -- the board: click paints, Shift+drag paints many hexes, drag pans, wheel zooms ------------
  const point = (e) => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  let drag = null;
  function describe(i) {
    if (i < 0) return "";
    const bits = [LABEL[i], terrain[i].join(" ") || "no terrain"];
    if (offmap.has(i)) bits.push("off map");
    for (const p of places) if (p && p.hexes.includes(i)) bits.push(`${p.name} (${p.kinds.join(" ")})`);
    if (E.hoverSide >= 0) {
      const [a, b] = D.sides[E.hoverSide];
      bits.push(`hexside ${LABEL[a]}/${LABEL[b]}: ${(features.get(E.hoverSide) || []).join(" ") || "no feature"}`);
      if (!sideChecked.has(E.hoverSide)) {
        for (const d of doubt.get(E.hoverSide) || []) bits.push(d.feature ? `${d.feature}? ${d.note}` : d.note);
      }
    }
    if (low.has(i) && !checked.has(i)) bits.push(low.get(i));
    return bits.join(" · ");
  }
  function track(e) {
    const [x, y] = E.toWorld(...point(e));
    const i = E.hexAt(x, y);
    const s = i >= 0 && E.brush.kind === "feature" ? E.nearestSide(i, x, y) : -1;
    if (i !== E.hover || s !== E.hoverSide) {
      E.hover = i;
      E.hoverSide = s;
      statusLine.textContent = describe(i);
      E.redraw();
    }
    return [i, x, y];
  }
  function click(e) {
    const [i, x, y] = track(e);
    if (i < 0) return;
    const step = [];
    if (E.brush.kind === "feature") {
      const s = E.nearestSide(i, x, y);
      if (s < 0) return message("click nearer the middle of a hexside to set a feature");
      const fs = features.get(s) || [];
      const after = fs.includes(E.brush.name) ? fs.filter((f) => f !== E.brush.name) : [...fs, E.brush.name].sort();
      E.change(step, "side", s, after);
      if (doubt.has(s)) E.change(step, "sideChecked", s, true);
    } else {
      E.paintHex(step, i, true, E.combine || e.ctrlKey || e.metaKey);
    }
    E.commit(step);
    statusLine.textContent = describe(i);
  }
  canvas.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    canvas.setPointerCapture(e.pointerId);
    const [sx, sy] = point(e);
    const paints = e.shiftKey && E.brush.kind !== "feature";
    drag = { sx, sy, view: E.view, moved: false, paints, step: [], seen: new Set() };
    message("");
    if (paints) sweep(e);
  });
  function sweep(e) {
    const [i] = track(e);
    if (i < 0 || drag.seen.has(i)) return;
    drag.seen.add(i);
    E.paintHex(drag.step, i, false, E.combine || e.ctrlKey || e.metaKey);
    E.redraw(true);
  }
  canvas.addEventListener("pointermove", (e) => {
    if (!drag) return void track(e);
    if (drag.paints) return sweep(e);
    const [sx, sy] = point(e);
    if (!drag.moved && Math.hypot(sx - drag.sx, sy - drag.sy) < 5) return;
    drag.moved = true;
    canvas.classList.add("panning");
    E.view = { scale: drag.view.scale, tx: drag.view.tx + sx - drag.sx, ty: drag.view.ty + sy - drag.sy };
  });
  canvas.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    canvas.classList.remove("panning");
    if (d.paints) E.commit(d.step);
    else if (!d.moved) click(e);
  });
  canvas.addEventListener("pointerleave", () => {
    if (drag) return;
    E.hover = -1;
    E.hoverSide = -1;
    statusLine.textContent = "";
    E.redraw();
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    E.zoomAt(...point(e), Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)));
  }, { passive: false });
  window.addEventListener("keydown", (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (e.target.tagName === "INPUT" && e.target.type === "text") return;
    if (mod && e.key.toLowerCase() === "z" && !e.shiftKey) { e.preventDefault(); E.undo(); }
    else if (mod && (e.key.toLowerCase() === "y" || (e.key.toLowerCase() === "z" && e.shiftKey))) {
      e.preventDefault();
      E.redo();
    } else if (mod && e.key.toLowerCase() === "s") { e.preventDefault(); message(E.save()); }
  });
  window.addEventListener("resize", () => E.redraw());
  E.fit();
  refresh();
  tools.dataset.ready = "yes";
})();
