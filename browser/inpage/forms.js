// forms.js — select, check, focus and upload helpers. Fragment of the
// in-page engine.
