// extract.js — reading structured data (tables, lists, forms, boxes).
// Module of the in-page engine.

import { S } from './state.js';
import {
  boxOf, cssSelector, deepElementFromPoint, fail, hiddenForAT, isBlock, isDisplayNone, normalizeSpace, parentElementComposed, shortSelector, styleOf, truncate
} from './dom.js';
import { INTERACTIVE, SKIP_TAGS, ariaIndex, explicitRole } from './roles.js';
import { MASK, accessibleName, isSecretField, safeMatches } from './names.js';
import { allShadowRoots, effectiveRole, flushLocators, refFor, refName, resolve, syncSeq } from './refs.js';

// ---- tables and lists (extract) ----

const TABLE_SEL = 'table,[role=table],[role=grid],[role=treegrid]';
const LIST_SEL = 'ul,ol,menu,[role=list]';
const ROW_SEL = 'tr,[role=row]';
const ITEM_SEL = 'li,[role=listitem]';
const ARIA_CELL_SEL = '[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]';
const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);

function isTableEl(el) {
  return el.tagName === 'TABLE' || TABLE_ROLES.has(explicitRole(el));
}

function isListEl(el) {
  return el.tagName === 'UL' || el.tagName === 'OL' || el.tagName === 'MENU' || explicitRole(el) === 'list';
}

function isItemEl(el) {
  return el.tagName === 'LI' || explicitRole(el) === 'listitem';
}

// structText is the rendered text of el without the subtrees skip accepts,
// with block elements set apart by spaces.
function structText(el, skip) {
  const parts = [];
  const walk = (n) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) {
        parts.push(c.data);
        continue;
      }
      if (c.nodeType !== 1 || SKIP_TAGS.has(c.tagName) || (skip && skip(c)) || isDisplayNone(c)) continue;
      const block = isBlock(c);
      if (block) parts.push(' ');
      if (c.tagName === 'IMG' && c.alt) parts.push(c.alt);
      walk(c);
      if (block) parts.push(' ');
    }
  };
  walk(el);
  return normalizeSpace(parts.join(''));
}

// ownStructure reports whether the row or cell el is part of container's own
// structure, not of a table nested inside it.
function ownStructure(el, container) {
  const t = el.parentElement && el.parentElement.closest(TABLE_SEL);
  return !t || t === container || !container.contains(t) || t.contains(container);
}

// ownRows lists the rows of a table (or of a container of rows): each row
// with its cells and whether it is a header row.
function ownRows(t) {
  if (t.tagName === 'TABLE') {
    return inRowOrder([...t.rows].map((tr) => ({ el: tr, cells: [...tr.cells], head: tr.parentElement.tagName === 'THEAD' })));
  }
  const rows = [];
  for (const r of t.querySelectorAll(ROW_SEL)) {
    if (!ownStructure(r, t)) continue;
    const cells = r.tagName === 'TR' ? [...r.cells] : [...r.querySelectorAll(ARIA_CELL_SEL)].filter((c) => c.parentElement.closest(ROW_SEL) === r);
    const head = cells.length > 0 && cells.every((c) => explicitRole(c) === 'columnheader');
    rows.push({ el: r, cells, head });
  }
  return inRowOrder(rows);
}

// inRowOrder puts rows in the order the grid shows them when every row
// has an aria-rowindex (AG Grid sorts by setting it and moving rows, not
// by reordering the DOM): rows sharing an index (a grid's pinned and
// scrolling parts of one row) become one, their cells in aria-colindex
// order. Rows without indexes stay in DOM order.
function inRowOrder(rows) {
  if (rows.length < 2 || rows.some((r) => ariaIndex(r.el, 'aria-rowindex') === null)) return rows;
  const byIndex = new Map();
  for (const r of rows) {
    const ix = ariaIndex(r.el, 'aria-rowindex');
    const same = byIndex.get(ix);
    if (!same) byIndex.set(ix, { ix, cells: [...r.cells], head: r.head });
    else {
      same.cells.push(...r.cells);
      same.head = same.head && r.head;
    }
  }
  const out = [...byIndex.values()].sort((a, b) => a.ix - b.ix);
  for (const r of out) r.cells = inColumnOrder(r.cells);
  return out;
}

