package browser

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// rectOf returns an element's viewport box.
func rectOf(t *testing.T, p *Page, sel string) (r struct{ X, Y, W, H float64 }) {
	t.Helper()
	raw := js(t, p, `(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`)
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func findCaptured(res *HoverResult, role, name string) *CapturedElement {
	if res.CapturedResult == nil {
		return nil
	}
	for i, e := range res.CapturedResult.VisibleElements {
		if e.Role == role && (e.Name == name || e.Text == name) {
			return &res.CapturedResult.VisibleElements[i]
		}
	}
	return nil
}

func TestHoverCapturesMenuAndTooltip(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	ctx := testCtx(t)
	res, err := p.Hover(ctx, Target{Selector: "#products"}, HoverOptions{CaptureResult: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Hovered || js(t, p, `getComputedStyle(document.querySelector('.submenu')).display`) != `"block"` {
		t.Fatalf("the CSS :hover menu did not open: %+v", res)
	}
	laptops := findCaptured(res, "link", "Laptops")
	if laptops == nil || !IsRef(laptops.Ref) || findCaptured(res, "link", "Phones") == nil {
		t.Fatalf("captured: %+v", res.CapturedResult)
	}
	for _, e := range res.CapturedResult.VisibleElements {
		if e.Name == "About" || e.Name == "Products" {
			t.Errorf("reported %q, which was visible before the hover", e.Name)
		}
	}
	if _, err := p.Click(ctx, Target{Ref: laptops.Ref}, ClickOptions{}); err != nil {
		t.Fatalf("click the captured ref: %v", err)
	}
	if js(t, p, "hits.menu") != `"laptops"` {
		t.Fatalf("menu item not clicked: %s", js(t, p, "hits.menu"))
	}

	// A tooltip that a mouseenter handler appends to the body.
	res, err = p.Hover(ctx, Target{Text: "Save"}, HoverOptions{CaptureResult: true})
	if err != nil {
		t.Fatal(err)
	}
	tip := findCaptured(res, "tooltip", "Saves your work")
	if tip == nil || tip.Ref == "" || js(t, p, "hits.tipShown") != "1" {
		t.Fatalf("tooltip not captured: %+v (page: %s)", res.CapturedResult, js(t, p, "hits.tipShown"))
	}

	// Nothing appears: the list is empty, and the tooltip is gone.
	res, err = p.Hover(ctx, Target{Selector: "#plain"}, HoverOptions{CaptureResult: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.CapturedResult == nil || len(res.CapturedResult.VisibleElements) != 0 {
		t.Errorf("hover on plain text captured %+v", res.CapturedResult)
	}
	if js(t, p, "!!document.getElementById('tip')") != "false" {
		t.Error("the mouse did not leave the Save button")
	}
}

func TestHoverDurationAndPoint(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	ctx := testCtx(t)
	// The page sets hits.slow 150 ms after mouseenter; holding 600 ms
	// means it has happened by the time hover returns.
	res, err := p.Hover(ctx, Target{Selector: "#slow"}, HoverOptions{Duration: 600 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if js(t, p, "hits.slow") != "true" || res.Element == nil {
		t.Fatalf("held hover: %+v slow=%s", res, js(t, p, "hits.slow"))
	}
	r := rectOf(t, p, "#save")
	if _, err := p.Hover(ctx, Target{Point: &Point{X: r.X + r.W/2, Y: r.Y + r.H/2}}, HoverOptions{}); err != nil {
		t.Fatal(err)
	}
	if js(t, p, "hits.tipShown") != "1" {
		t.Fatal("hover at a point did not reach the button")
	}
	if _, err := p.Hover(ctx, Target{Selector: "#missing"}, HoverOptions{ActionOptions: ActionOptions{Timeout: 300 * time.Millisecond}}); KindOf(err) != KindElementNotFound {
		t.Errorf("missing element: %v", err)
	}
}

func TestDragSlider(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	ctx := testCtx(t)
	r := rectOf(t, p, "#slider")
	res, err := p.Drag(ctx, DragEnd{Target: Target{Selector: "#slider"}}, DragEnd{Target: Target{Point: &Point{X: r.X + 0.75*r.W, Y: r.Y + r.H/2}}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "range" || res.Value == nil || *res.Value != 75 {
		t.Fatalf("slider drag: %+v", res)
	}
	if js(t, p, "document.getElementById('slider').value") != `"75"` || js(t, p, "[hits.sliderInput, hits.sliderChange]") != "[1,1]" {
		t.Fatalf("page state: value %s, events %s", js(t, p, "document.getElementById('slider').value"), js(t, p, "[hits.sliderInput, hits.sliderChange]"))
	}
	v := 30.0
	if res, err = p.Drag(ctx, DragEnd{Target: Target{Selector: "#slider"}}, DragEnd{}, DragOptions{Value: &v}); err != nil || *res.Value != 30 {
		t.Fatalf("explicit value: %+v %v", res, err)
	}
	if js(t, p, "document.getElementById('slider').value") != `"30"` {
		t.Fatal("explicit value not set")
	}
	// Past the end of the track clamps to max.
	res, err = p.Drag(ctx, DragEnd{Target: Target{Selector: "#slider"}, OffsetX: 0}, DragEnd{Target: Target{Point: &Point{X: r.X + r.W + 50, Y: r.Y}}}, DragOptions{})
	if err != nil || *res.Value != 100 {
		t.Fatalf("past the end: %+v %v", res, err)
	}
}

func TestDragHTML5(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	ctx := testCtx(t)
	res, err := p.Drag(ctx, DragEnd{Target: Target{Selector: "#item"}}, DragEnd{Target: Target{Selector: "#zone"}}, DragOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "html5" || !res.Dragged || res.Steps != DefaultDragSteps {
		t.Fatalf("drag: %+v", res)
	}
	if js(t, p, "[hits.dragstart, hits.dropped, hits.dragend]") != `[true,"item-42",true]` {
		t.Fatalf("page state: %s", js(t, p, "hits"))
	}
	// The mouse works normally afterwards.
	click(t, p, Target{Selector: "#save"}, ClickOptions{NativeOnly: true})
	if js(t, p, "[hits.saved, hits.tipShown]") != "[true,1]" {
		t.Fatalf("mouse unusable after the drag: %s", js(t, p, "hits"))
	}
}

func TestDragSyntheticFallback(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	// #fake is not draggable: the mouse drag changes nothing, so the
	// HTML5 events are dispatched from JavaScript.
	res, err := p.Drag(testCtx(t), DragEnd{Target: Target{Selector: "#fake"}}, DragEnd{Target: Target{Selector: "#zone2"}}, DragOptions{Steps: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "html5-synthetic" || js(t, p, "hits.fakeDropped") != `"fake-1"` {
		t.Fatalf("synthetic drag: %+v page %s", res, js(t, p, "hits"))
	}
}

func TestDragMouse(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	ctx := testCtx(t)
	before := rectOf(t, p, "#box")
	from := Point{X: before.X + before.W/2, Y: before.Y + before.H/2}
	to := Point{X: from.X + 300, Y: from.Y + 40}
	res, err := p.Drag(ctx, DragEnd{Target: Target{Selector: "#box"}}, DragEnd{Target: Target{Point: &to}}, DragOptions{Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "mouse" || res.Target != to || math.Abs(res.Source.X-from.X) > 1 {
		t.Fatalf("drag: %+v", res)
	}
	after := rectOf(t, p, "#box")
	if math.Abs(after.X-(before.X+300)) > 1 || math.Abs(after.Y-(before.Y+40)) > 1 || js(t, p, "hits.released") != "true" {
		t.Fatalf("box moved from %+v to %+v (page %s)", before, after, js(t, p, "hits"))
	}
	// An offset from the element's centre.
	res, err = p.Drag(ctx, DragEnd{Target: Target{Selector: "#box"}, OffsetX: -10, OffsetY: -10}, DragEnd{Target: Target{Point: &Point{X: 100, Y: 500}}}, DragOptions{Method: DragMouse})
	if err != nil || res.Method != "mouse" {
		t.Fatalf("offset drag: %+v %v", res, err)
	}
	moved := rectOf(t, p, "#box")
	if math.Abs(moved.X-(100-15)) > 1 || math.Abs(moved.Y-(500-15)) > 1 {
		t.Errorf("offset drag left the box at %+v", moved)
	}
}

func TestDragValidation(t *testing.T) {
	p, _ := openFixture(t, "gesture.html")
	ctx := testCtx(t)
	cases := []struct {
		src, dst DragEnd
		o        DragOptions
	}{
		{DragEnd{Target: Target{Selector: "#item"}}, DragEnd{}, DragOptions{}},
		{DragEnd{}, DragEnd{Target: Target{Selector: "#zone"}}, DragOptions{}},
		{DragEnd{Target: Target{Selector: "#item"}}, DragEnd{Target: Target{Selector: "#zone"}}, DragOptions{Method: "fling"}},
		{DragEnd{Target: Target{Selector: "#item"}}, DragEnd{Target: Target{Selector: "#zone"}}, DragOptions{Steps: -1}},
		{DragEnd{Target: Target{Selector: "#item"}}, DragEnd{Target: Target{Selector: "#zone"}}, DragOptions{Value: new(float64)}},
	}
	for i, c := range cases {
		if _, err := p.Drag(ctx, c.src, c.dst, c.o); KindOf(err) != KindStepValidation {
			t.Errorf("case %d: %v", i, err)
		}
	}
	if js(t, p, "hits.dropped === undefined") != "true" {
		t.Error("a rejected drag changed the page")
	}
}

func scrollOK(t *testing.T, p *Page, o ScrollOptions) *ScrollResult {
	t.Helper()
	res, err := p.Scroll(testCtx(t), o)
	if err != nil {
		t.Fatalf("scroll %+v: %v", o, err)
	}
	return res
}

func fptr(f float64) *float64 { return &f }

func TestScrollPage(t *testing.T) {
	p, _ := openFixture(t, "scroll.html")
	maxY := js(t, p, "document.scrollingElement.scrollHeight - innerHeight")
	res := scrollOK(t, p, ScrollOptions{To: "bottom"})
	if !res.Scrolled || js(t, p, "scrollY") != maxY || jsonNum(res.ScrollY) != maxY {
		t.Fatalf("bottom: %+v, scrollY %s, max %s", res, js(t, p, "scrollY"), maxY)
	}
	res = scrollOK(t, p, ScrollOptions{To: "bottom"})
	if res.Scrolled || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "already at the bottom") {
		t.Fatalf("bottom again: %+v", res)
	}
	if res = scrollOK(t, p, ScrollOptions{To: "top"}); !res.Scrolled || res.ScrollY != 0 || js(t, p, "scrollY") != "0" {
		t.Fatalf("top: %+v", res)
	}
	if res = scrollOK(t, p, ScrollOptions{Delta: &Point{Y: 300}}); res.ScrollY != 300 || js(t, p, "scrollY") != "300" {
		t.Fatalf("delta: %+v", res)
	}
	if res = scrollOK(t, p, ScrollOptions{X: fptr(100), Y: fptr(500)}); res.ScrollX != 100 || res.ScrollY != 500 || js(t, p, "[scrollX, scrollY]") != "[100,500]" {
		t.Fatalf("absolute: %+v", res)
	}
	res = scrollOK(t, p, ScrollOptions{Target: Target{Selector: "#far"}})
	centre := js(t, p, `(() => { const r = document.getElementById('far').getBoundingClientRect(); return Math.abs(r.top + r.height / 2 - innerHeight / 2) <= 1; })()`)
	if !res.Scrolled || centre != "true" || res.Element["name"] != "Far heading" {
		t.Fatalf("into view: %+v centred=%s", res, centre)
	}
	if res = scrollOK(t, p, ScrollOptions{Target: Target{Selector: "#far"}}); res.Scrolled || len(res.Warnings) != 0 {
		t.Errorf("already in view: %+v", res)
	}
	if res = scrollOK(t, p, ScrollOptions{Target: Target{Selector: "#gone"}}); res.Scrolled || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "not rendered") {
		t.Errorf("hidden element: %+v", res)
	}
}

func jsonNum(f float64) string {
	data, _ := json.Marshal(f)
	return string(data)
}

func TestScrollElement(t *testing.T) {
	p, _ := openFixture(t, "scroll.html")
	res := scrollOK(t, p, ScrollOptions{Target: Target{Selector: "#inner"}, Delta: &Point{Y: 120}})
	if !res.Scrolled || res.ScrollY != 120 || res.Container != "div#inner" || js(t, p, "[document.getElementById('inner').scrollTop, scrollY]") != "[120,0]" {
		t.Fatalf("inner delta: %+v", res)
	}
	res = scrollOK(t, p, ScrollOptions{Target: Target{Selector: "#inner"}, Y: fptr(0)})
	if !res.Scrolled || js(t, p, "document.getElementById('inner').scrollTop") != "0" {
		t.Fatalf("inner absolute: %+v", res)
	}
	// The list inside the scroll container (a virtualised list's content
	// element): the container scrolls, as under a mouse wheel.
	res = scrollOK(t, p, ScrollOptions{Target: Target{Selector: "#inner .tall"}, Delta: &Point{Y: 80}})
	if !res.Scrolled || res.Container != "div#inner" || js(t, p, "[document.getElementById('inner').scrollTop, scrollY]") != "[80,0]" {
		t.Fatalf("content of a scroller: %+v", res)
	}
	res = scrollOK(t, p, ScrollOptions{Target: Target{Selector: "#fits"}, Delta: &Point{Y: 50}})
	if res.Scrolled || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "not scrollable") || js(t, p, "scrollY") != "0" {
		t.Fatalf("not scrollable: %+v", res)
	}
}

func TestScrollValidation(t *testing.T) {
	p, _ := openFixture(t, "scroll.html")
	ctx := testCtx(t)
	if _, err := p.Scroll(ctx, ScrollOptions{Target: Target{Selector: "sideways!!"}}); KindOf(err) != KindSelector {
		t.Errorf("bad selector: %v", err)
	}
	for i, o := range []ScrollOptions{{}, {To: "middle"}, {To: "top", Delta: &Point{Y: 1}}, {Delta: &Point{Y: 1}, Y: fptr(3)}} {
		if _, err := p.Scroll(ctx, o); KindOf(err) != KindStepValidation {
			t.Errorf("case %d: %v", i, err)
		}
	}
	if _, err := p.Scroll(ctx, ScrollOptions{Target: Target{Selector: "#nope"}, Timeout: 200 * time.Millisecond}); KindOf(err) != KindElementNotFound {
		t.Errorf("missing element: %v", err)
	}
}

func TestScrollAppShell(t *testing.T) {
	// The window does not scroll; a full-height pane does.
	p := loadHTML(t, `<!doctype html><style>html, body { margin: 0; height: 100%; overflow: hidden; }
		#side { position: fixed; left: 0; top: 0; width: 100px; height: 100%; overflow: auto; }
		#main { position: absolute; left: 100px; right: 0; top: 0; bottom: 0; overflow: auto; }</style>
		<nav id="side"><div style="height: 900px">nav</div></nav>
		<div id="main"><div style="height: 5000px">content</div></div>`)
	res := scrollOK(t, p, ScrollOptions{To: "bottom"})
	want := js(t, p, "(() => { const m = document.getElementById('main'); return m.scrollHeight - m.clientHeight; })()")
	if !res.Scrolled || res.Container != "div#main" || jsonNum(res.ScrollY) != want || js(t, p, "document.getElementById('main').scrollTop") != want {
		t.Fatalf("app shell bottom: %+v (want %s)", res, want)
	}
	if js(t, p, "[scrollY, document.getElementById('side').scrollTop]") != "[0,0]" {
		t.Error("scrolled the wrong thing")
	}
}
