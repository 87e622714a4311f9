// spades serve: the lobby (new game, saved games) and the table. The server decides everything; this
// script shows the frames it sends one by one, at the chosen pace, and sends the person's clicks.
"use strict";

const SUITS = "CDHS", RANKS = "23456789TJQKA";
const BLIND_NIL = 66, LOOK = 67, KEEP = 68, DISCARD = 69, DONE = 70, BID_BASE = 52;
const POSITIONS = { 4: ["bottom", "left", "top", "right"], 2: ["bottom", "top"] };
const S = { options: null, game: null, token: null, shown: null, received: -1, queue: [], paused: false,
            polling: false, running: false, holder: null, error: null, pace: 600 };

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k === "on") Object.entries(v).forEach(([e, f]) => node.addEventListener(e, f));
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (S.token) headers["x-seat-token"] = S.token;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  return { status: response.status, ok: response.ok, data };
}

// ------------------------------------------------------------------ cards

const cardId = (name) => SUITS.indexOf(name[1]) * 13 + RANKS.indexOf(name[0]);

function cardNode(name, tag = "span") {
  const rank = name[0] === "T" ? "10" : name[0];
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "pip");
  svg.setAttribute("viewBox", "0 0 100 100");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `#suit-${name[1]}`);
  svg.append(use);
  const red = name[1] === "H" || name[1] === "D";
  return el(tag, { class: `card ${red ? "red" : "black"}`, "data-card": name, title: name }, el("span", { class: "rank", text: rank }), svg);
}

// ------------------------------------------------------------------ the lobby

async function showLobby() {
  $("lobby").hidden = false;
  $("table-view").hidden = true;
  if (!S.options) {
    S.options = (await api("GET", "/api/options")).data;
    fillForm();
  }
  const { data } = await api("GET", "/api/games");
  const rows = data.games.map((g) => el("tr", {},
    el("td", {}, el("a", { href: `#game=${g.id}`, text: g.id })),
    el("td", { text: `${g.num_players} players, ${g.single_hand ? "single hand" : "game"}` }),
    el("td", { text: g.agents.join(", ") }),
    el("td", { text: g.over ? `over ${g.scores ? g.scores.join("–") : ""}` : `${g.hands} hands done` }),
    el("td", { class: "error", text: g.missing.length ? `needs ${g.missing.join(", ")}` : "" })));
  $("saved-games").replaceChildren(...rows);
  $("saved").hidden = !rows.length;
}

function fillForm() {
  const o = S.options;
  S.pace = o.pace_ms;
  const updateVariant = () => {
    const n = Number($("num-players").value);
    const names = n === 4 ? ["North", "East", "South", "West"] : ["South", "North"];
    const seat = n === 4 ? 2 : 0;
    $("seat").replaceChildren(...names.map((name, p) => el("option", { value: p, text: name })));
    $("seat").value = seat;
    const agents = o.agents.filter((a) => a.players.includes(n));
    for (const id of ["partner", "opponent-1", "opponent-2"]) {
      $(id).replaceChildren(...agents.map((a) => el("option", { value: a.label, text: agentLabel(a) })));
    }
    $("partner-row").hidden = $("opponent-2-row").hidden = n === 2;
  };
  $("num-players").addEventListener("change", updateVariant);
  updateVariant();
  $("preset-row").hidden = !o.presets.length;
  $("preset").replaceChildren(...o.presets.map((p) => el("option", { value: p.name, text: `${p.name}: ${p.help}` })));
  $("rule-fields").replaceChildren(...o.rules.map((r) => el("label", { title: r.help }, r.name.replaceAll("_", " ") + " ",
    r.type === "bool" ? el("input", { type: "checkbox", id: `rule-${r.name}`, ...(r.default ? { checked: "" } : {}) })
      : el("input", { type: "number", id: `rule-${r.name}`, value: r.default === null ? "" : r.default,
                      placeholder: r.optional ? "off" : "" }))));
  $("new-game").addEventListener("submit", startGame);
}

function agentLabel(a) {  // an offered agent ({label, version}) or a seat ({agent, version})
  const label = a.agent || a.label;
  return a.version && a.version !== label ? `${label} (${a.version})` : label;
}

function ruleValues() {
  const rules = {};
  if ($("rule-options").open) {  // only what the person opened the options to set
    for (const r of S.options.rules) {
      const input = $(`rule-${r.name}`);
      if (r.type === "bool") rules[r.name] = input.checked;
      else if (input.value === "") { if (r.optional) rules[r.name] = null; }
      else rules[r.name] = Number(input.value);
    }
  }
  if (S.options.presets.length) rules.preset = $("preset").value;
  return rules;
}

