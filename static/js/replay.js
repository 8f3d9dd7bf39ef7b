// Replay page: the live table's renderer, read-only, stepped through a game's versions. Step,
// jump by turn or round, first and last, play and pause, the keys ← → Home End, a timeline, and
// a deep link (#v=123&seat=1) that "link to this move" beside each log line points at.
// What may be seen comes from the server: GET /api/games/{id}/replay and .../replay/{version}.
import { el, me, request, showWho } from "./api.js";
import * as generic from "../rulesets/generic.js";

const gameId = document.getElementById("replay").dataset.gameId;
showWho(me());
const board = document.getElementById("board");
const invite = new URLSearchParams(location.search).get("invite_code");
const state = { index: null, doc: null, version: 0, seat: "", renderer: generic, catalogue: {}, names: {},
                log: [], events: [], playing: null, loads: 0, paints: [] };
window.civitasReplay = state; // for browser tests

function api(path, params = {}) {
  const query = new URLSearchParams({ ...params, ...(invite ? { invite_code: invite } : {}) });
  const text = query.toString();
  return request("GET", `/api/games/${gameId}${path}${text ? `?${text}` : ""}`);
}

function nameOf(seat) { return state.names[seat] || `Seat ${seat + 1}`; }
function viewpointLabel(v) { return v === null ? "Spectator" : v === "all" ? "Everything revealed" : nameOf(v); }
function viewpointValue(v) { return v === null ? "spectator" : String(v); }

function showError(text) {
  const box = document.getElementById("replay-error");
  box.textContent = text || "";
  box.hidden = !text;
}

// ---- the deep link ---------------------------------------------------------------------------------
function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const v = Number.parseInt(params.get("v"), 10);
  return { version: Number.isFinite(v) ? v : null, seat: params.get("seat") };
}
function writeHash() {
  const params = new URLSearchParams({ v: String(state.version) });
  if (state.seat) params.set("seat", state.seat);
  history.replaceState(null, "", `#${params}`);
}

// ---- loading -----------------------------------------------------------------------------------------
// Versions asked for or on their way, by version and viewpoint (the last few): a version's document
// never changes while the index stands, so stepping back and forth asks the server once, and the
// next version in the direction of travel is asked for while this one is looked at, so that the
// next step finds it here instead of waiting for the server.
const docs = new Map();
const KEPT_DOCS = 24;
function fetchDoc(version, seat) {
  const key = `${version}|${seat}`;
  let answer = docs.get(key);
  if (answer) docs.delete(key); // kept as the most recent below
  else {
    answer = api(`/replay/${version}`, seat ? { seat } : {});
    answer.catch(() => docs.delete(key)); // a refusal or a failure is asked again next time
  }
  docs.set(key, answer);
  while (docs.size > KEPT_DOCS) docs.delete(docs.keys().next().value);
  return answer;
}

async function loadIndex() {
  state.index = await api("/replay");
  docs.clear(); // the game moved on or ended: the documents of its versions may now say more
  const select = document.getElementById("r-seat");
  select.replaceChildren(...state.index.viewpoints.map((v) => el("option", { value: viewpointValue(v) }, viewpointLabel(v))));
  select.disabled = state.index.viewpoints.length < 2;
  const timeline = document.getElementById("r-timeline");
  timeline.max = String(state.index.version);
  drawSeedCheck();
}

async function go(version, seat = state.seat) {
  // A game still going has moved on since the index was read: read it again past its end.
  if (version > state.index.version && !state.index.finished) {
    try { await loadIndex(); } catch { /* keep the old index */ }
  }
  const last = state.index.version;
  const target = Math.max(0, Math.min(last, version));
  const ticket = ++state.loads; // a later step wins over an answer still on its way
  const asked = performance.now();
  try {
    const doc = await fetchDoc(target, seat);
    if (ticket !== state.loads) return;
    const from = state.doc ? state.version : last;
    const ahead = target + (target < from || (target === from && target >= last) ? -1 : 1);
    if (ahead >= 0 && ahead <= last) fetchDoc(ahead, seat).catch(() => {}); // the next step's answer
    state.doc = doc;
    state.version = target;
    state.seat = seat;
    showError("");
    writeHash();
    const fetched = performance.now();
    draw();
    const drawn = performance.now();
    // From the step to the next frame painted with it (bench/replay_paint_bench.py reads these).
    requestAnimationFrame(() => setTimeout(() => {
      state.paints.push(performance.now() - asked);
      state.parts = [...(state.parts || []), [fetched - asked, drawn - fetched]];
    }, 0));
  } catch (e) {
    if (e.status === 403 && seat) { await go(version, ""); showError(e.message); return; }
    showError(e.message);
  }
}

