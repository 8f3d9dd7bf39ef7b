// Tiny Towns (+ Fortune) renderer: every town as a 4x4 grid, the building cards with their
// patterns, the named resource, chests and monuments; clicks become legal moves.
// Built with the client kit (static/js/kit.js). Clickable things carry data-* attributes for browser tests:
//   [data-resource] resource chips, [data-cell][data-seat] town squares, [data-card] building cards,
//   [data-monument] dealt monuments, [data-card-index] solo cards, [data-action] buttons,
//   [data-choice] pending-effect choices, [data-move] any other legal move.

import { cell as boardCell, h, mount, seatName, useStyle } from "../js/kit.js";

const RES = {
  wood: { letter: "Wd", color: "#8b5a2b", fg: "#fff" },
  wheat: { letter: "Wh", color: "#e8c33a", fg: "#3a2d00" },
  brick: { letter: "Br", color: "#b5462f", fg: "#fff" },
  glass: { letter: "Gl", color: "#7cc6e8", fg: "#063447" },
  stone: { letter: "St", color: "#9a9a9a", fg: "#111" },
};
const COLOUR = {
  blue: "#3b6fd6", red: "#c0392b", green: "#237a4b", orange: "#e67e22",
  yellow: "#e2b80f", grey: "#7f8c8d", black: "#2c3e50", monument: "#8e44ad",
};
// Text on a building square: dark on the light piles, white on the dark ones (at least 4.5:1).
const INK = { orange: "#111", yellow: "#111", grey: "#111" };
const LETTER_TO_RES = Object.fromEntries(Object.entries(RES).map(([id, r]) => [r.letter, id]));

// Selection state kept between redraws of the same decision.
const ui = { key: "", resource: null, card: null, cells: [] };