async function startGame(event) {
  event.preventDefault();
  const n = Number($("num-players").value);
  const body = { num_players: n, seat: Number($("seat").value), mode: $("mode").value, rules: ruleValues(),
                 opponents: n === 4 ? [$("opponent-1").value, $("opponent-2").value] : $("opponent-1").value };
  if (n === 4) body.partner = $("partner").value;
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const { ok, data } = await api("POST", "/api/games", body);
  if (!ok) { $("form-error").textContent = data.error; return; }
  sessionStorage.setItem(`token-${data.game.id}`, data.token);
  location.hash = `game=${data.game.id}`;
}

// ------------------------------------------------------------------ the table

async function openGame(id) {
  $("lobby").hidden = true;
  $("table-view").hidden = false;
  Object.assign(S, { game: null, shown: null, received: -1, queue: [], paused: false, error: null });
  S.token = sessionStorage.getItem(`token-${id}`);
  const { ok, data } = await api("GET", `/api/games/${id}`);
  if (!ok) { $("status").textContent = data.error; return; }
  if (S.options === null) S.options = (await api("GET", "/api/options")).data;
  S.pace = S.options.pace_ms;
  S.game = data.game;
  $("log-lines").replaceChildren();
  $("result").replaceChildren();
  $("analysis").replaceChildren();
  drawInfo();
  receive(data);
  if (data.holder === null) await claim();
  pump();
}

async function claim() {
  const { ok, data } = await api("POST", `/api/games/${S.game.id}/claim`);
  if (!ok) { $("status").textContent = data.error; return; }
  S.token = data.token;
  sessionStorage.setItem(`token-${S.game.id}`, data.token);
  S.holder = "you";
  render();
}

function receive(data) {
  for (const f of data.frames) if (f.seq > S.received) { S.queue.push(f); S.received = f.seq; }
  S.running = data.running;
  S.error = data.error;
  if (data.holder !== undefined) S.holder = data.holder;
  if (S.running && !S.polling) poll();
}

async function poll() {
  S.polling = true;
  while (S.game && S.running) {
    const id = S.game.id;
    const { ok, data } = await api("GET", `/api/games/${id}?since=${S.received}&wait=20`);
    if (!S.game || S.game.id !== id) break;
    if (!ok) { $("status").textContent = data.error; break; }
    receive(data);
    pump();
  }
  S.polling = false;
  render();
}

let pumping = null;
function pump() {
  if (pumping !== null || S.paused || !S.queue.length) { render(); return; }
  const next = S.queue[0];
  const botMove = S.shown !== null && next.actor !== null && next.actor !== S.game.seat;
  pumping = setTimeout(() => {
    pumping = null;
    S.shown = S.queue.shift();
    showFrame(S.shown);
    if (S.shown.hand_result && !S.shown.over) S.paused = true;
    pump();
  }, botMove ? S.pace : 0);
}

function showFrame(f) {
  const log = $("log-lines");
  for (const line of f.log) log.append(el("li", { text: line }));
  while (log.children.length > 300) log.firstChild.remove();
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  if (f.hand_result) showResult(f);
  else if (f.actor !== null) { $("result").replaceChildren(); $("analysis").replaceChildren(); }
  $("refusal").textContent = "";
  render();
}

function drawInfo() {
  const g = S.game;
  const seats = g.seats.map((s) => s.you ? `${s.name}: you` : `${s.name}: ${agentLabel(s)}`).join(" · ");
  const length = g.mode === "hand" ? "a single hand" : `a game to ${g.target}`;
  $("info").replaceChildren(el("span", { text: `${g.rules}; ${length}. ` }), el("span", { text: seats }),
    el("span", { text: " · " }), el("a", { href: `/games/${g.id}/save`, text: "save file" }));
}

function myTurn() {
  const f = S.shown;
  return f !== null && !S.queue.length && !S.paused && f.to_act === S.game.seat && !f.over && S.holder === "you"
    && !S.error;
}

