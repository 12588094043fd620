// capture.js — the page state every answer carries, the post-command
// snapshots, and failure diagnostics. Module of the in-page engine.

import { S } from './state.js';
import { boxOf, hiddenForAT, isShown, normalizeSpace, shortSelector, truncate, withCaches } from './dom.js';
import { MASK, accessibleName, byIdInRoot, deepActiveElement, isSecretField } from './names.js';
import { allShadowRoots, effectiveRole, refFor, refName } from './refs.js';
import { snapshot } from './api.js';
import { textOf } from './find.js';
import { changeWatch, stepLogEnd, stepLogPeek, stepLogTake } from './changes.js';
import { hiddenMatch } from './hidden.js';
import { cutNotes } from './cutoff.js';
import { replacingWidget } from './replaced.js';
import { editProblem } from './editable.js';
import { scanNeeded } from './domversion.js';

function activeElementInfo() {
  const a = deepActiveElement();
  if (!a || a === document.body || a === document.documentElement) return null;
  const r = a.getBoundingClientRect();
  const role = effectiveRole(a);
  const out = { tag: a.tagName.toLowerCase(), role, selector: shortSelector(a), box: boxOf(r) };
  const name = accessibleName(a);
  if (name) out.name = truncate(name, 60);
  const ref = S.byEl.get(a);
  if (ref) out.ref = ref;
  out.editable = !editProblem(a);
  if (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA' || a.tagName === 'SELECT') {
    const f = /** @type {HTMLInputElement} */ (a);
    out.type = f.type;
    // A password's value is masked (it is never sent), an empty one shown.
    out.value = isSecretField(a) ? (f.value ? MASK : '') : truncate(f.value, 100);
    if (f.placeholder) out.placeholder = f.placeholder;
  }
  return out;
}

function modalInfo() {
  const cands = document.querySelectorAll('dialog[open],[role=dialog][aria-modal=true],[role=alertdialog]');
  for (const d of cands) {
    if (!isShown(d)) continue;
    let title = d.getAttribute('aria-label') || '';
    if (!title) {
      const lb = d.getAttribute('aria-labelledby');
      if (lb) title = lb.split(/\s+/).map((id) => { const e = byIdInRoot(d, id); return e ? e.textContent : ''; }).join(' ');
    }
    if (!title) {
      const h = d.querySelector('h1,h2,h3,h4,h5,h6,[role=heading]');
      if (h) title = h.textContent;
    }
    const out = { title: truncate(normalizeSpace(title), 80) || 'Dialog' };
    if (d.tagName === 'DIALOG') out.modal = d.matches(':modal');
    return out;
  }
  return null;
}

// context is the page state of spec §14.4.
export function context() {
  const se = document.scrollingElement || document.documentElement;
  const max = Math.max(0, (se ? se.scrollHeight : 0) - innerHeight);
  const y = Math.round(scrollY);
  const out = {
    url: location.href,
    title: document.title,
    scroll: { y, percent: max > 0 ? Math.min(100, Math.round(y * 100 / max)) : 0 },
    viewport: { width: innerWidth, height: innerHeight },
    // Which document this is: a reload keeps the URL, not this.
    doc: performance.timeOrigin,
  };
  const a = activeElementInfo();
  if (a) out.activeElement = a;
  const m = modalInfo();
  if (m) out.modal = m;
  return out;
}

// postCapture renders, in one call, what every answer carries: the
// context, the viewport snapshot (with its elements, for the diff) and,
// when asked, the full-page snapshot.
// hoverScope is the part of the page under the pointer that a hover can
// open: the container of the deepest hovered element (the menu item that
// holds both the link and its :hover submenu). Nothing inside main,
// which the view shows anyway.
function hoverScope() {
  const chain = document.querySelectorAll(':hover');
  const deepest = chain[chain.length - 1];
  const box = deepest && deepest.parentElement;
  if (!box || box === document.body || box === document.documentElement || box.closest('main,[role=main]')) return [];
  return [box];
}

