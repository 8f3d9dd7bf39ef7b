// Room page: seats, invite, join/leave, bots (host), start; follows the room live and opens the game.
import { chatFrame, el, ensurePlayer, liveSocket, me, request, showWho } from "./api.js";
import { describeOptions, describePace } from "./options.js";

const roomId = document.getElementById("room").dataset.roomId;
const code = new URLSearchParams(location.search).get("invite_code") || sessionStorage.getItem(`civitas.code.${roomId}`) || "";
const error = document.getElementById("room-error");
const rulesets = Object.fromEntries((await request("GET", "/api/rulesets")).map((r) => [r.id, r]));
showWho(me());

async function act(fn) {
  error.textContent = "";
  try { await fn(); } catch (e) { error.textContent = e.message; }
}

// Bot levels, weakest first. A host who never chose one (a newcomer's first table) is offered
// Normal, marked as suggested; after that the level they chose last.
const LEVELS = { easy: "Easy", normal: "Normal", hard: "Hard", expert: "Expert" };
const LEVEL_HINTS = {
  easy: "the heuristic bot with some random moves",
  normal: "the heuristic bot: a good first opponent",
  hard: "searches about half a second a move",
  expert: "searches about two seconds a move",
};
const LEVEL_KEY = "civitas.botLevel";
function chosenLevel() { return localStorage.getItem(LEVEL_KEY) in LEVELS ? localStorage.getItem(LEVEL_KEY) : "normal"; }
function rememberLevel(level) { localStorage.setItem(LEVEL_KEY, level); }
function levelSelect(current, seat, onChange) {
  const newcomer = !(localStorage.getItem(LEVEL_KEY) in LEVELS);
  const select = el("select", { class: "bot-level", "aria-label": `Bot level for seat ${seat + 1}`, dataset: { seat },
    onchange: (e) => onChange(e.target.value) },
    ...Object.entries(LEVELS).map(([id, name]) => el("option", { value: id, title: LEVEL_HINTS[id], selected: id === current },
      newcomer && id === "normal" ? `${name} (suggested)` : name)));
  select.value = current;
  return select;
}
function botName(seat) {
  const level = LEVELS[seat.level];
  return seat.bot in LEVELS ? `Bot ${seat.seat + 1} (${level})` : `${seat.bot} ${seat.seat + 1}`;
}

// The room's take-back option, told before anyone sits down.
const UNDO_WORDS = { misclick: "take-backs: a misclick (your last move, once)", turn: "take-backs: your whole turn" };

let navigating = false;
function go(url) {
  // Start answers with the game id and the room update says the same: navigate once.
  if (navigating) return;
  navigating = true;
  location.href = url;
}

function draw(room) {
  if (!room) { document.getElementById("room-title").textContent = "This room is closed."; return; }
  if (room.game_id) { go(`/games/${room.game_id}`); return; }
  const player = me();
  const mine = player && room.seats.find((s) => s.player && s.player.id === player.id);
  const isHost = player && room.host.id === player.id;
  const ruleset = rulesets[room.ruleset];
  document.getElementById("room-title").textContent = `${ruleset ? ruleset.name : room.ruleset} · ${room.private ? "private" : "public"} table`;
  document.title = `${ruleset ? ruleset.name : room.ruleset} room · Civitas`;
  const opts = ruleset ? describeOptions(ruleset.options, room.options, room.seats.length) : "";
  const undo = UNDO_WORDS[room.undo] ? ` · ${UNDO_WORDS[room.undo]}` : "";
  document.getElementById("room-meta").textContent = `Host: ${room.host.name}${opts ? " · " + opts : ""}${undo}`;
  document.getElementById("room-clock").textContent = describePace(room.pace);
  const rules = document.getElementById("room-rules"); // the guide and rulebook, before sitting down
  rules.href = `/rules/${room.ruleset}`;
  rules.textContent = `How to play ${ruleset ? ruleset.name : room.ruleset}`;
  if (room.invite_code) {
    const link = `${location.origin}/r/${room.invite_code}`;
    document.getElementById("invite").hidden = false;
    document.getElementById("invite-code").textContent = room.invite_code;
    const a = document.getElementById("invite-link");
    a.href = link; a.textContent = link;
    document.getElementById("copy-link").onclick = async () => {
      const button = document.getElementById("copy-link");
      try { await navigator.clipboard.writeText(link); button.textContent = "Copied ✓"; }
      catch { button.textContent = "Select the link to copy it"; }
      setTimeout(() => { button.textContent = "Copy link"; }, 2500);
    };
  }
  document.getElementById("seats").replaceChildren(...room.seats.map((seat) => {
    let who = el("span", { class: "muted" }, "empty");
    if (seat.player) who = el("span", {}, el("a", { href: `/players/${seat.player.id}`, class: "profile-link" }, seat.player.name), seat.player.id === room.host.id ? " (host)" : "");
    if (seat.bot) who = el("span", { class: "bot" }, botName(seat), " (computer)");
    const buttons = [];
    if (!mine && !seat.player && !seat.bot && room.status === "lobby")
      buttons.push(el("button", { type: "button", class: "sit-here", dataset: { seat: seat.seat },
        onclick: () => act(async () => {
          if (!(await ensurePlayer())) return;
          await request("POST", `/api/rooms/${roomId}/join`, code ? { invite_code: code, seat: seat.seat } : { seat: seat.seat });
          socket.close();
          socket = connect();
        }) }, "Sit here"));
    if (isHost && !seat.player && !seat.bot && room.status === "lobby") {
      const pick = levelSelect(chosenLevel(), seat.seat, (level) => rememberLevel(level));
      buttons.push(pick, el("button", { type: "button", class: "add-bot", dataset: { seat: seat.seat },
        onclick: () => act(() => request("POST", `/api/rooms/${roomId}/bots`, { seat: seat.seat, level: pick.value })) }, "Add bot"));
    }
    if (isHost && seat.bot && room.status === "lobby")
      buttons.push(levelSelect(seat.level || "normal", seat.seat, (level) => act(async () => {
        rememberLevel(level);
        await request("PUT", `/api/rooms/${roomId}/bots/${seat.seat}`, { level });
      })));
    if (isHost && seat.bot)
      buttons.push(el("button", { type: "button", class: "remove-bot", dataset: { seat: seat.seat },
        onclick: () => act(() => request("DELETE", `/api/rooms/${roomId}/bots/${seat.seat}`)) }, "Remove bot"));
    return el("li", { class: "seat", dataset: { seat: seat.seat } }, el("strong", {}, `Seat ${seat.seat + 1}`), " ", who, ...buttons);
  }));
  const full = room.seats.every((s) => s.player || s.bot);
  document.getElementById("join-button").hidden = !!mine || room.status !== "lobby";
  document.getElementById("leave-button").hidden = !mine;
  const start = document.getElementById("start-button");
  start.hidden = !isHost;
  start.disabled = !full;
  // Why Start cannot be pressed (or who starts), in words beside it, not only in a tooltip.
  const reason = !full && isHost ? "Fill every seat with a player or a bot to start."
    : !isHost && room.status === "lobby" ? `The host, ${room.host.name}, starts the game once every seat is filled.` : "";
  start.title = reason;
  const why = document.getElementById("start-reason");
  why.textContent = reason;
  why.hidden = !reason;
}

