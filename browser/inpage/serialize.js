// serialize.js — turns any JavaScript value into JSON for pageFunction
// and poll (spec §17.7): plain JSON values stay as they are; values JSON
// cannot carry are tagged {type: …}. Module of the in-page engine.

import { S } from './state.js';
import { normalizeSpace, truncate } from './dom.js';

const SER_MAX_ARRAY = 100;
const SER_MAX_KEYS = 50;
const SER_MAX_ITEMS = 50;
const SER_MAX_NODES = 20;
const SER_MAX_DEPTH = 8;

function serElement(el) {
  const out = { type: 'Element', tag: el.tagName.toLowerCase() };
  if (el.id) out.id = el.id;
  if (typeof el.className === 'string' && el.className) out.class = el.className;
  const attrs = {};
  let n = 0;
  for (const a of el.attributes || []) {
    if (a.name === 'id' || a.name === 'class' || a.name === 'style') continue;
    attrs[a.name] = truncate(a.value, 100);
    if (++n >= 10) break;
  }
  if (n) out.attributes = attrs;
  const text = normalizeSpace(el.innerText !== undefined ? el.innerText : el.textContent || '');
  if (text) out.text = truncate(text, 100);
  out.isConnected = el.isConnected;
  out.childCount = el.childElementCount;
  if (S.byEl) {
    const ref = S.byEl.get(el);
    if (ref) out.ref = ref;
  } else if (S.serialized) {
    // The page's world does not know refs: the element is handed to the
    // engine's world, which fills in its ref (function.go withRefs). The
    // placeholder's key is new each call, so a page's own value cannot
    // forge one (pagechannel.go).
    out[S.refKey || '__ref'] = S.serialized.length;
    S.serialized.push(el);
  }
  return out;
}

function serializeValue(v, depth, seen) {
  depth = depth || 0;
  seen = seen || new Set();
  switch (typeof v) {
    case 'undefined': return { type: 'undefined' };
    case 'boolean': case 'string': return v;
    case 'number':
      if (Number.isFinite(v)) return v;
      return { type: 'number', value: String(v) };
    case 'bigint': return { type: 'bigint', value: v.toString() };
    case 'symbol': return { type: 'symbol', value: v.toString() };
    case 'function': return { type: 'function', name: v.name || undefined, value: truncate(String(v), 200) };
  }
  if (v === null) return null;
  if (seen.has(v)) return { type: 'circular' };
  if (depth > SER_MAX_DEPTH) return { type: 'object', truncated: true };
  if (v instanceof Date) return { type: 'Date', value: isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString(), timestamp: isNaN(v.getTime()) ? null : v.getTime() };
  if (v instanceof RegExp) return { type: 'RegExp', value: String(v) };
  if (v instanceof Error) return { type: 'Error', name: v.name, message: v.message, stack: v.stack ? truncate(String(v.stack), 500) : undefined };
  if (typeof Window !== 'undefined' && v instanceof Window) {
    let loc = null;
    try { loc = v.location.href; } catch (e) { loc = '(cross-origin)'; }
    return { type: 'Window', location: loc, innerWidth: v.innerWidth, innerHeight: v.innerHeight };
  }
  if (typeof Document !== 'undefined' && v instanceof Document) return { type: 'Document', title: v.title, url: v.URL, readyState: v.readyState };
  if (typeof Element !== 'undefined' && v instanceof Element) return serElement(v);
  if (typeof Node !== 'undefined' && v instanceof Node) return { type: 'Node', nodeType: v.nodeType, name: v.nodeName, text: truncate(v.textContent || '', 100) };
  if ((typeof NodeList !== 'undefined' && v instanceof NodeList) || (typeof HTMLCollection !== 'undefined' && v instanceof HTMLCollection)) {
    const items = [...v].slice(0, SER_MAX_NODES).map((n) => n instanceof Element ? serElement(n) : serializeValue(n, depth + 1, seen));
    const out = { type: v instanceof NodeList ? 'NodeList' : 'HTMLCollection', length: v.length, items };
    if (v.length > SER_MAX_NODES) out.truncated = true;
    return out;
  }
  seen.add(v);
  try {
    if (v instanceof Map) {
      const entries = [];
      for (const [k, val] of v) {
        if (entries.length >= SER_MAX_ITEMS) break;
        entries.push([serializeValue(k, depth + 1, seen), serializeValue(val, depth + 1, seen)]);
      }
      const out = { type: 'Map', size: v.size, entries };
      if (v.size > SER_MAX_ITEMS) out.truncated = true;
      return out;
    }
    if (v instanceof Set) {
      const values = [];
      for (const val of v) {
        if (values.length >= SER_MAX_ITEMS) break;
        values.push(serializeValue(val, depth + 1, seen));
      }
      const out = { type: 'Set', size: v.size, values };
      if (v.size > SER_MAX_ITEMS) out.truncated = true;
      return out;
    }
    // A DataView is a view without elements (no length, not iterable).
    if (v instanceof DataView) return { type: 'DataView', byteLength: v.byteLength };
    if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      const a = /** @type {ArrayLike<unknown>} */ (v);
      const arr = Array.from(a.length > SER_MAX_ARRAY ? Array.prototype.slice.call(a, 0, SER_MAX_ARRAY) : a, (x) => serializeValue(x, depth + 1, seen));
      if (a.length > SER_MAX_ARRAY) return { type: 'array', length: a.length, value: arr, truncated: true };
      return arr;
    }
    if (v instanceof Promise) return { type: 'Promise' };
    const out = {};
    const keys = Object.keys(v);
    for (const k of keys.slice(0, SER_MAX_KEYS)) {
      let val;
      try { val = v[k]; } catch (e) { val = { type: 'Error', message: String(e) }; }
      out[k] = serializeValue(val, depth + 1, seen);
    }
    if (keys.length > SER_MAX_KEYS) return { type: 'object', keys: keys.length, value: out, truncated: true };
    const proto = Object.getPrototypeOf(v);
    if (proto && proto !== Object.prototype && proto.constructor && proto.constructor.name && keys.length === 0) {
      return { type: proto.constructor.name };
    }
    return out;
  } finally {
    seen.delete(v);
  }
}

