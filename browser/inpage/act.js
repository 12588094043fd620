// act.js — actionability checks, click verification, and the DOM side of
// fill/select/scroll. Module of the in-page engine.

import { S } from './state.js';
import { noteScroll } from './scrollpending.js';
import { changeWatch } from './changes.js';
import {
  boxOf, composedContains, deepElementFromPoint, hiddenForAT, hiddenWhy, isShown, normalizeSpace, parentElementComposed, shortSelector, styleOf, truncate
} from './dom.js';
import { roleOf } from './roles.js';
import { accessibleName, anyAriaDisabled, deepActiveElement, labelsOf } from './names.js';
import { describe, effectiveRole, refFor, refName } from './refs.js';
import { hitOf, isNamedBlockingLayer, lookalikeOnPath, pressVerdict, statesOf, textOf, widgetPart } from './hittarget.js';
import { guardFocus, readGuard } from './focusguard.js';
import { editorOf } from './editors.js';
import { movedOffCombobox, replacingWidget } from './replaced.js';
import { isAriaSlider, sliderState } from './slider.js';
import { editProblem } from './editable.js';

const VALUE_TYPES = new Set(['date', 'datetime-local', 'month', 'time', 'week', 'color', 'range']);

// hitsTarget: the element at the point is el, inside el, or el's label.
function hitsTarget(hit, el) {
  if (!hit) return false;
  if (composedContains(el, hit)) return true;
  const label = hit.closest && hit.closest('label');
  return !!label && label.control === el;
}

// candidatePoints lists points inside el's visible boxes, centre first.
function candidatePoints(el) {
  const pts = [];
  const vw = innerWidth, vh = innerHeight;
  for (const r of el.getClientRects()) {
    const x1 = Math.max(r.left, 0), y1 = Math.max(r.top, 0), x2 = Math.min(r.right, vw), y2 = Math.min(r.bottom, vh);
    if (x2 - x1 < 1 || y2 - y1 < 1) continue;
    const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
    pts.push({ x: cx, y: cy });
    pts.push({ x: x1 + (x2 - x1) / 4, y: cy }, { x: x2 - (x2 - x1) / 4, y: cy }, { x: cx, y: y1 + (y2 - y1) / 4 }, { x: cx, y: y2 - (y2 - y1) / 4 });
  }
  return pts;
}

const SCROLL_ALIGN = ['center', 'start', 'end', 'nearest'];

const OVERLAY_RE = /cookie|consent|gdpr|privacy|banner|modal|dialog|overlay|backdrop|popup|pop-up|lightbox|toast|snackbar|notification|newsletter|interstitial/i;

function overlayKind(el) {
  const s = [el.id, typeof el.className === 'string' ? el.className : '', el.getAttribute('aria-label') || '', el.getAttribute('role') || '', (el.innerText || '').slice(0, 200)].join(' ');
  if (/cookie|consent|gdpr/i.test(s)) return 'cookie-banner';
  const role = roleOf(el);
  if (role === 'dialog' || role === 'alertdialog' || /modal|dialog|lightbox/i.test(s)) return 'modal';
  if (/toast|snackbar|notification/i.test(s)) return 'notification';
  if (/popup|pop-up|newsletter|interstitial/i.test(s)) return 'popup';
  if (/overlay|backdrop/i.test(s)) return 'overlay';
  return 'element';
}

// isBlockingLayer: a layer a user has to dismiss before reaching what is
// under it — a modal dialog, a backdrop or overlay, a consent banner or
// popup, or any fixed layer over half the viewport. A click never goes
// through one. A sticky header, a toast or an element's own decoration is
// not one.
function isBlockingLayer(box) {
  if (!box.getAttribute) return false;
  if (isNamedBlockingLayer(box)) return true;
  const s = styleOf(box);
  if (s.position !== 'fixed' && s.position !== 'absolute') return false;
  if (s.position === 'fixed' && /cookie|consent/i.test((box.innerText || '').slice(0, 300))) return true;
  const r = box.getBoundingClientRect();
  const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0), h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
  return w > 0 && h > 0 && w * h >= 0.5 * innerWidth * innerHeight;
}

