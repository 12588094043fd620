// slider.js — ARIA sliders that are not <input type=range> (noUiSlider,
// design-system sliders): a div with role=slider whose value is its
// aria-valuenow, moved by the keys the ARIA pattern defines (arrows,
// Home, End, PageUp, PageDown). A fill presses those keys until the value
// is reached (browser/fillslider.go). Module of the in-page engine.

import { effectiveRole } from './refs.js';

// isAriaSlider: el is a slider that only keys or a drag move.
export function isAriaSlider(el) {
  return el.tagName !== 'INPUT' && effectiveRole(el) === 'slider';
}

// sliderState reads a slider's numbers (null when it does not say them).
export function sliderState(el) {
  const num = (a) => {
    const v = parseFloat(el.getAttribute(a));
    return Number.isFinite(v) ? v : null;
  };
  return { now: num('aria-valuenow'), min: num('aria-valuemin'), max: num('aria-valuemax'), text: el.getAttribute('aria-valuetext') || '' };
}
