// feed.js — scrollUntilVisible's scrolling. Module of the in-page engine.
//
// The content a target is in scrolls with the page or inside a container
// of its own (a virtualised list whose rows render only as that container
// scrolls, a feed in a page section that loads more near its own bottom).
// The target does not exist yet, so nothing says which: each step scrolls
// every scroller that can still go down — the page and each rendered
// scroll container — and the search is at the end only when all of them
// are, and nothing grew. A scroller that did not stand at its top is
// searched upward as well (feedStepUp).

import { S } from './state.js';
import { shadowRootOf, shortSelector, styleOf } from './dom.js';
import { pageScroller, samePos, scrollMax, scrollOp, scrollPos } from './gesture.js';
import { afterFrame } from './scrollpending.js';

// SCAN_LIMIT bounds the elements looked at for scroll containers.
const SCAN_LIMIT = 5000;
// MIN_BOX is the smallest container (CSS px each way) that holds content
// worth scrolling.
const MIN_BOX = 40;
// NOT_CONTENT are scrollable elements whose scrolling shows no new
// elements (a field's own text).
const NOT_CONTENT = new Set(['TEXTAREA', 'SELECT', 'INPUT']);

// scrollers lists what can scroll content into view: the page's scroller
// (null for the window; left out when the page cannot scroll) first, then
// every rendered container that scrolls vertically.
function scrollers() {
  const out = [];
  const page = pageScroller();
  const se = document.scrollingElement || document.documentElement;
  if (page || se.scrollHeight > se.clientHeight + 1) out.push(page);
  const scan = { n: 0 };
  if (document.body) scanScrollers(document.body, page, out, scan);
  return out;
}

// scanScrollers adds the scroll containers under root, shadow roots
// included (a web component's virtualised list), to out.
function scanScrollers(root, page, out, scan) {
  for (const el of root.querySelectorAll('*')) {
    if (++scan.n > SCAN_LIMIT) return;
    const sr = shadowRootOf(el);
    if (sr) scanScrollers(sr, page, out, scan);
    if (el === page || NOT_CONTENT.has(el.tagName)) continue;
    if (el.scrollHeight <= el.clientHeight + 1 || el.clientHeight < MIN_BOX || el.clientWidth < MIN_BOX) continue;
    const s = styleOf(el);
    if (!/auto|scroll|overlay/.test(s.overflowY) || s.visibility === 'hidden') continue;
    out.push(el);
  }
}

function heightOf(box) {
  return (box || document.scrollingElement || document.documentElement).scrollHeight;
}

function atEndOf(box) {
  return scrollPos(box).y >= scrollMax(box).y - 1;
}

// stepOf is how far one step scrolls a scroller of the given height: most
// of it, keeping a little of what was shown.
function stepOf(h) {
  return Math.round(Math.max(h * 0.8, h - 60));
}

// feedWatch starts recording, for scrollUntilVisible, when the page last
// grew (elements added, a scroller taller) and where elements were added;
// feedStep scrolls one step, feedStatus reads, feedNudge nudges,
// feedReport reads and stops.
export function feedWatch() {
  if (S.feedState) S.feedState.stop();
  // stuck holds the scrollers a scroll did not move although they were
  // not at their end (a page that snaps or resets them): they count as
  // at their end.
  // start holds where each scroller stood, so that a search upward
  // (feedStepUp) goes on from there; stuckUp is stuck for that search.
  const st = { last: performance.now(), adds: new Map(), heights: new Map(), scrolled: new Set(), stuck: new Set(), stuckUp: new Set(), start: new Map() };
  const obs = new MutationObserver((recs) => {
    for (const r of recs) {
      let n = 0;
      for (const a of r.addedNodes) if (a.nodeType === 1) n++;
      if (!n) continue;
      st.last = performance.now();
      st.adds.set(r.target, (st.adds.get(r.target) || 0) + n);
    }
  });
  obs.observe(document, { childList: true, subtree: true });
  st.stop = () => { obs.disconnect(); if (S.feedState === st) S.feedState = null; };
  S.feedState = st;
  const boxes = scrollers();
  // Some scroller does not stand at its top: content may be above; how
  // far the farthest scroller is from its top, and from its end.
  let above = false, aboveBy = 0, belowBy = 0;
  for (const box of boxes) {
    const p = scrollPos(box);
    st.start.set(box || window, p);
    if (p.y > 1) above = true;
    aboveBy = Math.max(aboveBy, p.y);
    belowBy = Math.max(belowBy, scrollMax(box).y - p.y);
  }
  const out = feedStatusOf(st, boxes);
  Object.assign(out, { above, aboveBy: Math.round(aboveBy), belowBy: Math.round(belowBy) });
  return out;
}

