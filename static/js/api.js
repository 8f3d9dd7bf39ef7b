// REST helpers and the browser's guest identity (kept in localStorage).

const KEY = "civitas.player";

export function me() {
  try { return JSON.parse(localStorage.getItem(KEY)); } catch { return null; }
}

export function forgetMe() { localStorage.removeItem(KEY); }

// A sign-in (password, code or reset link) hands this browser a new session of a player.
export function setMe(player) {
  localStorage.setItem(KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token, expires_at: player.expires_at }));
}

// Tokens expire: renew silently when less than a week is left (or the expiry is unknown), once
// per page, before any other request or socket uses the token. The old token keeps a short grace.
const RENEW_MS = 7 * 24 * 3600 * 1000;
const renewing = (async () => {
  const player = me();
  if (!player || (player.expires_at && Date.parse(player.expires_at) - Date.now() > RENEW_MS)) return;
  try {
    const response = await fetch("/api/players/me/token", { method: "POST", headers: { "Authorization": `Bearer ${player.token}` } });
    if (response.ok) localStorage.setItem(KEY, JSON.stringify(await response.json()));
  } catch { /* offline: try again on the next page */ }
})();

export async function request(method, path, body) {
  await renewing;
  const headers = { "Accept": "application/json" };
  const player = me();
  if (player) headers["Authorization"] = `Bearer ${player.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    if (response.status === 401 && player && me() && me().token === player.token) localStorage.removeItem(KEY);
    const error = new Error(data && data.detail ? data.detail : `Request failed (${response.status}).`);
    error.status = response.status;
    error.body = data;
    throw error;
  }
  return data;
}

// Ask for a name once, then create a guest player; resolves to {id, name, token}, or to null
// when the player closes the dialog with Escape (nothing is created then).
export async function ensurePlayer() {
  const existing = me();
  if (existing) { showWho(existing); return existing; }
  const dialog = document.getElementById("name-dialog");
  const input = document.getElementById("name-input");
  let cancelled = false;
  dialog.addEventListener("cancel", () => { cancelled = true; }, { once: true });
  const name = await new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(input.value.trim() || "Player"), { once: true });
    dialog.showModal();
  });
  if (cancelled) return null;
  const player = await request("POST", "/api/players", { name });
  localStorage.setItem(KEY, JSON.stringify(player));
  showWho(player);
  return player;
}

// A chat frame (rooms and games): its id says which error frame answers it.
export function chatFrame(text) {
  return { type: "chat", text, id: `chat-${Date.now().toString(36)}` };
}

export function showWho(player) {
  const el = document.getElementById("whoami");
  if (el && player) el.textContent = `Playing as ${player.name}`;
}

// A websocket that reconnects with exponential backoff and full jitter; `onOpen` runs after every
// (re)connect. A socket the server refuses (close codes 4400-4499: no such game or room, not
// visible to you, bad token) is not retried: `onState("refused", sentence)` says why, once.
export const BACKOFF = { base: 500, cap: 15000 };
export function backoffDelay(attempt, random = Math.random) {
  return Math.round(random() * Math.min(BACKOFF.cap, BACKOFF.base * 2 ** attempt));
}

export function liveSocket(path, { onMessage, onOpen, onState }) {
  let socket = null;
  let attempt = 0;
  let stopped = false;
  let refusal = null;
  const stats = { connects: 0 };
  const connect = async () => {
    await renewing;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    stats.connects += 1;
    // A ?token= in the path travels as a subprotocol instead (never in the URL, so never in
    // access logs), and it is always the current, renewed token.
    const url = new URL(path, location.href);
    const player = url.searchParams.has("token") ? me() : null;
    url.searchParams.delete("token");
    const protocols = player ? ["civitas", `bearer.${player.token}`] : ["civitas"];
    socket = new WebSocket(`${scheme}://${location.host}${url.pathname}${url.search}`, protocols);
    socket.onopen = () => { onState && onState("online"); onOpen && onOpen(socket); };
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "error" && frame.id === null && [401, 403, 404].includes(frame.status)) refusal = frame.detail;
      else if (frame.type === "snapshot" || frame.type === "room" || frame.type === "rooms") attempt = 0;
      onMessage(frame, socket);
    };
    socket.onclose = (event) => {
      if (stopped) { onState && onState("closed"); return; }
      if (event.code >= 4400 && event.code < 4500) {
        stopped = true;
        onState && onState("refused", refusal || "The server refused this connection.");
        return;
      }
      onState && onState("offline");
      setTimeout(connect, backoffDelay(attempt++));
    };
  };
  connect();
  // A socket that went silent may take minutes to report its close (a cut network): `restart`
  // drops it at once, without waiting for its close, and connects again.
  const restart = () => {
    if (stopped || !socket) return;
    const dead = socket;
    dead.onopen = dead.onmessage = dead.onclose = null;
    try { dead.close(); } catch { /* already closing */ }
    onState && onState("offline");
    setTimeout(connect, backoffDelay(attempt++));
  };
  return { send: (message) => { if (socket && socket.readyState === 1) { socket.send(JSON.stringify(message)); return true; } return false; },
           close: () => { stopped = true; socket && socket.close(); },
           reconnect: () => { socket && socket.close(); },
           restart,
           get open() { return !!socket && socket.readyState === 1; },
           stats };
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
