// Tiny Towns (+ Fortune) renderer: every town as a 4x4 grid, the building cards with their
// patterns, the named resource, chests and monuments; clicks become legal moves.
// Plain ES module, no build step. Clickable things carry data-* attributes for browser tests:
//   [data-resource] resource chips, [data-cell][data-seat] town squares, [data-card] building cards,
//   [data-monument] dealt monuments, [data-card-index] solo cards, [data-action] buttons,
//   [data-choice] pending-effect choices, [data-move] any other legal move.

const RES = {
  wood: { letter: "Wd", color: "#8b5a2b", fg: "#fff" },
  wheat: { letter: "Wh", color: "#e8c33a", fg: "#3a2d00" },
  brick: { letter: "Br", color: "#b5462f", fg: "#fff" },
  glass: { letter: "Gl", color: "#7cc6e8", fg: "#063447" },
  stone: { letter: "St", color: "#9a9a9a", fg: "#111" },
};
const COLOUR = {
  blue: "#3b6fd6", red: "#c0392b", green: "#2e8b57", orange: "#e67e22",
  yellow: "#e2b80f", grey: "#7f8c8d", black: "#2c3e50", monument: "#8e44ad",
};
const LETTER_TO_RES = Object.fromEntries(Object.entries(RES).map(([id, r]) => [r.letter, id]));

// Selection state kept between redraws of the same decision.
const ui = { key: "", resource: null, card: null, cells: [] };

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "style") node.setAttribute("style", v);
    else if (k === "dataset") for (const [dk, dv] of Object.entries(v)) node.dataset[dk] = dv;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c.nodeType ? c : String(c));
  return node;
}

const STYLE = `
.tt { font-family: system-ui, sans-serif; color: #222; display: flex; flex-direction: column; gap: 12px; }
.tt-bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; background: #f4f1ea; border-radius: 8px; padding: 8px 12px; }
.tt-bar .tt-title { font-weight: 700; }
.tt-prompt { background: #fffbe6; border: 1px solid #eedc82; border-radius: 8px; padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.tt-res { display: inline-flex; align-items: center; justify-content: center; min-width: 26px; height: 26px; border-radius: 5px; font-size: 12px; font-weight: 700; border: 2px solid transparent; }
button.tt-res { cursor: pointer; padding: 0 6px; }
.tt-res.sel { border-color: #111; box-shadow: 0 0 0 2px #fff inset; }
.tt-cards { display: flex; flex-wrap: wrap; gap: 8px; }
.tt-card { width: 150px; border-radius: 8px; padding: 6px; background: #fff; border: 3px solid #ccc; font-size: 12px; }
.tt-card.can { cursor: pointer; box-shadow: 0 0 0 2px #2e8b57; }
.tt-card.sel { box-shadow: 0 0 0 3px #111; }
.tt-card h4 { margin: 0 0 4px; font-size: 13px; }
.tt-card p { margin: 4px 0 0; color: #555; }
.tt-pat { display: inline-grid; gap: 2px; }
.tt-pat span { width: 16px; height: 16px; border-radius: 3px; font-size: 8px; display: flex; align-items: center; justify-content: center; }
.tt-towns { display: flex; flex-wrap: wrap; gap: 14px; }
.tt-town { background: #fff; border: 2px solid #ddd; border-radius: 10px; padding: 8px; }
.tt-town.me { border-color: #3b6fd6; }
.tt-town.act { box-shadow: 0 0 0 3px #f1c40f; }
.tt-town header { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; font-size: 13px; margin-bottom: 6px; max-width: 280px; }
.tt-grid { display: grid; grid-template-columns: repeat(4, 62px); grid-template-rows: repeat(4, 62px); gap: 4px; }
.tt-sq { position: relative; border-radius: 6px; background: #ece6d9; display: flex; align-items: center; justify-content: center; font-size: 11px; text-align: center; overflow: hidden; }
.tt-sq.click { cursor: pointer; outline: 2px dashed #2e8b57; }
.tt-sq.pick { outline: 3px solid #111; }
.tt-sq.target { outline: 3px solid #e67e22; cursor: pointer; }
.tt-sq.bld { color: #fff; font-weight: 600; padding: 2px; }
.tt-sq .tt-cube { width: 34px; height: 34px; }
.tt-coin { display: inline-block; width: 12px; height: 12px; border-radius: 50%; background: #f5c518; border: 1px solid #a07c00; vertical-align: middle; }
.tt-coin.empty { background: transparent; border-style: dashed; }
.tt-sq .tt-coin { position: absolute; top: 3px; right: 3px; }
.tt-sq .tt-store { position: absolute; bottom: 2px; left: 2px; display: flex; gap: 1px; }
.tt-sq .tt-store span { width: 10px; height: 10px; border-radius: 2px; border: 1px solid #0004; }
.tt-badge { font-size: 11px; border-radius: 10px; padding: 1px 7px; background: #eee; }
.tt-badge.mb { background: #e67e22; color: #fff; }
.tt-badge.done { background: #2e8b57; color: #fff; }
.tt-btn { cursor: pointer; border-radius: 6px; border: 1px solid #888; background: #fff; padding: 4px 10px; }
.tt-btn.main { background: #2e8b57; color: #fff; border-color: #2e8b57; }
.tt-last { color: #666; font-size: 12px; }
.tt-score table { border-collapse: collapse; font-size: 13px; }
.tt-score td, .tt-score th { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
.tt-score th:first-child, .tt-score td:first-child { text-align: left; }
`;

