// names.js — accessible names per W3C accname 1.2 (the parts browsers
// implement), and the states and values shown in snapshots. Fragment of the
// in-page engine.

function accessibleName(el) {
  let n = cache.name.get(el);
  if (n !== undefined) return n;
  n = normalizeSpace(computeName(el, { root: el, visited: new Set(), labelledBy: false, hiddenRef: false, content: false }));
  cache.name.set(el, n);
  return n;
}

function byIdInRoot(el, id) {
  const root = el.getRootNode();
  return root.getElementById ? root.getElementById(id) : document.getElementById(id);
}

function computeName(node, ctx) {
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
  if (!ctx.hiddenRef && hiddenForAT(el)) {
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
        parts.push(computeName(ref, { root: ref, visited: new Set(), labelledBy: true, hiddenRef: hiddenForAT(ref), content: false }));
      }
      const s = parts.join(' ');
      if (s.trim()) return s;
    }
  }

  const role = roleOf(el);
  // 2C: an embedded control contributes its value, not its name: inside
  // content, or as the node aria-labelledby references.
  if ((!isRoot && ctx.content) || (isRoot && ctx.labelledBy)) {
    const v = embeddedControlValue(el, role);
    if (v !== null) return v;
  }

  // 2D: aria-label.
  const label = el.getAttribute('aria-label');
  if (label && label.trim()) return label;

  // 2E: the host language's own labels.
  if (role !== 'none') {
    const native = nativeName(el, role, ctx);
    if (native !== null) {
      if (typeof native === 'object') return native.final;
      if (native.trim()) return native;
    }
  }

  // 2F: name from content.
  if (NAME_FROM_CONTENT.has(role) || ctx.content || ctx.labelledBy) {
    const s = nameFromContent(el, ctx, ownTextHidden);
    if (s.trim()) return s;
  }

  // 2I: tooltip. Chromium does not name generic elements (other than abbr)
  // from title, and in content only images use their own title.
  const title = el.getAttribute('title');
  if (title && title.trim() && (role !== 'generic' || el.tagName === 'ABBR' || ctx.labelledBy) && (isRoot || el.tagName === 'IMG')) return title;
  if ((role === 'textbox' || role === 'searchbox' || role === 'combobox') && isRoot) {
    const ph = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder');
    if (ph) return ph;
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

function embeddedControlValue(el, role) {
  const tag = el.tagName;
  const native = tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
  switch (role) {
    case 'textbox': case 'searchbox':
      if (native) return el.value;
      return el.textContent;
    case 'combobox': case 'listbox': {
      if (tag === 'SELECT') return [...el.selectedOptions].map((o) => o.label || o.text).join(' ');
      if (tag === 'INPUT') return el.value;
      // An ARIA listbox contributes its selected option; an ARIA combobox
      // its label, not its value (as Chromium).
      if (role === 'listbox') {
        const sel = el.querySelector('[aria-selected=true]');
        return sel ? sel.textContent : '';
      }
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

// labelsOf returns the labels of a labelable element. el.labels scans the
// whole document on every call in Chromium, so label[for] elements are
// indexed once per call and wrapping labels found by walking up.
function labelsOf(el) {
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
  if (wrap && !wrap.hasAttribute('for') && wrap.control === el && !out.includes(wrap)) out.push(wrap);
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
    parts.push(computeName(l, { root: l, visited: ctx.visited, labelledBy: false, hiddenRef: ctx.hiddenRef, content: true }));
  }
  return parts.join(' ');
}

// nativeName returns the host-language name, null when there is none, or
// {final} for a name that ends the computation even when empty.
function nativeName(el, role, ctx) {
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
      const alt = el.getAttribute('alt');
      if (alt !== null && alt.trim()) return alt;
      if (el.hasAttribute('value')) return { final: el.getAttribute('value') };
      return el.getAttribute('title') || 'Submit';
    }
    const l = labelsText(el, ctx);
    if (l && l.trim()) return l;
    if (type === 'file') return 'Choose File';
    const title = el.getAttribute('title');
    if (title && title.trim()) return title;
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

// pseudoText returns the generated text of ::before/::after (its alt text
// after a slash when given), padded when the pseudo-element is not inline.
function pseudoText(el, which) {
  if (!hasPseudoContent(el)) return '';
  const st = getComputedStyle(el, which);
  const c = st.content;
  if (!c || c === 'none' || c === 'normal') return '';
  const slash = c.search(/"\s*\/\s*"/);
  const src = slash >= 0 ? c.slice(c.indexOf('/', slash) + 1) : c;
  const m = src.match(/"((?:[^"\\]|\\.)*)"/g);
  if (!m) return '';
  const text = m.map((q) => q.slice(1, -1).replace(/\\(.)/g, '$1')).join('');
  return st.display !== 'inline' ? ' ' + text + ' ' : text;
}

function nameFromContent(el, ctx, ownTextHidden) {
  const sub = { root: ctx.root, visited: ctx.visited, labelledBy: ctx.labelledBy, hiddenRef: ctx.hiddenRef, content: true };
  let out = '';
  if (styleOf(el).contentVisibility !== 'hidden') {
    forEachChildComposed(el, true, (child) => {
      if (child.nodeType === 3) {
        if (!ownTextHidden) out += transformText(child);
      } else if (child.nodeType === 1 && !SKIP_TAGS.has(child.tagName)) {
        const s = computeName(child, sub);
        out += isBlock(child) ? ' ' + s + ' ' : s;
      }
    });
  }
  return pseudoText(el, '::before') + out + pseudoText(el, '::after');
}

// deepActiveElement follows focus into shadow roots and same-origin frames.
function deepActiveElement() {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

// stateOf returns the states of el shown in brackets, in a fixed order.
function stateOf(el, role, focused) {
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
  if ((el.readOnly && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA')) || el.getAttribute('aria-readonly') === 'true') st.readonly = true;
  if (focused) st.focused = true;
  return st;
}

// anyAriaDisabled tells, once per call and document, whether any element
// carries aria-disabled=true (so that most elements skip the ancestor walk).
function anyAriaDisabled(el) {
  const root = el.getRootNode();
  let v = cache.ariaDisabled.get(root);
  if (v === undefined) {
    v = !!root.querySelector('[aria-disabled=true]') || (root !== document && anyAriaDisabled(root.host || document.documentElement));
    cache.ariaDisabled.set(root, v);
  }
  return v;
}

function safeMatches(el, sel) {
  try { return el.matches(sel); } catch (e) { return false; }
}

const MASK = '••••••••';

// valueOf returns the value shown after the colon, or null.
function valueOf(el, role) {
  switch (role) {
    case 'textbox': case 'searchbox': case 'spinbutton': case 'combobox':
      if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
        if (el.type === 'password') return el.value ? MASK : '';
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
function linkURL(el) {
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
