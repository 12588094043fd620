package runtime

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// orderPage is an order page: a header, a status line, a list the Save
// button adds to once its request answers, a toast that shows while it
// saves, and a link to another page. breakDispatch makes the page's
// dispatchEvent throw (some pages patch it), which keeps the watch's
// settle event from the capture taken ahead.
func orderPage(breakDispatch bool) string {
	script := ""
	if breakDispatch {
		script = `<script>EventTarget.prototype.dispatchEvent = function () { throw new Error('patched') }</script>`
	}
	return `<!doctype html><title>Orders</title>` + script + `
<header><nav><a href="#">Shop</a> <a href="next.html">Next page</a></nav></header>
<main><h1>Your orders</h1><p role="status" id="state">Idle</p>
<ul id="list"><li>Order #1</li></ul>
<button id="save" onclick="window.saves = (window.saves || 0) + 1; state.textContent = 'Saving…'; toast.hidden = false;
fetch('save.json').then(r => r.json()).then(d => { const li = document.createElement('li'); li.textContent = d.item + (list.children.length + 1); list.append(li); state.textContent = 'Saved'; toast.hidden = true })">Save</button>
<button id="pop" onclick="window.open('next.html')">Open receipt</button>
<button id="ticker" onclick="let n = 0; state.textContent = 'working 0'; const iv = setInterval(() => { n++; state.textContent = n < 6 ? 'working ' + n : 'done'; if (n >= 6) clearInterval(iv) }, 120)">Run job</button>
<button id="slow" onclick="state.textContent = 'loading'; fetch('slow.json').then(() => { state.textContent = 'loaded' })">Load slowly</button>
<label>Note <input id="note" oninput="setTimeout(() => { state.textContent = 'Draft saved' }, 50)"></label>
<label>Delivery <select id="delivery" onchange="fetch('save.json').then(() => { state.textContent = 'Delivery ' + this.value })"><option>Standard</option><option>Express</option></select></label></main>
<div id="toast" role="alert" hidden>Saving your order</div>`
}

func serveOrders(t *testing.T) string {
	t.Helper()
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/save.json":
			time.Sleep(60 * time.Millisecond)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"item": "Order #"}`))
		case "/slow.json":
			time.Sleep(3 * time.Second)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{}`))
		case "/tall.html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(tallPage))
		case "/next.html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(`<!doctype html><title>Receipt</title><h1>Receipt</h1>`))
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(orderPage(r.URL.Query().Get("patched") != "")))
		}
	}))
}

// A one-step click command's capture is taken as the click settles (in
// the round trip of the settle). The answer must still be the page after
// the click's work: its request answered, the list grew, the status
// changed, the toast came and went. On a page that keeps the settle's event
// from the capture (a patched dispatchEvent), the same.
func TestOneStepClickCaptureIsThePageAfterTheClick(t *testing.T) {
	base := serveOrders(t)
	for _, page := range []string{"orders.html", "orders.html?patched=1"} {
		open := runJSON(t, `{"steps":[{"openTab":"`+base+page+`"}]}`)
		mustOK(t, open)
		closeTabAfter(t, open)
		for i, capture := range []string{"compact", "full"} {
			mustOK(t, runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"pageFunction":"state.textContent = 'Idle'"}]}`))
			out := runJSON(t, `{"tab":"`+open.Tab+`","capture":"`+capture+`","steps":[{"click":"#save"}]}`)
			mustOK(t, out)
			ch := out.Changes
			text := strings.Join(ch.Text, "\n")
			if ch == nil || !strings.Contains(text, "~ status: Saved (was: Idle)") || !strings.Contains(text, fmt.Sprintf("+ text: Order #%d", i+2)) {
				t.Errorf("%s, %s: changes = %s", page, capture, jsonString(ch))
			} else if !strings.Contains(strings.Join(ch.Transient, "\n"), "Saving your order") {
				t.Errorf("%s, %s: the toast that came and went is not in transient: %s", page, capture, jsonString(ch))
			}
			if !strings.Contains(out.ViewportSnap, fmt.Sprintf("Order #%d", i+2)) {
				t.Errorf("%s, %s: viewport snapshot without the new order: %s", page, capture, out.ViewportSnap)
			}
		}
		saves := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"pageFunction":"window.saves"}]}`)
		mustOK(t, saves)
		if got := jsonString(saves.Steps[0].Output); got != "2" {
			t.Errorf("%s: the Save handler ran %s times for two clicks", page, got)
		}
	}
}

