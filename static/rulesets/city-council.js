// City Council renderer: the prompt with its buttons, your favour hand, the city (9x9 blocks in
// zones, columns A-I and rows 1-9 as in the log), the city's tracks, the committees, the engineer's
// planning area, the council table (plans, Delegates, private funds) and the other members.
// Built with the client kit (static/js/kit.js); render(root, ctx) redraws everything each call.
// Clickable things carry data-* attributes for browser tests: [data-move] buttons, .cc-tile.can
// [data-tile] planning tiles, .cc-bld.can [data-building] buildings, .cc-cell.can [data-cell]
// placement anchors, [data-plan] plans, [data-card] favour cards, [data-option] committee choices.

import { cell, h, mount, Picker, same, seatName, svg as sv, useStyle } from "../js/kit.js";

const ZONE_COLOURS = { residential: "#b9dfb0", commercial: "#b8d0ef", industrial: "#f1dc9a", start: "#e6dfcf", lake: "#8fa9b3" };
const TYPE_COLOURS = { residential: "#377a33", commercial: "#2f64a8", industrial: "#8a6709", safety: "#b23b3b" };
const TYPE_LETTER = { residential: "R", commercial: "C", industrial: "I", safety: "S", start: "St", lake: "~" };
const COMMITTEE_NAMES = { transport: "Transport", treasury: "Treasury", election: "Election", union: "Union", executive: "Executive" };
const PHASES = {
  committees: "Committees", treasury: "Treasury Committee", draw: "Favour draw", plan: "City planning",
  vote: "Voting", fund: "Voting: private funds", vote2: "Voting: Executive's second Delegate",
  approve: "Vote counting (tie)", execute: "Plan execution", activate: "Production: activation",
  window_activation: "Scoring after activation", window_resolution: "Scoring after resolution",
  window_monitoring: "Scoring after monitoring", turn_end: "Turn end", over: "Game over",
};
const SHAPES = { S: "small", M: "medium", L: "large", LT: "L-shaped" };

// The pending choice of a multi-click decision: {key, plan, anchor, building} (reset when the decision changes).
const ui = { key: "", plan: null, anchor: null, building: null };

const STYLE = `
.cc { font-family: system-ui, sans-serif; color: #222; display: flex; flex-direction: column; gap: 10px; max-width: 100%; }
.cc-prompt { background: #fffbe6; border: 1px solid #eedc82; border-radius: 8px; padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; font-size: 14px; }
.cc-prompt .cc-what { flex-basis: 100%; font-weight: 600; }
.cc-btn { cursor: pointer; border-radius: 6px; border: 1px solid #8a7f66; background: #fff; padding: 5px 10px; font-size: 13px; max-width: 100%; overflow-wrap: anywhere; text-align: left; }
.cc-btn.main { background: #2e6f4f; color: #fff; border-color: #2e6f4f; }
.cc-btn:hover { box-shadow: 0 0 0 2px #f1c40f; }
.cc-panel { background: #fbf8f1; border: 1px solid #e2d9c4; border-radius: 8px; padding: 8px; min-width: 0; }
.cc-panel h3 { margin: 0 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #6b6453; }
.cc-grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr)); gap: 10px; }
.cc-hand { display: flex; flex-wrap: wrap; gap: 6px; }
.cc-card { border: 2px solid #cdbf9d; border-radius: 8px; background: #fff; padding: 5px 7px; font-size: 12px; width: 150px; max-width: 100%; overflow-wrap: anywhere; }
.cc-card b { display: block; font-size: 13px; }
.cc-card.building { border-color: #8fa6c9; }
.cc-card.can { outline: 3px solid #e0a800; }
.cc-card ul { margin: 2px 0; padding-left: 16px; }
.cc-card .cc-btn { margin-top: 4px; padding: 2px 6px; }
.cc-city svg { width: 100%; max-width: 520px; height: auto; display: block; }
.cc-cell.can { cursor: pointer; fill: #fff3b0; stroke: #d2691e; stroke-width: 3; }
.cc-bld rect { stroke: #222; stroke-width: 1; }
.cc-bld.can { cursor: pointer; }
.cc-bld.can rect { stroke: #e0a800; stroke-width: 4; }
/* 12 units: at least 11 px on a 390 px phone, where the city is drawn at about 0.94 scale. */
.cc-bld text, .cc-label { font-size: 12px; pointer-events: none; }
.cc-bld text { fill: #fff; font-weight: 700; }
.cc-tracks { display: flex; flex-wrap: wrap; gap: 6px; font-size: 13px; }
.cc-track { background: #efe9da; border-radius: 5px; padding: 2px 7px; }
.cc-track.warn { background: #f6c7c0; }
.cc-committees { display: grid; grid-template-columns: repeat(auto-fit, minmax(105px, 1fr)); gap: 6px; font-size: 12px; }
.cc-committee { background: #fff; border: 1px solid #ddd2b8; border-radius: 6px; padding: 4px 6px; }
.cc-committee.act { box-shadow: 0 0 0 3px #f1c40f; }
.cc-area { display: grid; grid-template-columns: repeat(auto-fit, minmax(120px, 1fr)); gap: 6px; }
.cc-tile { border-radius: 6px; padding: 4px 6px; font-size: 12px; color: #fff; margin-bottom: 4px; overflow-wrap: anywhere; border: 3px solid transparent; }
.cc-tile.can { cursor: pointer; border-color: #f1c40f; }
/* Unaffordable: dashed dark border and the reason in words; no fading (text keeps 4.5:1). */
.cc-tile.poor { border: 3px dashed #3b342a; }
.cc-tile.top::after { content: " (stack top)"; font-weight: 400; opacity: .9; }
.cc-plans { display: flex; flex-direction: column; gap: 4px; font-size: 13px; }
.cc-plan { background: #fff; border: 1px solid #ddd2b8; border-radius: 6px; padding: 4px 8px; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.cc-plan.ok { border-color: #2e6f4f; } .cc-plan.fail { background: #f1eee6; border-style: dashed; color: #4f4a3d; }
.cc-members { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 6px; font-size: 13px; }
.cc-member { background: #fff; border: 2px solid #ddd2b8; border-radius: 8px; padding: 5px 7px; }
.cc-member.me { border-color: #2e6f4f; }
.cc-member.act { box-shadow: 0 0 0 3px #f1c40f; }
.cc-report { font-size: 12px; color: #4a4536; }
.cc-outcome table { border-collapse: collapse; font-size: 13px; } .cc-outcome td, .cc-outcome th { border: 1px solid #ddd2b8; padding: 3px 6px; }
`;

