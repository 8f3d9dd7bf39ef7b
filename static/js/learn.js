// Learning at the table: the "How to play" dialog (turn, phases, end and scoring, glossary, a link
// to the full rulebook at /rules/<id>), hints that say why the offered moves are legal and what
// each does, and tooltips that also open on touch (a long press shows the element's title).
import { el, request } from "./api.js";

const guides = new Map(); // ruleset id -> its guide (read once per page)

export async function loadGuide(rulesetId) {
  if (!guides.has(rulesetId)) {
    guides.set(rulesetId, request("GET", `/api/rulesets/${rulesetId}/guide`).catch(() => null));
  }
  return guides.get(rulesetId);
}

// The guide's content as elements: summary, sections, glossary, rulebook link.
export function guideContent(guide) {
  const sections = guide.sections.map((s) => el("section", { class: "guide-section" },
    el("h3", {}, s.title),
    s.text ? el("p", {}, s.text) : null,
    s.items && s.items.length ? el("ul", {}, ...s.items.map((item) => el("li", {}, item))) : null));
  const glossary = el("dl", { class: "glossary", id: "guide-glossary" },
    ...guide.glossary.flatMap((g) => [el("dt", {}, g.term), el("dd", {}, g.meaning)]));
  return [
    el("p", { class: "guide-summary" }, guide.summary),
    ...sections,
    el("h3", {}, "Glossary"), glossary,
    guide.rulebook ? el("p", {}, el("a", { href: guide.rulebook, target: "_blank", rel: "noopener", id: "guide-rulebook" },
      `Read the full ${guide.name} rulebook`)) : null,
  ];
}

// A "How to play" button (in `where`) that opens the guide in a dialog; resolves once it is in.
export async function mountGuide(rulesetId, where) {
  const guide = await loadGuide(rulesetId);
  if (!guide || document.getElementById("how-to-play")) return guide;
  const close = el("button", { type: "button", class: "guide-close", id: "guide-close" }, "Close");
  const dialog = el("dialog", { id: "guide-dialog", class: "guide-dialog", "aria-labelledby": "guide-title" },
    el("div", { class: "guide-head" }, el("h2", { id: "guide-title" }, `How to play ${guide.name}`), close),
    ...guideContent(guide));
  close.addEventListener("click", () => dialog.close());
  document.body.append(dialog);
  where.append(el("button", { type: "button", id: "how-to-play", class: "small",
    onclick: () => dialog.showModal() }, "How to play"));
  return guide;
}

// The hint for a decision: one line per kind of move offered (at most four), from the guide, the
// kind a player most likely wants first (the guide's hint_order: Done before Discard), since the
// table shows the first line and the others only on asking.
export function hintLines(guide, legalMoves) {
  if (!guide || !legalMoves || !legalMoves.length) return [];
  const order = guide.hint_order || [];
  const rank = (kind) => (order.includes(kind) ? order.indexOf(kind) : order.length);
  const kinds = [...new Set(legalMoves.map((m) => m.type))];
  // A stable sort: kinds the order does not name keep the order they were offered in, after it.
  kinds.sort((a, b) => rank(a) - rank(b));
  return kinds.map((k) => guide.hints[k]).filter(Boolean).slice(0, 4);
}

// Hints are on by default for a first game of a ruleset against bots only: remembered per ruleset
// once the player turns them on or off, and off after a finished game.
const HINTS_KEY = "civitas.hints";
function hintPrefs() {
  try { return JSON.parse(localStorage.getItem(HINTS_KEY)) || {}; } catch { return {}; }
}
export function hintsWanted(rulesetId, onlyBots) {
  const pref = hintPrefs()[rulesetId];
  return pref === undefined ? onlyBots : pref;
}
// A finished game is no longer the first: unless the player chose, hints start off next time.
export function gameFinished(rulesetId) {
  if (hintPrefs()[rulesetId] === undefined) setHints(rulesetId, false);
}
export function setHints(rulesetId, on) {
  const prefs = hintPrefs();
  prefs[rulesetId] = on;
  localStorage.setItem(HINTS_KEY, JSON.stringify(prefs));
}

// Touch has no hover: a long press (half a second, finger still) on anything with a title shows
// that title in a bubble, and the click that ends the press is swallowed so it plays nothing.
const PRESS_MS = 500;
export function longPressTips(root = document) {
  let timer = null;
  let start = null;
  let shown = false;
  const bubble = el("div", { id: "touch-tip", class: "touch-tip", role: "tooltip", hidden: true });
  document.body.append(bubble);
  const hide = () => { bubble.hidden = true; };
  root.addEventListener("pointerdown", (event) => {
    hide();
    shown = false; // a press whose tip opened without a click afterwards swallows nothing more
    if (event.pointerType !== "touch") return;
    const target = event.target instanceof Element ? event.target.closest("[title], [data-tip]") : null;
    if (!target) return;
    start = { x: event.clientX, y: event.clientY };
    timer = setTimeout(() => {
      timer = null;
      shown = true;
      bubble.textContent = target.getAttribute("data-tip") || target.getAttribute("title");
      bubble.hidden = false;
      const box = target.getBoundingClientRect();
      const top = box.top + window.scrollY - bubble.offsetHeight - 8;
      bubble.style.top = `${top > window.scrollY ? top : box.bottom + window.scrollY + 8}px`;
      bubble.style.left = `${Math.max(8, Math.min(window.innerWidth - bubble.offsetWidth - 8, box.left + window.scrollX))}px`;
    }, PRESS_MS);
  }, true);
  const cancel = () => { if (timer) { clearTimeout(timer); timer = null; } };
  root.addEventListener("pointermove", (event) => {
    if (timer && start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > 10) cancel();
  }, true);
  root.addEventListener("pointerup", cancel, true);
  root.addEventListener("pointercancel", cancel, true);
  // The press that showed a tip is not a click, nor a context menu.
  root.addEventListener("click", (event) => {
    if (!shown) return;
    shown = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);
  root.addEventListener("contextmenu", (event) => { if (shown) event.preventDefault(); }, true);
  document.addEventListener("scroll", hide, { passive: true });
  return bubble;
}
