// Suburbia renderer: the market, supply, goals and every borough (SVG hexes), with clicks turned
// into legal moves. Built with the client kit (static/js/kit.js); render(root, ctx) redraws everything each call.

import { cell, h, mount, Picker, same, seatName, svg as s, useStyle } from "../js/kit.js";

const HEX = 30; // hex radius in px (flat-top)
const SQ3 = Math.sqrt(3);
// Fills dark enough for white text (or light ones with dark text), plus a letter per kind so the
// colour is never the only clue (docs/UX.md).
const COLOURS = { residential: "#3d7a37", commercial: "#2f62a6", industrial: "#e0b432", civic: "#6b6b6b", lake: "#6cc3e8" };
const INK = { residential: "#fff", commercial: "#fff", industrial: "#2b2100", civic: "#fff", lake: "#06354a" };
const LETTER = { residential: "R", commercial: "C", industrial: "I", civic: "Ci", lake: "L" };
const STAT_LABEL = { money: "$", income: "Income", rep: "Reputation", pop: "Population" };

// What the seat has picked and not yet placed: {type: "buy"|"lake", slot} | {type: "basic", tile} | {type: "invest"}.
// Placements are picked in two steps with the kit's staged picker: the tile (a market space to
// buy or take as a lake, a basic tile, or the Investment Marker), then the space in the borough.
const placing = new Picker([{ name: "tile", of: (m) => ({ type: m.type, slot: m.slot, tile: m.tile }) }, { name: "space", of: (m) => m.at }]);
const PLACED = new Set(["buy", "lake", "basic", "invest"]);
let selection = null; // the tile picked (the picker's first step), or null

