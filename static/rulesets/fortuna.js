// Fortuna renderer: the road to Rome, the four board sides with their action cards, the six
// favour cards with their tokens, the dice and every province; clicks become legal moves.
// Built with the client kit (static/js/kit.js); render(root, ctx) redraws everything each call.
// Clickable things carry data-* attributes for browser tests:
//   .fo-card.can[data-side][data-slot] action cards, .fo-fav.can[data-favour] favour cards,
//   [data-choice] options of the picked card, [data-die] declines, [data-privilege] privilege
//   cards, [data-keep] / [data-palace] card choices, [data-action] skip / end / back.

import { cell, h, mount, same, seatName, useStyle } from "../js/kit.js";

const SEAT_COLOURS = ["#2f6fd0", "#66707a", "#e07b22", "#8a4fbf"]; // blue, grey, orange, purple
// Text on a seat colour: white, but dark on the light orange (at least 4.5:1).
const SEAT_INK = ["#fff", "#fff", "#111", "#fff"];
const RES = [["money", "Money", "#c9a227"], ["grain", "Grain", "#d9b43c"], ["wine", "Wine", "#9b2d3c"],
  ["water", "Water", "#3b8fd9"], ["centurions", "Centurions", "#333"], ["vestals", "Vestals", "#bbb"],
  ["dice", "Dice", "#555"]];

// What the seat has picked and not yet finished: {key, slot, side, target} (cleared each new decision).
const ui = { key: "", slot: null, target: null };

