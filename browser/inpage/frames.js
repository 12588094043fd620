// frames.js — frame discovery helpers. Module of the in-page engine.

import { queryAllComposed } from './query.js';

// frameOwners lists the iframe and frame elements of the document (open
// shadow roots included), in document order.
export function frameOwners() {
  return queryAllComposed('iframe,frame', document);
}

// frameCount is how many iframe and frame elements the document holds
// (a cheap check before looking into frames).
export function frameCount() {
  return queryAllComposed('iframe,frame', document).length;
}
