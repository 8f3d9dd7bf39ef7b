// The shared client kit (../shared/design/CLIENT.md): one element builder for HTML and SVG,
// style sheets added once, board cells with a name and role for screen readers, the staged
// legal-move picker, and the base rules every table keeps whatever a game's style says
// (a visible focus ring, 24 px tap targets on a phone, words never cut in the middle).
// Renderers import it as "../js/kit.js"; it has no other imports and no framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) { if (v !== undefined && v !== null) node.dataset[k] = v; }
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child.nodeType ? child : String(child));
  }
  return node;
}

/** An HTML element: h("div", {class, dataset, onclick, ...}, ...children). */
export function h(tag, attrs = {}, ...children) { return build(document.createElement(tag), attrs, children); }

/** An SVG element, with the same arguments as h. */
export function svg(tag, attrs = {}, ...children) { return build(document.createElementNS(SVG_NS, tag), attrs, children); }

// A long word in a small box is broken with a hyphen at a place that reads ("Slaugh-terhouse",
// "Elec-tronics"), never cut anywhere ("Slaughterho|use"): a soft hyphen goes between two
// consonants near the word's middle, with three letters or more on each side, never inside a
// pair that sounds as one or starts a syllable ("th", "tr"), nor before a pair no syllable starts
// with ("tm"). The browser shows it only when the word has to break (CSS hyphens: manual).
const VOWEL = /[aeiouy]/i;
const ONE_SOUND = new Set(["th", "ch", "sh", "ph", "gh", "ck", "wh"]);
const ONSETS = new Set(["th", "ch", "sh", "ph", "wh", "tr", "pr", "br", "cr", "dr", "gr", "fr", "bl", "cl", "fl", "gl", "pl", "sl", "st", "sc", "sp", "sk", "sm", "sn", "sw", "wr", "qu"]);
function breakAt(word, ok) {
  let best = -1;
  for (let i = 3; i <= word.length - 3; i++) {
    const pair = word.slice(i - 1, i + 1).toLowerCase(), onset = word.slice(i, i + 2).toLowerCase();
    if (ok(pair, onset) && (best < 0 || Math.abs(i - word.length / 2) < Math.abs(best - word.length / 2))) best = i;
  }
  return best;
}
const betweenConsonants = (pair, onset) => !VOWEL.test(pair[0]) && !VOWEL.test(pair[1]) && !ONE_SOUND.has(pair)
  && !ONSETS.has(pair) && (VOWEL.test(onset[1]) || ONSETS.has(onset));
// A word without such a place ("Stationery") breaks before a consonant between vowels ("Statio-nery").
const beforeASyllable = (pair, onset) => VOWEL.test(pair[0]) && !VOWEL.test(pair[1]) && VOWEL.test(onset[1]);
// The last resort: between two vowels that are not said as one ("Appli-ance").
const ONE_VOWEL = new Set(["ea", "ee", "oo", "ou", "ai", "ay", "ey", "oa", "ie", "ei", "au", "oi", "oy", "ue", "ui"]);
const betweenVowels = (pair) => VOWEL.test(pair[0]) && VOWEL.test(pair[1]) && !ONE_VOWEL.has(pair);
function splitWord(word, most) {
  let best = breakAt(word, betweenConsonants);
  if (best < 0) best = breakAt(word, beforeASyllable);
  if (best < 0) best = breakAt(word, betweenVowels);
  if (best < 0) return word;
  const [left, right] = [word.slice(0, best), word.slice(best)];
  return `${left.length > most ? splitWord(left, most) : left}\u00ad${right.length > most ? splitWord(right, most) : right}`;
}
/** `text` with soft hyphens in its words longer than `most` letters. */
export function hyphenate(text, most = 8) {
  return String(text).replace(/\p{L}+/gu, (word) => (word.length > most ? splitWord(word, most) : word));
}

/** One rule for naming a seat everywhere: the room's name for it (a player's name, "Bot 2"), or
 * "Seat n" counted from 1 when there is none. */
export function seatName(names, seat) { return (names && names[seat]) || `Seat ${seat + 1}`; }

/** Deep equality of two JSON values (moves, coordinates). */
export function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

// The rules no game style may override: !important because a game's "legal" outline or a
// `.can` border is more specific than a plain :focus-visible.
export const FOCUS = "#1a5fb4";
const BASE = `
.kit-table :focus-visible { outline: 3px solid ${FOCUS} !important; outline-offset: 2px !important; box-shadow: 0 0 0 5px #fff !important; }
.kit-table svg :focus-visible { box-shadow: none !important; stroke: ${FOCUS} !important; stroke-width: 4px !important; }
.kit-table svg g:focus-visible > :is(rect, polygon, path, circle) { stroke: ${FOCUS} !important; stroke-width: 4px !important; }
.kit-table svg g:focus-visible text { stroke: none !important; }
.kit-table, .kit-table * { overflow-wrap: normal; word-break: normal; hyphens: manual; }
.kit-table .kit-wrap { overflow-wrap: anywhere; }
@media (max-width: 600px) {
  .kit-table :is(button, [role="button"], a[href]):not(svg *) { min-width: 24px; min-height: 24px; }
}
.kit-stage { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.kit-stage .kit-step { flex-basis: 100%; }
.kit-stage .kit-picked { font-weight: 600; }
`;

