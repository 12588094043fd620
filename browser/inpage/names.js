// names.js — accessible names per W3C accname 1.2 (the parts browsers
// implement), and the states and values shown in snapshots. Module of the
// in-page engine.

import {
  cache, childNodesComposed, forEachChildComposed, hiddenForAT, normalizeSpace,
  onlyVisibilityHidden, shadowRootOf, styleOf, truncate
} from './dom.js';
import { NAME_FROM_CONTENT, SKIP_TAGS, headingLevel, roleOf } from './roles.js';

// accessibleName is the name snapshots show: Chromium's name (fullName)
// with ASCII whitespace trimmed from its ends, and, for a name from
// content, non-breaking spaces too (accname's trim, as WPT expects). An
// author's NBSP (aria-label="label&nbsp;") stays, as do inner ones.
export function accessibleName(el) {
  let n = cache.name.get(el);
  if (n !== undefined) return n;
  n = fullName(el);
  const ends = nameFromAuthor ? ASCII_SPACE_ENDS : SPACE_ENDS;
  if (n && (isSpace(n.charCodeAt(0)) || isSpace(n.charCodeAt(n.length - 1)))) n = n.replace(ends, '');
  cache.name.set(el, n);
  return n;
}

// fullName is the accessible name exactly as Chromium's accessibility tree
// has it: runs of ASCII whitespace collapse to one space, the ends are not
// trimmed, NBSP and other non-ASCII spaces are kept.
export function fullName(el) {
  return collapseAsciiSpace(computeName(el, { root: el, visited: new Set(), labelledBy: false, hiddenRef: false, content: false }));
}

const ASCII_SPACE_RUN = /[ \t\n\f\r]+/g;
const ASCII_SPACE_ENDS = /^[ \t\n\f\r]+|[ \t\n\f\r]+$/g;
const SPACE_ENDS = /^[ \t\n\f\r\u00a0]+|[ \t\n\f\r\u00a0]+$/g;

function collapseAsciiSpace(s) {
  return s.replace(ASCII_SPACE_RUN, ' ');
}

function isAsciiSpace(c) {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
}

function isSpace(c) {
  return isAsciiSpace(c) || c === 0xa0;
}

export function byIdInRoot(el, id) {
  const root = el.getRootNode();
  return root.getElementById ? root.getElementById(id) : document.getElementById(id);
}

// nameFromAuthor tells whether the last computeName call took its result
// from an attribute or the host language (aria-label, alt, a label...)
// rather than from content: Chromium sets such a child's name apart by
// spaces in its parent's content.
let nameFromAuthor = false;

function computeName(node, ctx) {
  const s = computeName0(node, ctx);
  nameFromAuthor = s === AUTHORED;
  return nameFromAuthor ? AUTHORED.s : s;
}

// AUTHORED carries an authored name out of computeName0.
const AUTHORED = { s: '' };
function authored(s) {
  AUTHORED.s = s;
  return AUTHORED;
}

