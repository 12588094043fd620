// gesture.js — hover capture, drag and scroll helpers. Module of the
// in-page engine.

import { S } from './state.js';
import { afterFrame, noteScroll } from './scrollpending.js';
import { composedContains, deepElementFromPoint, hiddenWhy, isShown, normalizeSpace, parentElementComposed, shortSelector, styleOf, truncate, withCaches } from './dom.js';
import { accessibleName } from './names.js';
import { effectiveRole, refFor, refName, syncSeq } from './refs.js';

// ---- hover ----

// Overlay-ish elements: what a hover typically reveals.
const OVERLAY_WORDS = ['menu', 'tooltip', 'popover', 'dropdown', 'flyout', 'popup'];
const OVERLAY_SELECTOR = ['[role=menu]', '[role=menubar]', '[role=tooltip]', '[role=listbox]', '[role=dialog]', '[role=alertdialog]', '[popover]', 'dialog']
  .concat(OVERLAY_WORDS.flatMap((w) => ['[class*="' + w + '" i]', '[id*="' + w + '" i]'])).join(',');
const HOVER_ITEMS = 'a[href],button,input,select,textarea,summary,[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=link],[role=button],[role=tab],[role=treeitem],[role=checkbox],[role=switch]';
const SCAN_LIMIT = 5000;
const HOVER_REPORT_LIMIT = 40;

// transparent reports an element faded out with opacity 0 (itself or an
// ancestor): a tooltip waiting to fade in is not visible yet.
function transparent(el) {
  for (let e = el; e && e !== document.documentElement; e = parentElementComposed(e)) {
    if (styleOf(e).opacity === '0') return true;
  }
  return false;
}

function visibleNow(el) {
  return isShown(el) && !transparent(el);
}

// hoverContainer is where a hover's own reveals happen: the hovered
// element's parent (a menu trigger and its submenu share one), but never the
// whole page.
function hoverContainer(el) {
  const parent = el && parentElementComposed(el);
  if (!parent || parent === document.body || parent === document.documentElement) return el;
  return parent;
}

// hoverCandidates lists the elements whose appearance a hover reports.
function hoverCandidates(container) {
  const out = new Set();
  let n = 0;
  for (const el of document.querySelectorAll(OVERLAY_SELECTOR)) {
    out.add(el);
    if (++n >= SCAN_LIMIT) return out;
  }
  if (container && container.isConnected) {
    for (const el of container.querySelectorAll('*')) {
      out.add(el);
      if (++n >= SCAN_LIMIT) break;
    }
  }
  return out;
}

// hoverPrepare records what is visible before the mouse moves; el is the
// hovered element, or null with a point (x, y) to hover.
export function hoverPrepare(el, pt) {
  if (!el && pt) el = deepElementFromPoint(pt.x, pt.y);
  const container = hoverContainer(el);
  const before = new Set();
  for (const c of hoverCandidates(container)) if (visibleNow(c)) before.add(c);
  S.hoverState = { el, container, before };
  return true;
}

function newlyShown(st) {
  const out = [];
  for (const c of hoverCandidates(st.container)) {
    if (!st.before.has(c) && c !== st.el && visibleNow(c)) out.push(c);
  }
  return out;
}

// hoverEntry describes an element for capturedResult, with a ref.
function hoverEntry(el) {
  const role = effectiveRole(el);
  const name = truncate(accessibleName(el), 80);
  const entry = { role, name, ref: refFor(el, role, refName(el, role), Math.max(S.snapSeq, 1)) };
  const text = truncate(normalizeSpace(el.innerText || el.textContent || ''), 100);
  if (text && text !== name) entry.text = text;
  return entry;
}

