// visual.js — a key that changes whenever what the viewport shows may have
// changed, so that the screenshot after a command can be reused when
// nothing did. Module of the in-page engine.
//
// From the engine's install on, every DOM mutation and the pointer's
// position are counted. The key joins them with the scroll, the viewport,
// the focused element and the document's state. Whatever the key cannot
// see — running animations and transitions, canvas, video, frames, images
// still loading, shadow roots and custom elements (the observer does not
// see inside them) — makes it null: take a fresh screenshot.

import { S } from './state.js';

const visual = {
  instance: Math.random().toString(36).slice(2),
  mutations: 0,
  pointer: '',
  ids: new WeakMap(),
  nextId: 1,
};

if (typeof MutationObserver === 'function' && document.documentElement) {
  new MutationObserver((records) => { visual.mutations += records.length; })
    .observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
}
for (const type of ['pointermove', 'pointerdown', 'pointerup', 'mousemove']) {
  window.addEventListener(type, (e) => {
    const m = /** @type {MouseEvent} */ (e);
    visual.pointer = m.clientX + ',' + m.clientY + ',' + m.buttons;
  }, { capture: true, passive: true });
}

function visualId(el) {
  if (!el) return 0;
  let id = visual.ids.get(el);
  if (!id) {
    id = visual.nextId++;
    visual.ids.set(el, id);
  }
  return id;
}

// visualUnknowable reports content whose look changes without a DOM
// mutation.
function visualUnknowable() {
  if (document.readyState !== 'complete') return true;
  if (document.querySelector('canvas,video,iframe,frame,embed,object')) return true;
  for (const img of document.images) if (!img.complete) return true;
  if (typeof document.getAnimations === 'function' && document.getAnimations().some((a) => a.playState === 'running')) return true;
  for (const el of document.querySelectorAll('*')) {
    if (el.shadowRoot || el.localName.includes('-') || S.closedRoots.has(el)) return true;
  }
  return false;
}

export function visualKey() {
  if (visualUnknowable()) return null;
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return [visual.instance, visual.mutations, location.href, scrollX, scrollY, innerWidth, innerHeight, devicePixelRatio,
    visualId(active), visual.pointer, document.hasFocus()].join('|');
}
