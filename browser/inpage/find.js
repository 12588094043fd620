// find.js — locating elements by CSS (piercing open shadow roots), by text
// and by label. Module of the in-page engine.

import { S } from './state.js';
import { boxOf, composedContains, fail, isShown, normalizeSpace, truncate } from './dom.js';
import { SKIP_TAGS } from './roles.js';
import { accessibleName, byIdInRoot, deepActiveElement } from './names.js';
import { allShadowRoots, effectiveRole, refFor, refName, syncSeq } from './refs.js';

// deepQueryAll runs a CSS selector in the document and in every open (or
// registered closed) shadow root: light DOM matches first, in document
// order, then each shadow root's.
function deepQueryAll(sel, root) {
  const out = [...root.querySelectorAll(sel)];
  for (const sr of allShadowRoots(root, [])) out.push(...sr.querySelectorAll(sel));
  return out;
}

// selectorMatches is every deep match of a selector the agent gave: an
// invalid one throws an error naming it (the caller fails at once with
// InvalidSelectorError, with no separate check first).
function selectorMatches(sel, root) {
  try {
    return deepQueryAll(sel, root || document);
  } catch (e) {
    fail('selector', 'invalid CSS selector ' + JSON.stringify(sel) + ': ' + e.message);
  }
}

// pickShown is the element a step uses among a selector's matches: the
// first visible one, else the first (so a wait can say it is hidden).
// lastFind records how many matched and which was taken.
function pickShown(all) {
  let i = all.findIndex(isShown);
  if (i < 0) i = all.length ? 0 : -1;
  S.lastFind = { el: all[i] || null, matchCount: all.length, index: i, visible: i >= 0 && isShown(all[i]) };
  return all[i] || null;
}

// selectorQuery is the element a selector targets (see pickShown).
export function selectorQuery(sel) {
  return pickShown(selectorMatches(sel));
}

// textOf is what text search matches: the accessible name, else the
// visible text.
export function textOf(el) {
  const n = accessibleName(el);
  if (n) return n;
  return normalizeSpace(el.innerText || el.textContent || '');
}

// Text targets are searched by priority (spec §6.4): buttons, links, ARIA
// buttons, other clickables, other widgets, then any element whose own text
// matches. The group only breaks ties between equally good matches.
const TEXT_GROUPS = [
  'button,input[type=button],input[type=submit],input[type=reset]',
  'a[href]',
  '[role=button]',
  '[onclick],[tabindex],label,summary',
  '[role=link],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem],input[type=checkbox],input[type=radio]',
];
const PLAIN_TEXT = TEXT_GROUPS.length;

// matchRank grades how well have matches want (both whitespace-normalised,
// so NBSP and space are alike): 0 exact, 1 exact but for case, 2 a
// substring; -1 no match. exact accepts rank 0 only.
function matchRank(have, want, exact) {
  have = normalizeSpace(have || '');
  if (have === want) return 0;
  if (exact) return -1;
  const h = have.toLowerCase(), w = want.toLowerCase();
  if (h === w) return 1;
  return h.includes(w) ? 2 : -1;
}

// sameControl: one candidate is inside the other, or is the other's label.
function sameControl(a, b) {
  if (composedContains(a, b) || composedContains(b, a)) return true;
  return (a.tagName === 'LABEL' && a.control === b) || (b.tagName === 'LABEL' && b.control === a);
}

function isDisabledControl(el) {
  return el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true';
}

// pickCandidate chooses among {el, rank, group} candidates (rank: exact →
// case-insensitive exact → substring): only the best rank counts; an
// interactive element beats plain text, an enabled one a disabled one;
// candidates that are one control (nested, or a label and its field) count
// once, as the one of the highest-priority group (innermost on a tie). Of
// the distinct controls left, the highest-priority group (spec §6.4:
// buttons, then links, …) wins, and the others are reported as also
// matched; several controls in that group are ambiguous.
function pickCandidate(cands, plainGroup) {
  if (plainGroup === undefined) plainGroup = PLAIN_TEXT;
  if (!cands.length) return { el: null };
  const best = Math.min(...cands.map((c) => c.rank));
  let top = cands.filter((c) => c.rank === best);
  if (top.some((c) => c.group < plainGroup)) top = top.filter((c) => c.group < plainGroup);
  if (top.some((c) => !isDisabledControl(c.el))) top = top.filter((c) => !isDisabledControl(c.el));
  top.sort((a, b) => a.group - b.group);
  const kept = [];
  for (const c of top) {
    const i = kept.findIndex((k) => sameControl(k.el, c.el));
    if (i < 0) kept.push(c);
    else if (kept[i].group === c.group && composedContains(kept[i].el, c.el)) kept[i] = c;
  }
  const first = kept.filter((c) => c.group === kept[0].group);
  return { el: kept[0].el, rank: best, ambiguous: first.length > 1 ? first : null, others: kept.filter((c) => c.group !== kept[0].group) };
}