const STYLE = `
.tt { font-family: system-ui, sans-serif; color: #222; display: flex; flex-direction: column; gap: 12px; }
.tt-bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; background: #f4f1ea; border-radius: 8px; padding: 8px 12px; }
.tt-bar .tt-title { font-weight: 700; }
.tt-prompt { background: #fffbe6; border: 1px solid #eedc82; border-radius: 8px; padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.tt-res { display: inline-flex; align-items: center; justify-content: center; min-width: 26px; height: 26px; border-radius: 5px; font-size: 12px; font-weight: 700; border: 2px solid transparent; }
button.tt-res { cursor: pointer; padding: 0 6px; }
.tt-res.sel { border-color: #111; box-shadow: 0 0 0 2px #fff inset; }
.tt-cards { display: flex; flex-wrap: wrap; gap: 8px; }
.tt-card { width: 150px; max-width: calc(50% - 4px); border-radius: 8px; padding: 6px; background: #fff; border: 3px solid #ccc; font-size: 12px; position: relative; }
.tt-card.can { cursor: pointer; outline: 4px solid #1d6b3c; outline-offset: 0; background: #eefaf2; }
.tt-can { display: inline-block; margin: 0 0 4px; background: #1d6b3c; color: #fff; font-size: 12px; font-weight: 700; border-radius: 8px; padding: 1px 8px; }
.tt-card.sel { box-shadow: 0 0 0 4px #111; }
.tt-card h4 { margin: 0 0 4px; font-size: 13px; }
.tt-card p { margin: 4px 0 0; color: #555; }
.tt-pat { display: inline-grid; gap: 2px; }
.tt-pat span { width: 20px; height: 20px; border-radius: 3px; font-size: 11px; font-weight: 700; display: flex; align-items: center; justify-content: center; }
.tt-towns { display: flex; flex-wrap: wrap; gap: 14px; }
.tt-town { background: #fff; border: 2px solid #ddd; border-radius: 10px; padding: 8px; max-width: 100%; }
.tt-board { display: grid; grid-template-columns: 14px minmax(0, 1fr); grid-template-rows: 14px auto; gap: 2px; }
.tt-cols { grid-column: 2; display: grid; grid-template-columns: repeat(4, minmax(0, 76px)); gap: 4px; font-size: 11px; color: #555; text-align: center; }
.tt-rows { grid-row: 2; display: grid; grid-template-rows: repeat(4, minmax(0, 1fr)); gap: 4px; font-size: 11px; color: #555; align-items: center; }
.tt-intro { font-size: 13px; color: #444; }
.tt-town.me { border-color: #3b6fd6; }
.tt-town.act { box-shadow: 0 0 0 3px #f1c40f; }
.tt-town header { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; font-size: 13px; margin-bottom: 6px; max-width: 336px; }
.tt-grid { display: grid; grid-template-columns: repeat(4, minmax(0, 76px)); gap: 4px; }
.tt-grid .tt-sq { aspect-ratio: 1; min-height: 44px; }
.tt-sq { position: relative; border-radius: 6px; background: #ece6d9; display: flex; align-items: center; justify-content: center; font-size: 11px; text-align: center; overflow: hidden; }
.tt-sq.click { cursor: pointer; outline: 3px dashed #1d7a46; background: #dff3e6; }
.tt-sq.pick { outline: 3px solid #111; }
.tt-sq.target { outline: 4px solid #c55f00; background: #ffe3c4; cursor: pointer; }
.tt-sq.target::after { content: "here"; position: absolute; bottom: 2px; font-size: 10px; color: #7a3b00; font-weight: 700; }
/* A building's name wraps between words only (never "Schoolhou|se"); a name with a long word is
   set a size smaller (10 px, the board minimum) so the word fits a 70 px square. */
.tt-sq.bld { color: #fff; font-weight: 600; padding: 2px; line-height: 1.1; }
.tt-sq.bld.long { font-size: 10px; letter-spacing: -0.2px; }
.tt-sq .tt-cube { width: 34px; height: 34px; }
.tt-coin { display: inline-block; width: 12px; height: 12px; border-radius: 50%; background: #f5c518; border: 1px solid #a07c00; vertical-align: middle; }
.tt-coin.empty { background: transparent; border-style: dashed; }
.tt-sq .tt-coin { position: absolute; top: 3px; right: 3px; }
.tt-sq .tt-store { position: absolute; bottom: 2px; left: 2px; display: flex; gap: 1px; }
.tt-sq .tt-store span { width: 10px; height: 10px; border-radius: 2px; border: 1px solid #0004; }
.tt-badge { font-size: 11px; border-radius: 10px; padding: 1px 7px; background: #eee; }
.tt-badge.mb { background: #e67e22; color: #111; }
.tt-badge.done { background: #237a4b; color: #fff; }
.tt-btn { cursor: pointer; border-radius: 6px; border: 1px solid #888; background: #fff; padding: 4px 10px; }
.tt-btn.main { background: #237a4b; color: #fff; border-color: #237a4b; }
.tt-last { color: #555; font-size: 12px; }
@media (max-width: 600px) { .tt-card { font-size: 11px; } }
.tt-score table { border-collapse: collapse; font-size: 13px; }
.tt-score td, .tt-score th { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
.tt-score th:first-child, .tt-score td:first-child { text-align: left; }
`;

function cardName(cat, id) { return (cat.cards && cat.cards[id] && cat.cards[id].name) || id; }
function pileOf(cat, id) { return (cat.cards && cat.cards[id] && cat.cards[id].colour) || "monument"; }
function cardColour(cat, id) { return COLOUR[(cat.cards && cat.cards[id] && cat.cards[id].colour) || "monument"] || "#555"; }
function isRes(v) { return v && Object.prototype.hasOwnProperty.call(RES, v); }

function resChip(res, attrs = {}, tag = "span") {
  const r = RES[res] || { letter: "?", color: "#ccc", fg: "#000" };
  return h(tag, { ...attrs, class: `tt-res ${attrs.class || ""}`, style: `background:${r.color};color:${r.fg}`, title: res }, r.letter);
}

function pattern(cat, id) {
  const rows = (cat.cards && cat.cards[id] && cat.cards[id].pattern) || [];
  const cells = rows.map((r) => r.split(/\s+/));
  const width = Math.max(1, ...cells.map((r) => r.length));
  const grid = h("div", { class: "tt-pat", style: `grid-template-columns: repeat(${width}, 20px)`, role: "img",
    "aria-label": `Pattern: ${cells.map((r) => r.map((t) => (LETTER_TO_RES[t] || "blank")).join(", ")).join("; ")}` });
  for (const row of cells) for (const t of row) {
    const res = LETTER_TO_RES[t];
    grid.append(res ? h("span", { style: `background:${RES[res].color};color:${RES[res].fg}` }, t) : h("span", {}));
  }
  return grid;
}

