// Room page: seats, invite, join/leave, bots (host), start; follows the room live and opens the game.
import { el, ensurePlayer, liveSocket, me, request, showWho } from "./api.js";

const roomId = document.getElementById("room").dataset.roomId;
const code = new URLSearchParams(location.search).get("invite_code") || sessionStorage.getItem(`civitas.code.${roomId}`) || "";
const error = document.getElementById("room-error");
const rulesets = Object.fromEntries((await request("GET", "/api/rulesets")).map((r) => [r.id, r]));
showWho(me());

async function act(fn) {
  error.textContent = "";
  try { await fn(); } catch (e) { error.textContent = e.message; }
}

function draw(room) {
  if (!room) { document.getElementById("room-title").textContent = "This room is closed."; return; }
  if (room.game_id) { location.href = `/games/${room.game_id}`; return; }
  const player = me();
  const mine = player && room.seats.find((s) => s.player && s.player.id === player.id);
  const isHost = player && room.host.id === player.id;
  const ruleset = rulesets[room.ruleset];
  document.getElementById("room-title").textContent = `${ruleset ? ruleset.name : room.ruleset} · ${room.private ? "private" : "public"} table`;
  const opts = Object.entries(room.options).map(([k, v]) => `${k}: ${v}`).join(", ");
  document.getElementById("room-meta").textContent = `Host: ${room.host.name}${opts ? " · " + opts : ""}`;
  if (room.invite_code) {
    const link = `${location.origin}/r/${room.invite_code}`;
    document.getElementById("invite").hidden = false;
    document.getElementById("invite-code").textContent = room.invite_code;
    const a = document.getElementById("invite-link");
    a.href = link; a.textContent = link;
    document.getElementById("copy-link").onclick = () => navigator.clipboard && navigator.clipboard.writeText(link);
  }
  document.getElementById("seats").replaceChildren(...room.seats.map((seat) => {
    let who = el("span", { class: "muted" }, "empty");
    if (seat.player) who = el("span", {}, seat.player.name, seat.player.id === room.host.id ? " (host)" : "");
    if (seat.bot) who = el("span", { class: "bot" }, `${seat.bot} (computer)`);
    const buttons = [];
    if (isHost && !seat.player && !seat.bot)
      buttons.push(el("button", { type: "button", class: "add-bot", dataset: { seat: seat.seat },
        onclick: () => act(() => request("POST", `/api/rooms/${roomId}/bots`, { seat: seat.seat })) }, "Add bot"));
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
  start.title = full ? "" : "Fill every seat with a player or a bot first";
}

document.getElementById("join-button").onclick = () => act(async () => {
  await ensurePlayer();
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
  location.href = `/games/${game_id}`;
});

function connect() {
  const params = new URLSearchParams();
  if (me()) params.set("token", me().token);
  if (code) params.set("invite_code", code);
  return liveSocket(`/ws/rooms/${roomId}?${params}`, {
    onMessage: (frame) => {
      if (frame.type === "room") draw(frame.room);
      else if (frame.type === "error") error.textContent = frame.detail;
    },
  });
}
let socket = connect();