// textRank grades el's match of want (matchRank) on its accessible name
// and on its visible text, the better of the two (spec §6.4): a button
// named "Submit" that shows "Click here" is found by either. The visible
// text (layout) is asked only when the raw text holds the words.
function textRank(el, want, exact, key) {
  const name = textOf(el);
  let rank = matchRank(name, want, exact);
  if (rank === 0 || !squash(el.textContent || '').includes(key)) return rank;
  const shown = normalizeSpace(el.innerText || el.textContent || '');
  if (shown === name) return rank;
  const r = matchRank(shown, want, exact);
  return r >= 0 && (rank < 0 || r < rank) ? r : rank;
}

// textCandidates lists the visible elements whose text matches want, with
// their rank and group.
function textCandidates(want, exact, within) {
  const roots = [within || document, ...allShadowRoots(within || document, [])];
  const seen = new Set();
  const out = [];
  const key = squash(want);
  TEXT_GROUPS.forEach((group, g) => {
    for (const root of roots) {
      for (const el of root.querySelectorAll(group)) {
        if (seen.has(el)) continue;
        seen.add(el);
        if (!mayBeNamed(el, key)) continue;
        const rank = textRank(el, want, exact, key);
        if (rank >= 0 && isShown(el)) out.push({ el, rank, group: g });
      }
    }
  });
  // Any element whose own text (not only its descendants') matches: the
  // innermost one, so a click lands on the words the agent sees. Layout
  // (innerText) is only asked of elements whose raw text, spaces removed,
  // holds the words: a match can only add spaces to it.
  for (const root of roots) {
    // A Document's own textContent is null: its root element holds the text.
    const all = root.nodeType === Node.DOCUMENT_NODE ? root.documentElement : root;
    if (!all || !squash(all.textContent || '').includes(key)) continue;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || seen.has(p) || SKIP_TAGS.has(p.tagName) || !/** @type {Text} */ (n).data.trim()) continue;
      seen.add(p);
      if (!squash(p.textContent || '').includes(key)) continue;
      const rank = matchRank(p.innerText || p.textContent || '', want, exact);
      if (rank >= 0 && isShown(p)) out.push({ el: p, rank, group: PLAIN_TEXT });
    }
  }
  return out;
}

// NAME_SOURCES are what can name an element besides its own text.
const NAME_SOURCES = '[aria-label],[aria-labelledby],[title],[alt],[placeholder],input,textarea,select,img,svg';

// mayBeNamed is the cheap test before computing an accessible name: its
// text holds the words, or something else may name it.
function mayBeNamed(el, key) {
  return squash(el.textContent || '').includes(key) || el.matches(NAME_SOURCES) || !!el.querySelector(NAME_SOURCES);
}

// squash is text without white space, in lower case: the cheap test that
// must hold for a match of any rank.
function squash(s) {
  return s.replace(/\s+/g, '').toLowerCase();
}

// findByText returns the pick among visible elements matching text.
function findByText(text, exact, within) {
  return pickCandidate(textCandidates(normalizeSpace(text), exact, within));
}

const LABELLED_FIELDS = 'input:not([type=hidden]),textarea,select,[contenteditable=""],[contenteditable=true],[role=textbox],[role=combobox],[role=searchbox],[role=spinbutton],[role=slider],[role=checkbox],[role=radio],[role=switch]';

// labelCandidates lists the fields whose label matches want (spec §6.4):
// label[for], a field nested in a label, aria-label, aria-labelledby,
// placeholder, then the accessible name; the source order is the group.
function labelCandidates(want, exact) {
  const roots = [document, ...allShadowRoots(document, [])];
  const out = [];
  const ok = (el) => el && isShown(el);
  // A styled checkbox, radio or file input is often hidden behind its
  // label: the visible label is enough (clicks go through it).
  const okVia = (l) => ok(l.control) || (/^(checkbox|radio|file)$/.test(l.control.type || '') && isShown(l));
  const add = (el, have, group) => {
    const rank = matchRank(have, want, exact);
    if (rank >= 0) out.push({ el, rank, group });
  };
  const key = squash(want);
  for (const root of roots) {
    for (const l of root.querySelectorAll('label')) {
      if (!squash(l.textContent || '').includes(key)) continue;
      if (l.control && okVia(l)) add(l.control, l.innerText || l.textContent, l.htmlFor ? 0 : 1);
    }
  }
  for (const root of roots) {
    for (const el of root.querySelectorAll(LABELLED_FIELDS)) {
      if (!ok(el)) continue;
      const ids = el.getAttribute('aria-labelledby');
      const byIds = ids ? ids.split(/\s+/).map((id) => { const r = byIdInRoot(el, id); return r ? r.textContent : ''; }).join(' ') : '';
      const sources = [el.getAttribute('aria-label'), byIds, el.getAttribute('placeholder')];
      let bestRank = -1, group = 0;
      sources.forEach((t, i) => {
        const r = t ? matchRank(t, want, exact) : -1;
        if (r >= 0 && (bestRank < 0 || r < bestRank)) { bestRank = r; group = 2 + i; }
      });
      if (bestRank >= 0) out.push({ el, rank: bestRank, group });
    }
  }
  // Last, the accessible name (labels made of several parts, titles),
  // computed only when nothing cheaper matched.
  if (!out.length) {
    for (const root of roots) {
      for (const el of root.querySelectorAll(LABELLED_FIELDS)) {
        const rank = ok(el) ? matchRank(accessibleName(el), want, exact) : -1;
        if (rank >= 0) out.push({ el, rank, group: 5 });
      }
    }
  }
  return out;
}