const STYLE = `
.fo { font-family: system-ui, sans-serif; color: #222; display: flex; flex-direction: column; gap: 10px; max-width: 100%; }
.fo-bar { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; background: #f4efe3; border-radius: 8px; padding: 8px 12px; font-size: 14px; }
.fo-bar .fo-title { font-weight: 700; }
.fo-turn { font-weight: 600; }
.fo-last { color: #5b5446; font-size: 13px; flex-basis: 100%; }
.fo-prompt { background: #fffbe6; border: 1px solid #eedc82; border-radius: 8px; padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; font-size: 14px; }
.fo-btn { cursor: pointer; border-radius: 6px; border: 1px solid #8a7f66; background: #fff; padding: 5px 10px; font-size: 13px; }
.fo-btn.main { background: #2e7d4f; color: #fff; border-color: #2e7d4f; }
.fo-hint { color: #8a3b12; font-size: 13px; }
.fo-panel { background: #fbf8f1; border: 1px solid #e2d9c4; border-radius: 8px; padding: 8px; }
.fo-panel h3 { margin: 0 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #6b6453; }
.fo-road { display: grid; grid-template-columns: repeat(16, minmax(18px, 1fr)); gap: 2px; }
.fo-step { position: relative; min-height: 38px; border-radius: 4px; background: #e9e0c8; font-size: 10px; text-align: center; padding-top: 1px; color: #4f4a3d; }
.fo-step.rome { background: #e6c9a3; }
.fo-step.gate { box-shadow: inset 3px 0 0 #8b5a2b; }
.fo-step.palace { background: #d7a94b; color: #3b2a00; font-weight: 700; }
.fo-pawns { display: flex; flex-wrap: wrap; justify-content: center; gap: 1px; margin-top: 2px; }
.fo-pawn { display: inline-flex; align-items: center; justify-content: center; min-width: 16px; height: 16px; padding: 0 2px; box-sizing: border-box; border-radius: 8px; border: 1px solid #0006; color: #fff; font-size: 10px; font-weight: 700; }
.fo-pawn.moved { box-shadow: 0 0 0 2px #ffd54a; }
.fo-sides { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); gap: 8px; }
.fo-side { border-radius: 8px; padding: 6px; border: 2px solid #ddd; background: #fff; }
.fo-side.me { border-color: #2e7d4f; }
.fo-side.act { box-shadow: 0 0 0 3px #f1c40f; }
.fo-side h4 { margin: 0 0 4px; font-size: 13px; display: flex; gap: 6px; align-items: center; }
.fo-cards { display: grid; grid-template-columns: repeat(3, 1fr); gap: 4px; }
.fo-card { border-radius: 6px; padding: 4px; min-height: 62px; font-size: 11px; background: #f7f1e1; border: 2px solid #d8ccb0; overflow-wrap: anywhere; }
.fo-card b { display: block; font-size: 12px; margin-bottom: 2px; }
.fo-card.down { background: repeating-linear-gradient(45deg, #6d5a3c, #6d5a3c 6px, #7d6947 6px, #7d6947 12px); color: #fff; }
.fo-card.down.known { background: repeating-linear-gradient(45deg, #7a6749, #7a6749 6px, #836f4f 6px, #836f4f 12px); }
.fo-card.chosen { border-color: #555; border-style: dashed; }
.fo-card.can { cursor: pointer; outline: 3px solid #2e7d4f; outline-offset: 1px; }
.fo-card.sel { border-color: #111; box-shadow: 0 0 0 3px #f1c40f; }
.fo-favs { display: grid; grid-template-columns: repeat(6, minmax(48px, 1fr)); gap: 4px; }
.fo-fav { border-radius: 6px; padding: 4px; background: #fff; border: 2px solid #d8ccb0; font-size: 11px; text-align: center; min-height: 70px; }
.fo-fav .num { font-size: 20px; font-weight: 800; color: #8b5a2b; }
.fo-fav.used { background: #cfc6b3; color: #433f34; }
.fo-fav.used .num { color: #433f34; }
.fo-fav.can { cursor: pointer; outline: 3px solid #2e7d4f; outline-offset: 1px; }
.fo-fav.sel { border-color: #111; box-shadow: 0 0 0 3px #f1c40f; }
.fo-token { display: inline-block; width: 10px; height: 10px; border-radius: 50%; background: #c0392b; border: 1px solid #7a1e14; margin: 1px; }
.fo-dice { display: inline-flex; gap: 4px; }
.fo-die { width: 26px; height: 26px; border-radius: 5px; background: #fff; border: 2px solid #333; font-weight: 700; display: inline-flex; align-items: center; justify-content: center; }
.fo-prov { font-size: 13px; display: flex; flex-direction: column; gap: 4px; }
.fo-prov.act { box-shadow: 0 0 0 3px #f1c40f; }
.fo-prov h4 { margin: 0 0 6px; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.fo-res { display: flex; flex-wrap: wrap; gap: 4px; }
.fo-chip { border-radius: 10px; padding: 1px 7px; background: #f1ece0; white-space: nowrap; }
.fo-chip i { display: inline-block; width: 9px; height: 9px; border-radius: 2px; margin-right: 3px; vertical-align: middle; }
.fo-badge { font-size: 11px; border-radius: 10px; padding: 1px 7px; background: #eee; }
.fo-badge.start { background: #8b5a2b; color: #fff; }
.fo-priv { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 6px; }
.fo-pcard { border-radius: 5px; padding: 2px 6px; border: 1px solid #b8a77f; background: #fffaf0; font-size: 12px; }
.fo-pcard.can { cursor: pointer; outline: 3px solid #2e7d4f; font: inherit; font-size: 12px; }
.fo-area { border-radius: 10px; padding: 8px; background: #fff; border: 2px solid #ddd; }
.fo-area.me { border-color: #2e7d4f; }
.fo-area.act { box-shadow: 0 0 0 3px #f1c40f; }
.fo-area h4 { margin: 0 0 6px; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; font-size: 14px; }
.fo-area-body { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); gap: 8px; }
.fo-shared { display: flex; flex-direction: column; gap: 8px; }
.fo-card .fo-text { display: block; }
.fo-score table { border-collapse: collapse; font-size: 13px; }
.fo-score td, .fo-score th { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
.fo-score th:first-child, .fo-score td:first-child { text-align: left; }
.fo-score .fo-nowin { font-weight: 600; margin: 4px 0; }
.fo-score tr.win { background: #fff3cf; }
@media (max-width: 480px) {
  .fo-road { grid-template-columns: repeat(8, 1fr); }
  .fo-favs { grid-template-columns: repeat(3, 1fr); }
  .fo-sides { grid-template-columns: 1fr; }
}
`;