function computeName0(node, ctx) {
  if (node.nodeType === 3) return transformText(node);
  if (node.nodeType !== 1) return '';
  const el = node;
  if (ctx.visited.has(el)) return '';
  ctx.visited.add(el);
  const isRoot = el === ctx.root;

  // 2A: hidden nodes count only inside a hidden node that aria-labelledby
  // referenced directly. A node hidden by visibility alone may still have
  // visible descendants, which count in content.
  let ownTextHidden = false;
  if (!ctx.hiddenRef && hiddenForAT(el) && !(isRoot && el.tagName === 'AREA')) {
    if (!(ctx.content && onlyVisibilityHidden(el))) return '';
    ownTextHidden = true;
  }

  // 2B: aria-labelledby, followed one level only.
  if (!ctx.labelledBy) {
    const ids = (el.getAttribute('aria-labelledby') || '').trim();
    if (ids) {
      const parts = [];
      for (const id of ids.split(/\s+/)) {
        const ref = byIdInRoot(el, id);
        if (!ref) continue;
        // Each referenced node is named afresh (a node already named counts
        // again), but what it names is then visited: content that follows
        // does not count it twice (as Chromium).
        const hiddenRef = hiddenForAT(ref), visited = new Set();
        // The element itself, among its labels, gives its own name
        // (aria-label, title…), not its value as an embedded control.
        const self = ref === el;
        parts.push(computeName(ref, { root: ref, visited, labelledBy: true, hiddenRef, content: false, self, unrendered: hiddenRef && !ref.checkVisibility() }));
        for (const v of visited) ctx.visited.add(v);
      }
      const s = parts.join(' ');
      if (s.trim()) return authored(s);
    }
  }

  const role = roleOf(el);
  // 2C: an embedded control contributes its value, not its name: inside
  // content, or as the node aria-labelledby references.
  if ((!isRoot && ctx.content) || (isRoot && ctx.labelledBy && !ctx.self)) {
    const v = embeddedControlValue(el, role);
    if (v !== null) return authored(v);
  }

  // 2D: aria-label. A slot is no box of its own: its aria-label names
  // nothing, what it shows (slotted or default content) counts.
  const label = el.tagName === 'SLOT' ? null : el.getAttribute('aria-label');
  if (label && label.trim()) return authored(label);

  // 2E: the host language's own labels.
  if (role !== 'none') {
    const native = nativeName(el, role, ctx);
    if (native !== null) {
      if (typeof native === 'object') return authored(native.final);
      if (native.trim()) return authored(native);
    }
  }

  // 2F: name from content. Inside content, a child's text counts even when
  // it is only a space; container roles contribute no content there.
  if (NAME_FROM_CONTENT.has(role) || (ctx.content || ctx.labelledBy) && (isRoot || !NO_CONTENT_IN_RECURSION.has(role))) {
    const s = nameFromContent(el, ctx, ownTextHidden);
    if (s.trim() || (s && !isRoot)) return s;
  }

  // 2I: tooltip, the last resort, also for children in content. Chromium
  // does not name roles that prohibit naming (generic, paragraph, the
  // text-level roles) from title, except abbr and a node aria-labelledby
  // references. (WPT also names kbd from title; Chromium does not, and our
  // fixtures follow Chromium.)
  const title = el.getAttribute('title');
  if (title && title.trim() && (!TITLE_PROHIBITED.has(role) || el.tagName === 'ABBR' || (isRoot && ctx.labelledBy))) return authored(title);
  if ((role === 'textbox' || role === 'searchbox' || role === 'combobox') && isRoot) {
    const ph = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder');
    if (ph) return authored(ph);
  }
  return '';
}

// transformText applies the parent's text-transform: names use the text
// as rendered.
function transformText(node) {
  const p = node.parentElement;
  if (!p) return node.data;
  switch (styleOf(p).textTransform) {
    case 'uppercase': return node.data.toUpperCase();
    case 'lowercase': return node.data.toLowerCase();
    case 'capitalize': return node.data.replace(/\b\w/g, (c) => c.toUpperCase());
  }
  return node.data;
}

// Container roles whose content Chromium leaves out of an ancestor's name
// (they are named by their author only).
const NO_CONTENT_IN_RECURSION = new Set(['alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote',
  'complementary', 'contentinfo', 'dialog', 'document', 'feed', 'figure', 'form', 'grid', 'group', 'iframe', 'img',
  'listbox', 'log', 'main', 'marquee', 'menu', 'menubar', 'meter', 'navigation', 'note', 'progressbar', 'radiogroup',
  'scrollbar', 'search', 'searchbox', 'separator', 'slider', 'spinbutton', 'status', 'tablist', 'tabpanel',
  'textbox', 'timer', 'toolbar', 'tree', 'treegrid']);

