// REST helpers and the browser's guest identity (kept in localStorage).

const KEY = "civitas.player";

export function me() {
  try { return JSON.parse(localStorage.getItem(KEY)); } catch { return null; }
}

export async function request(method, path, body) {
  const headers = { "Accept": "application/json" };
  const player = me();
  if (player) headers["Authorization"] = `Bearer ${player.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    if (response.status === 401 && player) localStorage.removeItem(KEY);
    const error = new Error(data && data.detail ? data.detail : `Request failed (${response.status}).`);
    error.status = response.status;
    error.body = data;
    throw error;
  }
  return data;
}

// Ask for a name once, then create a guest player; resolves to {id, name, token}.
export async function ensurePlayer() {
  const existing = me();
  if (existing) { showWho(existing); return existing; }
  const dialog = document.getElementById("name-dialog");
  const input = document.getElementById("name-input");
  const name = await new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(input.value.trim() || "Player"), { once: true });
    dialog.showModal();
  });
  const player = await request("POST", "/api/players", { name });
  localStorage.setItem(KEY, JSON.stringify(player));
  showWho(player);
  return player;
}

export function showWho(player) {
  const el = document.getElementById("whoami");
  if (el && player) el.textContent = `Playing as ${player.name}`;
}

// A websocket that reconnects with jittered backoff; `onOpen` runs after every (re)connect.
export function liveSocket(path, { onMessage, onOpen, onState }) {
  let socket = null;
  let attempt = 0;
  let stopped = false;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    socket.onopen = () => { attempt = 0; onState && onState("online"); onOpen && onOpen(socket); };
    socket.onmessage = (event) => onMessage(JSON.parse(event.data), socket);
    socket.onclose = () => {
      onState && onState("offline");
      if (stopped) return;
      const delay = Math.min(8000, 300 * 2 ** attempt++) * (0.5 + Math.random());
      setTimeout(connect, delay);
    };
  };
  connect();
  return { send: (message) => socket && socket.readyState === 1 && socket.send(JSON.stringify(message)),
           close: () => { stopped = true; socket && socket.close(); } };
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
