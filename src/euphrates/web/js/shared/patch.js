// Views arrive as patches of the previous version (docs/server.md): an op
// [path, value] sets the value at path, [path] deletes it. Mirrors
// euphrates.server.patch.apply_patch.

/**
 * Apply ops to a document in place where possible; returns the new root.
 * @param {any} doc
 * @param {any[]} ops
 * @returns {any}
 */
export function applyPatch(doc, ops) {
  for (const op of ops) {
    const path = /** @type {(string|number)[]} */ (op[0]);
    if (path.length === 0) {
      doc = structuredClone(op[1]);
      continue;
    }
    let target = doc;
    for (const key of path.slice(0, -1)) target = target[key];
    const last = path[path.length - 1];
    if (op.length === 1) {
      if (Array.isArray(target) && typeof last === "number") target.splice(last, 1);
      else delete target[last];
    } else {
      target[last] = structuredClone(op[1]);
    }
  }
  return doc;
}
