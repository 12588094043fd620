// frames.js — frame discovery helpers. Fragment of the in-page engine.

// frameOwners lists the iframe and frame elements of the document (open
// shadow roots included), in document order.
S.frameOwners = function frameOwners() {
  return queryAllComposed('iframe,frame', document);
};

// frameCount is how many iframe and frame elements the document holds
// (a cheap check before looking into frames).
S.frameCount = function frameCount() {
  return queryAllComposed('iframe,frame', document).length;
};