export function describe(move, cat = {}) {
  const n = (id) => cardName(cat, id);
  switch (move.type) {
    case "keep_monument": return move.monument ? `keep ${n(move.monument)}` : "kept a monument";
    case "name": return `name ${move.resource}`;
    case "choose_card": return `take resource card ${move.index + 1}`;
    case "take_oddity": return `take the Oddity Shop cube of seat ${move.from + 1} to square ${move.to + 1}`;
    case "place": return `place ${move.resource} on square ${move.cell + 1}`;
    case "store": return `store the resource on square ${move.cell + 1}`;
    case "swap": return `swap for ${move.take}, placed on square ${move.to + 1}`;
    case "bondmaker": return `put the resource on the Cottage at square ${move.cell + 1}`;
    case "museum": return "return the resource to the supply (Museum, +1 coin)";
    case "build": return `construct ${n(move.card)} on square ${move.at + 1}`;
    case "done": return "done constructing";
    case "choose": {
      if (move.stop) return "stop";
      if (move.skip) return "skip";
      if (move.pay === true) return "pay the coins";
      if (move.pay === false) return move.to !== undefined ? `replace it (square ${move.to + 1})` : "replace it with the grey building";
      if (move.line) return `count the Teahouse's ${move.line}`;
      if (move.coins !== undefined) return `spend ${move.coins} coin${move.coins === 1 ? "" : "s"}`;
      if (move.resource) return `put ${move.resource}`;
      if (move.card && move.cell !== undefined) return `${n(move.card)} on square ${move.cell + 1}`;
      if (move.card) return n(move.card);
      if (move.cell !== undefined) return `square ${move.cell + 1}`;
      return "choose";
    }
    default: return Object.entries(move).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(" · ");
  }
}

const sortedKey = (cells) => [...cells].sort((x, y) => x - y).join(",");

const PHASE_WORDS = { monument: "choosing monuments", name: "naming a resource", place: "placing",
  build: "constructing", over: "game over" };
// Where the shell's explain() is missing (old shells, the renderer harness), hints go nowhere.
let explain = () => {};
let autoDone = "";

export function render(root, ctx) {
  const { doc, legalMoves = [], seat, catalogue: cat = {} } = ctx;
  const view = doc.view;
  explain = ctx.explain || (() => {});
  // Every click that plays a move clears the selection, so the next decision starts clean.
  const play = (m, opts) => { ui.card = null; ui.cells = []; ctx.play(m, opts); };
  const key = `${doc.version}`;
  const phaseKey = `${view.phase}:${view.round}:${legalMoves.length && legalMoves[0].type}`;
  if (ui.key !== phaseKey) Object.assign(ui, { key: phaseKey, resource: view.named, card: null, cells: [] });
  const redraw = () => render(root, ctx);
  const byType = (t) => legalMoves.filter((m) => m.type === t);
  const names = ctx.names || {};
  const order = orderSeats(view, seat);
  const townOf = (s) => town(view, cat, s, seat, legalMoves, byType, play, redraw, names);
  const mine = seat !== null && seat !== undefined ? [townOf(seat)] : [];
  const others = order.filter((s) => s !== seat).map(townOf);

  // Prompt, your town, the shared cards, then the other towns (docs/UX.md).
  useStyle("tt-style", STYLE);
  mount(root, h("div", { class: "tt", dataset: { version: key } },
    topBar(view, cat, ctx), prompt(view, cat, legalMoves, byType, play, redraw),
    mine.length ? h("div", { class: "tt-towns tt-mine" }, ...mine) : null,
    cardsInPlay(view, cat, byType, redraw),
    others.length ? h("div", { class: "tt-towns" }, ...others) : null));
  // Nothing can be constructed: "Done" is the only answer, so give it without a click (not while
  // our last move is unanswered: it may be this very Done, shown again by another seat's patch).
  const only = legalMoves.length === 1 && legalMoves[0].type === "done";
  if (only && autoDone !== `${doc.id}:${doc.version}` && !(ctx.moveInFlight && ctx.moveInFlight())) {
    autoDone = `${doc.id}:${doc.version}`;
    // Declined (false: a move in flight, or this list is older than the game's version): forget
    // it, so the next draw of this version, with its own legal moves, sends it.
    const mark = autoDone;
    setTimeout(() => { if (play(legalMoves[0], { auto: true }) === false && autoDone === mark) autoDone = ""; }, 0);
  }
}

