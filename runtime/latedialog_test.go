package runtime

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// lateSite serves the late-dialog fixtures (testdata/pages/late) with the
// consent manager's configuration answering after 300 ms, as a real CMP's
// server does.
func lateSite(t *testing.T) string {
	files := http.FileServer(http.FS(os.DirFS("testdata/pages")))
	return browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/cmp-config.json") {
			if r.URL.RawQuery == "slow-body" {
				slowBody(w, r)
				return
			}
			time.Sleep(300 * time.Millisecond) // the server's latency
		}
		files.ServeHTTP(w, r)
	})) + "late/"
}

// slowBody answers the consent configuration with its headers at once and
// its body 400 ms later, as a loaded server or a slow link does: the
// page's fetch settles at the headers, and the dialog waits for the body.
// No latency before the headers: with the 300 ms of the other cases the
// fetch, the body and the dialog's 250 ms slide-in came to 950 ms, next
// to the start-up settle's 1 s bound (WATCH_BOOT_MAX), and a CI run at
// load 37 missed the dialog (my reading: on the bound, which this case
// does not test; it passed 5 of 5 at load 17).
func slowBody(w http.ResponseWriter, r *http.Request) {
	body, err := os.ReadFile("testdata/pages/late/cmp-config.json")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	select {
	case <-time.After(400 * time.Millisecond):
	case <-r.Context().Done():
		return
	}
	w.Write(body)
}

// TestLateDialogsAreInTheFirstAnswer (issue 30 item 8): a consent dialog a
// script builds after fetching its configuration, and a newsletter modal a
// load handler opens 600 ms later, are in the answer of the command that
// navigated (goto, openTab, reload), shown once, and usable by their refs.
func TestLateDialogsAreInTheFirstAnswer(t *testing.T) {
	base := lateSite(t)
	cases := []struct {
		page, dialog, button, shown, closed string
	}{
		{"consent.html", `dialog "We value your privacy"`, `button "Accept all"`, "window.cmpShown", "window.cmpChoice"},
		// The configuration's body comes 400 ms after its headers: the
		// start-up settle counts the page reading it (CI run of 7256c84
		// missed the dialog on a loaded machine, where reading the body
		// outlasted the 100 ms idle window after the headers).
		{"consent-slow-body.html", `dialog "We value your privacy"`, `button "Accept all"`, "window.cmpShown", "window.cmpChoice"},
		{"newsletter.html", `dialog "Get 10% off your first order"`, `button "No thanks"`, "window.newsShown", "document.getElementById('news').returnValue"},
	}
	for _, c := range cases {
		t.Run(c.page, func(t *testing.T) {
			open := runJSON(t, `{"steps":[{"openTab":"`+base+c.page+`"}]}`)
			closeTabAfter(t, open)
			mustOK(t, open)
			wantDialog(t, "openTab", open, c.dialog, c.button)
			tab := open.Tab
			for _, step := range []string{`{"goto":"` + base + `plain.html"},{"goto":"` + base + c.page + `"}`, `{"reload":true}`} {
				out := runJSON(t, `{"tab":"`+tab+`","steps":[`+step+`]}`)
				mustOK(t, out)
				wantDialog(t, step, out, c.dialog, c.button)
			}
			last := runJSON(t, `{"tab":"`+tab+`","steps":[{"reload":true}]}`)
			mustOK(t, last)
			ref := refOf(t, last.ViewportSnap, c.button)
			check := runJSON(t, `{"tab":"`+tab+`","steps":[{"click":"`+ref+`"},{"pageFunction":"[`+c.shown+`, `+c.closed+`]"}]}`)
			mustOK(t, check)
			want := map[string]string{"consent.html": `[1,"Accept all"]`, "consent-slow-body.html": `[1,"Accept all"]`, "newsletter.html": `[1,"close"]`}[c.page]
			if got := jsonString(check.Steps[1].Output); got != want {
				t.Errorf("[shown, choice] = %s after clicking %s, want %s", got, ref, want)
			}
		})
	}
}

// refOf is the ref the snapshot gives the element line.
func refOf(t *testing.T, snap, line string) string {
	t.Helper()
	i := strings.Index(snap, line+" [ref=")
	if i < 0 {
		t.Fatalf("no ref for %s in:\n%s", line, snap)
	}
	ref, _, _ := strings.Cut(snap[i+len(line)+6:], "]")
	return ref
}

// wantDialog fails unless the answer's snapshot shows the dialog and its
// button with a ref.
func wantDialog(t *testing.T, what string, out *Output, dialog, button string) {
	t.Helper()
	snap := out.ViewportSnap
	if !strings.Contains(snap, dialog) {
		t.Errorf("%s: the answer lacks %s:\n%s", what, dialog, snap)
		return
	}
	i := strings.Index(snap, button)
	if i < 0 || !strings.Contains(snap[i:min(len(snap), i+len(button)+12)], "[ref=") {
		t.Errorf("%s: the answer lacks %s with a ref:\n%s", what, button, snap)
	}
}
