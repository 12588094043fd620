package runtime

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestFrameStepDepthAgreesWithTheList: §13.1/§13.2 — the frame a frame
// step enters is described as the listing describes it: a child of the
// top document has depth 1 and the main frame as parent, its own child
// (here a cross-site frame) depth 2, however the frame was named
// (selector, index, name, URL part, frame id, from a frame it is in), and
// a listing names the frame the step runs in as the current one.
func TestFrameStepDepthAgreesWithTheList(t *testing.T) {
	cross := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Leaf</title><p id="leaf">Leaf</p>`)
	}))
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/outer.html" {
			fmt.Fprint(w, `<!doctype html><title>Outer</title><iframe id="inner" name="inner" src="`+cross+`leaf.html"></iframe>`)
			return
		}
		fmt.Fprint(w, `<!doctype html><title>Top</title><iframe id="outer" name="outer" src="/outer.html"></iframe>`)
	}))
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`top.html"},{"wait":"iframe#outer"},
		{"frame":"#outer"},{"wait":"iframe#inner"},{"frame":"#inner"},{"wait":"#leaf"},{"frame":"top"},
		{"frame":{"list":true}},
		{"frame":0},{"frame":{"index":0}},{"frame":"top"},
		{"frame":{"name":"outer"}},{"frame":"top"},
		{"frame":{"url":"leaf.html"}},{"frame":"top"},
		{"frame":"outer"},{"frame":{"name":"inner"}},
		{"frame":{"list":true}}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	var list struct {
		MainFrameID    string `json:"mainFrameId"`
		CurrentFrameID string `json:"currentFrameId"`
		Frames         []struct {
			FrameID  string `json:"frameId"`
			ParentID string `json:"parentId"`
			Depth    int    `json:"depth"`
		} `json:"frames"`
	}
	if err := json.Unmarshal([]byte(jsonString(out.Steps[7].Output)), &list); err != nil || len(list.Frames) != 3 {
		t.Fatalf("frame list (%v): %s", err, jsonString(out.Steps[7].Output))
	}
	byID := map[string]int{}
	parents := map[string]string{}
	for _, f := range list.Frames {
		byID[f.FrameID], parents[f.FrameID] = f.Depth, f.ParentID
	}
	for i, want := range map[int]int{2: 1, 4: 2, 8: 1, 9: 2, 11: 1, 13: 2, 15: 1, 16: 2} {
		var got struct {
			Frame struct {
				FrameID  string `json:"frameId"`
				ParentID string `json:"parentId"`
				Depth    int    `json:"depth"`
			} `json:"frame"`
		}
		json.Unmarshal([]byte(jsonString(out.Steps[i].Output)), &got)
		f := got.Frame
		if f.Depth != want || byID[f.FrameID] != want || f.ParentID != parents[f.FrameID] || f.ParentID == "" {
			t.Errorf("step %d: %s; the list says depth %d, parent %q", i, jsonString(out.Steps[i].Output), byID[f.FrameID], parents[f.FrameID])
		}
	}
	if d, ok := byID[list.MainFrameID]; !ok || d != 0 || list.CurrentFrameID != list.MainFrameID {
		t.Errorf("the main frame's depth: %v (%v); current frame %s", d, ok, list.CurrentFrameID)
	}
	// Listed from inside a frame, the current frame is that frame.
	var inner struct {
		CurrentFrameID string `json:"currentFrameId"`
	}
	json.Unmarshal([]byte(jsonString(out.Steps[17].Output)), &inner)
	if want := stepOutput(t, out, 16)["frame"].(map[string]any)["frameId"]; inner.CurrentFrameID != want {
		t.Errorf("listed from the inner frame: current frame %s, want %v", inner.CurrentFrameID, want)
	}
}