// describeInterceptor names what covers the target: the overlay container
// around the element hit, its kind, whether it blocks (a layer a user must
// dismiss first), and its buttons with refs.
function describeInterceptor(hit) {
  let box = hit;
  for (let e = hit; e && e !== document.body && e !== document.documentElement; e = parentElementComposed(e)) {
    const s = styleOf(e);
    const role = roleOf(e);
    if (s.position === 'fixed' || s.position === 'sticky' || role === 'dialog' || role === 'alertdialog' || OVERLAY_RE.test(e.id + ' ' + (typeof e.className === 'string' ? e.className : ''))) box = e;
  }
  const out = { kind: overlayKind(box), selector: shortSelector(box) };
  if (isBlockingLayer(box)) out.blocking = true;
  const text = normalizeSpace(box.innerText || '');
  if (text) out.text = truncate(text, 80);
  const buttons = [];
  for (const b of box.querySelectorAll('button,a[href],[role=button],input[type=button],input[type=submit]')) {
    if (!isShown(b)) continue;
    const role = effectiveRole(b);
    buttons.push({ name: truncate(accessibleName(b), 40), ref: refFor(b, role, refName(b, role), Math.max(S.snapSeq, 1)) });
    if (buttons.length === 4) break;
  }
  if (buttons.length) out.buttons = buttons;
  return out;
}

// check reports whether el can take an action of kind now (spec §8) and,
// for pointer actions, the viewport point to use. It scrolls el into view
// when it is not.
export function check(el, kind, opts) {
  opts = opts || {};
  const r = checkReady(el, kind, opts);
  // The action's change log watches the shadow roots around it (changes.js).
  if (r.ok) S.lastChecked = el;
  // A click's preparation (clickPrep) comes with a passed check: one round
  // trip fewer before the press.
  if (r.ok && opts.prep) r.prep = clickPrep(el, opts.prep === 'arm' && !!r.point);
  return r;
}

// checkLast is check on the element the engine's last lookup returned
// (find, or the resolve of a ref), sent right behind the lookup in the
// same round trip; null when the lookup returned none.
// With opts.changes, a check that passes also starts the action's change
// log and reads the top document's URL (the action's watch, armed in the
// same round trip, leaves both to it).
export function checkLast(kind, opts) {
  const el = S.lastElement;
  S.lastElement = null;
  if (!el) return null;
  const r = check(el, kind, opts);
  if (r.ok && opts.changes) {
    r.changes = changeWatch();
    if (window === window.top) r.url = location.href;
  }
  return r;
}

