package runtime

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// inboxPage is a mail app's inbox whose "Mark all read" does what such
// apps do: the unread count goes into document.title, a CSS-in-JS library
// writes a style sheet (into head and into the body), an analytics
// snippet adds a script, and a toast comes and goes while the click
// settles.
const inboxPage = `<!doctype html><html><head><title>Inbox (3)</title></head><body>
<header><nav><a href="/">Mail</a></nav></header>
<main><h1>Inbox</h1><ul><li>Invoice</li><li>Lunch?</li><li>Build failed</li></ul>
<button id="read">Mark all read</button><button id="order">Show order</button><p>Unread: <span id="unread">3</span></p></main>
<div id="toasts" role="status"></div>
<script>
window.marks = 0;
document.querySelector('#read').addEventListener('click', () => {
  window.marks++;
  document.querySelector('#unread').textContent = '0';
  document.title = 'Inbox';
  const head = document.createElement('style');
  head.textContent = '.css-1x2y3z { color: gray; font-weight: 400 }';
  document.head.appendChild(head);
  const inline = document.createElement('style');
  inline.textContent = '.css-9q8w7e { opacity: 0.5 }';
  document.body.appendChild(inline);
  const beacon = document.createElement('script');
  beacon.textContent = 'window.beaconSent = true';
  document.body.appendChild(beacon);
  const toast = document.createElement('div');
  toast.textContent = 'Marking as read…';
  document.querySelector('#toasts').appendChild(toast);
  setTimeout(() => toast.remove(), 50);
});
document.querySelector('#order').addEventListener('click', () => {
  const card = document.createElement('div');
  card.innerHTML = '<style>.card{border:1px solid #ccc}</style><h2>Order #123</h2><p>Shipped today</p><script type="application/ld+json">{"@type":"Order"}<\/script>';
  document.querySelector('main').appendChild(card);
});
</script></body></html>`

// TestChangesLeaveOutWhatAPageNeverShows: the title, style sheets and
// scripts a click writes are no page text: neither changed nor transient
// text names them, while the count that changed and the toast that came
// and went are reported; the handler ran once.
func TestChangesLeaveOutWhatAPageNeverShows(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, inboxPage)
	}))
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`inbox.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	click := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"#read"}]}`)
	mustOK(t, click)
	if click.Changes == nil {
		t.Fatalf("no changes: %s", click.JSON())
	}
	all := jsonString(click.Changes)
	for _, never := range []string{"Inbox", "css-", "beaconSent"} {
		if strings.Contains(all, never) {
			t.Errorf("the changes name %q, which the page never shows: %s", never, all)
		}
	}
	if len(click.Changes.Transient) != 1 || click.Changes.Transient[0] != "Marking as read…" {
		t.Errorf("transient = %q, want the toast", click.Changes.Transient)
	}
	if !strings.Contains(newsLines(click.Changes), "+ text: 0") {
		t.Errorf("the unread count's change is not reported: %s", all)
	}
	if click.Context == nil || click.Context.Title != "Inbox" {
		t.Errorf("context.title after the click: %s", click.JSON())
	}
	// A library renders a card with its style sheet and structured data
	// inside: the card's text is news, their text is not.
	card := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"#order"}]}`)
	mustOK(t, card)
	news := jsonString(card.Changes)
	if card.Changes == nil || !strings.Contains(news, "Order #123") || strings.Contains(news, ".card") || strings.Contains(news, "@type") {
		t.Errorf("a rendered card's changes: %s", news)
	}
	read := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"[window.marks, window.beaconSent === true]"}]}`)
	if got := jsonString(read.Steps[0].Output); got != "[1,true]" {
		t.Errorf("the page reads %s, want the handler run once", got)
	}
}
