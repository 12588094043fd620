// handover.js — the engine's side of a pageFunction's refs. Elements
// cross between the engine's world and the page's by backend node id
// (worldhandover.go): refElementList gives a pageFunction's refs as their
// elements in order (true: every live ref), with the refs in
// S.lastHandOver; the page's side is a channel named at random per call
// (pagechannel.go). refsOf answers the refs of elements a page-world value
// held (null for none).

import { S } from './state.js';
import { fail } from './dom.js';
import { resolve } from './refs.js';

// refElements maps refs to their elements for pageFunction({refs}): all
// live refs (true) or the listed ones (re-resolved like actions do).
export function refElements(list) {
  if (list === true) {
    const out = {};
    for (const [r, e] of S.refs) if (e.el.isConnected) out[r] = e.el;
    return out;
  }
  return list.map((r) => {
    const res = resolve(r);
    if (!res.el) fail('stale', 'ref ' + r + ' is ' + res.status + ' (its element is gone from the page)');
    return res.el;
  });
}

export function refElementList(list) {
  const found = refElements(list);
  const names = list === true ? Object.keys(found) : list.slice();
  S.lastHandOver = names;
  return list === true ? names.map((n) => found[n]) : found;
}

export function refsOf(els) {
  return els.map((el) => (el && S.byEl.get(el)) || null);
}

