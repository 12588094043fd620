package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// cartPage is a shop page: a header, a status line, an Add button that
// adds a Remove button for the item, a checkout link and a search field.
// frame adds a sidebar ad in an iframe; tall puts the Add button 2500 px
// down (its check scrolls it into view).
func cartPage(frame, tall bool) string {
	ad, gap := "", ""
	if frame {
		ad = `<aside><iframe id="ad" src="ad.html" title="Ad" style="height: 60px"></iframe>
<button onclick="ad.style.display = 'none'">Hide ad</button> <button onclick="ad.remove()">Remove ad</button></aside>`
	}
	if tall {
		gap = `<div style="height: 2500px"></div>`
	}
	return `<!doctype html><title>Shop</title>
<header><nav><a href="#">Home</a> <a href="#help">Help</a></nav></header>` + ad + `
<main><h1>Shop</h1><p role="status" id="state">Idle</p>` + gap + `
<button id="add" onclick="window.adds = (window.adds || 0) + 1; state.textContent = 'Added ' + window.adds;
const b = document.createElement('button'); b.textContent = 'Remove item ' + window.adds; items.append(b)">Add to cart</button>
<div id="items"></div>
<label>Search <input id="q" oninput="state.textContent = 'Searching ' + this.value"></label>
<a id="checkout" href="receipt.html">Checkout</a></main>`
}

func serveCart(t *testing.T) string {
	t.Helper()
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/ad.html":
			w.Write([]byte(`<!doctype html><title>Ad</title><a href="#">Buy more</a>`))
		case "/receipt.html":
			w.Write([]byte(`<!doctype html><title>Receipt</title><h1>Receipt</h1>`))
		default:
			q := r.URL.Query()
			w.Write([]byte(cartPage(q.Get("frame") != "", q.Get("tall") != "")))
		}
	}))
}

// As the resident process runs a one-step command on a kept tab, the
// step's lookup goes out right behind the diff's baseline and the URL
// read, without waiting for their answers. The baseline must still be the
// page before the step: on a plain page, on one with a frame (its
// baseline is read again after the lookup, leaving the step's change log
// running) and with the target below the fold (its check scrolls). Each
// click's answer lists exactly what it changed, and its handler ran once;
// a click that navigates says so, also after the page reloaded behind the
// pool's back.
func TestPooledFirstLookupBehindTheBaseline(t *testing.T) {
	base := serveCart(t)
	run := pooledFinishing(t)
	for _, page := range []string{"shop.html", "shop.html?frame=1", "shop.html?tall=1"} {
		open := run(`{"steps":[{"openTab":"` + base + page + `"}]}`)
		tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
		for i := 1; i <= 3; i++ {
			out := run(tab + `{"click":"#add"}]}`)
			ch := out.Changes
			added := jsonString(ch)
			if ch == nil || !strings.Contains(strings.Join(ch.Text, "\n"), fmt.Sprintf("~ status: Added %d", i)) ||
				len(ch.Added) != 1 || !strings.Contains(added, fmt.Sprintf("Remove item %d", i)) || len(ch.Removed) > 0 {
				t.Errorf("%s, click %d: changes = %s", page, i, added)
			}
		}
		out := run(tab + `{"fill":{"label":"Search","value":"socks"}}]}`)
		if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "Searching socks") {
			t.Errorf("%s, fill: changes = %s", page, jsonString(out.Changes))
		}
		got := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"[window.adds, items.children.length, q.value].join()"}]}`)
		if s := jsonString(got.Steps[0].Output); s != `"3,3,socks"` {
			t.Errorf("%s: the page after three clicks and a fill: %s", page, s)
		}
		// The page reloads behind the pool's back: the engine's world the
		// baseline and the URL read go to is gone, and they are read again
		// before the click.
		run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"setTimeout(() => location.reload(), 0)"},{"sleep":300}]}`)
		nav := run(tab + `{"click":"#checkout"}]}`)
		if !nav.Navigated || nav.Context.Title != "Receipt" || nav.Changes != nil {
			t.Errorf("%s: a click that navigates: navigated=%v title=%q changes=%s", page, nav.Navigated, nav.Context.Title, jsonString(nav.Changes))
		}
		run(`{"steps":[{"closeTab":"` + open.Tab + `"}]}`)
	}
}