// findByLabel returns the pick among fields whose label matches text.
function findByLabel(text, exact) {
  const cands = labelCandidates(normalizeSpace(text), exact);
  // One field found through several labels or attributes counts once.
  const byEl = new Map();
  for (const c of cands) {
    const k = byEl.get(c.el);
    if (!k || c.rank < k.rank || (c.rank === k.rank && c.group < k.group)) byEl.set(c.el, c);
  }
  return pickCandidate([...byEl.values()], Infinity);
}

// describeCandidates lists ambiguous candidates for the agent: role,
// name, a ref to use next, and the box.
function describeCandidates(list, seq) {
  syncSeq(seq);
  const snap = Math.max(S.snapSeq, 1);
  return list.slice(0, 8).map((c) => {
    const role = effectiveRole(c.el);
    const name = refName(c.el, role);
    return { role, name: truncate(name, 60), ref: refFor(c.el, role, name, snap), box: boxOf(c.el.getBoundingClientRect()) };
  });
}

// find resolves a target spec {selector | text | label | focused} to an
// element, or returns null. A text or label that matches several distinct
// controls equally well returns {ambiguous: [...], matchCount} instead,
// unless spec.first takes the first of them.
/**
 * @param {FindSpec} spec
 * @returns {Element | Ambiguous | null}
 */
export function find(spec) {
  // Cleared first: a lookup that throws (an invalid selector) must leave
  // no element from an earlier one for the check sent behind it.
  S.lastElement = null;
  const r = findTarget(spec);
  S.lastElement = r && /** @type {Element} */ (r).nodeType === 1 ? /** @type {Element} */ (r) : null;
  return r;
}

/**
 * @param {FindSpec} spec
 * @returns {Element | Ambiguous | null}
 */
function findTarget(spec) {
  S.lastFind = null;
  if (spec.selector) return selectorQuery(spec.selector);
  let pick = null;
  if (spec.text !== undefined) {
    let within = null;
    if (spec.within) {
      within = selectorQuery(spec.within);
      if (!within) return null;
    }
    pick = findByText(spec.text, !!spec.exact, within);
  } else if (spec.label !== undefined) {
    pick = findByLabel(spec.label, !!spec.exact);
  } else if (spec.focused) {
    const a = deepActiveElement();
    return a && a !== document.body ? a : null;
  }
  if (!pick || !pick.el) return null;
  if (pick.ambiguous && !spec.first) {
    return { ambiguous: describeCandidates(pick.ambiguous, spec.seq), matchCount: pick.ambiguous.length, rank: /** @type {const} */ (['exact', 'case-insensitive', 'substring'])[pick.rank], seq: { snap: S.snapSeq, elem: S.elemSeq } };
  }
  if (pick.others && pick.others.length) {
    S.lastFind = { el: pick.el, alsoMatched: describeCandidates(pick.others, spec.seq).map((c) => ({ role: c.role, name: c.name, ref: c.ref })) };
  }
  return pick.el;
}

// selectorRead answers the read-only selector getters with the same lookup
// the actions use (open shadow roots, the first visible match first):
// exists, count, visible (some match is shown), state (visible, hidden
// or absent), text, value, attr.
export function selectorRead(sel, what, name) {
  const all = selectorMatches(sel);
  switch (what) {
    case 'exists': return all.length > 0;
    case 'count': return all.length;
    case 'visible': return all.some(isShown);
    case 'state': return all.some(isShown) ? 'visible' : all.length ? 'hidden' : 'absent';
  }
  const el = pickShown(all);
  if (!el) return null;
  switch (what) {
    case 'text': return (el.innerText ?? el.textContent).trim();
    case 'value': return 'value' in el ? el.value : null;
    case 'attr': return el.getAttribute(name);
  }
  fail('input', 'selectorRead: unknown read ' + what);
}

// textPresent reports whether the page shows text (case-sensitive, spaces
// normalised), open shadow roots included.
export function textPresent(text) {
  const want = normalizeSpace(text);
  const has = (s) => normalizeSpace(s || '').includes(want);
  if (document.body && has(document.body.innerText)) return true;
  for (const sr of allShadowRoots(document, [])) {
    if (sr.host && isShown(sr.host) && has([...sr.children].map((c) => c.innerText ?? c.textContent).join(' '))) return true;
  }
  return false;
}
