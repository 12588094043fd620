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