const cellName = (r, c) => `${String.fromCharCode(65 + c)}${r + 1}`;
// Short labels that fit one block: one word -> its first 4 letters, several -> initials.
const abbrev = (name) => { const w = name.split(/[\s-]+/); return w.length === 1 ? name.slice(0, 4) : w.map((x) => x[0]).join("").toUpperCase(); };

function memberName(ctx, m) {
  const v = ctx.doc.view;
  if (v.phil && m === v.players) return "Prof. Phil";
  return seatName(ctx.names, m);
}

function kindOf(cat, name) { return (cat.kinds || {})[name] || { type: "safety", cost: 0, boxes: [], shape: "S" }; }
function tileName(cat, tile) { return ((cat.tiles || {})[tile] || { name: tile }).name; }
function cardOf(cat, id) { return (cat.cards || {})[id] || { name: id, kind: "general", conditions: [], buildings: [] }; }

function planText(ctx, plan) {
  const cat = ctx.catalogue;
  const v = ctx.doc.view;
  if (!plan || plan.kind === "none") return "no plan";
  if (plan.kind === "build") { const n = tileName(cat, plan.target); return `construct the ${n} ($${kindOf(cat, n).cost})`; }
  const b = v.buildings[plan.target];
  return `${plan.kind === "sell" ? "sell" : "relocate"} the ${b ? b.name : "building"}`;
}

function playBtn(ctx, move, label, main = false, extra = {}) {
  return h("button", { type: "button", class: `cc-btn${main ? " main" : ""}`, dataset: { move: JSON.stringify(move), ...extra },
    onclick: () => { ui.key = ""; ctx.play(move); } }, label);
}

export function describe(move, catalogue = {}) {
  const t = move.type;
  if (t === "plan") return move.kind === "build" ? `Propose ${tileName(catalogue, move.target)}` : `Propose to ${move.kind}`;
  if (t === "execute") return move.cells ? `Execute at ${move.cells.map(([r, c]) => cellName(r, c)).join(" ")}` : "Execute the sale";
  if (t === "activate") return move.chair ? "Activate (the Election chairman picks the box)" : `Activate building (${move.boxes.length} box${move.boxes.length > 1 ? "es" : ""})`;
  if (t === "police") return "Choose the Police Station's box";
  if (t === "zone") return `Activate ${((catalogue.zones || {})[move.zone] || { name: "a zone" }).name}`;
  if (t === "keep") return "Keep favour card";
  if (t === "score") return `Score ${cardOf(catalogue, move.card).name}`;
  if (t === "discard") return move.card ? `Discard ${cardOf(catalogue, move.card).name}` : "Discard a card";
  return { pass: "Activate nothing more", done: "Done", embezzle: "Embezzle $1", decline: "Take no money",
    fund_done: "No more funds", vote2_pass: "Keep the second Delegate", committees: "Set committees",
    vote: "Vote", vote2: "Second Delegate", fund: "Private funds $1", approve: "Approve plan" }[t] || t;
}

