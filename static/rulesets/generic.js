// The fallback renderer: the view as readable JSON, and every legal move as a button.
import { el } from "../js/api.js";

export function describe(move) {
  return Object.entries(move).map(([k, v]) => (k === "type" ? String(v) : `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)).join(" · ");
}

export function moveList(ctx) {
  if (!ctx.legalMoves.length) return el("p", { class: "muted" }, ctx.seat === null ? "You are watching." : "Nothing to do right now.");
  return el("div", { class: "move-list" }, ...ctx.legalMoves.map((move, i) =>
    el("button", { type: "button", class: "legal-move", dataset: { index: i }, onclick: () => ctx.play(move) }, ctx.describe ? ctx.describe(move) : describe(move))));
}

export function render(root, ctx) {
  root.replaceChildren(el("pre", { class: "view-json" }, JSON.stringify(ctx.doc.view, null, 2)));
}