const STYLE = `
  .sb { font-family: system-ui, sans-serif; color: #222; display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; }
  .sb-bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; background: #f3f1ea; border-radius: 8px; padding: 8px 12px; }
  .sb-bar .sb-prompt { font-weight: 600; }
  .sb-panel { background: #fbfaf6; border: 1px solid #ddd8c8; border-radius: 8px; padding: 8px 10px; }
  .sb-panel h3 { margin: 0 0 6px; font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: #6b6453; }
  .sb-market { display: flex; gap: 6px; flex-wrap: wrap; align-items: stretch; }
  .sb-slot { width: 118px; max-width: calc(33.3% - 4px); border: 2px solid transparent; border-radius: 8px; padding: 4px; background: #fff; display: flex; flex-direction: column; gap: 3px; }
  .sb-slot .sb-surcharge { font-size: 12px; color: #6b6453; text-align: center; }
  .sb-card { border-radius: 6px; padding: 5px 5px; color: #fff; font-size: 12px; min-height: 74px; }
  .sb-kind { display: inline-block; min-width: 16px; text-align: center; border-radius: 4px; background: #fff; color: #222; font-size: 10px; font-weight: 700; padding: 0 2px; margin-right: 3px; }
  .sb-short { font-size: 11px; color: #8a2417; font-weight: 600; text-align: center; }
  .sb-card .sb-name { font-weight: 700; font-size: 13px; }
  @media (max-width: 600px) { .sb-card { font-size: 11px; } .sb-card .sb-name { font-size: 12px; } .sb-card .sb-name.sb-long { font-size: 10px; letter-spacing: -0.3px; } }
  .sb-card .sb-text { opacity: .95; margin-top: 2px; line-height: 1.2; }
  .sb-card.sb-empty { background: #eee; color: #999; text-align: center; }
  .sb-slot.sb-can { cursor: pointer; border-color: #b08f1e; border-width: 3px; }
  .sb-slot.sb-selected { border-color: #d2691e; box-shadow: 0 0 0 2px #f4c48f; }
  .sb-slot button { font-size: 11px; padding: 2px 4px; }
  .sb-stacks { display: flex; gap: 10px; font-size: 13px; margin-top: 6px; flex-wrap: wrap; }
  .sb-stack { background: #5b4e3a; color: #fff; border-radius: 5px; padding: 2px 8px; }
  .sb-row { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-start; }
  .sb-basic, .sb-action { border: 1px solid #bbb; border-radius: 6px; padding: 4px 8px; background: #fff; cursor: pointer; font-size: 13px; }
  .sb-basic[disabled], .sb-action[disabled] { opacity: .45; cursor: default; }
  .sb-basic.sb-selected, .sb-action.sb-selected { outline: 3px solid #f4c48f; }
  .sb-goal { display: inline-block; border: 1px solid #c8bfa5; border-radius: 6px; padding: 3px 8px; margin: 2px; background: #fff; font-size: 13px; }
  .sb-goal.sb-secret { border-style: dashed; }
  .sb-goal button { margin-left: 6px; }
  .sb-boroughs { display: flex; flex-wrap: wrap; gap: 12px; }
  .sb-player { border: 2px solid #ddd8c8; border-radius: 10px; padding: 8px; background: #fff; max-width: 100%; min-width: 0; flex: 1 1 300px; }
  .sb-scroll { overflow-x: auto; max-width: 100%; }
  /* A fixed scale (1.3 px a unit; 1.2 on a phone) keeps hex labels at 11 px (10 px): a borough
     never shrinks its text to fit, it scrolls sideways inside its own box instead (docs/UX.md). */
  .sb-player .sb-svg { width: calc(var(--vbw) * 1.3px); max-width: none; height: auto; display: block; }
  @media (max-width: 600px) { .sb-player .sb-svg { width: calc(var(--vbw) * 1.2px); } }
  .sb-player.sb-active { border-color: #d2691e; }
  .sb-player.sb-me h4::after { content: " (you)"; color: #a4501a; font-weight: 400; }
  .sb-redline { color: #a11d1d; font-weight: 600; }
  .sb-player h4 { margin: 0 0 4px; }
  .sb-tracks { display: flex; gap: 8px; flex-wrap: wrap; font-size: 13px; }
  .sb-track { background: #f3f1ea; border-radius: 5px; padding: 1px 6px; }
  .sb-delta-up { color: #2e7d32; font-weight: 600; } .sb-delta-down { color: #c62828; font-weight: 600; }
  .sb-svg .sb-hex-text { font-size: 8.5px; pointer-events: none; font-weight: 600; }
  .sb-svg .sb-hex-kind { font-size: 8.5px; pointer-events: none; font-weight: 700; }
  .sb-svg .sb-board { fill: #4b3f30; }
  .sb-svg .sb-board-text { font-size: 8.5px; fill: #f3e7cf; pointer-events: none; font-weight: 600; }
  .sb-svg .sb-board-num { font-size: 12px; fill: #fff; pointer-events: none; font-weight: 700; }
  .sb-svg .sb-cell { fill: #fff1c9; stroke: #b34f00; stroke-width: 3; stroke-dasharray: 5 3; cursor: pointer; }
  .sb-svg .sb-cell:hover { fill: #ffe2b8; }
  .sb-svg .sb-tile.sb-investable { cursor: pointer; stroke: #d2691e; stroke-width: 3; }
  .sb-svg .sb-new { stroke: #222; stroke-width: 3; }
  .sb-last { font-size: 13px; color: #4a4536; }
  .sb-outcome { overflow-x: auto; }
  .sb-outcome table { border-collapse: collapse; font-size: 13px; }
  .sb-outcome td, .sb-outcome th { border: 1px solid #ddd8c8; padding: 3px 8px; text-align: right; }
  .sb-outcome tr.sb-winner { background: #fff3cf; }
  `;

function tileInfo(catalogue, id) {
  return (catalogue.tiles || {})[id] || { name: id, category: "civic", cost: 0, text: "" };
}

function goalInfo(catalogue, id) {
  return (catalogue.goals || {})[id] || { name: id, text: "" };
}

function playerName(ctx, i) {
  const view = ctx.doc.view;
  if (view.dale !== null && i === view.dale) return "Dale the Bot";
  return seatName(ctx.names, i);
}