export function outcomeDetails(ctx) {
  return scoreTable(ctx.doc.outcome, ctx.doc.view, ctx.catalogue || {}, ctx.names || {});
}

export function turnOrder(view) {
  // The Master Builder names first, then clockwise (seat order).
  const n = view.towns.length;
  const first = view.master !== null && view.master !== undefined ? view.master : 0;
  return Array.from({ length: n }, (_, i) => (first + i) % n);
}

export function changed(entry) {
  const m = entry.move || {};
  const sq = (seat, cell) => `[data-seat="${seat}"][data-cell="${cell}"]`;
  switch (m.type) {
    case "place": case "store": case "bondmaker": return [sq(entry.seat, m.cell)];
    case "swap": case "take_oddity": return [sq(entry.seat, m.to)];
    case "build": return [sq(entry.seat, m.at), ...(m.cells || []).map((c) => sq(entry.seat, c))];
    case "name": return [`[data-named]`];
    case "choose": return m.cell !== undefined ? [sq(entry.seat, m.cell)] : m.to !== undefined ? [sq(entry.seat, m.to)] : [];
    default: return [];
  }
}

function orderSeats(view, seat) {
  const all = view.towns.map((_, i) => i);
  return seat === null || seat === undefined ? all : [seat, ...all.filter((i) => i !== seat)];
}

function topBar(view, cat, ctx) {
  const names = ctx.names || {};
  const who = (s) => seatName(names, s);
  const parts = [h("span", { class: "tt-title" }, `Tiny Towns${view.coins_on ? " · Fortune" : ""}`),
    view.round > 0 ? h("span", {}, `Round ${view.round}`) : null, h("span", { class: "tt-badge" }, PHASE_WORDS[view.phase] || view.phase)];
  if (view.solo) {
    parts.push(h("span", {}, `Resource deck: ${view.solo_deck.deck_size} face down`));
  } else if (view.town_hall) {
    parts.push(h("span", { dataset: { townHall: "1" } }, `Town Hall deck: ${view.town_hall.deck_size} left, ${view.town_hall.discarded} set aside; flipped: `,
      ...view.town_hall.revealed.map((r) => resChip(r))));
    if (view.town_hall.free_choice) parts.push(h("span", { class: "tt-badge" }, "free choice round"));
  } else if (view.master !== null && view.master !== undefined) {
    parts.push(h("span", {}, "Master Builder: ", h("strong", {}, who(view.master))));
  }
  if (view.named) parts.push(h("span", {}, "Named: ", resChip(view.named, { dataset: { named: view.named } })));
  return h("div", { class: "tt-bar" }, ...parts);
}

