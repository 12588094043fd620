// forms.js — select, check, focus and upload helpers. Module of the
// in-page engine.

import { composedContains, normalizeSpace, shortSelector, truncate } from './dom.js';
import { accessibleName, byIdInRoot, deepActiveElement } from './names.js';
import { allShadowRoots, effectiveRole } from './refs.js';
import { checkedState, selectOptions } from './act.js';
import { describeControl, replacingWidget, widgetFollowed, widgetShows } from './replaced.js';

// ---- select ----

// selectTarget is the <select> an action on el means: el, or the control of
// the label el.
function selectTarget(el) {
  if (el.tagName === 'LABEL' && el.control && el.control.tagName === 'SELECT') return el.control;
  return el;
}

// customOptions lists the option names of a custom dropdown that are in the
// DOM (its own [role=option] descendants or those of the listbox it
// controls or owns).
function customOptions(el) {
  const boxes = [el];
  for (const attr of ['aria-controls', 'aria-owns']) {
    for (const id of (el.getAttribute(attr) || '').split(/\s+/)) {
      const b = id && byIdInRoot(el, id);
      if (b) boxes.push(b);
    }
  }
  const names = [];
  for (const b of boxes) {
    for (const o of b.querySelectorAll('[role=option]')) {
      const n = accessibleName(o) || normalizeSpace(o.textContent || '');
      if (n && !names.includes(n)) names.push(n);
    }
  }
  return names;
}

// notNativeSelect explains a selectOption target that is not a <select>.
function notNativeSelect(el) {
  const role = effectiveRole(el);
  const out = { error: 'custom', role, name: truncate(accessibleName(el), 60), selector: shortSelector(el) };
  const opts = customOptions(el);
  if (opts.length) {
    out.options = opts.slice(0, 10);
    out.count = opts.length;
  }
  return out;
}

// wantSelected reports whether the option asked for by w is selected.
function wantSelected(sel, w) {
  if (w.index !== undefined) return !!sel.options[w.index] && sel.options[w.index].selected;
  const picked = [...sel.selectedOptions];
  if (w.value !== undefined) return picked.some((o) => o.value === String(w.value));
  const l = normalizeSpace(String(w.label !== undefined ? w.label : w.any)).toLowerCase();
  return picked.some((o) => (w.any !== undefined && o.value === String(w.any)) || normalizeSpace(o.label || o.text).toLowerCase() === l);
}

