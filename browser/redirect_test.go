package browser

import (
	"os"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// openRedirect opens a hostile fixture of testdata/act with a mode.
func openRedirect(t *testing.T, page, mode string) *Page {
	t.Helper()
	base := browsertest.Serve(t, os.DirFS("testdata"))
	p := openTestTab(t)
	if _, err := p.Navigate(testCtx(t), base+"act/"+page+"?mode="+mode, WaitLoad); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClickCannotBeRedirected: a page that puts something else under the
// pointer when it first moves ("Delete everything" in place of Continue,
// or Continue renamed, or a transparent layer) gets no click: the press
// is checked where it lands, in the page, and stopped before the page's
// listeners see it; the step fails naming what was there. The page's own
// counters stay 0. Before, the click said "clicked Continue" and the page
// counted a Delete. A re-render that puts a fresh Continue there, or a
// hover arrow added to its name, is the same element to the agent, and
// it is clicked once.
func TestClickCannotBeRedirected(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"swap", `"Delete everything"`},
		{"rename", `to "Delete everything"`},
		{"shadow", `"Delete everything"`},
		{"layer", "div#trap"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			p := openRedirect(t, "redirect.html", c.mode)
			ctx := testCtx(t)
			s, err := p.Snapshot(ctx, SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `button "Continue"`)}, ClickOptions{})
			if err == nil {
				t.Logf("res %+v counts %s", res, js(t, p, "window.counts"))
			}
			e := wantKind(t, err, KindElementIntercepted)
			if !strings.Contains(e.Message, c.want) || !strings.Contains(e.Message, "nothing was clicked") {
				t.Errorf("the error does not name what was under the pointer (%s): %v", c.want, e)
			}
			if got := js(t, p, "[window.counts.continue, window.counts.delete, document.title]"); got != `[0,0,"Checkout"]` {
				t.Errorf("the page acted: [continue, delete, title] = %s", got)
			}
			if got := js(t, p, "window.counts.moves > 0"); got != "true" {
				t.Errorf("the pointer never moved: the fixture did not run")
			}
		})
	}
	for _, mode := range []string{"rerender", "decorate"} {
		t.Run(mode, func(t *testing.T) {
			p := openRedirect(t, "redirect.html", mode)
			ctx := testCtx(t)
			s, err := p.Snapshot(ctx, SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Click(ctx, Target{Ref: refOf(t, s.YAML, `button "Continue"`)}, ClickOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, "[window.counts.continue, window.counts.delete]"); got != "[1,0]" {
				t.Errorf("[continue, delete] = %s (method %s, %v)", got, res.Method, res.Warnings)
			}
		})
	}
}

// TestFillCannotBeRedirected: a page that moves focus from the password
// field to a public comment field (in the field's focus handler, a moment
// after focus, or on the first keydown) never gets the password in the
// comment: text goes in only while the field keeps focus, keys and text
// aimed elsewhere are stopped before the page sees them, and the fill or
// type fails with an ElementInterceptedError that names the comment field
// and never the password. Before, the fill said ok and the password was
// posted as a comment.
func TestFillCannotBeRedirected(t *testing.T) {
	const secret = "hunter2-S3cret"
	for _, c := range []struct {
		mode string
		typ  bool
	}{{"focus", false}, {"timer", false}, {"key", true}, {"focus", true}} {
		step := map[bool]string{false: "fill", true: "type"}[c.typ]
		t.Run(c.mode+"-"+step, func(t *testing.T) {
			p := openRedirect(t, "stealfocus.html", c.mode)
			ctx := testCtx(t)
			var err error
			if c.typ {
				_, err = p.Type(ctx, Target{Label: "Password"}, secret, TypeOptions{})
			} else {
				_, err = p.Fill(ctx, Target{Label: "Password"}, secret, FillOptions{Clear: true})
			}
			if got := js(t, p, "[document.getElementById('comment').value, document.getElementById('posted').textContent, window.heard.length]"); got != `["","",0]` {
				t.Fatalf("the comment field got the keys or text: [value, posted, events heard] = %s (err %v)", got, err)
			}
			if c.mode == "timer" && err == nil {
				// The page's timer ran after the text went in: the
				// password is where it belongs.
				if got := js(t, p, "document.getElementById('pw').value"); got != `"`+secret+`"` {
					t.Fatalf("the fill said ok and the password field holds %s", got)
				}
				return
			}
			e := wantKind(t, err, KindElementIntercepted)
			if !strings.Contains(e.Message, "textarea#comment") || strings.Contains(e.Error(), secret) || strings.Contains(e.Hint, secret) {
				t.Errorf("the error does not name the comment field, or shows the password: %v (hint %s)", e, e.Hint)
			}
		})
	}
	// The next fill on the page, into a field that keeps focus, works:
	// no guard is left armed.
	p := openRedirect(t, "stealfocus.html", "key")
	ctx := testCtx(t)
	if _, err := p.Type(ctx, Target{Label: "Password"}, secret, TypeOptions{}); err == nil {
		t.Fatal("the key-mode type did not fail")
	}
	if _, err := p.Fill(ctx, Target{Label: "Name"}, "Ada", FillOptions{Clear: true}); err != nil {
		t.Fatal(err)
	}
	combo, _ := p.in.ParseKeys("b")
	if _, err := p.PressKeys(ctx, Target{}, combo, 1); err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "document.getElementById('name').value"); got != `"Adab"` {
		t.Errorf("after a refused type, the name field holds %s, want \"Adab\"", got)
	}
}

