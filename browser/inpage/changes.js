// changes.js — what the actions of a command changed in the page, seen by
// the watch's MutationObserver while they ran (watch.js): the changed
// region (to scope the answer's viewport snapshot) and the text a user
// would notice (alerts, status lines, headings, short text blocks),
// including toasts that came and went before the action settled.
// Module of the in-page engine.

import { S } from './state.js';
import { isShown, normalizeSpace, truncate, withCaches } from './dom.js';
import { INTERACTIVE, TEXT_LEVEL, roleOf } from './roles.js';
import { ITEM_BLOCKERS } from './snapshot.js';

const LOG_MAX = 400; // mutation targets kept per command
const TEXT_MAX = 150; // longer text is not a "short text block"
const TEXT_ITEMS = 6; // text changes reported per kind
// NOTABLE_SEL are the elements whose text is news wherever it changes.
const NOTABLE_SEL = '[role=alert],[role=status],[role=log],[role=alertdialog],[aria-live],output,h1,h2,h3,h4,h5,h6,[role=heading]';
const NOTABLE_ROLES = new Set(['alert', 'status', 'log', 'alertdialog', 'heading', 'marquee', 'timer']);

let stepLog = null;

// stepLogStart begins (or continues) the command's log; the first action
// records the notable texts shown before it, to tell changed from added.
function stepLogStart() {
  if (stepLog) return stepLog;
  const before = new Map();
  let n = 0;
  for (const el of document.querySelectorAll(NOTABLE_SEL)) {
    if (n++ >= 100) break;
    const t = ownText(el);
    if (t && isShown(el)) before.set(el, t);
  }
  stepLog = { changed: [], seen: new Set(), added: [], removed: [], texts: new Map(), before, full: false };
  return stepLog;
}

// ownText is an element's text, spaces collapsed, cut to a line: not the
// text of the style sheets, scripts and templates inside it, which the
// page never shows.
function ownText(el) {
  if (!el.querySelector || !el.querySelector(NO_TEXT)) return truncate(normalizeSpace(el.textContent || ''), 120);
  let t = '';
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.nodeType === 1 && /** @type {Element} */ (n).matches(NO_TEXT) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walk.nextNode(); n && t.length < 400; n = walk.nextNode()) if (n.nodeType === 3) t += /** @type {Text} */ (n).data;
  return truncate(normalizeSpace(t), 120);
}

// NO_TEXT are the elements inside the body whose text is not shown.
const NO_TEXT = 'script,style,template,noscript';

function logChanged(log, el) {
  if (!el || el.nodeType !== 1) return false;
  if (log.seen.has(el)) return true;
  if (log.changed.length >= LOG_MAX) {
    log.full = true;
    return false;
  }
  log.changed.push(el);
  log.seen.add(el);
  return true;
}

// logText remembers the texts an element showed while the actions ran, so
// a toast that is gone by the end is still reported.
function logText(log, el) {
  if (!el || el.nodeType !== 1 || !logChanged(log, el)) return;
  const t = ownText(el);
  let seen = log.texts.get(el);
  if (!seen) log.texts.set(el, seen = []);
  if (t && seen[seen.length - 1] !== t && seen.length < 5) seen.push(t);
}

// NOT_SHOWN are elements whose text a page never shows: a changed
// document.title, a style sheet or script a library writes, a template.
const NOT_SHOWN = 'head,title,script,style,noscript,template';

// notShown reports whether node is or lies inside such an element.
function notShown(node) {
  const el = node && (node.nodeType === 1 ? node : node.parentElement);
  return !!el && !!el.closest(NOT_SHOWN);
}

// TOAST_CLASS names the classes of toasts, banners and messages.
const TOAST_CLASS = /toast|snack|alert|notif|flash|message|banner|error/i;

// notableEl reports whether el is an alert, status line, heading, live
// region, or looks like a toast or message.
function notableEl(el) {
  return el.matches(NOTABLE_SEL) || TOAST_CLASS.test(el.className || '');
}

// otherComponent reports whether node lies in the shadow tree of a
// component other than the one the action checked, outside anything
// notable there: a component ticking on its own (a clock, a carousel)
// must not fill every answer, while the cart badge or the toast region
// the action updated is news.
function otherComponent(node) {
  const root = node.getRootNode ? node.getRootNode() : null;
  if (!root || root === document || !root.host || (S.ownRoots && S.ownRoots.has(root))) return false;
  for (let el = node.nodeType === 1 ? node : node.parentElement; el; el = el.parentElement) if (notableEl(el)) return false;
  return !notableEl(root.host);
}

// notableIn reports whether el is notable for log: in a frame no action
// ran in (an ad, a chat widget) only by its role (an alert, a status line,
// a live region, a heading), not by a class that looks like a toast: ads
// rotate their banners and chats tick their "5 s ago".
function notableIn(log, el) {
  return log.other === 'frame' ? el.matches(NOTABLE_SEL) : notableEl(el);
}

// inNotable reports whether node is or lies inside an element notable
// for log.
function inNotable(log, node) {
  for (let el = node && (node.nodeType === 1 ? node : node.parentElement); el; el = el.parentElement) if (notableIn(log, el)) return true;
  return false;
}

