// extract.js — reading structured data (tables, lists, forms, boxes).
// Fragment of the in-page engine.
