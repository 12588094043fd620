package corpus

import (
	"strings"
	"testing"
)

// TestSliderFill fills noUiSlider's handle (a div with role=slider) by
// ref with a number: its keys are pressed until aria-valuenow is the
// value. noUiSlider's own value is it, its change event fired once per
// key press (15 from 20 to 35, as for a user's), and the answer is
// verified. Then down again, past the start.
func TestSliderFill(t *testing.T) {
	t.Parallel()
	a := openPage(t, "nouislider.html", "[data-ready=nouislider]")
	ref := refIn(t, a.snapshot(), `slider "Maximum price"`)
	out := a.do(`{"fill":{"ref":` + q(ref) + `,"value":"35"}}`)
	if got := a.evalJSON(`() => [slider.get(), changes, document.getElementById('price-value').textContent]`); got != `["35.00",15,"35"]` {
		t.Fatalf("[slider.get(), changes, shown] = %s", got)
	}
	if res := stepOutput(t, out, 0); res["verified"] != true || res["method"] != "keys" {
		t.Errorf("fill answer: %s", jsonString(res))
	}
	a.do(`{"fill":{"ref":` + q(ref) + `,"value":"7"}}`)
	if got := a.evalJSON(`() => [slider.get(), changes]`); got != `["7.00",43]` {
		t.Fatalf("[slider.get(), changes] after filling 7 = %s", got)
	}
}

// TestSliderFillRefusesBadValues: a value that is not a number or is
// outside the slider's range is refused, naming the range, and the
// slider does not move.
func TestSliderFillRefusesBadValues(t *testing.T) {
	t.Parallel()
	a := openPage(t, "nouislider.html", "[data-ready=nouislider]")
	ref := refIn(t, a.snapshot(), `slider "Maximum price"`)
	for value, want := range map[string]string{"cheap": "takes a number", "250": "outside the slider's range (from 0 to 100)"} {
		out := a.runSteps(`{"fill":{"ref":` + q(ref) + `,"value":` + q(value) + `}}`)
		if out.OK() || !strings.Contains(out.Steps[0].Error, want) {
			t.Errorf("fill %q: want an error with %q, got %s", value, want, out.JSON())
		}
	}
	if got := a.evalJSON(`() => [slider.get(), changes]`); got != `["20.00",0]` {
		t.Fatalf("[slider.get(), changes] = %s", got)
	}
}

// TestSliderOtherStepsSuggestKeys: selectOption and a drag with value on
// the slider's handle are refused with the keys that move it.
func TestSliderOtherStepsSuggestKeys(t *testing.T) {
	t.Parallel()
	a := openPage(t, "nouislider.html", "[data-ready=nouislider]")
	ref := refIn(t, a.snapshot(), `slider "Maximum price"`)
	for _, step := range []string{
		`{"selectOption":{"ref":` + q(ref) + `,"value":"35"}}`,
		`{"drag":{"source":` + q(ref) + `,"value":35}}`,
		`{"type":{"ref":` + q(ref) + `,"text":"35"}}`,
	} {
		out := a.runSteps(step)
		if out.OK() || !strings.Contains(string(out.JSON()), "ArrowRight") {
			t.Errorf("%s: want an error suggesting the arrow keys, got %s", step, out.JSON())
		}
	}
	if got := a.evalJSON(`() => [slider.get(), changes]`); got != `["20.00",0]` {
		t.Fatalf("[slider.get(), changes] = %s", got)
	}
}

// TestSliderFillInFrame fills a noUiSlider inside a same-site iframe by a
// top-level ref: the slider in the frame holds the value.
func TestSliderFillInFrame(t *testing.T) {
	t.Parallel()
	a := openFrames(t, "nouislider", "kanban")
	ref := refIn(t, a.snapshot(), `slider "Maximum price"`)
	a.do(`{"fill":{"ref":` + q(ref) + `,"value":"12"}}`)
	if got := a.evalIn("#same", `() => [slider.get(), changes]`); got != `["12.00",8]` {
		t.Fatalf("[slider.get(), changes] in the frame = %s", got)
	}
}