// Every member answers each scoring window (score, or nothing to score), so nobody learns from who
// is asked, or from who answers, which hands hold a card that scores now. The page never answers
// by itself: an answer made at once when there is nothing to score would tell by its timing.
const WINDOW_PROMPT = "Score a favour card whose condition is met now, or answer that you have nothing (more) to score. Every member answers.";

function promptText(ctx) {
  const v = ctx.doc.view;
  const mine = ctx.legalMoves.length > 0;
  const phase = PHASES[v.phase] || v.phase;
  if (v.phase === "over") return v.defeat ? `Game over: all the ${v.defeat === "crime" ? "Crime" : "Pollution"} tokens are on the board, the council is disbanded and everyone loses.` : "Game over.";
  if (!mine) return `${phase} (turn ${v.turn}): waiting for ${(v.to_act || []).map((m) => memberName(ctx, m)).join(", ")}.`;
  return {
    committees: v.turn === 1 ? "You chair the Election Committee: seat the other members." : "Election: change the committees (fewest changes; members on B must move).",
    treasury: "Treasury: embezzle $1 from the City Budget into your private funds?",
    draw: "Keep one of the two favour cards you drew" + (v.committee[ctx.seat] === "union" ? " (as Union chairman you may keep both)." : "."),
    plan: "Propose a plan: click a building in the planning area, or a building in the city to relocate or sell it.",
    vote: "Put your Delegate on another member's plan.",
    fund: "Put private funds on a construction plan ($1 each), or stop.",
    vote2: "Executive: place your second Delegate, or keep it.",
    approve: "Election: choose among the tied plans.",
    execute: ui.plan === null ? "Election: choose the next approved plan to execute." : "Click a highlighted block for the building's corner: any place the budget pays for ($1 more per block off its zone) that leaves the other approved plans possible.",
    activate: v.pending ? `Election: decide which box the ${v.buildings[v.pending.b].name} uses.`
      : v.phil && v.order[v.cursor] === v.players ? `Election: activate a building or a zone for Prof. Phil (${v.acts_left} left), or stop.`
        : `Activate a building or a zone (${v.acts_left} left this turn), or stop.`,
    window_activation: WINDOW_PROMPT, window_resolution: WINDOW_PROMPT, window_monitoring: WINDOW_PROMPT,
    turn_end: "Turn end: score cards, discard (keep at most 7), then Done.",
  }[v.phase] || phase;
}

// Committee seating is built member by member with the staged picker, never one button per
// permutation (12 of them for 3 players): each step offers the committees that member can still
// take given the picks so far; a member with one possibility left is seated without asking.
const seating = new Picker([]);

function committeeStage(ctx, box) {
  const v = ctx.doc.view;
  const members = [...Array(v.members).keys()];
  seating.steps = members.map((m) => ({ name: memberName(ctx, m), of: (mv) => mv.seats[m] }));
  seating.sync(`${ctx.doc.id}:${ctx.doc.version}`, ctx.legalMoves);
  const next = seating.next();
  const seat = (m) => {
    const c = seating.valueAt(m);
    if (c === undefined) return `${memberName(ctx, m)}: ?`;
    return `${memberName(ctx, m)}: ${COMMITTEE_NAMES[c] || "none"}${c === v.committee[m] ? " (stays)" : ""}`;
  };
  const stage = h("div", { class: "kit-stage cc-stage" },
    h("div", { class: "kit-step cc-seating", "aria-live": "polite" }, `Seating so far: ${members.map(seat).join(" · ")}`));
  if (next) {
    stage.append(h("span", { class: "kit-picked" }, `${next.name} goes to:`));
    next.options.forEach((o, i) => stage.append(h("button", { type: "button", class: "cc-btn", dataset: { option: String(i), committee: String(o.value) },
      onclick: () => {
        const move = seating.pick(next.step, o.value);
        if (move) { ui.key = ""; ctx.play(move); } else rerender();
      } }, COMMITTEE_NAMES[o.value] || "no committee")));
  }
  if (seating.picks.length) stage.append(h("button", { type: "button", class: "cc-btn", dataset: { action: "back" }, onclick: () => { seating.back(); rerender(); } }, "Back one step"));
  box.append(stage);
}