function prompt(view, cat, legal, byType, play, redraw) {
  if (!legal.length) return h("div", { class: "tt-prompt" }, view.phase === "over" ? "The game is over." : "Waiting for the other players…");
  const box = h("div", { class: "tt-prompt" });
  const kind = legal[0].type;
  if (kind === "keep_monument") {
    box.append("Keep one monument (secret):");
    for (const m of legal) box.append(monumentCard(cat, m.monument, () => play(m)));
  } else if (kind === "choose_card") {
    box.append("Choose a resource card:");
    legal.forEach((m) => box.append(resChip(view.solo_deck.shown[m.index], { dataset: { cardIndex: m.index }, onclick: () => play(m) }, "button")));
  } else if (kind === "name" || kind === "take_oddity") {
    box.append("Name a resource for everyone:");
    for (const m of byType("name")) box.append(resChip(m.resource, { dataset: { resource: m.resource, action: "name" }, onclick: () => play(m) }, "button"));
    for (const m of byType("take_oddity")) box.append(h("button", { class: "tt-btn", dataset: { move: JSON.stringify(m) }, onclick: () => play(m) }, describe(m, cat)));
  } else if (kind === "choose") {
    box.append("Resolve your card effect: ");
    const paired = legal.filter((m) => m.card && m.cell !== undefined);
    if (paired.length) {
      box.append("pick a building, then a glowing square of your town. ");
      for (const card of [...new Set(paired.map((m) => m.card))]) {
        box.append(h("button", { class: `tt-btn${ui.card === card ? " main" : ""}`, dataset: { choiceCard: card },
          onclick: () => { ui.card = card; redraw(); } }, cardName(cat, card)));
      }
    }
    legal.forEach((m, i) => {
      if (!paired.includes(m)) box.append(h("button", { class: "tt-btn", dataset: { choice: i }, onclick: () => play(m) }, describe(m, cat)));
    });
  } else if (view.phase === "place") {
    const resources = [...new Set(byType("place").map((m) => m.resource))];
    const picked = ui.resource || view.named;
    if (!view.named && !ui.resource) box.append("Town Hall free choice: pick any resource, then an empty square:");
    else if (ui.resource && ui.resource !== view.named) box.append("Now click a green square of your town for ", resChip(ui.resource), ":");
    else box.append("Place ", resChip(picked), resources.length > 1 ? " on a green square — or pick another resource (1 coin, or free with your Factory):" : " on a green square of your town.");
    if (resources.length > 1) for (const r of resources) {
      box.append(resChip(r, { class: ui.resource === r ? "sel" : "", dataset: { resource: r }, onclick: () => { ui.resource = r; redraw(); } }, "button"));
    }
    for (const m of legal.filter((x) => x.type !== "place")) box.append(h("button", { class: "tt-btn", dataset: { move: JSON.stringify(m) }, onclick: () => play(m) }, describe(m, cat)));
  } else if (view.phase === "build") {
    const builds = byType("build");
    const need = ui.card ? (builds.find((m) => m.card === ui.card) || { cells: [] }).cells.length : 0;
    const exact = ui.card && builds.some((m) => m.card === ui.card && sortedKey(m.cells) === sortedKey(ui.cells));
    if (!builds.length) box.append("Nothing to construct now — moving on.");
    else if (!ui.card) box.append("Construct a building? Click a card marked ✓ Buildable — or: ");
    else if (exact) box.append(`Now click where the ${cardName(cat, ui.card)} goes (a square marked "here"), or pick more squares. `);
    else box.append(`Pick the squares of the ${cardName(cat, ui.card)} pattern in your town (green): ${ui.cells.length} of ${need} chosen. `);
    if (ui.card) box.append(h("button", { class: "tt-btn", dataset: { action: "clear" }, onclick: () => { ui.card = null; ui.cells = []; redraw(); } }, "clear selection"));
    const done = byType("done")[0];
    if (done && builds.length) box.append(h("button", { class: "tt-btn main", dataset: { action: "done" }, onclick: () => play(done) }, "Done constructing"));
  } else {
    legal.forEach((m) => box.append(h("button", { class: "tt-btn", dataset: { move: JSON.stringify(m) }, onclick: () => play(m) }, describe(m, cat))));
  }
  return box;
}

function monumentCard(cat, id, onclick) {
  return h("div", { class: "tt-card can", style: `border-color:${COLOUR.monument}`, dataset: { monument: id, click: "" }, onclick },
    h("h4", {}, cardName(cat, id)), pattern(cat, id), h("p", {}, (cat.cards && cat.cards[id] && cat.cards[id].text) || ""));
}

function cardsInPlay(view, cat, byType, redraw) {
  const buildable = new Set(byType("build").map((m) => m.card));
  const me = view.seat !== null && view.seat !== undefined ? view.towns[view.seat] : null;
  const ids = [...view.buildings];
  if (me && me.monument && !me.built_monument) ids.push(me.monument);
  return h("div", { class: "tt-cards" }, ...ids.map((id) => {
    const can = buildable.has(id);
    return h("div", {
      class: `tt-card${can ? " can" : ""}${ui.card === id ? " sel" : ""}`, style: `border-color:${cardColour(cat, id)}`,
      dataset: can ? { card: id, click: "" } : { card: id },
      onclick: can ? () => { ui.card = ui.card === id ? null : id; ui.cells = []; redraw(); }
        : () => explain(byType("build").length || view.phase === "build" ? `You cannot construct ${cardName(cat, id)} now: your town has no matching pattern.` : "Buildings are constructed after placing a resource."),
    }, can ? h("span", { class: "tt-can" }, "✓ Buildable") : null,
      h("h4", {}, cardName(cat, id), id === (me && me.monument) ? " (your monument)" : ""), pattern(cat, id),
      h("p", {}, (cat.cards && cat.cards[id] && cat.cards[id].text) || ""));
  }));
}

