// Fortune City renderer: the goods market with its citizens, the bank and VIP supplies, and every
// player's board (city grid with tokens, workers and the truck; park; construction zones; credit
// card; four expense tracks). Clicks become legal moves. Built with the client kit
// (static/js/kit.js); render(root, ctx) redraws everything each call. Clickable things carry data-* attributes for browser tests:
//   [data-slot] market tiles, [data-zone] construction zones, [data-citizen] park citizens,
//   [data-cell][data-seat] city squares (.legal when a click there is a legal move),
//   [data-action] buttons (bank, vip, pass, done, pay-*).

import { Picker, cell, h, hyphenate, mount, same, seatName, useStyle } from "../js/kit.js";

// Light tile colours (dark text stays readable) with a letter code beside each colour.
const TYPE = {
  meals: { name: "Meals", colour: "#f29bbb", letter: "Me" },
  merchandise: { name: "Merchandise", colour: "#f5ad6b", letter: "Mr" },
  transportation: { name: "Transportation", colour: "#8fb6ea", letter: "Tr" },
  home: { name: "Home", colour: "#8fd0a2", letter: "Ho" },
  financial: { name: "Bank", colour: "#9a9a9a", letter: "$" },
};
const CITIZEN = { red: "#c0392b", yellow: "#e2b80f", blue: "#2f62b5", green: "#237a4b", vip: "#8e44ad" };
// The letter told beside each citizen colour (colour-blind players), and a readable text colour on it.
const LETTER = { red: "R", yellow: "Y", blue: "B", green: "G", vip: "V" };
const INK = (c) => (c === "yellow" ? "#111" : "#fff");
// Tokens as small CSS shapes (no emoji font is needed): gold coins, a blue diamond, brown garbage.
const TOKEN = { coin: ["fc-t coin", "1"], coin2: ["fc-t coin", "2"], diamond: ["fc-t dia", "◆"], garbage: ["fc-t junk", "G"] };
const token = (t, title) => h("span", { class: TOKEN[t][0], title: title || TOKEN_WORD[t] }, TOKEN[t][1]);
const TOKEN_WORD = { coin: "1 silver", coin2: "2 silver", diamond: "a diamond", garbage: "garbage" };
const PHASE = { actions: "Player actions", hire: "Hire citizens", truck: "Move delivery truck", over: "Game over" };

// What the seat has picked and not yet placed: {kind: "construct", zone} | {kind: "bank"}; and
// how it likes to pay.
let selection = null;
let payPref = "hand";
// A hire is built in steps with the kit's staged picker: the citizen (taken by itself when only
// one colour can be hired), then a highlighted building; never a button per combination.
const hires = new Picker([{ name: "citizen", of: (m) => m.citizen }, { name: "building", of: (m) => m.at }]);
// The citizen the hire is for, once picked or forced (undefined before).
const hireCitizen = () => (hires.legal.length ? hires.valueAt(0) : undefined);

