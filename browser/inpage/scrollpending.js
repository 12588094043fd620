// scrollpending.js — whether a scroll the engine made still waits for the
// page's scroll listeners, which run at the next frame. Module of the
// in-page engine.

import { S } from './state.js';
import { parentElementComposed } from './dom.js';

// noteScroll records that the engine scrolled something: until the page
// has had a frame to run its scroll listeners (a virtualised list renders
// its rows then), a press could land between those listeners and the
// release (scrollPending, read by the actionability check).
export function noteScroll() {
  const mark = {};
  S.scrollPending = mark;
  // A page that renders no frame for a while (a background tab) drops
  // the mark after a second, so a pending scroll never costs more.
  afterFrame(undefined, 1000).then(() => {
    if (S.scrollPending === mark) S.scrollPending = null;
  });
}

// scrollFlush resolves once the scroll listeners of the engine's last
// scroll have run (false at once when none is pending), and the
// scrollers around el (and the page) stopped moving for a frame: a
// list's re-render can move its scroll position again (scroll anchoring),
// which fires its listeners once more. At most FLUSH_FRAMES frames.
export function scrollFlush(el) {
  if (!S.scrollPending) return false;
  const boxes = [window];
  for (let e = el ? parentElementComposed(el) : null; e; e = parentElementComposed(e)) boxes.push(e);
  let moved = true;
  const on = () => { moved = true; };
  for (const b of boxes) b.addEventListener('scroll', on, { capture: true, passive: true });
  return (async () => {
    for (let i = 0; i < FLUSH_FRAMES && moved; i++) {
      moved = false;
      await afterFrame();
    }
    for (const b of boxes) b.removeEventListener('scroll', on, { capture: true });
    return true;
  })();
}

const FLUSH_FRAMES = 5;

// afterFrame resolves once scroll listeners have had a frame to run, or
// after fallbackMs (100) when the page renders no frame.
export function afterFrame(value, fallbackMs) {
  return new Promise((resolve) => {
    let done = false;
    const fin = () => { if (!done) { done = true; resolve(value); } };
    requestAnimationFrame(() => setTimeout(fin, 0));
    setTimeout(fin, fallbackMs || 100);
  });
}