const action = (cat, id) => (cat.actions && cat.actions[id]) || { name: id || "face-down card", text: "" };
const favour = (cat, k) => (cat.favours && cat.favours[k]) || { name: `Favour ${k}`, text: "" };
const privilege = (cat, id) => (cat.privileges && cat.privileges[id]) || { cls: "?", name: id };
const building = (cat, id) => (cat.buildings && cat.buildings[id]) || { name: id, cost: "?" };
const RES_WORD = { grain: "grain", wine: "wine", water: "water", centurions: "Centurion", vestals: "Vestal Virgin" };

function privWords(cat, id) {
  const p = privilege(cat, id);
  if (p.cls === "A") return `A: ${Object.entries(p.gain || {}).map(([r, n]) => `+${n} ${RES_WORD[r] || r}`).join(", ")}`;
  if (p.cls === "B") return "B: 1 step";
  if (p.cls === "C") return `C: ${p.name} (${p.vp ? `${p.vp.each} VP per ${p.vp.per === "money4" ? "4 money" : p.vp.per}` : ""})`;
  return id;
}

function argsWords(cat, card, args) {
  if (args === null || args === undefined) return "without executing it";
  if ("b" in args) return `build a ${building(cat, args.b).name} (${building(cat, args.b).cost})`;
  if ("water" in args) return `spend ${args.water} water`;
  if ("n" in args) {
    if (card === "centurions") return `recruit ${args.n} Centurion${args.n > 1 ? "s" : ""}`;
    if (card === "vestals") return `recruit ${args.n} Vestal${args.n > 1 ? "s" : ""}`;
    return `sell ${args.n}`;
  }
  if ("side" in args) return `bribe for card ${args.slot + 1} of side ${args.side + 1}: ${argsWords(cat, null, args.args)}`;
  return "execute it";
}

export function describe(move, cat = {}) {
  switch (move.type) {
    case "play": return `play action card ${move.slot + 1}, ${argsWords(cat, null, move.args)}`;
    case "exchange": return `exchange for card ${move.slot + 1} of side ${move.side + 1}`;
    case "military": return `give up a Centurion to play card ${move.slot + 1} (${argsWords(cat, null, move.args)})`;
    case "skip": return "no military power";
    case "favour": return `favour card ${move.card} (${favour(cat, move.card).name}) for ${move.n} step${move.n > 1 ? "s" : ""}`;
    case "pass": return `decline the favour with the ${move.die}`;
    case "flip": return `flip favour card ${move.card} (2-player rule)`;
    case "keep": return move.cards ? `keep ${move.cards.map((c) => privWords(cat, c)).join(" and ")}` : `keep ${move.count || ""} privilege card(s)`;
    case "palace": return move.card ? `take ${privWords(cat, move.card)} at the palace` : "take a privilege card at the palace";
    case "privilege": return `play privilege card ${privWords(cat, move.card)}`;
    case "end": return "end the turn";
    default: return JSON.stringify(move);
  }
}

function eventWords(ev, who) {
  switch (ev.k) {
    case "roll": return `${who(ev.seat)} rolled ${ev.dice.join(" and ")}`;
    case "step": return `${who(ev.seat)} moved to step ${ev.pos}`;
    case "tax": return ev.money ? `${who(ev.seat)} paid 1 money tax` : `${who(ev.seat)} stepped back to ${ev.pos} (tax)`;
    case "no_tax": return `${who(ev.seat)} paid no tax`;
    case "draw": return `${who(ev.seat)} drew ${ev.n} privilege card${ev.n === 1 ? "" : "s"}, keeps ${ev.keep}`;
    case "palace": return `${who(ev.seat)} reached Caesar's palace!`;
    case "aqueduct": return `${who(ev.seat)}'s Aqueduct filled`;
    case "reshuffle": return "privilege discards reshuffled";
    case "round": return `round ${ev.round} begins`;
    case "game_over": return "game over";
    case "flip_favour": return `${who(ev.seat)} flipped favour card ${ev.card}`;
    default: return null;
  }
}