const STYLE = `
  .fc { font-family: system-ui, sans-serif; color: #222; display: grid; gap: 10px; max-width: 100%; }
  .fc-bar { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; background: #f3f1ea; border-radius: 8px; padding: 8px 10px; }
  .fc-prompt { font-weight: 600; }
  .fc-round { color: #555; font-size: 13px; }
  .fc-last { color: #555; font-size: 13px; }
  .fc-panel { background: #fbfaf6; border: 1px solid #ddd8c8; border-radius: 8px; padding: 8px; min-width: 0; }
  .fc-panel h3 { margin: 0 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #6b6453; }
  .fc-market { display: flex; flex-wrap: wrap; gap: 6px; }
  .fc-good { width: 104px; max-width: calc(50% - 12px); box-sizing: border-box; border: 3px solid transparent; border-radius: 8px; background: #fff; padding: 4px; font-size: 12px; display: flex; flex-direction: column; gap: 2px; }
  .fc-good.can { cursor: pointer; border-color: #2e8b57; }
  /* Unaffordable: greyed box and dashed border with the reason in words; the text keeps its
     contrast (an opacity would fade it below 4.5:1). */
  .fc-good.no { background: #ece8de; border: 3px dashed #a89f88; }
  .fc-need { color: #8a2c1d; font-size: 11px; }
  .fc-good .fc-face { border-radius: 5px; color: #111; padding: 3px 5px; }
  .fc-good .fc-name { font-weight: 700; }
  .fc-good .fc-back { color: #555; }
  .fc-chip { display: inline-flex; align-items: center; justify-content: center; min-width: 24px; height: 24px; border-radius: 12px; color: #fff; font-size: 11px; font-weight: 700; padding: 0 5px; border: 2px solid transparent; }
  button.fc-chip { cursor: pointer; }
  .fc-chip.can { box-shadow: 0 0 0 3px #2e8b57; }
  .fc-chip.sel { border-color: #111; box-shadow: 0 0 0 2px #fff inset; }
  .fc-supply { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; font-size: 13px; margin-top: 6px; }
  .fc-btn { cursor: pointer; border-radius: 6px; border: 1px solid #888; background: #fff; padding: 4px 10px; font-size: 13px; }
  .fc-btn.main { background: #237a4b; color: #fff; border-color: #237a4b; }
  .fc-btn.sel { outline: 3px solid #f4c48f; }
  .fc-btn[disabled] { opacity: .45; cursor: default; }
  .fc-players { display: grid; gap: 10px; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); }
  .fc-player { background: #fff; border: 2px solid #ddd; border-radius: 10px; padding: 8px; min-width: 0; }
  .fc-player.me { border-color: #3b6fd6; }
  .fc-player.act { box-shadow: 0 0 0 3px #f1c40f; }
  .fc-player header { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; font-size: 13px; margin-bottom: 6px; }
  .fc-badge { font-size: 11px; border-radius: 10px; padding: 1px 7px; background: #eee; }
  .fc-badge.start { background: #e67e22; color: #111; }
  .fc-city { overflow-x: auto; padding-bottom: 4px; }
  .fc-grid { display: grid; gap: 3px; width: max-content; }
  .fc-cell { width: 64px; min-height: 64px; border-radius: 6px; background: #f1eee6; position: relative; font-size: 10px; overflow-wrap: anywhere; line-height: 1.1; display: flex; align-items: center; justify-content: center; text-align: center; overflow: hidden; box-sizing: border-box; }
  .fc-cell.void { background: transparent; }
  /* A building's name has the middle to itself: the markers (worker, truck, VP; type, token) sit
     in a top and a bottom strip, so they never cover it, and the square grows for a long name. */
  .fc-cell.bld { background: #fff; border: 4px solid #999; color: #222; font-weight: 600; padding: 14px 2px 13px; }
  .fc-cell.hall { background: #6b6b6b; color: #fff; font-weight: 700; padding: 14px 2px 13px; }
  .fc-cell .nm { display: block; max-width: 100%; }
  .fc-cell.board { background: #d9d2c0; color: #5c5441; padding: 2px 0; }
  .fc-park { display: flex; flex-direction: column; align-items: center; gap: 2px; }
  .fc-cell.changed { box-shadow: 0 0 0 3px #e67e22; }
  .fc-cell.legal { outline: 3px dashed #2e8b57; cursor: pointer; }
  .fc-cell.legal:hover { background: #dff3e4; }
  .fc-t { display: inline-flex; align-items: center; justify-content: center; width: 14px; height: 14px; border-radius: 50%; font-size: 10px; font-weight: 700; vertical-align: middle; }
  .fc-t.coin { background: #f5c518; border: 1px solid #a07c00; color: #5a4300; }
  .fc-t.dia { background: #bfe6f7; border: 1px solid #3d8fb5; color: #17587a; border-radius: 3px; }
  .fc-t.junk { background: #8a6b4a; border: 1px solid #4d3a26; color: #fff; border-radius: 3px; }
  .fc-cell .fc-t { position: absolute; right: 4px; bottom: 0; width: 13px; height: 13px; }
  .fc-cell .wk { position: absolute; left: 1px; top: 1px; width: 13px; height: 13px; border-radius: 50%; border: 1px solid #0006; font-size: 10px; line-height: 13px; font-weight: 700; text-align: center; }
  .fc-cell .vp { position: absolute; right: 5px; top: 0; font-size: 10px; line-height: 13px; color: #444; }
  .fc-cell .ty { position: absolute; left: 5px; bottom: 1px; font-size: 10px; line-height: 12px; color: #444; font-weight: 400; }
  .fc-axis { width: 18px; height: 18px; font-size: 10px; color: #6b6453; display: flex; align-items: center; justify-content: center; }
  .fc-cell.has-truck { box-shadow: inset 0 0 0 3px #222; }
  .fc-cell .truck { position: absolute; left: 50%; transform: translateX(-50%); top: 0; font-size: 10px; line-height: 12px; background: #222; color: #fff; border-radius: 3px; padding: 0 2px; }
  .fc-zone { cursor: default; min-height: 24px; min-width: 24px; display: flex; align-items: center; justify-content: center; }
  .fc-zone.can { cursor: pointer; outline: 3px solid #2e8b57; }
  .fc-zone.sel { outline: 3px solid #d2691e; }
  .fc-tracks { display: grid; grid-template-columns: auto 1fr; gap: 2px 6px; font-size: 11px; margin-top: 6px; align-items: center; }
  .fc-track { display: flex; gap: 2px; }
  .fc-track span { width: 24px; height: 18px; border-radius: 3px; background: #eee; display: flex; align-items: center; justify-content: center; font-size: 10px; color: #444; }
  .fc-track span.on { color: #111; font-weight: 700; outline: 2px solid #333; }
  .fc-money { display: flex; flex-wrap: wrap; gap: 6px; font-size: 12px; align-items: center; }
  .fc-pay { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; font-size: 12px; }
  .fc-score table { border-collapse: collapse; font-size: 13px; }
  .fc-score td, .fc-score th { border: 1px solid #ddd; padding: 3px 6px; text-align: right; }
  .fc-score th:first-child, .fc-score td:nth-child(2) { text-align: left; }
  .fc-winner { background: #fff6d6; }
  @media (max-width: 480px) {
    .fc-good { width: calc(50% - 12px); }
    .fc-cell { width: 60px; min-height: 60px; font-size: 10px; }
    .fc-players { grid-template-columns: 1fr; }
  }`;

