// Game page: the loop of the shared table shell around a ruleset's renderer
// (static/rulesets/<id>.js, or the generic one). It keeps the game document by applying patches,
// resyncs on gaps, reconnects, fetches the legal moves, sends the player's moves (one click, one
// move) and shows their answers; the table's chrome (status, seats, clocks, log, chat, result)
// is drawn by chrome.js. The layout rules renderers follow are in docs/UX.md.
import { chatFrame, el, ensurePlayer, liveSocket, me, request, showWho } from "./api.js";
import { keyboard as kitKeyboard, seatName, useStyle } from "./kit.js";
import { applyPatch } from "./patch.js";
import * as generic from "../rulesets/generic.js";
import { tableChrome } from "./chrome.js";
import { hintLines, hintsWanted, longPressTips, mountGuide, setHints } from "./learn.js";

const gameId = document.getElementById("game").dataset.gameId;
let player = me();
showWho(player);
const board = document.getElementById("board");
// The kit's base rules (focus ring, tap targets, whole words) hold on every board, whatever the renderer.
useStyle();
board.classList.add("kit-table");
const movesBox = document.getElementById("moves");
const moveError = document.getElementById("move-error");
const state = {
  doc: null, legal: [], legalVersion: -1, renderer: null, catalogue: {}, names: {}, table: null,
  log: [], pending: null, chat: [], refused: null, online: false, awaiting: null, autoHeld: false,
  guide: null, hints: false, ackedVersion: -1, lastFrameAt: Date.now(), heartbeatEvery: 15, waitingClick: false,
  undo: 0, // how many of its latest moves this seat may take back at legalVersion (the table's undo option)
};
longPressTips(document);
window.civitas = state; // for debugging and browser tests
// The table's chrome (status, seats, clocks, log, chat, result) is drawn by chrome.js; this file
// is the loop: socket, patches, legal moves, moves sent and answered.
const { drawStatus, stallWords, drawClocks, drawPlayers, drawOutcome, drawLog, mergeLog, markLast, drawChat } = tableChrome({
  state, board, gameId, myTurn, myHeld, listNames, ctx, describe, whenReleased, takeSeat, showError, refreshTable,
});

