package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// checkoutSite is a shop's checkout: a header, an order summary, a card
// form in a frame from the payment provider's site (127.0.0.2) that the
// page's Pay button validates by a message, as hosted card fields work,
// and a help chat frame of the same site whose clock ticks every 5 ms
// and whose Send button says it sent, in a status line, and has the page
// show a toast; the order's quantity goes up by one with each click.
func checkoutSite(t *testing.T) string {
	provider := browsertest.ServeOn(t, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Card</title><form><label>Card number <input id="number"></label>
<div id="error" role="alert"></div><p id="saved"></p></form>
<script>addEventListener('message', (e) => {
  if (e.data !== 'validate') return;
  document.getElementById('error').textContent = 'Your card number is incomplete.';
  document.getElementById('saved').innerHTML = '<button type="button">Use saved card</button>';
});</script>`)
	}))
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/chat.html":
			fmt.Fprint(w, `<!doctype html><title>Chat</title><p>Agents online <span id="clock"></span></p>
<p id="sent" role="status"></p><button id="send" onclick="document.getElementById('sent').textContent = 'Message sent'; parent.postMessage('sent', '*')">Send</button>
<script>setInterval(() => document.getElementById('clock').textContent = new Date().toISOString().slice(11, 23), 5)</script>`)
		default:
			fmt.Fprint(w, `<!doctype html><title>Checkout</title><header><nav><a href="/">Shop</a> <a href="/cart">Cart</a></nav></header>
<aside><h2>Order</h2><p>Lamp, 1 × 40 €</p><p><span id="qty">Qty 1</span> <button id="inc" onclick="document.getElementById('qty').textContent = 'Qty ' + (++window.qty)">One more</button></p></aside>
<div id="toasts"></div>
<script>window.qty = 1; addEventListener('message', (e) => { if (e.data === 'sent') document.getElementById('toasts').innerHTML = '<div class="toast">Message sent to support</div>'; });</script>
<main><h1>Payment</h1>
<iframe id="card" title="Card payment" src="`+provider+`card.html" style="width:420px;height:140px"></iframe>
<button id="pay" onclick="window.pays = (window.pays || 0) + 1; document.getElementById('card').contentWindow.postMessage('validate', '*')">Pay 40 €</button>
<iframe id="chat" title="Help chat" src="chat.html" style="width:420px;height:120px"></iframe>
</main>`)
		}
	}))
}

// TestChangesInFramesNoActionRanIn: a click in the page that makes a
// frame show an error and a new button (a hosted card form validated by
// the page's Pay button) reports both in the changes, as it does for the
// page's own elements; a frame's clock ticking meanwhile is no news; a
// quantity clicked up three times in one command says its last value; a
// click inside a frame reports its status line once, and the toast it
// made the page show. Run directly and as the resident process runs
// commands; each handler ran once.
func TestChangesInFramesNoActionRanIn(t *testing.T) {
	base := checkoutSite(t)
	for _, pooled := range []bool{false, true} {
		run := finishingRunner(t, pooled)
		open := run(`{"steps":[{"openTab":"` + base + `checkout.html"},{"wait":{"text":"Card number"}},{"wait":{"text":"Agents online"}}]}`)
		mustOK(t, open)
		closeTabAfter(t, open)
		tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
		out := run(tab + `{"click":"#pay"}]}`)
		mustOK(t, out)
		diff := jsonString(out.Changes)
		if out.Changes == nil || !strings.Contains(newsLines(out.Changes), "+ alert: Your card number is incomplete.") {
			t.Errorf("pooled %t: the card frame's error is not in the changes: %s", pooled, diff)
		}
		if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Added, "\n"), `button "Use saved card"`) {
			t.Errorf("pooled %t: the card frame's new button is not added: %s", pooled, diff)
		}
		if out.Changes != nil && (strings.Contains(out.Changes.Summary, "Transient") || strings.Count(newsLines(out.Changes), "\n") != 0) {
			t.Errorf("pooled %t: the chat frame's clock is in the changes: %s", pooled, diff)
		}
		if got := jsonString(run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"window.pays"}]}`).Steps[0].Output); got != "1" {
			t.Errorf("pooled %t: the Pay handler ran %s times", pooled, got)
		}
		out = run(tab + `{"click":"#inc"},{"click":"#inc"},{"click":"#inc"}]}`)
		mustOK(t, out)
		if out.Changes == nil || !strings.Contains(newsLines(out.Changes), "+ text: Qty 4") {
			t.Errorf("pooled %t: a quantity clicked up three times: %s", pooled, jsonString(out.Changes))
		}
		if got := jsonString(run(`{"tab":"` + open.Tab + `","steps":[{"pageFunction":"window.qty"}]}`).Steps[0].Output); got != "4" {
			t.Errorf("pooled %t: the quantity is %s after three clicks", pooled, got)
		}
		// A click inside the chat frame: its status line, once.
		out = run(tab + `{"frame":"#chat"},{"click":"#send"},{"frame":"top"},{"wait":{"text":"Message sent to support"}}]}`)
		mustOK(t, out)
		if out.Changes == nil {
			t.Fatalf("pooled %t: a click in a frame reports no changes: %s", pooled, out.JSON())
		}
		if got := strings.Count(newsLines(out.Changes)+"\n", "+ status: Message sent\n"); got != 1 {
			t.Errorf("pooled %t: a click in a frame reports its status %d times: %s", pooled, got, jsonString(out.Changes))
		}
		if !strings.Contains(newsLines(out.Changes), "Message sent to support") {
			t.Errorf("pooled %t: the toast a click in a frame made the page show: %s", pooled, jsonString(out.Changes))
		}
		if strings.Contains(jsonString(out.Changes), "incomplete") {
			t.Errorf("pooled %t: the card frame's error is reported again: %s", pooled, jsonString(out.Changes))
		}
	}
}

// TestNoNewsFromAPageNoActionRanIn: on a news page whose sale countdown
// (a live region) and promo banner tick every 5 ms, a scroll reaches no
// element of the page, so its changes carry none of that text; the
// stories it brings into view are listed as added.
func TestNoNewsFromAPageNoActionRanIn(t *testing.T) {
	var stories strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&stories, `<article><h2><a href="/story/%d">Story %d</a></h2><p>Summary of story %d.</p></article>`, i, i, i)
	}
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>News</title><header><h1>Daily</h1><p aria-live="polite" id="sale"></p><div class="promo-banner" id="promo"></div></header>
<main>`+stories.String()+`</main>
<script>setInterval(() => { document.getElementById('sale').textContent = 'Sale ends in ' + (Date.now() % 100000) + ' ms';
document.getElementById('promo').textContent = 'Deal ' + (Date.now() % 97); }, 5)</script>`)
	}))
	for _, pooled := range []bool{false, true} {
		run := finishingRunner(t, pooled)
		open := run(`{"steps":[{"openTab":"` + base + `news.html"}]}`)
		mustOK(t, open)
		closeTabAfter(t, open)
		tab := `{"tab":"` + open.Tab + `","capture":"compact","steps":[`
		out := run(tab + `{"scroll":{"deltaY":600}},{"sleep":50}]}`)
		mustOK(t, out)
		diff := jsonString(out.Changes)
		if strings.Contains(diff, "Sale ends") || strings.Contains(diff, "Deal ") {
			t.Errorf("pooled %t: a scroll reports the page's ticking text: %s", pooled, diff)
		}
		if out.Changes == nil || !strings.Contains(strings.Join(out.Changes.Added, "\n"), "Story") {
			t.Errorf("pooled %t: the stories a scroll brought into view are not added: %s", pooled, diff)
		}
	}
}