const at = (k) => k.split(",").map(Number);
const sameAt = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const tile = (cat, id) => (cat.tiles && cat.tiles[id]) || null;

function nameOf(ctx, i) {
  return seatName(ctx.names, i);
}

function buildingName(cat, id) {
  if (id === "bank") return "Bank";
  if (id === "city_hall") return "City Hall";
  const t = tile(cat, id);
  return t ? t.building : id;
}

function goodName(cat, id) {
  const t = tile(cat, id);
  return t ? t.good : id;
}

function typeOf(cat, id) {
  if (id === "bank" || id === "city_hall") return "financial";
  const t = tile(cat, id);
  return t ? t.type : "financial";
}

// Among legal moves for one target, the one paid the way the player prefers.
function paid(moves) {
  if (!moves.length) return null;
  const gold = moves.find((m) => m.gold);
  const silver = moves.filter((m) => !m.gold).sort((a, b) => a.card - b.card);
  if (payPref === "gold" && gold) return gold;
  if (!silver.length) return gold;
  return payPref === "card" ? silver[silver.length - 1] : silver[0];
}

function validateSelection(ctx) {
  if (!selection) return;
  if (selection.kind === "return") {
    if (!ctx.legalMoves.some((m) => m.type === "buy" && m.return !== undefined)) selection = null;
    return;
  }
  const ok = ctx.legalMoves.some((m) => m.type === selection.kind &&
    (selection.kind !== "construct" || m.zone === selection.zone));
  if (!ok) selection = null;
}

function select(ctx, sel) {
  const again = selection && sel && selection.kind === sel.kind && selection.zone === sel.zone;
  selection = again ? null : sel;
  if (!sel) hires.clear();
  render(ctx.root, ctx);
}

function play(ctx, move) {
  selection = null;
  hires.clear();
  ctx.play(move);
}

// A citizen chip: the hire's first step (the buildings of its colour light up).
function pickCitizen(ctx, citizen) {
  hires.pick(0, citizen);
  render(ctx.root, ctx);
}

// A highlighted building: the hire's last step; the picker gives the one legal move left.
function pickBuilding(ctx, move) {
  play(ctx, hires.pick(1, move.at) || move);
}

// ------------------------------------------------------------------ words

export function describe(move, catalogue = {}) {
  const pay = move.gold ? " with gold" : move.card ? ` (${move.card} from card)` : "";
  switch (move.type) {
    case "buy": return `buy market tile ${move.slot + 1}${pay}${move.return !== undefined ? `, return zone ${move.return + 1}` : ""}`;
    case "bank": return `buy and build a bank at ${spot(move.at)}${pay}`;
    case "construct": return `construct zone ${move.zone + 1} at ${spot(move.at)}${pay}`;
    case "vip": return `invite a VIP${pay}`;
    case "pass": return "pass";
    case "hire": return `hire ${move.citizen} at ${spot(move.at)}`;
    case "done": return "done hiring";
    case "drive": return `drive to ${spot(move.to)}`;
    default: return JSON.stringify(move);
  }
}

