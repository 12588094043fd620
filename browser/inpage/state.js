// state.js — S, the object installed as the bundle's global
// (window.__cdpSkill in the engine's world; the page world's serializer
// and watch keep no global, see internal/jsbundle): the bundle's
// entry points (installed by the generated wrapper, see
// internal/jsbundle) and the state that lives across calls. The engine's
// state (refs, counters, frame slots) is set up by engine.js; the page
// world's serializer has none of it (serialize.js tells the worlds apart
// by S.byEl).
// Its type is EngineState (types.d.ts).
export const S = /** @type {EngineState} */ (/** @type {unknown} */ ({}));

// initEngineState sets up the engine's state across calls: refs and their
// elements, the snapshot and element counters, change hashes, closed shadow
// roots, frame slots. The engine (engine.js) and the pipeline's surface
// (pipeline.js) start from it.
export function initEngineState() {
  Object.assign(S, {
    refs: new Map(),
    byEl: new WeakMap(),
    snapSeq: 0,
    elemSeq: 0,
    hashes: new Map(),
    frameHashes: new Map(),
    closedRoots: new WeakMap(),
    // shadowRoots are the shadow roots the last walks entered: the change
    // log watches them too (changes.js changeWatch).
    shadowRoots: new Set(),
    checkedHosts: new WeakSet(),
    closedCandidates: [],
    // clickMarks are the elements with a click-type listener (snapshot.js
    // markClicks).
    clickMarks: new WeakSet(),
    slots: {},
  });
}