document.getElementById("join-button").onclick = () => act(async () => {
  if (!(await ensurePlayer())) return;
  await request("POST", `/api/rooms/${roomId}/join`, code ? { invite_code: code } : {});
  socket.close();
  socket = connect();
});
document.getElementById("leave-button").onclick = () => act(async () => {
  await request("POST", `/api/rooms/${roomId}/leave`);
  location.href = "/";
});
document.getElementById("start-button").onclick = () => act(async () => {
  const { game_id } = await request("POST", `/api/rooms/${roomId}/start`);
  go(`/games/${game_id}`);
});

function connect() {
  const params = new URLSearchParams();
  if (me()) params.set("token", me().token);
  if (code) params.set("invite_code", code);
  return liveSocket(`/ws/rooms/${roomId}?${params}`, {
    onOpen: (open) => { if (pendingChat) { open.send(JSON.stringify(chatFrame(pendingChat))); pendingChat = null; } },
    onMessage: (frame) => {
      if (frame.type === "room") draw(frame.room);
      else if (frame.type === "chat") addChat([frame.message]);
      else if (frame.type === "error") {
        if (typeof frame.id === "string" && frame.id.startsWith("chat-")) document.getElementById("chat-error").textContent = frame.detail;
        else error.textContent = frame.detail;
      }
    },
    onState: (s, why) => {
      if (s !== "refused") return;
      document.getElementById("room-title").textContent = why;
      error.textContent = `${why} This page will not reconnect; check the link or the invite code.`;
    },
  });
}
let pendingChat = null; // a visitor's first line, sent once the socket is theirs
let socket = connect();

// Chat: stored with the room, read once over REST, then live over the room socket.
const chat = [];
function addChat(lines) {
  for (const m of lines) if (!chat.some((x) => x.id === m.id)) chat.push(m);
  const line = (m) => el("p", { class: "chat-line", dataset: { chatId: m.id } }, el("strong", {}, m.name), ": ", m.text);
  document.getElementById("chat-players").replaceChildren(...chat.filter((m) => !m.spectator).slice(-100).map(line));
  const watchers = chat.filter((m) => m.spectator);
  document.getElementById("chat-spectators").replaceChildren(...watchers.slice(-100).map(line));
  document.querySelector(".chat-spectators-title").hidden = !watchers.length;
}
request("GET", `/api/rooms/${roomId}/chat${code ? `?invite_code=${encodeURIComponent(code)}` : ""}`).then(addChat).catch(() => {});
document.getElementById("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-input");
  const text = input.value.trim();
  document.getElementById("chat-error").textContent = "";
  if (!text) return;
  if (!me()) {
    // A visitor chooses a name first; the socket reconnects as them and the line is sent then.
    if (!(await ensurePlayer())) return;
    socket.close(); socket = connect();
    pendingChat = text;
    input.value = "";
    return;
  }
  if (!socket.send(chatFrame(text))) {
    document.getElementById("chat-error").textContent = "You are offline; the message was not sent.";
    return;
  }
  input.value = "";
});