// Roles Chromium never names from title.
const TITLE_PROHIBITED = new Set(['generic', 'none', 'paragraph', 'code', 'strong', 'emphasis', 'mark', 'time', 'deletion',
  'insertion', 'subscript', 'superscript', 'caption']);

function embeddedControlValue(el, role) {
  const tag = el.tagName;
  const native = tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
  switch (role) {
    case 'textbox': case 'searchbox':
      if (native) return el.type === 'password' ? '\u2022'.repeat(el.value.length) : el.value;
      return el.textContent;
    case 'combobox': case 'listbox': {
      if (tag === 'SELECT') return [...el.selectedOptions].map((o) => o.label || o.text).join(' ');
      if (tag === 'INPUT') return el.value;
      // An ARIA listbox contributes its selected option; an ARIA combobox
      // its text when it is focusable, else its label (as Chromium).
      if (role === 'listbox') return selectedOptionText(el);
      // A combobox whose listbox (inside it, owned or controlled) has a
      // selected option gives that option (as Chromium).
      const list = comboboxListbox(el);
      if (list) {
        const sel = selectedOptionText(list);
        if (sel) return sel;
      }
      if (el.hasAttribute('tabindex')) return el.textContent;
      return el.getAttribute('aria-label') || '';
    }
    case 'slider': case 'spinbutton': case 'progressbar': case 'meter': case 'scrollbar': {
      const vt = el.getAttribute('aria-valuetext');
      if (vt) return vt;
      const vn = el.getAttribute('aria-valuenow');
      if (vn) return vn;
      return 'value' in el ? String(el.value) : '';
    }
  }
  return null;
}

// ownedElements are the elements el owns through aria-owns (not its own
// descendants or ancestors).
function ownedElements(el) {
  const ids = el.getAttribute('aria-owns');
  if (!ids || !ids.trim()) return [];
  const out = [];
  for (const id of ids.trim().split(/\s+/)) {
    const o = byIdInRoot(el, id);
    if (o && o !== el && !el.contains(o) && !o.contains(el)) out.push(o);
  }
  return out;
}

// selectedOptionText is the text of a listbox's selected option ('' when
// none is selected), the listbox's own or one it owns.
function selectedOptionText(list) {
  let sel = list.querySelector('[role=option][aria-selected=true]');
  if (!sel) {
    for (const id of (list.getAttribute('aria-owns') || '').split(/\s+/)) {
      const o = id && byIdInRoot(list, id);
      if (o && o.getAttribute('aria-selected') === 'true') { sel = o; break; }
    }
  }
  return sel ? sel.textContent.trim() : '';
}

// comboboxListbox is the listbox of an ARIA combobox: inside it, or
// referenced by aria-owns or aria-controls.
function comboboxListbox(el) {
  const inside = el.querySelector('[role=listbox]');
  if (inside) return inside;
  for (const attr of ['aria-owns', 'aria-controls']) {
    for (const id of (el.getAttribute(attr) || '').split(/\s+/)) {
      const ref = id && byIdInRoot(el, id);
      if (ref && ref.getAttribute('role') === 'listbox') return ref;
    }
  }
  return null;
}

// labelsOf returns the labels of a labelable element. el.labels scans the
// whole document on every call in Chromium, so label[for] elements are
// indexed once per call and wrapping labels found by walking up.
export function labelsOf(el) {
  if (!LABELABLE.has(el.tagName)) return [];
  const root = el.getRootNode();
  let index = cache.labels.get(root);
  if (!index) {
    index = new Map();
    for (const l of root.querySelectorAll('label[for]')) {
      const id = l.htmlFor;
      if (!index.has(id)) index.set(id, []);
      index.get(id).push(l);
    }
    cache.labels.set(root, index);
  }
  const out = el.id && index.has(el.id) ? index.get(el.id).filter((l) => l.control === el) : [];
  const wrap = el.parentElement && el.parentElement.closest('label');
  if (wrap && !wrap.hasAttribute('for') && wrap.control === el && !out.includes(wrap)) {
    // Labels name their control in document order.
    out.push(wrap);
    if (out.length > 1) out.sort((a, b) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
  }
  return out;
}

const LABELABLE = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'METER', 'OUTPUT', 'PROGRESS']);

