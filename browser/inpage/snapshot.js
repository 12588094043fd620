// snapshot.js — builds the ARIA tree of the page and renders it as the
// YAML-like snapshot agents read. Module of the in-page engine.

import { S } from './state.js';
import {
  cache, clip, fail, forEachChildComposed, hiddenForAT, inClosedDetails, inViewport, normalizeSpace, parentElementComposed, styleOf, truncate
} from './dom.js';
import { INTERACTIVE, LANDMARKS, LEAF, NAME_FROM_CONTENT, SKIP_TAGS, TEXT_LEVEL, ariaIndex, roleOf, unknownRoleOf } from './roles.js';
import { accessibleName, deepActiveElement, linkURL, stateOf, valueOf } from './names.js';
import { effectiveRole, refFor, refName } from './refs.js';
import { selectorQuery } from './find.js';
import { movedOffCombobox, replacingWidget } from './replaced.js';

// Build context for one snapshot.
export function newBuild(opts, snapId) {
  return {
    pierce: opts.pierceShadow !== false,
    // Frames are not walked here: each frame's own engine snapshots it and
    // the Go side splices that under the iframe's line (framesnap.go).
    frames: !opts.noFrames && opts.detail !== 'summary',
    slots: [],
    viewport: !!opts.viewportOnly,
    maxDepth: opts.maxDepth > 0 ? opts.maxDepth : 50,
    maxElements: opts.maxElements > 0 ? opts.maxElements : Infinity,
    nameLimit: opts.nameLimit > 0 ? opts.nameLimit : 100,
    textLimit: opts.textLimit > 0 ? opts.textLimit : 200,
    refs: opts.refs !== false,
    snapId,
    count: 0,
    truncated: false,
    focused: deepActiveElement(),
    flat: [],
    items: new WeakSet(),
    delegated: new WeakSet(),
    // header is the column header being walked (see headerCell).
    header: null,
    // clip is the innermost element around the walk that clips what
    // overflows it, with the visible part of its box (viewport only).
    clip: null,
  };
}

// clickMarked reports an element the page gave a click-type listener.
// The Go side finds them through CDP (DOMDebugger.getEventListeners,
// listeners.go) and hands them over with markClicks; the set lives in
// this isolated world, where the page can neither read nor forge it.
function clickMarked(el) {
  return S.clickMarks.has(el);
}

// markClicks adds elements to the set of those with a click-type
// listener; listeners on html and body are delegation and mark nothing.
export function markClicks(els) {
  let n = 0;
  for (const el of els) {
    if (!el || el.nodeType !== 1 || el === document.body || el === document.documentElement) continue;
    S.clickMarks.add(el);
    n++;
  }
  return n;
}

// ITEM_BLOCKERS are the descendants that make a block more than a plain
// entry: it holds its own controls.
export const ITEM_BLOCKERS = 'a[href],button,input,select,textarea,[role],[tabindex],[onclick]';

// splitItems handles a clickable container whose children are entries of
// one kind (a div-built menu, a list the page delegates clicks for): each
// child of the same tag and class that holds text and no control of its
// own becomes a clickable line, and the container does not. It reports
// whether it split.
function splitItems(el, b) {
  const kids = el.children;
  if (kids.length < 2 || kids.length > 200) return false;
  const tag = kids[0].tagName, cls = kids[0].className;
  for (const k of kids) {
    if (k.tagName !== tag || k.className !== cls || !TEXT_LEVEL.has(roleOf(k))) return false;
    const d = styleOf(k).display;
    if (d === 'none' || d === 'contents' || d.startsWith('inline')) return false;
    if (!k.textContent.trim() || k.querySelector(ITEM_BLOCKERS)) return false;
  }
  for (const k of kids) b.items.add(k);
  return true;
}

// handlesClicks reports an element with a click-type handler of its own.
function handlesClicks(el) {
  return el.hasAttribute('onclick') || typeof el.onclick === 'function' || clickMarked(el);
}

