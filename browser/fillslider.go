package browser

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/cdp-skill/cdp-skill/browser/suggest"
)

// sliderState is an ARIA slider's numbers (inpage/slider.js); nil when
// the slider does not say them.
type sliderState struct {
	Now  *float64 `json:"now"`
	Min  *float64 `json:"min"`
	Max  *float64 `json:"max"`
	Text string   `json:"text"`
}

// sliderKeys is the advice of every slider error: the keys that move it.
var sliderKeys = suggest.New("focus it and press its keys (%s or ArrowLeft, Home, End, PageUp, PageDown), or drag its handle", suggest.Step{Name: "press", Value: "ArrowRight"})

// sliderFill is the fill a slider is set with.
var sliderFill = suggest.Step{Name: "fill", Value: suggest.Args{{Key: "ref", Value: "…"}, {Key: "value", Value: "35"}}}

// maxSliderRounds bounds the press-and-read rounds of a slider fill; each
// round presses as many keys as the distance left takes at the step seen.
const maxSliderRounds = 12

// maxSliderPresses bounds the keys pressed in one round.
const maxSliderPresses = 200

// fillSlider fills an ARIA slider (role=slider, not <input type=range>) as
// a user does with the keyboard: with it focused (fillStart), the arrow
// keys move it until aria-valuenow is the value. The first press shows the
// direction (a right-to-left or vertical slider may turn the arrows round)
// and the step, from which the presses left are counted.
func (p *Page) fillSlider(ctx context.Context, el *Element, focused bool, st sliderState, value string, res *FillResult) error {
	want, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil {
		return Errorf(KindStepValidation, "the target is a slider: it takes a number, not %q", value).WithHint("fill it with a number%s", sliderRange(st))
	}
	if st.Now == nil {
		return Errorf(KindElementNotEditable, "the slider does not say its value (it has no aria-valuenow), so a fill cannot tell when it is reached").WithAdvice(sliderKeys)
	}
	if (st.Min != nil && want < *st.Min) || (st.Max != nil && want > *st.Max) {
		return Errorf(KindStepValidation, "%g is outside the slider's range%s", want, sliderRange(st)).WithHint("fill a number in its range")
	}
	if !focused {
		return Errorf(KindElementNotEditable, "the slider cannot take focus, so its keys cannot move it").WithHint("it may be disabled; drag its handle instead")
	}
	up, down := "ArrowRight", "ArrowLeft"
	now, step := *st.Now, 0.0
	for round := 0; !sameNumber(now, want) && round < maxSliderRounds; round++ {
		key, n := up, 1
		if want < now {
			key = down
		}
		if step > 0 {
			n = min(max(int(math.Round(math.Abs(want-now)/step)), 1), maxSliderPresses)
		}
		next, err := p.pressSlider(ctx, el, key, n)
		if err != nil {
			return err
		}
		moved := next - now
		switch {
		case moved == 0:
			return sliderStuck(key, now, want)
		case (key == up) != (moved > 0):
			// The arrows are turned round (right to left): the next
			// round presses the other one.
			up, down = down, up
		default:
			step = math.Abs(moved) / float64(n)
		}
		if step > 0 && !sameNumber(next, want) && (next-want)*(now-want) < 0 && math.Abs(next-want) < step {
			return Errorf(KindElementNotEditable, "the slider moves in steps of %g: it now holds %g, and %g is between its steps", step, next, want).
				WithAdvice(sliderKeys.After("fill a value on its steps, or "))
		}
		now = next
	}
	if !sameNumber(now, want) {
		return Errorf(KindElementNotEditable, "the slider holds %g after %d rounds of key presses, not %g", now, maxSliderRounds, want).WithAdvice(sliderKeys)
	}
	res.Method, res.Filled, res.Verified = "keys", true, ptr(true)
	return nil
}

// pressSlider presses key n times on the focused slider and reads its
// aria-valuenow back.
func (p *Page) pressSlider(ctx context.Context, el *Element, key string, n int) (float64, error) {
	k, _ := lookupKey(key)
	for range n {
		if err := p.in.Press(ctx, KeyCombo{Key: k, Name: key}); err != nil {
			return 0, err
		}
	}
	var st sliderState
	if err := el.call(ctx, &st, epSliderState); err != nil {
		return 0, err
	}
	if st.Now == nil {
		return 0, Errorf(KindElementNotEditable, "the slider stopped saying its value (aria-valuenow) while its keys were pressed").WithAdvice(sliderKeys)
	}
	return *st.Now, nil
}

// sliderStuck is the error of a slider its arrow keys do not move.
func sliderStuck(key string, now, want float64) error {
	return Errorf(KindElementNotEditable, "the slider did not move on %s: it still holds %g, not %g", key, now, want).
		WithHint("it may not take keys (or be at its end); drag its handle, or click its track at the value")
}

// sliderRange says a slider's range for messages, or nothing.
func sliderRange(st sliderState) string {
	if st.Min == nil || st.Max == nil {
		return ""
	}
	return " (from " + strconv.FormatFloat(*st.Min, 'g', -1, 64) + " to " + strconv.FormatFloat(*st.Max, 'g', -1, 64) + ")"
}

// sameNumber compares slider values, which pages round when they write
// aria-valuenow.
func sameNumber(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b))
}
