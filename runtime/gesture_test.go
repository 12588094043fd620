package runtime

import (
	"strings"
	"testing"
)

func TestGestureSteps(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`gesture.html"},
		{"drag": {"source": "#slider", "target": {"selector": "#slider", "offsetX": 50}}},
		{"scroll": "bottom"},
		{"scroll": {"deltaY": -100}},
		{"pageFunction": "() => [document.getElementById('slider').value, hits.input, hits.change, scrollY === document.scrollingElement.scrollHeight - innerHeight - 100]"},
		{"scroll": "top"},
		{"hover": {"selector": "#products", "captureResult": true}}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	hover := stepOutput(t, out, 6)
	var ref string
	captured, _ := hover["capturedResult"].(map[string]any)
	items, _ := captured["visibleElements"].([]any)
	for _, it := range items {
		if m := it.(map[string]any); m["name"] == "Laptops" {
			ref, _ = m["ref"].(string)
		}
	}
	if hover["hovered"] != true || ref == "" {
		t.Fatalf("hover: %s", jsonString(hover))
	}
	drag := stepOutput(t, out, 1)
	if drag["method"] != "range" || drag["value"] != 75.0 {
		t.Errorf("drag: %s", jsonString(drag))
	}
	if s := stepOutput(t, out, 2); s["scrolled"] != true || s["scrollY"].(float64) <= 0 {
		t.Errorf("scroll bottom: %s", jsonString(s))
	}
	if got := jsonString(out.Steps[4].Output); got != `["75",1,1,true]` {
		t.Errorf("page state = %s", got)
	}

	// The menu is still open (the mouse has not moved): its captured ref
	// works in the next invocation.
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+ref+`"},{"pageFunction":"hits.menu"},{"scroll":"bottom"},{"scroll":"bottom"}]}`)
	mustOK(t, again)
	if got := jsonString(again.Steps[1].Output); got != `"laptops"` {
		t.Errorf("click on the captured ref: %s", again.JSON())
	}
	if s := again.Steps[3]; stepOutput(t, again, 3)["scrolled"] != false || len(s.Warning) == 0 {
		t.Errorf("scroll at the bottom: %s", jsonString(s))
	}

	bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"drag":{"source":"#slider"}}]}`)
	if bad.OK() || bad.Steps[0].ErrorType != "StepValidationError" || !strings.Contains(bad.Steps[0].Error, "target") {
		t.Errorf("drag without target: %s", bad.JSON())
	}
	bad = runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"scroll":"sideways!!"}]}`)
	if bad.OK() || bad.Steps[0].ErrorType != "InvalidSelectorError" {
		t.Errorf("scroll to an invalid selector: %s", bad.JSON())
	}
}

func TestGestureRecipe(t *testing.T) {
	base := pagesURL(t)
	open := runJSON(t, `{"steps":[{"openTab": "`+base+`gesture.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	out := runRecipe(t, Program{Tab: open.Tab, Source: []byte(`
r = drag(source = {"selector": "#slider", "offset_x": -100}, target = {"selector": "#slider", "offset_x": -50})
s = scroll(delta_y = 250)
e = scroll(selector = "#end")
result = [r.method, r.value, s.scrollY, e.scrolled]
`)})
	mustOK(t, out)
	if got := jsonString(out.Result); got != `["range",25,250,true]` {
		t.Errorf("result = %s (%s)", got, out.JSON())
	}
}
