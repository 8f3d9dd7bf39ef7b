// Form fields for a ruleset's Options, rendered from its JSON schema (bool, int, enum, string), in
// words: enum values get readable labels, options that only matter solo show only for one seat,
// and options that belong to an expansion show only when the expansion is ticked.
import { el } from "./api.js";

// Readable names for option values the rulesets use; anything else is humanised.
const VALUE_LABELS = {
  lone_architect: "The Lone Architect", dale: "Dale the Bot",
  nemikolh: "First red line at 15 (standard)", bestagon: "First red line at 14",
  plus2: "+2 Income and Reputation (as printed)", minus2: "−2 Income and Reputation (suspected misprint)",
};

export function valueLabel(value) {
  if (typeof value !== "string") return String(value);
  if (VALUE_LABELS[value]) return VALUE_LABELS[value];
  const words = value.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function resolve(schema, prop) {
  if (prop.$ref) return schema.$defs[prop.$ref.split("/").pop()];
  if (prop.allOf && prop.allOf.length === 1) return { ...resolve(schema, prop.allOf[0]), ...prop, allOf: undefined };
  return prop;
}

function soloOnly(name, prop) {
  return /solo|lone_architect/.test(name) || /\b(solo|alone)\b/i.test(prop.description || "");
}

// The boolean option an option depends on (fortune_monuments and max_fortune_buildings → fortune).
function parentOf(name, props) {
  return Object.keys(props).find((other) => other !== name && props[other].type === "boolean" && name.includes(other)) || null;
}

// The choice an option belongs to: City Council's hard_budget matters only when mode is "hard"
// (an option named after one value of another option's list). Returns [option, value] or null.
function choiceOf(name, props) {
  const first = name.split("_")[0];
  const other = Object.keys(props).find((o) => o !== name && Array.isArray(props[o].enum) && props[o].enum.includes(first));
  return other ? [other, first] : null;
}

export function optionFields(schema) {
  const props = Object.fromEntries(Object.entries(schema.properties || {}).map(([n, p]) => [n, resolve(schema, p)]));
  if (!Object.keys(props).length) return [el("p", { class: "muted" }, "This game has no options.")];
  return Object.entries(props).map(([name, prop]) => {
    const label = prop.title || name;
    const hint = prop.description ? el("small", { class: "muted" }, prop.description) : null;
    const dataset = { option: name };
    if (soloOnly(name, prop)) dataset.solo = "1";
    const parent = parentOf(name, props);
    if (parent) dataset.parent = parent;
    const choice = choiceOf(name, props);
    if (choice) { dataset.choice = choice[0]; dataset.choiceValue = choice[1]; }
    // The schema's default (Tiny Towns' is the base game, Fortune one click away).
    const def = prop.default;
    let field;
    if (prop.type === "boolean") {
      field = el("label", { class: "check", dataset }, el("input", { type: "checkbox", name, checked: !!def }), ` ${label}`, hint);
    } else if (prop.enum) {
      field = el("label", { dataset }, label, el("select", { name }, ...prop.enum.map((v) => el("option", { value: v, selected: v === def }, valueLabel(v)))), hint);
    } else if (prop.type === "integer" || prop.type === "number") {
      field = el("label", { dataset }, label, el("input", { type: "number", name, value: def ?? "", min: prop.minimum, max: prop.maximum }), hint);
    } else {
      field = el("label", { dataset }, label, el("input", { name, value: def ?? "" }), hint);
    }
    return field;
  });
}

// Show only the options that matter for this many seats and for the ticked expansions.
export function showRelevant(container, seats) {
  const refresh = () => {
    for (const field of container.querySelectorAll("[data-option]")) {
      let hidden = field.dataset.solo === "1" && Number(seats()) > 1;
      const parent = field.dataset.parent && container.querySelector(`input[name="${field.dataset.parent}"]`);
      if (parent && !parent.checked) hidden = true;
      const choice = field.dataset.choice && container.querySelector(`select[name="${field.dataset.choice}"]`);
      if (choice && choice.value !== field.dataset.choiceValue) hidden = true;
      field.hidden = hidden;
    }
  };
  container.addEventListener("change", refresh);
  refresh();
  return refresh;
}

export function readOptions(container, schema) {
  const out = {};
  for (const [name, raw] of Object.entries(schema.properties || {})) {
    const prop = resolve(schema, raw);
    const input = container.querySelector(`[name="${name}"]`);
    if (!input) continue;
    if (prop.type === "boolean") out[name] = input.checked;
    else if (prop.type === "integer") out[name] = parseInt(input.value, 10);
    else if (prop.type === "number") out[name] = Number(input.value);
    else if (prop.enum && typeof prop.enum[0] === "number") out[name] = Number(input.value);
    else out[name] = input.value;
  }
  return out;
}

// A room's options in words, leaving out what does not apply (solo options with several seats,
// an expansion's settings when it is off).
export function describeOptions(schema, options, seats) {
  const props = Object.fromEntries(Object.entries(schema.properties || {}).map(([n, p]) => [n, resolve(schema, p)]));
  const parts = [];
  for (const [name, prop] of Object.entries(props)) {
    if (!(name in options)) continue;
    if (soloOnly(name, prop) && seats > 1) continue;
    const parent = parentOf(name, props);
    if (parent && options[parent] === false) continue;
    const choice = choiceOf(name, props);
    if (choice && options[choice[0]] !== choice[1]) continue;
    const value = options[name];
    const label = prop.title || name;
    if (prop.type === "boolean") { if (value) parts.push(label); }
    else parts.push(`${label}: ${valueLabel(value)}`);
  }
  return parts.length ? parts.join(" · ") : "base game";
}

const TIMEOUTS = { bot: "a bot plays until the player returns", skip: "a bot plays that turn", offer: "the seat is offered to others" };

// A table's clock in words (the room's `pace`), shown before anyone joins.
export function describePace(pace) {
  const minutes = (s) => (s % 60 ? `${(s / 60).toFixed(1).replace(/\.0$/, "")} min` : `${s / 60} min`);
  if (!pace || pace.kind === "none") return "No clock";
  if (pace.kind === "realtime") {
    return `Clock: ${minutes(pace.move_seconds)} a move${pace.reserve_seconds ? ` + ${minutes(pace.reserve_seconds)} reserve` : ""}`;
  }
  if (pace.kind === "turn") {
    const reserve = pace.reserve_seconds ? ` + ${Math.round(pace.reserve_seconds / 3600)} h reserve` : "";
    return `Clock: ${Math.round(pace.move_seconds / 3600)} h a move${reserve} (turn based; out of time: ${TIMEOUTS[pace.timeout] || "a bot plays"})`;
  }
  return "Clock";
}
