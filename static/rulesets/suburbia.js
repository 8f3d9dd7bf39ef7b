// Suburbia renderer: the market, supply, goals and every borough (SVG hexes), with clicks turned
// into legal moves. Plain ES module, no imports; render(root, ctx) redraws everything each call.

const SVG = "http://www.w3.org/2000/svg";
const HEX = 30; // hex radius in px (flat-top)
const SQ3 = Math.sqrt(3);
const COLOURS = { residential: "#5aa454", commercial: "#4a7fc1", industrial: "#e0b432", civic: "#9a9a9a", lake: "#6cc3e8" };
const STAT_LABEL = { money: "$", income: "Income", rep: "Reputation", pop: "Population" };

// What the seat has picked and not yet placed: {type: "buy"|"lake", slot} | {type: "basic", tile} | {type: "invest"}.
let selection = null;

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : String(c));
  return node;
}

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

function injectStyle() {
  if (document.getElementById("suburbia-style")) return;
  const css = `
  .sb { font-family: system-ui, sans-serif; color: #222; display: grid; gap: 12px; }
  .sb-bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; background: #f3f1ea; border-radius: 8px; padding: 8px 12px; }
  .sb-bar .sb-prompt { font-weight: 600; }
  .sb-panel { background: #fbfaf6; border: 1px solid #ddd8c8; border-radius: 8px; padding: 8px 10px; }
  .sb-panel h3 { margin: 0 0 6px; font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: #6b6453; }
  .sb-market { display: flex; gap: 6px; flex-wrap: wrap; align-items: stretch; }
  .sb-slot { width: 118px; border: 2px solid transparent; border-radius: 8px; padding: 4px; background: #fff; display: flex; flex-direction: column; gap: 3px; }
  .sb-slot .sb-surcharge { font-size: 12px; color: #6b6453; text-align: center; }
  .sb-card { border-radius: 6px; padding: 5px 6px; color: #fff; font-size: 12px; min-height: 74px; }
  .sb-card .sb-name { font-weight: 700; font-size: 13px; }
  .sb-card .sb-text { opacity: .95; margin-top: 2px; line-height: 1.2; overflow-wrap: anywhere; }
  .sb-card.sb-empty { background: #eee; color: #999; text-align: center; }
  .sb-slot.sb-can { cursor: pointer; border-color: #c9b46b; }
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
  .sb-player { border: 2px solid #ddd8c8; border-radius: 10px; padding: 8px; background: #fff; }
  .sb-player.sb-active { border-color: #d2691e; }
  .sb-player.sb-me h4::after { content: " (you)"; color: #d2691e; font-weight: 400; }
  .sb-player h4 { margin: 0 0 4px; }
  .sb-tracks { display: flex; gap: 8px; flex-wrap: wrap; font-size: 13px; }
  .sb-track { background: #f3f1ea; border-radius: 5px; padding: 1px 6px; }
  .sb-delta-up { color: #2e7d32; font-weight: 600; } .sb-delta-down { color: #c62828; font-weight: 600; }
  .sb-svg .sb-hex-text { font-size: 7.5px; fill: #fff; pointer-events: none; font-weight: 600; }
  .sb-svg .sb-board { fill: #7d6b52; }
  .sb-svg .sb-cell { fill: #fff7e0; stroke: #d2691e; stroke-width: 2; stroke-dasharray: 4 3; cursor: pointer; }
  .sb-svg .sb-cell:hover { fill: #ffe2b8; }
  .sb-svg .sb-tile.sb-investable { cursor: pointer; stroke: #d2691e; stroke-width: 3; }
  .sb-svg .sb-new { stroke: #222; stroke-width: 3; }
  .sb-last { font-size: 13px; color: #4a4536; }
  .sb-outcome table { border-collapse: collapse; font-size: 13px; }
  .sb-outcome td, .sb-outcome th { border: 1px solid #ddd8c8; padding: 3px 8px; text-align: right; }
  .sb-outcome tr.sb-winner { background: #fff3cf; }
  `;
  document.head.append(h("style", { id: "suburbia-style" }, css));
}

function tileInfo(catalogue, id) {
  return (catalogue.tiles || {})[id] || { name: id, category: "civic", cost: 0, text: "" };
}

function goalInfo(catalogue, id) {
  return (catalogue.goals || {})[id] || { name: id, text: "" };
}