function promptBox(ctx) {
  const v = ctx.doc.view;
  const legal = ctx.legalMoves;
  const box = h("div", { class: "cc-prompt" }, h("div", { class: "cc-what" }, promptText(ctx)));
  const simple = { embezzle: "Embezzle $1", decline: "Take nothing", pass: "Activate nothing more", done: "Done",
    fund_done: "No more funds", vote2_pass: "Keep the Delegate" };
  if (v.phase === "committees") committeeStage(ctx, box);
  if (["vote", "vote2", "approve", "fund"].includes(v.phase)) {
    for (const mv of legal.filter((m) => m.plan !== undefined)) {
      const label = `${mv.type === "fund" ? "$1 on" : mv.type === "approve" ? "Approve" : "Delegate on"} ${memberName(ctx, mv.plan)}'s plan: ${planText(ctx, v.plans[mv.plan])}`;
      box.append(playBtn(ctx, mv, label, false, { plan: String(mv.plan) }));
    }
  }
  if (v.phase === "execute") {
    const plans = [...new Set(legal.map((m) => m.plan))];
    if (ui.plan !== null && !plans.includes(ui.plan)) ui.plan = null;
    if (ui.plan === null && plans.length === 1) ui.plan = plans[0];
    for (const p of plans) {
      const moves = legal.filter((m) => m.plan === p);
      if (v.plans[p].kind === "sell") { box.append(playBtn(ctx, moves[0], `Execute: ${planText(ctx, v.plans[p])}`, true, { plan: String(p) })); continue; }
      box.append(h("button", { type: "button", class: `cc-btn${ui.plan === p ? " main" : ""}`, dataset: { plan: String(p) },
        onclick: () => { ui.plan = p; ui.anchor = null; ctx.explain && ctx.explain(""); rerender(); } }, `Execute ${memberName(ctx, p)}'s plan: ${planText(ctx, v.plans[p])}`));
      const ups = moves.filter((m) => m.upgrade);
      if (ui.plan === p) for (const up of ups) box.append(playBtn(ctx, up, `Upgrade the ${v.buildings[up.upgrade].name} at ${up.cells.map(([r, c]) => cellName(r, c)).join(" ")} ($${execCost(ctx, up)})`, false, { upgrade: up.upgrade }));
    }
    if (ui.plan !== null && ui.anchor) {
      for (const mv of anchorMoves(legal, ui.plan, ui.anchor)) box.append(playBtn(ctx, mv, `Place on ${mv.cells.map(([r, c]) => cellName(r, c)).join(" ")} ($${execCost(ctx, mv)})`, true));
    }
  }
  if (v.phase === "activate") {
    for (const mv of legal.filter((m) => m.type === "zone")) {
      const zone = (ctx.catalogue.zones || {})[mv.zone] || { name: mv.zone };
      const src = mv.token === "section" ? "a Community token" : `the ${v.buildings[mv.token].name}'s token`;
      box.append(playBtn(ctx, mv, `Activate ${zone.name} (Power + ${src})`, false, { zone: mv.zone }));
    }
    if (v.pending) {
      const b = v.buildings[v.pending.b];
      const kind = kindOf(ctx.catalogue, b.name);
      for (const mv of legal.filter((m) => m.type === "police")) {
        box.append(playBtn(ctx, mv, `${b.name}: ${mv.boxes.map((i) => kind.boxes[i]).join(" and ")}`, true, { boxes: mv.boxes.join(",") }));
      }
    }
    if (ui.building) {
      const kind = kindOf(ctx.catalogue, (v.buildings[ui.building] || {}).name);
      for (const mv of legal.filter((m) => m.type === "activate" && m.building === ui.building)) {
        box.append(playBtn(ctx, mv, `${v.buildings[ui.building].name}: ${mv.boxes.map((i) => kind.boxes[i]).join(" and ")}`, true, { boxes: mv.boxes.join(",") }));
      }
    }
  }
  if (v.phase === "plan" && ui.building) {
    for (const mv of legal.filter((m) => m.target === ui.building)) box.append(playBtn(ctx, mv, `Propose to ${mv.kind} the ${v.buildings[ui.building].name}`, true));
  }
  if (v.phase.startsWith("window_")) simple.done = legal.some((m) => m.type === "score") ? "Done scoring" : "Nothing to score";
  for (const mv of legal) if (simple[mv.type]) box.append(playBtn(ctx, mv, simple[mv.type], mv.type === "done" || mv.type === "embezzle"));
  return box;
}

// What an execution costs the City Budget (before private funds): the printed cost, or the
// difference for an upgrade, plus $1 per (newly covered) block off the building's zone; a
// relocation only that surcharge (RB Constructing, Upgrading, Relocating a Building).
function execCost(ctx, mv) {
  const v = ctx.doc.view;
  const cat = ctx.catalogue;
  const plan = v.plans[mv.plan];
  const relocating = plan.kind === "relocate";
  const kind = kindOf(cat, relocating ? v.buildings[plan.target].name : tileName(cat, plan.target));
  const old = mv.upgrade ? v.buildings[mv.upgrade] : null;
  const under = new Set(old ? old.cells.map((x) => x.join(",")) : []);
  let cost = relocating ? 0 : old ? kind.cost - kindOf(cat, old.name).cost : kind.cost;
  for (const [r, c] of mv.cells) {
    const type = ((cat.zones || {})[((cat.zone_grid || [])[r] || [])[c]] || {}).type;
    if (!under.has(`${r},${c}`) && kind.type !== "safety" && type !== "start" && type !== kind.type) cost += 1;
  }
  return cost;
}