// hoverReport lists each revealed element (the outermost ones) followed by
// the visible items inside it that an agent may click next.
function hoverReport(appeared) {
  const set = new Set(appeared);
  const roots = appeared.filter((el) => {
    for (let p = parentElementComposed(el); p; p = parentElementComposed(p)) if (set.has(p)) return false;
    return true;
  });
  const out = [];
  const seen = new Set();
  const add = (el) => {
    if (seen.has(el) || out.length >= HOVER_REPORT_LIMIT) return;
    seen.add(el);
    out.push(hoverEntry(el));
  };
  for (const root of roots) {
    add(root);
    for (const item of root.querySelectorAll(HOVER_ITEMS)) if (visibleNow(item)) add(item);
  }
  return out;
}

// hoverCapture waits up to opts.wait ms for elements to appear after the
// hover (returning once what appeared holds still for one poll) and reports
// them with refs.
export function hoverCapture(opts) {
  syncSeq(opts.seq);
  const st = S.hoverState;
  S.hoverState = null;
  const done = (appeared) => {
    const visibleElements = st ? hoverReport(appeared) : [];
    return { visibleElements, seq: { snap: S.snapSeq, elem: S.elemSeq } };
  };
  if (!st) return done([]);
  const start = performance.now();
  return new Promise((resolve) => {
    let last = -1;
    // Each poll is a cache bracket of its own: the page changes between.
    const tick = withCaches(() => {
      const appeared = newlyShown(st);
      if ((appeared.length && appeared.length === last) || performance.now() - start >= opts.wait) {
        resolve(done(appeared));
        return;
      }
      last = appeared.length;
      setTimeout(tick, 50);
    });
    setTimeout(tick, 0);
  });
}

// ---- drag ----

// dragSource says what kind of drag source el is.
export function dragSource(el) {
  const range = el.tagName === 'INPUT' && (el.type || '').toLowerCase() === 'range';
  return { range, disabled: range && el.disabled };
}