function labelsText(el, ctx) {
  const labels = labelsOf(el);
  if (!labels.length) return null;
  const parts = [];
  for (const l of labels) {
    // A hidden label does not name its control (only aria-labelledby
    // reaches hidden text).
    if (!ctx.hiddenRef && hiddenForAT(l)) continue;
    // Chromium trims each label's text.
    parts.push(collapseAsciiSpace(computeName(l, { root: l, visited: ctx.visited, labelledBy: false, hiddenRef: ctx.hiddenRef, content: true })).replace(ASCII_SPACE_ENDS, ''));
  }
  return parts.join(' ');
}

// nativeName returns the host-language name, null when there is none, or
// {final} for a name that ends the computation even when empty.
function nativeName(el, _role, ctx) {
  const tag = el.tagName;
  if (tag === 'INPUT') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (type === 'button' || type === 'submit' || type === 'reset') {
      const l = labelsText(el, ctx);
      if (l && l.trim()) return l;
      if (el.hasAttribute('value')) return { final: el.getAttribute('value') };
      return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : null;
    }
    if (type === 'image') {
      const l = labelsText(el, ctx);
      if (l && l.trim()) return l;
      const alt = el.getAttribute('alt');
      if (alt !== null && alt.trim()) return alt;
      if (el.hasAttribute('value')) return { final: el.getAttribute('value') };
      return el.getAttribute('title') || 'Submit';
    }
    const l = labelsText(el, ctx);
    if (l && l.trim()) return l;
    // A file input's title comes before its button's text (WPT).
    const title = el.getAttribute('title');
    if (title && title.trim()) return title;
    if (type === 'file') return 'Choose File';
    return null;
  }
  if (tag === 'TEXTAREA' || tag === 'SELECT' || tag === 'METER' || tag === 'PROGRESS' || tag === 'OUTPUT' || tag === 'BUTTON') {
    const l = labelsText(el, ctx);
    if (l && l.trim()) return l;
    return null;
  }
  if (tag === 'IMG' || tag === 'AREA') {
    const alt = el.getAttribute('alt');
    return alt !== null ? alt : null;
  }
  if (tag === 'FIELDSET') {
    const legend = [...el.children].find((c) => c.tagName === 'LEGEND');
    return legend ? computeName(legend, { ...ctx, root: legend, content: true }) : null;
  }
  if (tag === 'TABLE') {
    const cap = el.caption;
    const c = cap && !hiddenForAT(cap) ? computeName(cap, { ...ctx, root: cap, content: true }) : '';
    return c.trim() ? c : el.getAttribute('summary');
  }
  if (tag === 'IFRAME') return el.getAttribute('title');
  if (el.namespaceURI === 'http://www.w3.org/2000/svg') {
    const t = [...el.children].find((c) => c.localName === 'title');
    return t ? t.textContent : null;
  }
  if (tag === 'OPTGROUP') return el.getAttribute('label');
  if (tag === 'OPTION' && el.hasAttribute('label')) return el.getAttribute('label');
  return null;
}

// hasPseudoContent reports whether any style sheet that applies to el could
// generate ::before/::after content; when none can, names skip the costly
// pseudo-element style reads. Answers are cached per document and shadow
// root for the call.
function hasPseudoContent(el) {
  const doc = el.ownerDocument;
  let has = cache.pseudo.get(doc);
  if (has === undefined) {
    has = scanSheets(doc.styleSheets) || (!!doc.adoptedStyleSheets && scanSheets(doc.adoptedStyleSheets));
    cache.pseudo.set(doc, has);
  }
  if (has) return true;
  const root = el.getRootNode();
  if (root === doc || !root.host) return false;
  let own = cache.pseudo.get(root);
  if (own === undefined) {
    own = [...root.querySelectorAll('style')].some((st) => /:(before|after)/.test(st.textContent)) ||
      (!!root.adoptedStyleSheets && scanSheets(root.adoptedStyleSheets)) || hasPseudoContent(root.host);
    cache.pseudo.set(root, own);
  }
  return own;
}