function playerName(ctx, i) {
  const view = ctx.doc.view;
  if (view.dale !== null && i === view.dale) return "Dale the Bot";
  return (ctx.names && ctx.names[i]) || `Player ${i + 1}`;
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function card(catalogue, id, extra = "") {
  if (!id) return h("div", { class: "sb-card sb-empty" }, "empty");
  const t = tileInfo(catalogue, id);
  return h("div", { class: `sb-card ${extra}`, style: `background:${COLOURS[t.category] || "#888"}`, title: t.text },
    h("div", { class: "sb-name" }, t.name), h("div", {}, `$${t.cost} · ${t.category}${t.icon ? " · " + t.icon : ""}`),
    h("div", { class: "sb-text" }, t.text));
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
  if (!selection) return;
  const ok = ctx.legalMoves.some((m) => m.type === selection.type &&
    (selection.slot === undefined || m.slot === selection.slot) && (selection.tile === undefined || m.tile === selection.tile));
  if (!ok) selection = null;
}

function select(ctx, next) {
  selection = selection && same(selection, next) ? null : next;
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
    return h("div", attrs,
      h("div", { class: "sb-surcharge" }, `+$${view.surcharges[slot]}${price !== null ? ` → $${price}` : ""}`),
      card(ctx.catalogue, id),
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

function supplyPanel(ctx) {
  const { view } = ctx.doc;
  const moves = ctx.legalMoves;
  const basics = Object.entries(view.basic).map(([id, left]) => {
    const can = moves.some((m) => m.type === "basic" && m.tile === id);
    const t = tileInfo(ctx.catalogue, id);
    const on = selection && selection.type === "basic" && selection.tile === id;
    return h("button", { type: "button", class: `sb-basic${on ? " sb-selected" : ""}`, disabled: !can, dataset: { tile: id },
      style: `border-left: 8px solid ${COLOURS[t.category]}`, title: t.text, onclick: () => select(ctx, { type: "basic", tile: id }) },
      `${t.name} $${t.cost} (${left} left)`);
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

function label(name) {
  const words = name.replace("'s", "").split(" ");
  if (words.length === 1) return [name.slice(0, 11)];
  const half = Math.ceil(words.length / 2);
  return [words.slice(0, half).join(" ").slice(0, 12), words.slice(half).join(" ").slice(0, 12)];
}

function boroughSvg(ctx, i) {
  const { view } = ctx.doc;
  const p = view.players[i];
  const mine = ctx.seat === i;
  const cells = [];
  if (mine && selection && selection.type !== "invest") {
    for (const m of ctx.legalMoves) {
      if (m.type === selection.type && (selection.slot === undefined || m.slot === selection.slot) && (selection.tile === undefined || m.tile === selection.tile)) cells.push(m);
    }
  }
  const investMoves = mine && selection && selection.type === "invest" ? ctx.legalMoves.filter((m) => m.type === "invest") : [];
  const board = ctx.catalogue.board_cells || [];
  const all = [...p.tiles.map((t) => t.at), ...board, ...cells.map((m) => m.at)];
  const xs = all.map(([q, r]) => center(q, r)[0]);
  const ys = all.map(([q, r]) => center(q, r)[1]);
  const pad = HEX + 4;
  const minX = Math.min(...xs) - pad; const minY = Math.min(...ys) - pad;
  const w = Math.max(...xs) - minX + pad; const hgt = Math.max(...ys) - minY + pad;
  const svg = s("svg", { class: "sb-svg", viewBox: `${minX} ${minY} ${w} ${hgt}`, width: Math.min(520, w), height: Math.min(520, w) * hgt / w, role: "img", "aria-label": `${playerName(ctx, i)}'s borough` });
  for (const [q, r] of board) {
    const [x, y] = center(q, r);
    svg.append(s("polygon", { class: "sb-board", points: hexPoints(x, y) }));
  }
  const last = view.last;
  const lastAt = last && last.move && last.seat === i && last.move.at ? last.move.at : (last && last.dale && view.dale === i ? last.dale.at : null);
  for (const t of p.tiles) {
    const [x, y] = center(t.at[0], t.at[1]);
    const info = tileInfo(ctx.catalogue, t.t);
    const invest = investMoves.find((m) => same(m.at, t.at));
    const cls = `sb-tile${invest ? " sb-investable" : ""}${lastAt && same(lastAt, t.at) ? " sb-new" : ""}`;
    const attrs = { class: cls, points: hexPoints(x, y), fill: t.lake ? COLOURS.lake : COLOURS[info.category] || "#888", "data-at": JSON.stringify(t.at) };
    if (invest) { attrs["data-move"] = JSON.stringify(invest); attrs.onclick = () => { selection = null; ctx.play(invest); }; }
    const g = s("g", {}, s("title", {}, t.lake ? `Lake (was ${info.name})` : `${info.name}: ${info.text}`), s("polygon", attrs));
    const lines = t.lake ? ["Lake"] : label(info.name);
    lines.forEach((line, k) => g.append(s("text", { class: "sb-hex-text", x, y: y + (k - (lines.length - 1) / 2) * 10 + 3, "text-anchor": "middle" }, line)));
    if (t.inv) g.append(s("circle", { class: "sb-marker", cx: x, cy: y - HEX * 0.62, r: 5, fill: "#ffd54a", stroke: "#6b4e00" }));
    svg.append(g);
  }
  for (const m of cells) {
    const [x, y] = center(m.at[0], m.at[1]);
    svg.append(s("polygon", { class: "sb-cell legal", points: hexPoints(x, y), "data-move": JSON.stringify(m), "data-at": JSON.stringify(m.at),
      onclick: () => { selection = null; ctx.play(m); } }));
  }
  return svg;
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
    h("span", { class: "sb-track" }, `Markers ${p.markers}`));
}

function boroughsPanel(ctx) {
  const { view } = ctx.doc;
  const order = view.players.map((_, i) => i);
  if (ctx.seat !== null) order.sort((a, b) => (b === ctx.seat) - (a === ctx.seat));
  return h("section", { class: "sb-boroughs" }, ...order.map((i) => {
    const active = view.phase !== "over" && (view.to_act || []).includes(i) && view.phase !== "choose_goal";
    const start = i === view.start && view.dale !== i ? " ★ start player" : "";
    return h("div", { class: `sb-player${active ? " sb-active" : ""}${ctx.seat === i ? " sb-me" : ""}`, dataset: { seat: String(i) } },
      h("h4", {}, playerName(ctx, i), h("small", {}, start)), tracks(ctx, i), boroughSvg(ctx, i));
  }));
}

export function describe(move, catalogue = {}) {
  const name = (id) => tileInfo(catalogue, id).name;
  switch (move.type) {
    case "keep_goal": return move.goal ? `keep goal ${goalInfo(catalogue, move.goal).name}` : "keep a secret goal";
    case "buy": return `buy market tile ${move.slot + 1} → [${move.at}]`;
    case "lake": return `lake from market tile ${move.slot + 1} → [${move.at}]`;
    case "basic": return `${name(move.tile)} → [${move.at}]`;
    case "invest": return `invest at [${move.at}]`;
    case "discard": return `discard market tile ${move.slot + 1}`;
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

function outcomePanel(ctx) {
  const out = ctx.doc.outcome;
  if (!out) return null;
  const { view } = ctx.doc;
  const rows = view.final ? view.final.boroughs : out.breakdown;
  const goalText = (obj) => Object.entries(obj || {}).map(([g, v]) => `${goalInfo(ctx.catalogue, g).name} +${v}`).join(", ") || "–";
  // Dale's row (after the seats) takes its rank from `others` (he is ranked, not a seat).
  const rankOf = (i) => out.ranks[i] ?? (view.dale === i && out.others ? out.others[0].rank : undefined);
  const winners = rows.map((_, i) => i).filter((i) => rankOf(i) === 1).map((i) => playerName(ctx, i));
  const body = rows.map((b, i) => h("tr", { class: rankOf(i) === 1 ? "sb-winner" : "" },
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
  injectStyle();
  ctx = { ...ctx, root };
  validateSelection(ctx);
  const { view } = ctx.doc;
  const mode = { multi: "Suburbia", lone_architect: "Suburbia — The Lone Architect", dale: "Suburbia — vs Dale the Bot" }[view.mode];
  const bar = h("div", { class: "sb-bar" }, h("strong", {}, mode), h("span", {}, `Round ${view.round}`),
    h("span", { class: "sb-prompt" }, prompt(ctx)),
    selection ? h("button", { type: "button", class: "sb-action sb-cancel", onclick: () => select(ctx, selection) }, "Cancel") : null);
  root.replaceChildren(h("div", { class: "sb" }, bar, lastLine(ctx), marketPanel(ctx), supplyPanel(ctx), goalsPanel(ctx), boroughsPanel(ctx), outcomePanel(ctx)));
}
