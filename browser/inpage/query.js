// query.js — CSS and role queries with per-element outputs. Module of the
// in-page engine.

import { S } from './state.js';
import { fail, hiddenForAT, isVisibleBox, normalizeSpace, truncate } from './dom.js';
import { MASK, accessibleName, isSecretField, stateOf, valueOf } from './names.js';
import { stateText } from './snapshot.js';
import { allShadowRoots, effectiveRole, normName, refFor, refName, syncSeq } from './refs.js';
import { unknownRoleOf } from './roles.js';
import { standInFor } from './replaced.js';

// Known roles map to the elements that can carry them implicitly, so role
// queries do not scan the whole document.
const ROLE_SELECTORS = {
  button: 'button,input[type=button],input[type=submit],input[type=reset],input[type=image],input[type=file],input[type=color],summary,[role~=button]',
  link: 'a[href],area[href],[role~=link]',
  textbox: 'input:not([type]),input[type=text],input[type=email],input[type=tel],input[type=url],input[type=password],input[type=date],input[type=datetime-local],input[type=month],input[type=time],input[type=week],textarea,[contenteditable],[role~=textbox]',
  searchbox: 'input[type=search],[role~=searchbox]',
  checkbox: 'input[type=checkbox],[role~=checkbox]',
  radio: 'input[type=radio],[role~=radio]',
  combobox: 'select,input[list],[role~=combobox]',
  listbox: 'select,[role~=listbox]',
  option: 'option,[role~=option]',
  heading: 'h1,h2,h3,h4,h5,h6,[role~=heading]',
  listitem: 'li,[role~=listitem]',
  list: 'ul,ol,menu,dl,[role~=list]',
  slider: 'input[type=range],[role~=slider]',
  spinbutton: 'input[type=number],[role~=spinbutton]',
  img: 'img,svg,[role~=img],[role~=image]',
  table: 'table,[role~=table]',
  row: 'tr,[role~=row]',
  cell: 'td,[role~=cell]',
  columnheader: 'th,[role~=columnheader]',
  navigation: 'nav,[role~=navigation]',
  dialog: 'dialog,[role~=dialog],[role~=alertdialog]',
  tab: '[role~=tab]',
  menuitem: '[role~=menuitem]',
  switch: '[role~=switch]',
};

// queryAllComposed runs a selector in the document and every open shadow root.
export function queryAllComposed(sel, root) {
  const out = [...root.querySelectorAll(sel)];
  for (const sr of allShadowRoots(root, [])) out.push(...sr.querySelectorAll(sel));
  return out;
}

function outputOf(el, mode, clean) {
  switch (mode) {
    case 'text': {
      // clean: false is the text as the document has it (textContent,
      // spec §11.3); innerText would collapse its white space already.
      if (clean === false) return el.textContent;
      return normalizeSpace((el.innerText !== undefined ? el.innerText : el.textContent) || '');
    }
    case 'html': return el.outerHTML;
    case 'href': return el.href !== undefined ? String(el.href) : el.getAttribute('href');
    case 'value': return 'value' in el ? (isSecretField(el) ? (el.value ? MASK : '') : el.value) : null;
    case 'tag': return el.tagName.toLowerCase();
    case 'name': return accessibleName(el);
    case 'role': return effectiveRole(el);
  }
  fail('input', 'unknown output mode ' + JSON.stringify(mode) + ': use text, html, href, value, tag, name, role, or {attributes: [...]}');
}

function describeOutput(el, output, clean) {
  if (output === undefined || output === null) return outputOf(el, 'text', clean);
  if (typeof output === 'string') return outputOf(el, output, clean);
  if (Array.isArray(output)) {
    const v = {};
    for (const m of output) v[m] = outputOf(el, m, clean);
    return v;
  }
  const attrs = output.attributes || output.attrs;
  if (attrs) {
    const v = {};
    for (const a of attrs) v[a] = el.getAttribute(a);
    return v;
  }
  fail('input', 'output must be a mode, a list of modes, or {attributes: [...]}');
}

