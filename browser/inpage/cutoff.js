// cutoff.js — what the viewport snapshot leaves out of a list, table or
// feed it shows part of: a note per such container saying how many of its
// items are shown, how many are above or below, and the step that shows
// them all. The capture after a command appends the notes to its viewport
// snapshot (capture.js postCapture), so nothing is cut off silently.
// Module of the in-page engine.

import { isShown, normalizeSpace, truncate } from './dom.js';
import { accessibleName } from './names.js';
import { effectiveRole } from './refs.js';

const CONTAINERS = 'ul,ol,table,[role=list],[role=feed],[role=grid],[role=table],[role=treegrid],[role=listbox],[role=tree]';
const ITEM_ROLES = new Set(['listitem', 'row', 'article', 'option', 'treeitem']);
const MAX_NOTES = 3;

// cutNotes returns the notes (YAML comment lines) of the containers the
// viewport shows part of.
export function cutNotes() {
  const notes = [];
  const noted = [];
  for (const c of document.querySelectorAll(CONTAINERS)) {
    if (notes.length >= MAX_NOTES) break;
    if (noted.some((n) => n.contains(c)) || !isShown(c)) continue;
    const outer = clipRect(c);
    const r = c.getBoundingClientRect();
    if (r.bottom <= outer.top || r.top >= outer.bottom) continue;
    const items = itemsOf(c);
    if (items.length < 2) continue;
    // The container's own overflow cuts its items too (a scrolling list):
    // count what the snapshot lists, which leaves those out.
    const clip = getComputedStyle(c).overflowY === 'visible' ? outer
      : { top: Math.max(outer.top, r.top), bottom: Math.min(outer.bottom, r.bottom) };
    let shown = 0, above = 0, below = 0;
    for (const it of items) {
      const b = it.getBoundingClientRect();
      if (b.bottom <= clip.top) above++;
      else if (b.top >= clip.bottom) below++;
      else shown++;
    }
    if (!shown || (!above && !below)) continue;
    noted.push(c);
    notes.push(note(c, items.length, shown, above, below));
  }
  return notes;
}

// itemsOf lists a container's shown items: list items, table rows (of
// its bodies), feed articles, options.
function itemsOf(c) {
  const out = [];
  const add = (el) => { if (isShown(el)) out.push(el); };
  if (c.tagName === 'TABLE') {
    for (const body of c.tBodies.length ? c.tBodies : [c]) for (const row of body.rows || []) add(row);
    return out;
  }
  for (const ch of c.children) {
    const role = effectiveRole(ch);
    if (ITEM_ROLES.has(role) || ch.tagName === 'LI' || ch.tagName === 'ARTICLE') add(ch);
    else if (ch.getAttribute('role') === 'rowgroup') for (const row of ch.children) add(row);
  }
  return out;
}

// clipRect is the part of the viewport where c can be seen: the viewport
// cut by the ancestors that clip their overflow.
function clipRect(c) {
  let top = 0, bottom = innerHeight;
  for (let a = c.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflowY === 'visible') continue;
    const r = a.getBoundingClientRect();
    top = Math.max(top, r.top);
    bottom = Math.min(bottom, r.bottom);
  }
  return { top, bottom };
}

function note(c, total, shown, above, below) {
  const role = effectiveRole(c) || c.tagName.toLowerCase();
  const name = truncate(normalizeSpace(accessibleName(c) || ''), 40);
  const what = role === 'table' || role === 'grid' || role === 'treegrid' ? 'rows' : 'items';
  const where = [];
  if (above) where.push(above + ' above');
  if (below) where.push(below + ' below');
  const root = JSON.stringify({ snapshot: uniqueSelector(c) });
  return '# ' + role + (name ? ' ' + JSON.stringify(name) : '') + ': ' + shown + ' of ' + total + ' ' + what + ' shown, ' +
    where.join(', ') + ' — scroll, or ' + root + ' lists all';
}

// uniqueSelector is a CSS selector that matches c alone in its document.
function uniqueSelector(c) {
  const parts = [];
  for (let el = c; el && el.nodeType === 1; el = el.parentElement) {
    if (el.id) {
      parts.unshift('#' + CSS.escape(el.id));
      break;
    }
    let part = el.localName;
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter((c) => c !== '')[0] : '';
    if (cls) part += '.' + CSS.escape(cls);
    const parent = el.parentElement;
    if (parent && [...parent.children].filter((s) => s.matches(part)).length > 1) {
      part += ':nth-of-type(' + ([...parent.children].filter((s) => s.localName === el.localName).indexOf(el) + 1) + ')';
    }
    parts.unshift(part);
    const sel = parts.join(' > ');
    try { if (document.querySelectorAll(sel).length === 1) return sel; } catch (e) { /* keep climbing */ }
  }
  return parts.join(' > ');
}