function checkReady(el, kind, opts) {
  if (!el || !el.isConnected) return { ok: false, reason: 'detached' };
  if (kind === 'jsclick') {
    // An explicit JavaScript click: the agent asked for element.click(),
    // which goes through any layer; the check says what covers it.
    const r = checkReady(el, 'click', Object.assign({}, opts, { js: true }));
    if (r.ok || r.reason !== 'covered') return r;
    return Object.assign(r, { ok: true, reason: undefined });
  }
  if (kind === 'click' || kind === 'check') {
    // A hidden checkbox or radio is clicked through its visible label.
    const via = clickTarget(el);
    if (via !== el) {
      const r = checkReady(via, 'click-direct', opts);
      r.via = 'label';
      return r;
    }
  }
  if (kind === 'click-direct') kind = 'click';
  if ((kind === 'select' || kind === 'fill') && el.tagName === 'SELECT') {
    // A <select> a library hides behind its own widget: the user acts
    // through the widget, and selectOption checks that it follows.
    const rep = replacingWidget(el);
    if (rep) return { ok: true, box: boxOf(rep.control.getBoundingClientRect()), via: 'widget' };
  }
  if (hiddenForAT(el) && !(kind === 'fill' && el.isContentEditable)) return { ok: false, reason: 'hidden', detail: hiddenWhy(el) };
  if (kind === 'fill' || kind === 'type') {
    // A fill moves an ARIA slider with its keys (fillStart).
    let p = kind === 'fill' && isAriaSlider(el) ? null : editProblem(el);
    // Some sites make a field readonly until it is focused (against
    // autofill): focus it once before calling it readonly.
    if (p === 'readonly' && deepActiveElement() !== el) {
      el.focus({ preventScroll: true });
      p = editProblem(el);
    }
    if (p) return { ok: false, reason: p === 'disabled' ? 'disabled' : 'not-editable', detail: p, permanent: p !== 'disabled' };
  }
  if ((kind === 'click' || kind === 'select' || kind === 'check') && (el.matches(':disabled') || (anyAriaDisabled(el) && el.closest('[aria-disabled=true]')))) {
    return { ok: false, reason: 'disabled' };
  }
  let r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return { ok: false, reason: 'hidden', detail: 'it has no size' };
  // Scroll it into view; when a sticky header or footer covered it last
  // time, the next attempt uses another alignment.
  const align = opts.attempt ? SCROLL_ALIGN[opts.attempt % SCROLL_ALIGN.length] : 'center';
  if (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth || r.top < 0 || r.bottom > innerHeight || opts.attempt) {
    el.scrollIntoView({ block: align, inline: 'center', behavior: 'instant' });
    const was = r;
    r = el.getBoundingClientRect();
    if (Math.abs(r.x - was.x) >= 0.5 || Math.abs(r.y - was.y) >= 0.5) noteScroll();
  }
  const res = { ok: true, box: boxOf(r) };
  // A scroll of the engine's (this one, or the step's before it) whose
  // listeners have not run yet: a virtualised list re-renders its rows
  // then, maybe between a press and its release.
  if (S.scrollPending) res.scrolling = true;
  if (kind === 'fill' || kind === 'type' || kind === 'focus' || kind === 'select') return res;
  if (styleOf(el).pointerEvents === 'none') return { ok: false, reason: 'pointer-events', detail: 'pointer-events: none', box: res.box };
  const pts = candidatePoints(el);
  if (!pts.length) return { ok: false, reason: 'hidden', detail: 'it is outside the viewport and cannot be scrolled into it' };
  const hits = [];
  for (const p of pts) {
    const hit = deepElementFromPoint(p.x, p.y);
    if (hitsTarget(hit, el)) {
      res.point = { x: p.x, y: p.y };
      return res;
    }
    hits.push(hit);
  }
  const firstHit = hits[0];
  if (kind === 'click' && !opts.js) {
    // Covered by its own widget (an editor's text layer over its
    // textarea): a user clicks there, and so does the click.
    const i = hits.findIndex((hit) => widgetPart(hit, el));
    if (i >= 0) {
      res.point = { x: pts[i].x, y: pts[i].y };
      res.part = shortSelector(hits[i]);
      return res;
    }
  }
  res.ok = false;
  res.reason = 'covered';
  res.point = pts[0];
  if (firstHit) res.interceptor = describeInterceptor(firstHit);
  return res;
}

// rectOf returns el's current box (for stability checks).
export function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}

// clickTarget returns the element to click for el: a hidden checkbox or
// radio is clicked through its visible label (spec §19.16).
export function clickTarget(el) {
  if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) {
    const r = el.getBoundingClientRect();
    const s = styleOf(el);
    const invisible = r.width < 2 || r.height < 2 || s.opacity === '0' || s.visibility !== 'visible' || s.display === 'none' || hiddenForAT(el);
    if (invisible) {
      for (const l of labelsOf(el)) if (isShown(l)) return l;
    }
  }
  return el;
}

// armProbe records whether the next pointer press reaches el.
// targetInfo is what an action's answer says about its element: role and
// name, and how the last lookup matched it.
export function targetInfo(el) {
  // The control a select widget shows in place of the combobox input it
  // moved off-screen is that combobox, named by the input (as the
  // snapshot shows it).
  const movedOff = effectiveRole(el) === 'generic' ? movedOffCombobox(el) : null;
  const d = movedOff ? { role: 'combobox', name: accessibleName(movedOff) } : describe(el);
  const f = S.lastFind, o = { role: d.role, name: d.name };
  if (f && f.el === el && f.matchCount > 1) { o.matchCount = f.matchCount; o.matchIndex = f.index; }
  if (f && f.el === el && f.alsoMatched) o.alsoMatched = f.alsoMatched;
  return o;
}

// clickPrep reads, in one round trip before a click, the element's info,
// its checked state (a toggle's) and, for a mouse click, arms the probe.
export function clickPrep(el, arm) {
  return { info: targetInfo(el), checked: checkedState(el), armed: arm ? armProbe(el) : false };
}

// The probe counts any event of the click that reaches el: a page that
// stops the press at window (or el inside a closed shadow root, which
// window's listeners cannot see into) still gets the click, and a
// JavaScript click on top of it would run its handler twice. It also
// records whether the click itself (click, dblclick, auxclick,
// contextmenu) reached el: a press that did while the release landed
// elsewhere (el moved or changed under the pointer) fired no click.
const PROBE_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
const PROBE_CLICKS = new Set(['click', 'dblclick', 'auxclick', 'contextmenu']);
const RELEASES = new Set(['pointerup', 'mouseup']);
const PRESSES = new Set(['pointerdown', 'mousedown']);

