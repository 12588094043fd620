// refs.js — resolving refs back to elements, re-resolving stale ones.
// Module of the in-page engine.

import { S } from './state.js';
import { cssSelector, hiddenForAT, normalizeSpace, shadowHostPath, shadowRootOf, truncate } from './dom.js';
import { roleOf } from './roles.js';
import { accessibleName } from './names.js';
import { flushLocators } from './snapshot.js';

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
export function resolve(ref) {
  flushLocators();
  const e = S.refs.get(ref);
  if (!e) return { status: 'unknown' };
  if (e.el.isConnected && !hiddenForAT(e.el) && effectiveRole(e.el) === e.role) {
    const now = refName(e.el, e.role);
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

function adopt(ref, e, el) {
  S.byEl.delete(e.el);
  e.el = el;
  e.selector = cssSelector(el);
  e.shadow = shadowHostPath(el);
  S.byEl.set(el, ref);
  return { el, status: 'reResolved' };
}
