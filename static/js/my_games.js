// My games: your turn first (soonest deadline first), then waiting, then finished, with the
// number of games waiting for you in the tab title; notification settings, push on this
// device (a service worker), and vacation.
import { el, me, request, showWho } from "./api.js";

const $ = (id) => document.getElementById(id);
const EVENTS = { your_turn: "Your turn", game_started: "Game started", game_finished: "Game finished", mention: "Chat names you", deadline: "12 hours left" };
const CHANNELS = ["push", "email", "webhook"];
const STATES = { your_turn: "Your turn", waiting: "Waiting", finished: "Finished" };

function when(iso) {
  if (!iso) return "";
  const hours = (new Date(iso) - Date.now()) / 3600000;
  if (hours < 0) return "ran out";
  return hours < 48 ? `${Math.round(hours)} h left` : `${Math.round(hours / 24)} days left`;
}

async function drawGames() {
  let games;
  try { games = await request("GET", "/api/players/me/games"); }
  catch (e) { $("games-note").textContent = e.message; return; }
  const mine = games.filter((g) => g.state === "your_turn").length;
  document.title = (mine ? `(${mine}) ` : "") + "My games · Civitas";
  $("games-count").textContent = mine ? `${mine} waiting for you` : "";
  $("games-note").textContent = games.length ? "" : "No games yet: open or join a table in the lobby.";
  $("games-table").hidden = !games.length;
  $("games-body").replaceChildren(...games.map((g) => el("tr", { dataset: { gameId: g.game_id, state: g.state } },
    el("td", {}, g.ruleset_name),
    el("td", {}, g.players.join(", ")),
    el("td", {}, g.state === "waiting" && g.to_act.length ? `Waiting for ${g.to_act.join(", ")}` : STATES[g.state] + (g.held ? " (a bot is playing for you)" : "")),
    el("td", {}, g.state === "finished" ? "" : when(g.deadline)),
    el("td", {}, el("a", { class: "button" + (g.state === "your_turn" ? " primary" : ""), href: `/games/${g.game_id}` },
      g.state === "finished" ? "Results" : g.state === "your_turn" ? "Play" : "Open")))));
}

async function drawSettings() {
  const s = await request("GET", "/api/players/me/notifications");
  $("notify-body").replaceChildren(...Object.entries(EVENTS).map(([event, words]) => el("tr", {},
    el("td", {}, words),
    ...CHANNELS.map((channel) => el("td", {}, el("input", { type: "checkbox", "aria-label": `${words} by ${channel}`,
      dataset: { event, channel }, checked: s.events[event].includes(channel) }))))));
  $("webhook-input").value = s.webhook_url || "";
  $("always-input").checked = s.always;
  const ready = CHANNELS.filter((c) => s.ready[c]);
  $("notify-ready").textContent = ready.length ? `Set up: ${ready.join(", ")}.` : "No channel is set up yet: turn on push, confirm an e-mail address (Account), or give a webhook.";
  $("push-button").hidden = !s.vapid_public_key || !("serviceWorker" in navigator) || !("PushManager" in window);
  $("push-button").dataset.key = s.vapid_public_key || "";
}

$("notify-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("notify-error").textContent = "";
  const events = Object.fromEntries(Object.keys(EVENTS).map((e) => [e, []]));
  for (const box of document.querySelectorAll("#notify-body input:checked")) events[box.dataset.event].push(box.dataset.channel);
  try {
    await request("PUT", "/api/players/me/notifications", { events, webhook_url: $("webhook-input").value.trim() || null, always: $("always-input").checked });
    await drawSettings();
  } catch (e) { $("notify-error").textContent = e.message; }
});

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// Register the service worker (scope: the whole site), subscribe with the server's VAPID key,
// and hand the subscription to the server.
export async function turnOnPush(key) {
  if (Notification.permission !== "granted" && (await Notification.requestPermission()) !== "granted") throw new Error("Notifications are blocked for this site in the browser.");
  const registration = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await request("POST", "/api/players/me/push-subscriptions", subscription.toJSON());
}
$("push-button").addEventListener("click", async () => {
  $("push-note").textContent = "";
  try { await turnOnPush($("push-button").dataset.key); $("push-note").textContent = "Push is on for this device."; await drawSettings(); }
  catch (e) { $("push-note").textContent = e.message; }
});

async function drawVacation() {
  const v = await request("GET", "/api/players/me/vacation");
  $("vacation-status").textContent = v.on_vacation
    ? `On vacation until ${new Date(v.until).toLocaleString()}: your turn clocks wait. ${v.days_left} days left this year.`
    : `${v.days_left} of ${v.days_per_year} vacation days left this year. On vacation, your clocks in turn-based games wait.`;
  $("vacation-end").hidden = !v.on_vacation;
}
$("vacation-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("vacation-error").textContent = "";
  try { await request("POST", "/api/players/me/vacation", { days: Number($("vacation-days").value) }); await drawVacation(); }
  catch (e) { $("vacation-error").textContent = e.message; }
});
$("vacation-end").addEventListener("click", async () => {
  try { await request("DELETE", "/api/players/me/vacation"); await drawVacation(); }
  catch (e) { $("vacation-error").textContent = e.message; }
});

if (me()) {
  showWho(me());
  $("notify-panel").hidden = $("vacation-panel").hidden = false;
  drawGames();
  drawSettings();
  drawVacation();
  setInterval(drawGames, 30000);  // the page's own refresh; push tells an absent player
  document.addEventListener("visibilitychange", () => { if (!document.hidden) drawGames(); });
} else {
  $("games-note").textContent = "Play as a guest from the lobby, or sign in (Account), to see your games.";
}