// inColumnOrder sorts cells by aria-colindex when each has one.
function inColumnOrder(cells) {
  const ix = cells.map((c) => ariaIndex(c, 'aria-colindex'));
  if (cells.length < 2 || ix.some((v) => v === null)) return cells;
  return cells.map((c, i) => ({ c, i: ix[i] })).sort((a, b) => a.i - b.i).map((p) => p.c);
}

function isHeaderCell(c) {
  return c.tagName === 'TH' || explicitRole(c) === 'columnheader';
}

function cellSpan(c, prop, attr) {
  const n = c.tagName === 'TD' || c.tagName === 'TH' ? c[prop] : parseInt(c.getAttribute(attr), 10);
  return n >= 0 ? Math.min(n, 1000) : 1;
}

// layoutGrid places each cell in the columns and rows it spans: a colspan
// repeats the cell's text in each column, a rowspan carries it down.
function layoutGrid(rows) {
  const grid = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row.cells) {
      while (grid[r][c] !== undefined) c++;
      const text = structText(cell);
      const cs = Math.max(cellSpan(cell, 'colSpan', 'aria-colspan'), 1);
      let rs = cellSpan(cell, 'rowSpan', 'aria-rowspan');
      if (rs === 0) rs = rows.length - r;
      for (let dr = 0; dr < Math.max(rs, 1) && r + dr < rows.length; dr++) {
        for (let dc = 0; dc < cs; dc++) grid[r + dr][c + dc] = text;
      }
      c += cs;
    }
  });
  const width = grid.reduce((w, g) => Math.max(w, g.length), 0);
  return { width, cells: grid.map((g) => Array.from({ length: width }, (_, i) => (g[i] === undefined ? '' : g[i]))) };
}

// headerCount is how many leading rows are headers: the <thead> rows, else
// the first row when its cells are all header cells, or when it reads as
// one (firstRowLabels), or when asked.
function headerCount(rows, want) {
  if (want === false || !rows.length) return 0;
  let n = 0;
  while (n < rows.length && rows[n].head) n++;
  if (n) return n;
  if (want === true || (rows[0].cells.length && rows[0].cells.every(isHeaderCell))) return 1;
  return firstRowLabels(rows) ? 1 : 0;
}

// firstRowLabels tells whether a table without header cells starts with a
// row of labels (spec §11.6: headers come from the first row): every cell
// bold, or, in some column, plain text above values of one kind (numbers,
// prices, dates…) and, in no column, a value of the kind the rest hold.
function firstRowLabels(rows) {
  const first = rows[0].cells;
  if (rows.length < 2 || !first.length || first.some((c) => c.colSpan > 1)) return false;
  if (first.every(isBold)) return true;
  const body = rows.slice(1, 21).map((r) => r.cells.map(structText));
  let labels = 0;
  for (let c = 0; c < first.length; c++) {
    const kinds = new Set(body.map((r) => cellType(r[c])).filter((t) => t !== 'empty'));
    if (kinds.size !== 1 || kinds.has('text')) continue;
    const top = cellType(structText(first[c]));
    if (top === 'text') labels++;
    else if (kinds.has(top)) return false;
  }
  return labels > 0;
}

// isBold tells whether a cell's text is bold (its own style, or a <b>,
// <strong> or bold element holding all of it).
function isBold(c) {
  const weight = (el) => parseInt(getComputedStyle(el).fontWeight, 10) >= 600;
  if (weight(c)) return true;
  const only = c.children.length === 1 ? c.children[0] : null;
  return !!only && only.textContent.trim() === c.textContent.trim() && c.textContent.trim() !== '' && weight(only);
}

function joinHeaders(grid, n) {
  const out = [];
  if (!n) return out;
  for (let c = 0; c < grid.width; c++) {
    const parts = [];
    for (let r = 0; r < n; r++) {
      const t = grid.cells[r][c];
      if (t && !parts.includes(t)) parts.push(t);
    }
    out.push(parts.join(' / '));
  }
  return out;
}