export function render(root, ctx) {
  useStyle("fortuna-style", STYLE);
  const { doc, legalMoves = [], seat } = ctx;
  const cat = ctx.catalogue || {};
  const view = doc.view;
  const key = `${doc.version}:${view.step}:${legalMoves.length}`;
  if (ui.key !== key) Object.assign(ui, { key, slot: null, target: null });
  const names = ctx.names || {};
  const who = (s) => seatName(names, s);
  const redraw = () => render(root, ctx);
  const explain = ctx.explain || (() => {});
  const env = { view, cat, seat, legal: legalMoves, play: ctx.play, who, redraw, explain };
  const me = seat === null || seat === undefined ? null : seat;
  const others = view.order.filter((s) => s !== me);
  mount(root, h("div", { class: "fo", dataset: { version: String(doc.version) } },
    prompt(env),
    me !== null ? playerArea(env, me) : null,
    h("div", { class: "fo-panel fo-shared" }, shared(env), road(env), favourPanel(env), emptySides(env)),
    ...others.map((s) => playerArea(env, s))));
}

export function outcomeDetails(ctx) {
  const names = ctx.names || {};
  return ctx.doc.outcome ? scoreTable(ctx.doc.outcome, { cat: ctx.catalogue || {}, who: (s) => seatName(names, s) }) : null;
}

export function turnOrder(view) {
  return view.order;
}

export function publicScore(view, seat) {
  const p = view.p[seat];
  return p ? `step ${p.pos}${p.pos >= 10 ? " (in Rome)" : ""}` : null;
}

export function changed(entry) {
  const m = entry.move || {};
  const s = entry.seat;
  const mine = (slot) => `.fo-card[data-side="${s}"][data-slot="${slot}"]`;
  const pawn = `.fo-pawn[data-pawn="${s}"]`;
  switch (m.type) {
    case "play": case "military": return [mine(m.slot), `.fo-prov[data-province="${s}"]`, pawn];
    case "exchange": return [`.fo-card[data-side="${m.side}"][data-slot="${m.slot}"]`, `.fo-card[data-side="${s}"].down`];
    case "favour": return [`.fo-fav[data-favour="${m.card}"]`, pawn, `.fo-prov[data-province="${s}"]`];
    case "flip": return [`.fo-fav[data-favour="${m.card}"]`];
    case "pass": case "keep": case "palace": case "privilege": return [`.fo-prov[data-province="${s}"]`, pawn];
    default: return [];
  }
}

function shared({ view, who }) {
  const parts = [h("strong", {}, `Round ${view.round}`), h("span", {}, "Start-player track: ", view.order.map(who).join(" → "))];
  if (view.end) parts.push(h("span", { class: "fo-badge start" }, "Last round: a pawn reached the palace"));
  parts.push(h("span", {}, `Privilege deck ${view.deck_size} · discards ${view.discard.face_up.length + view.discard.face_down} · tokens in stock ${view.supply}`));
  if (view.last) {
    const evs = (view.last.events || []).map((e) => eventWords(e, who)).filter(Boolean);
    if (evs.length) parts.push(h("span", { class: "fo-last", dataset: { last: "1" } }, `Last: ${evs.join(" · ")}`));
  }
  return h("div", { class: "fo-bar" }, ...parts);
}

const STEP_TEXT = {
  play: "Choose one of your three action cards (then execute it or not).",
  exchange: "Exchange the card you played: click a face-up card on another side.",
  military: "Military power: give up your top Centurion to play another face-up card of yours, or skip.",
  favour: "The Emperor's favour: click a favour card up to your highest die, or decline.",
  flip: "2-player rule: flip one more favour card without tokens.",
  keep: "Choose the privilege cards to keep.",
  palace: "Caesar's palace: choose your privilege card.",
  wrap: "Use a privilege card or end your turn.",
};

function btn(label, move, play, attrs = {}) {
  return h("button", { type: "button", class: `fo-btn ${attrs.class || ""}`, dataset: attrs.dataset || {}, onclick: () => play(move) }, label);
}