function anchorMoves(legal, plan, anchor) {
  return legal.filter((m) => m.plan === plan && !m.upgrade && m.cells && same(m.cells[0], anchor));
}

let rerender = () => {};

function handPanel(ctx) {
  const v = ctx.doc.view;
  if (ctx.seat === null || !v.hand) return null;
  const legal = ctx.legalMoves;
  const cards = [];
  const cardBox = (id, extra) => {
    const c = cardOf(ctx.catalogue, id);
    const rows = c.kind === "building"
      ? c.buildings.map((b, i) => h("li", {}, `${b}: ${["white", "light grey", "dark grey"][i]}`))
      : c.conditions.map((x) => h("li", {}, `${x.text} (${x.bonus ? "+" : ""}${x.vp} VP)`));
    const moves = legal.filter((m) => m.card === id || (m.cards && m.cards.includes(id) && m.cards.length === 1));
    return h("div", { class: `cc-card ${c.kind}${moves.length ? " can" : ""}`, dataset: { card: id } },
      h("b", {}, c.kind === "building" ? `Buildings: ${c.name}` : c.name), h("ul", {}, ...rows), extra,
      ...moves.map((m) => playBtn(ctx, m, m.type === "score" ? "Score" : m.type === "discard" ? "Discard" : "Keep", m.type === "score", { card: id })));
  };
  for (const id of v.hand) cards.push(cardBox(id, null));
  const both = legal.find((m) => m.type === "keep" && m.cards.length === 2);
  const drawn = (v.drawn || []).map((id) => cardBox(id, h("div", {}, h("i", {}, "just drawn"))));
  return h("section", { class: "cc-panel" }, h("h3", {}, `Your favour cards (${v.hand.length}) · ${v.vp[ctx.seat]} VP · private funds $${v.funds[ctx.seat]}`),
    drawn.length ? h("div", { class: "cc-hand" }, ...drawn, both ? playBtn(ctx, both, "Keep both", true) : null) : null,
    h("div", { class: "cc-hand" }, ...cards));
}