// ---- preferences (remembered per browser) ------------------------------------------------------
const PREFS_KEY = "civitas.prefs";
const prefs = Object.assign({ title: true, sound: true, notify: true }, (() => {
  try { return JSON.parse(localStorage.getItem(PREFS_KEY)) || {}; } catch { return {}; }
})());
for (const key of ["title", "sound", "notify"]) {
  const box = document.getElementById(`opt-${key}`);
  box.checked = !!prefs[key];
  box.addEventListener("change", () => {
    prefs[key] = box.checked;
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
    if (key === "notify" && box.checked && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
    drawTitle();
  });
}
// Sound and notifications need a click first (browsers' rule); the first click anywhere allows them.
let audio = null;
document.addEventListener("click", () => {
  if (!audio && window.AudioContext) audio = new AudioContext();
  if (prefs.notify && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
}, { once: true });

function beep() {
  if (!audio || !prefs.sound) return;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.35);
  state.beeps = (state.beeps || 0) + 1;
}

// ---- names and seats -----------------------------------------------------------------------------
function nameOf(seat) { return seatName(state.names, seat); }
function listNames(seats) {
  const names = seats.map(nameOf);
  return names.length <= 1 ? (names[0] || "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
function myTurn() {
  const doc = state.doc;
  return !!doc && doc.status === "active" && doc.seat !== null && doc.to_act.includes(doc.seat);
}

// The page's heading and the tab's title name the game ("Suburbia · Civitas").
async function nameTheGame(rulesetId) {
  let name = rulesetId;
  try { name = ((await request("GET", "/api/rulesets")).find((r) => r.id === rulesetId) || {}).name || rulesetId; } catch { /* keep the id */ }
  document.getElementById("game-name").textContent = name;
  document.title = `${name} · Civitas`;
  drawTitle();
}

async function loadRenderer(rulesetId) {
  nameTheGame(rulesetId);
  try {
    state.renderer = await import(`/static/rulesets/${rulesetId}.js`);
  } catch {
    state.renderer = generic;
  }
  try { state.catalogue = await request("GET", `/api/rulesets/${rulesetId}/catalogue`); } catch { state.catalogue = {}; }
  await refreshTable();
  state.guide = await mountGuide(rulesetId, document.getElementById("status-bar"));
  setupHints(rulesetId);
}

// ---- hints (a first game against bots) -----------------------------------------------------------
function setupHints(rulesetId) {
  const box = document.getElementById("opt-hints");
  const others = state.table ? state.table.seats.filter((s) => s.seat !== state.doc.seat) : [];
  state.hints = state.doc.seat !== null && hintsWanted(rulesetId, others.length > 0 && others.every((s) => s.kind === "bot"));
  box.checked = state.hints;
  box.onchange = () => { state.hints = box.checked; setHints(rulesetId, box.checked); drawHint(); };
  drawHint();
}

// The hint row is one line high, on a phone and a desktop alike, and stays while hints are on,
// between decisions too: the board below never moves when the hint changes (Suburbia's four
// kinds of move once took three lines). The first line is the kind most likely wanted; "more"
// opens the others over the board.
const hintBox = document.getElementById("hint");
const hintList = document.getElementById("hint-lines");
const hintMore = document.getElementById("hint-more");
function drawHint() {
  const fresh = state.legalVersion === state.doc.version;
  const lines = state.hints && myTurn() && fresh ? hintLines(state.guide, state.legal) : [];
  hintBox.hidden = !state.hints || state.doc.seat === null || state.doc.status !== "active";
  const said = lines.join("\n");
  if (hintList.dataset.said === said && hintList.childElementCount) { fitHint(); return; } // left open if open
  hintList.dataset.said = said;
  hintBox.classList.remove("open");
  hintList.replaceChildren(...(lines.length
    ? lines.map((line) => el("span", { class: "hint-line" }, el("strong", {}, "Hint: "), line))
    // Not announced: a screen reader hears the hints themselves, not their absence every turn.
    : [el("span", { class: "hint-idle", "aria-hidden": "true" }, "Hints show here on your turn.")]));
  fitHint();
}
// "more" is offered when there are other lines or the first one is cut short.
function fitHint() {
  if (hintBox.hidden) return;
  const open = hintBox.classList.contains("open");
  const count = hintList.querySelectorAll(".hint-line").length;
  const first = hintList.firstElementChild;
  const cut = !open && !!first && first.scrollWidth > first.clientWidth + 1;
  hintMore.hidden = !(open || count > 1 || cut);
  hintMore.textContent = open ? "Less" : count > 1 ? `+${count - 1} more` : "More";
  hintMore.setAttribute("aria-expanded", String(open));
  hintBox.classList.toggle("has-more", !hintMore.hidden);
}
function toggleHint(open) {
  hintBox.classList.toggle("open", open);
  fitHint();
}
// A tap anywhere on the hint opens or closes it (the button is the keyboard's way); Escape closes.
hintBox.addEventListener("click", () => { if (!hintMore.hidden) toggleHint(!hintBox.classList.contains("open")); });
hintBox.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && hintBox.classList.contains("open")) { toggleHint(false); hintMore.focus(); }
});
window.addEventListener("resize", fitHint);

async function refreshTable() {
  try {
    state.table = await request("GET", `/api/games/${gameId}/table`);
    state.clockSkew = Date.parse(state.table.now) - Date.now();
    for (const s of state.table.seats) state.names[s.seat] = s.name;
  } catch { /* the panels keep their last state */ }
  if (state.doc) drawTable();
}
setInterval(refreshTable, 10000);
let tableTimer = null;
function tableSoon() {
  // Moves in a burst (bots playing at once) share one read of the table.
  if (tableTimer) return;
  tableTimer = setTimeout(() => { tableTimer = null; refreshTable(); }, 150);
}

function describe(move) {
  if (state.renderer && state.renderer.describe) return state.renderer.describe(move, state.catalogue);
  return generic.describe(move);
}

// ---- moves, offline moves and errors -------------------------------------------------------------
let counter = 0;
function send(move) {
  const id = `${Date.now().toString(36)}-${counter++}`;
  state.sent = { id, move, version: state.doc.version, at: Date.now() };
  state.awaiting = id; // until its ack or error: see moveInFlight
  const sent = socket.send({ type: "move", version: state.doc.version, move, id });
  drawWaiting();
  return sent;
}

