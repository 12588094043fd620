// focusguard.js — typed text goes only into the field it is meant for. A
// fill or type arms the guard on its field; until the guard is read, a
// trusted key, text or input event aimed at any other element (the page
// moved focus away: a focus handler, a timer, a keydown handler) is
// stopped before the page's own listeners see it, its default action (the
// text going in) is cancelled, and the guard records where it went.

import { S } from './state.js';
import { closedHost, hitOf } from './hittarget.js';
import { shortSelector } from './dom.js';
import { editProblem } from './editable.js';

const GUARD_EVENTS = ['keydown', 'keypress', 'keyup', 'textInput', 'beforeinput', 'input', 'compositionstart', 'compositionupdate', 'compositionend', 'paste'];

// guardListening: the window's listeners (capture phase) are added once per
// document and act only while a guard is armed.
let guardListening = false;
function guardAtWindow(ev) {
  const g = S.focusGuard;
  if (!g || !ev.isTrusted) return;
  const path = ev.composedPath();
  if (path.includes(g.el) || (g.host && path[0] === g.host)) return;
  if (!g.redirected && advances(g.el, path[0])) {
    g.advanced.push(shortSelector(path[0]));
    g.el = path[0];
    g.host = closedHost(g.el);
    return;
  }
  ev.preventDefault();
  ev.stopImmediatePropagation();
  if (!g.redirected) g.redirected = hitOf(path[0]);
}

// advances: the field is full (its maxlength reached) and focus went on
// to another text field, as split code inputs (a box per digit) move it
// while a user types: the typing goes on there, as it would for the
// user. Never from or to a password field.
function advances(from, to) {
  if (!to || to.nodeType !== 1 || from.type === 'password' || to.type === 'password') return false;
  if (!(from.maxLength > 0) || String(from.value || '').length < from.maxLength) return false;
  return (to.tagName === 'INPUT' || to.tagName === 'TEXTAREA') && editProblem(to) === null;
}

// guardFocus arms the guard on el (replacing any other).
export function guardFocus(el) {
  if (!guardListening) {
    guardListening = true;
    for (const type of GUARD_EVENTS) window.addEventListener(type, guardAtWindow, true);
  }
  S.focusGuard = { el, host: closedHost(el), redirected: null, advanced: [] };
  return true;
}

// readGuard disarms the guard and says where stopped text would have
// gone (redirected, null when nothing was stopped) and which full fields
// the typing went on from (advanced).
export function readGuard() {
  const g = S.focusGuard;
  S.focusGuard = null;
  return g ? { redirected: g.redirected, advanced: g.advanced } : { redirected: null, advanced: [] };
}