// ITEM_CONTROLS are the descendants that make a list item more than an
// entry to pick: it holds its own controls, which get the refs.
const ITEM_CONTROLS = 'a[href],button,input,select,textarea,[onclick],[contenteditable=""],[contenteditable=true],' +
  '[tabindex]:not([tabindex^="-"]),' + ['button', 'link', 'checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'slider', 'spinbutton', 'treeitem'].map((r) => '[role=' + r + ']').join(',');

// delegateItems handles a list whose clicks the page handles on the list
// itself, or on a wrapper holding only the list (jQuery UI's autocomplete
// menu, .on('click', 'li', …)): the user clicks an item, so each item that
// holds text and no control of its own gets a ref (b.delegated). A list
// with no handler of its own (a static list, or one whose clicks only the
// document listens for) gives its items none. It reports whether it found
// items.
function delegateItems(el, role, b) {
  let list = el;
  if (role !== 'list') {
    if (el.childElementCount !== 1) return false;
    list = el.firstElementChild;
    if (roleOf(list) !== 'list') return false;
  }
  if (list.children.length > 500) return false;
  let n = 0;
  for (const k of list.children) {
    if (roleOf(k) !== 'listitem' || !k.textContent.trim() || k.querySelector(ITEM_CONTROLS)) continue;
    b.delegated.add(k);
    n++;
  }
  return n > 0;
}

// isDraggable reports an element a user drags: draggable=true (HTML5 drag
// and drop), or, for a generic element or a list item, a grab or move
// cursor of its own (a pointer-drag library's card or handle).
function isDraggable(el, role, style) {
  if (el.getAttribute('draggable') === 'true') return true;
  if (!TEXT_LEVEL.has(role) && role !== 'listitem') return false;
  const c = style.cursor;
  if (c !== 'grab' && c !== 'move' && c !== '-webkit-grab') return false;
  const p = parentElementComposed(el);
  return !p || styleOf(p).cursor !== c;
}

function isClickableGeneric(el, style) {
  if (handlesClicks(el)) return true;
  const ti = el.getAttribute('tabindex');
  if (ti !== null && +ti >= 0) return true;
  if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return true;
  if (style.cursor === 'pointer') {
    const p = parentElementComposed(el);
    return !p || styleOf(p).cursor !== 'pointer';
  }
  return false;
}

// clips reports an element that cuts off what overflows it (a scrolling
// list, a carousel's frame): what lies outside its box is not in view,
// even when it is inside the window.
// The body's and the root's overflow is the window's: they clip nothing
// of their own.
function clips(el, style) {
  if (el === document.body || el === document.documentElement) return false;
  return style.overflowX !== 'visible' || style.overflowY !== 'visible';
}

// meet is the part of box r inside box c (c null: all of r).
function meet(r, c) {
  const box = { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  if (c) {
    box.top = Math.max(box.top, c.top);
    box.bottom = Math.min(box.bottom, c.bottom);
    box.left = Math.max(box.left, c.left);
    box.right = Math.min(box.right, c.right);
  }
  return box;
}

// clippedOut reports an element (box r) wholly outside the box of the
// elements around it that clip (b.clip): rows a scrolling list holds
// below its visible part, slides a carousel moved out of its frame. An
// absolutely placed element whose containing block is outside the
// clipping element escapes its clip, as the browser draws it.
function clippedOut(el, r, style, b) {
  const c = b.clip;
  if (!c) return false;
  if (style.position === 'absolute') {
    const op = el.offsetParent;
    if (!op || (op !== c.el && !c.el.contains(op))) return false;
  }
  const box = c.box;
  return r.bottom <= box.top || r.top >= box.bottom || r.right <= box.left || r.left >= box.right;
}

// overflowsInto reports an element out of view whose content may not be:
// it lets its children overflow its box (a carousel's track, moved by a
// transform so that its own box is off to the left while the current
// slide overflows into the frame), so the walk goes on into them.
//
// A box's scroll overflow only reaches down and to the right, so an
// element whose box starts below or right of the window cannot bring any
// into view: that is decided from its box alone, without the style and
// layout reads (on a long page most elements the walk meets are below
// the window).
function overflowsInto(el, r, style) {
  if (r.top >= innerHeight || r.left >= innerWidth) return false;
  if (clips(el, style)) return false;
  return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
}

// clipFor is the clip the walk carries into el's children (box r, in the
// view): el's own when it clips, else the one around it. Whether el
// clips is asked only when it matters: el has element children and its
// box does not cover the window (what a box covering the window cuts off
// is out of the window anyway).
function clipFor(el, r, style, outer) {
  if (!r || (!el.firstElementChild && !el.shadowRoot)) return outer;
  if (r.top <= 0 && r.left <= 0 && r.bottom >= innerHeight && r.right >= innerWidth) return outer;
  return clips(el, style) ? { el, box: meet(r, outer && outer.box) } : outer;
}

// headerCell reports a column header a user clicks (to sort, mostly): it
// is sortable (aria-sort) or something inside it handles clicks. It gets
// the ref and its text as its name, and the generic clickables inside it
// (AG Grid's label and resize handle) fold into it (b.header), so the
// header reads `columnheader "Price" [ref=…]`, not unnamed clickables.
function headerCell(el, role, b) {
  if (role !== 'columnheader' || !b.refs || b.header) return false;
  if (el.hasAttribute('aria-sort') || handlesClicks(el)) return true;
  for (const d of el.querySelectorAll('*')) {
    if (TEXT_LEVEL.has(roleOf(d)) && handlesClicks(d)) return true;
  }
  return false;
}

// orderRows puts the rows among nodes in their aria-rowindex order, the
// order a user sees: a grid that sorts by moving rows visually (AG Grid
// keeps its DOM order and sets aria-rowindex) lists them as shown. Other
// nodes keep their places; rows without an index keep theirs.
export function orderRows(nodes) {
  const at = [], rows = [];
  nodes.forEach((n, i) => {
    const ix = n.role === 'row' && n.el ? ariaIndex(n.el, 'aria-rowindex') : null;
    if (ix !== null) {
      at.push(i);
      rows.push({ n, ix });
    }
  });
  if (rows.length < 2) return;
  rows.sort((a, c) => a.ix - c.ix);
  at.forEach((i, k) => { nodes[i] = rows[k].n; });
}

// walkChildren appends the nodes for node's children to out.
export function walkChildren(node, depth, out, b, textVisible) {
  forEachChildComposed(node, b.pierce, (child) => {
    if (b.count >= b.maxElements) {
      b.truncated = true;
      return false;
    }
    const t = child.nodeType;
    if (t === 3) {
      // The element a text run came from places it for the answer's
      // scoped snapshot (scopeToChange).
      if (textVisible && child.data) out.push({ text: child.data, el: child.parentElement });
    } else if (t === 1) {
      walkElement(child, depth + 1, out, b);
    }
    return true;
  });
}

export function walkElement(el, depth, out, b) {
  if (SKIP_TAGS.has(el.tagName)) return;
  if (depth > b.maxDepth) {
    b.truncated = true;
    return;
  }
  const style = styleOf(el);
  const display = style.display;
  if (display === 'none' || el.getAttribute('aria-hidden') === 'true' || inClosedDetails(el)) return;
  let r = null;
  if (b.viewport && display !== 'contents') {
    r = el.getBoundingClientRect();
    if ((r.width > 0 || r.height > 0) && style.position !== 'fixed' && (!inViewport(r) || clippedOut(el, r, style, b)) && !overflowsInto(el, r, style)) return;
  }
  const visibility = style.visibility;
  const visible = visibility !== 'hidden' && visibility !== 'collapse';
  // The walk only reaches shown elements: tell the name computation.
  cache.hidden.set(el, !visible);
  let role = roleOf(el);
  if (role === 'generic' && el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) role = 'textbox';
  const block = display !== 'inline' && display !== 'contents' && !display.startsWith('inline');
  const draggable = visible && isDraggable(el, role, style);
  let clickable = visible && TEXT_LEVEL.has(role) && !b.header && (b.items.has(el) || draggable || isClickableGeneric(el, style));
  if (clickable && !b.items.has(el) && !draggable && (splitItems(el, b) || delegateItems(el, role, b))) clickable = false;
  else if (visible && role === 'list' && handlesClicks(el)) delegateItems(el, role, b);
  // The control a select widget shows in place of its combobox input,
  // which it moved off-screen, is the combobox (movedOffCombobox).
  const standIn = clickable ? movedOffCombobox(el) : null;
  if (standIn) {
    role = 'combobox';
    clickable = false;
  }
  if (b.pierce && !el.shadowRoot && el.localName.includes('-')) noteClosedCandidate(el);

  if (!visible || (TEXT_LEVEL.has(role) && !clickable)) {
    // Transparent: the children join the parent, separated when block-level.
    // A label's own text is dropped when it names a control: the control's
    // line already carries it.
    if (block) out.push({ text: ' ' });
    const outer = b.clip;
    b.clip = clipFor(el, r, style, outer);
    walkChildren(el, depth, out, b, visible && !labelsShownControl(el));
    b.clip = outer;
    if (block) out.push({ text: ' ' });
    return;
  }
  if (el.tagName === 'OPTION' && el.closest('select')) return;
  // A <select> a library hides behind its own widget: the widget is what
  // the user sees and operates (replaced.js).
  if (el.tagName === 'SELECT' && replacingWidget(el)) return;

  const node = { el, role: clickable ? 'generic' : role, children: [] };
  b.count++;
  if (!clickable) node.name = truncate(accessibleName(standIn || el), b.nameLimit);
  node.st = standIn ? stateOf(standIn, role, standIn === b.focused) : stateOf(el, role, el === b.focused);
  if (clickable) node.st.clickable = true;
  if (draggable) node.st.draggable = true;
  const v = standIn ? normalizeSpace(el.innerText || '') : valueOf(el, role);
  if (v !== null) node.value = truncate(v, b.textLimit);
  // A form field shows its name attribute (spec §7.1), what a selector or
  // a form post knows it by, unless it only repeats the accessible name.
  const fieldName = (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA') && el.getAttribute('name');
  if (fieldName && squash(fieldName) !== squash(node.name || '')) node.st.fieldName = fieldName;
  if (role === 'link') {
    const u = linkURL(el);
    if (u) node.url = u;
  }
  if (b.refs && (INTERACTIVE.has(role) || clickable || draggable || b.delegated.has(el) || role === 'iframe' || isFocusableWidget(el, role) || headerCell(el, role, b))) {
    const er = effectiveRole(el);
    node.ref = refFor(el, er, refName(el, er), b.snapId);
  }
  if (role === 'iframe') {
    if (b.frames && (el.tagName === 'IFRAME' || el.tagName === 'FRAME')) {
      node.frameSlot = b.slots.length;
      b.slots.push(el);
    }
  } else if (!LEAF.has(role) && !standIn) {
    const header = headerCell(el, role, b);
    if (header) b.header = el;
    const outer = b.clip;
    b.clip = clipFor(el, r, style, outer);
    walkChildren(el, depth, node.children, b, true);
    b.clip = outer;
    if (header) b.header = null;
    orderRows(node.children);
  }
  if (el.tagName === 'SELECT') node.more = selectSummary(el, b);
  finishNode(node, b);
  collapseWrapper(node);
  if (block) out.push({ text: ' ' });
  out.push(node.collapse ? node.children[0] : node);
  if (block) out.push({ text: ' ' });
  if (node.ref) b.flat.push(node);
}

// noteClosedCandidate remembers a defined custom element without an open
// shadow root: it may have a closed one, which only CDP can reach. The Go
// side registers those (closed.go) and snapshots again.
function noteClosedCandidate(el) {
  if (S.closedRoots.has(el) || S.checkedHosts.has(el) || !isDefinedCustom(el)) return;
  if (S.closedCandidates.length < 100) S.closedCandidates.push(el);
}

// isDefinedCustom reports a custom element whose definition ran: the
// page's registry (customElements) is not visible from the engine's world,
// the element's :defined state is.
function isDefinedCustom(el) {
  return el.localName.includes('-') && el.matches(':defined');
}

// labelsShownControl reports whether el is a label whose control is
// rendered, so the label text would only repeat the control's name.
function labelsShownControl(el) {
  if (el.tagName === 'LEGEND') return !!el.parentElement && el.parentElement.tagName === 'FIELDSET';
  if (el.tagName !== 'LABEL') return false;
  const c = el.control;
  return !!c && !hiddenForAT(c) && c.type !== 'hidden';
}

// selectSummary summarizes a native select's options: its value is shown,
// and selectOption picks by label, so the options are listed compactly.
function selectSummary(el, _b) {
  const n = el.options.length;
  if (n === 0) return 'no options';
  if (n > 10) return n + ' options';
  return 'options: ' + [...el.options].map((o) => truncate(normalizeSpace(o.label || o.text), 40)).join(' | ');
}

// collapseWrapper replaces an unnamed paragraph or group that holds a
// single element by that element: `- paragraph:` around a lone textbox
// adds a line and no meaning.
function collapseWrapper(node) {
  if ((node.role !== 'paragraph' && node.role !== 'group') || node.name || node.ref || node.inline !== undefined) return;
  if (node.children.length === 1 && node.children[0].text === undefined) node.collapse = true;
}

// Elements with a widget role and a tabindex (gridcell, row in a grid…)
// are interactive even though the role is not.
function isFocusableWidget(el, role) {
  const ti = el.getAttribute('tabindex');
  return ti !== null && +ti >= 0 && !TEXT_LEVEL.has(role) && role !== 'dialog' && role !== 'document' && role !== 'main';
}

// squash is text without white space, in lower case: a name that differs
// from the shown text only so (an icon font's ligature, spacing) is the
// same.
function squash(t) {
  return t.replace(/\s+/g, '').toLowerCase();
}

// finishNode merges text runs, trims and inlines single text children.
export function finishNode(node, b) {
  const kids = [];
  let text = '', textEl = null;
  const flush = () => {
    const t = clip(text, b.textLimit);
    if (t) kids.push(textEl ? { text: t, el: textEl } : { text: t });
    text = '';
    textEl = null;
  };
  for (const c of node.children) {
    if (c.text !== undefined) {
      text += c.text;
      if (!textEl && c.el && c.text.trim()) textEl = c.el;
    } else {
      flush();
      kids.push(c);
    }
  }
  flush();
  node.children = kids;
  // A caption that only repeats the table's (or figure's) name goes.
  // (Names keep NBSP; the comparisons treat it as a space.)
  if (node.name && kids.length && kids[0].role === 'caption' && normalizeSpace(kids[0].inline || kids[0].name || '') === normalizeSpace(node.name)) kids.shift();
  const onlyText = kids.length === 1 && kids[0].text !== undefined;
  if (node.role === 'generic' && node.st.clickable) {
    if (onlyText) {
      node.inline = kids[0].text;
      node.children = [];
    }
    return;
  }
  if (!kids.length) return;
  const allText = kids.every((k) => k.text !== undefined || (k.role === 'img' && !k.ref && !k.children.length));
  if (node.name && allText) {
    const shown = normalizeSpace(kids.map((k) => k.text !== undefined ? k.text : k.name).join(' '));
    if (shown === normalizeSpace(node.name)) {
      node.children = [];
      return;
    }
    if (NAME_FROM_CONTENT.has(node.role)) {
      // Named by aria-label(ledby) other than what it shows, the text is
      // inlined (spec §7.2: button "Submit": Click here): a text target
      // finds it by either. A name from its content is the text already.
      if (node.el && (node.el.hasAttribute('aria-label') || node.el.hasAttribute('aria-labelledby')) && squash(shown) !== squash(node.name)) node.inline = clip(shown, b.textLimit);
      node.children = [];
      return;
    }
  }
  if (onlyText && kids[0].text !== node.name) {
    node.inline = kids[0].text;
    node.children = [];
  }
}

// ---- rendering ----

const FRAME_MARK = '\u0001cdpframe ';

export function quote(s) {
  return JSON.stringify(s);
}

// Plain text after a colon needs quotes only when YAML would misread it.
function yamlText(s) {
  if (s === '' || /^[\s\-?:,\[\]{}#&*!|>'"%@`]|: |\s#|\s$/.test(s)) return quote(s);
  return s;
}

export function stateText(st) {
  let s = '';
  if (st.checked === true) s += ' [checked]';
  else if (st.checked === 'mixed') s += ' [checked=mixed]';
  if (st.disabled) s += ' [disabled]';
  if (st.expanded === true) s += ' [expanded]';
  else if (st.expanded === false) s += ' [collapsed]';
  if (st.pressed === true) s += ' [pressed]';
  else if (st.pressed === 'mixed') s += ' [pressed=mixed]';
  if (st.selected) s += ' [selected]';
  if (st.required) s += ' [required]';
  if (st.invalid === true) s += ' [invalid]';
  else if (st.invalid) s += ' [invalid=' + st.invalid + ']';
  if (st.level) s += ' [level=' + st.level + ']';
  if (st.sort) s += ' [sort=' + st.sort + ']';
  if (st.readonly) s += ' [readonly]';
  if (st.focused) s += ' [focused]';
  if (st.fieldName) s += ' [name=' + st.fieldName + ']';
  if (st.draggable) s += ' [draggable]';
  else if (st.clickable) s += ' [clickable]';
  if (st.crossOrigin) s += ' [cross-origin]';
  return s;
}

// renderCompact is set while the answer's scoped snapshot renders
// (renderScoped): links go without their URL (a snapshot step shows them)
// and list items with up to ITEM_PARTS parts take one line.
let renderCompact = false;

// renderScoped runs fn, a rendering, compactly when compact.
export function renderScoped(compact, fn) {
  renderCompact = compact;
  try {
    fn();
  } finally {
    renderCompact = false;
  }
}
const ITEM_PARTS = 6;

// head renders "role "name" [states] [ref=…] [url=…]" of a node.
function head(n) {
  let s = n.role;
  if (n.name) s += ' ' + quote(n.name);
  s += stateText(n.st || {});
  if (n.ref) s += ' [ref=' + n.ref + ']';
  if (n.url && !renderCompact) s += ' [url=' + n.url + ']';
  return s;
}

// inlineForm renders a node on one line when it has no children of its
// own, or returns null.
function inlineForm(n) {
  if (n.text !== undefined) return yamlText(n.text);
  if (n.children.length || n.frameSlot !== undefined) return null;
  let s = head(n);
  if (n.more) s += ' (' + n.more + ')';
  if (n.value !== undefined) s += ': ' + quote(n.value);
  else if (n.inline !== undefined) s += ': ' + yamlText(n.inline);
  return s;
}

export function render(nodes, indent, lines) {
  for (const n of nodes) renderNode(n, indent, lines);
}

function renderNode(n, indent, lines) {
  const pad = '  '.repeat(indent);
  if (n.text !== undefined) {
    lines.push(pad + '- text: ' + yamlText(n.text));
    return;
  }
  // Rows and list items whose parts fit on one line render compactly:
  //   - row: Name | Price   /   - listitem: link "Home" [ref=s1e2]
  if ((n.role === 'row' || n.role === 'listitem') && n.children.length && !n.value) {
    const parts = [];
    const cells = n.role === 'row' ? n.children : [{ children: n.children }];
    let ok = true, header = n.role === 'row';
    for (const c of cells) {
      if (n.role === 'row') {
        if (c.text !== undefined || !/^(cell|gridcell|columnheader|rowheader)$/.test(c.role)) { ok = false; break; }
        if (c.role !== 'columnheader') header = false;
        if (c.ref) { ok = false; break; }
      }
      const kids = n.role === 'row' ? (c.children.length ? c.children : [{ text: c.name || c.inline || '' }]) : c.children;
      const bits = [];
      for (const k of kids) {
        const f = inlineForm(k);
        if (f === null) { ok = false; break; }
        bits.push(k.text !== undefined ? k.text : f);
      }
      if (!ok) break;
      parts.push(bits.join(' '));
    }
    if (ok && (n.role === 'row' || n.children.length <= (renderCompact ? ITEM_PARTS : 3))) {
      const sep = n.role === 'row' ? ' | ' : ' ';
      let line = pad + '- ' + n.role + (header ? ' [header]' : '') + stateText(n.st || {}) + (n.ref ? ' [ref=' + n.ref + ']' : '');
      lines.push(line + ': ' + parts.join(sep));
      return;
    }
  }
  if (n.frameSlot !== undefined && !n.children.length) {
    // A marker the Go side replaces with the frame's own snapshot.
    lines.push(pad + '- ' + head(n) + ':');
    lines.push(pad + '  - ' + FRAME_MARK + n.frameSlot);
    return;
  }
  if (!n.children.length) {
    lines.push(pad + '- ' + inlineForm(n));
    return;
  }
  let line = pad + '- ' + head(n);
  if (n.more) line += ' (' + n.more + ')';
  if (n.value !== undefined) line += ' ' + quote(n.value);
  lines.push(line + ':');
  render(n.children, indent + 1, lines);
}

// ---- detail levels ----

// interactiveOnly keeps interactive nodes, headings and landmarks (the
// structure an agent reads a page by: a product page's name is its
// heading), and the named structure above interactive nodes.
export function interactiveOnly(nodes) {
  const out = [];
  for (const n of nodes) {
    if (n.text !== undefined) continue;
    const kids = interactiveOnly(n.children);
    if (n.ref) {
      out.push({ ...n, children: kids });
    } else if (n.role === 'heading') {
      out.push({ ...n, children: kids });
    } else if (kids.length || (LANDMARKS.has(n.role) && n.role !== 'generic')) {
      if (LANDMARKS.has(n.role) || n.role === 'dialog' || n.role === 'list' || n.role === 'table' || n.role === 'group' || n.role === 'tablist' || n.role === 'menu' || n.role === 'listbox' || n.role === 'radiogroup' || n.role === 'tree' || n.role === 'document') {
        out.push({ ...n, inline: undefined, children: kids });
      } else {
        out.push(...kids);
      }
    }
  }
  return out;
}

// summarize renders landmarks and headings with counts of what they hold.
export function summarize(nodes, lines) {
  const counts = (list, acc) => {
    for (const n of list) {
      if (n.text !== undefined) continue;
      if (n.ref || n.role === 'heading' || n.role === 'form' || n.role === 'table' || n.role === 'list') acc[n.role] = (acc[n.role] || 0) + 1;
      if (!LANDMARKS.has(n.role)) counts(n.children, acc);
    }
    return acc;
  };
  const describe = (acc) => Object.entries(acc).map(([r, c]) => c + ' ' + r + (c > 1 ? (r.endsWith('x') ? 'es' : 's') : '')).join(', ');
  const visit = (list, indent) => {
    for (const n of list) {
      if (n.text !== undefined) continue;
      if (LANDMARKS.has(n.role) || n.role === 'dialog') {
        const c = describe(counts(n.children, {}));
        const h = firstHeading(n.children);
        const at = lines.length;
        lines.push('  '.repeat(indent) + '- ' + n.role + (n.name ? ' ' + quote(n.name) : '') + (h ? ' (' + quote(h) + ')' : '') + (c ? ': ' + c : ''));
        visit(n.children, indent + 1);
        if (!c && lines.length > at + 1) lines[at] += ':';
      } else if (n.role === 'heading' && indent === 0) {
        lines.push('- heading ' + quote(n.name || '') + ' [level=' + n.st.level + ']');
      } else {
        visit(n.children, indent);
      }
    }
  };
  visit(nodes, 0);
}

function firstHeading(list) {
  for (const n of list) {
    if (n.text !== undefined) continue;
    if (n.role === 'heading') return n.name;
    if (LANDMARKS.has(n.role)) continue;
    const h = firstHeading(n.children);
    if (h) return h;
  }
  return '';
}

// ---- roots and scoping ----

// findRoot resolves the root option: a CSS selector or role=<role>.
export function findRoot(spec) {
  if (spec.startsWith('role=')) {
    const want = spec.slice(5).trim();
    const all = document.querySelectorAll('*');
    for (const el of all) if ((roleOf(el) === want || unknownRoleOf(el, want)) && !hiddenForAT(el)) return el;
    fail('not-found', 'no element with role ' + want + ' in the page');
  }
  const el = selectorQuery(spec);
  if (!el) fail('not-found', 'root ' + JSON.stringify(spec) + ' matches no element');
  return el;
}

// otherLandmarks lists the landmarks outside el, for the scope header.
export function otherLandmarks(main) {
  const out = [];
  const sel = 'header,footer,nav,aside,search,form[aria-label],form[aria-labelledby],section[aria-label],section[aria-labelledby],[role]';
  for (const el of document.querySelectorAll(sel)) {
    if (main.contains(el) || el.contains(main)) continue;
    const r = roleOf(el);
    if (!LANDMARKS.has(r) || r === 'main' || hiddenForAT(el)) continue;
    const name = accessibleName(el);
    out.push(r + (name ? ' ' + quote(truncate(name, 40)) : ''));
  }
  return out;
}

// ---- the answer's scoped viewport snapshot ----

// scopeToChange keeps, of a tree built from body, the main landmark, what
// the command changed outside it (the changed elements of changes.js),
// and what may block the page (dialogs, alerts, fixed overlays with
// controls); what it leaves out is counted in left. It returns null when
// main is not in the tree (scrolled away): the caller keeps everything.
export function scopeToChange(nodes, main, changed, left) {
  let found = false;
  const visit = (list) => {
    const out = [];
    for (const n of list) {
      if (n.text !== undefined) {
        if (n.el && inChanged(n.el, changed)) out.push(n);
        continue;
      }
      if (!n.el) continue;
      if (n.el === main || main.contains(n.el)) {
        found = true;
        out.push(n);
      } else if (n.el.contains(main)) {
        out.push({ ...n, inline: undefined, children: visit(n.children) });
      } else {
        const kept = keepChanged(n, changed, left);
        if (kept) out.push(kept);
        else noteLeft(n, left);
      }
    }
    return out;
  };
  const out = visit(nodes);
  return found ? out : null;
}

// keepChanged returns n whole when it is (inside) a changed element or
// may block the page, n cut to its changed parts when it holds changed
// elements, and null otherwise. What a cut leaves out is counted in left
// ("rest of banner"), so the header says it.
function keepChanged(n, changed, left) {
  if (blocksPage(n)) return n;
  let inside = false;
  for (const c of changed) {
    if (c === n.el || c.contains(n.el)) return n;
    if (!inside && n.el.contains(c)) inside = true;
  }
  if (!inside) return null;
  const kids = [];
  const before = left.refs || 0;
  for (const k of n.children) {
    if (k.text !== undefined) {
      if (k.el && inChanged(k.el, changed)) kids.push(k);
      continue;
    }
    const kk = k.el ? keepChanged(k, changed, left) : null;
    if (kk) kids.push(kk);
    else if (k.el) left.refs = (left.refs || 0) + countRefs(k);
  }
  if ((left.refs || 0) > before && LANDMARKS.has(n.role) && left.length < 8) left.push('rest of ' + n.role + (n.name ? ' ' + quote(truncate(n.name, 30)) : ''));
  return kids.length ? { ...n, inline: undefined, children: kids } : n;
}

// blocksPage: dialogs, alerts and status lines, and fixed overlays with
// controls (a cookie banner without a role) stay in every answer.
function blocksPage(n) {
  if (n.role === 'dialog' || n.role === 'alertdialog' || n.role === 'alert' || n.role === 'status') return true;
  if (LANDMARKS.has(n.role) || n.el.nodeType !== 1) return false;
  return styleOf(n.el).position === 'fixed' && countRefs(n) > 0;
}

function countRefs(n) {
  let c = n.ref ? 1 : 0;
  for (const k of n.children || []) if (k.text === undefined) c += countRefs(k);
  return c;
}

// noteLeft counts a left-out subtree under its landmark (or "other").
function noteLeft(n, left) {
  const refs = countRefs(n);
  left.refs = (left.refs || 0) + refs;
  if (LANDMARKS.has(n.role) && left.length < 8) left.push(n.role + (n.name ? ' ' + quote(truncate(n.name, 30)) : ''));
}

// scopeHeader is the line that says what the scoped snapshot left out and
// how to see it.
export function scopeHeader(left) {
  if (!left.refs && !left.length) return '';
  const what = left.length ? left.join(', ') + ' ' : '';
  return '# left out: ' + what + '(' + (left.refs || 0) + ' refs): {"snapshot":"body"} shows all';
}

// inChanged reports whether el is (inside) one of the changed elements.
function inChanged(el, changed) {
  for (const c of changed) if (c === el || c.contains(el)) return true;
  return false;
}
