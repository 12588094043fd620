// api.js — snapshot, search, describe and the engine's bookkeeping entry
// points (refs, frame slots, closed roots). Module of the in-page engine.

import { S } from './state.js';
import { hiddenForAT, normalizeSpace, truncate } from './dom.js';
import { INTERACTIVE, TEXT_LEVEL } from './roles.js';
import {
  findRoot, finishNode, interactiveOnly, newBuild, otherLandmarks, quote, render, renderScoped, scopeHeader, scopeToChange, stateText, summarize, walkChildren, walkElement
} from './snapshot.js';
import { effectiveRole, refFor, refName, syncSeq } from './refs.js';
import { scanNeeded } from './domversion.js';

function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

// buildNodes builds the tree under the snapshot root and the scope header.
function buildNodes(opts, b) {
  let root, header = '';
  if (opts.root) {
    root = findRoot(opts.root);
  } else {
    const main = document.querySelector('main,[role=main]');
    if (main && !hiddenForAT(main)) {
      root = main;
      const others = otherLandmarks(main);
      if (others.length) header = '# scoped to main; also on the page: ' + others.join(', ') + ' (root: "body" shows all)';
    } else {
      root = document.body || document.documentElement;
    }
  }
  const top = { role: 'fragment', st: {}, children: [] };
  if (root === document.body || root === document.documentElement) walkChildren(root, 0, top.children, b, true);
  else walkElement(root, 0, top.children, b);
  finishNode(top, b);
  const nodes = top.inline !== undefined ? [{ text: top.inline }] : top.children;
  return { nodes, header };
}

// unloadedFrame reports whether an iframe still shows its initial empty
// document: its navigation has not committed (a slow server, a lazy frame
// not reached yet) or it has no source. Such a frame has nothing to show
// and, often, no JavaScript context to ask.
function unloadedFrame(el) {
  let d = null;
  try { d = el.contentDocument; } catch (e) { d = null; }
  if (!d || d.URL !== 'about:blank') return false;
  return !d.body || !d.body.firstChild;
}

// pageState is the part of the snapshot hash that the tree does not show.
function pageState() {
  const se = document.scrollingElement || document.documentElement;
  return [location.href, Math.round(se ? se.scrollLeft : 0), Math.round(se ? se.scrollTop : 0),
    document.getElementsByTagName('*').length].join('|');
}

// snapshot renders the page (see snapshot.js). opts.internal snapshots do
// not take a new snapshot id.
/**
 * @param {SnapshotOpts} opts
 * @returns {SnapshotResult}
 */
export function snapshot(opts) {
  // The click listener scan must run first (listeners.go): say so
  // before anything is taken.
  const rescan = scanNeeded(opts.scanAt);
  if (rescan) return { rescan, seq: null };
  syncSeq(opts.seq);
  S.closedCandidates = [];
  // A new snapshot takes the number the Go side reserved for it (one
  // more than the seq it passes), whatever number this document was
  // seeded with.
  const snapId = opts.internal ? Math.max(S.snapSeq, 1) : (opts.seq ? opts.seq.snap : S.snapSeq) + 1;
  const b = newBuild(opts, snapId);
  let { nodes, header } = buildNodes(opts, b);
  if (opts.scope) {
    // The answer's viewport snapshot: main and what the command changed.
    const main = document.querySelector('main,[role=main]');
    const left = [];
    const scoped = main && !hiddenForAT(main) ? scopeToChange(nodes, main, opts.scope, left) : null;
    if (scoped) {
      nodes = scoped;
      header = scopeHeader(left);
    }
  }
  const shown = opts.detail === 'interactive' ? interactiveOnly(nodes) : nodes;
  const lines = [];
  if (header && !opts.noHeader) lines.push(header);
  renderScoped(!!opts.scope, () => {
    if (opts.detail === 'summary') summarize(shown, lines);
    else render(shown, 0, lines);
  });
  const yaml = lines.join('\n');
  // The change hash covers what the spec's does (§7.5): URL, scroll
  // position and DOM size, besides the rendered tree, so a scroll is a
  // change even when the full tree renders the same.
  const hash = opts.internal && !opts.since ? '' : fnv1a(pageState() + '\n' + yaml);
  // A page with frames is never "unchanged": the hash cannot see them.
  if (opts.since && !b.slots.length && S.hashes.get(opts.since) === hash) {
    return { unchanged: true, snapshotId: opts.since, seq: { snap: S.snapSeq, elem: S.elemSeq } };
  }
  /** @type {SnapshotResult} */
  const out = { yaml, refs: b.flat.length, truncated: b.truncated, seq: null };
  if (!opts.internal) {
    S.snapSeq = snapId;
    S.hashes.set('s' + snapId, hash);
    out.snapshotId = 's' + snapId;
  }
  if (S.closedCandidates.length) out.closedCandidates = S.closedCandidates.length;
  if (b.slots.length) {
    // The iframe elements of the frame markers, for the Go side to map
    // to frames (see takeSlots).
    S.slots[opts.slotKey || 'snapshot'] = b.slots;
    out.frames = b.slots.length;
    out.unloaded = b.slots.map(unloadedFrame);
    out.hash = hash;
  }
  if (opts.internal) out.url = location.href;
  // The refs map (ref → role, name) of a snapshot with many refs: the
  // YAML folds list items and rows onto one line, where an element cannot
  // be told from text, so the map comes from the build (§7.6). A frame's
  // part, and a document with frames, give theirs whatever their count:
  // only the total decides.
  const rm = opts.refsMapAbove;
  if (rm > 0 && (b.flat.length > rm || b.slots.length || opts.internal)) {
    out.refsMap = {};
    for (const n of b.flat) out.refsMap[n.ref] = [n.role, n.name || ''];
  }
  if (opts.elements) {
    out.elements = b.flat.map((n) => ({ ref: n.ref, role: n.role, name: n.name || n.inline || '', st: n.st, value: n.value }));
  }
  out.seq = { snap: S.snapSeq, elem: S.elemSeq };
  return out;
}