// setRange moves a range input to a.value, or to the value under the point
// a.x/a.y on its track, through the native setter with input and change
// events (what frameworks observe).
export function setRange(el, a) {
  const r = el.getBoundingClientRect();
  let min = parseFloat(el.min), max = parseFloat(el.max);
  if (isNaN(min)) min = 0;
  if (isNaN(max)) max = 100;
  const vertical = r.height > r.width;
  let raw = a.value;
  if (raw === undefined || raw === null) {
    let ratio = vertical ? (r.bottom - a.y) / r.height : (a.x - r.left) / r.width;
    if (!vertical && styleOf(el).direction === 'rtl') ratio = 1 - ratio;
    ratio = Math.min(1, Math.max(0, ratio));
    raw = min + ratio * (max - min);
  }
  const old = el.value;
  const desc = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  desc.set.call(el, String(raw));
  const changed = el.value !== old;
  if (changed) {
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
  const ratio = max > min ? (parseFloat(el.value) - min) / (max - min) : 0;
  const at = vertical ? { x: r.left + r.width / 2, y: r.bottom - ratio * r.height } : { x: r.left + ratio * r.width, y: r.top + r.height / 2 };
  return { value: parseFloat(el.value), changed, x: Math.round(at.x), y: Math.round(at.y) };
}

// dragWatch starts recording what a pointer drag does to the page: whether
// a dragstart fired (and was not cancelled) and how many DOM mutations
// happened. dragReport reads and stops it.
export function dragWatch() {
  if (S.dragState) S.dragState.stop();
  const st = { dragstart: null, mutations: 0 };
  const onDragStart = (ev) => { st.dragstart = ev; };
  window.addEventListener('dragstart', onDragStart, true);
  const obs = new MutationObserver((list) => { st.mutations += list.length; });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  st.stop = () => {
    window.removeEventListener('dragstart', onDragStart, true);
    st.mutations += obs.takeRecords().length;
    obs.disconnect();
    S.dragState = null;
  };
  S.dragState = st;
  return true;
}

function dragStartedOf(st) {
  return { started: !!st.dragstart, cancelled: !!st.dragstart && st.dragstart.defaultPrevented };
}

export function dragStarted() {
  const st = S.dragState;
  return st ? dragStartedOf(st) : { started: false, cancelled: false };
}

export function dragReport() {
  const st = S.dragState;
  if (!st) return { started: false, cancelled: false, mutations: 0 };
  st.stop();
  return Object.assign(dragStartedOf(st), { mutations: st.mutations });
}

// dragMark records, before a drag, the source (el, or the draggable at
// point from) and what is at the drop point to, and counts the drop events
// and the dragend's dropEffect while the drag runs; dragVerify reads what
// became of the source.
export function dragMark(el, from, to) {
  if (S.dragMarkState) S.dragMarkState.stop();
  const hit = el || deepElementFromPoint(from.x, from.y);
  const src = hit && ((hit.closest && hit.closest('[draggable=true]')) || hit);
  const dst = deepElementFromPoint(to.x, to.y);
  const st = { src, dst, from, to, drops: 0, dropEffect: '' };
  if (src) {
    st.before = placeOf(src);
    // The unit that moves: the source's highest ancestor still outside
    // the drop target's branch (a list item grabbed by its handle); a
    // draggable source, or one among siblings like it (a card of a list),
    // is its own unit.
    let item = src;
    while (!item.draggable && !listItem(item) && dst && item.parentElement && !item.parentElement.contains(dst) && item.parentElement !== document.body) item = item.parentElement;
    st.item = item;
    // A sortable list: the drop point is on another item like the source
    // (same tag, class and draggability) in the same parent.
    let other = dst;
    while (other && other.parentElement !== item.parentElement) other = other.parentElement;
    st.sibling = !!other && other !== item && other.tagName === item.tagName && other.className === item.className && /** @type {HTMLElement} */ (other).draggable === /** @type {HTMLElement} */ (item).draggable;
    if (st.sibling) st.other = other;
    st.itemBefore = placeOf(item);
    st.branch = dropBranch(item, dst);
    st.twin = twinKey(item);
  }
  const onDrop = () => { st.drops++; };
  const onEnd = (e) => { st.dropEffect = (e.dataTransfer && e.dataTransfer.dropEffect) || ''; };
  window.addEventListener('drop', onDrop, true);
  window.addEventListener('dragend', onEnd, true);
  st.stop = () => {
    window.removeEventListener('drop', onDrop, true);
    window.removeEventListener('dragend', onEnd, true);
    if (S.dragMarkState === st) S.dragMarkState = null;
  };
  S.dragMarkState = st;
  return { source: src ? shortSelector(src) : '', hidden: document.visibilityState === 'hidden' };
}

// listItem reports whether el has a sibling like it (same tag and class):
// an item of a list, the unit a sortable list moves.
function listItem(el) {
  const parent = el.parentElement;
  if (!parent) return false;
  for (const c of parent.children) if (c !== el && c.tagName === el.tagName && c.className === el.className) return true;
  return false;
}

// dropBranch is the part of the page the drop point belongs to: the
// highest ancestor of dst that does not hold the source (a kanban column
// when dst is a card or the heading of another column), or null when dst
// is inside the source. A source that ends up inside it moved into the
// target's container.
function dropBranch(src, dst) {
  if (!dst || src.contains(dst)) return null;
  let b = dst;
  while (b.parentElement && !b.parentElement.contains(src) && b.parentElement !== document.body) b = b.parentElement;
  return b.contains(src) ? null : b;
}

// twinKey identifies an element by tag and text, to find the element a
// page drew in place of the source (a board drawn again from its model).
function twinKey(el) {
  return el.tagName + '|' + normalizeSpace(el.textContent || '');
}

// findTwin returns the element in root like the source (twinKey), or null.
function findTwin(root, key) {
  if (!root || !root.isConnected) return null;
  const tag = key.slice(0, key.indexOf('|'));
  for (const el of root.getElementsByTagName(tag)) if (twinKey(el) === key) return el;
  return null;
}

// reordered reports whether the source, moved within its list, now sits
// next to the item the drop point was on (a sortable list puts it before
// or after that item).
function reordered(st, a, b) {
  if (!st.other || !st.other.isConnected || a.parent !== b.parent || a.index === b.index) return false;
  const o = [...a.parent.children].indexOf(st.other);
  return Math.abs(o - a.index) === 1;
}

// sliderOutcome judges the drag of a slider's handle (role=slider): its
// track holds it on one axis, so it landed when it moved to the drop
// point along that axis, or as far as the track goes towards it (its
// value at the minimum or maximum). out.value is its aria-valuenow.
function sliderOutcome(st, a, b, out) {
  const el = st.src;
  const vertical = el.getAttribute('aria-orientation') === 'vertical';
  const centre = (p) => vertical ? p.y + p.h / 2 : p.x + p.w / 2;
  const want = vertical ? st.to.y : st.to.x;
  const now = parseFloat(el.getAttribute('aria-valuenow'));
  if (!isNaN(now)) out.value = now;
  const atEnd = now === parseFloat(el.getAttribute('aria-valuemin')) || now === parseFloat(el.getAttribute('aria-valuemax'));
  const half = (vertical ? a.h : a.w) / 2 + 2;
  const closer = Math.abs(centre(a) - want) < Math.abs(centre(b) - want);
  out.landed = out.moved && (Math.abs(centre(a) - want) <= half || (atEnd && closer));
  out.slider = true;
}

// carried tells whether the page moved the source along the drag, in
// its place among its siblings, at least half the drag's length: a
// carousel's slide or a scroller's content follows a swipe and snaps
// (often past the drop point), and that is the drag having worked.
function carried(st, a, b) {
  if (!st.from || a.parent !== b.parent || a.index !== b.index) return false;
  const dx = st.to.x - st.from.x, dy = st.to.y - st.from.y;
  const len = Math.hypot(dx, dy);
  if (len < 20) return false;
  const along = ((a.x - b.x) * dx + (a.y - b.y) * dy) / len;
  return along >= len / 2;
}

// placeOf is where el is: its box, parent and position among siblings.
function placeOf(el) {
  const r = el.getBoundingClientRect();
  const parent = el.parentElement;
  return { x: r.left, y: r.top, w: r.width, h: r.height, parent, index: parent ? [...parent.children].indexOf(el) : -1, count: parent ? parent.children.length : 0 };
}

function inRect(p, r, slack) {
  return p.x >= r.x - slack && p.x <= r.x + r.w + slack && p.y >= r.y - slack && p.y <= r.y + r.h + slack;
}

export function dragVerify() {
  const st = S.dragMarkState;
  if (!st) return { lost: true };
  st.stop();
  const out = { drops: st.drops, dropEffect: st.dropEffect };
  if (!st.src) return out;
  out.source = shortSelector(st.src);
  if (!st.src.isConnected) {
    // Drawn again (a framework's re-render): it landed when the drop was
    // taken or its twin is now in the target's part of the page.
    out.moved = true;
    out.removed = true;
    out.landed = st.drops > 0 || !!findTwin(st.branch, st.twin);
    return out;
  }
  const a = placeOf(st.src), b = st.before;
  out.moved = a.parent !== b.parent || a.index !== b.index || Math.abs(a.x - b.x) > 2 || Math.abs(a.y - b.y) > 2;
  const item = st.item.isConnected ? st.item : st.src;
  const ir = item.getBoundingClientRect();
  const intoBranch = a.parent !== b.parent && !!st.branch && st.branch.isConnected && st.branch.contains(st.src);
  out.landed = (!!st.dst && st.dst !== st.src && st.dst.isConnected && composedContains(st.dst, st.src) && a.parent !== b.parent) ||
    intoBranch || reordered(st, placeOf(item), st.itemBefore) ||
    inRect(st.to, { x: ir.left, y: ir.top, w: ir.width, h: ir.height }, 2) ||
    carried(st, a, b);
  if (st.src.getAttribute('role') === 'slider') sliderOutcome(st, a, b, out);
  out.sibling = st.sibling;
  out.at = { x: Math.round(ir.left + ir.width / 2), y: Math.round(ir.top + ir.height / 2) };
  if (a.parent !== b.parent && a.parent) out.into = shortSelector(a.parent);
  if (a.parent === b.parent && a.parent) {
    out.index = a.index;
    out.indexBefore = b.index;
    out.count = a.count;
  }
  return out;
}

// syntheticDrag fires the HTML5 drag-and-drop sequence from the element at
// point a to the element at point b, sharing one DataTransfer.
export function syntheticDrag(a, b) {
  const hitA = deepElementFromPoint(a.x, a.y), hitB = deepElementFromPoint(b.x, b.y);
  if (!hitA || !hitB) return { error: 'no element at the ' + (hitA ? 'target' : 'source') + ' point' };
  const src = (hitA.closest && hitA.closest('[draggable=true]')) || hitA;
  const dt = new DataTransfer();
  const fire = (el, type, pt) => {
    const ev = new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: dt, clientX: pt.x, clientY: pt.y, buttons: type === 'dragend' ? 0 : 1 });
    return el.dispatchEvent(ev);
  };
  if (!fire(src, 'dragstart', a)) return { cancelled: true, source: shortSelector(src) };
  fire(src, 'drag', a);
  fire(hitB, 'dragenter', b);
  const overNotCancelled = fire(hitB, 'dragover', b);
  fire(hitB, 'drop', b);
  fire(src, 'dragend', b);
  return { source: shortSelector(src), target: shortSelector(hitB), accepted: !overNotCancelled };
}

