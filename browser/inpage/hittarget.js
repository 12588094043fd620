// hittarget.js — whether the element under the pointer is the target of a
// click: the target or inside it, its label, or a part of the same widget
// (a code editor's text layer drawn over its hidden textarea). The click's
// check picks its point with it, and the press probe (act.js armProbe)
// checks, at press time, the element the press actually reached, so a page
// that swaps what is under the pointer when it arrives gets no click.

import { composedContains, normalizeSpace, parentElementComposed, shortSelector, styleOf, truncate } from './dom.js';
import { accessibleName } from './names.js';
import { roleOf } from './roles.js';
import { editProblem } from './editable.js';

// Elements that are controls of their own: a press on one activates it,
// whatever widget it sits in.
const CONTROL_TAGS = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL', 'SUMMARY', 'OPTION', 'IFRAME', 'VIDEO', 'AUDIO']);
const CONTROL_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'slider', 'spinbutton', 'textbox', 'searchbox', 'combobox', 'treeitem', 'gridcell', 'scrollbar'
]);
// Roles of a container that is one widget to the user: what is inside it
// belongs to it.
const WIDGET_ROLES = new Set([
  'application', 'combobox', 'grid', 'listbox', 'menu', 'menubar', 'radiogroup', 'tablist', 'tree', 'treegrid',
  'textbox', 'searchbox', 'toolbar'
]);

// isControl: e takes presses of its own (a button, link, field, an
// element in the tab order or with a widget role).
export function isControl(e) {
  if (!e || e.nodeType !== 1) return false;
  if (CONTROL_TAGS.has(e.tagName)) return true;
  if (e.tagName === 'A' && e.hasAttribute('href')) return true;
  if (e.hasAttribute('tabindex') && e.tabIndex >= 0) return true;
  if (e.isContentEditable && !(e.parentElement && e.parentElement.isContentEditable)) return true;
  const r = (e.getAttribute('role') || '').trim().split(/\s+/)[0];
  return CONTROL_ROLES.has(r);
}

// controlOf is the control hit is part of (itself when none).
export function controlOf(hit) {
  for (let e = hit; e && e !== document.body; e = parentElementComposed(e)) if (isControl(e)) return e;
  return hit;
}

// isEditable: el takes typed text (a text field, textarea or editable
// content), so focus is what a click on it must achieve.
function isEditable(el) {
  return el.tagName !== 'SELECT' && editProblem(el) === null;
}

// isWidgetContainer: e is focusable or has a composite widget role, so
// what lies inside it is one widget to the user.
function isWidgetContainer(e) {
  if (e.hasAttribute('tabindex') && e.tabIndex >= 0) return true;
  if (e.isContentEditable) return true;
  return WIDGET_ROLES.has((e.getAttribute('role') || '').trim().split(/\s+/)[0]);
}

// widgetPart reports whether hit, an element that covers the editable
// target el at a point, is part of el's own widget, so that a user's click
// there is how el is reached: hit and el share a container (not the body)
// with no control, no fixed or sticky layer and no blocking layer between
// hit and it; and hit shows the text cursor (an editor's text layer), or
// el's nearest focusable or widget container holds hit too.
export function widgetPart(hit, el) {
  if (!hit || hit.nodeType !== 1 || !el || !el.isConnected || !isEditable(el)) return false;
  let common = null;
  for (let e = parentElementComposed(el); e; e = parentElementComposed(e)) {
    if (composedContains(e, hit)) {
      common = e;
      break;
    }
  }
  if (!common || common === document.body || common === document.documentElement) return false;
  for (let e = hit; e && e !== common; e = parentElementComposed(e)) {
    if (isControl(e) || isNamedBlockingLayer(e)) return false;
    const pos = styleOf(e).position;
    if (pos === 'fixed' || pos === 'sticky') return false;
  }
  if (/text/.test(styleOf(hit).cursor)) return true;
  for (let e = parentElementComposed(el); e && e !== document.body; e = parentElementComposed(e)) {
    if (isWidgetContainer(e)) return composedContains(e, hit);
  }
  return false;
}

// hitOf describes the element a press reached (its control when it is
// part of one), for the error that says the click did not go to the
// target.
export function hitOf(hit) {
  if (!hit || hit.nodeType !== 1) return { selector: 'nothing' };
  const c = controlOf(hit);
  const out = { selector: shortSelector(c), role: roleOf(c) || 'generic' };
  const name = truncate(normalizeSpace(accessibleName(c) || c.innerText || ''), 60);
  if (name) out.name = name;
  if (c !== hit) {
    // Inside a focusable list or grid: which of its items.
    const item = textOf(itemOf(hit, c));
    if (item && item !== name) out.at = truncate(item, 60);
  }
  return out;
}

