/* A player's phone: the secret hand, the card choice, buy-backs, own canoes and camp. */
"use strict";

let state = null;
// The seat's colour behind the header's text: green is darkened so white text on it
// reads at 4.5:1 or better (WCAG AA); the others already do (yellow takes dark text).
const HEAD_COLOURS = { green: "#1e7032" };
let picked = null;   // the card tapped but not yet laid down

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function act(path, body) {
  const reply = await api(path, body || {});
  if (reply.status === 401) return loggedOut();
  if (!reply.data.ok) { showError(reply.data.error); return false; }
  showError("");
  render(reply.data.state);
  return true;
}

function loggedOut() {
  document.getElementById("logged-out").hidden = false;
  for (const id of ["status", "buyback", "choice", "hand-panel", "mine", "board-panel", "last-verdict", "confirm-bar"]) {
    document.getElementById(id).hidden = true;
  }
  document.getElementById("offline").hidden = true;
}

function renderStatus(s, me) {
  const parts = [el("span", { class: "pill" }, t("round", { n: s.round })), " ", el("span", {}, t("phase." + s.phase))];
  if (s.phase === "turns" && s.to_move && s.to_move !== me) {
    parts.push(el("div", {}, chip(s.to_move), " ", t("to_move", { player: colourName(s.to_move) }),
      s.cards[s.to_move] !== undefined ? " — " + t("card.revealed", { card: cardName(s.cards[s.to_move]) }) : ""));
  }
  if (s.speed !== null && s.speed !== undefined) parts.push(el("div", {}, t("speed") + ": ", el("strong", {}, s.speed)));
  document.getElementById("status").replaceChildren(...parts);
}

function renderBuyback(s) {
  const box = document.getElementById("buyback");
  const b = s.buyback;
  box.hidden = !(s.phase === "cards" && b && b.fallen > 0);
  if (box.hidden) return;
  const buttons = b.gems.map((gem) => el("button", { type: "button", class: "big", "data-gem": gem,
    onclick: () => act("/api/phone/buyback", { gem }) }, gemIcon(gem), " ", t("buyback.pay." + gem)));
  if (b.free) buttons.push(el("button", { type: "button", class: "big primary", "data-gem": "free",
    onclick: () => act("/api/phone/buyback", { gem: null }) }, t("buyback.free")));
  box.className = "card-panel" + (b.must ? " warn" : "");
  box.replaceChildren(el("h2", {}, t("buyback.title")), el("p", {}, b.must ? t("buyback.must") : t("buyback.may")), ...buttons);
}

function renderChoice(s, me) {
  const box = document.getElementById("choice");
  const parts = [];
  if (s.phase === "over") {
    // The end of the game, big: who won, not a status line under the card.
    parts.push(el("p", { class: "big-line winner", role: "status" },
      "★ " + t("winners", { players: listNames(s.winners) })));
    parts.push(el("p", {}, t("game_over")));
  } else if (s.phase === "cards") {
    if (s.choice !== null && s.choice !== undefined) {
      parts.push(el("p", { class: "big-line" }, t("card_down", { card: cardName(s.choice) })));
      const everyone = s.chosen.length === s.turn_order.length;
      if (me === s.start && everyone && !s.reveal_blocker) {
        parts.push(el("p", {}, t("you_reveal")));
        parts.push(el("button", { type: "button", id: "reveal", class: "big primary", onclick: () => act("/api/phone/reveal") }, t("reveal")));
      } else {
        const waiting = s.turn_order.filter((p) => !s.chosen.includes(p));
        if (waiting.length) parts.push(el("p", { class: "muted" }, t("waiting_for", { players: listNames(waiting) })));
        else parts.push(el("p", { class: "muted" }, t("reveal_wait")));
      }
      parts.push(el("p", { class: "hint" }, t("can_change")));
      parts.push(el("button", { type: "button", id: "withdraw", class: "small", onclick: () => act("/api/phone/withdraw") }, t("take_back")));
    }
  } else if (s.cards[me] !== undefined) {
    if (s.phase === "turns" && s.to_move === me) {
      // Where to move: on the board; the camera reads it, or it is picked at the table.
      const where = s.camera_watching ? "your_turn.camera" : "your_turn.table";
      parts.push(el("p", { class: "big-line your-turn" }, t(where, { card: cardName(s.cards[me]) })));
    } else {
      parts.push(el("p", {}, t("locked", { card: cardName(s.cards[me]) })));
    }
  }
  box.hidden = !parts.length;
  box.replaceChildren(...parts);
}