/** @type {[string, RegExp][]} */
const VALUE_TYPES_RE = [
  ['number', /^[-+\u2212]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/],
  ['currency', /^[-+\u2212]?\s?[$€£¥₹]\s?\d[\d,]*(\.\d+)?$|^[-+\u2212]?\d[\d,]*(\.\d+)?\s?[$€£¥₹]$|^[-+\u2212]?\d[\d,]*(\.\d+)?\s?(USD|EUR|GBP|JPY|CHF|CAD|AUD)$|^(USD|EUR|GBP|JPY|CHF|CAD|AUD)\s?[-+\u2212]?\d[\d,]*(\.\d+)?$/],
  ['percent', /^[-+\u2212]?\d[\d,]*(\.\d+)?\s?%$/],
  ['boolean', /^(true|false|yes|no)$/i],
  ['date', /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$|^\d{1,2}[/.]\d{1,2}[/.]\d{2,4}$|^(\d{1,2} )?(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?( \d{1,2})?,? \d{4}$/i],
];

function cellType(s) {
  if (!s) return 'empty';
  for (const [name, re] of VALUE_TYPES_RE) if (re.test(s)) return name;
  return 'text';
}

// columnTypes names the kind of value each column holds: number, currency,
// percent, boolean, date or text (mixed), empty when it holds nothing.
function columnTypes(rows, width) {
  const out = [];
  for (let c = 0; c < width; c++) {
    const seen = new Set(rows.map((r) => cellType(r[c])).filter((t) => t !== 'empty'));
    out.push(seen.size === 0 ? 'empty' : seen.size === 1 ? [...seen][0] : 'text');
  }
  return out;
}

// readTable reads the header rows and the first limit data rows. Only
// those are laid out (a rowspan only carries downward, so the rows after
// them cannot change them): a long table costs its shown rows, not all.
function readTable(t, opts, limit) {
  const rows = ownRows(t).filter((r) => r.cells.length);
  const nh = headerCount(rows, opts.headers);
  const offset = opts.offset > 0 ? opts.offset : 0;
  const grid = layoutGrid(rows.slice(0, nh + offset + limit));
  const out = { type: 'table', headers: joinHeaders(grid, nh), rows: grid.cells.slice(nh + offset) };
  out.rowCount = out.rows.length;
  out.types = columnTypes(out.rows, grid.width);
  const total = rows.length - nh;
  if (offset) out.offset = offset;
  if (total > offset + limit || offset) {
    out.truncated = total > offset + limit;
    out.totalRows = total;
  }
  const cap = t.tagName === 'TABLE' && t.caption ? structText(t.caption) : '';
  if (cap) out.caption = cap;
  return out;
}

// nestedLists are the lists inside an item that are not inside another
// nested list.
function nestedLists(item) {
  const out = [];
  const walk = (el) => {
    for (const c of el.children) {
      if (isListEl(c)) out.push(c);
      else walk(c);
    }
  };
  walk(item);
  return out;
}

// readItem is an item's text, or {text, items} when it holds lists.
function readItem(item, depth) {
  const lists = depth < 10 ? nestedLists(item) : [];
  const text = structText(item, lists.length ? isListEl : null);
  if (!lists.length) return text;
  const items = [];
  for (const l of lists) for (const it of l.children) if (isItemEl(it)) items.push(readItem(it, depth + 1));
  return { text, items };
}

// topItems are the items of container that are not inside another item.
function topItems(container) {
  return [...container.querySelectorAll(ITEM_SEL)].filter((it) => {
    const up = it.parentElement && it.parentElement.closest(ITEM_SEL);
    return !up || !container.contains(up);
  });
}

function readList(items, limit, ordered, offset) {
  offset = offset > 0 ? offset : 0;
  const out = { type: 'list', items: items.slice(offset, offset + limit).map((it) => readItem(it, 0)) };
  out.itemCount = out.items.length;
  if (ordered) out.ordered = true;
  if (offset) out.offset = offset;
  if (items.length > offset + limit || offset) {
    out.truncated = items.length > offset + limit;
    out.totalItems = items.length;
  }
  return out;
}

function listFrom(el, limit, offset) {
  const list = isListEl(el) ? el : el.querySelector(LIST_SEL);
  if (list) return readList([...list.children].filter(isItemEl), limit, list.tagName === 'OL', offset);
  return null;
}

// extractAuto detects the structure (spec §11.6): a table, a list, rows,
// then items.
function extractAuto(el, opts, limit) {
  const table = isTableEl(el) ? el : el.querySelector(TABLE_SEL);
  if (table) return readTable(table, opts, limit);
  const list = listFrom(el, limit, opts.offset);
  if (list) return list;
  if (el.querySelector(ROW_SEL)) return readTable(el, opts, limit);
  const items = topItems(el);
  if (items.length) return readList(items, limit, false, opts.offset);
  return { error: 'no table or list (no <table>, <ul>, <ol>, rows or list items) inside ' + shortSelector(el) };
}

export function extract(el, opts) {
  opts = opts || {};
  const limit = opts.limit > 0 ? opts.limit : 100;
  switch (opts.type || 'auto') {
    case 'auto':
      return extractAuto(el, opts, limit);
    case 'table': {
      const table = isTableEl(el) ? el : el.querySelector(TABLE_SEL);
      if (table) return readTable(table, opts, limit);
      if (el.querySelector(ROW_SEL)) return readTable(el, opts, limit);
      return { error: 'no table or rows inside ' + shortSelector(el) };
    }
    case 'list': {
      const list = listFrom(el, limit, opts.offset);
      if (list) return list;
      const items = topItems(el);
      // A plain container: its visible children are the items.
      return readList(items.length ? items : [...el.children].filter((c) => !SKIP_TAGS.has(c.tagName) && !isDisplayNone(c)), limit, false, opts.offset);
    }
  }
  return { error: 'type must be auto, table or list, not ' + JSON.stringify(opts.type) };
}

// ---- page overview (inspect) ----

const INSPECT_TAGS = ['a', 'button', 'input', 'textarea', 'select', 'h1', 'h2', 'h3', 'img', 'form'];

export function inspect(opts) {
  const elements = {};
  for (const t of INSPECT_TAGS) elements[t] = document.getElementsByTagName(t).length;
  const out = { title: document.title, url: location.href, elements, custom: [] };
  for (const sel of opts.selectors || []) {
    let els;
    try {
      els = document.querySelectorAll(sel);
    } catch (e) {
      fail('selector', 'invalid CSS selector ' + JSON.stringify(sel) + ': ' + e.message);
    }
    const c = { selector: sel, count: els.length };
    if (opts.limit > 0) c.values = [...els].slice(0, opts.limit).map((e) => truncate(normalizeSpace(e.innerText !== undefined ? e.innerText : e.textContent || ''), 100));
    out.custom.push(c);
  }
  return out;
}

// ---- boxes of refs (getBox) ----

function boxForRef(ref) {
  flushLocators();
  const e = S.refs.get(ref);
  if (!e) return { error: 'not found' };
  let el = e.el;
  let reResolved = false;
  if (!el.isConnected) {
    const r = resolve(ref);
    if (!r.el) {
      return { error: 'stale', message: r.status === 'ambiguous' ? 'the element left the page and ' + r.candidates + ' elements now have its role and name' : 'the element left the page and no element with the same role and name is there now' };
    }
    el = r.el;
    reResolved = r.status === 'reResolved';
  }
  const rect = el.getBoundingClientRect();
  const box = boxOf(rect);
  if (rect.width === 0 || rect.height === 0 || hiddenForAT(el) || styleOf(el).visibility !== 'visible') return { error: 'hidden', box };
  box.center = { x: Math.round(rect.x + rect.width / 2), y: Math.round(rect.y + rect.height / 2) };
  if (reResolved) box.reResolved = true;
  return box;
}

export function getBox(refs) {
  return refs.map(boxForRef);
}

// ---- elements at and near points (elementsAt) ----

const CONTROL_SEL = 'a[href],button,input,select,textarea,summary,label,[role=button],[role=link],[role=checkbox],[role=radio],' +
  '[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=textbox],' +
  '[role=combobox],[role=searchbox],[role=slider],[role=spinbutton],[role=treeitem],[contenteditable]:not([contenteditable=false])';
const MEDIA_TAGS = new Set(['img', 'svg', 'video', 'audio', 'canvas', 'iframe', 'object', 'embed']);

function isControlEl(el) {
  return safeMatches(el, CONTROL_SEL);
}

// controlAt is the control el is part of (a span inside a button is the
// button), or el itself.
function controlAt(el) {
  for (let e = el, i = 0; e && i < 6; e = parentElementComposed(e), i++) if (isControlEl(e)) return e;
  return el;
}

function pointClickable(el) {
  if (isControlEl(el) || INTERACTIVE.has(effectiveRole(el))) return true;
  if (el.hasAttribute('onclick') || typeof el.onclick === 'function') return true;
  return styleOf(el).cursor === 'pointer';
}

// pointInfo describes an element found by position, giving it a ref.
function pointInfo(el) {
  const role = effectiveRole(el);
  const had = S.byEl.get(el);
  const existing = !!had && S.refs.has(had);
  const name = refName(el, role);
  const ref = refFor(el, role, name, Math.max(S.snapSeq, 1));
  return { ref, existing, tag: el.localName, selector: cssSelector(el), clickable: pointClickable(el), role, name: truncate(name, 100), box: boxOf(el.getBoundingClientRect()) };
}

export function elementsAt(opts) {
  syncSeq(opts.seq);
  const results = opts.points.map((p) => {
    const hit = deepElementFromPoint(p.x, p.y);
    if (!hit || hit === document.documentElement) return { x: p.x, y: p.y, error: 'no element at (' + p.x + ', ' + p.y + ')' };
    return Object.assign({ x: p.x, y: p.y }, pointInfo(controlAt(hit)));
  });
  return { results, seq: { snap: S.snapSeq, elem: S.elemSeq } };
}

function hasDirectText(el) {
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && c.data.trim()) return true;
  return false;
}

