// A player's page: name, record, ratings per game, last games with links to their replays.
import { el, me, request, showWho } from "./api.js";

showWho(me());
// "me" is the caller: asked by id, since /api/players/me/games is My games (issue 27).
const shown = document.getElementById("profile").dataset.playerId;
const playerId = shown === "me" && me() ? me().id : shown;
const pct = (share) => (share === null || share === undefined ? "—" : `${Math.round(share * 100)} %`);
const ratingText = (r) => `${r.rating}${r.provisional ? " (provisional)" : ""}`;

async function start() {
  let profile, games;
  try {
    [profile, games] = await Promise.all([request("GET", `/api/players/${playerId}`),
      request("GET", `/api/players/${playerId}/games?limit=20`)]);
  } catch (e) {
    const box = document.getElementById("profile-error");
    box.textContent = e.message; box.hidden = false;
    return;
  }
  document.getElementById("player-name").textContent = profile.name;
  document.title = `${profile.name} · Civitas`;
  const facts = [["Games played", profile.games_played], ["In progress", profile.games_in_progress],
    ["Wins", profile.wins], ["Win share", pct(profile.win_share)], ["Games finished", pct(profile.finished_share)]];
  document.getElementById("record").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
  document.querySelector("#ratings tbody").replaceChildren(...(profile.ratings.length ? profile.ratings.map((r) => el("tr", {},
    el("td", {}, el("a", { href: `/leaderboard/${r.ruleset}${r.pool === "bots" ? "?pool=bots" : ""}` }, r.ruleset), r.pool === "bots" ? " (against bots)" : ""),
    el("td", {}, ratingText(r)), el("td", {}, String(r.games)), el("td", {}, String(r.wins))))
    : [el("tr", {}, el("td", { colspan: "4", class: "muted" }, "No rated games yet."))]));
  document.getElementById("games").replaceChildren(...(games.length ? games.map((g) => el("li", { dataset: { gameId: g.game_id } },
    el("strong", {}, g.ruleset), " · ",
    g.place ? `place ${g.place}` : g.status === "active" ? "in progress" : g.status, " · ",
    ...g.players.flatMap((p, i) => [i ? ", " : "", p.player_id ? el("a", { href: `/players/${p.player_id}` }, p.name) : p.name]),
    g.rating ? ` · ${g.rating.before} → ${g.rating.after}` : "", " · ",
    el("a", { href: g.replay, class: "replay-link" }, "replay")))
    : [el("li", { class: "muted" }, "No games yet.")]));
}
start();