// ---- scroll ----

// scrollableAxes reports in which directions el can scroll.
export function scrollableAxes(el) {
  const s = styleOf(el);
  const canY = el.scrollHeight > el.clientHeight + 1 && /auto|scroll|overlay/.test(s.overflowY);
  const canX = el.scrollWidth > el.clientWidth + 1 && /auto|scroll|overlay/.test(s.overflowX);
  return { x: canX, y: canY };
}

// pageScroller returns the element that scrolls the page when the window
// itself cannot (an app shell with a scrolling main pane), or null.
export function pageScroller() {
  const se = document.scrollingElement || document.documentElement;
  if (se.scrollHeight > se.clientHeight + 1 || se.scrollWidth > se.clientWidth + 1) return null;
  let best = null, bestArea = 0, n = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (++n > SCAN_LIMIT) break;
    const ax = scrollableAxes(el);
    if (!ax.y && !ax.x) continue;
    const r = el.getBoundingClientRect();
    const area = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    if (area > bestArea) { best = el; bestArea = area; }
  }
  return best;
}

export function scrollPos(box) {
  if (!box) return { x: window.scrollX, y: window.scrollY };
  return { x: box.scrollLeft, y: box.scrollTop };
}

export function scrollMax(box) {
  const se = box || document.scrollingElement || document.documentElement;
  return { x: se.scrollWidth - se.clientWidth, y: se.scrollHeight - se.clientHeight };
}