function render() {
  const f = S.shown, g = S.game;
  if (!f || !g) return;
  const n = g.num_players;
  document.body.dataset.seq = f.seq;
  document.body.dataset.phase = f.phase;
  document.body.dataset.yourTurn = myTurn() ? "1" : "0";
  document.body.dataset.paused = S.paused ? "1" : "0";
  document.body.dataset.over = f.over && !S.queue.length ? "1" : "0";
  $("pos-left").hidden = $("pos-right").hidden = n === 2;
  g.seats.forEach((s, p) => {
    const pos = POSITIONS[n][(p - g.seat + n) % n];
    const box = $(`pos-${pos}`);
    box.className = `seat${f.to_act === p && !f.over ? " to-act" : ""}`;
    const who = s.you ? `${s.name} (you)` : `${s.name}${s.partner ? " (partner)" : ""}`;
    box.replaceChildren(el("div", { class: "who", text: who }),
      el("div", { class: "agent", text: s.you ? "" : agentLabel(s) }),
      el("div", { class: "line", id: `seat-${p}`, text: `bid ${f.bids[p]} · tricks ${f.tricks[p]}${f.dealer === p ? " · dealer" : ""}` }));
  });
  drawTrick(f, n);
  drawScore(f);
  drawHand(f);
  drawControls(f);
  drawLastTrick(f);
  const status = S.error ? `stopped: ${S.error}` : f.over && !S.queue.length ? "the game is over"
    : S.paused ? "the hand is over" : myTurn() ? "your turn" : f.to_act === g.seat ? "" : "the bots are playing";
  $("status").textContent = status;
}

function drawTrick(f, n) {
  const trick = f.trick.length ? f.trick : f.last_trick ? f.last_trick.plays : [];  // a finished trick stays a while
  const winner = f.trick.length ? null : f.last_trick && f.last_trick.winner;
  $("trick").replaceChildren(...trick.map(([p, card]) => {
    const node = cardNode(card);
    if (p === winner) node.classList.add("winner");
    node.dataset.seat = p;
    return el("div", { class: `slot ${POSITIONS[n][(p - S.game.seat + n) % n]}` }, node);
  }));
}

function drawScore(f) {
  const g = S.game;
  $("score").replaceChildren(el("h2", { text: `Hand ${f.hand}` }),
    el("table", { id: "scores" }, ...g.sides.map((side, s) => el("tr", {}, el("th", { text: side }),
      el("td", { text: `${f.scores[s]} points` }), el("td", { text: `${f.bags[s]} bags` })))),
    el("p", { class: "muted", text: f.spades_broken ? "Spades are broken." : "Spades are not broken." }));
  const notes = [];
  if (g.num_players === 2 && f.stock_left) notes.push(`${f.stock_left} cards left in the stock.`);
  if (f.passed.length) notes.push(`You passed ${f.passed.join(" ")}.`);
  if (f.received.length) notes.push(`You received ${f.received.join(" ")}.`);
  if (f.discarded.length) notes.push(`Discards you have seen: ${f.discarded.join(" ")}.`);
  for (const text of notes) $("score").append(el("p", { class: "muted", text }));
}

function drawHand(f) {
  const legal = new Set(myTurn() ? f.legal : []);
  const box = $("my-hand");
  if (!f.looked) { box.replaceChildren(el("p", { class: "muted", text: "Your cards are face down." })); return; }
  box.replaceChildren(...f.cards.map((name) => {
    const id = cardId(name);
    const node = cardNode(name, "button");
    node.classList.add(legal.has(id) ? "legal" : "illegal");
    node.addEventListener("click", () => act(id));
    return node;
  }));
}

function button(text, action, id) {
  return el("button", { type: "button", id, class: "action", on: { click: () => act(action) } }, text);
}

const PROMPTS = {
  blind: "Bid Blind Nil before looking at your cards, or look at them.",
  bid: "Your bid:", pass: "Click a card to pass to your partner.",
  draw: "Keep the card offered (the next one is discarded), or discard it (and keep the next).",
  replace: "Click a card to put back and draw one from the discard pile, or you are done.",
  play: "Click a card to play it.",
};

function drawControls(f) {
  const buttons = [];
  let prompt = "";
  if (S.holder === "other") {
    prompt = "Another tab holds your seat in this game.";
    buttons.push(el("button", { type: "button", id: "take-seat", class: "action", on: { click: claim } }, "Play here"));
  } else if (S.paused) {
    prompt = "The hand is over.";
    buttons.push(el("button", { type: "button", id: "continue", class: "action", on: { click: () => { S.paused = false; pump(); } } }, "Next hand"));
  } else if (f.over && !S.queue.length) {
    prompt = f.result;
    buttons.push(el("a", { id: "replay-link", class: "action", href: `/games/${S.game.id}/replay`, target: "_blank" }, "Replay the game"),
      el("a", { id: "new-game-link", class: "action", href: "#" }, "New game"));
  } else if (myTurn()) {
    prompt = PROMPTS[f.phase] || "";
    if (f.phase === "draw") prompt = `Offered: ${f.offered}. ` + prompt;
    for (const a of f.legal) {
      if (a === BLIND_NIL) buttons.push(button("Blind Nil", a, "blind-nil"));
      else if (a === LOOK) buttons.push(button("Look at my cards", a, "look"));
      else if (a === KEEP) buttons.push(button(`Keep ${f.offered}`, a, "keep"));
      else if (a === DISCARD) buttons.push(button(`Discard ${f.offered}`, a, "discard"));
      else if (a === DONE) buttons.push(button("Done", a, "done"));
      else if (a >= BID_BASE && a <= BID_BASE + 13) buttons.push(button(a === BID_BASE ? "Nil" : String(a - BID_BASE), a, `bid-${a - BID_BASE}`));
    }
    if (f.phase === "draw") buttons.unshift(cardNode(f.offered));
  } else if (!f.over) {
    prompt = `${S.game.seats[f.to_act].name} is to act…`;
  }
  $("prompt").textContent = prompt;
  $("buttons").replaceChildren(...buttons);
}

