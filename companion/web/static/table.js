/* The table page: board, turn, seats with their join codes, move entry, referee feed. */
"use strict";

const controls = window.PAGE.controls;
let state = null;
let moveText = "";
let branchChoice = null;   // [L/R per step] as observed, while the river is pending
let toastTimer = null;

function toast(message, bad) {
  let box = document.getElementById("toast");
  if (!box) { box = el("div", { id: "toast", class: "toast", role: "alert" }); document.body.append(box); }
  box.textContent = message;
  box.className = "toast" + (bad ? " bad" : "");
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

async function act(path, body) {
  const reply = await api(path, body || {});
  if (!reply.data.ok) {
    // A sentence first; the rule ID follows in brackets, never leads.
    toast((reply.data.error || "error") + (reply.data.hint ? " → " + reply.data.hint : "") +
      (reply.data.rule ? " (" + reply.data.rule + ")" : ""), true);
    return false;
  }
  if (reply.data.state) render(reply.data.state);
  return true;
}

function phaseText(s) { return t("phase." + s.phase); }

function renderTurn(s) {
  const box = document.getElementById("turn");
  const parts = [];
  if (s.phase === "cards") {
    const waiting = s.turn_order.filter((p) => !s.chosen.includes(p));
    parts.push(el("div", { class: "big-line" }, waiting.length ? t("waiting_for", { players: listNames(waiting) }) : t("all_chosen")));
  } else if (s.phase === "turns" && s.to_move) {
    parts.push(el("div", { class: "big-line" }, chip(s.to_move), " ", t("to_move", { player: colourName(s.to_move) })));
    parts.push(el("div", { class: "revealed-card", "data-card": String(s.cards[s.to_move]) }, cardName(s.cards[s.to_move])));
  } else if (s.phase === "river") {
    parts.push(el("div", { class: "big-line" }, t("speed") + ": ", el("strong", { class: "speed" }, s.speed)));
  }
  const facts = [el("span", {}, t("life_ring") + ": ", chip(s.start), " ", colourName(s.start))];
  if (s.speed === null && s.possible_speeds) {
    facts.push(el("span", {}, t("speed") + " — " + t("speed.possible", { list: s.possible_speeds.join(", ") })));
  }
  if (s.danger && s.danger.canoes.length) {
    facts.push(el("span", { class: s.danger.known ? "danger-text" : "" }, t("river.falls", {
      list: s.danger.canoes.map((c) => colourName(c[0]) + " (" + c[1] + ")").join(", ") })));
  }
  parts.push(el("div", { class: "facts" }, facts));
  box.replaceChildren(...parts);
}

function renderSeats(s) {
  const box = document.getElementById("seats");
  const rows = s.turn_order.map((p) => {
    // Only this round's revealed card is shown: in phase I nothing is face up yet (last
    // round's card beside "card down" read as if a secret were on the shared screen).
    const card = s.phase !== "cards" && s.cards[p] !== undefined ? s.cards[p] : null;
    const row = el("div", { class: "seat" + (p === s.to_move ? " to-move" : ""), "data-player": p },
      el("div", { class: "seat-name" }, chip(p), " ", colourName(p), p === s.start ? el("span", { class: "ring", title: t("life_ring") }) : null),
      el("div", { class: "seat-status" },
        s.joined.includes(p) ? el("span", { class: "ok" }, "✓ " + t("joined")) : null,
        s.phase === "cards" ? el("span", { class: s.chosen.includes(p) ? "ok" : "muted" },
          s.chosen.includes(p) ? "▮ " + t("chosen") : "… " + t("not_chosen")) : null,
        card !== null ? el("span", { class: "card-face" }, cardName(card)) : null,
        s.must_buy_back.includes(p) ? el("span", { class: "warn-text" }, t("buyback.title")) : null),
      el("div", { class: "seat-camp" }, t("camp") + ": ",
        (s.camps[p] || []).length ? s.camps[p].map(gemIcon) : el("span", { class: "muted" }, t("empty"))));
    const join = (s.join || {})[p];
    if (controls && join) {
      row.append(el("a", { class: "qr", href: join.url, "data-join": join.url, title: t("scan_to_join") },
        el("img", { src: join.qr, alt: t("scan_to_join") + " — " + colourName(p) }),
        el("span", {}, t("scan_to_join"))));
    } else if (controls && s.joined.includes(p)) {
      row.append(el("button", { type: "button", class: "small", onclick: () => act("/api/table/seat", { player: p }) }, t("new_phone")));
    }
    return row;
  });
  box.replaceChildren(...rows);
}

function renderActions(s) {
  const box = document.getElementById("actions");
  if (!box) return;
  const focused = document.activeElement && document.activeElement.id === "move-text";
  const parts = [];
  if (s.phase === "cards") {
    parts.push(el("button", { type: "button", id: "reveal", class: "big primary", disabled: Boolean(s.reveal_blocker),
      onclick: () => act("/api/table/reveal") }, t("reveal")));
    if (s.reveal_blocker) parts.push(el("p", { class: "muted" }, t("reveal_wait")));
  } else if (s.phase === "turns" && s.to_move) {
    parts.push(el("h2", {}, t("enter_move", { player: colourName(s.to_move) })));
    const input = el("input", { id: "move-text", type: "text", autocomplete: "off", autocapitalize: "none",
      spellcheck: "false", placeholder: t("filter"), value: moveText });
    const list = el("div", { id: "legal", class: "legal" });
    const fill = () => fillMoves(list, input, s);
    input.addEventListener("input", () => { moveText = input.value; fill(); });
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") play(); });
    const play = async () => {
      if (!input.value.trim()) return;
      if (await act("/api/table/turn", { move: input.value.trim() })) moveText = "";
    };
    parts.push(el("div", { class: "row" }, input, el("button", { type: "button", id: "play", class: "primary", onclick: play }, t("play"))));
    parts.push(el("p", { class: "muted" }, t("legal_count", { n: s.legal_count })));
    parts.push(list);
    fill();
    if (focused) setTimeout(() => input.focus(), 0);
  } else if (s.phase === "river") {
    const steps = s.speed || 0;
    if (!branchChoice || branchChoice.length !== steps || branchChoice.version !== s.version) {
      branchChoice = (s.danger.branches || []).slice();
      branchChoice.version = s.version;
    }
    const toggles = el("div", { class: "row branches" }, branchChoice.map((b, i) => el("button", {
      type: "button", class: "branch", "data-step": i,
      onclick: () => { branchChoice[i] = branchChoice[i] === "L" ? "R" : "L"; renderActions(state); },
    }, (i + 1) + ": " + (b === "L" ? "↙ " + t("left") : t("right") + " ↘"))));
    if (steps > 0) parts.push(el("p", {}, t("river.branches")), toggles);
    parts.push(el("button", { type: "button", id: "river", class: "big primary",
      onclick: () => act("/api/table/river", { branches: branchChoice.slice() }) }, t("river.move", { n: steps })));
  } else if (s.phase === "over") {
    parts.push(el("button", { type: "button", class: "big primary", onclick: openNewGame }, t("new_game")));
  }
  box.replaceChildren(...parts);
}

/* The move picker: the legal moves in words in the page's language, the most wanted
   first (the server ranks them: gems landed or loaded with canoes kept safe first,
   trips over the falls last), each with its notation; typing filters by either. */
function fillMoves(list, input, s) {
  const moves = s.moves || s.legal.map((m) => ({ move: m, words: "" }));
  const q = input.value.trim().toLowerCase();
  const shown = moves.filter((m) => m.move.toLowerCase().includes(q) || m.words.toLowerCase().includes(q)).slice(0, 80);
  list.replaceChildren(...shown.map((m) => el("button", {
    type: "button", class: "move" + (m.move === input.value ? " picked" : ""), "data-move": m.move,
    onclick: () => { input.value = m.move; moveText = m.move; fillMoves(list, input, s); },
  }, m.words ? el("span", { class: "move-words" }, m.words) : null, " ", el("code", { class: "move-code" }, m.move))));
}

function renderFeed(s) {
  const list = document.getElementById("feed");
  list.replaceChildren(...s.feed.slice().reverse().map((entry) => {
    const item = feedItem(entry);
    const answers = questionAnswers(entry, s);
    if (answers) item.append(answers);
    return item;
  }));
}

/* A camera question still open (the game stands where it was asked): one button per
   choice, so the players tap what they did instead of typing it. */
function questionAnswers(entry, s) {
  if (!Array.isArray(entry.answers) || !entry.answers.length || entry.events !== s.events) return null;
  const river = s.phase === "river";
  const usable = entry.answers.filter((a) => (river ? a.steps !== undefined : typeof a.move === "string"));
  if (!usable.length || (!river && s.phase !== "turns")) return null;
  return el("div", { class: "answers" }, el("span", {}, t("camera.which")), usable.map((a) => el("button", {
    type: "button", class: "answer",
    onclick: () => (river ? act("/api/table/river", { steps: a.steps, branches: a.branches })
      : act("/api/table/turn", { move: a.move })),
  }, river ? t("river.move", { n: a.steps }) + (a.branches || []).map((b) => (b === "L" ? " ↙" : " ↘")).join("")
    : [a.words ? el("span", { class: "move-words" }, a.words) : null, " ", el("code", { class: "move-code" }, a.move)])));
}

function render(s) {
  if (isOlder(s, state)) return; // an older reply
  state = s;
  if (s.game === null) {
    document.getElementById("turn").replaceChildren(el("p", {}, t("no_game")));
    document.getElementById("board").replaceChildren();
    if (controls && !document.getElementById("new-game").open) { openNewGame(); setupOpenedForNoGame = true; }
    return;
  }
  // A game started elsewhere (another table page, `companion serve --players`): the
  // setup this page opened by itself for "no game" is no longer wanted.
  const setup = document.getElementById("new-game");
  if (setup && setup.open && setupOpenedForNoGame) setup.close();
  setupOpenedForNoGame = false;
  document.getElementById("round").textContent = t("round", { n: s.round });
  document.getElementById("phase").textContent = phaseText(s);
  const win = document.getElementById("winners");
  win.hidden = !s.winners.length;
  win.textContent = s.winners.length ? "★ " + t("winners", { players: listNames(s.winners) }) : "";
  drawBoard(document.getElementById("board"), s);
  drawLeds(document.getElementById("leds"), s);
  drawCamera(document.getElementById("camera"), s.camera);
  renderTurn(s);
  renderSeats(s);
  renderActions(s);
  renderFeed(s);
  const log = document.getElementById("log-link");
  if (log) log.hidden = s.phase === "turns";
}

/* -- new game ------------------------------------------------------------------- */
let setupOrder = [];
let setupOpenedForNoGame = false;

function renderSetup() {
  const picks = document.getElementById("setup-colours");
  picks.replaceChildren(...window.PAGE.colours.map((c) => el("button", {
    type: "button", class: "colour-pick" + (setupOrder.includes(c) ? " picked" : ""), "data-colour": c,
    style: "--c:" + COLOURS[c], onclick: () => {
      setupOrder = setupOrder.includes(c) ? setupOrder.filter((x) => x !== c) : setupOrder.concat(c);
      renderSetup();
    },
  }, colourName(c))));
  document.getElementById("setup-order").replaceChildren(...setupOrder.map((c) => el("li", {}, chip(c), " ", colourName(c))));
  const start = document.getElementById("setup-start");
  const keep = start.value;
  start.replaceChildren(...setupOrder.map((c) => el("option", { value: c, selected: c === keep }, colourName(c))));
  document.getElementById("setup-go").disabled = setupOrder.length < 3 || setupOrder.length > 5;
}

function openNewGame() {
  const dialog = document.getElementById("new-game");
  if (!dialog) return;
  setupOrder = state && state.game !== null ? state.players.slice() : [];
  document.getElementById("setup-error").hidden = true;
  renderSetup();
  if (!dialog.open) dialog.showModal();
}

async function startGame() {
  if (state && state.game !== null && state.phase !== "over" && !window.confirm(t("confirm_new"))) return;
  const variants = [...document.querySelectorAll("input[name=variant]:checked")].map((i) => i.value);
  const reply = await api("/api/table/new", {
    players: setupOrder, start: document.getElementById("setup-start").value || setupOrder[0],
    branch: document.getElementById("setup-branch").value, variants,
  });
  if (!reply.data.ok) {
    const box = document.getElementById("setup-error");
    box.textContent = reply.data.error; box.hidden = false;
    return;
  }
  document.getElementById("new-game").close();
  setupOpenedForNoGame = false;
  render(reply.data.state);
}

if (controls) {
  document.getElementById("new-game-open").addEventListener("click", openNewGame);
  document.getElementById("setup-go").addEventListener("click", startGame);
  document.getElementById("setup-cancel").addEventListener("click", () => document.getElementById("new-game").close());
  document.getElementById("undo").addEventListener("click", () => act("/api/table/undo"));
}
setLanguageSelect((lang) => { window.location.search = "?lang=" + lang; });
live("/stream/table", render);

/* What the camera is doing (companion.camera status), in the page's language. */
function drawCamera(box, camera) {
  if (!box) return;
  box.hidden = !camera;
  if (!camera) return;
  const source = camera.source === "simulated" ? t("camera.simulated") : camera.source;
  const known = "camera." + camera.state;
  // (a place is named as on the board; the deposits and the cloud's track in words)
  const part = (name) => ("camera." + name) in S ? t("camera." + name) : name;
  const state = !(known in S) ? camera.state
    : camera.over ? t(known, { places: camera.over.length ? camera.over.map(part).join(", ")
                                                          : t("camera.the board") })
    : t(known);
  box.replaceChildren(t("feed.camera") + " (" + source + "): " + state);
  if (camera.calibrate && controls) {
    box.append(" ", el("button", { type: "button", id: "calibrate", onclick: calibrate,
      disabled: calibrating }, t(calibrating ? "camera.calibrating" : "camera.calibrate")));
  }
}

/* A photo of the game's own setup teaches the camera this table's colours. */
let calibrating = false;
async function calibrate() {
  calibrating = true;
  if (state) drawCamera(document.getElementById("camera"), state.camera);
  try {
    if (await act("/api/table/calibrate")) toast(t("camera.calibrated"), false);
  } finally {
    calibrating = false;
    if (state) drawCamera(document.getElementById("camera"), state.camera);
  }
}
