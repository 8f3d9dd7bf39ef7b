// A game's leaderboard: players by rating (settled first, then provisional), bots' fixed ratings.
import { el, me, request, showWho } from "./api.js";

showWho(me());
const ruleset = document.getElementById("leaderboard").dataset.ruleset;
const pool = document.getElementById("pool");
pool.value = new URLSearchParams(location.search).get("pool") === "bots" ? "bots" : "rated";
pool.addEventListener("change", () => { history.replaceState(null, "", `?pool=${pool.value}`); load(); });

async function load() {
  let board;
  try { board = await request("GET", `/api/rulesets/${ruleset}/leaderboard?pool=${pool.value}`); } catch (e) {
    const box = document.getElementById("board-error");
    box.textContent = e.message; box.hidden = false;
    return;
  }
  document.getElementById("board-title").textContent = `Leaderboard · ${ruleset}`;
  document.querySelector("#leaders tbody").replaceChildren(...(board.players.length ? board.players.map((p) => el("tr", {},
    el("td", {}, String(p.place)), el("td", {}, el("a", { href: `/players/${p.player_id}` }, p.name)),
    el("td", {}, `${p.rating}${p.provisional ? " (provisional)" : ""}`), el("td", {}, String(p.games)), el("td", {}, String(p.wins))))
    : [el("tr", {}, el("td", { colspan: "5", class: "muted" }, "Nobody is rated yet."))]));
  document.getElementById("bot-ratings").textContent = `Bots play at fixed ratings: ${Object.entries(board.bots).map(([level, r]) => `${level} ${r}`).join(", ")}.`;
}
load();