// The same for a click at a point and for typing into the focused field:
// they look nothing up, and the baseline is read as they arm their watch.
func TestPooledPointClickAndTypeDiffThePage(t *testing.T) {
	base := serveCart(t)
	run := pooledFinishing(t)
	open := run(`{"steps":[{"openTab":"` + base + `shop.html"}]}`)
	defer run(`{"steps":[{"closeTab":"` + open.Tab + `"}]}`)
	box := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"const r = add.getBoundingClientRect(); [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)].join()"}]}`)
	var x, y int
	fmt.Sscanf(strings.Trim(jsonString(box.Steps[0].Output), `"`), "%d,%d", &x, &y)
	tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
	for i := 1; i <= 2; i++ {
		out := run(tab + fmt.Sprintf(`{"click":{"x":%d,"y":%d}}]}`, x, y))
		if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), fmt.Sprintf("~ status: Added %d", i)) || len(out.Changes.Added) != 1 {
			t.Errorf("click at %d,%d (%d): changes = %s", x, y, i, jsonString(out.Changes))
		}
	}
	run(`{"tab":"` + open.Tab + `","steps":[{"focus":"#q"}]}`)
	out := run(tab + `{"type":"hat"}]}`)
	if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Text, "\n"), "Searching hat") {
		t.Errorf("type into the focused field: changes = %s", jsonString(out.Changes))
	}
	got := run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"[window.adds, q.value].join()"}]}`)
	if s := jsonString(got.Steps[0].Output); s != `"2,hat"` {
		t.Errorf("the page after two clicks and typing: %s", s)
	}
}

// A frame's elements are removed when what holds them is: the iframe
// hidden (its elements stay in its document, but nobody sees them) or
// taken out of the page. An action elsewhere leaves them be.
func TestDiffOfAFrameWhoseIframeGoes(t *testing.T) {
	base := serveCart(t)
	run := pooledFinishing(t)
	for _, hide := range []string{"Hide ad", "Remove ad"} {
		open := run(`{"steps":[{"openTab":"` + base + `shop.html?frame=1"}]}`)
		tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
		add := run(tab + `{"click":"#add"}]}`)
		if add.Changes == nil || len(add.Changes.Removed) > 0 {
			t.Errorf("%s: a click beside the frame: changes = %s", hide, jsonString(add.Changes))
		}
		out := run(tab + `{"click":{"text":"` + hide + `"}}]}`)
		removed := jsonString(out.Changes)
		if out.Changes == nil || !strings.Contains(removed, `link \"Buy more\"`) || !strings.Contains(removed, `iframe`) {
			t.Errorf("%s: the frame's link is not removed: %s", hide, removed)
		}
		run(`{"steps":[{"closeTab":"` + open.Tab + `"}]}`)
	}
}

// A kept tab closed behind the pool's back (a person closing it): the
// check that it is still there is not waited for before the command's
// first lookup goes out, but the answer is still the tab-gone error, for
// a first step that looks its target up and for one that does not, and
// the alias is removed.
func TestPooledCommandOnATabClosedUnderneath(t *testing.T) {
	base := serveCart(t)
	c := browsertest.Require(t)
	run := finishingRunner(t, true)
	for _, step := range []string{`{"click":"#add"}`, `{"sleep":20000}`, `{"pageFunction":"window.adds = 99"}`} {
		open := run(`{"steps":[{"openTab":"` + base + `shop.html"}]}`)
		mustOK(t, open)
		mustOK(t, run(`{"tab":"`+open.Tab+`","capture":"compact","steps":[{"click":"#add"}]}`))
		id, _ := stepOutput(t, open, 0)["targetId"].(string)
		c.CloseTab(t, id)
		out := run(`{"tab":"` + open.Tab + `","capture":"compact","steps":[` + step + `]}`)
		if out.OK() || out.Error == nil || out.Error.Type != TypeConnection || !strings.Contains(out.Error.Message, "gone") || len(out.Steps) > 0 {
			t.Errorf("%s on a closed tab: %s", step, out.JSON())
		}
		again := run(`{"tab":"` + open.Tab + `","steps":[{"sleep":0}]}`)
		if again.OK() {
			t.Errorf("%s: the alias %s still works: %s", step, open.Tab, again.JSON())
		}
	}
}