function prompt(env) {
  const { view, legal, play, cat, redraw } = env;
  if (!legal.length) {
    return h("div", { class: "fo-prompt" }, view.step === "over" ? "The game is over." : `Waiting for ${env.who(view.active)}…`);
  }
  const box = h("div", { class: "fo-prompt" }, h("strong", {}, STEP_TEXT[view.step] || ""));
  if (view.dice) box.append(h("span", { class: "fo-dice" }, "Dice:", ...view.dice.map((d) => h("span", { class: "fo-die" }, d))));
  const mine = view.sides[env.seat];
  if ((view.step === "play" || view.step === "military") && ui.slot !== null) {
    const card = mine[ui.slot].card;
    const opts = legal.filter((m) => m.type === view.step && m.slot === ui.slot);
    box.append(h("span", {}, `${action(cat, card).name}:`));
    if (card === "bribe") {
      if (ui.target === null) box.append(h("span", {}, "click a glowing card on another player's side to bribe for"));
      else for (const m of opts.filter((o) => o.args && o.args.side === ui.target[0] && o.args.slot === ui.target[1])) {
        box.append(btn(argsWords(cat, view.sides[ui.target[0]][ui.target[1]].card, m.args.args), m, play, { dataset: { choice: JSON.stringify(m) } }));
      }
      const plain = opts.find((o) => o.args === null);
      if (plain) box.append(btn("play without executing", plain, play, { dataset: { choice: JSON.stringify(plain) } }));
    } else {
      for (const m of opts) box.append(btn(argsWords(cat, card, m.args), m, play, { class: m.args ? "main" : "", dataset: { choice: JSON.stringify(m) } }));
      if (!opts.some((m) => m.args)) box.append(h("span", { class: "fo-hint", dataset: { hint: "1" } }, cannotWhy(card, view.p[env.seat], view.order[0] === env.seat)));
    }
    box.append(h("button", { type: "button", class: "fo-btn", dataset: { action: "back" }, onclick: () => { ui.slot = null; ui.target = null; redraw(); } }, "back"));
  }
  if (view.step === "favour" && ui.slot !== null) {
    for (const m of legal.filter((o) => o.type === "favour" && o.card === ui.slot)) {
      box.append(btn(`${m.n} step${m.n > 1 ? "s" : ""}`, m, play, { class: "main", dataset: { choice: JSON.stringify(m) } }));
    }
  }
  for (const m of legal.filter((o) => o.type === "pass")) {
    const taxed = view.favours.some((f) => !f.used && f.card <= m.die);
    box.append(btn(`decline with the ${m.die}${taxed ? " (1 money tax)" : " (no tax)"}`, m, play, { dataset: { die: String(m.die) } }));
  }
  for (const m of legal.filter((o) => o.type === "skip")) box.append(btn("skip military power", m, play, { dataset: { action: "skip" } }));
  for (const m of legal.filter((o) => o.type === "keep")) box.append(btn(`keep ${m.cards.map((c) => privWords(cat, c)).join(" + ")}`, m, play, { class: "main", dataset: { keep: m.cards.join(",") } }));
  for (const m of legal.filter((o) => o.type === "palace")) box.append(btn(privWords(cat, m.card), m, play, { class: "main", dataset: { palace: m.card } }));
  for (const m of legal.filter((o) => o.type === "end")) box.append(btn("end turn", m, play, { class: "main", dataset: { action: "end" } }));
  return box;
}

function pawnLabel(s, who, n) {
  // The name's initial, or initial + last character when two players share an initial
  // ("Bot 2", "Bot 3" -> B2, B3): a letter beside each colour (docs/UX.md).
  const initial = (i) => who(i).trim().charAt(0).toUpperCase();
  const clash = Array.from({ length: n }, (_, i) => i).some((i) => i !== s && initial(i) === initial(s));
  const name = who(s).trim();
  return clash ? initial(s) + name.charAt(name.length - 1) : initial(s);
}

function pawnNode(s, who, moved, n) {
  return h("span", { class: `fo-pawn${moved ? " moved" : ""}`, title: who(s), style: `background:${SEAT_COLOURS[s]};color:${SEAT_INK[s]}`, dataset: { pawn: String(s) } }, pawnLabel(s, who, n));
}

function cannotWhy(card, p, start) {
  // Why an action card cannot be executed now, in words (the legal moves offer no execution).
  const whys = {
    harvest_grain: "", harvest_wine: "", water: "",
    grain_trade: "you have no grain to sell", wine_trade: "you have no wine to sell",
    centurions: p.centurions >= 3 ? "you already have 3 Centurions" : "not enough money for the next slot",
    vestals: p.vestals >= 3 ? "you already have 3 Vestal Virgins" : "not enough money for the next slot",
    clerus: p.dice >= 3 ? "you already have 3 dice" : "you need a Vestal Virgin to give up",
    building: p.buildings.length >= 3 ? "you already have 3 buildings" : `not enough money (you have ${p.money}) or no pile left`,
    marriage: p.married ? "you are already married" : `needs 4 money (you have ${p.money})`,
    bribe: p.money < 2 ? `needs 2 money (you have ${p.money})` : "no card in front of another player can be executed",
    fortuna: start ? "the start player keeps it to stay start player; it moves only the others" : "your pawn is already at the palace",
  };
  return `Cannot be executed: ${whys[card] || "nothing to do"}.`;
}