function squareActions(view, s, seat, legal, byType, play, redraw) {
  // Returns {cell: {cls, onclick}} for the viewer's own town.
  const out = {};
  if (s !== seat || !legal.length) return out;
  const kind = legal[0].type;
  const set = (cell, cls, fn) => { out[cell] = { cls, onclick: fn }; };
  if (view.phase === "place" && kind !== "choose") {
    const res = ui.resource || view.named;
    for (const m of byType("place").filter((x) => x.resource === res)) set(m.cell, "click", () => play(m));
  } else if (kind === "choose") {
    const cellOnly = legal.filter((m) => m.cell !== undefined && !m.card && Object.keys(m).length === 2);
    for (const m of cellOnly) set(m.cell, "click", () => play(m));
    for (const m of legal.filter((x) => x.to !== undefined)) set(m.to, "click", () => play(m));
    for (const m of legal.filter((x) => x.card && x.cell !== undefined && x.card === ui.card)) {
      set(m.cell, "click", () => { ui.card = null; play(m); });
    }
  } else if (view.phase === "build" && ui.card) {
    const moves = byType("build").filter((m) => m.card === ui.card);
    const chosen = sortedKey(ui.cells);
    const exact = moves.filter((m) => sortedKey(m.cells) === chosen);
    const fitting = moves.filter((m) => ui.cells.every((c) => m.cells.includes(c)));
    for (const m of fitting) for (const c of m.cells) if (!ui.cells.includes(c)) set(c, "click", () => { ui.cells.push(c); redraw(); });
    for (const c of ui.cells) set(c, "pick", () => { ui.cells = ui.cells.filter((x) => x !== c); redraw(); });
    for (const m of exact) set(m.at, "target", () => { ui.card = null; ui.cells = []; play(m); });
  }
  return out;
}