// A move of the player's own that has no answer after a moment is shown as waiting (on a slow or
// a silently cut connection the player sees their click was taken, and the watchdog reconnects).
function drawWaiting() {
  const box = document.getElementById("move-waiting");
  const slow = moveInFlight() && state.sent && Date.now() - state.sent.at > 700;
  box.hidden = !slow && !state.queued;
  if (state.queued) box.textContent = `One moment… the table is catching up; your move "${describe(state.queued.move)}" goes out as soon as it has.`;
  else if (slow) box.textContent = state.online ? `Your move "${describe(state.sent.move)}" is on its way…`
    : `Your move "${describe(state.sent.move)}" is waiting for the connection…`;
}
setInterval(drawWaiting, 500);

// The watchdog: the server sends a heartbeat every `every` seconds; with no frame at all for two
// of them the socket is dead although not closed (a cut network): the page says it is offline and
// opens a new socket (its snapshot answers whatever was lost, and the move in flight is resent
// by the player if still legal).
function watchdog() {
  if (!state.online) return;
  const silent = Date.now() - state.lastFrameAt;
  if (silent <= 2 * state.heartbeatEvery * 1000 + 1000) return;
  state.online = false;
  state.watchdogFired = (state.watchdogFired || 0) + 1;
  if (moveInFlight()) {
    state.pending = { move: state.sent.move, version: state.sent.version };
    state.awaiting = null;
    showError("The connection was lost: your move is waiting and will be sent when it is back, if it is still allowed.", "pending");
  }
  socket.restart();
}
setInterval(watchdog, 1000);

function myHeld() {
  const doc = state.doc;
  const mine = doc && doc.seat !== null && state.table ? state.table.seats.find((s) => s.seat === doc.seat) : null;
  return !!(mine && mine.held);
}

async function reclaim() {
  try {
    state.table = await request("POST", `/api/games/${gameId}/reclaim`);
    drawPlayers();
    drawStatus();
  } catch (e) { showError(e.message); }
}
document.getElementById("reclaim").addEventListener("click", reclaim);

async function takeSeat(seat) {
  const code = new URLSearchParams(location.search).get("invite_code");
  try {
    state.table = await request("POST", `/api/games/${gameId}/seats/${seat}/take${code ? `?invite_code=${encodeURIComponent(code)}` : ""}`);
    location.reload();  // the socket reopens as the seat's player
  } catch (e) { showError(e.message); }
}

// Undo: takes back the player's last move (a click per move), where the table allows it and the
// server says it may (nobody else has acted, and the move showed the player nothing hidden).
function takeBack() {
  if (moveInFlight() || !state.undo || state.legalVersion !== state.doc.version || !state.online) return;
  clearError();
  const id = `undo-${Date.now().toString(36)}-${counter++}`;
  state.sent = { id, undo: 1, version: state.doc.version };
  state.awaiting = id;
  state.undo = 0; // one click, one request: the next version says whether more may follow
  drawStatus();
  socket.send({ type: "undo", version: state.doc.version, moves: 1, id });
}
document.getElementById("undo").addEventListener("click", takeBack);

function play(move, opts = {}) {
  // A move the renderer makes by itself (opts.auto: the only possible answer) keeps what the
  // error line says, so a notice is not wiped before the player has read it.
  if (!opts.auto) clearError();
  // ... and it is made only for the decision its legal moves belong to (a redraw for a newer
  // version may still show the older list while it is fetched).
  // It answers false then, so the renderer decides again on its next draw (the legal moves'
  // fetch for this version draws again; a renderer that kept "done for this version" would stall).
  if (opts.auto && (autoWaits() || state.legalVersion !== state.doc.version)) return false;
  // One click, one move: while this page's last move awaits its answer (or its patch), a second
  // click is not sent: it would be refused as stale, and the waiting line shows the first.
  if (!opts.auto && ownMoveOpen()) { state.ignoredClicks = (state.ignoredClicks || 0) + 1; return false; }
  // A click that lands while the new version's legal moves are fetched (another seat moved) is
  // kept, said to wait ("One moment…"), and sent once they are in if it is still legal.
  if (!opts.auto && state.legalVersion !== state.doc.version) { queueClick(move); return false; }
  if (myHeld()) reclaim(); // playing a move means the player is back
  if (!socket.open || !state.online) {
    // Offline: keep the move; after the resync it is sent if still legal, or refused visibly.
    state.pending = { move, version: state.doc.version };
    showError("Waiting for the connection: your move will be sent when it is back, if it is still allowed.", "pending");
    return;
  }
  send(move);
}

