/* Shared by every page: words, names, DOM building, JSON calls, the live stream. */
"use strict";

const S = window.PAGE.strings;

/* A page string filled with `values`. A string with plural forms ("1 move|{n} moves";
   Russian and Polish one|few|many) gives the form values.n needs in the page's language. */
function t(key, values) {
  let text = S[key] !== undefined ? S[key] : key;
  if (text.includes("|")) {
    const forms = text.split("|");
    const n = Number(values && values.n);
    const kind = Number.isFinite(n) ? new Intl.PluralRules(window.PAGE.lang).select(n) : "other";
    const index = { one: 0, few: 1, many: 2 }[kind];
    text = forms[Math.min(index === undefined ? forms.length - 1 : index, forms.length - 1)];
  }
  for (const [name, value] of Object.entries(values || {})) {
    text = text.split("{" + name + "}").join(String(value));
  }
  return text;
}

const COLOURS = {
  brown: "#73462a", yellow: "#ebc323", red: "#c32323", blue: "#234bb9", green: "#289141",
};
const GEM_COLOURS = {
  red: "#d71946", blue: "#285ae6", clear: "#e6ebf0", yellow: "#faaf0a", violet: "#8737a5",
};

const colourName = (c) => t("colour." + c);
const gemName = (g) => t("gem." + g);
const cardName = (c) => (c === "cloud" ? "☁ " + t("cloud") : String(c));
const listNames = (players) => players.map(colourName).join(", ");

function placeName(at) {
  if (at === "D") return t("at.D");
  if (at === "F") return t("at.F");
  return t("at.slot", { slot: at });
}

/* el("div", {class: "x", onclick: f}, child, "text", ...) */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function chip(colour) {
  return el("span", { class: "chip", style: "background:" + COLOURS[colour] });
}

function gemIcon(gem) {
  return el("span", { class: "gem", title: gemName(gem), style: "background:" + GEM_COLOURS[gem] });
}

async function api(path, body) {
  const options = body === undefined ? { credentials: "same-origin" } : {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    return { status: 0, data: { ok: false, error: t("reconnecting") } };
  }
  let data = {};
  try { data = await response.json(); } catch (err) { data = { ok: false, error: response.statusText }; }
  return { status: response.status, data };
}

/* Is `s` an older state than `current`? Only within one server run and one game: after
   a restart the server's change counter starts again at 1, and its state is the truth. */
function isOlder(s, current) {
  return Boolean(current) && s.server === current.server && s.game === current.game &&
    s.version < current.version;
}

/* One live stream with reconnection: EventSource retries by itself on network loss;
   a closed stream (server said no, or the phone slept long) is reopened when the page
   becomes visible again, and every (re)connection starts with the whole state. */
function live(path, onState, onClosed) {
  const banner = document.getElementById("offline");
  let source = null;
  let retryTimer = null;
  function open() {
    if (source) source.close();
    source = new EventSource(path);
    source.addEventListener("state", (ev) => {
      banner.hidden = true;
      onState(JSON.parse(ev.data));
    });
    source.addEventListener("logout", () => { source.close(); onClosed && onClosed(401); });
    source.onerror = () => {
      banner.hidden = false;
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(retryTimer);
        retryTimer = setTimeout(check, 3000);
      }
    };
  }
  async function check() {
    const probe = await api(path.replace("/stream/", "/api/"));
    if (probe.status === 401 || probe.status === 403) { onClosed && onClosed(probe.status); return; }
    open();
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && (!source || source.readyState === EventSource.CLOSED)) open();
  });
  window.addEventListener("online", () => { if (!source || source.readyState !== EventSource.OPEN) open(); });
  open();
  return { reopen: open };
}

function setLanguageSelect(onChange) {
  const select = document.getElementById("lang");
  if (!select) return;
  select.addEventListener("change", () => onChange(select.value));
}

/* A referee feed entry as one line of text (page language). */
function feedText(entry) {
  switch (entry.kind) {
    case "new-game": return t("feed.new-game", { players: listNames(entry.players || []) });
    case "join": return t("feed.join", { player: colourName(entry.player) });
    case "reveal": return t("feed.reveal", { player: colourName(entry.player), card: cardName(entry.card) });
    case "turn": return t("feed.turn", { player: colourName(entry.player), text: entry.text });
    case "river": return entry.ok ? t("feed.river", { n: entry.steps }) +
      (entry.fell || []).map((f) => " · " + t("feed.fell", { player: colourName(f[0]) })).join("") : t("river.move", { n: "?" });
    case "buyback": return t("feed.buyback", { player: colourName(entry.player) });
    case "undo": return t("feed.undo") + (entry.text ? ": " + colourName(entry.player) + " " + entry.text : "");
    case "over": return t("feed.over") + ": " + t("winners", { players: listNames(entry.winners || []) });
    case "camera": return t("feed.camera") + (entry.ok ? ": " + entry.message : "");
    default: return entry.kind;
  }
}

function feedHint(entry) {
  if (entry.hint === "retry") return t("hint.retry", { example: entry.example });
  if (entry.hint === "other") return t("hint.other", { player: colourName(entry.to_move) });
  if (entry.hint === "river") return t("hint.river");
  if (entry.hint === "wait") return t("hint.wait");
  return "";
}

function feedItem(entry) {
  const item = el("li", { class: entry.ok ? "ok" : "illegal" }, feedText(entry));
  if (!entry.ok) {
    item.append(el("div", { class: "verdict" },
      el("strong", { class: "rule" }, entry.rule || ""), " ",
      entry.title ? el("em", {}, entry.title + (entry.message ? ": " : "")) : null, entry.message || ""));
    const what = [entry.rule_hint, feedHint(entry)].filter(Boolean).join(" ");
    if (what) item.append(el("div", { class: "what-to-do" }, "→ " + what));
  }
  return item;
}