// feedStatusOf reads the page's scroll position, whether every scroller is
// at its end, and how long nothing has grown.
function feedStatusOf(st, boxes) {
  let atEnd = true;
  for (const box of boxes) {
    const key = box || window;
    const h = heightOf(box);
    const was = st.heights.get(key);
    if (was !== undefined && was !== h) st.last = performance.now();
    st.heights.set(key, h);
    if (!atEndOf(box) && !st.stuck.has(key)) atEnd = false;
  }
  const page = pageScroller();
  return {
    scrollY: Math.round(scrollPos(page).y), scrollHeight: heightOf(page), atEnd,
    quietMs: Math.round(performance.now() - st.last), busy: pageBusy()
  };
}

// pageBusy reports whether the page shows that it is loading: a rendered
// element with aria-busy=true (a feed fetching its next page) or a
// rendered progressbar (a spinner).
function pageBusy() {
  for (const el of document.querySelectorAll('[aria-busy=true], [role=progressbar]')) {
    if (el.getClientRects().length && styleOf(el).visibility !== 'hidden') return true;
  }
  return false;
}

export function feedStatus() {
  return S.feedState ? feedStatusOf(S.feedState, scrollers()) : { lost: true };
}

// feedStep scrolls down by distance (0: most of its height) each scroller
// not yet at its end, and answers once the page had a frame to render what
// the scroll brings (a virtualised list's rows).
export async function feedStep(distance) {
  const st = S.feedState;
  if (!st) return { lost: true };
  let moved = false;
  for (const box of scrollers()) {
    const key = box || window;
    if (atEndOf(box) || st.stuck.has(key)) continue;
    const before = scrollPos(box);
    scrollOp(box, { kind: 'delta', dy: distance > 0 ? distance : stepOf(box ? box.clientHeight : innerHeight) });
    st.scrolled.add(key);
    if (!samePos(before, scrollPos(box))) moved = true;
    else st.stuck.add(key);
  }
  await afterFrame();
  if (S.feedState !== st) return { lost: true };
  const out = feedStatusOf(st, scrollers());
  out.moved = moved;
  return out;
}

// feedStepUp scrolls up by distance (0: most of its height) each
// scroller not yet at its top, going on from where it stood when the
// search started (the way down already showed what lies below), and
// answers once the page had a frame to render what the scroll brings.
// atTop says every scroller is at its top (or will not move).
export async function feedStepUp(distance) {
  const st = S.feedState;
  if (!st) return { lost: true };
  let moved = false;
  for (const box of scrollers()) {
    const key = box || window;
    const before = scrollPos(box);
    if (before.y <= 1 || st.stuckUp.has(key)) continue;
    const start = st.start.has(key) ? st.start.get(key).y : before.y;
    const step = distance > 0 ? distance : stepOf(box ? box.clientHeight : innerHeight);
    scrollOp(box, { kind: 'abs', y: Math.max(0, Math.min(before.y, start) - step) });
    st.scrolled.add(key);
    if (!samePos(before, scrollPos(box))) moved = true;
    else st.stuckUp.add(key);
  }
  await afterFrame();
  if (S.feedState !== st) return { lost: true };
  const boxes = scrollers();
  const out = feedStatusOf(st, boxes);
  out.atTop = boxes.every((b) => scrollPos(b).y <= 1 || st.stuckUp.has(b || window));
  out.moved = moved;
  return out;
}

// feedNudge scrolls each scroller it scrolled up a little and back to its
// end, a frame apart, as a person does when a feed does not load: a scroll
// observer that missed the end (the content grew and was scrolled to its
// end within one frame) sees it again.
export async function feedNudge() {
  const st = S.feedState;
  if (!st) return { lost: true };
  const boxes = scrollers().filter((b) => st.scrolled.has(b || window));
  for (const box of boxes) scrollOp(box, { kind: 'delta', dy: -Math.round((box ? box.clientHeight : innerHeight) * 0.4) });
  await afterFrame();
  await afterFrame();
  for (const box of boxes) scrollOp(box, { kind: 'bottom' });
  await afterFrame();
  return S.feedState ? feedStatusOf(S.feedState, scrollers()) : { lost: true };
}

// feedReport stops the watch and says how far the scrolling got: the list
// that received the most elements (the feed) and how many items it holds,
// and where each container it scrolled (other than the page) stands.
export function feedReport() {
  const st = S.feedState;
  if (!st) return { lost: true };
  let best = null, bestN = 0, added = 0;
  for (const [el, n] of st.adds) {
    added += n;
    if (el.isConnected && n > bestN) { best = el; bestN = n; }
  }
  const boxes = scrollers();
  const out = feedStatusOf(st, boxes);
  out.added = added;
  if (best) {
    out.list = shortSelector(best);
    out.items = best.childElementCount;
  }
  const page = pageScroller();
  out.boxes = [];
  for (const box of boxes) {
    if (!box || box === page || !st.scrolled.has(box)) continue;
    out.boxes.push({ box: shortSelector(box), scrollY: Math.round(box.scrollTop), scrollHeight: box.scrollHeight });
    if (out.boxes.length >= 3) break;
  }
  st.stop();
  return out;
}
