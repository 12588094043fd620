// pipeline.js — what a pipeline's operations use (pipeline.go), bundled as
// a function literal that each pipeline's own expression calls: the
// operations run in the page's world, beside the page's globals, and
// cdp-skill leaves no name there. Module of the in-page engine.

import { initEngineState } from './state.js';

initEngineState();

export { find } from './find.js';
export { setValue } from './act.js';
export { serialize } from './serialize.js';