// The page's own move is still open: sent and not answered, acked but its patch not in, kept
// while offline, or a click kept while the legal moves are fetched.
function ownMoveOpen() {
  return moveInFlight() || !!state.pending || !!state.queued || state.doc.version < state.ackedVersion;
}

// A click made on the board of an older version (the legal moves of the new one are on their
// way): kept with the decision it answered, shown as waiting, and played by sendQueued.
function queueClick(move) {
  state.queued = { move, at: state.legalVersion };
  state.queuedClicks = (state.queuedClicks || 0) + 1; // for browser tests
  drawWaiting();
}

// Once the legal moves of the current version are in: the kept click is played if it is still
// legal, or the player is told in words that the table changed and it was not sent. A click
// answering a decision the page's own move has since answered (a double click) is dropped: that
// move is on the board already.
function sendQueued() {
  const queued = state.queued;
  if (!queued || state.legalVersion !== state.doc.version) return;
  state.queued = null;
  drawWaiting();
  if (state.ackedVersion > queued.at) return;
  const same = state.legal.find((m) => canon(m) === canon(queued.move));
  if (same) { play(same); return; }
  const words = `Your move "${describe(queued.move)}" was not sent: the table changed just before it, and it is no longer allowed.`;
  showError(myTurn() ? `${words} Please choose again.` : words, "notice");
}

// The player's last move is sent and not answered yet. A renderer does not make a move by itself
// then: another seat's patch arriving first would show the same only answer again, at a new version,
// and a second copy would be refused as stale ("The game is at version 7, not 6") once the first is
// in. It decides again on the next draw (the move's patch), or at once if the move is refused.
function moveInFlight() { return state.awaiting !== null && state.awaiting !== undefined; }
function autoWaits() {
  // Asked by a renderer about to move by itself: if it must wait, the refusal of the move in
  // flight redraws (its ack is followed by the move's patch, which redraws anyway).
  if (moveInFlight()) state.autoHeld = true;
  return moveInFlight();
}
function answered(id) {
  if (id !== state.awaiting) return false;
  state.awaiting = null;
  return true;
}

async function sendPending() {
  const pending = state.pending;
  if (!pending || !state.online || state.legalVersion !== state.doc.version) return;
  state.pending = null;
  // The kept move answers the decision the player saw. If it went through before the connection
  // was lost (its answer was what got lost), that is no error; if the player played something
  // else since (another tab or device), the same move may be legal again for a later decision:
  // it is not sent then, and the page says so.
  const mine = state.doc.version !== pending.version ? await playedSince(pending.version) : [];
  if (mine.includes(canon(pending.move))) { clearError(); return; }
  let same = state.legal.find((m) => JSON.stringify(m) === JSON.stringify(pending.move));
  if (mine.length) same = null;
  if (same) { clearError(); send(same); }
  else showError(`Your move "${describe(pending.move)}" was not sent: the game moved on while you were offline and it is no longer allowed.`);
}

// The player's own moves after `version`, as JSON texts (to compare with a kept move).
async function playedSince(version) {
  try {
    const log = await request("GET", `/api/games/${gameId}/log`);
    return log.moves.filter((m) => m.seq > version && m.seat === state.doc.seat).map((m) => canon(m.move));
  } catch { return ["?"]; } // cannot tell: do not play a move made for another moment
}

// A move as text whatever its keys' order (a stored move may come back with its keys sorted).
function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

function showError(text, kind = "error") {
  moveError.textContent = text;
  moveError.dataset.kind = kind;
  moveError.hidden = false;
}
function clearError() { moveError.textContent = ""; moveError.hidden = true; delete moveError.dataset.kind; }

