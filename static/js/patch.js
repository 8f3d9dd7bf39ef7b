// RFC 6902 add/remove/replace on a JSON document, in place (what the server's differ emits).
function unescape(token) { return token.replace(/~1/g, "/").replace(/~0/g, "~"); }

export function applyPatch(doc, ops) {
  const root = { "": doc };
  for (const op of ops) {
    const tokens = op.path.split("/").slice(1).map(unescape);
    let parent = root;
    let key = "";
    for (const token of tokens) {
      parent = parent[key];
      if (parent === undefined || parent === null) throw new Error(`bad path ${op.path}`);
      key = Array.isArray(parent) ? (token === "-" ? parent.length : Number(token)) : token;
    }
    const value = op.value === undefined ? undefined : structuredClone(op.value);
    if (op.op === "replace") parent[key] = value;
    else if (op.op === "remove") Array.isArray(parent) ? parent.splice(key, 1) : delete parent[key];
    else if (op.op === "add") Array.isArray(parent) ? parent.splice(key, 0, value) : (parent[key] = value);
    else throw new Error(`unsupported op ${op.op}`);
  }
  return root[""];
}
