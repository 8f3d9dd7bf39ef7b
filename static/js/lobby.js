// Lobby: live list of public rooms, create a room (options from the ruleset's JSON schema), join by code.
import { el, ensurePlayer, liveSocket, me, request, showWho } from "./api.js";
import { describePace, optionFields, readOptions, showRelevant } from "./options.js";
import { applyPatch } from "./patch.js";

const rulesets = await request("GET", "/api/rulesets");
const byId = Object.fromEntries(rulesets.map((r) => [r.id, r]));
const select = document.getElementById("ruleset-select");
const seats = document.getElementById("seats-input");
const fields = document.getElementById("options-fields");

for (const r of rulesets) select.append(el("option", { value: r.id }, `${r.name} (${r.min_players}–${r.max_players})`));
const signedIn = me();
document.getElementById("leaderboards").replaceChildren(
  ...rulesets.flatMap((r, i) => [i ? " · " : "", el("a", { href: `/leaderboard/${r.id}` }, r.name)]),
  ...(signedIn ? [" · ", el("a", { href: `/players/${signedIn.id}`, id: "my-profile" }, "Your page")] : []));

function showOptions() {
  const ruleset = byId[select.value];
  if (!ruleset) return;
  seats.min = ruleset.min_players;
  seats.max = ruleset.max_players;
  seats.value = Math.min(Math.max(Number(seats.value) || 2, ruleset.min_players), ruleset.max_players);
  fields.replaceChildren(el("legend", {}, "Options"), ...optionFields(ruleset.options));
  const rules = document.getElementById("ruleset-rules"); // read before choosing (/rules/<id>)
  rules.href = `/rules/${ruleset.id}`;
  rules.textContent = `How to play ${ruleset.name}`;
  relevant = showRelevant(fields, () => seats.value);
}
let relevant = () => {};
seats.addEventListener("input", () => relevant());
select.addEventListener("change", showOptions);
// "New table" at the end of a game links here with its ruleset chosen.
const wanted = new URLSearchParams(location.search).get("ruleset");
if (wanted && byId[wanted]) select.value = wanted;
showOptions();

document.getElementById("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  try {
    if (!(await ensurePlayer())) return; // the name dialog was closed: nothing is created
    const room = await request("POST", "/api/rooms", {
      ruleset: select.value,
      seats: Number(seats.value),
      private: document.getElementById("private-input").checked,
      options: readOptions(fields, byId[select.value].options),
      pace: readPace(),
      undo: document.getElementById("undo-select").value,
    });
    location.href = `/rooms/${room.id}`;
  } catch (e) { error.textContent = e.message; }
});

// The host's choice of clock: none, real time (minutes per move + reserve) or turn based (hours).
const paceSelect = document.getElementById("pace-select");
function showPace() {
  for (const field of document.querySelectorAll("[data-pace]")) field.hidden = field.dataset.pace !== paceSelect.value;
}
paceSelect.addEventListener("change", showPace);
showPace();
function readPace() {
  const kind = paceSelect.value;
  if (kind === "realtime") return { kind, move_minutes: Number(document.getElementById("pace-move-minutes").value), reserve_minutes: Number(document.getElementById("pace-reserve-minutes").value) };
  if (kind === "turn") return { kind, move_hours: Number(document.getElementById("pace-move-hours").value), reserve_hours: Number(document.getElementById("pace-reserve-hours").value), timeout: document.getElementById("pace-timeout").value };
  return { kind: "none" };
}

async function joinByCode(code) {
  const error = document.getElementById("code-error");
  error.textContent = "";
  try {
    const room = await request("POST", "/api/rooms/by-code", { invite_code: code });
    sessionStorage.setItem(`civitas.code.${room.id}`, code);
    location.href = `/rooms/${room.id}?invite_code=${encodeURIComponent(code)}`;
  } catch (e) { error.textContent = e.message; }
}
document.getElementById("code-form").addEventListener("submit", (event) => {
  event.preventDefault();
  joinByCode(document.getElementById("code-input").value.trim());
});
const linked = new URLSearchParams(location.search).get("code");
if (linked) joinByCode(linked);

function drawRooms(rooms) {
  const body = document.getElementById("rooms-body");
  if (!rooms.length) { body.replaceChildren(el("tr", {}, el("td", { colspan: 4, class: "muted" }, "No open tables yet: create one!"))); return; }
  body.replaceChildren(...rooms.map((room) => {
    const taken = room.seats.filter((s) => s.player || s.bot).length;
    return el("tr", { dataset: { roomId: room.id } },
      el("td", {}, byId[room.ruleset] ? byId[room.ruleset].name : room.ruleset,
        el("small", { class: "muted room-clock" }, describePace(room.pace))),
      el("td", {}, room.host.name),
      el("td", {}, `${taken} / ${room.seats.length}`),
      el("td", {}, el("a", { href: `/rooms/${room.id}`, class: "button" }, "Open")));
  }));
}
// A snapshot on connect, then patches; a missed patch reconnects for a fresh snapshot.
let lobby = null;
liveSocket("/ws/lobby", { onMessage: (frame, socket) => {
  if (frame.type === "rooms") lobby = { version: frame.version, rooms: frame.rooms };
  else if (frame.type !== "rooms_patch" || !lobby) return;
  else if (frame.version !== lobby.version + 1) { lobby = null; socket.close(); return; }
  else lobby = { version: frame.version, rooms: applyPatch(lobby.rooms, frame.ops) };
  drawRooms(lobby.rooms);
} });

// The player's own tables (hosted or seated), so a closed tab never loses a game.
async function drawMine() {
  if (!me()) return;
  showWho(me());
  let rooms = [];
  try { rooms = await request("GET", "/api/players/me/rooms"); } catch { return; }
  document.getElementById("mine-panel").hidden = rooms.length === 0;
  document.getElementById("mine-body").replaceChildren(...rooms.map((room) => el("tr", { dataset: { mineId: room.id } },
    el("td", {}, byId[room.ruleset] ? byId[room.ruleset].name : room.ruleset),
    el("td", {}, room.host.name),
    el("td", {}, { lobby: "waiting for players", playing: "in play", finished: "finished" }[room.status]),
    el("td", {}, el("a", { class: "button", href: room.game_id ? `/games/${room.game_id}` : `/rooms/${room.id}` },
      room.game_id ? (room.status === "finished" ? "Results" : "Play") : "Open")))));
}
drawMine();