// ---- navigation ----------------------------------------------------------------------------------------
function marks(kind) { return (state.index[kind] || []).map((m) => m.version); }
function nextMark(kind) { return marks(kind).find((v) => v > state.version) ?? state.index.version; }
function prevMark(kind) { return [...marks(kind)].reverse().find((v) => v < state.version) ?? 0; }

function stop() { clearInterval(state.playing); state.playing = null; drawControls(); }
function play() {
  if (state.playing) return stop();
  if (state.version >= state.index.version) go(0);
  state.playing = setInterval(() => {
    if (state.version >= state.index.version) return stop();
    go(state.version + 1);
  }, 700);
  drawControls();
}

const actions = {
  "r-first": () => go(0), "r-last": () => go(state.index.finished ? state.index.version : Infinity),
  "r-back": () => go(state.version - 1), "r-forward": () => go(state.version + 1),
  "r-prev-turn": () => go(prevMark("turns")), "r-next-turn": () => go(nextMark("turns")),
  "r-prev-round": () => go(prevMark("rounds")), "r-next-round": () => go(nextMark("rounds")),
  "r-play": play,
};
for (const [id, fn] of Object.entries(actions)) document.getElementById(id).addEventListener("click", fn);
document.getElementById("r-timeline").addEventListener("input", (event) => go(Number(event.target.value)));
document.getElementById("r-seat").addEventListener("change", (event) => go(state.version, event.target.value));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLElement && event.target.matches("input, textarea, select")) return;
  const keys = { ArrowLeft: "r-back", ArrowRight: "r-forward", Home: "r-first", End: "r-last" };
  if (!keys[event.key]) return;
  event.preventDefault();
  actions[keys[event.key]]();
});
window.addEventListener("hashchange", () => {
  const { version, seat } = readHash();
  if (version !== null && (version !== state.version || (seat || "") !== state.seat)) go(version, seat || "");
});

// ---- drawing -----------------------------------------------------------------------------------------
function ctx(doc) {
  return { doc, legalMoves: [], seat: doc.seat, catalogue: state.catalogue, names: state.names,
           play: () => {}, describe: (move) => (state.renderer.describe || generic.describe)(move, state.catalogue),
           moveInFlight: () => true, explain: () => {} };
}

function render(root, doc) {
  try { state.renderer.render(root, ctx(doc)); } catch (error) { console.error(error); generic.render(root, ctx(doc)); }
}

function draw() {
  const doc = state.doc;
  if (doc.views) {
    // Everything revealed: each seat's own view, one board under another.
    board.replaceChildren(...Object.entries(doc.views).map(([seat, view]) => {
      const part = el("div", { class: "board replay-seat", dataset: { seat } });
      const holder = el("section", { class: "panel" }, el("h3", {}, `${nameOf(Number(seat))} sees`), part);
      render(part, { ...doc, view, seat: Number(seat) });
      return holder;
    }));
  } else {
    render(board, doc);
  }
  // Read-only: nothing on the board can be played.
  board.querySelectorAll("button, [data-click]").forEach((node) => { node.disabled = true; node.removeAttribute("data-click"); });
  drawControls();
  drawPlayers();
  drawOutcome();
  drawLog();
}

function drawControls() {
  const last = state.index.version;
  document.getElementById("r-timeline").value = String(state.version);
  document.getElementById("r-where").textContent = `Version ${state.version} of ${last}`
    + (state.doc && state.doc.to_act.length ? ` · ${state.doc.to_act.map(nameOf).join(", ")} to play` : "");
  for (const id of ["r-first", "r-back", "r-prev-turn", "r-prev-round"]) document.getElementById(id).disabled = state.version <= 0;
  // While the game goes on, forward and last may find newer versions (the index is read again).
  const atEnd = state.version >= last && state.index.finished;
  for (const id of ["r-last", "r-forward"]) document.getElementById(id).disabled = atEnd;
  for (const id of ["r-next-turn", "r-next-round"]) document.getElementById(id).disabled = state.version >= last;
  document.getElementById("r-play").textContent = state.playing ? "Pause" : "Play";
  document.getElementById("r-seat").value = state.seat || viewpointValue(state.doc ? state.doc.seat : null);
}