function cardName(cat, id) { return (cat.cards && cat.cards[id] && cat.cards[id].name) || id; }
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
  const grid = h("div", { class: "tt-pat", style: `grid-template-columns: repeat(${width}, 16px)` });
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

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sortedKey = (cells) => [...cells].sort((x, y) => x - y).join(",");

export function render(root, ctx) {
  const { doc, legalMoves = [], seat, catalogue: cat = {}, play } = ctx;
  const view = doc.view;
  const key = `${doc.version}`;
  const phaseKey = `${view.phase}:${view.round}:${legalMoves.length && legalMoves[0].type}`;
  if (ui.key !== phaseKey) Object.assign(ui, { key: phaseKey, resource: view.named, card: null, cells: [] });
  const redraw = () => render(root, ctx);
  const byType = (t) => legalMoves.filter((m) => m.type === t);

  root.replaceChildren(h("style", {}, STYLE), h("div", { class: "tt", dataset: { version: key } },
    topBar(view, cat, ctx), prompt(view, cat, legalMoves, byType, play, redraw),
    cardsInPlay(view, cat, byType, redraw),
    h("div", { class: "tt-towns" }, ...orderSeats(view, seat).map((s) => town(view, cat, s, seat, legalMoves, byType, play, redraw, ctx.names || {}))),
    doc.outcome ? scoreTable(doc.outcome, view, cat, ctx.names || {}) : null));
}

function orderSeats(view, seat) {
  const all = view.towns.map((_, i) => i);
  return seat === null || seat === undefined ? all : [seat, ...all.filter((i) => i !== seat)];
}

