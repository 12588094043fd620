// refs.js — the ref registry: giving elements refs, resolving refs back
// to elements, re-resolving stale ones.
// Module of the in-page engine.

import { S } from './state.js';
import { cssSelector, hiddenForAT, normalizeSpace, shadowHostPath, shadowRootOf, truncate, withCaches } from './dom.js';
import { roleOf } from './roles.js';
import { accessibleName, fullName } from './names.js';

export function normName(s) {
  return normalizeSpace(s || '').toLowerCase();
}

// effectiveRole is the role the snapshot shows for el.
export function effectiveRole(el) {
  let role = roleOf(el);
  if (el.isContentEditable && role === 'generic' && (!el.parentElement || !el.parentElement.isContentEditable)) return 'textbox';
  return role;
}

// refName is the name a ref is matched on: the accessible name, or the
// text of a clickable element or list item (a delegated list's entry)
// that has none.
export function refName(el, role) {
  const n = accessibleName(el);
  if (n || (role !== 'generic' && role !== 'listitem')) return n;
  return truncate(normalizeSpace(el.textContent || ''), 100);
}

function matchesEntry(el, e) {
  return !hiddenForAT(el) && effectiveRole(el) === e.role && normName(refName(el, e.role)) === normName(e.name);
}

// shadowRootFor walks the stored shadow host path; null when it breaks.
function shadowRootFor(path) {
  let root = document;
  for (const sel of path) {
    let host = null;
    try { host = root.querySelector(sel); } catch (e) { return null; }
    const sr = host && shadowRootOf(host);
    if (!sr) return null;
    root = sr;
  }
  return root;
}

export function allShadowRoots(root, out) {
  for (const el of root.querySelectorAll('*')) {
    const sr = shadowRootOf(el);
    if (sr) {
      out.push(sr);
      allShadowRoots(sr, out);
    }
  }
  return out;
}

// resolve returns {el, status} for a ref: ok (same element), reResolved (a
// replacement with the same role and name), or an error status: unknown,
// stale (nothing matches), ambiguous (several match).
/**
 * @param {string} ref
 * @returns {Resolved}
 */
export function resolve(ref) {
  flushLocators();
  const e = S.refs.get(ref);
  if (!e) return { status: 'unknown' };
  if (e.el.isConnected && !hiddenForAT(e.el) && effectiveRole(e.el) === e.role) {
    const now = refName(e.el, e.role);
    /** @type {Resolved} */
    const res = { el: e.el, status: 'ok' };
    if (normName(now) !== normName(e.name)) res.nameChanged = { from: e.name, to: now };
    return res;
  }
  const roots = [];
  const scoped = e.shadow.length ? shadowRootFor(e.shadow) : document;
  if (scoped) roots.push(scoped);
  // 1. The stored selector, in the stored shadow scope.
  if (scoped && e.selector) {
    let el = null;
    try { el = scoped.querySelector(e.selector); } catch (err) { el = null; }
    if (el && el !== e.el && matchesEntry(el, e)) return adopt(ref, e, el);
  }
  // 2. Role and name, in the scope, then (for shadow content) every root.
  if (!scoped || e.shadow.length) allShadowRoots(document, roots);
  const found = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll('*')) {
      if (el !== e.el && matchesEntry(el, e) && !found.includes(el)) found.push(el);
    }
    if (found.length && root === scoped) break;
  }
  if (found.length === 1) return adopt(ref, e, found[0]);
  return { status: found.length ? 'ambiguous' : 'stale', candidates: found.length, role: e.role, name: e.name };
}

/** @returns {Resolved} */
function adopt(ref, e, el) {
  S.byEl.delete(e.el);
  e.el = el;
  e.selector = cssSelector(el);
  e.shadow = shadowHostPath(el);
  S.byEl.set(el, ref);
  return { el, status: 'reResolved' };
}

// The selector and shadow path of a ref are only needed if its element
// goes stale, so they are computed after the answer has been sent (in a
// later task), keeping them off the snapshot's critical path. resolve()
// flushes whatever is still pending first.
const pendingLocators = [];

let locatorTimer = 0;

function deferLocator(entry) {
  pendingLocators.push(entry);
  if (!locatorTimer) locatorTimer = setTimeout(flushLocators, 0);
}

// flushLocators runs from a timer (in a cache bracket of its own) or
// inside an engine call (sharing its caches).
export const flushLocators = withCaches(function flushLocators() {
  if (locatorTimer) clearTimeout(locatorTimer);
  locatorTimer = 0;
  for (const e of pendingLocators.splice(0)) {
    if (e.selector !== null || !e.el.isConnected) continue;
    e.selector = cssSelector(e.el);
    e.shadow = shadowHostPath(e.el);
  }
});

// refFor returns the element's ref, keeping an existing one.
export function refFor(el, role, name, snapId) {
  let r = S.byEl.get(el);
  if (r) {
    const e = S.refs.get(r);
    if (e) {
      e.role = role;
      e.name = name;
      return r;
    }
  }
  r = 's' + snapId + 'e' + (++S.elemSeq);
  const entry = { el, role, name, selector: null, shadow: [] };
  S.refs.set(r, entry);
  S.byEl.set(el, r);
  deferLocator(entry);
  return r;
}

/** @param {Seq | null | undefined} seq */
export function syncSeq(seq) {
  if (!seq) return;
  if (seq.snap > S.snapSeq) S.snapSeq = seq.snap;
  if (seq.elem > S.elemSeq) S.elemSeq = seq.elem;
}

// describe returns the role and name the snapshot would show for el, and
// fullName, the name untrimmed as Chromium has it.
export function describe(el) {
  const role = effectiveRole(el);
  return { role, name: accessibleName(el), fullName: fullName(el) };
}
