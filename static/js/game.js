// Game page: keeps the game document by applying patches, resyncs on gaps, reconnects, and lets
// the ruleset's renderer (static/rulesets/<id>.js, or the generic one) draw it and send moves.
import { el, liveSocket, me, request, showWho } from "./api.js";
import { applyPatch } from "./patch.js";
import * as generic from "../rulesets/generic.js";

const gameId = document.getElementById("game").dataset.gameId;
const player = me();
showWho(player);
const board = document.getElementById("board");
const movesBox = document.getElementById("moves");
const moveError = document.getElementById("move-error");
const state = { doc: null, legal: [], legalVersion: -1, renderer: null, catalogue: {}, names: {} };
window.civitas = state; // for debugging and browser tests

async function loadRenderer(rulesetId) {
  try {
    state.renderer = await import(`/static/rulesets/${rulesetId}.js`);
  } catch {
    state.renderer = generic;
  }
  try { state.catalogue = await request("GET", `/api/rulesets/${rulesetId}/catalogue`); } catch { state.catalogue = {}; }
  try {
    const room = await request("GET", `/api/rooms/${state.doc.room_id}`);
    for (const s of room.seats) state.names[s.seat] = s.player ? s.player.name : (s.bot ? `${s.bot} ${s.seat + 1}` : `Seat ${s.seat + 1}`);
  } catch { /* names are a nicety */ }
}

function describe(move) {
  if (state.renderer && state.renderer.describe) return state.renderer.describe(move, state.catalogue);
  return generic.describe(move);
}

let counter = 0;
function play(move) {
  moveError.textContent = "";
  socket.send({ type: "move", version: state.doc.version, move, id: `${Date.now().toString(36)}-${counter++}` });
}

async function refreshLegal() {
  const doc = state.doc;
  if (doc.seat === null || !doc.to_act.includes(doc.seat) || doc.status !== "active") {
    state.legal = []; state.legalVersion = doc.version; return;
  }
  const answer = await request("GET", `/api/games/${gameId}/legal-moves`);
  if (answer.version === state.doc.version) { state.legal = answer.moves; state.legalVersion = answer.version; }
}

let logTimer = null;
function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(async () => {
    const log = await request("GET", `/api/games/${gameId}/log`);
    document.getElementById("log").replaceChildren(...log.moves.slice(-60).reverse().map((entry) =>
      el("li", { value: entry.seq }, el("strong", {}, state.names[entry.seat] || `Seat ${entry.seat + 1}`), " ", describe(entry.move))));
  }, 150);
}

function drawStatus() {
  const doc = state.doc;
  const status = document.getElementById("turn-status");
  if (doc.status === "finished") status.textContent = "Game over.";
  else if (doc.seat !== null && doc.to_act.includes(doc.seat)) status.textContent = "Your move!";
  else status.textContent = `Waiting for ${doc.to_act.map((s) => state.names[s] || `seat ${s + 1}`).join(", ")}…`;
  status.classList.toggle("your-turn", doc.seat !== null && doc.to_act.includes(doc.seat) && doc.status === "active");
}

function drawOutcome() {
  const box = document.getElementById("outcome");
  const outcome = state.doc.outcome;
  box.hidden = !outcome;
  if (!outcome) return;
  const order = outcome.scores.map((_, seat) => seat).sort((a, b) => outcome.ranks[a] - outcome.ranks[b]);
  const name = (seat) => state.names[seat] || `Seat ${seat + 1}`;
  if (state.renderer !== generic) {
    // The ruleset's renderer draws its own breakdown; here only who won.
    const winners = order.filter((seat) => outcome.ranks[seat] === 1).map(name).join(" and ");
    box.replaceChildren(el("h3", {}, `Game over: ${winners} ${order.filter((s) => outcome.ranks[s] === 1).length > 1 ? "share the win" : "wins"}`),
      el("p", {}, order.map((seat) => `${outcome.ranks[seat]}. ${name(seat)} (${outcome.scores[seat]})`).join(" · ")));
    return;
  }
  const keys = [...new Set(outcome.breakdown.flatMap((b) => Object.keys(b)))];
  const cell = (value) => el("td", {}, typeof value === "object" ? JSON.stringify(value) : value);
  const rows = order.map((seat) => el("tr", { class: outcome.ranks[seat] === 1 ? "winner" : "" },
    cell(outcome.ranks[seat]), cell(state.names[seat] || `Seat ${seat + 1}`), cell(outcome.scores[seat]),
    ...keys.map((k) => cell(outcome.breakdown[seat][k] ?? ""))));
  const head = el("tr", {}, ...["Rank", "Player", "Score", ...keys].map((k) => el("th", {}, k)));
  const extra = Object.entries(outcome).filter(([k]) => !["scores", "ranks", "winners", "breakdown"].includes(k));
  box.replaceChildren(el("h3", {}, "Final scores"),
    el("table", { class: "scores" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    ...extra.map(([k, v]) => el("p", { class: "muted" }, `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)));
}

function draw() {
  const ctx = { doc: state.doc, legalMoves: state.legal, seat: state.doc.seat, catalogue: state.catalogue,
                play, describe, names: state.names };
  try {
    state.renderer.render(board, ctx);
  } catch (error) {
    console.error(error);
    generic.render(board, ctx);
  }
  const list = generic.moveList(ctx);
  movesBox.replaceChildren(state.renderer === generic ? list : el("details", {}, el("summary", {}, `All legal moves (${state.legal.length})`), list));
  drawStatus();
  drawOutcome();
}

async function update() {
  await refreshLegal();
  draw();
  refreshLog();
}

function onFrame(frame) {
  if (frame.type === "snapshot") {
    const first = !state.doc;
    state.doc = frame.game;
    (first ? loadRenderer(state.doc.ruleset) : Promise.resolve()).then(update);
  } else if (frame.type === "patch") {
    if (!state.doc || frame.version <= state.doc.version) return;
    if (frame.version !== state.doc.version + 1) { socket.send({ type: "sync", version: state.doc.version }); return; }
    try {
      state.doc = applyPatch(state.doc, frame.ops);
    } catch {
      socket.send({ type: "sync", version: -1 });
      return;
    }
    update();
  } else if (frame.type === "heartbeat") {
    if (state.doc && frame.version > state.doc.version) socket.send({ type: "sync", version: state.doc.version });
  } else if (frame.type === "error") {
    moveError.textContent = frame.detail;
    if (frame.version !== undefined && state.doc && frame.version > state.doc.version) socket.send({ type: "sync", version: state.doc.version });
  }
}

state.receive = onFrame; // lets tests feed a frame as if it came from the server

const socket = liveSocket(`/ws/games/${gameId}${player ? `?token=${encodeURIComponent(player.token)}` : ""}`, {
  onMessage: onFrame,
  onState: (s) => { document.getElementById("conn-status").textContent = s === "online" ? "● live" : "○ reconnecting…"; },
});