function road({ view, who }) {
  const moved = new Set(((view.last && view.last.events) || []).filter((e) => e.k === "step").map((e) => e.seat));
  const steps = [];
  for (let i = 0; i <= 15; i++) {
    const cls = ["fo-step", i >= 10 ? "rome" : "", i === 10 ? "gate" : "", i === 15 ? "palace" : ""].join(" ");
    const pawns = view.p.map((p, s) => (p.pos === i ? pawnNode(s, who, moved.has(s), view.players) : null));
    steps.push(h("div", { class: cls, title: i === 0 ? "villages" : i === 15 ? "Caesar's palace" : i === 10 ? "gate of Rome" : `step ${i}` },
      i === 0 ? "start" : i === 15 ? "♛" : String(i), h("div", { class: "fo-pawns" }, ...pawns)));
  }
  return h("div", { class: "fo-panel" }, h("h3", {}, "The road to Rome (inside Rome from 10; the palace at 15)"), h("div", { class: "fo-road" }, ...steps));
}

function sideCards(env, side) {
  const { view, cat, seat, legal, play, redraw, explain } = env;
  const row = view.sides[side];
  return h("div", { class: "fo-cards" }, ...row.map((slot, j) => {
    const id = slot.card;
    let can = null;
    if (view.step === "exchange") {
      const m = legal.find((o) => o.type === "exchange" && o.side === side && o.slot === j);
      if (m) can = () => play(m);
    } else if ((view.step === "play" || view.step === "military") && side === seat) {
      if (legal.some((o) => o.type === view.step && o.slot === j)) can = () => { ui.slot = j; ui.target = null; redraw(); };
    } else if (view.step === "play" && ui.slot !== null && side !== seat && view.sides[seat][ui.slot].card === "bribe") {
      if (legal.some((o) => o.type === "play" && o.slot === ui.slot && o.args && o.args.side === side && o.args.slot === j)) can = () => { ui.target = [side, j]; redraw(); };
    }
    const why = can ? null : cardWhy(env, side, j);
    const sel = (side === seat && ui.slot === j && (view.step === "play" || view.step === "military")) || (ui.target && ui.target[0] === side && ui.target[1] === j);
    const chosen = side === view.active && view.chosen === j && view.step !== "play";
    const cls = ["fo-card", slot.up ? "" : "down", !slot.up && id ? "known" : "", can ? "can" : "", sel ? "sel" : "", chosen ? "chosen" : ""].join(" ");
    const a = action(cat, id);
    // An action card as a kit cell: named with its side and place for screen readers; a click
    // plays it (or picks it, or its target) when legal, else says why not.
    const onclick = can || (why ? () => explain(why) : undefined);
    const label = `${id ? `${a.name}${slot.up ? "" : " (face down, protected)"}` : "Face down card"}, ${side === seat ? "your side" : `${env.who(side)}'s side`}, card ${j + 1}`;
    const node = cell("div", { class: cls, dataset: { side: String(side), slot: String(j), card: id || "" }, label, state: can ? "legal" : null, onpick: onclick },
      h("b", {}, id ? a.name : "Face down"), id ? h("span", { class: "fo-text" }, slot.up ? a.text : "face down, protected") : "");
    node.title = id ? `${a.name}: ${a.text}` : "face down";
    return node;
  }));
}

function cardWhy(env, side, j) {
  // Why a card cannot be clicked now, when the legal moves already say so.
  const { view, seat, legal } = env;
  if (!legal.length) return null;
  const slot = view.sides[side][j];
  if (view.step === "exchange") {
    if (side === seat) return "Exchange with a card on one of the other three sides.";
    if (!slot.up) return "That card lies face down: it is protected this round.";
  }
  if (view.step === "play" && side !== seat && !(ui.slot !== null && view.sides[seat][ui.slot].card === "bribe")) return "Choose one of your own three action cards.";
  if (view.step === "favour") return "Now the Emperor's favour: click a highlighted favour card, or decline with a die.";
  if (view.step === "flip") return "2-player rule: flip one more favour card (one without tokens).";
  if (view.step === "military" && side === seat && !slot.up) return "The card you just took lies face down; military power plays a face-up card.";
  if (view.step === "military" && side === seat) return "That card cannot be executed now (you lack what it needs).";
  return null;
}