// The server's sentences name the rule; seats are turned into names and turns into "It is X's turn."
function friendly(frame) {
  // The server's codes are "area/reason" (app/engine/errors.py): "move/not_your_turn".
  if (frame.code === "move/not_your_turn" && state.doc) {
    const others = state.doc.to_act.filter((s) => s !== state.doc.seat);
    if (state.doc.status !== "active") return "The game is over.";
    if (others.length) return `It is ${listNames(others)}'s turn.`;
  }
  if (frame.code === "move/stale_version") return "The table changed just before your move arrived, so nothing was played. Please choose again.";
  if (frame.code === "game/over") return "The game is over.";
  return String(frame.detail || "That was refused.").replace(/\bseat (\d+)\b/gi, (_, n) => nameOf(Number(n)));
}

// A refusal the player could not have caused: the game had moved on when the move arrived (a
// second device, a bot's move crossing it), so the move was built on an older table. It is not
// an error: the page catches up and, if the player is still to act, they simply choose again.
function raced(frame) {
  if (frame.code !== "move/stale_version" && frame.code !== "move/not_your_turn" && frame.code !== "game/over") return false;
  const sentAt = state.sent && state.sent.id === frame.id ? state.sent.version : null;
  return sentAt !== null && (frame.version === undefined || frame.version > sentAt || state.doc.version > sentAt);
}

function undoOn() {
  const doc = state.doc;
  return !!(state.table && state.table.undo && state.table.undo !== "off") && doc.seat !== null && doc.status === "active";
}

async function refreshLegal() {
  const doc = state.doc;
  // Where take-backs are allowed, the seat asks after every version (its last move may be
  // undoable while others are to act); elsewhere only on its turn.
  if (!myTurn() && !undoOn()) { state.legal = []; state.legalVersion = doc.version; state.undo = 0; return; }
  try {
    const answer = await request("GET", `/api/games/${gameId}/legal-moves`);
    if (answer.version === state.doc.version) {
      state.legal = answer.moves; state.legalVersion = answer.version; state.undo = answer.undo || 0;
    }
  } catch { /* offline: the next snapshot tries again */ }
}

// ---- log in words --------------------------------------------------------------------------------
// Over the socket: a `log` frame asks for the entries after the last one we have (all of them once
// the game is over, when every move is shown as made); REST when the socket is down.
let logTimer = null;
function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(async () => {
    const over = state.doc.status === "finished";
    const after = over && !state.logComplete ? 0 : (state.log.length ? state.log[state.log.length - 1].seq : 0);
    if (over) state.logComplete = true;
    if (state.online && socket.send({ type: "log", after })) return;
    let log;
    try { log = await request("GET", `/api/games/${gameId}/log`); } catch { return; }
    state.log = log.moves;
    state.events = log.events || [];
    drawLog();
  }, 120);
}

// ---- drawing -------------------------------------------------------------------------------------
function ctx() {
  return { doc: state.doc, legalMoves: state.legal, seat: state.doc.seat, catalogue: state.catalogue,
           play, describe, moveInFlight: autoWaits, names: state.names, explain: (text) => showError(text, "hint") };
}

let wasMyTurn = false;
function drawTitle() {
  const base = document.title.replace(/^▶ Your turn · /, "");
  document.title = prefs.title && myTurn() ? `▶ Your turn · ${base}` : base;
}

function signalTurn() {
  const now = myTurn();
  if (now && !wasMyTurn) {
    beep();
    if (prefs.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try { new Notification("Civitas: your turn", { body: "The table is waiting for your move.", tag: `civitas-${gameId}` }); } catch { /* some browsers allow it only from a worker */ }
    }
  }
  wasMyTurn = now;
  drawTitle();
}

setInterval(() => { if (state.doc) { drawClocks(); if (!state.refused && stallWords()) drawStatus(); } }, 1000);

document.getElementById("leave-game").addEventListener("click", async () => {
  if (!confirm("Leave this game? A bot will take over your seat and you cannot come back to it.")) return;
  try {
    await request("POST", `/api/rooms/${state.doc.room_id}/leave`);
    location.href = "/";
  } catch (e) { showError(e.message); }
});

// Keyboard: everything a renderer marks with data-click (or a button) can be reached with Tab and
// played with Enter or Space; focus is put back on the same thing after each redraw.
function focusKey(node) {
  if (!node || !board.contains(node)) return null;
  const attrs = Object.entries(node.dataset).filter(([k]) => k !== "click");
  if (!attrs.length) return null;
  return attrs.map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(v)}"]`).join("");
}

function keyboard() { kitKeyboard(board); }