export function postCapture(opts) {
  // The click listener scan must run first (listeners.go): say so
  // before the change log is taken.
  const rescan = scanNeeded(opts.scanAt);
  if (rescan) return { rescan };
  const out = {};
  // What the command's actions changed (changes.js); taking it ends the
  // log, so the capture before a command starts it afresh. A capture taken
  // ahead only reads it (captureAfter).
  let log = opts.peekLog ? stepLogPeek() : stepLogTake();
  // A log no action in this document made its own (the baseline's)
  // says only what an action in a frame did here; it knows nothing of
  // what else is fresh.
  if (log.other === 'page') log = opts.frameActed ? { ...log, none: true } : { changed: [], text: [], transient: [], none: true };
  if (opts.viewport) {
    const scope = opts.scope ? (opts.hovered ? log.changed.concat(hoverScope()) : log.changed) : undefined;
    out.viewport = snapshot({ viewportOnly: true, internal: true, elements: true, noHeader: !scope, scope, seq: opts.seq, root: 'body', slotKey: 'viewport' });
    // What the viewport shows part of says how much more there is (only
    // in the capture an answer prints, not in a diff's baseline).
    if (opts.scope && out.viewport && typeof out.viewport.yaml === 'string') {
      const notes = cutNotes();
      if (notes.length) out.viewport.yaml += '\n' + notes.join('\n');
    }
  }
  if (log.text.length) out.text = log.text;
  if (log.transient.length) out.transient = log.transient;
  if (opts.viewport && opts.scope && !log.none && !log.full) out.fresh = freshRefs(out.viewport.elements || [], log.changed);
  if (opts.present) out.present = presentRefs(opts.present);
  if (opts.full) out.full = snapshot({ internal: true, root: 'body', seq: opts.seq, slotKey: 'full' });
  out.context = context();
  out.seq = { snap: S.snapSeq, elem: S.elemSeq };
  // A diff's baseline starts the log, so what an action in a frame does
  // to the page around it is seen (a coupon applied in a frame, the
  // page's toast and total); an action in the page makes it its own.
  if (opts.baseline && !opts.peekLog) changeWatch('page');
  return out;
}

// frameCapture is a frame's part of a command's viewport capture: its
// snapshot and its change log, which the top document's does not see
// into. The diff's baseline starts the log (changeLog 'start'), so what
// the command changes in a frame no action ran in is logged too (a
// payment frame's "card number incomplete" after the page's Pay button);
// the capture after the command takes it (changeLog 'take'): its text
// news, and the frame's refs inside what changed (all of them when the
// log overflowed).
export function frameCapture(opts) {
  const rescan = scanNeeded(opts.scanAt);
  if (rescan) return { rescan, seq: null };
  const log = opts.changeLog === 'take' ? stepLogTake() : null;
  const out = snapshot(opts);
  if (opts.changeLog === 'start') {
    stepLogEnd();
    changeWatch('frame');
  } else if (log && !log.none) {
    const elements = out.elements || [];
    out.news = { text: log.text, transient: log.transient, fresh: log.full ? elements.map((e) => e.ref) : freshRefs(elements, log.changed) };
  }
  return out;
}

// ---- failure diagnostics (spec §16.3) ----

function visibleList(sel, limit, map) {
  const out = [];
  for (const root of [document, ...allShadowRoots(document, [])]) {
    for (const el of root.querySelectorAll(sel)) {
      if (out.length >= limit) return out;
      if (!isShown(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.bottom < 0 || r.top > innerHeight) continue;
      const v = map(el);
      if (v) out.push(v);
    }
  }
  return out;
}

function refOrNew(el) {
  const role = effectiveRole(el);
  return refFor(el, role, refName(el, role), Math.max(S.snapSeq, 1));
}

// nearScore scores how close an element's text is to the query (0–100).
function nearScore(text, query) {
  const t = normalizeSpace(text).toLowerCase(), q = normalizeSpace(query).toLowerCase();
  if (!t || !q) return 0;
  if (t === q) return 100;
  // A typo ("Submit ordr" for "Submit order") is close: score by edit
  // distance when the texts are similar enough.
  if (q.length >= 4 && t.length <= 80 && Math.abs(t.length - q.length) <= Math.max(2, q.length / 4)) {
    const sim = 1 - editDistance(t, q) / Math.max(t.length, q.length);
    if (sim >= 0.8) return Math.min(95, Math.round(sim * 100));
  }
  if (t.includes(q)) return 80;
  if (t.length > 2 && q.includes(t)) return 70;
  const words = q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2);
  if (words.some((w) => t.includes(w))) return 50;
  return 0;
}

function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