function renderHand(s, me) {
  const panel = document.getElementById("hand-panel");
  const bar = document.getElementById("confirm-bar");
  const hand = (s.hands[me] || []);
  panel.hidden = s.phase !== "cards";
  if (panel.hidden) { bar.hidden = true; picked = null; return; }
  if (picked !== null && !hand.includes(picked)) picked = null;
  const blocked = s.buyback && s.buyback.must;
  document.getElementById("hand").replaceChildren(...hand.map((card) => el("button", {
    type: "button", class: "paddle" + (card === picked ? " picked" : "") + (card === s.choice ? " down" : "") + (card === "cloud" ? " cloud" : ""),
    "data-card": String(card), "aria-pressed": String(card === picked), disabled: blocked,
    onclick: () => { picked = card === picked ? null : card; renderHand(state, me); },
  }, card === "cloud" ? "☁" : String(card))));
  bar.hidden = picked === null || picked === s.choice;
  if (!bar.hidden) {
    const button = document.getElementById("confirm");
    button.textContent = t("lay_down", { card: cardName(picked) });
    button.onclick = async () => { const card = picked; if (await act("/api/phone/card", { card })) { picked = null; renderHand(state, me); } };
  }
}

function renderMine(s, me) {
  const danger = (s.danger && s.danger.slots) || [];
  const canoes = (s.canoes[me] || []).map((c) => el("li", { class: danger.includes(c.at) ? "in-danger" : null },
    el("span", { class: "canoe-icon", style: "background:" + COLOURS[me] }),
    " ", placeName(c.at), c.gem ? [" ", t("with_gem." + c.gem), " ", gemIcon(c.gem)] : null,
    danger.includes(c.at) ? el("span", { class: "danger-text" }, " — " + t("danger")) : null));
  const camp = (s.camps[me] || []);
  document.getElementById("mine").replaceChildren(
    el("h2", {}, t("your_canoes")), el("ul", { class: "plain" }, canoes),
    el("h2", {}, t("camp")), el("div", { class: "camp" }, camp.length ? camp.map(gemIcon) : el("span", { class: "muted" }, t("empty"))),
    el("h2", {}, t("played")), el("div", { class: "played" }, (s.played[me] || []).map((c) => el("span", { class: "mini-card" }, cardName(c)))));
}

/* The language chosen on this phone outlives a new game (a new game has new seats,
   which start in the browser's language): say it again once if the server forgot. */
let languageResent = false;
function keepLanguage(s) {
  let wanted = null;
  try { wanted = window.localStorage.getItem("niagara_phone_lang"); } catch (err) { return; }
  if (!wanted || !s.lang || wanted === s.lang || languageResent) return;
  languageResent = true;
  api("/api/phone/lang", { lang: wanted }).then((reply) => { if (reply.data.ok) window.location.reload(); });
}

function render(s) {
  if (isOlder(s, state)) return;
  state = s;
  keepLanguage(s);
  const me = s.seat;
  const head = document.getElementById("phone-head");
  head.style.background = HEAD_COLOURS[me] || COLOURS[me];
  head.classList.toggle("light-text", me !== "yellow");
  document.getElementById("seat-name").textContent = t("your_seat", { player: colourName(me) });
  document.title = colourName(me) + " — " + t("title");
  renderStatus(s, me);
  renderBuyback(s);
  renderChoice(s, me);
  renderHand(s, me);
  renderMine(s, me);
  drawBoard(document.getElementById("board"), s);
  document.getElementById("last-verdict").replaceChildren(el("ol", { class: "feed", reversed: true }, s.feed.slice(-3).reverse().map(feedItem)));
}

setLanguageSelect(async (lang) => {
  try { window.localStorage.setItem("niagara_phone_lang", lang); } catch (err) { /* private mode */ }
  await api("/api/phone/lang", { lang });
  window.location.reload();
});
live("/stream/phone", render, loggedOut);