function cityPanel(ctx) {
  const v = ctx.doc.view;
  const cat = ctx.catalogue;
  const grid = cat.zone_grid || [];
  const zones = cat.zones || {};
  const S = 40, O = 16;
  // The city is a group of named cells (a screen reader reads "B3: Residential zone 1"), not one image.
  const svg = sv("svg", { viewBox: `0 0 ${O + 9 * S + 2} ${O + 9 * S + 2}`, role: "group", "aria-label": "The city: columns A to I, rows 1 to 9" });
  for (let i = 0; i < 9; i++) {
    svg.append(sv("text", { x: O + i * S + S / 2, y: 11, "text-anchor": "middle", class: "cc-label" }, String.fromCharCode(65 + i)));
    svg.append(sv("text", { x: 7, y: O + i * S + S / 2 + 4, "text-anchor": "middle", class: "cc-label" }, String(i + 1)));
  }
  const legal = ctx.legalMoves;
  const anchors = new Map();
  if (v.phase === "execute" && ui.plan !== null) {
    for (const m of legal) if (m.plan === ui.plan && m.cells && !m.upgrade) anchors.set(m.cells[0].join(","), m.cells[0]);
  }
  const owner = new Map();
  for (const b of Object.values(v.buildings)) for (const [r, c] of b.cells) owner.set(`${r},${c}`, b.id);
  for (let r = 0; r < 9; r++) for (let c = 0; c < 9; c++) {
    const z = (grid[r] || [])[c] || "start";
    const type = (zones[z] || {}).type || "start";
    const on = v.zones_on && v.zones_on[z];
    const key = `${r},${c}`;
    const can = anchors.has(key);
    // A block of the city as a kit cell: named for screen readers; a legal anchor is clickable.
    const rect = cell("rect", { svg: true, x: O + c * S, y: O + r * S, width: S - 1, height: S - 1, fill: ZONE_COLOURS[type],
      class: `cc-cell${can ? " can" : ""}`, "data-cell": key, state: can ? "legal" : null, role: can ? null : "img",
      label: `${cellName(r, c)}: ${(zones[z] || {}).name || (type === "lake" ? "Lake" : "Starting Zone")}${on ? ", activated" : ""}${owner.has(key) ? `, under the ${v.buildings[owner.get(key)].name}` : ""}`,
      stroke: on ? "#2e6f4f" : "#fff", "stroke-width": on ? 2 : 1,
      onpick: can ? () => {
        const opts = anchorMoves(legal, ui.plan, anchors.get(key));
        if (opts.length === 1) { ui.key = ""; ctx.play(opts[0]); } else { ui.anchor = anchors.get(key); rerender(); }
      } : null,
      onclick: () => { if (v.phase === "execute" && ui.plan !== null && ctx.explain) ctx.explain(`No place for this plan starts at ${cellName(r, c)}: no room, the budget cannot pay for it, or it would leave another approved plan impossible.`); } });
    svg.append(rect);
    if (r % 3 === 0 && c % 3 === 0) svg.append(sv("text", { x: O + c * S + 3, y: O + r * S + 11, class: "cc-label" },
      type === "lake" ? "Lake" : `${TYPE_LETTER[type]}${z.match(/\d/) ? z.match(/\d/)[0] : ""}${on ? " ⚡" : ""}`));
  }
  const activated = new Set((v.activated || []).map((a) => a.b));
  const clickable = new Set(legal.filter((m) => m.building || (v.phase === "plan" && m.kind && m.kind !== "build")).map((m) => m.building || m.target));
  const legend = new Map();
  for (const b of Object.values(v.buildings)) {
    const kind = kindOf(cat, b.name);
    const can = clickable.has(b.id);
    // A building as a kit cell (a group of its blocks): named, clickable when it can be chosen.
    const g = cell("g", { svg: true, class: `cc-bld${can ? " can" : ""}`, "data-building": b.id, state: can ? "legal" : null,
      role: can ? null : "img", label: `${b.name} at ${b.cells.map(([r, c]) => cellName(r, c)).join(" ")} (${kind.type})${activated.has(b.id) ? ", activated" : ""}`,
      onpick: can ? () => {
        ui.building = b.id;
        const moves = legal.filter((m) => m.building === b.id || m.target === b.id);
        if (moves.length === 1) { ui.key = ""; ctx.play(moves[0]); } else rerender();
      } : null,
      onclick: () => { if (ctx.explain && ctx.legalMoves.length) ctx.explain(`The ${b.name} cannot be chosen now.`); } });
    // one block per cell, joined to the building's other blocks so each tile reads as one piece
    for (const [r, c] of b.cells) {
      const mine = (dr, dc) => owner.get(`${r + dr},${c + dc}`) === b.id;
      const x0 = O + c * S + (mine(0, -1) ? 0 : 3), y0 = O + r * S + (mine(-1, 0) ? 0 : 3);
      const x1 = O + c * S + S - 1 - (mine(0, 1) ? -1 : 4), y1 = O + r * S + S - 1 - (mine(1, 0) ? -1 : 4);
      g.append(sv("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 3,
        fill: TYPE_COLOURS[kind.type], opacity: activated.has(b.id) ? 1 : 0.85 }));
    }
    const [r0, c0] = b.cells[0];
    const short = abbrev(b.name);
    legend.set(short, b.name);
    g.append(sv("title", {}, `${b.name} (${kind.type}, $${kind.cost})${b.fixed ? ", printed on the board" : ""}: ${kind.boxes.join("; ") || "no action"}`));
    g.append(sv("text", { x: O + c0 * S + 6, y: O + r0 * S + 17 }, short));
    const marks = `${TYPE_LETTER[kind.type]}${activated.has(b.id) ? " ✓" : ""}${b.token ? " ♥" : ""}${b.prison && (b.prison[0] || b.prison[1]) ? ` ⛓${b.prison[0] + b.prison[1]}` : ""}`;
    g.append(sv("text", { x: O + c0 * S + 6, y: O + r0 * S + 31 }, marks));
    svg.append(g);
  }
  const legendText = [...legend.entries()].sort().map(([k, n]) => `${k} ${n}`).join(" · ");
  return h("section", { class: "cc-panel cc-city" }, h("h3", {}, `The city (${v.advanced ? "advanced phase" : "starting phase"})`), svg,
    h("div", { class: "cc-report" }, legendText),
    h("div", { class: "cc-report" }, "Zones and buildings: R residential, C commercial, I industrial, S safety, St Starting Zone, Lake (no building); ⚡ activated zone; ✓ activated building; ♥ Community token; ⛓ Crime in the prison."));
}

function tracksPanel(ctx) {
  const v = ctx.doc.view;
  const t = (label, value, warn = false) => h("span", { class: `cc-track${warn ? " warn" : ""}` }, `${label} ${value}`);
  return h("section", { class: "cc-panel" }, h("h3", {}, `Turn ${v.turn} · ${PHASES[v.phase] || v.phase} · goal ${v.goal} VP`),
    h("div", { class: "cc-tracks" },
      t("City Budget $", `${v.budget}/11`), t("Power", v.power), t("Community ♥", v.community),
      t("Crime", `${v.crime}/7`, v.crime >= 5), t("Pollution", `${v.pollution}/7`, v.pollution >= 5), t("Goods", `${v.goods}/8`),
      t("Housing: Blue", v.house.B), t("White", v.house.W), t("Sale tokens", v.tokens.sale), t("Relocation tokens", v.tokens.relocate),
      t("Favour deck", v.deck), t("Discards", v.discard_pile)),
    reportLine(ctx));
}

