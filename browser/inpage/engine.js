// engine.js — the in-page engine's entry module: what it exports is the
// engine's surface, installed as window.__cdpSkill in the isolated world
// (world.go). Go calls these through the generated constants of
// engine_entry_gen.go (go generate: internal/jsbundle), each one a cache
// bracket of its own (dom.js withCaches).

import { S } from './state.js';

// The engine's state across calls: refs and their elements, the snapshot
// and element counters, change hashes, closed shadow roots, frame slots.
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

export { describe, resolve } from './refs.js';
export { markClicks } from './snapshot.js';
export { domVersion } from './domversion.js';
export {
  snapshot, search, ref, frameHash, takeSlots, frameURL, resetRefs,
  takeClosedCandidates, registerClosedRoot, seedSeq
} from './api.js';
export { query } from './query.js';
export { find, selectorRead, textPresent } from './find.js';
export {
  check, checkLast, rectOf, clickTarget, targetInfo, clickPrep, armProbe, readProbe, fillKind,
  prepareFill, fillStart, typeStart, readValue, setValue, fireChange, selectOptions, checkedState, watchValue,
  readFill
} from './act.js';
export { readGuard } from './focusguard.js';
export { editorShows, editorPaste } from './editors.js';
export { sliderState } from './slider.js';
export {
  hoverPrepare, hoverCapture, dragSource, setRange, dragWatch, dragStarted, dragReport,
  dragMark, dragVerify, syntheticDrag, scrollPage, scrollElement, scrollIntoCenter
} from './gesture.js';
export { feedWatch, feedStatus, feedStep, feedStepUp, feedNudge, feedReport } from './feed.js';
export { scrollFlush } from './scrollpending.js';
export {
  selectOption, checkTarget, focusElement, fileInput, fileState, watchFiles
} from './forms.js';
export { frameOwners, frameCount } from './frames.js';
export { context, postCapture, frameCapture, diagnose, captureAfter, captureAhead, captureLogEnd, takeChangeText, presentRefs } from './capture.js';
export { serialize, serializeTyped, ping } from './serialize.js';
export { refElements, refElementList, refsOf } from './handover.js';
export {
  extract, inspect, getBox, elementsAt, elementsNear, formState, validate, submit
} from './extract.js';
export { changeWatch } from './changes.js';
export { visualKey } from './visual.js';