function prompt(ctx) {
  const { view } = ctx.doc;
  const mine = ctx.legalMoves.length > 0;
  if (view.phase === "over") return "Final scores below.";
  if (!mine) {
    const who = (view.to_act || []).map((i) => nameOf(ctx, i)).join(", ");
    return ctx.seat === null ? `${PHASE[view.phase]}: ${who}` : `Waiting for ${who}…`;
  }
  if (view.phase === "actions") {
    if (selection && selection.kind === "construct") return "Click a green-dashed square in your city to construct.";
    if (selection && selection.kind === "bank") return "Click a green-dashed square to build the bank.";
    return "Your turn: buy goods, click a zone to build it, build a bank, invite a VIP, or pass.";
  }
  if (view.phase === "hire") {
    const citizen = hireCitizen();
    if (citizen !== undefined) return `Click a highlighted building for the ${citizen === "vip" ? "VIP" : citizen} citizen.`;
    return "Hire: click a citizen in your park, then a building of its colour (a VIP: any).";
  }
  if (view.phase === "truck") {
    const left = view.players[ctx.seat].truck.left;
    return `Drive your truck: click a highlighted square (${left} step${left === 1 ? "" : "s"} left).`;
  }
  return "";
}

function lastLine(ctx) {
  const { view } = ctx.doc;
  const parts = [];
  const last = view.last;
  if (last && last.move) {
    const m = last.move;
    const who = nameOf(ctx, last.seat);
    let text = `${who}: ${describe(m)}`;
    if (m.type === "buy") text = `${who} bought ${goodName(ctx.catalogue, last.tile)} with a ${last.citizen} citizen`;
    else if (m.type === "construct") text = `${who} built the ${buildingName(ctx.catalogue, last.tile)} at [${m.at}]`;
    else if (m.type === "bank") text = `${who} built a bank at [${m.at}]`;
    else if (m.type === "hire") text = `${who} hired into the ${buildingName(ctx.catalogue, last.tile)} (track ${last.from}→${last.to})`;
    else if (m.type === "drive") text = `${who}'s truck drove to the ${buildingName(ctx.catalogue, last.tile)}${last.token ? `, picked up ${TOKEN_WORD[last.token]}` : ""}`;
    else if (m.type === "pass") text = `${who} passed`;
    else if (m.type === "vip") text = `${who} invited a VIP`;
    parts.push(text);
  }
  for (const e of (last && last.auto) || []) {
    parts.push(e.kind === "pass" ? `${nameOf(ctx, e.seat)} could pay for nothing and passed`
      : `${nameOf(ctx, e.seat)}'s truck had one way to go: ${buildingName(ctx.catalogue, e.tile)}${e.token ? `, picked up ${TOKEN_WORD[e.token]}` : ""}`);
  }
  if (view.round_end && view.round_end.round === view.round - 1 && view.phase === "actions") {
    parts.push(`Round ${view.round_end.round} income: ` + view.round_end.players.map((r, i) =>
      `${nameOf(ctx, i)} +${r.income}${r.card_silver || r.gold ? ` (card +${r.card_silver}, gold +${r.gold})` : ""}`).join(", "));
  }
  return parts.length ? h("div", { class: "fc-last", dataset: { last: "1" } }, "Last: ", parts.join(" · ")) : null;
}

// ------------------------------------------------------------------ market and supply

function goodCard(ctx, slotIndex, m) {
  const cat = ctx.catalogue;
  const t = tile(cat, m.tile) || { good: m.tile, building: "", type: "financial", price: "?", vp: "?", production: "" };
  const buys = ctx.legalMoves.filter((x) => x.type === "buy" && x.slot === slotIndex);
  let move = null;
  if (buys.length) {
    // With both zones full every purchase returns a zone's tile: zone 1 unless the player chose.
    const ret = selection && selection.kind === "return" ? selection.zone : 0;
    move = paid(buys.some((x) => x.return !== undefined) ? buys.filter((x) => x.return === ret) : buys);
  }
  const { view } = ctx.doc;
  const myTurn = ctx.seat !== null && view.phase === "actions" && ctx.legalMoves.length > 0;
  let need = null;
  if (myTurn && !move) {
    const me = view.players[ctx.seat];
    const have = me.silver + (me.card ? me.card.silver : 0);
    need = me.card && me.card.gold ? "gold not usable now" : `needs $${t.price - have} more`;
  }
  // A market space as a kit cell: a click buys it when legal, else says why not (in words).
  const why = need ? `You cannot buy the ${t.good}: it ${need}.`
    : view.phase === "actions" ? "Goods are bought on your turn in the Player Actions phase." : "Goods are bought only in the Player Actions phase.";
  const good = cell("div", { class: `fc-good${move ? " can" : ""}${need ? " no" : ""}`, dataset: { slot: String(slotIndex) }, move,
    state: move ? "legal" : null, onpick: move ? () => play(ctx, move) : () => ctx.explain && ctx.explain(why) },
  h("div", { class: "fc-face", style: `background:${TYPE[t.type].colour}` },
    h("div", { class: "fc-name" }, t.good), h("div", {}, `${TYPE[t.type].letter} ${TYPE[t.type].name} · $${t.price}`)),
  h("div", { class: "fc-back" }, `${t.building}: ${t.vp} VP `, TOKEN[t.production] ? token(t.production) : null),
  h("div", {}, "Citizen ", h("span", { class: "fc-chip", style: `background:${CITIZEN[m.citizen]};color:${INK(m.citizen)}`, title: `${m.citizen} citizen` }, LETTER[m.citizen])),
  need ? h("div", { class: "fc-need" }, need) : null);
  good.title = `${t.good} → ${t.building}: ${t.vp} VP, produces ${TOKEN_WORD[t.production] || t.production}`;
  return good;
}