function metadataOf(el) {
  const r = el.getBoundingClientRect();
  const attrs = {};
  for (const a of el.attributes) if (a.name !== 'style' && a.name !== 'class') attrs[a.name] = truncate(a.value, 100);
  return { tag: el.tagName.toLowerCase(), id: el.id || undefined, class: el.className && typeof el.className === 'string' ? el.className : undefined,
    attributes: attrs, box: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) },
    visible: isVisibleBox(el) && !hiddenForAT(el) };
}

// matchedRole is the role of roles that el has: its own role, or an
// unknown role its role attribute names; null when none.
function matchedRole(el, roles, wanted) {
  const own = effectiveRole(el);
  if (wanted.has(own)) return own;
  for (const r of roles) if (unknownRoleOf(el, r)) return r;
  return null;
}

// roleName is the name a role query matches el on: its accessible name,
// or, for an element found by an unknown role (a generic to ARIA, which
// names it from nothing), the name its ref is matched on (its text).
function roleName(el, _roles, wanted) {
  const own = effectiveRole(el);
  return wanted.has(own) ? accessibleName(el) : refName(el, own);
}

export function query(opts) {
  syncSeq(opts.seq);
  const limit = opts.limit > 0 ? opts.limit : 10;
  const snapId = Math.max(S.snapSeq, 1);
  let els;
  if (opts.roles && opts.roles.length) {
    const wanted = new Set(opts.roles);
    const sel = opts.roles.map((r) => ROLE_SELECTORS[r] || '[role~=' + CSS.escape(r) + ']').join(',');
    els = queryAllComposed(sel, document).filter((el) => matchedRole(el, opts.roles, wanted) && !hiddenForAT(el));
    let re = null;
    if (opts.nameRegex) re = new RegExp(opts.nameRegex, 'i');
    const want = normName(opts.name || '');
    els = els.filter((el) => {
      const n = roleName(el, opts.roles, wanted);
      if (opts.name && (opts.nameExact ? normName(n) !== want : !normName(n).includes(want))) return false;
      if (re && !re.test(n)) return false;
      const st = stateOf(el, effectiveRole(el), false);
      if (opts.checked !== undefined && (st.checked === true) !== opts.checked) return false;
      if (opts.disabled !== undefined && !!st.disabled !== opts.disabled) return false;
      if (opts.level > 0 && st.level !== opts.level) return false;
      return true;
    });
  } else {
    try {
      // Into open shadow roots too, as role queries and selector targets
      // reach (the document's matches first, then each root's).
      els = queryAllComposed(opts.selector, document);
    } catch (e) {
      fail('selector', 'invalid CSS selector ' + JSON.stringify(opts.selector) + ': ' + e.message);
    }
  }
  const out = { total: els.length, seq: null };
  if (!opts.countOnly) {
    out.showing = Math.min(limit, els.length);
    out.results = els.slice(0, limit).map((el, i) => {
      const role = effectiveRole(el);
      const r = { index: i };
      if (opts.roles && opts.roles.length) {
        r.role = matchedRole(el, opts.roles, new Set(opts.roles)) || role;
        r.name = roleName(el, opts.roles, new Set(opts.roles));
        const st = stateText(stateOf(el, role, false)).trim();
        if (st) r.states = st;
        const v = valueOf(el, role);
        if (v !== null) r.value = v;
        if (opts.output !== undefined) r.output = describeOutput(el, opts.output, opts.clean);
      } else {
        r.value = describeOutput(el, opts.output, opts.clean);
      }
      // A combobox input its widget moved off-screen answers with the ref
      // of the control shown in its place (what a click reaches) and the
      // value that control shows.
      const standIn = standInFor(el);
      if (standIn) {
        const sr = effectiveRole(standIn);
        r.ref = refFor(standIn, sr, refName(standIn, sr), snapId);
        if (opts.roles && opts.roles.length) r.value = normalizeSpace(/** @type {HTMLElement} */ (standIn).innerText || '');
      } else {
        r.ref = refFor(el, role, refName(el, role), snapId);
      }
      if (opts.metadata) r.metadata = metadataOf(el);
      return r;
    });
  }
  out.seq = { snap: S.snapSeq, elem: S.elemSeq };
  // The document's iframes (the frames are queried next only when it has
  // some: no round trip of its own to ask).
  out.frames = queryAllComposed('iframe,frame', document).length;
  return out;
}
