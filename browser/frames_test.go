package browser

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

const framePage = `<!doctype html><title>Inner</title><main>
<button id="b" onclick="window.hit = (window.hit || 0) + 1">Inner button</button>
<input id="i" aria-label="Inner field"></main>`

// frameServers serves the parent page on one loopback port and the frame
// page on another, so that 127.0.0.1:B is cross-origin (same site) and
// localhost:B cross-site (an out-of-process iframe).
func frameServers(t *testing.T) (parent string, framePort int) {
	t.Helper()
	frames := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/outer.html":
			w.Write([]byte(`<!doctype html><title>Outer frame</title><main><p>outer</p><iframe name="deep" src="/frame.html"></iframe></main>`))
		default:
			w.Write([]byte(framePage))
		}
	}))
	t.Cleanup(frames.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(frames.URL, "http://"))
	fp, _ := strconv.Atoi(port)
	main := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/same.html":
			w.Write([]byte(framePage))
		default:
			w.Write([]byte(`<!doctype html><title>Frames</title><main style="padding: 30px">
<iframe id="same" name="same" src="/same.html" style="width: 400px; height: 120px; margin-left: 50px"></iframe>
<iframe id="cross" name="cross" src="http://127.0.0.1:` + port + `/frame.html" style="width: 400px; height: 120px"></iframe>
<iframe id="site" name="site" src="http://localhost:` + port + `/frame.html" style="width: 400px; height: 120px; border: 7px solid red"></iframe>
<iframe id="nested" name="nested" src="http://localhost:` + port + `/outer.html" style="width: 500px; height: 260px"></iframe>
</main>`))
		}
	}))
	t.Cleanup(main.Close)
	return main.URL + "/", fp
}

func TestFramesListAndSwitch(t *testing.T) {
	parent, _ := frameServers(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	if _, err := p.Navigate(ctx, parent+"index.html", WaitLoad); err != nil {
		t.Fatal(err)
	}
	list, err := p.Frames().List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]FrameInfo{}
	for _, f := range list.Frames {
		byName[f.Name] = f
	}
	if len(list.Frames) != 6 || byName["same"].CrossOrigin || !byName["cross"].CrossOrigin || !byName["site"].OutOfProcess || byName["deep"].Depth != 2 {
		t.Fatalf("frames: %+v", list.Frames)
	}
	for _, name := range []string{"same", "cross", "site"} {
		t.Run(name, func(t *testing.T) {
			info, _, err := p.Frames().Switch(ctx, FrameSpec{Selector: "#" + name})
			if err != nil {
				t.Fatal(err)
			}
			if name == "site" && !info.OutOfProcess {
				t.Errorf("localhost frame not out of process: %+v", info)
			}
			s, err := p.Snapshot(ctx, SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// A ref from the frame's snapshot takes a real mouse click there.
			res, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `button "Inner button"`)}, ClickOptions{NativeOnly: true})
			if err != nil {
				t.Fatalf("click in %s frame: %v", name, err)
			}
			if _, err := p.Fill(ctx, Target{Label: "Inner field"}, "in "+name, FillOptions{Clear: true}); err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, "[window.hit, document.getElementById('i').value]"); got != `[1,"in `+name+`"]` {
				t.Fatalf("frame state = %s (%+v)", got, res)
			}
			if _, _, err := p.Frames().Switch(ctx, FrameSpec{Top: true}); err != nil {
				t.Fatal(err)
			}
			if js(t, p, "document.title") != `"Frames"` {
				t.Fatal("top did not return to the page")
			}
		})
	}
}

func TestNestedCrossSiteFrame(t *testing.T) {
	parent, _ := frameServers(t)
	p := openTestTab(t)
	ctx := testCtx(t)
	p.Navigate(ctx, parent+"index.html", WaitLoad)
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Name: "nested"}); err != nil {
		t.Fatal(err)
	}
	idx := 0
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Index: &idx}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Click(ctx, Target{Text: "Inner button"}, ClickOptions{NativeOnly: true}); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "[window.hit, window.name]"); got != `[1,"deep"]` {
		t.Fatalf("nested frame state = %s", got)
	}
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Name: "nope"}); KindOf(err) != KindElementNotFound {
		t.Errorf("unknown name: %v", err)
	}
	if _, _, err := p.Frames().Switch(ctx, FrameSpec{Selector: "main"}); KindOf(err) != KindStepValidation && KindOf(err) != KindElementNotFound {
		t.Errorf("not an iframe: %v", err)
	}
}