// Renderers may redraw by themselves (a selection): every new clickable thing gets the keys too.
new MutationObserver(() => keyboard()).observe(board, { childList: true, subtree: true });

// A redraw between a press and its release would lose the click: the release lands on a new node,
// so the browser fires no click on the button pressed. A new log or chat line does the same by
// pushing the button from under the pointer. The keyboard has the same gap: Space clicks a button
// when the key comes up, on the button that took the keydown. While a pointer is down anywhere on
// the page, or Space or Enter is down outside a text field, drawing (board, players, log, chat)
// waits, and runs once the press is over (after the click it was part of). Touch is a pointer:
// the tap's click comes before the drawing that waited.
// However long the press lasts (no timer: a slow machine or a slow hand would lose the click
// again); a release the page never saw is noticed by the next move with no button down (for a
// pointer), by leaving the window or by hiding the page.
const held = new Set(); // "pointer", "key": what is pressed now
const waiting = new Set();
const pressKey = (event) => (event.key === " " || event.key === "Enter")
  && !(event.target instanceof HTMLElement && event.target.matches("input, textarea, select, [contenteditable]"));
document.addEventListener("pointerdown", () => { held.add("pointer"); }, true);
document.addEventListener("pointermove", (event) => { if (event.buttons === 0) released("pointer"); }, true);
document.addEventListener("pointerup", () => released("pointer"), true);
document.addEventListener("pointercancel", () => released("pointer"), true);
document.addEventListener("keydown", (event) => { if (pressKey(event)) held.add("key"); }, true);
document.addEventListener("keyup", (event) => { if (event.key === " " || event.key === "Enter") released("key"); }, true);
document.addEventListener("visibilitychange", () => released());
window.addEventListener("blur", () => released());
function released(kind) {
  if (!held.size) return;
  if (kind) held.delete(kind); else held.clear();
  if (held.size) return;
  setTimeout(() => {
    if (held.size) return; // pressed again before the drawing ran: it waits for that release
    const due = [...waiting];
    waiting.clear();
    for (const fn of due) fn();
  }, 0);
}
function whenReleased(fn) {
  if (!held.size) return true;
  waiting.add(fn);
  return false;
}
state.drawsWaiting = () => waiting.size; // for browser tests

function drawTable() {
  if (!whenReleased(drawTable)) return;
  drawPlayers(); drawOutcome(); drawStatus();
}

function draw() {
  if (!state.renderer) return; // the renderer is still loading; loadRenderer draws when it is in
  if (!whenReleased(draw)) return;
  const key = focusKey(document.activeElement);
  const c = ctx();
  try {
    state.renderer.render(board, c);
  } catch (error) {
    console.error(error);
    generic.render(board, c);
  }
  keyboard();
  if (key) { const again = board.querySelector(key); if (again) again.focus({ preventScroll: true }); }
  // The full list of legal moves is the generic renderer's only way to play; others draw their own.
  movesBox.replaceChildren(state.renderer === generic ? el("section", { class: "panel" }, el("h3", {}, "Moves"), generic.moveList(c)) : "");
  drawStatus();
  drawHint();
  drawPlayers();
  drawOutcome();
  markLast();
  signalTurn();
}

async function update() {
  await refreshLegal();
  draw();
  refreshLog();
  sendPending();
  sendQueued();
}

