// dom.js — composed-tree traversal, styles, visibility. Module of the
// in-page engine.

import { S } from './state.js';

// fail throws an error the Go side tells by its code, not its text
// (engine.go engineError): selector (an invalid selector), not-found,
// stale (a ref whose element is gone) or input (a bad option).
/**
 * @param {'selector' | 'not-found' | 'stale' | 'input'} code
 * @param {string} message
 * @returns {never}
 */
export function fail(code, message) {
  const e = new Error(message);
  e.name = 'cdpSkill.' + code;
  throw e;
}

// cache holds memoization (roles, names, styles, visibility…) for one
// engine call: the page changes between calls. Like Playwright's
// beginAriaCaches/endAriaCaches, every entry point runs between
// beginCaches and endCaches (withCaches, applied to each entry point by
// the bundle's installer, and to the engine's own timer and observer
// callbacks); a nested call shares its caller's caches, and outside a
// call nothing is cached (noCache).
const noMap = { get() {}, set() {}, delete() {} };
// noMap stands in for each Map of a CallCache (types.d.ts): a miss always.
const noCache = /** @type {CallCache} */ (/** @type {unknown} */ ({ role: noMap, style: noMap, name: noMap, hidden: noMap, nth: noMap, pseudo: noMap, labels: noMap, ariaDisabled: noMap }));
export let cache = noCache;
let cacheDepth = 0;

/** @returns {CallCache} */
function newCache() {
  return { role: new Map(), style: new Map(), name: new Map(), hidden: new Map(), nth: new Map(), pseudo: new Map(), labels: new Map(), ariaDisabled: new Map() };
}

function beginCaches() {
  if (cacheDepth++ === 0) cache = newCache();
}

function endCaches() {
  if (--cacheDepth === 0) cache = noCache;
}

// withCaches returns fn bracketed by beginCaches and endCaches.
export function withCaches(fn) {
  return function (...args) {
    beginCaches();
    try {
      return fn.apply(this, args);
    } finally {
      endCaches();
    }
  };
}

export function styleOf(el) {
  let s = cache.style.get(el);
  if (!s) {
    const view = el.ownerDocument.defaultView || window;
    s = view.getComputedStyle(el);
    cache.style.set(el, s);
  }
  return s;
}

export function parentElementComposed(el) {
  if (el.assignedSlot) return el.assignedSlot;
  const p = el.parentNode;
  if (!p) return null;
  if (p.nodeType === 11 && p.host) return p.host;
  return p.nodeType === 1 ? p : null;
}

// childNodesComposed returns the children of node in the flat tree: a host's
// shadow root children (when piercing), a slot's assigned nodes (or its
// fallback content), otherwise the light children.
// shadowRootOf returns an element's open shadow root, or a closed one that
// cdp-skill registered through CDP (see closed.go).
export function shadowRootOf(el) {
  return el.shadowRoot || S.closedRoots.get(el) || null;
}

// SHADOW_ROOTS_MAX bounds the shadow roots the engine remembers.
const SHADOW_ROOTS_MAX = 500;

export function childNodesComposed(node, pierce) {
  if (node.nodeType === 1) {
    const sr = pierce && shadowRootOf(node);
    if (sr) return sr.childNodes;
    if (node.localName === 'slot' && pierce) {
      const assigned = node.assignedNodes({ flatten: true });
      return assigned.length ? assigned : node.childNodes;
    }
  }
  return node.childNodes;
}

// forEachChildComposed calls fn for each flat-tree child of node; the plain
// case walks siblings, which is much faster than iterating a NodeList.
export function forEachChildComposed(node, pierce, fn) {
  const sr = node.nodeType === 1 && pierce ? shadowRootOf(node) : null;
  if (sr && S.shadowRoots && S.shadowRoots.size < SHADOW_ROOTS_MAX) S.shadowRoots.add(sr);
  if (node.nodeType === 1 && pierce && (node.localName === 'slot' || sr)) {
    for (const c of childNodesComposed(node, pierce)) if (fn(c) === false) return;
    return;
  }
  for (let c = node.firstChild; c; c = c.nextSibling) if (fn(c) === false) return;
}

// isRenderedHidden: display none (element and subtree gone). Elements in a
// display:none ancestor never reach this check because the walk prunes.
export function isDisplayNone(el) {
  const s = styleOf(el);
  return s.display === 'none';
}

// hiddenForAT reports whether el is excluded from the accessibility tree:
// display none, aria-hidden, inert, visibility hidden, or inside an element
// whose content is skipped (content-visibility: hidden, hidden=until-found).
export function hiddenForAT(el) {
  let h = cache.hidden.get(el);
  if (h !== undefined) return h;
  h = false;
  for (let e = el; e; e = parentElementComposed(e)) {
    if (e !== el) {
      const c = cache.hidden.get(e);
      if (c === false) break;
    }
    if (e.getAttribute('aria-hidden') === 'true' || e.hasAttribute('inert') || inClosedDetails(e)) { h = true; break; }
    const s = styleOf(e);
    if (s.display === 'none') { h = true; break; }
    if (e === el && (s.visibility === 'hidden' || s.visibility === 'collapse')) { h = true; break; }
    if (e !== el && s.contentVisibility === 'hidden') { h = true; break; }
  }
  cache.hidden.set(el, h);
  return h;
}

// inClosedDetails: the content of a closed <details> (all but its summary)
// is not rendered, though its own computed display says otherwise.
export function inClosedDetails(el) {
  const p = el.parentElement;
  return !!p && p.tagName === 'DETAILS' && !p.open && !(el.tagName === 'SUMMARY' && p.querySelector(':scope > summary') === el);
}