// TestTypeGoesOnThroughSplitCodeInputs: split code inputs (a box per
// digit, maxlength 1) move focus to the next box as each fills up; typing
// a code goes on into the next boxes, as a user's typing does, and the
// answer says so. A password field never passes its text on this way.
func TestTypeGoesOnThroughSplitCodeInputs(t *testing.T) {
	p := loadHTML(t, `<main><h1>Verify</h1>
<div id="code"><input aria-label="Digit 1" maxlength="1"><input aria-label="Digit 2" maxlength="1"><input aria-label="Digit 3" maxlength="1"></div>
<label>PIN <input id="pin" type="password" maxlength="2"></label><label>Note <input id="note"></label>
</main>
<script>
const boxes = [...document.querySelectorAll('#code input')];
boxes.forEach((b, i) => b.addEventListener('input', () => { if (b.value && boxes[i + 1]) boxes[i + 1].focus(); }));
const pin = document.getElementById('pin');
pin.addEventListener('input', () => { if (pin.value.length === 2) document.getElementById('note').focus(); });
</script>`)
	ctx := testCtx(t)
	res, err := p.Type(ctx, Target{Label: "Digit 1"}, "739", TypeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "boxes.map((b) => b.value).join('')"); got != `"739"` {
		t.Errorf("the boxes hold %s, want 739", got)
	}
	if !strings.Contains(strings.Join(res.Warnings, " "), "moved focus on") {
		t.Errorf("the answer does not say the typing went on into the next boxes: %v", res.Warnings)
	}
	_, err = p.Type(ctx, Target{Label: "PIN"}, "4821", TypeOptions{})
	wantKind(t, err, KindElementIntercepted)
	if got := js(t, p, "[pin.value, document.getElementById('note').value]"); got != `["48",""]` {
		t.Errorf("[pin, note] = %s: a password's text went on into another field", got)
	}
}

// TestClickOnARowTheListRendersAgain: a list that renders its rows again
// when the pointer arrives (a virtualised list's scroll handler, which
// Clusterize runs as the click scrolls a row into view) leaves a fresh
// "Row 5" where the pressed one stood. It is the same row to the agent:
// the click goes ahead and the list opens row 5 once. When the new render
// puts another row there (Row 6), the press is stopped and nothing opens.
// Before, the fresh row, a list item without a name, was judged by its
// list's role and the click was stopped as "reached list ul#rows".
func TestClickOnARowTheListRendersAgain(t *testing.T) {
	for _, c := range []struct {
		mode, opened string
		stopped      bool
	}{{"same", "[5]", false}, {"shift", "[]", true}} {
		t.Run(c.mode, func(t *testing.T) {
			p := openRedirect(t, "rerows.html", c.mode)
			ctx := testCtx(t)
			_, err := p.Click(ctx, Target{Text: "Row 5", Exact: true}, ClickOptions{})
			if c.stopped {
				e := wantKind(t, err, KindElementIntercepted)
				if !strings.Contains(e.Message, "Row 6") {
					t.Errorf("the error does not name the row under the pointer: %v", e)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := js(t, p, "[JSON.stringify(opened), renders]"); got != `["`+strings.ReplaceAll(c.opened, `"`, `\"`)+`",2]` {
				t.Fatalf("[opened, renders] = %s, want [%s, 2]", got, c.opened)
			}
		})
	}
}