// search finds nodes by text, pattern, role and position.
export function search(opts) {
  syncSeq(opts.seq);
  const b = newBuild({ ...opts, root: undefined, viewportOnly: false }, Math.max(S.snapSeq, 1));
  b.textLimit = 1000;
  const { nodes } = buildNodes({ root: opts.root || 'body' }, b);
  const limit = opts.limit > 0 ? opts.limit : 10;
  const depth = opts.context >= 0 ? opts.context : 2;
  let re = null;
  if (opts.pattern) re = new RegExp(opts.pattern, 'i');
  // Names keep NBSP as Chromium does; matching treats it as a space.
  const plain = (s) => s.replace(/\u00a0/g, ' ');
  const text = plain(opts.text || '').toLowerCase();
  const matches = [];
  const matched = new Set();
  let searched = 0, total = 0;
  const textHit = (hay, exactParts) => {
    if (!text) return true;
    return opts.exact ? exactParts.some((s) => plain(s).toLowerCase() === text) : plain(hay).toLowerCase().includes(text);
  };
  // record adds node n as a match (once): with a ref, so the agent can act
  // on it, and, for a container, the controls inside it.
  const record = (n, path, why, anc) => {
    if (matched.has(n.el || n)) return;
    let box = null;
    if (n.el && n.el.getBoundingClientRect) {
      const r = n.el.getBoundingClientRect();
      box = { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
      if (opts.near) {
        const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
        if (Math.hypot(cx - opts.near.x, cy - opts.near.y) > (opts.near.radius || 100)) return;
      }
    }
    matched.add(n.el || n);
    total++;
    if (matches.length >= limit) return;
    const name = n.name || '';
    const m = { role: n.role };
    if (name) m.name = name;
    const ref = n.ref || (n.el && n.el.nodeType === 1 ? refFor(n.el, n.role, refName(n.el, n.role), Math.max(S.snapSeq, 1)) : '');
    if (ref) m.ref = ref;
    if (n.value !== undefined) m.value = n.value;
    else if (why !== undefined) m.text = truncate(why, 200);
    else if (n.inline !== undefined && n.inline !== name) m.text = n.inline;
    const st = stateText(n.st || {}).trim();
    if (st) m.states = st;
    if (path.length && depth > 0) m.path = path.slice(-depth).join(' > ');
    if (box) m.box = box;
    // A match inside a feed item, card or row lists the item's controls
    // (its Like button, its row's Edit link); else its own.
    let controls = [];
    const item = anc ? [...anc].reverse().find((a) => ITEM_ROLES.has(a.role)) : null;
    if (item) {
      controls = controlsIn(item, m.ref);
      if (controls.length) m.within = item.role + (item.name ? ' ' + quote(truncate(item.name, 40)) : '');
      // A cell's row reads as the snapshot's row line: the match's
      // neighbours (an order's total next to its number).
      if (item.role === 'row' && item.el && item !== n) {
        const cells = item.el.cells ? [...item.el.cells] : [...item.el.children];
        const row = cells.map((c) => normalizeSpace(c.innerText || c.textContent || '')).join(' | ');
        if (row) m.row = truncate(row, 200);
      }
    }
    if (!controls.length) controls = controlsIn(n, m.ref);
    if (controls.length) m.controls = controls;
    matches.push(m);
  };
  const visit = (list, path, anc, parentPath) => {
    const parent = anc.length ? anc[anc.length - 1] : null;
    for (const n of list) {
      if (n.text !== undefined) {
        // Text the snapshot shows as its own line ("- text: …", a
        // paragraph's words) matches too: the match is the element
        // that holds it, as the snapshot shows it.
        if (!parent) continue;
        const t = String(n.text);
        if (!textHit(t, [t]) || (re && !re.test(plain(t)))) continue;
        // The element that holds the words (a card among cards whose texts
        // the snapshot joins on one line), else the snapshot's parent.
        const hit = (s) => (text ? plain(s).toLowerCase().includes(text) : re.test(plain(s)));
        const el = parent.el && parent.el.nodeType === 1 ? deepestWith(parent.el, hit) : null;
        if (el && el !== parent.el) {
          const role = effectiveRole(el) || 'generic';
          if (!opts.role || role === opts.role) record({ el, role, children: [] }, path, truncate(normalizeSpace(el.textContent || ''), 200), anc);
        } else if (!opts.role || parent.role === opts.role) {
          record(parent, parentPath, t, anc.slice(0, -1));
        }
        continue;
      }
      searched++;
      const name = n.name || '';
      // The searched texts: name, value and inline text, each once and
      // without padding, so an anchored pattern (^Press Me$) can match one
      // of them whole or the texts joined by single spaces.
      const parts = [...new Set([name, n.value == null ? '' : String(n.value), n.inline || ''].filter((s) => s !== '').map(plain))];
      const hay = parts.join(' ');
      let ok = true;
      if (opts.role && n.role !== opts.role) ok = false;
      if (ok && text) ok = textHit(hay, [name, n.inline || '']);
      if (ok && re) ok = parts.some((s) => re.test(s)) || re.test(hay);
      if (ok) record(n, path, undefined, anc);
      const label = n.role + (name ? ' ' + quote(truncate(name, 40)) : '');
      const inner = TEXT_LEVEL.has(n.role) ? path : path.concat(label);
      visit(n.children, inner, anc.concat(n), path);
    }
  };
  visit(nodes, [], [], []);
  return { matches, matchCount: total, searchedElements: searched, seq: { snap: S.snapSeq, elem: S.elemSeq } };
}

// deepestWith is the innermost element under root whose text satisfies
// hit (root itself when no child's does).
function deepestWith(root, hit) {
  let el = root;
  for (;;) {
    let next = null;
    for (const c of el.children) {
      if (!hiddenForAT(c) && hit(normalizeSpace(c.textContent || ''))) {
        next = c;
        break;
      }
    }
    if (!next) return el;
    el = next;
  }
}

// ITEM_ROLES are the containers whose controls a match inside them
// lists.
const ITEM_ROLES = new Set(['article', 'listitem', 'row', 'group', 'dialog', 'form', 'region', 'option', 'treeitem']);

// controlsIn lists the controls inside a matched container, as snapshot
// lines with refs (a feed item's Like and Share buttons): what an agent
// that searched for the item acts on next.
function controlsIn(n, own) {
  const out = [];
  const walk = (list) => {
    for (const c of list || []) {
      if (out.length >= 6) return;
      if (c.text === undefined && c.ref && c.ref !== own && INTERACTIVE.has(c.role)) {
        out.push(c.role + (c.name ? ' ' + quote(truncate(c.name, 40)) : '') + ' [ref=' + c.ref + ']');
      }
      if (c.children) walk(c.children);
    }
  };
  walk(n.children);
  return out;
}


// ref gives el a ref (used by elementsAt, role queries).
export function ref(el, seq) {
  syncSeq(seq);
  const role = effectiveRole(el);
  const existing = S.byEl.get(el);
  const r = refFor(el, role, refName(el, role), Math.max(S.snapSeq, 1));
  return { ref: r, existing: !!existing && existing === r, seq: { snap: S.snapSeq, elem: S.elemSeq } };
}

// frameHash reads, or sets, the hash of a snapshot with frames spliced in
// (by the Go side, which sees the frames): "since" compares against it.
export function frameHash(id, set) {
  if (set) S.frameHashes.set(id, set);
  return S.frameHashes.get(id) || '';
}

// takeSlots hands over the iframe elements a snapshot marked (by slot).
export function takeSlots(key) {
  const list = S.slots[key] || [];
  delete S.slots[key];
  return list;
}

// frameURL is the document's URL, for the frame lines of snapshots.
export function frameURL() {
  return location.href;
}

export function resetRefs() {
  S.refs = new Map();
  S.byEl = new WeakMap();
  return true;
}

// takeClosedCandidates hands the custom elements that may hide a closed
// shadow root to the Go side, which resolves them through CDP.
export function takeClosedCandidates() {
  const list = S.closedCandidates;
  S.closedCandidates = [];
  for (const el of list) S.checkedHosts.add(el);
  return list;
}

export function registerClosedRoot(host, root) {
  S.closedRoots.set(host, root);
  return true;
}

// seedSeq starts a new document's counters at its own snapshot number
// (engine.go installEngine).
export function seedSeq(snap, elem) {
  syncSeq({ snap, elem });
  return true;
}