// stepLogRecords notes mutation records (the watch observer's callback).
// In a document no action ran in (log.other), a text is news only inside
// something notable (an alert, a status line; a toast in the top
// document): an ad's or a widget's clock ticks on its own. Elements it
// adds are still logged (the diff lists the controls that appeared).
function stepLogRecords(records) {
  const log = stepLogStart();
  for (const r of records) {
    if (notShown(r.target) || otherComponent(r.target)) continue;
    if (log.other && r.type === 'characterData' && !inNotable(log, r.target)) continue;
    if (r.type === 'childList') {
      let text = false;
      for (const n of r.addedNodes) {
        if (n.nodeType === 1 && notShown(n)) continue;
        if (n.nodeType === 1) {
          if (!log.seen.has(n) && logChanged(log, n)) log.added.push({ el: n, text: ownText(n), notable: log.other && inNotable(log, r.target) });
        } else if (n.nodeType === 3) text = true;
      }
      for (const n of r.removedNodes) {
        if (n.nodeType === 1 && notShown(n)) continue;
        if (n.nodeType === 3) text = true;
        else if (n.nodeType === 1 && log.removed.length < 20) {
          const t = notableText(n);
          if (t && (!log.other || t.role !== 'text')) log.removed.push(t);
        }
      }
      if (text && (!log.other || inNotable(log, r.target))) logText(log, r.target);
    } else if (r.type === 'characterData') {
      logText(log, r.target.parentElement);
    } else if (r.type === 'attributes') {
      const el = r.target;
      // A class on body or a wrapper of everything is no region.
      if (el === document.body || el === document.documentElement || el.childElementCount > 50) continue;
      if (log.other ? notableIn(log, el) : notableEl(el)) logText(log, el);
      else logChanged(log, el);
    }
  }
}

// notableText describes a removed element whose text mattered: an alert,
// status, heading, or a short text block.
function notableText(el) {
  const role = roleOf(el);
  const t = ownText(el);
  if (!t) return null;
  if (NOTABLE_ROLES.has(role) || el.hasAttribute('aria-live')) return { role, text: t };
  if (TEXT_LEVEL.has(role) && t.length <= TEXT_MAX && !el.querySelector(ITEM_BLOCKERS)) return { role: 'text', text: t };
  return null;
}

// textRole names the kind of a text change's element.
function textRole(el) {
  const role = roleOf(el);
  if (NOTABLE_ROLES.has(role)) return role;
  const live = el.closest('[aria-live],[role=alert],[role=status]');
  if (live) return roleOf(live) === 'alert' || live.getAttribute('aria-live') === 'assertive' ? 'alert' : 'status';
  return 'text';
}

// textLines lists the notable texts inside an added element: itself when
// it is a short text block, else its alerts, status lines and headings.
function textLines(el, out) {
  if (!isShown(el)) return;
  const role = roleOf(el);
  const t = ownText(el);
  if (!t || INTERACTIVE.has(role)) return;
  if (NOTABLE_ROLES.has(role) || el.hasAttribute('aria-live') || (t.length <= TEXT_MAX && !el.querySelector(ITEM_BLOCKERS))) {
    out.push({ el, role: textRole(el), text: t });
    return;
  }
  for (const d of el.querySelectorAll(NOTABLE_SEL)) {
    if (out.length >= TEXT_ITEMS * 2) return;
    const dt = ownText(d);
    if (dt && isShown(d)) out.push({ el: d, role: textRole(d), text: dt });
  }
}

// changeWatch starts (or keeps) the observer that logs what the command's
// actions change, from the first action to the answer's capture
// (stepLogTake ends it); other starts the log of a document no action ran
// in yet. It runs in the engine's world; the action watch
// that waits for the page (watch.js) runs in the page's.
let changeObserver = null, changeExpiry = 0;
const CHANGE_WATCH_MAX = 60000; // a log nobody takes ends itself

export function changeWatch(other) {
  // A log the diff's baseline started (other: 'frame' in a frame, 'page'
  // in the top document) notes only what is notable (see stepLogRecords)
  // until an action runs in its document.
  stepLogStart().other = other === 'frame' || other === 'page' ? other : false;
  if (typeof MutationObserver !== 'function' || !document.documentElement) return true;
  if (!changeObserver) {
    changeObserver = new MutationObserver(withCaches((records) => {
      try { stepLogRecords(records); } catch (e) { /* the log is best effort */ }
    }));
    changeObserver.observe(document.documentElement, CHANGE_OPTS);
    changeExpiry = setTimeout(stopChangeWatch, CHANGE_WATCH_MAX);
  }
  // A document's observer does not see into shadow roots: those holding
  // the element the action checked are watched too (a web component
  // changes its own shadow tree when clicked), and those the last
  // snapshots walked (another component the action updates: a cart
  // badge, a toast region).
  let root = S.lastChecked && S.lastChecked.isConnected ? S.lastChecked.getRootNode() : null;
  S.ownRoots = new Set();
  while (root && root !== document && /** @type {ShadowRoot} */ (root).host) {
    changeObserver.observe(root, CHANGE_OPTS);
    S.ownRoots.add(root);
    root = /** @type {ShadowRoot} */ (root).host.getRootNode();
  }
  for (const sr of S.shadowRoots) {
    if (sr.host && sr.host.isConnected) changeObserver.observe(sr, CHANGE_OPTS);
    else S.shadowRoots.delete(sr);
  }
  return true;
}