/** Add a style sheet once per page (by id); the kit's base rules come first. */
export function useStyle(id, css) {
  if (!document.getElementById("kit-base")) document.head.append(h("style", { id: "kit-base" }, BASE));
  if (id && !document.getElementById(id)) document.head.append(h("style", { id }, css));
}

/** Draw `node` as a table's board inside `root` (the base rules and the keys apply under it). */
export function mount(root, node) {
  useStyle();
  root.classList.add("kit-table");
  root.replaceChildren(node);
  keyboard(root);
  return node;
}

// Keyboard: everything marked data-click under `root` can be reached with Tab and played with
// Enter or Space, like a button (once per node, whoever calls: the shell and mount share this).
const keyed = new WeakSet();
/** Give every [data-click] under `root` a Tab stop, the button role and Enter / Space. */
export function keyboard(root) {
  for (const node of root.querySelectorAll("[data-click]")) {
    if (keyed.has(node)) continue;
    keyed.add(node);
    if (node.tabIndex < 0 || !node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
    if (!node.getAttribute("role") || node.getAttribute("role") === "img") node.setAttribute("role", "button");
    node.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
  }
}

/** A board cell (HTML or SVG): `label` names it for screen readers (and is its tooltip when
 * `title` is true); a cell with `onpick` is clickable (data-click: the shell adds Tab, Enter and
 * Space) and `move`, when given, is recorded as data-move for tests. `state` adds legal / picked /
 * target classes (`kit-legal`, ...). Other attributes pass through. */
export function cell(tag, { label, move, onpick, state, title, svg: isSvg, ...attrs } = {}, ...children) {
  const make = isSvg ? svg : h;
  const cls = [attrs.class, ...(state ? [].concat(state).map((s) => `kit-${s}`) : [])].filter(Boolean).join(" ");
  const node = make(tag, { ...attrs, class: cls || null, "aria-label": label || null,
    "data-move": move ? JSON.stringify(move) : null, "data-click": onpick ? "" : null,
    role: attrs.role || (onpick ? "button" : null), tabindex: onpick ? "0" : attrs.tabindex, onclick: onpick || attrs.onclick }, ...children);
  if (title && label) { if (isSvg) node.prepend(svg("title", {}, label)); else node.setAttribute("title", label); }
  return node;
}

/**
 * The staged legal-move picker: the player narrows the legal moves one step at a time (a
 * committee for each member; a card, then its squares, then a target). `steps` is a list of
 * {name, of(move)} where `of` gives the move's value at that step. The picks are forgotten when
 * `sync(key, legal)` is called with a new key (a new version or decision). A step where every
 * remaining move has the same value is taken by itself; `pick` returns the one move left once it
 * is decided, always an element of the legal list, never a move made up from the picks.
 */
export class Picker {
  constructor(steps) { this.steps = steps; this.key = null; this.picks = []; this.legal = []; }

  /** Start again when the decision changed; keep the picks otherwise. */
  sync(key, legal) {
    if (key !== this.key) { this.key = key; this.picks = []; }
    this.legal = legal;
    if (!this.remaining().length) this.picks = [];
    return this;
  }

  /** The legal moves that agree with every pick so far. */
  remaining() {
    return this.legal.filter((m) => this.picks.every((p) => same(this.steps[p.step].of(m), p.value)));
  }

  /** The next step that still has a choice: {step, name, options: [{value, moves}]} or null. */
  next() {
    const left = this.remaining();
    const done = new Set(this.picks.map((p) => p.step));
    for (let i = 0; i < this.steps.length; i++) {
      if (done.has(i)) continue;
      const options = [];
      for (const m of left) {
        const value = this.steps[i].of(m);
        const known = options.find((o) => same(o.value, value));
        if (known) known.moves.push(m); else options.push({ value, moves: [m] });
      }
      if (options.length > 1) return { step: i, name: this.steps[i].name, options };
    }
    return null;
  }

  /** Choose `value` at `step`; returns the move when only one is left, else null. */
  pick(step, value) {
    this.picks = this.picks.filter((p) => p.step !== step);
    this.picks.push({ step, value });
    if (!this.remaining().length) { this.picks.pop(); return null; }
    return this.decided();
  }

  /** The move once one is left, or null. */
  decided() {
    const left = this.remaining();
    return left.length === 1 && this.picks.length ? left[0] : null;
  }

  /** The value every remaining move has at `step` (picked or forced), or undefined. */
  valueAt(step) {
    const left = this.remaining();
    if (!left.length) return undefined;
    const first = this.steps[step].of(left[0]);
    return left.every((m) => same(this.steps[step].of(m), first)) ? first : undefined;
  }

  /** Take back the last pick. */
  back() { this.picks.pop(); }

  /** Forget every pick. */
  clear() { this.picks = []; }
}