function scanSheets(sheets) {
  for (const sheet of sheets) {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { return true; }
    if (rules && scanRules(rules)) return true;
  }
  return false;
}

function scanRules(rules) {
  for (const r of rules) {
    if (r.selectorText && /:(before|after)/.test(r.selectorText)) return true;
    if (r.cssRules && scanRules(r.cssRules)) return true;
  }
  return false;
}

// pseudoContent returns what ::before/::after generates, or null when it
// generates nothing: its text (the alternative text after a slash when one
// is given, even empty) and whether it stands apart from the text around it
// (not inline, an image, or alternative text, as Chromium lays them out).
function pseudoContent(el, which) {
  if (!hasPseudoContent(el)) return null;
  const st = getComputedStyle(el, which);
  const c = st.content;
  if (!c || c === 'none' || c === 'normal' || st.display === 'none') return null;
  const slash = topLevelSlash(c);
  const main = slash >= 0 ? c.slice(0, slash) : c;
  const image = /(^|\s)(url|image-set|linear-gradient|radial-gradient)\(/.test(main);
  const text = slash >= 0 ? contentText(el, c.slice(slash + 1)) : image ? '' : contentText(el, c);
  return { text, separate: st.display !== 'inline' || image || slash >= 0 };
}

// topLevelSlash finds the "/" that starts a content value's alternative
// text (outside strings and functions), or -1.
function topLevelSlash(c) {
  let depth = 0;
  for (let i = 0; i < c.length; i++) {
    const ch = c[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < c.length && c[i] !== ch; i++) if (c[i] === '\\') i++;
    } else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '/' && depth === 0) return i;
  }
  return -1;
}

// contentText joins the strings and attr() values of a content value;
// counters and quotes contribute nothing (as in Chromium's names).
function contentText(el, v) {
  let out = '';
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([^\s)]+)\s*\)/g;
  for (let m; (m = re.exec(v));) {
    if (m[3] !== undefined) out += el.getAttribute(m[3]) || '';
    else out += (m[1] !== undefined ? m[1] : m[2]).replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_x, hex, ch) => hex ? String.fromCodePoint(parseInt(hex, 16)) : ch);
  }
  return out;
}

// nameFromContent joins the names of el's flat-tree children as Chromium
// does: text as layout renders it, and one space between children that
// are not in the same line box flow (blocks, inline-blocks, replaced
// elements, out-of-flow boxes), unless the text so far ends in a space.
// A child that is rendered but nameless still separates its neighbours.
function nameFromContent(el, ctx, ownTextHidden) {
  const sub = { root: ctx.root, visited: ctx.visited, labelledBy: ctx.labelledBy, hiddenRef: ctx.hiddenRef, content: true, unrendered: ctx.unrendered };
  let out = '';
  let prev = 0; // 0: no child yet, 1: inline, 2: apart from its neighbours
  const add = (s, apart) => {
    if (s && prev && out && (apart || prev === 2) && !isAsciiSpace(out.charCodeAt(out.length - 1))) out += ' ';
    out += s;
    prev = apart ? 2 : 1;
  };
  const before = pseudoContent(el, '::before');
  if (before) add(before.text, before.separate);
  if (styleOf(el).contentVisibility !== 'hidden') {
    forEachChildComposed(el, true, (child) => {
      if (child.nodeType === 3) {
        if (ownTextHidden) return;
        const t = renderedText(child, sub);
        if (t) add(t, false);
      } else if (child.nodeType === 1 && !SKIP_TAGS.has(child.tagName)) {
        if (!sub.hiddenRef && hiddenForAT(child) && !onlyVisibilityHidden(child)) return;
        const unrendered = sub.unrendered || styleOf(child).display === 'none';
        const s = computeName(child, unrendered === sub.unrendered ? sub : { ...sub, unrendered });
        add(s, unrendered || nameFromAuthor || apartInFlow(child));
      }
    });
    // Elements it owns (aria-owns) are its last children.
    for (const owned of ownedElements(el)) {
      if (!sub.hiddenRef && hiddenForAT(owned) && !onlyVisibilityHidden(owned)) continue;
      const s = computeName(owned, sub);
      add(s, true);
    }
  }
  const after = pseudoContent(el, '::after');
  if (after) add(after.text, after.separate);
  return out;
}