function autoText(ctx, a) {
  const v = ctx.doc.view;
  const who = memberName(ctx, a.seat);
  const m = a.move;
  if (m.type === "vote") return `${who}'s Delegate went to the only other plan (${memberName(ctx, m.plan)}'s).`;
  if (m.type === "committees") return `${who} made the only committee change the rules allow.`;
  if (m.type === "execute") return `${who} executed ${memberName(ctx, m.plan)}'s plan in the only way the rules left.`;
  if (m.type === "police") return `${who} used the Police Station's only possible box.`;
  return "";
}

function reportLine(ctx) {
  const rep = ctx.doc.view.report;
  const auto = ((ctx.doc.view.last || {}).auto || []).map((a) => autoText(ctx, a)).filter(Boolean);
  if (!rep) return auto.length ? h("div", { class: "cc-report" }, auto.join(" ")) : null;
  const parts = [...auto];
  if (rep.unemployment) parts.push(`Unemployment: ${rep.unemployment.B} Blue and ${rep.unemployment.W} White left in housing.`);
  if (rep.resolution && rep.resolution.length) parts.push(`Produced: ${rep.resolution.map((x) => x.name).join(", ")}.`);
  if (rep.lifestyle) parts.push(`Lifestyle index ${rep.lifestyle.index > 0 ? "+" : ""}${rep.lifestyle.index}.`);
  return parts.length ? h("div", { class: "cc-report" }, parts.join(" ")) : null;
}

function committeesPanel(ctx) {
  const v = ctx.doc.view;
  const toAct = new Set(v.to_act || []);
  return h("section", { class: "cc-panel" }, h("h3", {}, "Committees (turn order)"),
    h("div", { class: "cc-committees" }, ...Object.entries(COMMITTEE_NAMES).map(([key, name], i) => {
      const m = v.committee.indexOf(key);
      const spot = m >= 0 ? (v.streak[m] >= 2 ? "B" : v.streak[m] === 1 ? "A" : "new") : "";
      return h("div", { class: `cc-committee${m >= 0 && toAct.has(m) ? " act" : ""}`, dataset: { committee: key } },
        h("b", {}, `${i + 1}. ${name}`), h("div", {}, m >= 0 ? `${memberName(ctx, m)} (${spot})` : "empty"));
    })));
}

function areaPanel(ctx) {
  const v = ctx.doc.view;
  const cat = ctx.catalogue;
  const legal = ctx.legalMoves;
  const tileMoves = new Map(legal.filter((m) => m.type === "plan" && m.kind === "build").map((m) => [m.target, m]));
  const chosen = new Map((v.plans || []).map((p, m) => [p && p.kind === "build" ? p.target : null, m]));
  const tileBox = (tile, top) => {
    const name = tileName(cat, tile);
    const kind = kindOf(cat, name);
    const mv = tileMoves.get(tile);
    const owner = chosen.get(tile);
    const poor = v.phase === "plan" && kind.cost > v.budget;
    // A planning tile as a kit cell: proposing it when legal, else a word on why not.
    const box = cell("div", { class: `cc-tile${mv ? " can" : ""}${top ? " top" : ""}${poor ? " poor" : ""}`, dataset: { tile }, move: mv,
      state: mv ? "legal" : null, style: `background:${TYPE_COLOURS[kind.type]}`,
      onpick: mv ? () => { ui.key = ""; ctx.play(mv); } : null,
      onclick: () => {
        if (v.phase === "plan" && legal.length && ctx.explain) ctx.explain(owner !== undefined ? `${memberName(ctx, owner)} already proposed this tile.` : `The City Budget ($${v.budget}) cannot pay for the ${name}.`);
      } },
      h("b", {}, name), ` $${kind.cost} · ${TYPE_LETTER[kind.type]}`, owner !== undefined ? ` · ${memberName(ctx, owner)}'s plan` : "",
      poor ? ` · budget needs $${kind.cost - v.budget} more` : "");
    box.title = kind.boxes.join("; ");
    return box;
  };
  return h("section", { class: "cc-panel" }, h("h3", {}, "Planning area"),
    h("div", { class: "cc-area" }, ...Object.entries(v.planning).map(([sh, col]) => h("div", {},
      h("div", { class: "cc-report" }, `${SHAPES[sh]} (${col.count} in stack)`),
      col.top ? tileBox(col.top, true) : null, ...col.up.map((t) => tileBox(t, false))))));
}

