// spades replay --html: steps through the game held in #game-data (built by spades_env.agents.replay_html).
// Position: a hand and a step in it; step 0 is the deal and the bids, step k the moment after the k-th
// card played. Every hand is face up; a hand shows the cards its seat still holds at that step.
"use strict";

const GAME = JSON.parse(document.getElementById("game-data").textContent);
const RED = new Set(["D", "H"]);
const RANK_SHOWN = { T: "10" };
let hand = 0;
let step = 0;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function svgUse(suit, cls) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("viewBox", "0 0 100 100");
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", "#suit-" + suit);
  svg.append(use);
  return svg;
}

function cardNode(card) {
  const rank = card[0], suit = card[1];
  const node = el("span", { class: "card" + (RED.has(suit) ? " red" : ""), "data-card": card, title: card });
  node.append(el("span", { class: "rank", text: RANK_SHOWN[rank] || rank }), svgUse(suit, "pip"), svgUse(suit, "big"));
  return node;
}

// ------------------------------------------------------------------ moving

function lastStep(h) { return GAME.hands[h].plays.length; }

function go(h, s) {
  if (!GAME.hands.length) return;
  hand = Math.max(0, Math.min(GAME.hands.length - 1, h));
  step = Math.max(0, Math.min(lastStep(hand), s));
  render();
}

function nextCard() {
  if (step < lastStep(hand)) go(hand, step + 1);
  else if (hand + 1 < GAME.hands.length) go(hand + 1, 0);
}

function prevCard() {
  if (step > 0) go(hand, step - 1);
  else if (hand > 0) go(hand - 1, lastStep(hand - 1));
}

function nextTrick() {  // to the next moment a trick is complete (from the deal: the first trick)
  const n = GAME.hands[hand].players;
  if (step < lastStep(hand)) go(hand, (Math.floor(step / n) + 1) * n);
  else if (hand + 1 < GAME.hands.length) go(hand + 1, 0);
}

function prevTrick() {  // to the previous complete trick, or the deal
  const n = GAME.hands[hand].players;
  if (step > 0) go(hand, step % n === 0 ? step - n : Math.floor(step / n) * n);
  else if (hand > 0) go(hand - 1, lastStep(hand - 1));
}

function nextHand() { if (hand + 1 < GAME.hands.length) go(hand + 1, 0); else go(hand, lastStep(hand)); }
function prevHand() { go(step > 0 ? hand : hand - 1, 0); }

const KEYS = {
  ArrowRight: nextCard, ArrowLeft: prevCard, ArrowDown: nextTrick, ArrowUp: prevTrick,
  PageDown: nextHand, PageUp: prevHand,
  Home: () => go(0, 0), End: () => go(GAME.hands.length - 1, lastStep(GAME.hands.length - 1)),
};

// ----------------------------------------------------------------- drawing

function render() {
  const h = GAME.hands[hand];
  const n = h.players;
  const played = h.plays.slice(0, step);
  const gone = new Set(played.map((play) => play[1]));
  const complete = Math.floor(step / n);
  const taken = new Array(n).fill(0);
  h.winners.slice(0, complete).forEach((w) => { taken[w] += 1; });
  const toAct = step < h.plays.length ? h.plays[step][0] : null;

  const table = document.getElementById("table");
  table.replaceChildren();
  for (let p = 0; p < n; p++) {
    const label = el("div", { class: "label" },
      el("span", { class: "name", text: h.labels[p] + (p === h.dealer ? " · " + h.role : "") }),
      el("span", { class: "bid", id: "bid-" + p, text: "bid " + h.bids[p] }),
      el("span", { class: "took", id: "tricks-" + p, text: "tricks " + taken[p] }));
    const cards = el("div", { class: "hand", id: "hand-" + p });
    h.hands[p].filter((c) => !gone.has(c)).forEach((c) => cards.append(cardNode(c)));
    table.append(el("div", { class: "seat " + h.areas[p] + (p === toAct ? " to-act" : ""), id: "seat-" + p },
      label, cards));
  }
  table.append(trickNode(h, n));

  const where = step === 0 ? "the deal and the bids"
    : `trick ${Math.floor((step - 1) / n) + 1} of 13, card ${((step - 1) % n) + 1} of ${n}`;
  document.getElementById("position").textContent =
    `Hand ${h.number} (${hand + 1} of ${GAME.hands.length}) · step ${step} of ${h.plays.length}: ${where}`;
  document.body.dataset.hand = String(hand);
  document.body.dataset.step = String(step);
  renderIntro(h);
  renderResult(h);
  renderAnalysis(h);
  const atStart = hand === 0 && step === 0;
  const atEnd = hand === GAME.hands.length - 1 && step === lastStep(hand);
  for (const id of ["prev-hand", "prev-trick", "prev-card"]) document.getElementById(id).disabled = atStart;
  for (const id of ["next-hand", "next-trick", "next-card"]) document.getElementById(id).disabled = atEnd;
  try { history.replaceState(null, "", `#hand=${hand + 1}&step=${step}`); } catch (e) { /* some file: pages */ }
}