// ---- the socket ------------------------------------------------------------------------------------
function onFrame(frame) {
  state.lastFrameAt = Date.now(); // any frame shows the connection is alive (see the watchdog)
  if (frame.type === "snapshot") {
    const first = !state.doc;
    state.awaiting = null; // a new socket: its answer may never come, and the snapshot is the truth
    const seatChanged = state.doc && state.doc.seat !== frame.game.seat;
    state.doc = frame.game;
    if (first) loadChat();
    (first || seatChanged ? loadRenderer(state.doc.ruleset) : refreshTable()).then(update);
  } else if (frame.type === "patch") {
    if (!state.doc || frame.version <= state.doc.version) return;
    if (frame.version !== state.doc.version + 1) { socket.send({ type: "sync", version: state.doc.version }); return; }
    try {
      state.doc = applyPatch(state.doc, frame.ops);
    } catch {
      socket.send({ type: "sync", version: -1 });
      return;
    }
    // A move starts and stops clocks: in a game with a pace, every move re-reads the table (so
    // the next player's clock shows at once); otherwise every fifth move keeps presence fresh.
    if (state.doc.status === "finished" || frame.version % 5 === 0 || (state.table && state.table.pace)) tableSoon();
    update();
  } else if (frame.type === "heartbeat") {
    if (typeof frame.every === "number" && frame.every > 0) state.heartbeatEvery = frame.every;
    if (state.doc && frame.version > state.doc.version) socket.send({ type: "sync", version: state.doc.version });
  } else if (frame.type === "ack") {
    if (answered(frame.id)) state.autoHeld = false;
    if (typeof frame.version === "number") state.ackedVersion = Math.max(state.ackedVersion, frame.version);
    drawWaiting();
    state.lastAnswer = { id: frame.id, ok: true, version: frame.version }; // for browser tests
    // The kept offline move went through; other notices stay until the player's next move.
    if (moveError.dataset.kind === "pending") clearError();
  } else if (frame.type === "log") {
    if (frame.events) state.events = frame.events;
    mergeLog(frame.entries || []);
  } else if (frame.type === "chat") {
    if (!state.chat.some((m) => m.id === frame.message.id)) state.chat.push(frame.message);
    drawChat();
  } else if (frame.type === "seats") {
    refreshTable();
  } else if (frame.type === "error") {
    if (typeof frame.id === "string" && frame.id.startsWith("chat-")) {
      document.getElementById("chat-error").textContent = frame.detail;
      return;
    }
    state.lastAnswer = { id: frame.id, ok: false, detail: frame.detail, code: frame.code };
    const race = raced(frame);
    if (answered(frame.id) && state.autoHeld) { state.autoHeld = false; draw(); }
    // A race is told as a notice, and only while the player still has to choose (their move from
    // another device went through, or it is the others' turn now: nothing to say then).
    if (race) { if (myTurn()) showError(friendly(frame), "notice"); else clearError(); }
    else showError(friendly(frame));
    if (frame.version !== undefined && state.doc && frame.version > state.doc.version) socket.send({ type: "sync", version: state.doc.version });
    drawWaiting();
  }
}

state.receive = onFrame; // lets tests feed a frame as if it came from the server

// ---- chat ------------------------------------------------------------------------------------------
async function loadChat() {
  try {
    const lines = await request("GET", `/api/rooms/${state.doc.room_id}/chat`);
    const seen = new Set(lines.map((m) => m.id));
    state.chat = [...lines, ...state.chat.filter((m) => !seen.has(m.id))];
    drawChat();
  } catch { /* chat is a nicety */ }
}

let pendingChat = null; // a visitor's first line, sent once the socket is theirs

document.getElementById("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-input");
  const text = input.value.trim();
  document.getElementById("chat-error").textContent = "";
  if (!text) return;
  if (!player) {
    // A visitor watching chooses a name to chat under; the socket reconnects as them (still a
    // spectator: they hold no seat) and the line goes out once it is open.
    player = await ensurePlayer();
    if (!player) return;
    pendingChat = text;
    input.value = "";
    socket.close();
    socket = openSocket();
    state.socket = socket;
    return;
  }
  if (!socket.send(chatFrame(text))) {
    document.getElementById("chat-error").textContent = "You are offline; the message was not sent.";
    return;
  }
  input.value = "";
});

const openSocket = () => liveSocket(`/ws/games/${gameId}${player ? `?token=${encodeURIComponent(player.token)}` : ""}`, {
  onOpen: (open) => { if (pendingChat) { open.send(JSON.stringify(chatFrame(pendingChat))); pendingChat = null; } },
  onMessage: onFrame,
  onState: (s, why) => {
    if (s === "closed") return; // a socket this page closed itself (a visitor who chose a name)
    state.online = s === "online";
    if (state.online) state.lastFrameAt = Date.now();
    const conn = document.getElementById("conn-status");
    conn.dataset.state = s;
    if (s === "online") conn.textContent = "● live";
    else if (s === "refused") {
      state.refused = `${why} This page will not reconnect.`;
      conn.textContent = "✕ not connected";
      document.getElementById("turn-status").textContent = state.refused;
      showError(state.refused);
    } else conn.textContent = "○ offline — reconnecting…";
  },
});
let socket = openSocket();
state.socket = socket;
