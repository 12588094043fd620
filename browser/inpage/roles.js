// roles.js — ARIA roles: explicit (first valid token of role=) or implicit
// per HTML-AAM. Module of the in-page engine.

import { cache, parentElementComposed } from './dom.js';

const VALID_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox code ' +
  'columnheader combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure ' +
  'form generic grid gridcell group heading img image insertion link list listbox listitem log main mark marquee math ' +
  'menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation ' +
  'progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton ' +
  'status strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree ' +
  'treegrid treeitem').split(' '));

// Roles whose name comes from their content (accname 1.2, "name from content").
// Chromium names rows, captions and the text-level roles from nothing.
export const NAME_FROM_CONTENT = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'rowheader', 'switch', 'tab',
  'tooltip', 'treeitem', 'term']);

// Roles that are interactive: they always get a ref.
export const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem', 'option',
  'scrollbar']);

// Roles that are landmarks (summary detail, auto-scope header).
export const LANDMARKS = new Set(['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'search', 'form', 'region']);

// Text-level roles flattened into their parent's text.
export const TEXT_LEVEL = new Set(['generic', 'none', 'strong', 'emphasis', 'code', 'mark', 'subscript',
  'superscript', 'deletion', 'insertion', 'time', 'rowgroup', 'sectionheader', 'sectionfooter']);

// Roles rendered without children: their content is their name or value.
export const LEAF = new Set(['textbox', 'searchbox', 'checkbox', 'radio', 'slider', 'spinbutton', 'img', 'image',
  'progressbar', 'meter', 'separator', 'switch', 'scrollbar', 'math']);

export const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'BASE',
  'DATALIST', 'PARAM', 'SOURCE', 'TRACK']);

const ROLE_SYNONYMS = { image: 'img', presentation: 'none', directory: 'list' };

// unknownRoleOf returns want when it is no ARIA role the engine knows and
// el's role attribute names it (spec §6.5: unknown roles fall back to
// [role="…"]), and null otherwise.
export function unknownRoleOf(el, want) {
  want = want.toLowerCase();
  if (VALID_ROLES.has(want) || want === 'sectionheader' || want === 'sectionfooter') return null;
  const attr = el.getAttribute('role');
  return attr && attr.trim().toLowerCase().split(/\s+/).includes(want) ? want : null;
}

export function explicitRole(el) {
  const attr = el.getAttribute('role');
  if (!attr) return null;
  for (let token of attr.trim().toLowerCase().split(/\s+/)) {
    if (!VALID_ROLES.has(token)) continue;
    token = ROLE_SYNONYMS[token] || token;
    if (token === 'none' && isGloballyFocusableOrLabelled(el)) continue;
    // Unnamed regions and forms are not landmarks.
    if ((token === 'region' || token === 'form') && !hasAccessibleNameAttr(el)) continue;
    return token;
  }
  return null;
}

// Presentational roles are ignored on focusable elements or ones with
// global ARIA attributes (ARIA 1.2 presentational role conflict resolution).
function isGloballyFocusableOrLabelled(el) {
  return el.hasAttribute('tabindex') || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ||
    el.hasAttribute('aria-describedby') || (el.tabIndex >= 0 && !el.disabled && isNativelyFocusable(el));
}

function isNativelyFocusable(el) {
  switch (el.tagName) {
    case 'BUTTON': case 'INPUT': case 'SELECT': case 'TEXTAREA': return true;
    case 'A': case 'AREA': return el.hasAttribute('href');
  }
  return false;
}

// presentationalParent: list items and table parts of a presentational
// list or table are presentational too.
function presentationalParent(el) {
  if (el.tagName === 'LI') {
    const p = el.parentElement;
    return !!p && /^(UL|OL|MENU)$/.test(p.tagName) && explicitRole(p) === 'none';
  }
  if (/^(TR|TD|TH|THEAD|TBODY|TFOOT|CAPTION)$/.test(el.tagName)) {
    const t = el.closest('table');
    return !!t && explicitRole(t) === 'none';
  }
  return false;
}

function hasAccessibleNameAttr(el) {
  return !!(el.getAttribute('aria-label') || '').trim() || el.hasAttribute('aria-labelledby') ||
    (el.hasAttribute('title') && !!el.getAttribute('title').trim());
}

function inSectioningContentStrict(el) {
  for (let p = parentElementComposed(el); p; p = parentElementComposed(p)) {
    if (/^(ARTICLE|ASIDE|NAV|SECTION)$/.test(p.tagName)) return true;
  }
  return false;
}

// A header/footer scoped inside sectioning content is not a landmark.
function inSectioningContent(el) {
  for (let p = parentElementComposed(el); p; p = parentElementComposed(p)) {
    const t = p.tagName;
    if (t === 'ARTICLE' || t === 'ASIDE' || t === 'MAIN' || t === 'NAV' || t === 'SECTION') return true;
    const r = p.getAttribute && p.getAttribute('role');
    if (r && /\b(article|complementary|main|navigation|region)\b/.test(r)) return true;
  }
  return false;
}