function marketPanel(ctx) {
  const { view } = ctx.doc;
  const mine = ctx.legalMoves;
  const bankMoves = mine.filter((m) => m.type === "bank");
  const vip = paid(mine.filter((m) => m.type === "vip"));
  const me = ctx.seat !== null ? view.players[ctx.seat] : null;
  const full = me && me.zone[0] && me.zone[1] && mine.some((m) => m.type === "buy");
  const bag = Object.entries(view.bag).map(([c, n]) => h("span", { class: "fc-chip", style: `background:${CITIZEN[c]};color:${INK(c)}`, title: `${n} ${c} citizens in the bag` }, `${LETTER[c]} ${n}`));
  return h("section", { class: "fc-panel" },
    h("h3", {}, `Goods market (${view.market.length}/${view.market_size})`),
    h("div", { class: "fc-market" }, ...view.market.map((m, i) => goodCard(ctx, i, m))),
    full ? h("div", { class: "fc-pay" }, "Both zones full — a purchase returns zone ",
      h("strong", {}, String(((selection && selection.kind === "return") ? selection.zone : 0) + 1)), " to the box. Return instead: ",
      ...[0, 1].map((z) => h("button", { type: "button", class: "fc-btn", dataset: { action: `return-${z}` }, onclick: () => select(ctx, { kind: "return", zone: z }) }, `zone ${z + 1}`))) : null,
    h("div", { class: "fc-supply" },
      h("span", {}, `Stack ${view.stack}`), h("span", { dataset: { bag: "1" } }, "Bag ", ...bag),
      h("button", { type: "button", class: `fc-btn${selection && selection.kind === "bank" ? " sel" : ""}`, dataset: { action: "bank" }, disabled: !bankMoves.length,
        onclick: () => select(ctx, { kind: "bank" }) }, `Bank $3 (${view.banks} left)`),
      h("button", { type: "button", class: "fc-btn", dataset: { action: "vip" }, disabled: !vip, onclick: () => play(ctx, vip) }, `Invite VIP $3 (${view.vips} left)`),
    ));
}

function payPanel(ctx) {
  const { view } = ctx.doc;
  if (ctx.seat === null || view.phase !== "actions" || !ctx.legalMoves.length) return null;
  const card = view.players[ctx.seat].card;
  if (!card) return null;
  const opts = [["hand", "hand silver first"], ["card", "card silver first"], ["gold", "a gold coin"]];
  return h("div", { class: "fc-pay" }, "Pay with: ", ...opts.map(([k, label]) =>
    h("button", { type: "button", class: `fc-btn${payPref === k ? " sel" : ""}`, dataset: { action: `pay-${k}` },
      disabled: k === "gold" && !card.gold, onclick: () => { payPref = k; render(ctx.root, ctx); } }, label)));
}

// ------------------------------------------------------------------ player boards

function trackRows(ctx, p) {
  const rows = [];
  for (const t of ctx.catalogue.tracks || []) {
    const k = p.tracks[t.id];
    const col = TYPE[t.id].colour;
    rows.push(h("span", {}, t.name), h("span", { class: "fc-track", title: `bonus ${t.bonus.join("/")} · VP ${t.vp.join("/")}` },
      ...t.vp.map((vp, i) => h("span", { class: i === k ? "on" : "", style: i === k ? `background:${col}` : "" },
        i === 0 ? "·" : `${vp}${t.bonus_kind !== "none" && t.bonus[i] ? `+${t.bonus[i]}` : ""}`))));
  }
  return h("div", { class: "fc-tracks" }, ...rows);
}

