// editable.js — whether an element takes typed text. Module of the
// in-page engine.

import { roleOf } from './roles.js';
import { anyAriaDisabled } from './names.js';

// Input types that take no text; every other type, unknown ones included
// (which browsers treat as text), does.
const NON_TEXT_TYPES = new Set(['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image', 'hidden']);

// editProblem returns why el cannot take typed text, or null.
export function editProblem(el) {
  if (el.matches(':disabled') || (anyAriaDisabled(el) && el.closest('[aria-disabled=true]'))) return 'disabled';
  if (el.isContentEditable) return null;
  const tag = el.tagName;
  if (tag === 'TEXTAREA') return el.readOnly ? 'readonly' : null;
  if (tag === 'SELECT') return null;
  if (tag === 'INPUT') {
    // el.type is the type the browser applies: an unknown one reads "text".
    const t = el.type;
    if (NON_TEXT_TYPES.has(t)) return 'not a text field (input type=' + t + ')';
    return el.readOnly || el.getAttribute('aria-readonly') === 'true' ? 'readonly' : null;
  }
  const role = roleOf(el);
  if (role === 'slider') return 'not editable (a slider: fill it with a number, or focus it and press ArrowRight/ArrowLeft, Home, End, PageUp or PageDown)';
  if ((role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton') && el.getAttribute('aria-readonly') !== 'true') return null;
  return 'not editable (a ' + el.tagName.toLowerCase() + ', not an input, textarea, select or contenteditable)';
}