// scrollOp moves box (the window when null) per op; instant, whatever
// scroll-behavior the page sets.
export function scrollOp(box, op) {
  const before = scrollPos(box);
  scrollOpNow(box, op);
  if (!samePos(before, scrollPos(box))) noteScroll();
}

function scrollOpNow(box, op) {
  const target = box || window;
  const o = { behavior: 'instant' };
  switch (op.kind) {
    case 'top': o.top = 0; target.scrollTo(o); break;
    case 'bottom': o.top = scrollMax(box).y; target.scrollTo(o); break;
    case 'delta': o.left = op.dx || 0; o.top = op.dy || 0; target.scrollBy(o); break;
    case 'abs':
      if (op.x !== undefined && op.x !== null) o.left = op.x;
      if (op.y !== undefined && op.y !== null) o.top = op.y;
      target.scrollTo(o);
      break;
  }
}

// endReason says why a scroll of box per op moved nothing.
function endReason(box, op) {
  const p = scrollPos(box), m = scrollMax(box);
  if (op.kind === 'top') return 'top';
  if (op.kind === 'bottom') return 'bottom';
  if (op.kind === 'delta') {
    if (op.dy > 0 && p.y >= m.y - 1) return 'bottom';
    if (op.dy < 0 && p.y <= 0) return 'top';
    if (op.dx > 0 && p.x >= m.x - 1) return 'right';
    if (op.dx < 0 && p.x <= 0) return 'left';
  }
  return 'position';
}