// apartInFlow reports whether el's content is not in the same line box
// flow as its siblings' text (Chromium then puts a space between them).
function apartInFlow(el) {
  if (el.tagName === 'BR' || ATOMIC_TAGS.has(el.tagName) || el.localName === 'svg') return true;
  const st = styleOf(el);
  return st.display !== 'inline' || st.position === 'absolute' || st.position === 'fixed' || st.cssFloat !== 'none';
}

// Elements laid out as one atomic inline box (replaced content).
const ATOMIC_TAGS = new Set(['IMG', 'INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'IFRAME', 'VIDEO', 'AUDIO', 'CANVAS',
  'OBJECT', 'EMBED', 'METER', 'PROGRESS']);

// renderedText is a text node's text as layout renders it with collapsible
// white space: ASCII runs collapse to one space, and a space is not rendered
// at the start of a line, after another space, or at the end of a line.
// Text that is not rendered (inside a hidden node aria-labelledby
// references) keeps its spaces; the name collapses them at the end.
function renderedText(node, ctx) {
  const t = transformText(node);
  if (ctx.unrendered || !t) return t;
  const first = isAsciiSpace(t.charCodeAt(0)), last = isAsciiSpace(t.charCodeAt(t.length - 1));
  if (!first && !last) return t;
  const p = flatParent(node);
  if (!p || p.nodeType !== 1 || preservesSpace(p)) return t;
  let s = collapseAsciiSpace(t);
  if (first && flowEdge(node, -1) !== 'content') s = s.slice(1);
  if (s.length && s.charCodeAt(s.length - 1) === 32 && flowEdge(node, 1) !== 'content') s = s.slice(0, -1);
  return s;
}

function preservesSpace(el) {
  const st = styleOf(el);
  const c = st.whiteSpaceCollapse;
  if (c) return c === 'preserve' || c === 'break-spaces' || c === 'preserve-spaces';
  return /^(pre|pre-wrap|break-spaces)$/.test(st.whiteSpace);
}

function flatParent(node) {
  if (node.assignedSlot) return node.assignedSlot;
  const p = node.parentNode;
  if (p && p.nodeType === 11) return p.host || null;
  return p;
}

// flatSibling returns node's previous (dir -1) or next (dir 1) sibling in
// the flat tree.
function flatSibling(node, dir) {
  const p = flatParent(node);
  if (!p) return null;
  if (!node.assignedSlot && p === node.parentNode && !(p.localName === 'slot' || shadowRootOf(p))) {
    return dir < 0 ? node.previousSibling : node.nextSibling;
  }
  const kids = [...childNodesComposed(p, true)];
  const i = kids.indexOf(node);
  return i < 0 ? null : kids[i + dir] || null;
}