function cityGrid(ctx, i) {
  const { view } = ctx.doc;
  const p = view.players[i];
  const cat = ctx.catalogue;
  const mine = ctx.seat === i;
  const targets = new Map();
  if (mine) {
    for (const m of ctx.legalMoves) {
      let where = null;
      if (m.type === "drive") where = m.to;
      else if (selection && selection.kind === "construct" && m.type === "construct" && m.zone === selection.zone) where = m.at;
      else if (selection && selection.kind === "bank" && m.type === "bank") where = m.at;
      else if (m.type === "hire" && hireCitizen() !== undefined && same(m.citizen, hireCitizen())) where = m.at;
      if (where) {
        const key = `${where[0]},${where[1]}`;
        targets.set(key, [...(targets.get(key) || []), m]);
      }
    }
  }
  const keys = [...Object.keys(p.city), ...targets.keys()];
  const xs = keys.map((k) => at(k)[0]);
  const ys = keys.map((k) => at(k)[1]);
  const x0 = Math.min(-1, ...xs) - (mine ? 0 : 0);
  const x1 = Math.max(1, ...xs);
  const y1 = Math.max(0, ...ys);
  // Column numbers on top and row numbers on the left, as the log names squares.
  const cells = [h("span", { class: "fc-axis" })];
  for (let x = x0; x <= x1; x++) cells.push(h("span", { class: "fc-axis", title: `column ${x > 0 ? "+" : ""}${x}` }, `${x > 0 ? "+" : ""}${x}`));
  for (let y = y1; y >= -1; y--) {
    cells.push(h("span", { class: "fc-axis", title: y >= 0 ? `row ${y}` : "park row" }, y >= 0 ? String(y) : ""));
    for (let x = x0; x <= x1; x++) {
      const key = `${x},${y}`;
      const c = p.city[key];
      const ms = targets.get(key) || [];
      const move = ms.length ? (ms[0].type === "drive" || ms[0].type === "hire" ? ms[0] : paid(ms)) : null;
      const attrs = { class: "fc-cell", dataset: { cell: key, seat: String(i) } };
      let content = [];
      if (y === -1) {
        if (x === -1) { attrs.class += " board"; content = [parkBox(ctx, i)]; }
        else if (x === 0 || x === 1) { content = [zoneBox(ctx, i, x)]; attrs.class += " board"; }
        else attrs.class += " void";
      } else if (c) {
        const type = typeOf(cat, c.t);
        if (c.t === "city_hall") attrs.class += " hall";
        else { attrs.class += " bld"; attrs.style = `border-color:${TYPE[type].colour}`; }
        const t = tile(cat, c.t);
        content = [h("span", { class: "nm" }, hyphenate(buildingName(cat, c.t), 7)),
          t ? h("span", { class: "vp", title: `${t.vp} VP` }, `${t.vp}`) : null,
          c.t !== "city_hall" ? h("span", { class: "ty" }, TYPE[type].letter) : null,
          c.token ? token(c.token, `${TOKEN_WORD[c.token]} waiting for the truck`) : null,
          c.worker ? h("span", { class: "wk", style: `background:${CITIZEN[c.worker]};color:${INK(c.worker)}`, title: `${c.worker === "vip" ? "VIP" : c.worker} worker` }, LETTER[c.worker]) : null,
          p.truck.at === key ? h("span", { class: "truck", title: "the delivery truck is here" }, "T") : null];
        if (p.truck.at === key) attrs.class += " has-truck";
        attrs.title = `${buildingName(cat, c.t)}${c.token ? `, ${TOKEN_WORD[c.token]} waiting` : ""}${c.worker ? `, ${c.worker} worker` : ""}`;
      } else if (!ms.length) {
        attrs.class += " void";
      }
      const lm = view.last && view.last.seat === i ? (view.last.move.at || view.last.move.to) : null;
      if (lm && lm[0] === x && lm[1] === y) { attrs.class += " changed"; attrs.title = `${attrs.title || ""} (last change)`; }
      if (!move && y >= 0 && ctx.explain && ctx.legalMoves.length) {
        // Say why a square cannot be used for the decision at hand instead of sending a move.
        const why = squareWhy(ctx, i, mine);
        if (why) attrs.onclick = () => ctx.explain(why);
      }
      // The square as a kit cell: its name for screen readers (what stands there and where, in
      // words), and, when it is a legal target, its move and what a click does.
      const where = y >= 0 ? spot([x, y]) : "";
      const { title, ...rest } = attrs;
      const square = cell("div", { ...rest, class: `${attrs.class}${move ? " legal" : ""}`, move, state: move ? "legal" : null,
        label: move ? describe(move, cat) : c ? `${title}, ${where}` : y >= 0 ? `empty square, ${where}` : null,
        role: move ? null : c ? "img" : null,
        onpick: move ? (move.type === "hire" ? () => pickBuilding(ctx, move) : () => play(ctx, move)) : null }, ...content);
      if (title) square.setAttribute("title", title);
      cells.push(square);
    }
  }
  return h("div", { class: "fc-city" }, h("div", { class: "fc-grid", style: `grid-template-columns: 18px repeat(${x1 - x0 + 1}, auto)` }, ...cells));
}

