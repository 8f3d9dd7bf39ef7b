// Table chrome: what every game's page draws around the board, whatever the game: the status
// line (whose turn, a countdown before a bot steps in), the seats panel with clocks, the log in
// words (hover or focus a line to see what it changed on the board), chat, and the result panel
// at the end. game.js is the loop (socket, patches, moves) and calls these; docs/UX.md has the
// layout.
import { el, me, request } from "./api.js";
import { seatName } from "./kit.js";
import { gameFinished } from "./learn.js";

/** The chrome of one game page. `t` gives the page's `state`, `board` and `gameId`, and the
 * loop's helpers (myTurn, myHeld, listNames, ctx, describe, whenReleased, takeSeat, showError,
 * refreshTable); the functions returned draw from `state`. */
export function tableChrome(t) {
  const { state, board, gameId, myTurn, myHeld, listNames, ctx, describe, whenReleased, takeSeat, showError, refreshTable } = t;
  const nameOf = (seat) => seatName(state.names, seat);

  function mergeLog(entries) {
    const bySeq = new Map(state.log.map((e) => [e.seq, e]));
    for (const e of entries) bySeq.set(e.seq, e);
    state.log = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    drawLog();
  }

  function targets(entry) {
    if (!entry || !state.renderer || !state.renderer.changed) return [];
    try {
      return (state.renderer.changed(entry, ctx()) || []).flatMap((sel) => [...board.querySelectorAll(sel)]);
    } catch { return []; }
  }

  function drawLog() {
    // A new log line moves what is below it: while a pointer is down it waits like the board.
    if (!whenReleased(drawLog)) return;
    // Seat changes (left, held by a bot, back) sit after the move of their version.
    const lines = [...state.log.map((e) => [e.seq, 0, e]), ...(state.events || []).map((e) => [e.version, 1, e])]
      .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const entries = lines.slice(-80).reverse();
    const takenBack = new Set(state.log.flatMap((e) => e.takes_back || [])); // struck through, kept
    if (!entries.length) { document.getElementById("log").replaceChildren(el("li", { class: "muted log-empty" }, "No moves yet.")); return; }
    document.getElementById("log").replaceChildren(...entries.map(([, isEvent, entry]) => {
      if (isEvent) return el("li", { class: "log-event muted", dataset: { event: entry.kind } }, entry.text);
      const text = entry.text || `${nameOf(entry.seat)}: ${describe(entry.move)}`;
      const li = el("li", { value: entry.seq, tabindex: "0", dataset: { seq: entry.seq } }, text, " ",
        el("a", { class: "log-link", href: replayLink(entry.seq), title: "link to this move (replay)" }, "↗"));
      if (takenBack.has(entry.seq)) { li.classList.add("taken-back"); li.title = "Taken back"; }
      const on = () => targets(entry).forEach((n) => n.classList.add("civ-hl"));
      const off = () => board.querySelectorAll(".civ-hl").forEach((n) => n.classList.remove("civ-hl"));
      li.addEventListener("mouseenter", on); li.addEventListener("focus", on);
      li.addEventListener("mouseleave", off); li.addEventListener("blur", off);
      return li;
    }));
    markLast();
  }

  function profileLink(seat) {
    // A seat's name, linked to its player's page when a person holds it.
    const s = state.table ? state.table.seats.find((x) => x.seat === seat) : null;
    return s && s.player_id ? el("a", { href: `/players/${s.player_id}`, class: "profile-link" }, nameOf(seat)) : nameOf(seat);
  }

  function replayLink(version) {
    // The replay opens at that version from this viewer's seat (its own rules say who sees what).
    const seat = state.doc && state.doc.seat !== null ? `&seat=${state.doc.seat}` : "";
    return `/games/${gameId}/replay#v=${version}${seat}`;
  }

  function markLast() {
    board.querySelectorAll(".civ-last").forEach((n) => n.classList.remove("civ-last"));
    const last = state.log[state.log.length - 1];
    if (last && last.seq === state.doc.version) targets(last).forEach((n) => n.classList.add("civ-last"));
  }

  function drawStatus() {
    const doc = state.doc;
    const status = document.getElementById("turn-status");
    if (state.refused) status.textContent = state.refused;
    else if (doc.status === "finished" && doc.ended) status.textContent = `Game over: ${doc.ended.detail}`;
    else if (doc.status === "finished") status.textContent = "Game over: the result is just below.";
    else if (myTurn()) status.textContent = doc.to_act.length > 1 ? "Your turn (everyone plays at once)." : "Your turn.";
    else if (doc.seat !== null && doc.to_act.length) status.textContent = `Waiting for ${listNames(doc.to_act)}…${stallWords()}`;
    else status.textContent = doc.to_act.length ? `${listNames(doc.to_act)} to play.${stallWords()}` : "";
    status.classList.toggle("your-turn", myTurn());
    document.getElementById("watching").hidden = doc.seat !== null;
    document.getElementById("held-banner").hidden = !myHeld() || doc.status !== "active";
    document.getElementById("leave-game").hidden = doc.seat === null || doc.status !== "active";
    document.getElementById("undo").hidden = !(state.undo > 0 && state.legalVersion === doc.version && doc.status === "active");
  }

  // A player asked to act whose connection is gone: the server lets a bot play their seat when the
  // absence lasts (table `bot_at`); the countdown says when, so nobody wonders how long to wait.
  function stallWords() {
    const doc = state.doc;
    if (!state.table || doc.status !== "active") return "";
    const parts = [];
    for (const seat of doc.to_act) {
      if (seat === doc.seat) continue;
      const info = state.table.seats.find((s) => s.seat === seat);
      if (!info || !info.bot_at || info.held) continue;
      const left = Date.parse(info.bot_at) - (Date.now() + (state.clockSkew || 0));
      parts.push(left > 0 ? ` ${nameOf(seat)} is away: a bot will play for them in ${fmtClock(left)} unless they come back.`
        : ` ${nameOf(seat)} is away: a bot is stepping in.`);
    }
    return parts.join("");
  }

  function fmtClock(ms) {
    if (ms <= 0) return "0:00";
    const s = Math.ceil(ms / 1000);
    const h = Math.floor(s / 3600); const m = Math.floor((s % 3600) / 60); const sec = s % 60;
    return h ? `${h}h${String(m).padStart(2, "0")}` : `${m}:${String(sec).padStart(2, "0")}`;
  }

  function clockLeft(seat) {
    const info = state.table && state.table.seats.find((s) => s.seat === seat);
    if (!info || !info.clock) return null;
    const { deadline, reserve_seconds: reserve } = info.clock;
    if (!deadline) return { running: false, ms: reserve * 1000 };
    return { running: true, ms: Date.parse(deadline) - (Date.now() + (state.clockSkew || 0)) };
  }

  function drawClocks() {
    for (const node of document.querySelectorAll("[data-clock-seat]")) {
      const left = clockLeft(Number(node.dataset.clockSeat));
      // A stopped clock shows only the reserve still to spend (real time with a reserve).
      node.hidden = !left || (!left.running && left.ms <= 0);
      if (node.hidden) continue;
      node.textContent = left.running ? `◷ ${fmtClock(left.ms)}` : `reserve ${fmtClock(left.ms)}`;
      node.classList.toggle("low", left.running && left.ms < 30000);
    }
    const mine = state.doc && state.doc.seat !== null ? clockLeft(state.doc.seat) : null;
    const box = document.getElementById("my-clock");
    box.hidden = !mine || !mine.running;
    if (mine && mine.running) box.textContent = `◷ ${fmtClock(mine.ms)} to move`;
  }

  function drawPlayers() {
    const doc = state.doc;
    const seats = doc.outcome ? doc.outcome.scores.map((_, i) => i) : [...new Set([...(state.table ? state.table.seats.map((s) => s.seat) : []), ...doc.to_act])];
    let order = seats.sort((a, b) => a - b);
    if (state.renderer && state.renderer.turnOrder) { try { order = state.renderer.turnOrder(doc.view, ctx()) || order; } catch { /* keep seat order */ } }
    const info = (seat) => (state.table ? state.table.seats.find((s) => s.seat === seat) : null) || {};
    document.getElementById("players").replaceChildren(...order.map((seat, i) => {
      const s = info(seat);
      const acting = doc.status === "active" && doc.to_act.includes(seat);
      let score = null;
      if (doc.outcome) score = `${doc.outcome.scores[seat]} ${scoreUnit()}`;
      else if (state.renderer && state.renderer.publicScore) { try { score = state.renderer.publicScore(doc.view, seat, ctx()); } catch { score = null; } }
      const dot = s.kind === "bot" ? el("span", { class: "dot bot", title: "computer player" }, "bot")
        : el("span", { class: `dot ${s.connected ? "on" : "off"}`, title: s.connected ? "connected" : "not connected" }, s.connected ? "●" : "○");
      return el("li", { class: `player${acting ? " acting" : ""}${seat === doc.seat ? " me" : ""}`, dataset: { seat } },
        el("span", { class: "order", title: "turn order" }, `${i + 1}`), dot,
        el("span", { class: "pname" }, profileLink(seat), seat === doc.seat ? " (you)" : ""),
        s.bot_rating ? el("span", { class: "bot-rating", title: "this bot level's fixed rating" }, String(s.bot_rating)) : null,
        acting ? el("span", { class: "to-play" }, "▶ to play") : null,
        s.held ? el("span", { class: "held", title: "the seat is kept for its player" }, heldWords(s)) : null,
        !s.held && s.bot_at && acting && seat !== doc.seat ? el("span", { class: "away" }, "away") : null,
        // A turn game's seat whose player ran out of time, offered to anyone not seated here.
        s.offered && doc.seat === null && me() ? el("button", { type: "button", class: "take-seat", onclick: () => takeSeat(seat) }, "Take this seat") : null,
        score !== null && score !== undefined ? el("span", { class: "score" }, String(score)) : null,
        el("span", { class: "clock", dataset: { clockSeat: seat }, hidden: true }));
    }));
    drawClocks();
  }

  // A held seat's words: "until Ben returns" only when Ben is not here; a connected player whose
  // clock ran out takes the seat back with a click.
  function heldWords(s) {
    const who = s.held_for || "the player";
    return s.connected ? `a bot is playing for ${who} until ${who} takes the seat back` : `bot playing until ${who} returns`;
  }

  function drawOutcome() {
    const box = document.getElementById("outcome");
    const outcome = state.doc.outcome;
    box.hidden = !outcome;
    if (!outcome) return;
    const order = outcome.scores.map((_, seat) => seat).sort((a, b) => outcome.ranks[a] - outcome.ranks[b]);
    // `winners` when the ruleset names them (City Council's failed city: ranks all 1, nobody wins).
    const winners = Array.isArray(outcome.winners) ? order.filter((s) => outcome.winners.includes(s))
      : order.filter((s) => outcome.ranks[s] === 1);
    // Rule-driven players (Dale the Bot) hold no seat: the ruleset lists them in `others`.
    const others = Array.isArray(outcome.others) ? outcome.others : [];
    const winnerNames = [...winners.map((s) => (s === state.doc.seat ? "You" : nameOf(s))),
      ...others.filter((o) => o.rank === 1).map((o) => o.name)];
    const title = !winnerNames.length ? (outcome.result || "Nobody wins.")
      : winners.includes(state.doc.seat) && winnerNames.length === 1 ? "You win!"
      : `${winnerNames.join(" and ")} ${winnerNames.length > 1 ? "share the win" : "wins"}.`;
    let details = null;
    if (state.renderer && state.renderer.outcomeDetails) { try { details = state.renderer.outcomeDetails(ctx()); } catch { details = null; } }
    if (!details) details = genericBreakdown(outcome, order);
    const rematch = state.table && state.table.rematch;
    const actions = el("div", { class: "result-actions" });
    if (state.doc.seat !== null) {
      if (rematch && rematch.game_id) actions.append(el("a", { class: "button primary", href: `/games/${rematch.game_id}`, id: "rematch-go" }, "Go to the rematch"));
      else {
        const accepted = rematch && rematch.accepted.includes(state.doc.seat);
        const label = !rematch ? "Rematch" : accepted ? "Waiting for the others…" : `Accept the rematch (${nameOf(rematch.by)} asks)`;
        actions.append(el("button", { type: "button", class: "primary", id: "rematch", disabled: accepted, onclick: askRematch }, label));
      }
    }
    actions.append(el("a", { class: "button", href: replayLink(state.doc.version), id: "open-replay" }, "Replay"),
      el("a", { class: "button", href: `/?ruleset=${encodeURIComponent(state.doc.ruleset)}#create`, id: "new-table" }, "New table"),
      el("a", { class: "button", href: "/", id: "back-to-lobby" }, "Back to lobby"));
    // Seats and rule-driven players (Dale) in one list by rank (a stable sort keeps seat order in ties).
    // When nobody wins (a failed city, nobody inside Rome) the list numbers no ranks.
    const place = (rank) => (winnerNames.length ? el("strong", {}, `${rank}.`) : null);
    const ranking = [...order.map((seat) => ({ rank: outcome.ranks[seat], li: el("li", { class: winners.includes(seat) ? "winner" : "" },
        place(outcome.ranks[seat]), " ", profileLink(seat), `${seat === state.doc.seat ? " (you)" : ""} — ${outcome.scores[seat]} ${scoreUnit()}`) })),
      ...others.map((o) => ({ rank: o.rank, li: el("li", { class: o.rank === 1 ? "winner" : "" },
        place(o.rank), ` ${o.name} — ${o.score} ${scoreUnit()}`) }))].sort((a, b) => a.rank - b.rank);
    box.replaceChildren(el("h2", {}, title),
      el("ol", { class: "ranking" }, ...ranking.map((r) => r.li)),
      actions, details);
    // The finished game's page stays (its result stays readable); the link above leads on. The
    // result is brought into view once, when the game ends or the page opens on a finished game.
    if (!state.resultShown) {
      state.resultShown = true;
      if (state.doc.seat !== null) gameFinished(state.doc.ruleset);
      // Its top (who won) in view below the sticky status bar: a result taller than the screen
      // (a phone, a long breakdown) starts at its top, where "nearest" would show its bottom.
      const head = document.querySelector(".table-head");
      const top = head ? head.getBoundingClientRect().height : 0;
      box.style.scrollMarginTop = `${top + 8}px`;
      box.scrollIntoView({ block: box.offsetHeight > window.innerHeight - top - 8 ? "start" : "nearest", behavior: "instant" });
    }
  }

  // What a game calls its points: a renderer may export `scoreUnit` (City Council's "VP").
  function scoreUnit() { return (state.renderer && state.renderer.scoreUnit) || "points"; }

  function genericBreakdown(outcome, order) {
    const keys = [...new Set(outcome.breakdown.flatMap((b) => Object.keys(b)))];
    const cell = (value) => el("td", {}, typeof value === "object" ? JSON.stringify(value) : value);
    const head = el("tr", {}, ...["Player", "Score", ...keys].map((k) => el("th", {}, k)));
    const rows = order.map((seat) => el("tr", { class: outcome.ranks[seat] === 1 ? "winner" : "" },
      cell(nameOf(seat)), cell(outcome.scores[seat]), ...keys.map((k) => cell(outcome.breakdown[seat][k] ?? ""))));
    return el("details", { class: "breakdown", open: true }, el("summary", {}, "Score breakdown"),
      el("table", { class: "scores" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }

  async function askRematch() {
    try {
      await request("POST", `/api/rooms/${state.doc.room_id}/rematch`);
    } catch (e) { showError(e.message); }
    refreshTable();
  }

  function drawChat() {
    if (!whenReleased(drawChat)) return; // a new line would move the page under a held press
    const line = (m) => el("p", { class: "chat-line", dataset: { chatId: m.id } }, el("strong", {}, m.name), ": ", m.text);
    document.getElementById("chat-players").replaceChildren(...state.chat.filter((m) => !m.spectator).slice(-100).map(line));
    const watchers = state.chat.filter((m) => m.spectator);
    document.getElementById("chat-spectators").replaceChildren(...watchers.slice(-100).map(line));
    document.querySelector(".chat-spectators-title").hidden = !watchers.length;
    document.getElementById("chat-spectators").hidden = !watchers.length;
    for (const list of document.querySelectorAll(".chat-list")) list.scrollTop = list.scrollHeight;
  }

  return { drawStatus, stallWords, drawClocks, drawPlayers, drawOutcome, drawLog, mergeLog, markLast, drawChat };
}
