// engine.js — the in-page engine's entry module: what it exports is the
// engine's surface, installed as window.__cdpSkill in the isolated world
// (world.go). Go calls these through the generated constants of
// engine_entry_gen.go (go generate: internal/jsbundle), each one a cache
// bracket of its own (dom.js withCaches).

import { initEngineState } from './state.js';

initEngineState();

export { describe, resolve } from './refs.js';
export { markClicks } from './snapshot.js';
export { scanNeeded } from './domversion.js';
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