// Why a square of a city cannot be played now (only asked on the seat's own decision).
function squareWhy(ctx, i, mine) {
  const { view } = ctx.doc;
  if (!mine) return `That is ${nameOf(ctx, i)}'s city: you build, hire and drive in your own.`;
  if (view.phase === "truck") return "The truck moves one square at a time onto your buildings or City Hall, never diagonally and never straight back.";
  if (selection && (selection.kind === "construct" || selection.kind === "bank")) return "Build next to your city, above the park row, never beside a building of the same border colour (a bank never beside City Hall or another bank).";
  if (view.phase === "hire" && hireCitizen() !== undefined) return "That square has no empty building of this citizen's colour.";
  if (view.phase === "hire") return "First pick a citizen in your park, then a highlighted building of its colour.";
  if (view.phase === "actions") return "First pick what to build: a construction zone under your city (once it holds a tile) or a bank; then click a highlighted square.";
  return null;
}

// A square in words, as the log says it: "column +1, row 0", or "row 2 above City Hall".
function spot([x, y]) { return x ? `column ${x > 0 ? "+" : ""}${x}, row ${y}` : `row ${y} above City Hall`; }

function parkBox(ctx, i) {
  const { view } = ctx.doc;
  const p = view.players[i];
  const mine = ctx.seat === i && view.phase === "hire";
  const chips = Object.entries(p.park).filter(([, n]) => n > 0).map(([c, n]) => {
    const can = mine && ctx.legalMoves.some((m) => m.type === "hire" && m.citizen === c);
    const sel = can && hireCitizen() === c;
    return h(can ? "button" : "span", { type: can ? "button" : null, class: `fc-chip${can ? " can" : ""}${sel ? " sel" : ""}`, style: `background:${CITIZEN[c]};color:${INK(c)}`,
      dataset: { citizen: c }, title: `${n} ${c === "vip" ? "VIP" : c} citizen${n > 1 ? "s" : ""} in the park`,
      "aria-pressed": can ? String(sel) : null, onclick: can ? () => pickCitizen(ctx, c) : null }, `${LETTER[c]} ${n}`);
  });
  return h("div", { class: "fc-park", title: "Park" }, h("div", {}, "Park"), ...chips);
}

function zoneBox(ctx, i, z) {
  const { view } = ctx.doc;
  const id = view.players[i].zone[z];
  const mine = ctx.seat === i;
  const can = mine && ctx.legalMoves.some((m) => m.type === "construct" && m.zone === z);
  const sel = selection && selection.kind === "construct" && selection.zone === z;
  const t = id ? tile(ctx.catalogue, id) : null;
  // A construction zone as a kit cell: picking it is the first step of constructing its tile.
  const zone = cell("div", { class: `fc-zone${can ? " can" : ""}${sel ? " sel" : ""}`, dataset: { zone: String(z), seat: String(i) },
    state: can ? (sel ? ["legal", "picked"] : "legal") : null, role: can ? "button" : null,
    style: t ? `background:${TYPE[t.type].colour};color:#111;border-radius:4px;padding:1px` : "", onpick: can ? () => select(ctx, { kind: "construct", zone: z }) : null },
  t ? `${TYPE[t.type].letter} ${t.good} $${t.price}` : `Zone ${z + 1}`);
  zone.title = t ? `${t.good} ($${t.price}) → ${t.building}, ${t.vp} VP` : "Construction zone";
  return zone;
}

function playerBoard(ctx, i) {
  const { view } = ctx.doc;
  const p = view.players[i];
  const live = view.live[i];
  const acting = (view.to_act || []).includes(i) && view.phase !== "over";
  const status = view.phase === "actions" && p.passed ? "passed" : (view.phase === "hire" || view.phase === "truck") && p.done ? "done" : null;
  return h("div", { class: `fc-player${ctx.seat === i ? " me" : ""}${acting ? " act" : ""}`, dataset: { seat: String(i) } },
    h("header", {}, h("strong", {}, nameOf(ctx, i), ctx.seat === i ? " (you)" : ""),
      i === view.start ? h("span", { class: "fc-badge start" }, "★ start") : null,
      acting ? h("span", { class: "fc-badge" }, "to act") : null, status ? h("span", { class: "fc-badge" }, status) : null,
      h("span", {}, `Score now ${live.score}`)),
    h("div", { class: "fc-money" },
      h("span", { title: "silver in hand" }, token("coin", "silver in hand"), ` ${p.silver} in hand`),
      p.card ? h("span", { class: "fc-badge", title: "credit card: silver and gold on it" }, `Card: ${p.card.silver} silver, ${p.card.gold} gold`) : h("span", { class: "fc-badge" }, "no card"),
      h("span", { title: "collected diamonds" }, token("diamond", "collected diamonds"), ` ${p.diamonds}`),
      h("span", {}, `banks ${p.banks}/2`), h("span", {}, `income ${live.income}`), h("span", { title: "the square marked T holds the truck" }, `truck (T) ${live.steps} step${live.steps > 1 ? "s" : ""}`)),
    cityGrid(ctx, i), trackRows(ctx, p));
}