function topBar(view, cat, ctx) {
  const names = ctx.names || {};
  const who = (s) => names[s] || `Seat ${s + 1}`;
  const parts = [h("span", { class: "tt-title" }, `Tiny Towns${view.coins_on ? " · Fortune" : ""}`),
    h("span", {}, `Round ${view.round}`), h("span", { class: "tt-badge" }, view.phase)];
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
  if (view.last) parts.push(h("span", { class: "tt-last" }, `Last: ${who(view.last.seat)} — ${describe(view.last.move, cat)}`));
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
    if (!view.named) box.append("Town Hall free choice: pick any resource, then an empty square:");
    else box.append("Place ", resChip(view.named), resources.length > 1 ? " — or pick another resource (1 coin, or free with your Factory):" : " on an empty square of your town.");
    if (resources.length > 1) for (const r of resources) {
      box.append(resChip(r, { class: ui.resource === r ? "sel" : "", dataset: { resource: r }, onclick: () => { ui.resource = r; redraw(); } }, "button"));
    }
    for (const m of legal.filter((x) => x.type !== "place")) box.append(h("button", { class: "tt-btn", dataset: { move: JSON.stringify(m) }, onclick: () => play(m) }, describe(m, cat)));
  } else if (view.phase === "build") {
    const builds = byType("build");
    box.append(builds.length ? "Click a glowing building card, then its squares in your town, then where it goes — or: " : "Nothing to construct now. ");
    if (ui.card) box.append(h("button", { class: "tt-btn", dataset: { action: "clear" }, onclick: () => { ui.card = null; ui.cells = []; redraw(); } }, "clear selection"));
    const done = byType("done")[0];
    if (done) box.append(h("button", { class: "tt-btn main", dataset: { action: "done" }, onclick: () => play(done) }, "Done constructing"));
  } else {
    legal.forEach((m) => box.append(h("button", { class: "tt-btn", dataset: { move: JSON.stringify(m) }, onclick: () => play(m) }, describe(m, cat))));
  }
  return box;
}

function monumentCard(cat, id, onclick) {
  return h("div", { class: "tt-card can", style: `border-color:${COLOUR.monument}`, dataset: { monument: id }, onclick },
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
      dataset: { card: id }, onclick: can ? () => { ui.card = ui.card === id ? null : id; ui.cells = []; redraw(); } : undefined,
    }, h("h4", {}, cardName(cat, id), id === (me && me.monument) ? " (your monument)" : ""), pattern(cat, id),
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
  const grid = h("div", { class: "tt-grid" });
  t.grid.forEach((v, cell) => {
    const a = acts[cell];
    const bld = v && !isRes(v);
    const sq = h("div", {
      class: `tt-sq${bld ? " bld" : ""}${a ? ` ${a.cls}` : ""}`, style: bld ? `background:${cardColour(cat, v)}` : "",
      dataset: { cell, seat: s, content: v || "" }, title: bld ? cardName(cat, v) : v || "empty", onclick: a ? a.onclick : undefined,
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
  return h("section", { class: `tt-town${s === seat ? " me" : ""}${acting ? " act" : ""}`, dataset: { town: s } },
    h("header", {}, h("strong", {}, s === seat ? "Your town" : names[s] || `Seat ${s + 1}`), h("span", {}, ...coins, view.coins_on ? ` ${t.coins}/${t.chest}` : ""), ...badges,
      h("span", { class: "tt-last" }, `Monument: ${mon}`)), grid);
}

function scoreTable(outcome, view, cat, names) {
  const cards = [...new Set(outcome.breakdown.flatMap((b) => Object.keys(b.cards || {})))];
  const seats = outcome.scores.map((_, i) => i);
  const row = (label, fn) => h("tr", {}, h("td", {}, label), ...seats.map((s) => h("td", {}, fn(s))));
  return h("div", { class: "tt-score", dataset: { outcome: "1" } }, h("h3", {}, "Score breakdown"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), ...seats.map((s) => h("th", {}, names[s] || `Seat ${s + 1}`)))),
      h("tbody", {}, ...cards.map((c) => row(cardName(cat, c), (s) => (outcome.breakdown[s].cards || {})[c] ?? "")),
        row("Coins", (s) => outcome.breakdown[s].coin_vp), row("Empty squares", (s) => outcome.breakdown[s].empty_vp),
        row("Total", (s) => outcome.scores[s]), row("Rank", (s) => outcome.ranks[s]))),
    outcome.rank_name ? h("p", {}, `Solo rank: ${outcome.rank_name}`) : null);
}
