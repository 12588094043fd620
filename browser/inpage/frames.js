// frames.js — frame discovery helpers. Fragment of the in-page engine.

// frameOwners lists the iframe and frame elements of the document (open
// shadow roots included), in document order.
S.frameOwners = function frameOwners() {
  return queryAllComposed('iframe,frame', document);
};