// onlyVisibilityHidden reports an element hidden by visibility alone: its
// visible descendants still show.
export function onlyVisibilityHidden(el) {
  const s = styleOf(el);
  if (s.visibility !== 'hidden' && s.visibility !== 'collapse') return false;
  cache.hidden.delete(el);
  for (let e = el; e; e = parentElementComposed(e)) {
    if (e.getAttribute('aria-hidden') === 'true' || e.hasAttribute('inert')) return false;
    const st = styleOf(e);
    if (st.display === 'none' || (e !== el && st.contentVisibility === 'hidden')) return false;
  }
  return true;
}

export function isVisibleBox(el) {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

export function inViewport(r) {
  return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth && (r.width > 0 || r.height > 0);
}

export function normalizeSpace(s) {
  return s.replace(/\s+/g, " ").trim();
}

// clip normalizes whitespace and truncates, without normalizing more of a
// long text than it keeps.
export function clip(s, n) {
  const start = s.search(/[^\s\u00a0]/);
  if (start < 0) return '';
  if (s.length - start > 3 * n) {
    const t = normalizeSpace(s.slice(start, start + 3 * n));
    return t.length > n ? truncate(t, n) : truncate(t + ' …', n);
  }
  return truncate(normalizeSpace(s), n);
}

export function truncate(s, n) {
  if (s.length <= n) return s;
  return s.slice(0, n - 1).trimEnd() + '…';
}

// isBlock reports whether el's text is set apart by spaces in names: only
// display:inline (and contents) join their neighbours, as in Chromium.
export function isBlock(el) {
  if (el.tagName === 'BR') return true;
  const s = styleOf(el);
  const d = s.display;
  if (d !== 'inline' && d !== 'contents') return true;
  return s.position === 'absolute' || s.position === 'fixed' || s.cssFloat !== 'none';
}

// cssSelector builds a selector for el within its root (document or shadow
// root): its id when it has one, else a tag:nth-of-type path from the nearest
// ancestor with an id. It avoids querySelectorAll so refs stay cheap.
export function cssSelector(el) {
  const root = el.getRootNode();
  const byId = (e) => e.id && root.getElementById && root.getElementById(e.id) === e;
  const parts = [];
  for (let e = el; e && e.nodeType === 1;) {
    if (byId(e)) {
      parts.unshift('#' + CSS.escape(e.id));
      break;
    }
    const container = e.parentNode;
    let part = e.localName;
    if (container && container.firstElementChild) {
      const [idx, n] = nthOfType(container, e);
      if (n > 1) part += ':nth-of-type(' + idx + ')';
    }
    parts.unshift(part);
    if (!container || container.nodeType !== 1) break;
    e = container;
  }
  return parts.join(' > ');
}

// nthOfType returns [index, count] of el among its container's children of
// the same tag; it indexes each container once per call, so selectors for
// many siblings stay linear.
function nthOfType(container, el) {
  let idx = cache.nth.get(container);
  if (!idx) {
    idx = new Map();
    const counts = new Map();
    for (let c = container.firstElementChild; c; c = c.nextElementSibling) {
      const n = (counts.get(c.localName) || 0) + 1;
      counts.set(c.localName, n);
      idx.set(c, n);
    }
    idx.counts = counts;
    cache.nth.set(container, idx);
  }
  return [idx.get(el), idx.counts.get(el.localName)];
}

// shadowHostPath lists the selectors of the shadow hosts above el.
export function shadowHostPath(el) {
  const path = [];
  for (let root = el.getRootNode(); root && root.host; root = root.host.getRootNode()) {
    path.unshift(cssSelector(root.host));
  }
  return path;
}

export function boxOf(r) {
  return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
}

export function composedContains(ancestor, node) {
  for (let n = node; n; n = n.parentNode || n.host) {
    if (n === ancestor) return true;
    if (n.assignedSlot && composedContains(ancestor, n.assignedSlot)) return true;
  }
  return false;
}

// deepElementFromPoint follows shadow roots down to the innermost element.
export function deepElementFromPoint(x, y) {
  let el = document.elementFromPoint(x, y);
  while (el) {
    const sr = shadowRootOf(el);
    if (!sr || !sr.elementFromPoint) break;
    const inner = sr.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

// shortSelector is a readable selector for messages: tag#id.class.
export function shortSelector(el) {
  let s = el.localName;
  if (el.id) return s + '#' + CSS.escape(el.id);
  if (typeof el.className === 'string' && el.className.trim()) s += '.' + el.className.trim().split(/\s+/).slice(0, 2).map((c) => CSS.escape(c)).join('.');
  return s;
}

export function hiddenWhy(el) {
  for (let e = el; e; e = parentElementComposed(e)) {
    if (e.getAttribute('aria-hidden') === 'true') return 'aria-hidden on ' + shortSelector(e);
    const s = styleOf(e);
    if (s.display === 'none') return 'display: none on ' + shortSelector(e);
    if (e === el && s.visibility !== 'visible') return 'visibility: ' + s.visibility;
  }
  return 'not rendered';
}

export function isShown(el) {
  if (!el.isConnected || hiddenForAT(el)) return false;
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0) return true;
  // display: contents has no box of its own (a layout wrapper, a custom
  // element's host): what it holds shows it.
  if (el.nodeType !== 1 || getComputedStyle(el).display !== 'contents') return false;
  const range = document.createRange();
  range.selectNodeContents(el);
  const c = range.getBoundingClientRect();
  return c.width > 0 && c.height > 0;
}