function playerArea(env, s) {
  const { view, who, seat } = env;
  const label = `${who(s)}${s === seat ? " (you)" : ""}`;
  return h("section", { class: `fo-area${s === seat ? " me" : ""}${s === view.active ? " act" : ""}`, dataset: { seat: String(s) } },
    h("h4", {}, pawnNode(s, who, false, view.players), label, s === view.active ? h("span", { class: "fo-badge start" }, "to play") : null),
    h("div", { class: "fo-area-body" }, sideCards(env, s), province(env, s)));
}

function emptySides(env) {
  const { view } = env;
  const out = [];
  for (let side = view.players; side < 4; side++) {
    out.push(h("div", { class: "fo-side" }, h("h4", {}, `Unoccupied side ${side + 1} (anyone may exchange with it)`), sideCards(env, side)));
  }
  return out.length ? h("div", { class: "fo-sides" }, ...out) : null;
}

function favourWhy(env, f, fc) {
  // Why a favour card cannot be used now, in words (only when it is the seat's decision).
  const { view, legal } = env;
  if (!legal.length) return null;
  if (view.step === "flip") return f.used ? "That card is already flipped over." : "A favour card with tokens on it may not be flipped.";
  if (view.step !== "favour") return null;
  if (f.used) return "That favour card has been flipped over this round.";
  if (f.card > Math.max(...view.dice)) return `You need a die of ${f.card} or more for this card.`;
  return `${fc.name}: you lack what it takes (${fc.text})`;
}

function favourPanel(env) {
  const { view, cat, legal, play, redraw } = env;
  const cards = view.favours.map((f) => {
    const uses = legal.filter((o) => o.type === "favour" && o.card === f.card);
    const flip = legal.find((o) => o.type === "flip" && o.card === f.card);
    let onclick;
    if (flip) onclick = () => play(flip);
    else if (uses.length === 1) onclick = () => play(uses[0]);
    else if (uses.length > 1) onclick = () => { ui.slot = f.card; redraw(); };
    const fc = favour(cat, f.card);
    const cls = ["fo-fav", f.used ? "used" : "", onclick ? "can" : "", view.step === "favour" && ui.slot === f.card ? "sel" : ""].join(" ");
    const why = onclick ? null : favourWhy(env, f, fc);
    if (why) onclick = () => env.explain(why);
    // A favour card as a kit cell: its number, name and tokens for screen readers.
    const node = cell("div", { class: cls, dataset: { favour: String(f.card) }, state: why || !onclick ? null : "legal", onpick: onclick,
      label: `Favour card ${f.card}: ${fc.name}${f.used ? " (used)" : ""}${f.tokens ? `, ${f.tokens} privilege token${f.tokens > 1 ? "s" : ""}` : ""}` },
      h("div", { class: "num" }, f.card), h("div", {}, f.used ? `${fc.name} (used)` : fc.name),
      h("div", {}, ...Array.from({ length: f.tokens }, () => h("span", { class: "fo-token", title: "privilege token" }))));
    node.title = `${fc.name}: ${fc.text}`;
    return node;
  });
  const palace = h("div", { class: "fo-fav" }, h("div", { class: "num" }, "♛"), h("div", {}, "Palace"),
    h("div", {}, ...Array.from({ length: view.palace_tokens }, () => h("span", { class: "fo-token" }))),
    view.palace.count ? h("div", {}, `${view.palace.count} card(s) left`) : null);
  const dice = view.dice ? h("span", { class: "fo-dice" }, ` · ${env.who(view.active)} rolled`, ...view.dice.map((d) => h("span", { class: "fo-die" }, d))) : null;
  return h("div", { class: "fo-panel" }, h("h3", {}, "The Emperor's favour", dice),
    h("div", { class: "fo-favs" }, ...cards), h("div", { style: "margin-top:6px;max-width:110px" }, palace));
}

