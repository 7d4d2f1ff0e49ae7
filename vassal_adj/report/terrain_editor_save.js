// The terrain painter's Save: the file the pack reads (docs/terrain.md), laid out as
// parse/terrain_file.py's write_terrain lays it out, from the labels the page was given.
"use strict";
(() => {
  const E = window.terrainEditorParts;
  const { D, VOC, N, LABEL, terrain, features, places, offmap, low, checked, doubt, sideChecked, sorted } = E;
  const unsure = (s, maybe) => (sideChecked.has(s) ? [] : (doubt.get(s) || []).filter((d) => !!d.feature === maybe));
  const field = (s) => (/[,"#]/.test(s) || s !== s.trim() ? `"${s.replaceAll('"', '""')}"` : s);
  const byLabel = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  function fileText() {
    const src = D.source;
    const out = ["# vassal-adj terrain file: see docs/terrain.md",
      `# painted with 'vassal-adj terrain edit' on ${src.module || "the module"}, ${src.where || "its board"}`,
      `# terrain types: ${VOC.terrain.join(" ")}`, `# hexside features: ${VOC.features.join(" ")}`,
      `# place kinds: ${VOC.place_kinds.join(" ")}`];
    const hexes = [];
    for (let i = 0; i < N; i++) if (terrain[i].length) hexes.push([LABEL[i], i]);
    if (hexes.length) {
      out.push("", "# hex,<hexes>,<terrain types>");
      for (const [lab, i] of hexes.sort(byLabel)) {
        const note = low.has(i) && !checked.has(i) ? `  # ${low.get(i)}` : "";
        out.push(`hex,${lab},${terrain[i].join(" ")}${note}`);
      }
    }
    const ends = (s) => sorted(D.sides[s].map((i) => LABEL[i]));
    const sides = [...features].map(([s, fs]) => [...ends(s), fs, s]).sort(byLabel);
    if (sides.length) {
      out.push("", "# hexside,<hex>/<hex>,<features>");
      for (const [a, b, fs, s] of sides) {
        const weak = unsure(s, false).map((d) => `  # ${d.note}`).join("");
        out.push(`hexside,${a}/${b},${fs.join(" ")}${weak}`);
      }
    }
    const kept = places.filter((p) => p && p.hexes.length);
    if (kept.length) {
      out.push("", "# place,<name>,<kinds>,<hexes>");
      for (const p of kept) {
        out.push(`place,${field(p.name)},${p.kinds.join(" ")},${p.hexes.map((i) => LABEL[i]).join(" ")}`);
      }
    }
    const off = sorted([...offmap].map((i) => LABEL[i]));
    if (off.length) {
      out.push("", "# offmap,<hexes>");
      for (let k = 0; k < off.length; k += 12) out.push(`offmap,${off.slice(k, k + 12).join(" ")}`);
    }
    // As the bootstrap writes them: the suggestions not yet looked at stay, commented out.
    const maybe = [...doubt.keys()].flatMap((s) => unsure(s, true).map((d) => [...ends(s), d])).sort(byLabel);
    if (maybe.length) {
      out.push("", "# hexsides where a little of a feature's colour was seen (uncomment the right ones)");
      for (const [a, b, d] of maybe) out.push(`# hexside,${a}/${b},${d.feature}  # ${d.note}`);
    }
    return out.join("\n") + "\n";
  }
  function save() {
    const empty = places.filter((p) => p && !p.hexes.length).map((p) => p.name);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([fileText()], { type: "text/csv" }));
    a.download = D.source.save_as || "terrain.csv";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    E.dirty = false;
    return empty.length ? `saved; place(s) with no hex left out: ${empty.join(", ")}` : "saved";
  }

  E.fileText = fileText;
  E.save = save;
  window.terrainEditor.fileText = fileText;
})();
