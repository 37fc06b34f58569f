// RFC 6902 JSON Patch, applied in place. Supports add, remove, replace, move, copy
// and test. Throws on a path that does not exist so the caller can resync.

/**
 * @param {string} pointer RFC 6901 JSON Pointer ("" is the whole document)
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`bad JSON pointer ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * @param {any} doc
 * @param {string[]} parts
 */
function parentOf(doc, parts) {
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    if (node === null || typeof node !== 'object') throw new Error('path through a non-container');
    if (Array.isArray(node)) {
      const i = arrayIndex(node, part, false);
      node = node[i];
    } else {
      if (!Object.prototype.hasOwnProperty.call(node, part)) throw new Error(`missing ${part}`);
      node = node[part];
    }
  }
  if (node === null || typeof node !== 'object') throw new Error('parent is not a container');
  return node;
}

/**
 * @param {any[]} arr
 * @param {string} part
 * @param {boolean} forInsert
 */
function arrayIndex(arr, part, forInsert) {
  if (part === '-' && forInsert) return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(part)) throw new Error(`bad array index ${part}`);
  const i = Number(part);
  if (i > arr.length || (!forInsert && i >= arr.length)) throw new Error(`index ${i} out of range`);
  return i;
}

/**
 * @param {any} doc
 * @param {string} path
 */
function getAt(doc, path) {
  const parts = parsePointer(path);
  if (parts.length === 0) return doc;
  const parent = parentOf(doc, parts);
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false)];
  if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new Error(`missing ${last}`);
  return parent[last];
}

/** @param {any} v */
function clone(v) {
  return v === undefined ? v : JSON.parse(JSON.stringify(v));
}

/**
 * Applies `ops` to `doc` and returns the new document (the same object unless an
 * operation replaced the root). Throws on any failed operation; the document may
 * then be partly patched, so callers must ask for a fresh snapshot.
 * @param {any} doc
 * @param {any[]} ops
 * @returns {any}
 */
export function applyPatch(doc, ops) {
  for (const op of ops) {
    const parts = parsePointer(op.path);
    switch (op.op) {
      case 'add':
      case 'replace': {
        if (parts.length === 0) {
          doc = clone(op.value);
          break;
        }
        const parent = parentOf(doc, parts);
        const last = parts[parts.length - 1];
        if (Array.isArray(parent)) {
          if (op.op === 'add') parent.splice(arrayIndex(parent, last, true), 0, clone(op.value));
          else parent[arrayIndex(parent, last, false)] = clone(op.value);
        } else {
          if (op.op === 'replace' && !Object.prototype.hasOwnProperty.call(parent, last)) {
            throw new Error(`replace of missing ${last}`);
          }
          parent[last] = clone(op.value);
        }
        break;
      }
      case 'remove': {
        if (parts.length === 0) throw new Error('cannot remove the root');
        const parent = parentOf(doc, parts);
        const last = parts[parts.length - 1];
        if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false), 1);
        else {
          if (!Object.prototype.hasOwnProperty.call(parent, last)) throw new Error(`remove of missing ${last}`);
          delete parent[last];
        }
        break;
      }
      case 'copy':
      case 'move': {
        const value = clone(getAt(doc, op.from));
        if (op.op === 'move') doc = applyPatch(doc, [{ op: 'remove', path: op.from }]);
        doc = applyPatch(doc, [{ op: 'add', path: op.path, value }]);
        break;
      }
      case 'test': {
        if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value)) {
          throw new Error(`test failed at ${op.path}`);
        }
        break;
      }
      default:
        throw new Error(`unknown patch op ${op.op}`);
    }
  }
  return doc;
}