function province(env, s) {
  const { view, cat, seat, legal, play } = env;
  const p = view.p[s];
  const chips = RES.map(([k, label, colour]) => h("span", { class: "fo-chip", dataset: { res: k } }, h("i", { style: `background:${colour}` }), `${label} ${p[k]}`));
  if (p.aqueduct !== null) chips.push(h("span", { class: "fo-chip" }, `Aqueduct water ${p.aqueduct}`));
  const bld = p.buildings.map((b) => h("span", { class: "fo-badge" }, building(cat, b).name));
  const hand = p.hand ? p.hand.map((c) => {
    const m = legal.find((o) => o.type === "privilege" && o.card === c);
    return m ? h("button", { type: "button", class: "fo-pcard can", dataset: { privilege: c }, onclick: () => play(m), title: "play it now" }, privWords(cat, c))
      : h("span", { class: "fo-pcard", dataset: { privilege: c } }, privWords(cat, c));
  }) : [h("span", { class: "fo-pcard" }, `${p.hand_size} secret privilege card${p.hand_size === 1 ? "" : "s"}`)];
  const pos = view.order.indexOf(s);
  return h("div", { class: "fo-prov", dataset: { province: String(s) } },
    h("div", { class: "fo-res" }, h("span", { class: "fo-badge" }, `Step ${p.pos}${p.pos >= 10 ? " · in Rome" : ""}`),
      pos === 0 ? h("span", { class: "fo-badge start" }, "Start player") : h("span", { class: "fo-badge" }, `#${pos + 1} on the track`),
      p.married ? h("span", { class: "fo-badge" }, "Married") : null),
    h("div", { class: "fo-res" }, ...chips, ...bld),
    h("div", { class: "fo-priv" }, ...hand),
    s === seat && view.discard.mine.length ? h("div", { class: "fo-priv" }, "Discarded by you: ", ...view.discard.mine.map((c) => h("span", { class: "fo-pcard" }, privWords(cat, c)))) : null,
    // what this seat saw go into the deck at the last reshuffle (another player may have drawn some since)
    s === seat && (view.shuffled_in || []).length ? h("div", { class: "fo-priv", dataset: { shuffled: "1" } }, "Shuffled into the deck (you saw them; others may have drawn some): ",
      ...view.shuffled_in.map((c) => h("span", { class: "fo-pcard" }, privWords(cat, c)))) : null);
}

function scoreTable(outcome, env) {
  const { cat, who } = env;
  const order = outcome.scores.map((_, s) => s).sort((a, b) => outcome.ranks[a] - outcome.ranks[b]);
  // Nobody inside Rome: the outcome names no winner (`winners` empty) and the table ranks nobody.
  const nobody = Array.isArray(outcome.winners) && !outcome.winners.length;
  const rows = order.map((s) => {
    const b = outcome.breakdown[s];
    const cards = b.privileges.map((c) => `${privilege(cat, c.card).name} ${c.points}`).join(", ") || "—";
    return h("tr", { class: !nobody && outcome.ranks[s] === 1 ? "win" : "" }, h("td", {}, nobody ? who(s) : `${outcome.ranks[s]}. ${who(s)}`),
      h("td", {}, b.steps), h("td", {}, b.inside_rome ? "yes" : "no (cannot win)"), h("td", { style: "text-align:left" }, cards),
      h("td", {}, b.privilege_points), h("td", {}, h("strong", {}, b.total)), h("td", {}, b.money), h("td", {}, b.centurions), h("td", {}, b.vestals));
  });
  return h("div", { class: "fo-panel fo-score", dataset: { outcome: "1" } }, h("h3", {}, "Final scores"),
    nobody ? h("p", { class: "fo-nowin", dataset: { nowinner: "1" } }, outcome.result || "No one wins: nobody reached Rome.") : null,
    h("div", { style: "overflow-x:auto" }, h("table", {},
      h("thead", {}, h("tr", {}, ...["Player", "Steps", "Inside Rome", "Privilege cards C", "Points", "Total", "Money", "Centurions", "Vestals"].map((t) => h("th", {}, t)))),
      h("tbody", {}, ...rows))),
    h("p", { class: "fo-last" }, "Ties: most steps, then money, Centurions, Vestals."));
}