export function armProbe(el) {
  if (S.probe) S.probe.remove();
  const probe = {
    received: false, clicked: false, hit: null, clickHit: null, lookalike: null, presses: [], states: statesOf(el), el,
    // What the press must reach (pressVerdict): el as it is now.
    role: roleOf(el), name: accessibleName(el), text: textOf(el), judged: false, blocked: null, renamed: null, part: false
  };
  const reached = (ev) => {
    probe.received = true;
    if (PROBE_CLICKS.has(ev.type)) probe.clicked = true;
  };
  const atWindow = (ev) => {
    const path = ev.composedPath();
    if (!probe.judged && ev.isTrusted) {
      // The first event of the press decides whether the click goes
      // ahead: on anything but el (or its label, or a part of its
      // widget), the press and everything after it is stopped here,
      // before the page's own listeners see it.
      probe.judged = true;
      const v = pressVerdict(path, probe);
      probe.blocked = v.blocked || null;
      probe.renamed = v.renamed || null;
      probe.part = !!v.part;
    }
    if (probe.blocked) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      return;
    }
    if (probe.hit === null) probe.hit = path[0] && path[0].nodeType === 1 ? shortSelector(path[0]) : null;
    if (PRESSES.has(ev.type) && ev.isTrusted) probe.presses.push(ev);
    // The release of a press that removed el: on a look-alike of el in
    // the same state (the page re-rendered the same thing under the
    // pointer, and its click handlers wait for a click that will not
    // come), or on something else or a look-alike in another state (the
    // press's own handlers acted: a menu picked its item on mousedown).
    if (probe.lookalike === null && RELEASES.has(ev.type) && ev.isTrusted && !el.isConnected) {
      const n = lookalikeOnPath(path, probe);
      probe.lookalike = !!n && statesOf(n) === probe.states;
    }
    // Where the click event itself went, wherever that is (el re-rendered
    // while pressed: its replacement, or an ancestor).
    if (probe.clickHit === null && PROBE_CLICKS.has(ev.type)) probe.clickHit = path[0] && path[0].nodeType === 1 ? shortSelector(path[0]) : '';
    if (path.includes(el) || path.some((n) => n.tagName === 'LABEL' && n.control === el)) reached(ev);
  };
  probeListenOnce();
  for (const type of PROBE_EVENTS) el.addEventListener(type, reached, true);
  probe.atWindow = atWindow;
  probe.remove = () => {
    for (const type of PROBE_EVENTS) el.removeEventListener(type, reached, true);
    if (S.probe === probe) S.probe = null;
  };
  S.probe = probe;
  return true;
}

// probeListenOnce adds, once per document, the window's listeners of the
// probe (capture phase): they stay between clicks and pass events on only
// while a probe is armed, which costs less than adding and removing them
// with each click.
let probeListening = false;
function probeAtWindow(ev) {
  if (S.probe) S.probe.atWindow(ev);
}
function probeListenOnce() {
  if (probeListening) return;
  probeListening = true;
  for (const type of PROBE_EVENTS) window.addEventListener(type, probeAtWindow, true);
}

export function readProbe() {
  const p = S.probe;
  if (!p) return { received: true, clicked: true, gone: true };
  p.remove();
  const out = { received: p.received, clicked: p.clicked, hit: p.hit, clickHit: p.clickHit, detached: !p.el.isConnected, lookalike: p.lookalike };
  // A handler that prevented the press's default took the press for its
  // own (a widget that acts on mousedown and keeps the focus where it is).
  if (p.presses.some((e) => e.defaultPrevented)) out.pressTaken = true;
  if (p.blocked) {
    out.blocked = p.blocked;
    if (p.renamed) out.renamed = p.renamed;
  }
  if (p.part) {
    // The press went to a part of el's widget: the widget's own handler
    // focuses el, as it does for a user.
    const a = deepActiveElement();
    out.part = true;
    out.focused = !!a && (a === p.el || composedContains(p.el, a));
  }
  return out;
}

// ---- fill ----