const ITEM_ROLES = new Set(['listitem', 'option', 'row', 'treeitem', 'gridcell', 'cell', 'menuitem', 'article']);

// itemOf is the item of the container c that hit is in (a row, a list
// item), or hit itself.
function itemOf(hit, c) {
  for (let e = hit; e && e !== c; e = parentElementComposed(e)) {
    if (e.tagName === 'LI' || e.tagName === 'TR' || ITEM_ROLES.has(roleOf(e))) return e;
  }
  return hit;
}

// pressVerdict judges the first event of a press (the composed path of a
// trusted pointerdown or mousedown, seen at window) against the probe's
// target: ok, ok through a part of the target's widget, ok on a
// replacement of a target the page re-rendered (same role and name), or
// blocked with what the press reached instead.
export function pressVerdict(path, probe) {
  const el = probe.el;
  const hit = path[0] && path[0].nodeType === 1 ? path[0] : null;
  if (path.includes(el)) {
    const name = accessibleName(el);
    if (sameName(name, probe.name)) return {};
    return { blocked: hitOf(el), renamed: { from: truncate(probe.name, 60), to: truncate(name, 60) } };
  }
  if (path.some((n) => n.tagName === 'LABEL' && n.control === el)) return {};
  if (hit && closedHost(el) === hit) return {};
  if (!el.isConnected && hit && replacementOnPath(path, probe)) return {};
  if (widgetPart(hit, el)) return { part: true };
  return { blocked: hitOf(hit) };
}

// replacementOnPath: the press reached an element that stands where the
// re-rendered target stood (a virtualised list's row rendered again, a
// framework's button replaced): on the press's path, before any control
// of its own, an element of the target's role, name and text.
function replacementOnPath(path, probe) {
  return !!lookalikeOnPath(path, probe);
}

// lookalikeOnPath is the element replacementOnPath finds (null when none).
export function lookalikeOnPath(path, probe) {
  for (const n of path) {
    if (!n || n.nodeType !== 1) continue;
    if (roleOf(n) === probe.role && sameName(accessibleName(n), probe.name) && (probe.name || textOf(n) === probe.text)) return n;
    if (isControl(n)) return null;
  }
  return null;
}

const STATE_ATTRS = ['aria-selected', 'aria-checked', 'aria-pressed', 'aria-expanded', 'aria-current'];

// statesOf is the ARIA states of el a press can change (selected,
// checked, pressed, expanded, current), as one string to compare.
export function statesOf(el) {
  return STATE_ATTRS.map((a) => el.getAttribute(a) || '').join('|');
}

// textOf is the text a replacement of an element without a name must show
// too (roles named only by their author, such as listitem, have none).
export function textOf(el) {
  return truncate(normalizeSpace(el.textContent || ''), 200);
}

// sameName: the name at press time still says what the name at arm time
// said. Hover decoration that adds to it ("Next" and "Next →", generated
// content) keeps it; a name that no longer holds the old one ("Continue"
// and "Delete everything") does not.
function sameName(now, was) {
  const a = normalizeSpace(now).toLowerCase(), b = normalizeSpace(was).toLowerCase();
  return a === b || !b || a.includes(b) || (!!a && b.includes(a));
}

// closedHost is the host of the outermost closed shadow root around el
// (null when there is none): events seen at window are retargeted to it.
export function closedHost(el) {
  let host = null;
  for (let root = el.getRootNode(); root && root.host; root = root.host.getRootNode()) {
    if (root.mode === 'closed') host = root.host;
  }
  return host;
}

const BLOCKING_ATTR_RE = /cookie|consent|gdpr|modal|dialog|overlay|backdrop|popup|pop-up|lightbox|interstitial|newsletter/i;

// isNamedBlockingLayer: box says it is a layer a user has to dismiss (a
// modal or dialog, or named as a backdrop, overlay, consent banner or
// popup), whatever its size.
export function isNamedBlockingLayer(box) {
  if (box.matches(':modal') || box.getAttribute('aria-modal') === 'true') return true;
  const role = roleOf(box);
  if (role === 'dialog' || role === 'alertdialog') return true;
  const attrs = [box.id, typeof box.className === 'string' ? box.className : '', box.getAttribute('aria-label') || ''].join(' ');
  return BLOCKING_ATTR_RE.test(attrs) && !/toast|snackbar|notification/i.test(attrs);
}