function drawLastTrick(f) {
  const box = $("last-trick");
  if (!f.last_trick) { box.replaceChildren(); return; }
  const names = S.game.seats.map((s) => s.name);
  box.replaceChildren(el("h2", { text: "Last trick" }), el("p", {}, ...f.last_trick.plays.map(([p, card]) =>
    el("span", { class: p === f.last_trick.winner ? "won" : "" }, `${names[p]} `, cardNode(card), " "))),
    el("p", { class: "muted", text: `won by ${names[f.last_trick.winner]}` }));
}

async function act(action) {
  if (!myTurn()) return;
  const { ok, status, data } = await api("POST", `/api/games/${S.game.id}/act`, { token: S.token, seq: S.shown.seq, action });
  if (!ok) {
    $("refusal").textContent = data.error;
    if (status === 403) { S.holder = "other"; render(); }
    if (status === 409) { const fresh = await api("GET", `/api/games/${S.game.id}?since=${S.received}`); if (fresh.ok) receive(fresh.data); pump(); }
    return;
  }
  receive(data);
  pump();
}

// ------------------------------------------------------------------ after a hand

function showResult(f) {
  const r = f.hand_result;
  const rows = r.breakdown.map((row) => el("tr", {}, ...row.map((v) => el("td", { text: String(v) }))));
  $("result").replaceChildren(el("h2", { text: `Hand ${r.hand}: the score` }),
    el("table", { class: "breakdown", id: "breakdown" }, el("thead", {}, el("tr", {}, ...r.columns.map((c) => el("th", { text: c })))),
      el("tbody", {}, ...rows)));
  $("analysis").replaceChildren(el("h2", { text: `Hand ${r.hand}: double-dummy analysis` }), el("p", { class: "muted", text: "computing…" }));
  loadAnalysis(S.game.id, r.hand);
}

async function loadAnalysis(id, hand) {
  const { status, data } = await api("GET", `/api/games/${id}/analysis/${hand}`);
  if (!S.game || S.game.id !== id) return;
  if (status === 202) { setTimeout(() => loadAnalysis(id, hand), 700); return; }
  const box = $("analysis");
  box.replaceChildren(el("h2", { text: `Hand ${hand}: double-dummy analysis` }));
  if (data.error) { box.append(el("p", { class: "error", text: data.error })); return; }
  const sides = S.game.sides;
  const par = data.par === null ? "not solved within the node limit"
    : `${sides[0]} ${data.par >= 0 ? "+" : ""}${data.par} against ${sides[1]}` + (data.par_points ? ` (par points ${data.par_points.join(" / ")}, tricks ${data.par_tricks.join("–")})` : "");
  box.append(el("p", { id: "par", text: `Par with every hand open and perfect play: ${par}.` }),
    el("p", { text: `Played: points ${data.points.join(" / ")}, tricks ${data.tricks.join("–")}. ` +
      `Points lost to card play: ${sides[0]} ${data.lost[0]}, ${sides[1]} ${data.lost[1]} (${data.analyzed} of ${data.plays} plays analysed).` }));
  if (!data.errors.length) { box.append(el("p", { text: "No card cost points against double-dummy play." })); return; }
  box.append(el("table", { class: "analysis", id: "costly-plays" },
    el("thead", {}, el("tr", {}, ...["trick", "seat", "played", "best", "cost"].map((h) => el("th", { text: h })))),
    el("tbody", {}, ...data.errors.map((e) => el("tr", {}, el("td", { text: e.trick }), el("td", { text: e.seat }),
      el("td", { text: e.card }), el("td", { text: e.best.join(" ") }), el("td", { text: e.cost }))))));
}

// ------------------------------------------------------------------ start

function route() {
  const match = /game=([\w-]+)/.exec(location.hash);
  if (match) openGame(match[1]);
  else { S.game = null; showLobby(); }
}

window.addEventListener("hashchange", route);
route();