// fillKind says how a field takes text: typed (insertText), set (value
// setter + events: date, range, color…) or select.
export function fillKind(el, value) {
  if (el.tagName === 'SELECT') return 'select';
  if (el.maxLength > 0 && value.length > el.maxLength) return 'too-long:' + el.maxLength;
  if (el.tagName === 'INPUT' && VALUE_TYPES.has((el.type || '').toLowerCase())) return 'set';
  return 'type';
}

// fillStart is a fill's first call: the kind of field (fillKind), the
// watch that tells a consumed value from a rejected one for a typed or set
// value (watchValue), and for a value that will be typed (a 'type' field
// unless react), the field focused and its text selected (prepareFill).
// A value to be typed is guarded (focusguard.js): it goes into el or
// nowhere; when focus does not stay on el, active names where it went.
export function fillStart(el, value, clear, react) {
  if (isAriaSlider(el)) {
    // Moved by its keys (fillslider.go), with it focused.
    el.focus({ preventScroll: true });
    const a = deepActiveElement();
    const focused = a === el || composedContains(el, a);
    return { kind: 'slider', focused, slider: sliderState(el), active: focused ? null : activeOther() };
  }
  const ed = editorOf(el);
  if (ed) {
    // An editor's surface: focused only; the editor's own keys select
    // (editors.js).
    guardFocus(el);
    el.focus({ preventScroll: true });
    const a = deepActiveElement();
    if (a === el || composedContains(el, a)) return { kind: 'editor', editor: ed.name, focused: true };
    readGuard();
    return { kind: 'editor', editor: ed.name, focused: false, active: activeOther() };
  }
  const kind = fillKind(el, value);
  if (kind === 'type' || kind === 'set') watchValue(el);
  if (kind !== 'type' || react) return { kind, focused: null };
  guardFocus(el);
  const focused = prepareFill(el, clear);
  if (focused) return { kind, focused };
  readGuard();
  return { kind, focused, active: activeOther() };
}

// typeStart focuses el for a type step, with the caret at its end, and
// guards it (focusguard.js); when focus does not stay on el, active names
// where it went.
export function typeStart(el) {
  guardFocus(el);
  el.focus({ preventScroll: true });
  if (typeof el.setSelectionRange === 'function') {
    try {
      const n = el.value.length;
      el.setSelectionRange(n, n);
    } catch (e) { /* type=email/number have no selection API */ }
  }
  const a = deepActiveElement();
  if (a === el || composedContains(el, a)) return { focused: true };
  readGuard();
  return { focused: false, active: activeOther() };
}

// activeOther describes the element that has focus instead of a field.
function activeOther() {
  const a = deepActiveElement();
  return a && a !== document.body ? hitOf(a) : null;
}

// prepareFill focuses el and selects what it holds (when clear), so typed
// text replaces it.
export function prepareFill(el, clear) {
  el.focus({ preventScroll: true });
  if (el.isContentEditable && !('value' in el)) {
    const sel = el.ownerDocument.getSelection();
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    sel.removeAllRanges();
    sel.addRange(range);
  } else if (typeof el.select === 'function' && clear) {
    el.select();
  } else if (typeof el.setSelectionRange === 'function') {
    try {
      const n = el.value.length;
      el.setSelectionRange(clear ? 0 : n, n);
    } catch (e) { /* type=email/number have no selection API */ }
  }
  return deepActiveElement() === el;
}

export function readValue(el) {
  if ('value' in el && el.tagName !== 'BUTTON') return String(el.value);
  return normalizeSpace(el.innerText || el.textContent || '');
}

// setValue sets the value through the prototype's setter, which React and
// similar frameworks observe, then fires input and (unless typing, which
// fires one change at its end) change.
export function setValue(el, value, typing) {
  const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : el.tagName === 'SELECT' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  const desc = Object.getOwnPropertyDescriptor(proto, 'value');
  if (el.isContentEditable && !('value' in el)) el.textContent = value;
  else if (desc && desc.set) desc.set.call(el, value);
  else el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  if (!typing) el.dispatchEvent(new Event('change', { bubbles: true }));
  return readValue(el);
}

// fireChange sends the change event of text a fill inserted. The browser
// sends its own when the field loses focus (the text was typed), so that
// one is held back when the field still holds what the fill put in: a
// page hears one change per fill, as it hears one per user's edit.
export function fireChange(el) {
  el.dispatchEvent(new Event('change', { bubbles: true }));
  if ('value' in el) holdBrowserChange(el);
  return true;
}

