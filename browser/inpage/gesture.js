// gesture.js — hover capture, drag and scroll helpers. Fragment of the
// in-page engine.
