// domversion.js — a count of the document's changes, for the click
// listener scan (listeners.go): a scan asks CDP for every listener of the
// page, which costs tens of milliseconds on a large page, so it runs again
// only when the DOM changed since the last one. A snapshot or capture is
// given the count the last scan started at and answers at once, without
// rendering, when the scan must run first (scanNeeded): an unchanged page
// costs no round trip of its own. Module of the in-page engine.

import { S } from './state.js';

// watchRoot observes root (the document, or a shadow root the snapshot
// walked into) once: any added or removed node or changed attribute counts.
function watchRoot(root) {
  if (!S.domObserver) {
    S.domChanges = 1;
    S.domObserved = new WeakSet();
    S.domObserver = new MutationObserver(() => { S.domChanges++; });
  }
  if (S.domObserved.has(root)) return;
  S.domObserved.add(root);
  S.domObserver.observe(root, { childList: true, subtree: true, attributes: true });
}

// domVersion returns the count, observing the document and the shadow
// roots the engine knows of. Records not yet delivered count too. A
// listener a page adds with no change to the DOM is seen at the next
// change.
function domVersion() {
  watchRoot(document);
  if (S.shadowRoots) for (const r of S.shadowRoots) watchRoot(r);
  if (S.domObserver.takeRecords().length) S.domChanges++;
  return S.domChanges;
}

// scanNeeded returns the count when the DOM changed since scanAt, the
// count the document's last listener scan started at (0: never scanned),
// so the scan must run before a render; 0 when it need not, or when
// scanAt is not a number (the caller asks for no scan).
/**
 * @param {number | undefined} scanAt
 * @returns {number}
 */
export function scanNeeded(scanAt) {
  if (typeof scanAt !== 'number') return 0;
  const v = domVersion();
  return v === scanAt ? 0 : v;
}