// selectOption selects options of a native <select> (see selectOptions)
// and reports, after the page's input and change handlers ran, which of the
// wanted options are not selected (missing). A <select> that a library
// hides behind a widget of its own (replaced.js) must be followed by the
// widget: else the selection is put back and the answer names the
// widget's control (error 'replaced').
export async function selectOption(el, want) {
  const sel = selectTarget(el);
  if (sel.tagName !== 'SELECT') return notNativeSelect(sel);
  const rep = replacingWidget(sel);
  const before = [...sel.options].map((o) => o.selected);
  const shownBefore = rep ? widgetShows(rep) : '';
  const r = selectOptions(sel, want);
  if (r.error === 'disabled-option') {
    const enabled = [...sel.options].filter((o) => !o.disabled);
    r.available = enabled.slice(0, 10).map((o) => ({ value: o.value, label: normalizeSpace(o.label || o.text) }));
    r.count = enabled.length;
  }
  if (r.error) return r;
  const missing = want.filter((w) => !wantSelected(sel, w));
  if (missing.length) r.missing = missing;
  r.selected = [...sel.selectedOptions].map((o) => ({ value: o.value, label: normalizeSpace(o.label || o.text) }));
  if (!rep) return r;
  const changed = [...sel.options].some((o, i) => o.selected !== before[i]);
  // The widget renders the change on its next frame, if at all.
  await new Promise((res) => {
    requestAnimationFrame(() => res());
    setTimeout(res, 100);
  });
  if (widgetFollowed(rep, r.selected.map((o) => o.label), shownBefore, changed)) {
    r.widget = describeControl(rep);
    return r;
  }
  [...sel.options].forEach((o, i) => { o.selected = before[i]; });
  if (changed) {
    sel.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    sel.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return {
    error: 'replaced', widget: describeControl(rep), shows: truncate(widgetShows(rep), 80), selector: shortSelector(sel),
    wantedLabels: r.selected.map((o) => o.label),
  };
}

// ---- check ----

// checkableRoles are the ARIA roles check/uncheck work on (every role
// that supports aria-checked); aria-checked absent means unchecked for
// them.
const checkableRoles = ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem'];

// selectableRoles are the checkable roles whose state, without
// aria-checked, is aria-selected (a multi-select listbox's option).
const selectableRoles = ['option', 'treeitem'];

// checkableOf returns the checkable control an action on el means: el, the
// control of the label el, or the closest checkable ancestor of el (the
// text or box inside a custom checkbox); null when there is none.
function checkableOf(el) {
  if (el.tagName === 'LABEL' && el.control) return el.control;
  for (let e = el; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
    if (e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio')) return e;
    if (checkableRoles.includes(effectiveRole(e)) || e.hasAttribute('aria-checked')) return e;
    if (e !== el && (e.tagName === 'LABEL' || e.tagName === 'BUTTON' || e.tagName === 'A')) break;
  }
  return null;
}

// checkTarget reads the checkable state of el for check/uncheck, with
// whether it is disabled.
export function checkTarget(el) {
  const ctl = checkableOf(el);
  if (!ctl) {
    const c = checkedState(el);
    if (c.error) return { error: 'not checkable: it is a ' + effectiveRole(el) + ' (' + shortSelector(el) + '), not a checkbox, radio, switch, checkable menu item, option or tree item' };
    return c;
  }
  /** @type {{ checked: boolean, role: string, disabled?: boolean, mixed?: boolean }} */
  let c;
  if (ctl.tagName === 'INPUT') c = { checked: ctl.checked, role: ctl.type };
  else {
    const role = effectiveRole(ctl);
    let a = ctl.getAttribute('aria-checked') ?? ctl.getAttribute('aria-pressed');
    if (a === null && selectableRoles.includes(role)) a = ctl.getAttribute('aria-selected');
    c = { checked: a === 'true', role };
  }
  c.disabled = ctl.matches(':disabled') || !!ctl.closest('[aria-disabled=true]');
  c.mixed = (ctl.tagName === 'INPUT' && ctl.indeterminate) || ctl.getAttribute('aria-checked') === 'mixed';
  return c;
}

// ---- focus ----

// focusElement focuses el (the control of a label) and reports whether the
// deep active element is it, or inside it (delegated focus).
export function focusElement(el) {
  const t = el.tagName === 'LABEL' && el.control ? el.control : el;
  t.focus();
  const a = deepActiveElement();
  const focused = !!a && (a === t || composedContains(t, a));
  const out = { focused };
  if (!focused) {
    out.active = a && a !== document.body ? shortSelector(a) : null;
    out.focusable = t.tabIndex >= 0 || t.hasAttribute('tabindex') || t.isContentEditable;
    out.disabled = t.matches(':disabled');
    out.what = shortSelector(t);
  }
  return out;
}

// ---- upload ----

function isFileInput(el) {
  return el.tagName === 'INPUT' && (el.type || '').toLowerCase() === 'file';
}

// fileInput returns the <input type=file> an upload on el means: el, the
// control of the label el, or the only file input inside el (a drop zone);
// null when el is none of those (a button that opens a file chooser).
export function fileInput(el) {
  if (isFileInput(el)) return el;
  if (el.tagName === 'LABEL' && el.control && isFileInput(el.control)) return el.control;
  const found = [];
  for (const root of [el, ...allShadowRoots(el, [])]) {
    for (const i of root.querySelectorAll('input[type=file]')) found.push(i);
  }
  return found.length === 1 ? found[0] : null;
}

// fileState reads what a file input holds.
export function fileState(el) {
  const files = [...(el.files || [])];
  return { count: files.length, names: files.map((f) => f.name), multiple: !!el.multiple, disabled: el.matches(':disabled'), seen: fileSeen.get(el) || null };
}

// fileSeen records, per file input, the names it held at its last input or
// change event: a page may clear the input once it has read the files.
const fileSeen = new WeakMap();

// watchFiles starts recording what the page sees of el's files and returns
// its current state.
export function watchFiles(el) {
  if (!fileSeen.has(el)) {
    const record = () => fileSeen.set(el, [...(el.files || [])].map((f) => f.name));
    el.addEventListener('input', record, true);
    el.addEventListener('change', record, true);
  }
  fileSeen.set(el, null);
  return fileState(el);
}