function councilPanel(ctx) {
  const v = ctx.doc.view;
  if (!v.plans.some((p) => p)) return null;
  const votes = (o) => v.delegates.filter((d) => d === o).length + (v.exec_vote === o ? 1 : 0);
  return h("section", { class: "cc-panel" }, h("h3", {}, "Council table"),
    h("div", { class: "cc-plans" }, ...v.order.filter((o) => v.plans[o]).map((o) => {
      const funds = v.plan_funds[o].reduce((a, b) => a + b, 0);
      const state = v.executed.includes(o) ? "executed" : v.failed.includes(o) ? "could not be executed" : v.approved.includes(o) ? "approved" : "";
      return h("div", { class: `cc-plan${v.executed.includes(o) ? " ok" : ""}${v.failed.includes(o) ? " fail" : ""}`, dataset: { plan: String(o) } },
        h("b", {}, memberName(ctx, o)), planText(ctx, v.plans[o]), `· ${votes(o)} vote${votes(o) === 1 ? "" : "s"}`, funds ? `· $${funds} private funds` : "", state ? `· ${state}` : "");
    })),
    v.phil && v.phil_card ? h("div", { class: "cc-report" }, `Prof. Phil's revealed card: ${cardOf(ctx.catalogue, v.phil_card).name}`) : null);
}

function membersPanel(ctx) {
  const v = ctx.doc.view;
  const toAct = new Set(v.to_act || []);
  const order = ctx.seat === null ? [...Array(v.members).keys()] : [...Array(v.members).keys()].filter((m) => m !== ctx.seat);
  return h("section", { class: "cc-panel" }, h("h3", {}, "Council members"),
    h("div", { class: "cc-members" }, ...order.map((m) => {
      const phil = v.phil && m === v.players;
      return h("div", { class: `cc-member${toAct.has(m) ? " act" : ""}`, dataset: { seat: String(m) } },
        h("b", {}, memberName(ctx, m)), h("div", {}, phil ? "puppet member (2 players)" : `${v.vp[m]} VP`),
        h("div", {}, `${v.hand_counts[m]} favour cards · $${v.funds[m]} private funds`),
        v.committee[m] ? h("div", {}, COMMITTEE_NAMES[v.committee[m]]) : null,
        !phil && v.scored[m].length ? h("div", { class: "cc-report" }, `Scored: ${v.scored[m].map((x) => `${cardOf(ctx.catalogue, x.card).name} (${x.vp})`).join(", ")}`) : null);
    })));
}

export function render(root, ctx) {
  useStyle("cc-style", STYLE);
  const v = ctx.doc.view;
  const key = `${ctx.doc.version}:${v.phase}:${(ctx.legalMoves || []).length}`;
  const decision = `${v.turn}:${v.phase}:${v.cursor}:${v.executed.length}:${(v.activated || []).length}`;
  if (ui.key.split("|")[1] !== decision) { ui.plan = null; ui.anchor = null; ui.building = null; }
  ui.key = `${key}|${decision}`;
  rerender = () => render(root, ctx);
  mount(root, h("div", { class: "cc" },
    promptBox(ctx), handPanel(ctx), cityPanel(ctx),
    h("div", { class: "cc-grid2" }, tracksPanel(ctx), committeesPanel(ctx)),
    councilPanel(ctx), areaPanel(ctx), membersPanel(ctx)));
}

export function turnOrder(view) {
  return (view.order && view.order.length ? view.order : [...Array(view.players).keys()]).filter((m) => m < view.players);
}

export const scoreUnit = "VP";

export function publicScore(view, seat) {
  return `${view.vp[seat]} VP`;
}

export function outcomeDetails(ctx) {
  const out = ctx.doc.outcome;
  if (!out) return null;
  const rows = out.breakdown.map((b, seat) => h("tr", {}, h("td", {}, memberName(ctx, seat)), h("td", {}, String(b.vp)),
    h("td", {}, String(b.cards_in_hand)), h("td", {}, `$${b.private_funds}`),
    h("td", {}, b.scored.map((x) => `${x.name} (${x.vp})`).join(", ") || "none")));
  return h("div", { class: "cc-outcome" }, out.defeat ? h("p", {}, `${out.result} No one is ranked.`) : null,
    h("div", { style: "overflow-x:auto" }, h("table", {}, h("thead", {}, h("tr", {}, ...["Member", "VP", "Cards in hand (fewer wins a tie)", "Private funds (then more wins)", "Cards scored"].map((x) => h("th", {}, x)))),
      h("tbody", {}, ...rows))));
}

export function changed(entry) {
  const m = entry.move || {};
  if (m.type === "execute" && m.cells) return m.cells.map(([r, c]) => `[data-cell="${r},${c}"]`);
  if (m.type === "activate") return [`[data-building="${m.building}"]`];
  if (m.type === "zone") return [`[data-zone="${m.zone}"]`];
  if (["plan", "vote", "vote2", "fund", "approve"].includes(m.type)) return [`.cc-plan[data-plan="${m.type === "plan" ? entry.seat : m.plan}"]`];
  if (m.type === "committees" || m.type === "embezzle") return [".cc-committees"];
  return [];
}
