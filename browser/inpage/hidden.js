// hidden.js — why an element a step named by its text exists but is
// hidden, and what a user would do to show it: hover the item a :hover
// menu hangs from, click the summary of a closed <details>, the tab of
// another tab panel, or the control of a collapsed section
// (aria-controls). Failure diagnostics (capture.js diagnose) use it, so a
// click on a menu item says "hover s1e5 first" instead of "check the
// spelling". Module of the in-page engine.

import { S } from './state.js';
import { isShown, normalizeSpace, truncate } from './dom.js';
import { textOf } from './find.js';
import { allShadowRoots, effectiveRole, refFor, refName } from './refs.js';

const TARGETS = 'a,button,[role],input[type=submit],input[type=button],summary,label,option,h1,h2,h3,h4,h5,h6,li,p,td,th';
const OPENERS = 'a[href],button,[role=button],[role=menuitem],[role=tab],summary,[tabindex]';

function refOf(el) {
  const role = effectiveRole(el);
  return { ref: refFor(el, role, refName(el, role), Math.max(S.snapSeq, 1)), role, name: truncate(normalizeSpace(textOf(el)), 60) };
}

// hiddenMatch returns the hidden element whose text is query (exactly,
// ignoring case and spaces; else containing it), why it is hidden and the
// step that shows it; null when no hidden element has that text.
export function hiddenMatch(query) {
  const q = normalizeSpace(query || '').toLowerCase();
  if (!q || q.length > 200 || /^s\d+e\d+$/.test(q)) return null;
  let exact = null, partial = null;
  for (const root of [document, ...allShadowRoots(document, [])]) {
    for (const el of root.querySelectorAll(TARGETS)) {
      if (exact) break;
      if (isShown(el)) continue;
      const t = normalizeSpace(el.textContent || '').toLowerCase();
      if (t === q || normalizeSpace(textOf(el)).toLowerCase() === q) exact = el;
      else if (!partial && t.length < 200 && t.includes(q)) partial = el;
    }
  }
  const el = exact || partial;
  if (!el) return null;
  const out = { text: truncate(normalizeSpace(el.textContent || ''), 60), role: effectiveRole(el) || el.tagName.toLowerCase() };
  Object.assign(out, whyHidden(el));
  return out;
}

// whyHidden walks up from el to what hides it and what opens that.
function whyHidden(el) {
  for (let a = el; a && a !== document.body && a !== document.documentElement; a = a.parentElement || (a.getRootNode() && a.getRootNode().host)) {
    if (a.tagName === 'DETAILS' && !a.open && a !== el) {
      const s = a.querySelector(':scope > summary');
      if (s) return { why: 'in a collapsed section (a closed <details>) opened by', action: 'click', opener: refOf(s) };
    }
    if (!hidesHere(a)) continue;
    if (a.getAttribute('role') === 'tabpanel') {
      const tab = controller(a, '[role=tab]');
      if (tab) return { why: 'in another tab panel, shown by', action: 'click', opener: refOf(tab) };
    }
    const ctl = controller(a, '*');
    if (ctl) {
      const menu = ctl.getAttribute('aria-haspopup') || /menu/.test(effectiveRole(a) || '');
      return { why: menu ? 'in a closed menu opened by' : 'in a collapsed section opened by', action: 'click', opener: refOf(ctl) };
    }
    const host = hoverHost(a);
    if (host) {
      const target = host.matches(OPENERS) ? host : [...host.querySelectorAll(OPENERS)].find((o) => isShown(o) && !a.contains(o)) || host;
      return { why: 'in a menu that opens on hover over', action: 'hover', opener: refOf(target) };
    }
    return { why: 'hidden by the page (' + hiddenHow(a) + '), and no control that shows it was found' };
  }
  return { why: 'not shown (it has no size on the page)' };
}

function hidesHere(a) {
  if (a.hidden || a.getAttribute('aria-hidden') === 'true') return true;
  const cs = getComputedStyle(a);
  return cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse';
}

function hiddenHow(a) {
  if (a.hidden) return 'the hidden attribute';
  const cs = getComputedStyle(a);
  if (cs.display === 'none') return 'display: none';
  if (cs.visibility !== 'visible') return 'visibility: ' + cs.visibility;
  return 'aria-hidden';
}

// controller is the shown element whose aria-controls (or, for a tab
// panel, the tab its aria-labelledby names) is panel.
function controller(panel, sel) {
  if (panel.id) {
    const esc = CSS.escape(panel.id);
    for (const c of panel.getRootNode().querySelectorAll('[aria-controls~="' + esc + '"]')) {
      if (c.matches(sel) && isShown(c)) return c;
    }
  }
  const lb = panel.getAttribute('aria-labelledby');
  if (lb) {
    const t = panel.getRootNode().getElementById ? panel.getRootNode().getElementById(lb.split(/\s+/)[0]) : null;
    if (t && t.matches(sel) && isShown(t)) return t;
  }
  return null;
}

// hoverHost is the shown element that a :hover (or :focus-within) rule
// of the page's style sheets hangs a, hidden now, from: for
// `nav li:hover .sub`, the li around a.
function hoverHost(a) {
  for (const rule of styleRules()) {
    const sels = rule.selectorText.split(',');
    for (const sel of sels) {
      const i = sel.search(/:hover|:focus-within/);
      if (i < 0) continue;
      let base;
      try {
        base = sel.replace(/:hover|:focus-within/g, '');
        if (!a.matches(base)) continue;
      } catch (e) { continue; }
      const prefix = sel.slice(0, i).trim();
      if (!prefix) continue;
      try {
        const up = a.parentElement && a.parentElement.closest(prefix);
        if (up && isShown(up)) return up;
        for (let s = a.previousElementSibling; s; s = s.previousElementSibling) if (s.matches(prefix) && isShown(s)) return s;
        if (a.matches(prefix) && a.parentElement && isShown(a.parentElement)) return a.parentElement;
      } catch (e) { /* a selector this browser cannot match */ }
    }
  }
  return null;
}

// styleRules lists the style rules of the document's sheets that could
// show something (one level into @media), skipping sheets it may not read.
function styleRules() {
  const out = [];
  const add = (rules) => {
    for (const r of rules) {
      if (r.selectorText && /:hover|:focus-within/.test(r.selectorText)) out.push(r);
      else if (r.cssRules && !r.selectorText) add(r.cssRules);
    }
  };
  for (const sheet of document.styleSheets) {
    try { add(sheet.cssRules); } catch (e) { /* cross-origin sheet */ }
  }
  return out;
}