const CHANGE_OPTS = { subtree: true, childList: true, attributes: true, characterData: true };

function stopChangeWatch() {
  if (!changeObserver) return;
  const obs = changeObserver;
  changeObserver = null;
  clearTimeout(changeExpiry);
  if (stepLog) {
    try { stepLogRecords(obs.takeRecords()); } catch (e) { /* best effort */ }
  }
  obs.disconnect();
}

// stepLogTake ends the command's log and returns the changed elements
// still in the page and the text changes: lines such as `+ alert: Please
// fix the errors below.`, `~ status: Saved (was: Saving…)`, `- alert:
// Wrong password`, and transient texts that appeared and vanished.
export function stepLogTake() {
  stopChangeWatch();
  const log = stepLog;
  stepLog = null;
  return summarizeLog(log);
}

// stepLogPeek is stepLogTake that keeps the log going: a capture taken
// ahead (capture.js captureAfter) may be dropped, and the capture that
// replaces it then reads the whole log.
export function stepLogPeek() {
  if (changeObserver && stepLog) {
    try { stepLogRecords(changeObserver.takeRecords()); } catch (e) { /* best effort */ }
  }
  return summarizeLog(stepLog);
}

// stepLogEnd ends the log without reading it.
export function stepLogEnd() {
  stopChangeWatch();
  stepLog = null;
}

function summarizeLog(log) {
  if (!log) return { changed: [], text: [], transient: [], none: true };
  const added = [], removed = [], changed = [], transient = [];
  const said = new Set();
  const say = (list, line) => {
    if (said.has(line) || list.length >= TEXT_ITEMS) return;
    said.add(line);
    list.push(line);
  };
  const roots = log.added.filter((a) => !log.added.some((o) => o !== a && o.el.contains(a.el)));
  for (const a of roots) {
    if (!a.el.isConnected || !isShown(a.el)) {
      if (a.text && (log.other ? notableIn(log, a.el) || a.notable : a.text.length <= TEXT_MAX || notableText(a.el))) say(transient, a.text);
      continue;
    }
    const lines = [];
    textLines(a.el, lines);
    for (const l of lines) if (!log.other || inNotable(log, l.el)) say(added, '+ ' + l.role + ': ' + l.text);
  }
  for (const [el, seen] of log.texts) {
    if (roots.some((a) => a.el.contains(el))) continue;
    const now = el.isConnected && isShown(el) ? ownText(el) : '';
    const was = log.before.get(el) || '';
    if (now && now !== was) {
      if (INTERACTIVE.has(roleOf(el)) || (now.length > TEXT_MAX && !el.matches(NOTABLE_SEL))) continue;
      say(was ? changed : added, (was ? '~ ' : '+ ') + textRole(el) + ': ' + now + (was ? ' (was: ' + was + ')' : ''));
      for (const t of seen) if (t !== now && t !== was) say(transient, t);
    } else if (!now) {
      for (const t of seen) if (t !== was) say(transient, t);
    }
  }
  for (const [el, was] of log.before) {
    if (log.texts.has(el)) {
      const now = el.isConnected && isShown(el) ? ownText(el) : '';
      if (!now) say(removed, '- ' + textRole(el) + ': ' + was);
      continue;
    }
    if (!el.isConnected || !isShown(el)) say(removed, '- ' + textRole(el) + ': ' + was);
  }
  for (const r of log.removed) {
    const line = '- ' + r.role + ': ' + r.text;
    if (!transient.includes(r.text) && ![...added, ...changed].some((l) => l.endsWith(': ' + r.text))) say(removed, line);
  }
  // A page that renders the same text again (a framework replacing its
  // nodes) changed nothing a user would notice: the line that left and the
  // same line that came are both dropped, and so is that text as transient.
  const body = (l) => l.slice(2);
  const same = new Set(removed.map(body).filter((b) => added.some((l) => body(l) === b)));
  const keep = (l) => !same.has(body(l));
  const sameText = new Set([...same].map((b) => b.slice(b.indexOf(': ') + 2)));
  added.splice(0, added.length, ...added.filter(keep));
  removed.splice(0, removed.length, ...removed.filter(keep));
  transient.splice(0, transient.length, ...transient.filter((t) => !sameText.has(t)));
  const els = log.full ? [] : log.changed.filter((el) => el.isConnected);
  // Alerts first: the summary names the first line.
  const rank = (l) => { const r = l.slice(2, l.indexOf(':')); return r === 'alert' || r === 'alertdialog' ? 0 : r === 'status' ? 1 : r === 'heading' ? 2 : 3; };
  const text = [...added, ...changed, ...removed].map((l, i) => [rank(l), i, l]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
  return { changed: els, full: log.full, text, transient, other: log.other };
}
