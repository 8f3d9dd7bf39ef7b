// Form fields for a ruleset's Options, rendered from its JSON schema (bool, int, enum, string).
import { el } from "./api.js";

function resolve(schema, prop) {
  if (prop.$ref) return schema.$defs[prop.$ref.split("/").pop()];
  if (prop.allOf && prop.allOf.length === 1) return { ...resolve(schema, prop.allOf[0]), ...prop, allOf: undefined };
  return prop;
}

export function optionFields(schema) {
  const props = schema.properties || {};
  if (!Object.keys(props).length) return [el("p", { class: "muted" }, "This game has no options.")];
  return Object.entries(props).map(([name, raw]) => {
    const prop = resolve(schema, raw);
    const label = prop.title || name;
    const hint = prop.description ? el("small", { class: "muted" }, prop.description) : null;
    if (prop.type === "boolean") {
      return el("label", { class: "check" }, el("input", { type: "checkbox", name, checked: !!prop.default }), ` ${label}`, hint);
    }
    if (prop.enum) {
      return el("label", {}, label, el("select", { name }, ...prop.enum.map((v) => el("option", { value: v, selected: v === prop.default }, String(v)))), hint);
    }
    if (prop.type === "integer" || prop.type === "number") {
      return el("label", {}, label, el("input", { type: "number", name, value: prop.default ?? "", min: prop.minimum, max: prop.maximum }), hint);
    }
    return el("label", {}, label, el("input", { name, value: prop.default ?? "" }), hint);
  });
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