function town(view, cat, s, seat, legal, byType, play, redraw, names) {
  const t = view.towns[s];
  const acts = squareActions(view, s, seat, legal, byType, play, redraw);
  const owner = s === seat ? "your town" : `${seatName(names, s)}'s town`;
  const grid = h("div", { class: "tt-grid", role: "group", "aria-label": `${owner[0].toUpperCase()}${owner.slice(1)}, squares A1 to D4` });
  t.grid.forEach((v, cell) => {
    const a = acts[cell];
    const bld = v && !isRes(v);
    const label = `${"ABCD"[cell % 4]}${Math.floor(cell / 4) + 1}`;
    const what = bld ? cardName(cat, v) : v || "empty";
    const long = bld && Math.max(...cardName(cat, v).split(/\s+/).map((w) => w.length)) > 8;
    // A named cell for screen readers ("A1 of your town: brick"); a square that can be played is
    // a button in the kit's legal, picked or target state.
    const sq = boardCell("div", {
      class: `tt-sq${bld ? " bld" : ""}${long ? " long" : ""}${a ? ` ${a.cls}` : ""}`,
      style: bld ? `background:${cardColour(cat, v)};color:${INK[pileOf(cat, v)] || "#fff"}` : "",
      dataset: { cell, seat: s, content: v || "" }, title: `${label}: ${what}`, label: `${label} of ${owner}: ${what}`,
      role: a ? null : "img", state: a ? { click: "legal", pick: "picked", target: "target" }[a.cls] : null,
      onpick: a ? a.onclick : null, onclick: a ? null : () => explain(whyNot(view, cat, s, seat, legal, v, names)),
    }, isRes(v) ? resChip(v, { class: "tt-cube" }) : bld ? cardName(cat, v) : "");
    if (t.marks[String(cell)]) sq.append(h("span", { class: "tt-coin", title: `${t.marks[String(cell)]} coin` }));
    const stored = t.store[String(cell)];
    if (stored && stored.length) sq.append(h("span", { class: "tt-store" }, ...stored.map((r) => h("span", { style: `background:${RES[r].color}`, title: r }))));
    grid.append(sq);
  });
  const coins = [];
  if (view.coins_on) for (let i = 0; i < t.chest; i++) coins.push(h("span", { class: `tt-coin${i < t.coins ? "" : " empty"}` }));
  const badges = [];
  if (!view.solo && view.master === s) badges.push(h("span", { class: "tt-badge mb" }, "Master Builder"));
  if (t.complete) badges.push(h("span", { class: "tt-badge done" }, "complete"));
  else if (view.phase === "build" && t.done) badges.push(h("span", { class: "tt-badge" }, "done"));
  else if (view.phase === "place" && t.placed) badges.push(h("span", { class: "tt-badge" }, "placed"));
  if (t.pending && t.pending.length) badges.push(h("span", { class: "tt-badge" }, `deciding: ${t.pending[0].kind}`));
  const mon = t.monument ? `${cardName(cat, t.monument)}${t.built_monument ? " (built)" : " (secret)"}` : t.has_monument ? "a secret monument" : "choosing a monument";
  const acting = legal.length && s === seat;
  const board = h("div", { class: "tt-board" }, h("span", {}),
    h("div", { class: "tt-cols", "aria-hidden": "true" }, ..."ABCD".split("").map((c) => h("span", {}, c))),
    h("div", { class: "tt-rows", "aria-hidden": "true" }, ..."1234".split("").map((r) => h("span", {}, r))), grid);
  return h("section", { class: `tt-town${s === seat ? " me" : ""}${acting ? " act" : ""}`, dataset: { town: s } },
    h("header", {}, h("strong", {}, s === seat ? `${names[s] || "Your town"} (you)` : seatName(names, s)), h("span", {}, ...coins, view.coins_on ? ` ${t.coins}/${t.chest}` : ""), ...badges,
      h("span", { class: "tt-last" }, `Monument: ${mon}`)), board);
}

function whyNot(view, cat, s, seat, legal, content, names) {
  // The legal moves already tell why this square cannot be played: say it in words, send nothing.
  if (seat === null || seat === undefined) return "You are watching; only the players can place and build.";
  if (s !== seat) return `That is ${seatName(names, s)}'s town: you can only place and build in your own.`;
  if (!legal.length) return "Nothing to do in your town right now; wait for the others.";
  const kind = legal[0].type;
  if (view.phase === "place" && kind === "place") return content ? "That square is taken: place on an empty (green) square." : "That square cannot take this resource.";
  if (view.phase === "build" && kind !== "choose") {
    if (!ui.card) return "First click a building card marked ✓ Buildable, then its squares.";
    return `That square is not part of a ${cardName(cat, ui.card)} pattern with the squares you chose.`;
  }
  if (kind === "name" || kind === "take_oddity") return "First name a resource (the buttons above your town).";
  if (kind === "keep_monument") return "First keep one of your two monuments (above).";
  return "That square cannot be used for this step; the green squares can.";
}

function scoreTable(outcome, view, cat, names) {
  const cards = [...new Set(outcome.breakdown.flatMap((b) => Object.keys(b.cards || {})))];
  const seats = outcome.scores.map((_, i) => i);
  const row = (label, fn) => h("tr", {}, h("td", {}, label), ...seats.map((s) => h("td", {}, fn(s))));
  return h("div", { class: "tt-score", dataset: { outcome: "1" } }, h("h3", {}, "Score breakdown"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), ...seats.map((s) => h("th", {}, seatName(names, s))))),
      h("tbody", {}, ...cards.map((c) => row(cardName(cat, c), (s) => (outcome.breakdown[s].cards || {})[c] ?? "")),
        view.coins_on ? row("Coins", (s) => outcome.breakdown[s].coin_vp) : null, row("Empty squares", (s) => outcome.breakdown[s].empty_vp),
        row("Total", (s) => outcome.scores[s]), row("Rank", (s) => outcome.ranks[s]))),
    outcome.rank_name ? h("p", {}, `Solo rank: ${outcome.rank_name}`) : null);
}