function drawSeedCheck() {
  const box = document.getElementById("seed-check");
  const hash = state.index.seed_hash;
  const short = `${hash.slice(0, 12)}…`;
  if (state.doc && state.doc.replay && state.doc.replay.seed !== undefined) {
    box.textContent = state.doc.replay.seed_ok
      ? `✓ The seed ${state.doc.replay.seed} matches the hash published at the start (${short}).`
      : `✗ The seed does not match the hash published at the start (${short}).`;
    box.className = state.doc.replay.seed_ok ? "seed-ok" : "error";
  } else {
    box.textContent = `Seed hash ${short}: the seed is shown once the game is over.`;
  }
}

function drawPlayers() {
  const doc = state.doc;
  const seats = Object.keys(state.names).map(Number).sort((a, b) => a - b);
  document.getElementById("players").replaceChildren(...seats.map((seat) => el("li",
    { class: `player${doc.to_act.includes(seat) ? " acting" : ""}`, dataset: { seat } },
    el("span", { class: "pname" }, el("a", { href: profileHref(seat) }, nameOf(seat))),
    doc.to_act.includes(seat) ? el("span", { class: "to-play" }, "▶ to play") : null)));
}

function profileHref(seat) {
  const s = state.seats && state.seats.find((x) => x.seat === seat);
  return s && s.player_id ? `/players/${s.player_id}` : "#";
}

function drawOutcome() {
  const box = document.getElementById("outcome");
  const outcome = state.doc.outcome;
  box.hidden = !outcome;
  if (!outcome) { drawSeedCheck(); return; }
  const order = outcome.scores.map((_, seat) => seat).sort((a, b) => outcome.ranks[a] - outcome.ranks[b]);
  box.replaceChildren(el("h2", {}, "Final result"), el("ol", { class: "ranking" },
    ...order.map((seat) => el("li", {}, `${nameOf(seat)} — ${outcome.scores[seat]} points`))));
  drawSeedCheck();
}

function moveLink(version) {
  const params = new URLSearchParams({ v: String(version) });
  if (state.seat) params.set("seat", state.seat);
  return `#${params}`;
}

function drawLog() {
  // The lines are built once per viewpoint (their links carry it); a step only moves the mark.
  const box = document.getElementById("log");
  if (state.logBuiltFor !== state.seat) { buildLog(box); state.logBuiltFor = state.seat; }
  box.querySelectorAll("li.current").forEach((li) => li.classList.remove("current"));
  const current = box.querySelector(`li[data-seq="${state.version}"]`);
  if (!current) return;
  current.classList.add("current");
  // Keep the current line in sight inside the log only (scrolling the page would move the board).
  box.scrollTop = Math.max(0, current.offsetTop - box.offsetTop - box.clientHeight / 2);
}

function buildLog(box) {
  const lines = [...state.log.map((e) => [e.seq, 0, e]), ...state.events.map((e) => [e.version, 1, e])]
    .filter(([v]) => v <= state.index.version).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  box.replaceChildren(...lines.map(([version, isEvent, entry]) => {
    if (isEvent) return el("li", { class: "log-event muted" }, entry.text);
    return el("li", { dataset: { seq: version } },
      el("a", { href: moveLink(version), class: "log-link", title: "link to this move" }, `#${version}`), " ",
      entry.text || `${nameOf(entry.seat)}: ${generic.describe(entry.move)}`);
  }));
}

// ---- start ---------------------------------------------------------------------------------------------
async function start() {
  try {
    await loadIndex();
  } catch (e) { showError(e.message); return; }
  const table = await api("/table").catch(() => null);
  if (table) {
    state.seats = table.seats;
    for (const s of table.seats) state.names[s.seat] = s.name;
  }
  document.getElementById("r-seat").replaceChildren(...state.index.viewpoints.map((v) => el("option", { value: viewpointValue(v) }, viewpointLabel(v))));
  document.getElementById("replay-title").textContent = `Replay · ${state.index.ruleset}`;
  try { state.renderer = await import(`/static/rulesets/${state.index.ruleset}.js`); } catch { state.renderer = generic; }
  try { state.catalogue = await request("GET", `/api/rulesets/${state.index.ruleset}/catalogue`); } catch { state.catalogue = {}; }
  try {
    const log = await api("/log");
    state.log = log.moves;
    state.events = log.events || [];
  } catch { /* the board still steps */ }
  const wanted = readHash();
  await go(wanted.version ?? state.index.version, wanted.seat || "");
  state.ready = true;
}
start();