// filledValues are the fields whose browser change is held back, and the
// value each was filled with; holdingAt, the roots listening for it (a
// change event does not leave a shadow root, so a field inside one is
// heard at its root).
const filledValues = new WeakMap();
const holdingAt = new WeakSet();

function holdBrowserChange(el) {
  filledValues.set(el, el.value);
  const root = el.getRootNode();
  const at = root && root.host ? root : window;
  if (holdingAt.has(at)) return;
  holdingAt.add(at);
  at.addEventListener('change', (e) => {
    const t = e.composedPath()[0];
    if (!e.isTrusted || !filledValues.has(t)) return;
    const v = filledValues.get(t);
    filledValues.delete(t);
    if (t.value === v) e.stopImmediatePropagation();
  }, true);
  // The browser sends its change before the field's focusout: past that,
  // an edit is a new one (the page cleared the field, and the agent
  // typed the same text again).
  at.addEventListener('focusout', (e) => filledValues.delete(e.composedPath()[0]), true);
}

// ---- select ----

// selectOptions picks options of a <select> by value, label or index.
export function selectOptions(el, want) {
  if (el.tagName !== 'SELECT') {
    return { error: 'not-select', detail: 'a ' + effectiveRole(el) + ' (' + shortSelector(el) + '), not a <select>' };
  }
  const opts = [...el.options];
  const picked = [];
  for (const w of want) {
    let o = null;
    if (w.index !== undefined) o = opts[w.index] || null;
    if (!o && w.value !== undefined) o = opts.find((x) => x.value === String(w.value)) || null;
    if (!o && w.label !== undefined) {
      const l = normalizeSpace(String(w.label));
      o = opts.find((x) => normalizeSpace(x.label || x.text) === l) || opts.find((x) => normalizeSpace(x.label || x.text).toLowerCase() === l.toLowerCase()) || null;
    }
    if (!o && w.any !== undefined) {
      const s = String(w.any);
      o = opts.find((x) => x.value === s) || opts.find((x) => normalizeSpace(x.label || x.text) === normalizeSpace(s)) ||
        opts.find((x) => normalizeSpace(x.label || x.text).toLowerCase() === normalizeSpace(s).toLowerCase()) || null;
    }
    if (!o) {
      return { error: 'no-option', wanted: w, available: opts.slice(0, 10).map((x) => ({ value: x.value, label: normalizeSpace(x.label || x.text) })), count: opts.length };
    }
    if (o.disabled) return { error: 'disabled-option', wanted: w, label: normalizeSpace(o.label || o.text) };
    picked.push(o);
  }
  if (!el.multiple && picked.length > 1) return { error: 'single', count: picked.length };
  for (const o of opts) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: [...el.selectedOptions].map((o) => ({ value: o.value, label: normalizeSpace(o.label || o.text) })), multiple: el.multiple };
}

// ---- check ----

export function checkedState(el) {
  const role = effectiveRole(el);
  if (el.tagName === 'LABEL' && el.control) el = el.control;
  if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) return { checked: el.checked, role: el.type };
  const a = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  if (a !== null) return { checked: a === 'true', role };
  return { error: 'not checkable: a ' + role + ' (' + shortSelector(el) + ')' };
}

// ---- fill verification ----

// watchValue records the values el holds after the page's input handlers
// ran (a window bubble listener) and just before its change handlers run (a
// window capture listener), so a value the page consumed (added a todo,
// then cleared the field) can be told from one it rejected or rewrote (a
// mask or a truncating input handler: the value never held).
export function watchValue(el) {
  if (S.valueWatch) S.valueWatch.stop();
  const seen = [];
  const h = (ev) => {
    if (ev.target !== el && !ev.composedPath().includes(el)) return;
    const v = readValue(el);
    if (seen[seen.length - 1] !== v && seen.length < 20) seen.push(v);
  };
  window.addEventListener('input', h, false);
  window.addEventListener('change', h, true);
  S.valueWatch = {
    el, seen, stop() {
      window.removeEventListener('input', h, false);
      window.removeEventListener('change', h, true);
      S.valueWatch = null;
    },
  };
  return true;
}

// readFill returns el's value now and the values seen since watchValue.
export function readFill(el) {
  const w = S.valueWatch;
  let seen = [];
  if (w && w.el === el) {
    seen = w.seen;
    w.stop();
  }
  return { value: readValue(el), seen, redirected: readGuard().redirected };
}