// A click that does more than settle — it navigates, or opens a tab — is
// not answered with a capture taken as it settled: the answer shows the
// page the tab shows now.
func TestOneStepClickThatNavigatesOrOpensATab(t *testing.T) {
	base := serveOrders(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`orders.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	pop := runJSON(t, `{"tab":"`+open.Tab+`","capture":"compact","steps":[{"click":"#pop"}]}`)
	mustOK(t, pop)
	closeNewTab(t, pop)
	if pop.Context == nil || pop.Context.Title != "Orders" || !strings.Contains(pop.ViewportSnap, "Your orders") {
		t.Errorf("after opening a tab, the answer is not this tab's page: %s", pop.JSON())
	}
	nav := runJSON(t, `{"tab":"`+open.Tab+`","capture":"compact","steps":[{"click":{"text":"Next page"}}]}`)
	mustOK(t, nav)
	if !nav.Navigated || nav.Context.Title != "Receipt" || !strings.Contains(nav.ViewportSnap, `heading "Receipt"`) || nav.Changes != nil {
		t.Errorf("after a navigating click: navigated=%v title=%q changes=%s snapshot=%q", nav.Navigated, nav.Context.Title, jsonString(nav.Changes), nav.ViewportSnap)
	}
}

// The same for one-step fill and select commands: the capture shows what
// their handlers rendered after a timer or a request.
func TestOneStepFillAndSelectCaptureAfterTheirWork(t *testing.T) {
	base := serveOrders(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`orders.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	for _, c := range []struct{ step, want string }{
		{`{"fill":{"selector":"#note","value":"Leave at the door"}}`, "~ status: Draft saved (was: Idle)"},
		{`{"selectOption":{"selector":"#delivery","value":"Express"}}`, "~ status: Delivery Express (was: Idle)"},
	} {
		mustOK(t, runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"pageFunction":"state.textContent = 'Idle'"}]}`))
		out := runJSON(t, `{"tab":"`+open.Tab+`","capture":"compact","steps":[`+c.step+`]}`)
		mustOK(t, out)
		if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), c.want) {
			t.Errorf("%s: changes = %s, want %q", c.step, jsonString(out.Changes), c.want)
		}
	}
}

// As the resident process runs commands (a kept pool): the diff's baseline
// goes out with the tab's check and the capture with the settle. The
// answers must be those of the page: each click's change, a ref from
// changes that works, and after the page navigated between commands (its
// engine's world from before is gone) the same.
func TestPooledOneStepCommandsDiffThePage(t *testing.T) {
	base := serveOrders(t)
	run := pooledFinishing(t)
	open := run(`{"steps":[{"openTab":"` + base + `orders.html"}]}`)
	defer run(`{"steps":[{"closeTab":"` + open.Tab + `"}]}`)
	tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
	for round := 0; round < 2; round++ {
		for i := 2; i <= 3; i++ {
			out := run(tab + `{"click":"#save"}]}`)
			// Nothing a user can act on came or went: the baseline is the
			// page before this click.
			if out.Changes == nil || !strings.Contains(newsLines(out.Changes), fmt.Sprintf("+ text: Order #%d", i)) || len(out.Changes.Added)+len(out.Changes.Removed) > 0 {
				t.Errorf("round %d, click %d: changes = %s", round, i, jsonString(out.Changes))
			}
		}
		// The page reloads behind the pool's back (a script, a user): the
		// list is back to one order.
		run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"setTimeout(() => location.reload(), 0)"},{"sleep":300}]}`)
	}
	out := run(tab + `{"fill":{"label":"Note","value":"Ring twice"}}]}`)
	if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "Draft saved") {
		t.Errorf("fill after a reload: changes = %s", jsonString(out.Changes))
	}
	check := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"[document.querySelectorAll('li').length, note.value].join()"}]}`)
	if got := jsonString(check.Steps[0].Output); got != `"1,Ring twice"` {
		t.Errorf("page after the commands: %s", got)
	}
}

// tallPage has a button at its top and one 3000 px further down.
const tallPage = `<!doctype html><title>Tall</title><main><button id="top">Top</button>
<div style="height: 3000px"></div><button id="far">Far</button></main>`

// A one-step command whose action waits on after it settles (a click's
// waitAfter), or whose settle the step's timeout cut short, answers with
// the page at its end, not with the capture taken as the action settled.
func TestOneStepCaptureAfterWaitsAndTimeouts(t *testing.T) {
	base := serveOrders(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`orders.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	out := runJSON(t, `{"tab":"`+open.Tab+`","capture":"compact","steps":[{"click":{"selector":"#ticker","waitAfter":true}}]}`)
	mustOK(t, out)
	if !strings.Contains(out.ViewportSnap, "done") || out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "done") {
		t.Errorf("click with waitAfter: changes = %s, snapshot = %s", jsonString(out.Changes), out.ViewportSnap)
	}
	slow := runJSON(t, `{"tab":"`+open.Tab+`","capture":"compact","timeout":1000,"steps":[{"click":"#slow"}]}`)
	state := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"pageFunction":"state.textContent"}]}`)
	mustOK(t, state)
	// The answer came before the 3 s request ended: it shows "loading",
	// as the page still did right after.
	if got := jsonString(state.Steps[0].Output); got != `"loading"` || !strings.Contains(slow.ViewportSnap, "loading") {
		t.Errorf("a settle cut short by the step timeout: the page shows %s right after; the answer's snapshot: %s (%s)", got, slow.ViewportSnap, slow.JSON())
	}
}

// A lookup that throws (an invalid selector) leaves nothing for the check
// sent behind it: the element an earlier command found is not checked,
// scrolled into view or clicked.
func TestInvalidSelectorChecksNoEarlierElement(t *testing.T) {
	base := serveOrders(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`tall.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	tab := `{"tab":"` + open.Tab + `","steps":[`
	mustOK(t, runJSON(t, tab+`{"click":{"selectors":["#far"]}}]}`))
	mustOK(t, runJSON(t, tab+`{"scroll":"top"}]}`))
	for _, step := range []string{`{"click":"#top[["}`, `{"click":{"text":"Top","withinSelector":"main[["}}`, `{"fill":{"selector":"input[[","value":"x"}}`} {
		bad := runJSON(t, tab+step+`]}`)
		if bad.OK() || bad.Context == nil || !strings.Contains(jsonString(bad.Context.Scroll), `"y":0,`) {
			t.Errorf("%s: want an error and the page still at the top: %s", step, bad.JSON())
		}
	}
}

