// The terrain painter (report/terrain_editor.py writes the page and the data this reads).
// The hex grid comes from the data: labels, centre pixels, corner offsets and hexsides were
// computed by the Python model as VASSAL places them. Nothing here derives a label from a
// position; the hex under the pointer is the one whose centre is nearest.
"use strict";
(() => {
  const D = JSON.parse(document.getElementById("editor-data").textContent);
  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const view = document.getElementById("view");
  const picture = document.getElementById("picture");
  const tools = document.getElementById("tools");
  const [W, H] = D.size;
  const N = D.hexes.length;
  const LABEL = D.hexes.map((h) => h[0]);
  const X = Float64Array.from(D.hexes, (h) => h[1]);
  const Y = Float64Array.from(D.hexes, (h) => h[2]);
  const INDEX = new Map(LABEL.map((lab, i) => [lab, i]));
  const CORNERS = D.corners;
  const RADIUS = Math.max(...CORNERS.map(([x, y]) => Math.hypot(x, y)));
  const APOTHEM = Math.hypot((CORNERS[0][0] + CORNERS[1][0]) / 2, (CORNERS[0][1] + CORNERS[1][1]) / 2);
  const VOC = D.vocabulary;
  const TINT = new Map(VOC.terrain.map((t, k) => [t, D.colours.tints[k % D.colours.tints.length]]));
  const FCOL = new Map(VOC.features.map((f, k) => [f, D.colours.features[k % D.colours.features.length]]));
  const PLACE_COLOURS = ["#ffffff", "#ffd400", "#00e5ff", "#ff4fd8", "#7dff4f", "#ff8c00", "#b388ff"];
  const SIDES = D.sides;
  const SIDES_OF = Array.from({ length: N }, () => []);
  SIDES.forEach(([a, b], s) => { SIDES_OF[a].push(s); SIDES_OF[b].push(s); });

  // -- what is painted: changed only through change(), so every step can be undone ----------
  const terrain = Array.from({ length: N }, () => []);
  D.terrain.forEach(([i, ts]) => { terrain[i] = ts; });
  const features = new Map(D.features.map(([s, fs]) => [s, fs]));
  const places = D.places.map((p) => ({ name: p.name, kinds: p.kinds, hexes: p.hexes }));  // null: deleted
  const offmap = new Set(D.offmap);
  const low = new Map(Object.entries(D.low).map(([k, note]) => [Number(k), note]));
  const checked = new Set();  // low-confidence hexes the author has painted since
  const doubt = new Map();  // hexside -> what the bootstrap said of it: [{note, feature suggested or null}]
  D.doubts.forEach(([s, note, feature]) => { doubt.set(s, [...(doubt.get(s) || []), { note, feature }]); });
  const sideChecked = new Set();  // doubtful hexsides the author has set or cleared a feature on since
  const undone = [], done = [];
  let dirty = false;

  const get = {
    hex: (i) => terrain[i], side: (s) => features.get(s) || [], off: (i) => offmap.has(i),
    place: (k) => places[k] === undefined ? null : places[k], checked: (i) => checked.has(i),
    sideChecked: (s) => sideChecked.has(s),
  };
  const put = {
    hex: (i, v) => { terrain[i] = v; },
    side: (s, v) => { if (v.length) features.set(s, v); else features.delete(s); },
    off: (i, v) => { if (v) offmap.add(i); else offmap.delete(i); },
    place: (k, v) => { places[k] = v; },
    checked: (i, v) => { if (v) checked.add(i); else checked.delete(i); },
    sideChecked: (s, v) => { if (v) sideChecked.add(s); else sideChecked.delete(s); },
  };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  function change(step, kind, key, after) {
    const before = get[kind](key);
    if (same(before, after)) return;
    put[kind](key, after);
    step.push({ kind, key, before, after });
  }
  function commit(step) {
    if (!step.length) return;
    done.push(step);
    undone.length = 0;
    dirty = true;
    refresh();
  }
  function undo() {
    const step = done.pop();
    if (!step) return;
    for (const op of [...step].reverse()) put[op.kind](op.key, op.before);
    undone.push(step);
    dirty = true;
    refresh();
  }
  function redo() {
    const step = undone.pop();
    if (!step) return;
    for (const op of step) put[op.kind](op.key, op.after);
    done.push(step);
    dirty = true;
    refresh();
  }

  // -- brushes ------------------------------------------------------------------------
  let brush = VOC.terrain.length ? { kind: "terrain", name: VOC.terrain[0] } : { kind: "none" };
  let combine = false;
  let tintAlpha = 0.3;  // light enough to read the picture under the tint
  const sorted = (xs) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const toggled = (xs, x) => (xs.includes(x) ? xs.filter((y) => y !== x) : sorted([...xs, x]));

  function paintHex(step, i, toggle, additive) {
    if (brush.kind === "terrain") {
      const after = additive ? (toggle ? toggled(terrain[i], brush.name) : sorted(new Set([...terrain[i], brush.name])))
        : [brush.name];
      change(step, "hex", i, after);
      if (low.has(i)) change(step, "checked", i, true);
    } else if (brush.kind === "none") {
      change(step, "hex", i, []);
      if (low.has(i)) change(step, "checked", i, true);
    } else if (brush.kind === "offmap") {
      change(step, "off", i, toggle ? !offmap.has(i) : true);
    } else if (brush.kind === "place" && places[brush.index]) {
      const p = places[brush.index];
      const has = p.hexes.includes(i);
      if (has && !toggle) return;
      const hexes = has ? p.hexes.filter((h) => h !== i) : [...p.hexes, i];
      change(step, "place", brush.index, { ...p, hexes });
    }
  }

  function nearestSide(i, x, y) {
    let best = -1, bd = Infinity;
    for (const s of SIDES_OF[i]) {
      const [a, b] = SIDES[s];
      const d = Math.hypot((X[a] + X[b]) / 2 - x, (Y[a] + Y[b]) / 2 - y);
      if (d < bd) { bd = d; best = s; }
    }
    return bd <= 0.6 * APOTHEM ? best : -1;
  }

  // -- the hex under a point: the nearest centre, found through a bucket grid --------------
  const CELL = Math.max(2 * RADIUS, 1);
  const buckets = new Map();
  for (let i = 0; i < N; i++) {
    const key = `${Math.floor(X[i] / CELL)},${Math.floor(Y[i] / CELL)}`;
    if (!buckets.has(key)) buckets.set(key, []);
    buckets.get(key).push(i);
  }
  function hexAt(x, y) {
    const gx = Math.floor(x / CELL), gy = Math.floor(y / CELL);
    let best = -1, bd = Infinity;
    for (let u = gx - 1; u <= gx + 1; u++) {
      for (let v = gy - 1; v <= gy + 1; v++) {
        for (const i of buckets.get(`${u},${v}`) || []) {
          const d = (X[i] - x) ** 2 + (Y[i] - y) ** 2;
          if (d < bd) { bd = d; best = i; }
        }
      }
    }
    return bd <= RADIUS * RADIUS ? best : -1;
  }

  // -- view: board pixels to screen pixels --------------------------------------------
  let scale = 1, tx = 0, ty = 0, fitScale = 1;
  let hover = -1, hoverSide = -1;
  const toWorld = (sx, sy) => [(sx - tx) / scale, (sy - ty) / scale];
  function fit() {
    const w = view.clientWidth, h = view.clientHeight;
    fitScale = scale = Math.min(w / W, h / H) || 1;
    tx = (w - W * scale) / 2;
    ty = (h - H * scale) / 2;
    redraw();
  }
  function zoomAt(sx, sy, factor) {
    const next = Math.min(Math.max(scale * factor, fitScale / 2), 8);
    tx = sx - (sx - tx) * (next / scale);
    ty = sy - (sy - ty) * (next / scale);
    scale = next;
    redraw();
  }
  function centreOn(i) {
    scale = Math.max(scale, Math.min(2, 60 / APOTHEM));
    tx = view.clientWidth / 2 - X[i] * scale;
    ty = view.clientHeight / 2 - Y[i] * scale;
    redraw();
  }

  // -- drawing: one canvas, redrawn at most once a frame, only the hexes in view -----------
  let pending = false;
  function redraw(stale) {
    if (stale) overlayStale = true;
    if (!pending) { pending = true; requestAnimationFrame(draw); }
  }
  function hexPath(path, i, k) {
    path.moveTo(X[i] + CORNERS[0][0] * k, Y[i] + CORNERS[0][1] * k);
    for (let c = 1; c < 6; c++) path.lineTo(X[i] + CORNERS[c][0] * k, Y[i] + CORNERS[c][1] * k);
    path.closePath();
  }
  // Many hexes in view at or below the picture's own scale (a whole large board): the painted layer is drawn
  // once into a board-sized bitmap and only blitted while panning and zooming; it is drawn again
  // when something is painted. Zoomed in, few hexes are in view and are drawn as vectors (sharp).
  const OVERLAY_K = Math.min(1, 4096 / Math.max(W, H, 1));
  let overlay = null, overlayStale = true, overlayScale = 1;
  const ALL = Array.from({ length: N }, (_, i) => i);
  function draw() {
    pending = false;
    const dpr = window.devicePixelRatio || 1;
    const vw = view.clientWidth, vh = view.clientHeight;
    if (canvas.width !== Math.round(vw * dpr) || canvas.height !== Math.round(vh * dpr)) {
      canvas.width = Math.round(vw * dpr);
      canvas.height = Math.round(vh * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#555";
    ctx.fillRect(0, 0, vw, vh);
    ctx.setTransform(dpr * scale, 0, 0, dpr * scale, dpr * tx, dpr * ty);
    if (picture.naturalWidth) ctx.drawImage(picture, 0, 0, W, H);
    else { ctx.fillStyle = "#e8e4d8"; ctx.fillRect(0, 0, W, H); }
    const [x0, y0] = toWorld(0, 0), [x1, y1] = toWorld(vw, vh);
    const seen = [];
    for (let i = 0; i < N; i++) {
      if (X[i] > x0 - RADIUS && X[i] < x1 + RADIUS && Y[i] > y0 - RADIUS && Y[i] < y1 + RADIUS) seen.push(i);
    }
    if (seen.length > 600 && scale * dpr <= OVERLAY_K) {
      // Lines keep their screen width: drawn again when the zoom has moved far from the one they were drawn for.
      if (overlayStale || Math.abs(Math.log(scale * dpr / overlayScale)) > Math.log(1.5)) {
        overlay = overlay || document.createElement("canvas");
        overlay.width = Math.ceil(W * OVERLAY_K);
        overlay.height = Math.ceil(H * OVERLAY_K);
        const g = overlay.getContext("2d");
        g.setTransform(OVERLAY_K, 0, 0, OVERLAY_K, 0, 0);
        overlayScale = scale * dpr;
        layer(g, ALL, overlayScale);
        overlayStale = false;
      }
      ctx.drawImage(overlay, 0, 0, W, H);
    } else {
      layer(ctx, seen, scale);
    }
    drawHover();
    drawLabels(seen, dpr);
  }
  // What is painted, on the hexes `seen`, into `g` (board pixels), lines sized for `s` pixels a board pixel.
  function layer(g, seen, s) {
    const fills = new Map(), grid = new Path2D(), off = new Path2D(), lows = new Path2D();
    for (const i of seen) {
      hexPath(grid, i, 1);
      const ts = terrain[i];
      ts.forEach((t, k) => {
        if (!fills.has(t)) fills.set(t, new Path2D());
        hexPath(fills.get(t), i, k === 0 ? 1 : 0.55 / k);
      });
      if (offmap.has(i)) {
        hexPath(off, i, 1);
        off.moveTo(X[i] - APOTHEM / 2, Y[i] - APOTHEM / 2); off.lineTo(X[i] + APOTHEM / 2, Y[i] + APOTHEM / 2);
      }
      if (low.has(i) && !checked.has(i)) {
        hexPath(lows, i, 0.88);
        const r = APOTHEM * 0.35;
        lows.moveTo(X[i] - r, Y[i] - r); lows.lineTo(X[i] + r, Y[i] + r);
        lows.moveTo(X[i] - r, Y[i] + r); lows.lineTo(X[i] + r, Y[i] - r);
      }
    }
    for (const s of doubt.keys()) {
      if (sideChecked.has(s)) continue;
      const [a, b] = SIDES[s], mx = (X[a] + X[b]) / 2, my = (Y[a] + Y[b]) / 2;
      lows.moveTo(mx + APOTHEM * 0.3, my);
      lows.arc(mx, my, APOTHEM * 0.3, 0, 2 * Math.PI);
    }
    g.globalAlpha = tintAlpha;
    for (const [t, path] of fills) { g.fillStyle = TINT.get(t) || "#888"; g.fill(path); }
    g.globalAlpha = 0.6;
    g.fillStyle = "#000";
    g.fill(off);
    g.globalAlpha = 1;
    g.lineWidth = 1 / s;
    g.strokeStyle = "rgba(0,0,0,0.45)";
    g.stroke(grid);
    drawFeatures(g, seen, s);
    drawPlaces(g, seen, s);
    g.lineWidth = Math.max(2.5 / s, APOTHEM / 12);
    g.strokeStyle = D.colours.low;
    g.stroke(lows);
  }
  function drawFeatures(g, seen, s) {
    const width = Math.max(3 / s, APOTHEM / 9);
    const paths = new Map(VOC.features.map((f) => [f, new Path2D()]));
    const shown = new Set();
    for (const i of seen) for (const side of SIDES_OF[i]) if (features.has(side)) shown.add(side);
    for (const side of shown) {
      const [a, b] = SIDES[side];
      const fs = features.get(side);
      const mx = (X[a] + X[b]) / 2, my = (Y[a] + Y[b]) / 2, dx = X[b] - X[a], dy = Y[b] - Y[a];
      const n = Math.hypot(dx, dy) || 1;
      fs.forEach((f, k) => {
        const shift = (k - (fs.length - 1) / 2) * width * 1.4;
        const ox = mx - (dy / n) * shift, oy = my + (dx / n) * shift;
        const p = paths.get(f);
        p.moveTo(ox - dx * 0.22, oy - dy * 0.22);
        p.lineTo(ox + dx * 0.22, oy + dy * 0.22);
      });
    }
    g.lineCap = "round";
    for (const [f, p] of paths) {
      g.lineWidth = width + 2 / s;
      g.strokeStyle = "#fff";
      g.stroke(p);
      g.lineWidth = width;
      g.strokeStyle = FCOL.get(f);
      g.stroke(p);
    }
    g.lineCap = "butt";
  }
  function drawPlaces(g, seen, s) {
    const inView = new Set(seen);
    places.forEach((p, k) => {
      if (!p) return;
      const path = new Path2D();
      for (const i of p.hexes) if (inView.has(i)) hexPath(path, i, 0.78);
      const chosen = brush.kind === "place" && brush.index === k;
      g.lineWidth = (chosen ? 6 : 4) / s;
      g.strokeStyle = "#000";
      g.stroke(path);
      g.lineWidth = (chosen ? 3.5 : 2) / s;
      g.strokeStyle = PLACE_COLOURS[k % PLACE_COLOURS.length];
      g.stroke(path);
    });
  }
  function drawHover() {
    if (hover < 0) return;
    const path = new Path2D();
    hexPath(path, hover, 1);
    if (hoverSide >= 0) {
      const [a, b] = SIDES[hoverSide];
      path.moveTo((X[a] + X[b]) / 2 + APOTHEM * 0.3, (Y[a] + Y[b]) / 2);
      path.arc((X[a] + X[b]) / 2, (Y[a] + Y[b]) / 2, APOTHEM * 0.3, 0, 2 * Math.PI);
    }
    // dark under light: seen on a pale board and on a dark one
    ctx.lineWidth = 4.5 / scale;
    ctx.strokeStyle = "#000";
    ctx.stroke(path);
    ctx.lineWidth = 2 / scale;
    ctx.strokeStyle = "#fff";
    ctx.stroke(path);
  }
  function drawLabels(seen, dpr) {
    const px = APOTHEM * scale;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    if (px >= 16) {
      ctx.font = `${Math.min(12, px / 3).toFixed(1)}px sans-serif`;
      ctx.lineWidth = 3;
      ctx.strokeStyle = "rgba(255,255,255,0.8)";
      ctx.fillStyle = "#000";
      for (const i of seen) {
        const sx = X[i] * scale + tx, sy = (Y[i] - APOTHEM * 0.62) * scale + ty;
        ctx.strokeText(LABEL[i], sx, sy);
        ctx.fillText(LABEL[i], sx, sy);
      }
    }
    ctx.font = "bold 12px sans-serif";
    ctx.lineWidth = 3;
    places.forEach((p) => {
      if (!p || !p.hexes.length) return;
      const i = p.hexes[0], half = ctx.measureText(p.name).width / 2 + 3;
      // kept inside the canvas: a place on the board's edge would lose half its name
      const sx = Math.min(Math.max(X[i] * scale + tx, half), view.clientWidth - half);
      const sy = (Y[i] + APOTHEM * 0.45) * scale + ty;
      ctx.strokeStyle = "#000";
      ctx.strokeText(p.name, sx, sy);
      ctx.fillStyle = "#fff";
      ctx.fillText(p.name, sx, sy);
    });
  }

  window.terrainEditor = { INDEX, X, Y, SIDES, toScreen: (x, y) => [x * scale + tx, y * scale + ty] };
  window.addEventListener("beforeunload", (e) => { if (dirty) e.preventDefault(); });
  // Used by terrain_editor_save.js (the file) and terrain_editor_ui.js (the panel, the pointer and the keys).
  window.terrainEditorParts = {
    D, VOC, TINT, FCOL, PLACE_COLOURS, LABEL, N, terrain, features, places, offmap, low, checked, doubt, sideChecked,
    done, undone,
    sorted, get dirty() { return dirty; }, set dirty(d) { dirty = d; },
    get brush() { return brush; }, set brush(b) { brush = b; redraw(true); },
    get combine() { return combine; }, set combine(c) { combine = c; },
    get tintAlpha() { return tintAlpha; }, set tintAlpha(a) { tintAlpha = a; redraw(true); },
    get hover() { return hover; }, set hover(h) { hover = h; },
    get hoverSide() { return hoverSide; }, set hoverSide(s) { hoverSide = s; },
    get view() { return { scale, tx, ty }; }, set view(v) { ({ scale, tx, ty } = v); redraw(); },
    change, commit, undo, redo, paintHex, nearestSide, hexAt, toWorld, fit, zoomAt, centreOn, redraw,
  };
  let refresh = () => redraw(true);
  window.terrainEditorParts.onChange = (r) => { refresh = r; };
  picture.addEventListener("load", () => redraw());
  tools.dataset.ready = "core";
})();