// flowEdge tells what comes before (dir -1) or after (dir 1) node on its
// line: 'content', 'space' (a collapsible space before it) or 'break' (the
// line starts or ends there).
function flowEdge(node, dir) {
  for (let n = node; ;) {
    for (let s = flatSibling(n, dir); s; s = flatSibling(s, dir)) {
      const r = edgeOf(s, dir);
      if (r) return r;
    }
    const p = flatParent(n);
    if (!p || p.nodeType !== 1) return 'break';
    const ps = pseudoEdge(p, dir < 0 ? '::before' : '::after', dir);
    if (ps) return ps;
    const st = styleOf(p);
    if ((st.display !== 'inline' && st.display !== 'contents') || ATOMIC_TAGS.has(p.tagName) || st.position === 'absolute' ||
      st.position === 'fixed' || st.cssFloat !== 'none') return 'break';
    n = p;
  }
}

// edgeOf classifies the end of n facing the text being rendered (its last
// content for dir -1, its first for dir 1), or '' when n is transparent.
function edgeOf(n, dir) {
  if (n.nodeType === 3) {
    const t = n.data;
    if (!t) return '';
    const p = flatParent(n);
    if (p && p.nodeType === 1 && preservesSpace(p)) return 'content';
    if (!/[^ \t\n\f\r]/.test(t)) return dir < 0 ? 'space' : '';
    return dir < 0 && isAsciiSpace(t.charCodeAt(t.length - 1)) ? 'space' : 'content';
  }
  if (n.nodeType !== 1 || SKIP_TAGS.has(n.tagName)) return '';
  const st = styleOf(n);
  if (st.display === 'none') return '';
  if (n.tagName === 'BR') return 'break';
  if (st.position === 'absolute' || st.position === 'fixed' || st.cssFloat !== 'none') return '';
  if (ATOMIC_TAGS.has(n.tagName) || n.localName === 'svg') return 'content';
  if (st.display !== 'inline' && st.display !== 'contents') return st.display.startsWith('inline') ? 'content' : 'break';
  const near = pseudoEdge(n, dir < 0 ? '::after' : '::before', dir);
  if (near) return near;
  const kids = childNodesComposed(n, true);
  for (let i = dir < 0 ? kids.length - 1 : 0; i >= 0 && i < kids.length; i += dir) {
    const r = edgeOf(kids[i], dir);
    if (r) return r;
  }
  return pseudoEdge(n, dir < 0 ? '::before' : '::after', dir);
}

// pseudoEdge classifies el's ::before or ::after content like edgeOf.
function pseudoEdge(el, which, dir) {
  const pc = pseudoContent(el, which);
  if (!pc) return '';
  if (pc.separate) return 'content';
  const t = pc.text;
  if (!/[^ \t\n\f\r]/.test(t)) return t && dir < 0 ? 'space' : '';
  return dir < 0 && isAsciiSpace(t.charCodeAt(t.length - 1)) ? 'space' : 'content';
}

// deepActiveElement follows focus into shadow roots and same-origin frames.
export function deepActiveElement() {
  let a = document.activeElement;
  // Closed roots too (shadowRootOf knows those CDP registered).
  for (let r = a && shadowRootOf(a); r && r.activeElement; r = shadowRootOf(a)) a = r.activeElement;
  return a;
}

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