function trickNode(h, n) {
  const box = el("div", { id: "trick" });
  let text = step === 0 ? "" : null;
  if (step > 0) {
    const t = Math.floor((step - 1) / n);
    const cards = h.plays.slice(t * n, step);
    const winner = step % n === 0 ? h.winners[t] : null;
    cards.forEach(([p, c], i) => {
      const node = cardNode(c);
      node.dataset.seat = String(p);
      if (p === winner) node.classList.add("winner");
      const slot = el("div", { class: "slot " + h.areas[p] }, node,
        el("span", { text: h.names[p] + (i === 0 ? " led" : "") }));
      const cost = (h.costly || {})[String(t * n + i)];
      if (cost) {  // spades analyze found this card costly: how much, and what was best
        node.classList.add("costly");
        node.title = `${c}: lost ${cost.loss} against double-dummy play; best ${cost.best.join(" ")}`;
        slot.append(el("span", { class: "loss", text: `−${cost.loss} (best ${cost.best.join(" ")})` }));
      }
      box.append(slot);
    });
    text = winner === null ? "" : `${h.names[winner]} wins`;
  }
  box.append(el("div", { id: "trick-text", text: text || "" }));
  return box;
}

function renderIntro(h) {
  const box = document.getElementById("intro");
  box.replaceChildren(el("h2", { text: `Hand ${h.number}` }),
    el("p", { text: `${h.role} ${h.names[h.dealer]} · before the hand: ${h.before}` }),
    el("p", { text: "Bids: " + h.bids.map((b, p) => `${h.names[p]} ${b}`).join(" · ") }));
  if (h.events.length) box.append(el("ul", {}, ...h.events.map((e) => el("li", { text: e }))));
  if (h.dealt) {
    box.append(el("p", { class: "muted", text: h.players === 4 ? "As dealt (before the exchange):" : "As drawn:" }));
    h.dealt.forEach((line) => box.append(el("div", { class: "dealt", text: line })));
  }
}

function renderResult(h) {
  const box = document.getElementById("result");
  box.replaceChildren(el("h2", { text: "Score" }));
  if (step < h.plays.length) {
    box.append(el("p", { class: "muted", text: "The score breakdown of the hand shows after its last trick." }));
    return;
  }
  const head = el("tr", {}, ...h.columns.map((c) => el("th", { text: c })));
  const rows = h.breakdown.map((row) => el("tr", {}, ...row.map((v) => el("td", { text: String(v) }))));
  box.append(el("table", { class: "breakdown", id: "breakdown" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  if (hand === GAME.hands.length - 1 && GAME.final) box.append(el("p", { id: "final", text: GAME.final }));
}

// The double-dummy analysis of a hand (spades analyze), when its record has one: shown as it comes,
// a list of objects as a table whose row for the card just played (its "play" index) is marked.
function renderAnalysis(h) {
  const box = document.getElementById("analysis");
  box.replaceChildren();
  if (h.analysis === null || h.analysis === undefined) return;
  box.append(el("h2", { text: "Double-dummy analysis" }), valueNode(h.analysis));
}

function valueNode(value) {
  if (Array.isArray(value) && value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
    const keys = [...new Set(value.flatMap(Object.keys))];
    const rows = value.map((row) => el("tr", { class: row.play === step - 1 ? "current" : "" },
      ...keys.map((k) => el("td", { text: k in row ? scalarText(row[k]) : "" }))));
    return el("table", { class: "analysis" }, el("thead", {}, el("tr", {}, ...keys.map((k) => el("th", { text: k })))),
      el("tbody", {}, ...rows));
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return el("ul", {}, ...Object.entries(value).map(([k, v]) => el("li", {}, el("b", { text: k + ": " }), valueNode(v))));
  }
  return document.createTextNode(scalarText(value));
}

function scalarText(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map(scalarText).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// ------------------------------------------------------------------- start

function start() {
  document.getElementById("note").textContent = GAME.note || "";
  if (!GAME.hands.length) {
    document.getElementById("position").textContent = "no completed hand in this record";
    document.querySelectorAll("nav button").forEach((b) => { b.disabled = true; });
    return;
  }
  const ids = { "prev-hand": prevHand, "prev-trick": prevTrick, "prev-card": prevCard,
                "next-card": nextCard, "next-trick": nextTrick, "next-hand": nextHand };
  for (const [id, fn] of Object.entries(ids)) document.getElementById(id).addEventListener("click", fn);
  document.addEventListener("keydown", (event) => {
    const fn = KEYS[event.key];
    if (fn && !event.altKey && !event.ctrlKey && !event.metaKey) { event.preventDefault(); fn(); }
  });
  const at = /hand=(\d+)&step=(\d+)/.exec(location.hash);
  go(at ? Number(at[1]) - 1 : GAME.start, at ? Number(at[2]) : 0);
}

start();