// A command on its own connection (no resident process, or --debug) does
// not report the tabs earlier commands opened as tabs its click opened:
// turning target discovery on announces every tab there is.
func TestClickOnAFreshConnectionReportsOnlyItsOwnNewTabs(t *testing.T) {
	base := serveOrders(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`orders.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	pop := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"click":"#pop"}]}`)
	mustOK(t, pop)
	closeNewTab(t, pop)
	again := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"click":"#save"}]}`)
	mustOK(t, again)
	if tabs, ok := stepOutput(t, again, 0)["newTabs"]; ok {
		t.Errorf("a click that opens nothing reports newTabs %s", jsonString(tabs))
	}
}

// closeNewTab checks that out's first step opened one tab and closes it
// when the test ends.
func closeNewTab(t *testing.T, out *Output) {
	t.Helper()
	newTabs, _ := stepOutput(t, out, 0)["newTabs"].([]any)
	if len(newTabs) != 1 {
		t.Fatalf("the click that opens a tab: newTabs = %s", jsonString(out.Steps[0].Output))
	}
	nt, _ := newTabs[0].(map[string]any)
	id, _ := nt["tab"].(string)
	if id == "" {
		id, _ = nt["targetId"].(string)
	}
	t.Cleanup(func() { runJSON(t, `{"steps":[{"closeTab":"`+id+`"}]}`) })
}

// pooledFinishing is pooledRunner whose answers are finished at once (the
// deferred screenshot taken, the tab released), as the resident process
// does after writing each answer.
func pooledFinishing(t *testing.T) func(command string) *Output {
	pooled := pooledRunner(t)
	return func(command string) *Output {
		t.Helper()
		out := pooled(command)
		out.Finish()
		return out
	}
}

// finishingRunner runs commands directly, or with pooled as the resident
// process does, each answer finished once it is out; their answers may be
// errors.
func finishingRunner(t *testing.T, pooled bool) func(command string) *Output {
	run := commandRunner(t, pooled)
	return func(command string) *Output {
		t.Helper()
		out := run(command)
		out.Finish()
		return out
	}
}

// pooledRunner runs commands as the resident process does (a kept pool, the
// screenshot after the answer), each expected to succeed.
func pooledRunner(t *testing.T) func(command string) *Output {
	run := commandRunner(t, true)
	return func(command string) *Output {
		t.Helper()
		out := run(command)
		mustOK(t, out)
		return out
	}
}

// commandRunner runs commands directly, or with pooled on a kept pool
// with the screenshot after the answer (as the resident process does).
func commandRunner(t *testing.T, pooled bool) func(command string) *Output {
	o := testOptions(t)
	if pooled {
		o.Pool = NewPool()
		t.Cleanup(o.Pool.Close)
		o.DeferScreenshot = true
	}
	return func(command string) *Output {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, out := RunJSON(ctx, []byte(command), o)
		return out
	}
}
