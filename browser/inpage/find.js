// find.js — locating elements by CSS (piercing open shadow roots), by text
// and by label. Fragment of the in-page engine.

// deepQuery runs a CSS selector in the document, then in every open (or
// registered closed) shadow root, and returns the first match.
function deepQuery(sel, root) {
  const el = root.querySelector(sel);
  if (el) return el;
  for (const sr of allShadowRoots(root, [])) {
    const m = sr.querySelector(sel);
    if (m) return m;
  }
  return null;
}

// selectorQuery is deepQuery in the document for a selector the agent
// gave: an invalid one throws an error naming it (the caller fails at once
// with InvalidSelectorError, with no separate check first).
function selectorQuery(sel) {
  try {
    return deepQuery(sel, document);
  } catch (e) {
    throw new Error('invalid CSS selector ' + JSON.stringify(sel) + ': ' + e.message);
  }
}

function isShown(el) {
  if (!el.isConnected || hiddenForAT(el)) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

// textOf is what text search matches: the accessible name, else the
// visible text.
function textOf(el) {
  const n = accessibleName(el);
  if (n) return n;
  return normalizeSpace(el.innerText || el.textContent || '');
}

// Text targets are searched by priority (spec §6.4): buttons, links, ARIA
// buttons, other clickables, other widgets, then any element whose own text
// matches.
const TEXT_GROUPS = [
  'button,input[type=button],input[type=submit],input[type=reset]',
  'a[href]',
  '[role=button]',
  '[onclick],[tabindex],label,summary',
  '[role=link],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem],input[type=checkbox],input[type=radio]',
];

function textMatch(have, want, exact) {
  if (exact) return have === want;
  return have.toLowerCase().includes(want.toLowerCase());
}

// findByText returns the best visible element for text, or null.
function findByText(text, exact, within) {
  const want = normalizeSpace(text);
  const roots = [within || document, ...allShadowRoots(within || document, [])];
  const rank = (el) => {
    const t = textOf(el);
    return (normalizeSpace(t).toLowerCase() === want.toLowerCase() ? 0 : 1) * 1e6 + t.length;
  };
  for (const group of TEXT_GROUPS) {
    let best = null, bestRank = Infinity;
    for (const root of roots) {
      for (const el of root.querySelectorAll(group)) {
        if (!textMatch(textOf(el), want, exact) || !isShown(el)) continue;
        const r = rank(el);
        if (r < bestRank) { best = el; bestRank = r; }
      }
    }
    if (best) return best;
  }
  // Any element whose own text (not its descendants') matches: the
  // innermost one, so a click lands on the words the agent sees.
  let best = null, bestLen = Infinity;
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || SKIP_TAGS.has(p.tagName)) continue;
      const t = normalizeSpace(p.innerText || p.textContent || '');
      if (!textMatch(t, want, exact) || t.length >= bestLen || !isShown(p)) continue;
      best = p;
      bestLen = t.length;
    }
  }
  return best;
}

// findByLabel resolves a form field by its label (spec §6.4): label[for],
// a field nested in a label, aria-label, aria-labelledby, placeholder.
function findByLabel(text, exact) {
  const want = normalizeSpace(text);
  const roots = [document, ...allShadowRoots(document, [])];
  const fields = 'input:not([type=hidden]),textarea,select,[contenteditable=""],[contenteditable=true],[role=textbox],[role=combobox],[role=searchbox],[role=spinbutton],[role=slider],[role=checkbox],[role=radio],[role=switch]';
  const ok = (el) => el && isShown(el);
  // A styled checkbox, radio or file input is often hidden behind its
  // label: the visible label is enough (clicks go through it).
  const okVia = (l) => ok(l.control) || (/^(checkbox|radio|file)$/.test(l.control.type || '') && isShown(l));
  for (const root of roots) {
    for (const l of root.querySelectorAll('label')) {
      const t = normalizeSpace(l.innerText || l.textContent || '');
      if (textMatch(t, want, exact) && l.control && l.htmlFor && okVia(l)) return l.control;
    }
  }
  for (const root of roots) {
    for (const l of root.querySelectorAll('label')) {
      const t = normalizeSpace(l.innerText || l.textContent || '');
      if (textMatch(t, want, exact) && !l.htmlFor && l.control && okVia(l)) return l.control;
    }
  }
  for (const attr of ['aria-label', 'aria-labelledby', 'placeholder']) {
    for (const root of roots) {
      for (const el of root.querySelectorAll(fields)) {
        let t;
        if (attr === 'aria-labelledby') {
          const ids = el.getAttribute('aria-labelledby');
          if (!ids) continue;
          t = ids.split(/\s+/).map((id) => { const r = byIdInRoot(el, id); return r ? r.textContent : ''; }).join(' ');
        } else {
          t = el.getAttribute(attr);
        }
        if (t && textMatch(normalizeSpace(t), want, exact) && ok(el)) return el;
      }
    }
  }
  // Last, the accessible name (labels made of several parts, titles).
  for (const root of roots) {
    for (const el of root.querySelectorAll(fields)) {
      if (textMatch(accessibleName(el), want, exact) && ok(el)) return el;
    }
  }
  return null;
}

// find resolves a target spec {selector | text | label | focused} to an
// element, or returns null.
S.find = function find(spec) {
  cache = newCache();
  if (spec.selector) return selectorQuery(spec.selector);
  if (spec.text !== undefined) {
    let within = null;
    if (spec.within) {
      within = selectorQuery(spec.within);
      if (!within) return null;
    }
    return findByText(spec.text, !!spec.exact, within);
  }
  if (spec.label !== undefined) return findByLabel(spec.label, !!spec.exact);
  if (spec.focused) {
    const a = deepActiveElement();
    return a && a !== document.body ? a : null;
  }
  return null;
};