// stateOf returns the states of el shown in brackets, in a fixed order.
export function stateOf(el, role, focused) {
  const st = {};
  if (CHECKABLE.has(role)) {
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) {
      st.checked = el.indeterminate ? 'mixed' : el.checked;
    } else {
      const a = el.getAttribute('aria-checked');
      st.checked = a === 'mixed' ? 'mixed' : a === 'true';
    }
  }
  if (el.matches(':disabled') || (anyAriaDisabled(el) && el.closest('[aria-disabled=true]'))) st.disabled = true;
  const exp = el.getAttribute('aria-expanded');
  if (exp === 'true' || exp === 'false') st.expanded = exp === 'true';
  else if (el.tagName === 'SUMMARY' && el.parentElement && el.parentElement.tagName === 'DETAILS') st.expanded = el.parentElement.open;
  const pressed = el.getAttribute('aria-pressed');
  if (pressed === 'true' || pressed === 'mixed') st.pressed = pressed === 'mixed' ? 'mixed' : true;
  if (role === 'option' && el.tagName === 'OPTION') { if (el.selected) st.selected = true; }
  else if (el.getAttribute('aria-selected') === 'true') st.selected = true;
  if (el.required || el.getAttribute('aria-required') === 'true') st.required = true;
  const inv = el.getAttribute('aria-invalid');
  if (inv && inv !== 'false') st.invalid = inv === 'true' ? true : inv;
  else if (el.matches && safeMatches(el, ':user-invalid')) st.invalid = true;
  if (role === 'heading') st.level = headingLevel(el);
  if (role === 'columnheader' || role === 'rowheader') {
    const sort = el.getAttribute('aria-sort');
    if (sort === 'ascending' || sort === 'descending' || sort === 'other') st.sort = sort;
  }
  if ((el.readOnly && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA')) || el.getAttribute('aria-readonly') === 'true') st.readonly = true;
  if (focused) st.focused = true;
  return st;
}

// anyAriaDisabled tells, once per call and document, whether any element
// carries aria-disabled=true (so that most elements skip the ancestor walk).
export function anyAriaDisabled(el) {
  const root = el.getRootNode();
  let v = cache.ariaDisabled.get(root);
  if (v === undefined) {
    v = !!root.querySelector('[aria-disabled=true]') || (root !== document && anyAriaDisabled(root.host || document.documentElement));
    cache.ariaDisabled.set(root, v);
  }
  return v;
}

export function safeMatches(el, sel) {
  try { return el.matches(sel); } catch (e) { return false; }
}

export const MASK = '••••••••';

// SECRET_NAME matches a name, id or autocomplete that says a field holds a
// secret (as browser/domredact.go's secretInput does for getDom).
const SECRET_NAME = /(passw|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|one-time-code|cvv|cvc)/i;

// isSecretField reports whether a field's value is masked wherever it is
// read: a password, or a field named like a key or a token.
export function isSecretField(el) {
  if (el.type === 'password') return true;
  return SECRET_NAME.test(el.getAttribute('name') || '') || SECRET_NAME.test(el.id || '') ||
    SECRET_NAME.test(el.getAttribute('autocomplete') || '');
}

// valueOf returns the value shown after the colon, or null.
export function valueOf(el, role) {
  switch (role) {
    case 'textbox': case 'searchbox': case 'spinbutton': case 'combobox':
      if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
        if (isSecretField(el)) return el.value ? MASK : '';
        return el.value;
      }
      if (el.tagName === 'SELECT') return [...el.selectedOptions].map((o) => o.label || o.text).join(', ');
      if (el.isContentEditable) return normalizeSpace(el.innerText || '');
      return el.getAttribute('aria-valuetext') || null;
    case 'listbox':
      if (el.tagName === 'SELECT') return [...el.selectedOptions].map((o) => o.label || o.text).join(', ');
      return null;
    case 'slider': case 'progressbar': case 'meter': case 'scrollbar':
      return el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || ('value' in el ? String(el.value) : null);
  }
  return null;
}

// linkURL returns a short href: a path for same-origin links.
export function linkURL(el) {
  const href = el.getAttribute('href');
  if (href === null || href === '' || href === '#' || href.startsWith('javascript:')) return null;
  // Anchors and root-relative paths read well as written; only relative
  // paths need resolving (el.href is costly on link-heavy pages).
  if (href[0] === '#' || (href[0] === '/' && href[1] !== '/')) return truncate(href, 80);
  let s = /^[a-z][a-z0-9+.-]*:/i.test(href) ? href : (typeof el.href === 'string' ? el.href : href);
  const origin = location.origin;
  if (origin !== 'null' && s.startsWith(origin) && (s.length === origin.length || s[origin.length] === '/')) s = s.slice(origin.length) || '/';
  return truncate(s, 80);
}
