package suggest

import "testing"

func TestStepJSON(t *testing.T) {
	cases := []struct {
		step Step
		want string
	}{
		{Step{"reload", true}, `{"reload":true}`},
		{Step{"press", "ArrowRight"}, `{"press":"ArrowRight"}`},
		{Step{"fill", Args{{"ref", "…"}, {"value", "35"}}}, `{"fill":{"ref":"…","value":"35"}}`},
		{Step{"screenshot", Args{{"region", Args{{"x", 0}, {"width", 800}}}}}, `{"screenshot":{"region":{"x":0,"width":800}}}`},
		{Step{"waitFor", "a < b && c"}, `{"waitFor":"a < b && c"}`},
	}
	for _, c := range cases {
		if got := c.step.JSON(); got != c.want {
			t.Errorf("%v: got %s, want %s", c.step, got, c.want)
		}
	}
}

func TestHintRendersEachStepInTheSyntax(t *testing.T) {
	h := New("reload it with %s or close it with %s", Step{"reload", true}, Step{"closeTab", true})
	if got := h.String(); got != `reload it with {"reload":true} or close it with {"closeTab":true}` {
		t.Errorf("JSON: %s", got)
	}
	upper := func(s Step) string { return "<" + s.Name + ">" }
	if got := h.Render(upper); got != "reload it with <reload> or close it with <closeTab>" {
		t.Errorf("own syntax: %s", got)
	}
	after := h.After("first %s, then ", Step{"press", "Escape"})
	if got := after.Render(upper); got != "first <press>, then reload it with <reload> or close it with <closeTab>" {
		t.Errorf("After: %s", got)
	}
	if len(h.Steps) != 2 {
		t.Errorf("After changed the hint it extends: %v", h.Steps)
	}
	var none *Hint
	if none.Render(nil) != "" {
		t.Error("a nil hint renders text")
	}
}