function inputRole(el) {
  const type = (el.getAttribute('type') || '').toLowerCase();
  switch (type) {
    case 'button': case 'submit': case 'reset': case 'image': return 'button';
    case 'checkbox': return 'checkbox';
    case 'radio': return 'radio';
    case 'range': return 'slider';
    case 'number': return 'spinbutton';
    case 'hidden': return null;
    case 'file': return 'button';
    case 'color': return 'button';
    case 'search': return el.list ? 'combobox' : 'searchbox';
    case 'email': case 'tel': case 'text': case 'url': case '':
      return el.list ? 'combobox' : 'textbox';
  }
  return 'textbox';
}

function implicitRole(el) {
  switch (el.tagName) {
    case 'A': case 'AREA': return el.hasAttribute('href') ? 'link' : null;
    case 'ARTICLE': return 'article';
    case 'ASIDE': return inSectioningContentStrict(el) && !hasAccessibleNameAttr(el) ? null : 'complementary';
    case 'BLOCKQUOTE': return 'blockquote';
    case 'BUTTON': return 'button';
    case 'CAPTION': return 'caption';
    case 'DFN': return 'term';
    case 'HGROUP': return 'group';
    case 'CODE': return 'code';
    case 'DD': return 'definition';
    case 'DEL': case 'S': return 'deletion';
    case 'DETAILS': return 'group';
    case 'DIALOG': return 'dialog';
    case 'DL': case 'MENU': case 'OL': case 'UL': return 'list';
    case 'DT': return 'term';
    case 'EM': return 'emphasis';
    case 'FIELDSET': case 'OPTGROUP': case 'ADDRESS': return 'group';
    case 'FIGURE': return 'figure';
    case 'FOOTER': return inSectioningContent(el) ? 'sectionfooter' : 'contentinfo';
    case 'FORM': return 'form';
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
    case 'HEADER': return inSectioningContent(el) ? 'sectionheader' : 'banner';
    case 'HR': return 'separator';
    case 'HTML': return 'document';
    case 'IFRAME': return 'iframe';
    case 'IMG': return el.getAttribute('alt') === '' && !el.getAttribute('title') ? 'none' : 'img';
    case 'INPUT': return inputRole(el);
    case 'INS': return 'insertion';
    case 'LI': return 'listitem';
    case 'MAIN': return 'main';
    case 'MARK': return 'mark';
    case 'MATH': return 'math';
    case 'METER': return 'meter';
    case 'NAV': return 'navigation';
    case 'OPTION': return 'option';
    case 'OUTPUT': return 'status';
    case 'P': return 'paragraph';
    case 'PROGRESS': return 'progressbar';
    case 'SEARCH': return 'search';
    case 'SECTION': return hasAccessibleNameAttr(el) ? 'region' : null;
    case 'SELECT': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'STRONG': case 'B': return el.tagName === 'STRONG' ? 'strong' : null;
    case 'SUB': return 'subscript';
    case 'SUP': return 'superscript';
    case 'SUMMARY': return 'button';

    case 'TABLE': return 'table';
    case 'TBODY': case 'THEAD': case 'TFOOT': return 'rowgroup';
    case 'TD': return cellRole(el);
    case 'TEXTAREA': return 'textbox';
    case 'TH': return headerCellRole(el);
    case 'TIME': return 'time';
    case 'TR': return 'row';
  }
  if (el.localName === 'svg') return 'img';
  if (el.localName === 'math') return 'math';
  return null;
}

function tableRoleOf(el) {
  const t = el.closest('table,[role=grid],[role=treegrid],[role=table]');
  if (!t) return null;
  return explicitRole(t) || 'table';
}

function cellRole(el) {
  const t = tableRoleOf(el);
  return t === 'grid' || t === 'treegrid' ? 'gridcell' : 'cell';
}

function headerCellRole(el) {
  const scope = (el.getAttribute('scope') || '').toLowerCase();
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  const row = el.parentElement;
  if (row && row.parentElement && row.parentElement.tagName === 'THEAD') return 'columnheader';
  // A th in a row that also has td cells heads that row.
  if (row) for (const c of row.children) if (c.tagName === 'TD') return 'rowheader';
  return 'columnheader';
}

// roleOf returns the element's role, or 'generic' for role-less elements.
export function roleOf(el) {
  let r = cache.role.get(el);
  if (r !== undefined) return r;
  r = (presentationalParent(el) ? 'none' : explicitRole(el) || implicitRole(el)) || 'generic';
  cache.role.set(el, r);
  return r;
}

export function headingLevel(el) {
  const a = parseInt(el.getAttribute('aria-level'), 10);
  if (a > 0) return a;
  const m = /^H([1-6])$/.exec(el.tagName);
  return m ? +m[1] : 2;
}

// ariaIndex is el's aria-rowindex or aria-colindex (attr) as a number, or
// null when it has none: the position a grid shows the row or cell at,
// which can differ from its place in the DOM (AG Grid sorts that way).
export function ariaIndex(el, attr) {
  const v = el.getAttribute(attr);
  const n = v === null || v.trim() === '' ? null : +v;
  return Number.isFinite(n) ? n : null;
}
