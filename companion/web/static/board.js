/* The board as SVG, drawn from a state view (never from anything secret: the view
   has no hidden card in it). Used by the table page and the phones. */
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SLOT_XY = {
  "1": [210, 100], "2": [210, 160], "3": [210, 220], "4": [210, 280], "5": [210, 340],
  "6L": [140, 410], "6R": [280, 410], "7L": [140, 480], "7R": [280, 480],
};
const DEPOSIT_XY = {
  violet: [335, 220], clear: [335, 280], yellow: [335, 340], blue: [210, 410], red: [210, 480],
};
const WEATHER_Y = { "2": 110, "1": 160, "0": 210, "-1": 260 };

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function gemShape(gem, x, y, size) {
  const s = size || 5;
  return svg("polygon", {
    points: `${x},${y - s} ${x + s},${y} ${x},${y + s} ${x - s},${y}`,
    fill: GEM_COLOURS[gem], stroke: "#222", "stroke-width": 1, class: "gem-" + gem,
  }, svg("title", {}, gemName(gem)));
}

function canoeShape(player, gem, x, y, active) {
  const g = svg("g", { class: "canoe canoe-" + player + (active ? " active" : ""), "data-player": player });
  g.append(svg("rect", {
    x: x - 17, y: y - 6, width: 34, height: 12, rx: 6, fill: COLOURS[player],
    stroke: active ? "#fff" : "#111", "stroke-width": active ? 2.5 : 1,
  }));
  if (gem) g.append(gemShape(gem, x, y, 5));
  g.append(svg("title", {}, colourName(player) + (gem ? " · " + gemName(gem) : "")));
  return g;
}

function canoesAt(state) {
  const where = {};
  for (const player of state.players) {
    for (const canoe of state.canoes[player] || []) {
      (where[canoe.at] = where[canoe.at] || []).push([player, canoe.gem]);
    }
  }
  return where;
}

function drawBoard(container, state) {
  const danger = state.danger || { slots: [], known: false };
  const where = canoesAt(state);
  const root = svg("svg", { viewBox: "0 0 420 600", role: "img", "aria-label": t("board"), class: "board-svg" });
  // water
  root.append(svg("path", {
    d: "M210 60 L210 360 L140 400 L140 520 M210 360 L280 400 L280 520",
    stroke: "#6fb7e8", "stroke-width": 64, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round",
  }));
  root.append(svg("ellipse", { cx: 210, cy: 450, rx: 36, ry: 72, fill: "#c9b47a", stroke: "#8a7a45" }));
  // dock and falls
  root.append(svg("rect", { x: 100, y: 6, width: 220, height: 52, rx: 8, fill: "#b98b5a", stroke: "#6b4a2a", class: "dock" }));
  root.append(svg("text", { x: 108, y: 20, class: "label" }, t("dock")));
  root.append(svg("rect", { x: 60, y: 530, width: 300, height: 62, rx: 8, fill: "#2b5876", class: "falls" }));
  root.append(svg("text", { x: 68, y: 544, class: "label light" }, t("falls")));
  // weather track
  root.append(svg("text", { x: 20, y: 80, class: "label" }, t("weather")));
  for (const [value, y] of Object.entries(WEATHER_Y)) {
    const here = Number(value) === state.weather;
    root.append(svg("rect", { x: 20, y: y - 20, width: 54, height: 40, rx: 6,
      fill: here ? "#fff" : "#dfe8ef", stroke: here ? "#0d3b66" : "#9ab", "stroke-width": here ? 3 : 1 }));
    root.append(svg("text", { x: 47, y: y + 6, "text-anchor": "middle", class: here ? "weather now" : "weather" },
      (Number(value) > 0 ? "+" : "") + value + (here ? " ☁" : "")));
  }
  // deposits
  for (const [deposit, [x, y]] of Object.entries(DEPOSIT_XY)) {
    const pile = (state.deposits || {})[deposit] || {};
    const g = svg("g", { class: "deposit deposit-" + deposit });
    g.append(svg("rect", { x: x - 28, y: y - 20, width: 56, height: 40, rx: 8, fill: "#f3ead8",
      stroke: GEM_COLOURS[deposit], "stroke-width": 3 }));
    let i = 0;
    for (const [gem, n] of Object.entries(pile)) {
      const gx = x - 16 + (i % 2) * 30, gy = y - 8 + Math.floor(i / 2) * 15;
      g.append(gemShape(gem, gx - 4, gy, 5));
      g.append(svg("text", { x: gx + 3, y: gy + 4, class: "count" }, n));
      i += 1;
    }
    g.append(svg("title", {}, gemName(deposit)));
    root.append(g);
  }
  // discs, with the danger zone
  for (const [slot, [x, y]] of Object.entries(SLOT_XY)) {
    const falling = danger.slots.includes(slot);
    // Red where the disc falls for every speed still possible, amber where it may.
    const sure = danger.known || (danger.certain || []).includes(slot);
    root.append(svg("circle", {
      cx: x, cy: y, r: 26, fill: "rgba(255,255,255,0.55)",
      stroke: falling ? (sure ? "#e01e37" : "#f08c00") : "#3f7fa8",
      "stroke-width": falling ? 5 : 2, "stroke-dasharray": falling && !sure ? "6 4" : null,
      class: "disc" + (falling ? " danger" : ""), "data-slot": slot,
    }));
    root.append(svg("text", { x: x - 30, y: y - 18, class: "slot-name" }, slot));
  }
  // canoes
  const active = state.to_move;
  for (const [at, list] of Object.entries(where)) {
    if (at === "D" || at === "F") {
      const [x0, y0] = at === "D" ? [130, 38] : [90, 568];
      list.forEach(([player, gem], i) => root.append(
        canoeShape(player, gem, x0 + (i % 7) * 38, y0 + Math.floor(i / 7) * 14 - (at === "D" ? 0 : 6), player === active)));
      continue;
    }
    const [x, y] = SLOT_XY[at];
    const step = list.length > 3 ? 9 : 13;
    list.forEach(([player, gem], i) => {
      const dy = (i - (list.length - 1) / 2) * step;
      root.append(canoeShape(player, gem, x + (i % 2 ? 6 : -6) * (list.length > 3 ? 1 : 0), y + dy, player === active));
    });
  }
  container.replaceChildren(root);
}

/* The LED strip: the real/simulated strip's pixels when the server sends them, else
   the same danger zone as one LED per disc (red: falls this round; amber: may fall). */
function drawLeds(container, state) {
  if (!container) return;
  let pixels = state.leds;
  const simulatedHere = !Array.isArray(pixels);
  if (simulatedHere) {
    const danger = state.danger || { slots: [] };
    pixels = Object.keys(SLOT_XY).map((slot) => danger.slots.includes(slot)
      ? (danger.known || (danger.certain || []).includes(slot) ? [224, 30, 55] : [240, 140, 0])
      : [30, 80, 140]);
  }
  const row = el("div", { class: "led-row" + (pixels.length > 40 ? " dense" : ""), role: "img", "aria-label": t("leds") });
  for (const [r, g, b] of pixels) {
    row.append(el("span", { class: "led", style: `background: rgb(${r},${g},${b}); box-shadow: 0 0 8px rgb(${r},${g},${b})` }));
  }
  container.replaceChildren(el("span", { class: "led-label" }, t("leds") + " (" + t("leds.simulated") + ")"), row);
}