export function serialize(v, refKey) {
  S.serialized = [];
  S.refKey = refKey;
  return serializeValue(v, 0, new Set());
}

// serializeTyped is the spec's shape (§17.7): every value is {type, value}
// — {type: 'number', value: 3}, {type: 'null', value: null} — arrays and
// plain objects with their members wrapped in turn; the special types keep
// serialize's tagged form.
function serializeTypedValue(v, depth, seen) {
  switch (typeof v) {
    case 'string': case 'boolean': return { type: typeof v, value: v };
    case 'number': return Number.isFinite(v) ? { type: 'number', value: v } : serializeValue(v, depth, seen);
    case 'object': break;
    default: return serializeValue(v, depth, seen);
  }
  if (v === null) return { type: 'null', value: null };
  const proto = Object.getPrototypeOf(v);
  const plain = proto === Object.prototype || proto === null;
  if ((!Array.isArray(v) && !plain) || seen.has(v) || depth > SER_MAX_DEPTH) return serializeValue(v, depth, seen);
  seen.add(v);
  try {
    if (Array.isArray(v)) {
      const out = { type: 'array', length: v.length, value: v.slice(0, SER_MAX_ARRAY).map((x) => serializeTypedValue(x, depth + 1, seen)) };
      if (v.length > SER_MAX_ARRAY) out.truncated = true;
      return out;
    }
    const keys = Object.keys(v);
    const value = {};
    for (const k of keys.slice(0, SER_MAX_KEYS)) {
      let val;
      try { val = v[k]; } catch (e) { val = e; }
      value[k] = serializeTypedValue(val, depth + 1, seen);
    }
    const out = { type: 'object', value };
    if (keys.length > SER_MAX_KEYS) out.truncated = true;
    return out;
  } finally {
    seen.delete(v);
  }
}

export function serializeTyped(v, refKey) {
  S.serialized = [];
  S.refKey = refKey;
  return serializeTypedValue(v, 0, new Set());
}

// ping answers true: callers use it to make sure the engine is installed.
export function ping() {
  return true;
}