// queryWords turns a CSS selector into words to search for: "#submit-btn"
// → "submit btn".
function queryWords(q) {
  if (!/[#.\[\]>:=]/.test(q)) return q;
  return q.replace(/\[[^\]=]*=?["']?([^"'\]]*)["']?\]/g, ' $1 ').replace(/[#.>:+~()*]/g, ' ').replace(/[-_]/g, ' ').replace(/\b(div|span|button|input|a|li|ul|nth|of|type|child)\b/g, ' ');
}

const INTERACTIVE_SEL = 'button,a[href],input:not([type=hidden]),select,textarea,[role=button],[role=link],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=checkbox],[role=radio],[role=switch],[role=combobox],[role=listbox],[role=textbox],[role=searchbox],[role=slider],[role=spinbutton],[role=treeitem],summary,[onclick]';

export function diagnose(query) {
  const se = document.scrollingElement || document.documentElement;
  const maxY = Math.max(0, se.scrollHeight - innerHeight);
  const out = {
    title: document.title,
    url: location.href,
    scrollPosition: { x: Math.round(scrollX), y: Math.round(scrollY), maxY, percentY: maxY ? Math.round(scrollY * 100 / maxY) : 0 },
  };
  out.visibleButtons = visibleList('button,[role=button],input[type=submit],input[type=button]', 8, (el) => ({ text: truncate(textOf(el), 50), selector: shortSelector(el), ref: refOrNew(el) }));
  out.visibleLinks = visibleList('a[href]', 5, (el) => ({ text: truncate(textOf(el), 50), href: truncate(el.getAttribute('href'), 100), ref: refOrNew(el) }));
  out.visibleErrors = visibleList('.error,.alert,.warning,.message,[role=alert],[role=status],.toast,.notification,[aria-invalid=true]', 3, (el) => {
    const t = normalizeSpace(el.innerText || '');
    return t ? { text: truncate(t, 100), selector: shortSelector(el) } : null;
  });
  if (query) {
    const words = queryWords(query);
    const scored = [];
    for (const root of [document, ...allShadowRoots(document, [])]) {
      for (const el of root.querySelectorAll(INTERACTIVE_SEL)) {
        if (!isShown(el)) continue;
        // A <select> a widget stands in for is left out of the snapshot:
        // offering it here would send the agent to a control it cannot see.
        if (el.tagName === 'SELECT' && replacingWidget(el)) continue;
        const text = textOf(el);
        const score = Math.max(nearScore(text, query), words !== query ? nearScore(text, words) - 10 : 0);
        if (score >= 50) scored.push({ el, text, score });
      }
    }
    scored.sort((a, b) => b.score - a.score);
    out.nearMatches = scored.slice(0, 5).map((m) => ({ text: truncate(m.text, 50), selector: shortSelector(m.el), ref: refOrNew(m.el), score: m.score }));
    const hidden = hiddenMatch(query);
    if (hidden) out.hiddenMatch = hidden;
  }
  for (const k of ['visibleButtons', 'visibleLinks', 'visibleErrors', 'nearMatches']) if (out[k] && !out[k].length) delete out[k];
  out.seq = { snap: S.snapSeq, elem: S.elemSeq };
  return out;
}

// freshRefs lists the refs of viewport elements inside what the actions
// changed: the diff's "added" are those, not elements a scroll brought
// into view.
function freshRefs(elements, changed) {
  const out = [];
  for (const e of elements) {
    const entry = S.refs.get(e.ref);
    if (!entry) continue;
    for (const c of changed) {
      if (c === entry.el || c.contains(entry.el)) {
        out.push(e.ref);
        break;
      }
    }
  }
  return out;
}

// presentRefs lists the refs whose elements are still in the page and
// shown (out of the viewport or not): the diff's "removed" are the others.
export function presentRefs(refs) {
  const out = [];
  for (const r of refs) {
    const entry = S.refs.get(r);
    if (entry && entry.el.isConnected && !hiddenForAT(entry.el)) out.push(r);
  }
  return out;
}

// ---- the capture taken as the action settles ----

const AHEAD_MAX = 4000; // a settle that never signals: give up

// captureAfter is postCapture taken the moment the action's settle (the
// watch in the page's world, watchSettle) signals the event named
// signal, or when the caller fires it (captureAhead): it goes out with the
// settle, in the same round trip, instead of after its answer. It only
// reads the change log; null when nothing fired it in time.
export function captureAfter(signal, opts) {
  return new Promise((resolve) => {
    let timer = 0;
    const fire = () => {
      if (S.ahead !== ahead) return;
      S.ahead = null;
      document.removeEventListener(signal, fire, true);
      clearTimeout(timer);
      resolve(withCaches(postCapture)(Object.assign({}, opts, { peekLog: true })));
    };
    const ahead = { signal, fire };
    S.ahead = ahead;
    document.addEventListener(signal, fire, true);
    timer = setTimeout(() => {
      if (S.ahead !== ahead) return;
      S.ahead = null;
      document.removeEventListener(signal, fire, true);
      resolve(null);
    }, AHEAD_MAX);
  });
}

// captureAhead fires the capture captureAfter waits for, when the page
// kept the settle's event from it.
export function captureAhead(signal) {
  if (S.ahead && S.ahead.signal === signal) S.ahead.fire();
  return true;
}

// takeChangeText ends this document's change log and returns its text
// news: the capture of a frame an action ran in (the top document's
// capture reads only its own log).
export function takeChangeText() {
  const log = stepLogTake();
  return { text: log.text, transient: log.transient };
}

// captureLogEnd ends the change log that a capture taken ahead read.
export function captureLogEnd() {
  stepLogEnd();
  return true;
}