// nearestScroller returns the closest ancestor of el that scrolls.
function nearestScroller(el) {
  for (let e = parentElementComposed(el); e && e !== document.body && e !== document.documentElement; e = parentElementComposed(e)) {
    const ax = scrollableAxes(e);
    if (ax.x || ax.y) return e;
  }
  return null;
}

function scrollResult(box, moved, extra) {
  const w = scrollPos(null);
  const p = box ? scrollPos(box) : w;
  const out = Object.assign({ scrollX: Math.round(p.x), scrollY: Math.round(p.y), scrolled: moved }, extra || {});
  if (box) {
    out.container = shortSelector(box);
    out.windowX = Math.round(w.x);
    out.windowY = Math.round(w.y);
  }
  return afterFrame(out);
}

export function samePos(a, b) {
  return Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5;
}

// scrollPage scrolls the page (the window, or the pane that scrolls the
// page when the window cannot): op.kind is top, bottom, delta or abs.
export function scrollPage(op) {
  const box = pageScroller();
  const m = scrollMax(box);
  if (!box && m.x <= 1 && m.y <= 1) return scrollResult(null, false, { reason: 'not-scrollable' });
  const before = scrollPos(box);
  scrollOp(box, op);
  const moved = !samePos(before, scrollPos(box));
  return scrollResult(box, moved, moved ? null : { reason: endReason(box, op) });
}

// scrollElement scrolls el itself (a scrollable container) per op.
export function scrollElement(el, op) {
  const given = (v) => v !== undefined && v !== null;
  const needY = op.kind === 'top' || op.kind === 'bottom' || (op.kind === 'delta' && !!op.dy) || (op.kind === 'abs' && given(op.y));
  const needX = (op.kind === 'delta' && !!op.dx) || (op.kind === 'abs' && given(op.x));
  const can = (e) => {
    const ax = scrollableAxes(e);
    return (needY && ax.y) || (needX && ax.x);
  };
  if ((needX || needY) && !can(el)) {
    // A list inside its scroll container (a virtualised list's content
    // element): the container scrolls, as under a user's mouse wheel.
    for (let e = parentElementComposed(el); e && e !== document.body && e !== document.documentElement; e = parentElementComposed(e)) {
      if (can(e)) return scrollElement(e, op);
    }
    const near = nearestScroller(el);
    return scrollResult(el, false, { reason: 'not-scrollable', nearest: near ? shortSelector(near) : '' });
  }
  const before = scrollPos(el);
  scrollOp(el, op);
  const moved = !samePos(before, scrollPos(el));
  return scrollResult(el, moved, moved ? null : { reason: endReason(el, op) });
}

// scrollIntoCenter scrolls el into the middle of the viewport (and of every
// scrolling ancestor) and reports whether anything moved.
export function scrollIntoCenter(el) {
  if (!el.isConnected || !el.getClientRects().length) return scrollResult(null, false, { reason: 'hidden', detail: el.isConnected ? hiddenWhy(el) : 'detached' });
  const boxes = [];
  for (let e = parentElementComposed(el); e; e = parentElementComposed(e)) boxes.push([e, scrollPos(e)]);
  const win = scrollPos(null);
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  let moved = !samePos(win, scrollPos(null));
  for (const [e, p] of boxes) if (!samePos(p, scrollPos(e))) moved = true;
  if (moved) noteScroll();
  return scrollResult(null, moved, moved ? null : { reason: 'in-view' });
}