// nearbyCandidate keeps what an agent can name: controls, and outside
// controls, elements with their own text, media, click handlers or roles
// (not bare wrappers).
function nearbyCandidate(el) {
  if (isControlEl(el)) return true;
  const p = parentElementComposed(el);
  if (p && isControlEl(controlAt(p))) return false;
  return hasDirectText(el) || MEDIA_TAGS.has(el.localName) || el.hasAttribute('onclick') || explicitRole(el) !== null;
}

export function elementsNear(opts) {
  syncSeq(opts.seq);
  const found = [];
  for (const root of [document, ...allShadowRoots(document, [])]) {
    for (const el of root.querySelectorAll('*')) {
      if (el === document.documentElement || el === document.body || SKIP_TAGS.has(el.tagName)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const d = Math.hypot(r.x + r.width / 2 - opts.x, r.y + r.height / 2 - opts.y);
      if (d > opts.radius || styleOf(el).visibility !== 'visible' || !nearbyCandidate(el)) continue;
      found.push({ el, d });
    }
  }
  found.sort((a, b) => a.d - b.d);
  const elements = found.slice(0, opts.limit).map((f) => Object.assign(pointInfo(f.el), { distance: Math.round(f.d * 10) / 10 }));
  return { elements, total: found.length, seq: { snap: S.snapSeq, elem: S.elemSeq } };
}

// ---- forms (formState, validate, submit) ----

const VALIDITY_KEYS = ['valueMissing', 'typeMismatch', 'patternMismatch', 'tooLong', 'tooShort', 'rangeUnderflow', 'rangeOverflow', 'stepMismatch', 'badInput', 'customError'];
const NON_FIELD_TYPES = new Set(['submit', 'reset', 'button', 'image', 'hidden']);

function isFormField(el) {
  return (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA') && !NON_FIELD_TYPES.has((el.type || '').toLowerCase());
}

// formFor is the form el means: el itself, the form of a control or
// button, or the form around el.
function formFor(el) {
  if (el.tagName === 'FORM') return el;
  return el.form || el.closest('form');
}

function fieldIsValid(f) {
  return !f.willValidate || f.validity.valid;
}

function fieldValueOf(f) {
  if (isSecretField(f)) return f.value ? MASK : '';
  if (f.tagName === 'SELECT' && f.multiple) return [...f.selectedOptions].map((o) => o.value);
  if (f.type === 'file') return [...(f.files || [])].map((x) => x.name);
  return f.value;
}

function fieldLabelOf(f) {
  return truncate(accessibleName(f) || f.placeholder || '', 100);
}

function fieldInfoOf(f) {
  const out = { name: f.name || f.id || '', type: f.type, label: fieldLabelOf(f), value: fieldValueOf(f), required: f.required, valid: fieldIsValid(f), disabled: f.matches(':disabled') };
  if (f.type === 'checkbox' || f.type === 'radio') out.checked = f.checked;
  if (!out.valid) out.validationMessage = f.validationMessage;
  return out;
}

// formState reads the fields of a form (or of any container of fields).
export function formState(el) {
  const form = el.tagName === 'FORM' ? el : (isFormField(el) || el.tagName === 'BUTTON') ? formFor(el) : null;
  const fields = form ? [...form.elements].filter(isFormField) : [...el.querySelectorAll('input,select,textarea')].filter(isFormField);
  if (!form && !fields.length) return { error: shortSelector(el) + ' is not a form and holds no form fields' };
  const infos = fields.map(fieldInfoOf);
  return { fields: infos, valid: infos.every((f) => f.valid), fieldCount: infos.length };
}

export function validate(el) {
  if (el.tagName === 'LABEL' && el.control) el = el.control;
  if (!el.validity || el.tagName === 'FORM' || el.tagName === 'FIELDSET') return { error: shortSelector(el) + ' is not a form field (input, select or textarea)' };
  const validity = {};
  for (const k of VALIDITY_KEYS) validity[k] = el.validity[k];
  const out = { valid: fieldIsValid(el), message: el.validationMessage, validity };
  if (!el.willValidate) out.willValidate = false;
  return out;
}

function isSubmitButton(el) {
  return (el.tagName === 'BUTTON' && el.type === 'submit') || (el.tagName === 'INPUT' && (el.type === 'submit' || el.type === 'image'));
}

// submit submits the form el means with requestSubmit (so its submit
// handlers run) when its fields are valid; otherwise it reports the
// invalid fields and submits nothing. A capture listener on window, the
// first to see the submit event, keeps it so that whether a handler
// cancelled it (preventDefault) can be read once they have all run.
export function submit(el) {
  const form = formFor(el);
  if (!form) return { error: shortSelector(el) + ' is not a form and is not inside one' };
  const submitter = isSubmitButton(el) && el.form === form ? el : null;
  const errors = [];
  if (!form.noValidate && !(submitter && submitter.formNoValidate)) {
    for (const f of form.elements) {
      if (!f.willValidate || f.validity.valid) continue;
      errors.push({ field: f.name || f.id || shortSelector(f), label: fieldLabelOf(f), message: f.validationMessage });
    }
  }
  if (errors.length) return { submitted: false, valid: false, errors, form: shortSelector(form) };
  /** @type {Event | null} */
  let seen = null;
  const onSubmit = (e) => {
    if (e.target === form) seen = e;
  };
  window.addEventListener('submit', onSubmit, { capture: true, once: true });
  try {
    form.requestSubmit(submitter || undefined);
  } finally {
    window.removeEventListener('submit', onSubmit, { capture: true });
  }
  if (seen && seen.defaultPrevented) return { submitted: false, valid: true, prevented: true, form: shortSelector(form) };
  return { submitted: true, valid: true, form: shortSelector(form) };
}