// The shell's result panel shows this breakdown (docs/UX.md outcomeDetails).
export function outcomeDetails(ctx) {
  const out = ctx.doc.outcome;
  if (!out) return null;
  const order = out.scores.map((_, i) => i).sort((a, b) => out.ranks[a] - out.ranks[b]);
  const cols = [["buildings", "Buildings"], ["diamonds", "Diamonds"], ["track_meals", "Meals"], ["track_merchandise", "Merch."],
    ["track_transportation", "Transport"], ["track_home", "Home"], ["garbage", "Garbage"], ["total", "Total"], ["coins", "Coins (tie)"]];
  return h("section", { class: "fc-panel fc-score", dataset: { outcome: "1" } }, h("h3", {}, "Final scoring"),
    h("div", { style: "overflow-x:auto" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Rank"), h("th", {}, "Player"), ...cols.map(([, l]) => h("th", {}, l)))),
      h("tbody", {}, ...order.map((i) => h("tr", { class: out.ranks[i] === 1 ? "fc-winner" : "" },
        h("td", {}, String(out.ranks[i])), h("td", {}, nameOf(ctx, i)),
        ...cols.map(([k]) => h("td", {}, k === "total" ? h("strong", {}, String(out.breakdown[i][k])) : String(out.breakdown[i][k])))))))),
    h("p", { class: "fc-last" }, "Ties: most collected diamonds, then fewest garbage on tiles, then most coins."));
}

export function publicScore(view, seat) {
  return view.live ? view.live[seat].score : "";
}

export function turnOrder(view) {
  // Player actions go clockwise from the start player.
  return view.players.map((_, k) => (view.start + k) % view.players.length);
}

export function changed(entry) {
  const m = entry.move || {};
  const where = m.at || m.to;
  if (where) return [`[data-cell="${where[0]},${where[1]}"][data-seat="${entry.seat}"]`];
  if (m.type === "buy") return [`[data-zone][data-seat="${entry.seat}"]`];
  if (m.type === "vip") return [`[data-seat="${entry.seat}"] .fc-park`];
  return [];
}

function promptBar(ctx) {
  const { view } = ctx.doc;
  const mine = ctx.legalMoves;
  const pass = mine.find((m) => m.type === "pass");
  const done = mine.find((m) => m.type === "done");
  return h("div", { class: "fc-bar" },
    h("span", { class: "fc-prompt" }, prompt(ctx)),
    pass ? h("button", { type: "button", class: "fc-btn main", dataset: { action: "pass" }, onclick: () => play(ctx, pass) }, "Pass") : null,
    done ? h("button", { type: "button", class: "fc-btn main", dataset: { action: "done" }, onclick: () => play(ctx, done) }, "Done hiring") : null,
    (selection && selection.kind !== "return") || hires.picks.length ? h("button", { type: "button", class: "fc-btn", dataset: { action: "cancel" }, onclick: () => select(ctx, null) }, "Cancel") : null,
    h("span", { class: "fc-round" }, `Round ${view.round}${view.final ? " (final round)" : ""} · ${PHASE[view.phase]}`),
    payPanel(ctx));
}

export function render(root, ctx) {
  useStyle("fortune-city-style", STYLE);
  ctx = { ...ctx, root };
  validateSelection(ctx);
  hires.sync(`${ctx.doc.version}`, ctx.legalMoves.filter((m) => m.type === "hire"));
  const { view } = ctx.doc;
  const order = turnOrder(view).filter((i) => i !== ctx.seat);
  const mine = ctx.seat !== null ? [playerBoard(ctx, ctx.seat)] : [];
  mount(root, h("div", { class: "fc" }, promptBar(ctx), ...mine, marketPanel(ctx), lastLine(ctx),
    h("div", { class: "fc-players" }, ...(ctx.seat === null ? view.players.map((_, i) => i) : order).map((i) => playerBoard(ctx, i)))));
}
