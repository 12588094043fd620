// replaced.js — native <select>s that a UI library hides and replaces
// with a widget of its own (Tom Select, Choices.js, select2, Chosen,
// bootstrap-select). The user operates the widget; the hidden <select> is
// only its form value, and most such libraries do not follow changes made
// to it. So the snapshot leaves it out, and selectOption on it (by selector
// or label) is verified on the widget, else undone and refused with the
// widget's ref. Module of the in-page engine.

import { isShown, normalizeSpace, styleOf, truncate } from './dom.js';
import { accessibleName } from './names.js';
import { effectiveRole, refFor, refName } from './refs.js';
import { S } from './state.js';

// SIBLING_ROLES are the roles of a widget's control that follows the
// <select> (the library inserts its widget right after it); an ancestor
// (the library wrapped the <select>) must itself be, or hold, a combobox
// or listbox. A button counts when it opens a popup (aria-haspopup): a
// plain button next to a visually hidden <select> is another control.
const SIBLING_ROLES = new Set(['combobox', 'listbox', 'searchbox']);
const WRAPPER_ROLES = new Set(['combobox', 'listbox']);
const CONTROLS = '[role=combobox],[role=listbox],[role=searchbox],[aria-haspopup],button,input,[tabindex]';

function widgetControl(e, roles) {
  const role = effectiveRole(e);
  if (roles.has(role)) return true;
  const pop = e.getAttribute('aria-haspopup');
  return role === 'button' && !!pop && pop !== 'false';
}

// hiddenVisually: display: none, or the screen-reader-only pattern
// (clipped to nothing, a pixel wide, or transparent).
function hiddenVisually(el) {
  const s = getComputedStyle(el);
  if (s.display === 'none' || el.hidden) return true;
  const r = el.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1 || Number(s.opacity) === 0) return true;
  return s.clipPath === 'inset(50%)' || /^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(s.clip);
}

// replacingWidget returns the shown widget that stands in for sel, a
// <select> hidden from sight, and the control of it a user operates;
// null when sel shows or nothing stands in for it.
export function replacingWidget(sel) {
  if (!sel || sel.tagName !== 'SELECT' || !hiddenVisually(sel)) return null;
  const cands = [];
  for (let n = sel.nextElementSibling, i = 0; n && i < 2; n = n.nextElementSibling, i++) cands.push([n, SIBLING_ROLES]);
  for (let a = sel.parentElement, i = 0; a && i < 2 && a !== document.body; a = a.parentElement, i++) cands.push([a, WRAPPER_ROLES]);
  for (const [c, roles] of cands) {
    if (c.tagName === 'SELECT' || c.tagName === 'FORM' || c.querySelectorAll('select').length > (c.contains(sel) ? 1 : 0)) continue;
    const control = [c, ...c.querySelectorAll(CONTROLS)].find((e) => e !== sel && !sel.contains(e) && widgetControl(e, roles) && isShown(e));
    if (control) return { widget: c, control };
  }
  return null;
}

// widgetShows is the text a user sees in the widget.
export function widgetShows(rep) {
  return normalizeSpace(rep.widget.innerText || '');
}

// describeControl names the widget's control for an answer: its ref, role
// and name.
export function describeControl(rep) {
  const el = rep.control;
  const role = effectiveRole(el);
  return { ref: refFor(el, role, refName(el, role), Math.max(S.snapSeq, 1)), role, name: truncate(accessibleName(el), 60) };
}

// widgetFollowed says whether the widget shows the options now selected
// (labels), having shown before what it shows now only when they were
// selected already.
export function widgetFollowed(rep, labels, shownBefore, changed) {
  const now = widgetShows(rep);
  if (!labels.every((l) => !l || now.includes(l))) return false;
  return !changed || now !== shownBefore;
}

// movedOffCombobox returns the combobox input that a select widget moved
// off-screen out of its control el, or null. Tom Select's single select
// with a chosen value places its input at left: -10000px and shows the
// value where it was, in the control that opens it on a click: that
// control, seen and clicked, is the combobox, named by the input and
// valued by what it shows. Asked only of clickable generic elements.
/**
 * @param {Element} el
 * @returns {HTMLInputElement | null}
 */
export function movedOffCombobox(el) {
  for (const c of el.children) {
    if (c.tagName !== 'INPUT' || c.getAttribute('role') !== 'combobox' || styleOf(c).position !== 'absolute') continue;
    const r = c.getBoundingClientRect(), o = el.getBoundingClientRect();
    if (r.right <= o.left || r.left >= o.right || r.bottom <= o.top || r.top >= o.bottom) return /** @type {HTMLInputElement} */ (c);
  }
  return null;
}

// standInFor is the control that stands in for el when el is a combobox
// input a select widget moved off-screen out of it (movedOffCombobox):
// what a lookup by label, text or role must act on, since no click reaches
// the input. null for any other element.
/**
 * @param {Element} el
 * @returns {Element | null}
 */
export function standInFor(el) {
  const p = el.parentElement;
  return p && el.tagName === 'INPUT' && isShown(p) && movedOffCombobox(p) === el ? p : null;
}