// Words are never cut ("Slaughterho|use"): a name with a long word is set a size smaller, and a
// line may break after a slash ("civic/ commercial") where the text has one.
const slashBreaks = (text) => String(text).replace(/\//g, "/\u200b");
const longWord = (text, most) => String(text).split(/[\s/]+/).some((w) => w.length > most);

function card(catalogue, id, extra = "") {
  if (!id) return h("div", { class: "sb-card sb-empty" }, "empty");
  const t = tileInfo(catalogue, id);
  return h("div", { class: `sb-card ${extra}`, style: `background:${COLOURS[t.category] || "#888"};color:${INK[t.category] || "#fff"}`, title: t.text },
    h("div", { class: `sb-name${longWord(t.name, 11) ? " sb-long" : ""}` }, h("span", { class: "sb-kind" }, LETTER[t.category] || "?"), t.name), h("div", {}, `$${t.cost} · ${t.category}${t.icon ? " · " + t.icon : ""}`),
    h("div", { class: "sb-text" }, slashBreaks(t.text)));
}

function prompt(ctx) {
  const { view } = ctx.doc;
  const mine = ctx.legalMoves.length > 0;
  if (view.phase === "over") return "Game over.";
  if (!mine) {
    const who = (view.to_act || []).map((i) => playerName(ctx, i)).join(", ");
    return view.phase === "choose_goal" ? `Waiting for secret goal choices (${who})` : `Waiting for ${who}`;
  }
  if (view.phase === "choose_goal") return "Keep one of your two secret goals.";
  if (view.phase === "discard") return "Discard a tile from the market (pay the cost above it).";
  if (view.phase === "extra_discard") return "Lone Architect: remove one more market tile.";
  if (selection && selection.type === "invest") return "Click one of your highlighted tiles to invest in it.";
  if (selection) return "Click a highlighted space in your borough to place the tile.";
  return "Your turn: pick a market tile (buy or lake), a basic tile, or invest.";
}

function validateSelection(ctx) {
  // A new version starts the picking again; a pick no legal move keeps is dropped.
  placing.sync(`${ctx.doc.id}:${ctx.doc.version}`, ctx.legalMoves.filter((m) => PLACED.has(m.type) && m.at !== undefined));
  const first = placing.picks.find((p) => p.step === 0);
  selection = first ? first.value : null;
}

function select(ctx, next) {
  const again = selection && same(selection, next);
  placing.clear();
  if (!again) placing.pick(0, next); // the space is always the player's click, even when only one is open
  render(ctx.root, ctx);
}

function marketPanel(ctx) {
  const { view } = ctx.doc;
  const moves = ctx.legalMoves;
  const slots = view.market.map((id, slot) => {
    const canBuy = moves.some((m) => m.type === "buy" && m.slot === slot);
    const canLake = moves.some((m) => m.type === "lake" && m.slot === slot);
    const discard = moves.find((m) => m.type === "discard" && m.slot === slot);
    const selected = selection && selection.slot === slot;
    const cls = `sb-slot sb-market-slot${canBuy || canLake || discard ? " sb-can" : ""}${selected ? " sb-selected" : ""}`;
    const attrs = { class: cls, dataset: { slot: String(slot) } };
    if (discard) { attrs.dataset.move = JSON.stringify(discard); attrs.onclick = () => ctx.play(discard); }
    else if (canBuy) attrs.onclick = () => select(ctx, { type: "buy", slot });
    const price = id ? tileInfo(ctx.catalogue, id).cost + view.surcharges[slot] : null;
    const money = ctx.seat !== null && view.players[ctx.seat] ? view.players[ctx.seat].money : null;
    const myTurn = moves.length > 0 && view.phase === "play";
    const short = myTurn && price !== null && money !== null && !canBuy && price > money ? price - money : 0;
    if (!discard && !canBuy) attrs.onclick = () => explainSlot(ctx, slot, short);
    return h("div", attrs,
      h("div", { class: "sb-surcharge" }, `Space ${slot + 1}: +$${view.surcharges[slot]}${price !== null ? ` → $${price}` : ""}`),
      card(ctx.catalogue, id),
      short ? h("div", { class: "sb-short" }, `needs $${short} more`) : null,
      canBuy ? h("button", { class: "sb-buy-btn", type: "button", onclick: (e) => { e.stopPropagation(); select(ctx, { type: "buy", slot }); } }, "Buy") : null,
      canLake ? h("button", { class: "sb-lake-btn", type: "button", onclick: (e) => { e.stopPropagation(); select(ctx, { type: "lake", slot }); } }, `Lake ($${view.surcharges[slot]})`) : null,
      discard ? h("button", { class: "sb-discard-btn", type: "button", dataset: { move: JSON.stringify(discard) }, onclick: (e) => { e.stopPropagation(); ctx.play(discard); } }, "Discard") : null);
  });
  const stacks = h("div", { class: "sb-stacks" },
    ...Object.entries(view.stacks).map(([k, n]) => h("span", { class: "sb-stack", title: `Stack ${k}` }, `${k}: ${n}`)),
    h("span", {}, `Discards: ${view.discards.length}`),
    view.one_more_round ? h("strong", {}, ` 1 More Round is out${view.final_turns !== null ? ` — ${view.final_turns} turn(s) left` : ""}`) : null);
  return h("section", { class: "sb-panel" }, h("h3", {}, "Real Estate Market"), h("div", { class: "sb-market" }, ...slots), stacks);
}

function explainSlot(ctx, slot, short) {
  const say = ctx.explain || (() => {});
  if (ctx.seat === null) say("You are watching; only the players can buy.");
  else if (!ctx.legalMoves.length) say("It is not your turn yet.");
  else if (short) say(`You cannot afford market space ${slot + 1}: it needs $${short} more.`);
  else say(`Market space ${slot + 1} cannot be taken in this step.`);
}

function supplyPanel(ctx) {
  const { view } = ctx.doc;
  const moves = ctx.legalMoves;
  const basics = Object.entries(view.basic).map(([id, left]) => {
    const can = moves.some((m) => m.type === "basic" && m.tile === id);
    const t = tileInfo(ctx.catalogue, id);
    const on = selection && selection.type === "basic" && selection.tile === id;
    const money = ctx.seat !== null && view.players[ctx.seat] ? view.players[ctx.seat].money : null;
    const short = !can && moves.length && view.phase === "play" && money !== null && t.cost > money ? t.cost - money : 0;
    return h("button", { type: "button", class: `sb-basic${on ? " sb-selected" : ""}`, disabled: !can, dataset: { tile: id },
      style: `border-left: 8px solid ${COLOURS[t.category]}`, title: t.text, onclick: () => select(ctx, { type: "basic", tile: id }) },
      `${LETTER[t.category] || ""} · ${t.name} $${t.cost} (${left} left)${short ? ` — needs $${short} more` : ""}`);
  });
  const canInvest = moves.some((m) => m.type === "invest");
  const invest = h("button", { type: "button", class: `sb-action sb-invest-btn${selection && selection.type === "invest" ? " sb-selected" : ""}`,
    disabled: !canInvest, onclick: () => select(ctx, { type: "invest" }) }, "Place Investment Marker");
  const pass = moves.find((m) => m.type === "pass");
  return h("section", { class: "sb-panel" }, h("h3", {}, "Supply & actions"),
    h("div", { class: "sb-row" }, ...basics, invest,
      pass ? h("button", { type: "button", class: "sb-action sb-pass", dataset: { move: JSON.stringify(pass) }, onclick: () => ctx.play(pass) }, "Pass") : null));
}

function goalsPanel(ctx) {
  const { view } = ctx.doc;
  const pub = view.goals.map((g) => h("span", { class: "sb-goal", title: goalInfo(ctx.catalogue, g).text },
    `${goalInfo(ctx.catalogue, g).name}: ${goalInfo(ctx.catalogue, g).text}`));
  const rows = [h("div", {}, h("strong", {}, "Public: "), ...(pub.length ? pub : ["none"]))];
  const mine = ctx.seat !== null && view.secret[ctx.seat];
  if (mine && mine.dealt) {
    const choices = mine.dealt.map((g) => {
      const move = ctx.legalMoves.find((m) => m.type === "keep_goal" && m.goal === g);
      const info = goalInfo(ctx.catalogue, g);
      const kept = mine.kept === g;
      return h("span", { class: `sb-goal sb-secret${kept ? " sb-kept" : ""}`, title: info.text },
        `${info.name}: ${info.text}${kept ? " ✔ kept" : ""}`,
        move ? h("button", { type: "button", class: "sb-keep-goal", dataset: { move: JSON.stringify(move) }, onclick: () => ctx.play(move) }, "Keep") : null);
    });
    rows.push(h("div", {}, h("strong", {}, "Your secret goal: "), ...choices));
  }
  if (view.phase === "over") {
    rows.push(h("div", {}, h("strong", {}, "Revealed: "), ...view.secret.map((x, i) =>
      x.kept ? h("span", { class: "sb-goal sb-secret" }, `${playerName(ctx, i)}: ${goalInfo(ctx.catalogue, x.kept).name}`) : null)));
  }
  return h("section", { class: "sb-panel" }, h("h3", {}, "Goals"), ...rows);
}

function center(q, r) { return [HEX * 1.5 * q, HEX * SQ3 * (r + q / 2)]; }

function hexPoints(x, y, r = HEX - 1) {
  const pts = [];
  for (let i = 0; i < 6; i += 1) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

// Hex labels: a tile's name on one to three lines, split where the least squeezing keeps every
// line inside the hexagon's slanted sides. Words are never cut; a line still too wide is squeezed
// (textLength) to the room it has at its height. Widths are measured in the label's own font.
const LABEL_FONT = "600 8.5px system-ui, sans-serif";
const LINE_GAP = 9.5;
const ASCENT = 8; // the font box above a baseline (units), and below it:
const DESCENT = 2.2;
let measurer = null;
function textWidth(text) {
  if (!measurer) { measurer = document.createElement("canvas").getContext("2d"); measurer.font = LABEL_FONT; }
  return measurer.measureText(text).width;
}

function splits(words, most) {
  // Every way to put the words, in order, on 1..most lines.
  if (words.length === 1) return [[words[0]]];
  const out = [];
  for (const rest of splits(words.slice(1), most)) {
    out.push([`${words[0]} ${rest[0]}`, ...rest.slice(1)]);
    if (rest.length < most) out.push([words[0], ...rest]);
  }
  return out;
}

function baselines(n) {
  // Offsets from the hex centre; the block sits a little low, under the kind letter.
  return Array.from({ length: n }, (_, k) => 4.9 + (k - (n - 1) / 2) * LINE_GAP);
}

function room(base) {
  // The width inside a flat-top hexagon at the line's farthest edge from the centre, less a margin.
  const dy = Math.max(Math.abs(base - ASCENT), Math.abs(base + DESCENT));
  return 2 * (HEX - 1 - dy / SQ3) - 2;
}

export function hexLabel(name) {
  // [{ text, dy, fit }]: fit is the width to squeeze the line to, or null when it fits as it is.
  let best = null;
  for (const lines of splits(name.split(" "), 3)) {
    const bases = baselines(lines.length);
    const fits = lines.map((line, k) => Math.min(1, room(bases[k]) / textWidth(line)));
    const score = Math.min(...fits);
    if (!best || score > best.score + 1e-9) best = { score, lines, bases };
  }
  return best.lines.map((text, k) => {
    const width = room(best.bases[k]);
    return { text, dy: best.bases[k], fit: textWidth(text) > width ? width : null };
  });
}

function boroughSvg(ctx, i) {
  const { view } = ctx.doc;
  const p = view.players[i];
  const mine = ctx.seat === i;
  const cells = mine && selection && selection.type !== "invest" ? placing.remaining() : [];
  const investMoves = mine && selection && selection.type === "invest" ? placing.remaining() : [];
  const board = ctx.catalogue.board_cells || [];
  const all = [...p.tiles.map((t) => t.at), ...board, ...cells.map((m) => m.at)];
  const xs = all.map(([q, r]) => center(q, r)[0]);
  const ys = all.map(([q, r]) => center(q, r)[1]);
  const pad = HEX + 4;
  const minX = Math.min(...xs) - pad; const minY = Math.min(...ys) - pad;
  const w = Math.max(...xs) - minX + pad; const hgt = Math.max(...ys) - minY + pad;
  // Where the borough's own tiles are, across the drawing (0-1): a box that scrolls starts there.
  const tileXs = p.tiles.map((t) => center(t.at[0], t.at[1])[0]);
  const focus = tileXs.length ? ((Math.min(...tileXs) + Math.max(...tileXs)) / 2 - minX) / w : 0.5;
  const svg = s("svg", { class: "sb-svg", viewBox: `${minX} ${minY} ${w} ${hgt}`, style: `--vbw: ${w.toFixed(1)}`, "data-focus": focus.toFixed(3), role: "group", "aria-label": `${playerName(ctx, i)}'s borough` });
  // The player board under the borough: not building space, so it carries the tracks instead.
  const next = nextRedLine(ctx, p.pop);
  const boardText = [["Income", `${p.income >= 0 ? "+" : ""}${p.income}`], ["Rep.", `${p.rep >= 0 ? "+" : ""}${p.rep}`],
    ["Pop.", String(p.pop)], ["Red line", next === null ? "–" : String(next)], ["Money", `$${p.money}`]];
  [...board].sort((a, b) => a[0] - b[0]).forEach(([q, r], k) => {
    const [x, y] = center(q, r);
    const g = s("g", { class: "sb-board-cell" }, s("title", {}, "Player board (no building here)"), s("polygon", { class: "sb-board", points: hexPoints(x, y) }));
    const item = k % 2 === 0 ? boardText[k / 2] : null;
    if (item) {
      g.append(s("text", { class: "sb-board-text", x, y: y - 4, "text-anchor": "middle" }, item[0]));
      g.append(s("text", { class: "sb-board-num", x, y: y + 10, "text-anchor": "middle" }, item[1]));
    }
    svg.append(g);
  });
  const last = view.last;
  const lastAt = last && last.move && last.seat === i && last.move.at ? last.move.at : (last && last.dale && view.dale === i ? last.dale.at : null);
  for (const t of p.tiles) {
    const [x, y] = center(t.at[0], t.at[1]);
    const info = tileInfo(ctx.catalogue, t.t);
    const invest = investMoves.find((m) => same(m.at, t.at));
    const cls = `sb-tile${invest ? " sb-investable" : ""}${lastAt && same(lastAt, t.at) ? " sb-new" : ""}`;
    // Each tile is a named cell for screen readers; where an investment is legal its hexagon is
    // a clickable kit cell that says so (and the group around it lets it speak for itself).
    const hex = cell("polygon", { svg: true, class: cls, points: hexPoints(x, y), fill: t.lake ? COLOURS.lake : COLOURS[info.category] || "#888",
      "data-at": JSON.stringify(t.at), move: invest, state: invest ? "legal" : null, label: invest ? `Invest in the ${info.name}` : null,
      onpick: invest ? () => { placing.clear(); ctx.play(invest); } : null });
    const named = t.lake ? `Lake (was ${info.name})` : `${info.name}: ${info.text}`;
    const g = s("g", { "data-at": JSON.stringify(t.at), role: invest ? null : "img", "aria-label": invest ? null : named }, s("title", {}, named), hex);
    const kind = t.lake ? "lake" : info.category;
    const ink = INK[kind] || "#fff";
    g.append(s("text", { class: "sb-hex-kind", x, y: y - HEX * 0.55, "text-anchor": "middle", fill: ink }, LETTER[kind] || ""));
    for (const line of hexLabel(t.lake ? "Lake" : info.name)) {
      const attrsText = { class: "sb-hex-text", x, y: y + line.dy, "text-anchor": "middle", fill: ink };
      if (line.fit) { attrsText.textLength = line.fit.toFixed(1); attrsText.lengthAdjust = "spacingAndGlyphs"; }
      g.append(s("text", attrsText, line.text));
    }
    if (t.inv) g.append(s("circle", { class: "sb-marker", cx: x, cy: y - HEX * 0.62, r: 5, fill: "#ffd54a", stroke: "#6b4e00" }));
    svg.append(g);
  }
  svg.addEventListener("click", (e) => { if (!e.target.closest("[data-click]")) explainBorough(ctx, i); });
  for (const m of cells) {
    const [x, y] = center(m.at[0], m.at[1]);
    svg.append(cell("polygon", { svg: true, class: "sb-cell legal", points: hexPoints(x, y), "data-at": JSON.stringify(m.at), move: m,
      state: "legal", label: `Build here, ${placeWords(ctx, p, m.at)}`, onpick: () => { placing.clear(); ctx.play(m); } }));
  }
  return svg;
}

// A space in words, never as coordinates: the tiles (or the player board) it touches.
const NEIGHBOURS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
function placeWords(ctx, p, [q, r]) {
  const near = NEIGHBOURS.map(([dq, dr]) => p.tiles.find((t) => t.at[0] === q + dq && t.at[1] === r + dr)).filter(Boolean)
    .map((t) => (t.lake ? "a Lake" : `the ${tileInfo(ctx.catalogue, t.t).name}`));
  const board = NEIGHBOURS.some(([dq, dr]) => (ctx.catalogue.board_cells || []).some(([a, b]) => a === q + dq && b === r + dr));
  if (near.length) return `next to ${[...new Set(near)].join(", ")}`;
  return board ? "beside your player board" : "an open space";
}

function nextRedLine(ctx, pop) {
  const lines = (ctx.catalogue.red_lines || {})[ctx.doc.view.red_lines || "nemikolh"] || (ctx.catalogue.red_lines || {}).nemikolh || [];
  const next = lines.find((n) => n > pop);
  return next === undefined ? null : next;
}

function explainBorough(ctx, i) {
  const say = ctx.explain || (() => {});
  if (ctx.seat === null) return say("You are watching; only the players can build.");
  if (i !== ctx.seat) return say(`That is ${playerName(ctx, i)}'s borough: you can only build in your own.`);
  if (!ctx.legalMoves.length) return say("It is not your turn yet.");
  if (!selection) return say("First pick a market tile, a basic tile or the Investment Marker; then the spaces to build on light up.");
  return say("That space is not open for this tile: build on a highlighted (dashed) space.");
}

function tracks(ctx, i) {
  const { view } = ctx.doc;
  const p = view.players[i];
  const change = view.last && view.last.changes ? view.last.changes[i] : null;
  const badge = (k) => {
    const d = change ? change[k] : 0;
    return d ? h("span", { class: d > 0 ? "sb-delta-up" : "sb-delta-down" }, ` ${d > 0 ? "+" : ""}${d}`) : null;
  };
  return h("div", { class: "sb-tracks" },
    ...["pop", "rep", "income", "money"].map((k) => h("span", { class: `sb-track sb-${k}` }, `${STAT_LABEL[k]} ${k === "money" ? "$" : ""}${p[k]}`, badge(k))),
    h("span", { class: "sb-track" }, `Markers ${p.markers}`),
    nextRedLine(ctx, p.pop) !== null ? h("span", { class: "sb-track sb-redline", title: "Passing a red line costs 1 Income and 1 Reputation" }, `Next red line at ${nextRedLine(ctx, p.pop)}`) : null);
}

function boroughsPanel(ctx, mine) {
  const { view } = ctx.doc;
  const order = view.players.map((_, i) => i).filter((i) => (i === ctx.seat) === mine);
  if (!order.length) return null;
  return h("section", { class: "sb-boroughs" }, ...order.map((i) => {
    const active = view.phase !== "over" && (view.to_act || []).includes(i) && view.phase !== "choose_goal";
    const start = i === view.start && view.dale !== i ? " ★ start player" : "";
    return h("div", { class: `sb-player${active ? " sb-active" : ""}${ctx.seat === i ? " sb-me" : ""}`, dataset: { seat: String(i) } },
      h("h4", {}, playerName(ctx, i), h("small", {}, start)), tracks(ctx, i),
      h("div", { class: "sb-scroll", dataset: { seat: String(i) } }, boroughSvg(ctx, i)));
  }));
}

export function describe(move, catalogue = {}) {
  const name = (id) => tileInfo(catalogue, id).name;
  switch (move.type) {
    case "keep_goal": return move.goal ? `keep goal ${goalInfo(catalogue, move.goal).name}` : "keep a secret goal";
    case "buy": return `buy the tile on market space ${move.slot + 1}`;
    case "lake": return `take market space ${move.slot + 1} as a lake`;
    case "basic": return `build a ${name(move.tile)}`;
    case "invest": return "place an Investment Marker";
    case "discard": return `discard market space ${move.slot + 1}`;
    case "pass": return "pass";
    default: return JSON.stringify(move);
  }
}

function lastLine(ctx) {
  const { view } = ctx.doc;
  const last = view.last;
  if (!last) return null;
  const parts = [`${playerName(ctx, last.seat)}: ${describe(last.move, ctx.catalogue)}`];
  if (last.tile && last.move.type !== "basic") parts.push(`(${tileInfo(ctx.catalogue, last.tile).name})`);
  if (last.dale && last.dale.tile) parts.push(`· Dale built ${tileInfo(ctx.catalogue, last.dale.tile).name} for $${last.dale.paid}`);
  return h("div", { class: "sb-last" }, "Last: ", parts.join(" "));
}

export function outcomeDetails(ctx) {
  return outcomePanel(ctx);
}

export function turnOrder(view) {
  // The start player, then clockwise; Dale (solo) is not a seat.
  const n = view.seats;
  return Array.from({ length: n }, (_, k) => (view.start + k) % n);
}

export function publicScore(view, seat) {
  const p = view.players[seat];
  return p ? `pop. ${p.pop}` : null;
}

export function changed(entry) {
  const m = entry.move || {};
  const at = (seat, cell) => `.sb-player[data-seat="${seat}"] g[data-at='${JSON.stringify(cell)}']`;
  if (["buy", "lake", "basic", "invest"].includes(m.type) && m.at) return [at(entry.seat, m.at)];
  if (m.type === "discard") return [`.sb-market-slot[data-slot="${m.slot}"]`];
  return [];
}

function outcomePanel(ctx) {
  const out = ctx.doc.outcome;
  if (!out) return null;
  const { view } = ctx.doc;
  const rows = view.final ? view.final.boroughs : out.breakdown;
  const goalText = (obj) => Object.entries(obj || {}).map(([g, v]) => `${goalInfo(ctx.catalogue, g).name} +${v}`).join(", ") || "–";
  // Dale's row (after the seats) takes its rank from `others` (he is ranked, not a seat).
  const rankOf = (i) => out.ranks[i] ?? (view.dale === i && out.others ? out.others[0].rank : undefined);
  const winners = rows.map((_, i) => i).filter((i) => rankOf(i) === 1).map((i) => playerName(ctx, i));
  // Best first (rank, then seat order within a tie); a row without a rank goes last.
  const order = rows.map((_, i) => i).sort((a, b) => (rankOf(a) ?? Infinity) - (rankOf(b) ?? Infinity) || a - b);
  const body = order.map((i) => [rows[i], i]).map(([b, i]) => h("tr", { class: rankOf(i) === 1 ? "sb-winner" : "", dataset: { seat: String(i) } },
    h("td", {}, rankOf(i) ?? "–"), h("td", { style: "text-align:left" }, playerName(ctx, i)), h("td", {}, b.population),
    h("td", {}, goalText(b.public_goals)), h("td", {}, goalText(b.secret_goal)), h("td", {}, b.money_converted),
    h("td", {}, h("strong", {}, b.total)), h("td", {}, b.reputation), h("td", {}, b.income), h("td", {}, b.money_left)));
  return h("section", { class: "sb-panel sb-outcome" }, h("h3", {}, "Final scoring"),
    winners.length ? h("p", { class: "sb-winners" }, h("strong", {}, winners.join(" and ")),
      winners.length > 1 ? " share the win" : " wins") : null,
    h("table", {}, h("thead", {}, h("tr", {}, ...["Rank", "Player", "Population", "Public goals", "Secret goal", "$→Pop", "Total", "Rep", "Income", "$ left"].map((t) => h("th", {}, t)))),
      h("tbody", {}, ...body)),
    out.rank_name ? h("p", {}, `Solo title: `, h("strong", {}, out.rank_name), out.beat_dale !== undefined ? ` — you ${out.beat_dale ? "beat" : "did not beat"} Dale` : "") : null);
}

export function render(root, ctx) {
  useStyle("suburbia-style", STYLE);
  ctx = { ...ctx, root };
  validateSelection(ctx);
  const { view } = ctx.doc;
  const mode = { multi: "Suburbia", lone_architect: "Suburbia — The Lone Architect", dale: "Suburbia — vs Dale the Bot" }[view.mode];
  const bar = h("div", { class: "sb-bar" }, h("strong", {}, mode), view.round > 0 ? h("span", {}, `Round ${view.round}`) : null,
    h("span", { class: "sb-prompt" }, prompt(ctx)),
    selection ? h("button", { type: "button", class: "sb-action sb-cancel", onclick: () => select(ctx, selection) }, "Cancel") : null);
  // Prompt, your borough, the shared market/supply/goals, then the other boroughs (docs/UX.md).
  // Dale's turn happens inside the player's move, so the log does not show it: say it here.
  // A borough wider than its box scrolls sideways: keep where the player scrolled it across
  // redraws, and start a new box on the borough's own tiles (not on its left edge).
  const scrolled = {};
  for (const box of root.querySelectorAll(".sb-scroll[data-seat]")) scrolled[box.dataset.seat] = box.scrollLeft;
  mount(root, h("div", { class: "sb" }, bar, view.mode === "dale" ? lastLine(ctx) : null, boroughsPanel(ctx, true), marketPanel(ctx), supplyPanel(ctx),
    goalsPanel(ctx), boroughsPanel(ctx, false), ctx.doc.outcome && !ctx.explain ? outcomePanel(ctx) : null));
  for (const box of root.querySelectorAll(".sb-scroll[data-seat]")) {
    if (box.scrollWidth <= box.clientWidth) continue;
    const svg = box.querySelector(".sb-svg");
    box.scrollLeft = box.dataset.seat in scrolled ? scrolled[box.dataset.seat]
      : Number(svg ? svg.dataset.focus : 0.5) * box.scrollWidth - box.clientWidth / 2;
  }
}
