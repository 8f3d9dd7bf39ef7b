"""A JavaScript expression for JSON with sorted keys and no spaces, as Python's
`json.dumps(value, sort_keys=True, separators=(",", ":"))` prints it: browser tests compare a
page's documents with the server's through it."""

CANON = """(function canon(v) {
  return Array.isArray(v) ? "[" + v.map(canon).join(",") + "]"
    : (v !== null && typeof v === "object")
      ? "{" + Object.keys(v).sort().map(k => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}"
      : JSON.stringify(v);
})"""
