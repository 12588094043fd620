package runtime

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// openTargets lists the ids of the test Chrome's page targets.
func openTargets(t *testing.T) map[string]string {
	t.Helper()
	c := browsertest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := chrome.List(ctx, c.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, tg := range list {
		if tg.Type == "page" {
			ids[tg.ID] = tg.URL
		}
	}
	return ids
}

// TestCloseTabOfAPageThatNavigatesInALoop (issue 31, item 10): a page that
// navigates to itself again as soon as it loads is opened (openTab answers
// where it got to) and closed; closeTab says closed only when the tab is
// gone, and it is. A page that asks before it is left closes too.
func TestCloseTabOfAPageThatNavigatesInALoop(t *testing.T) {
	for _, page := range []string{"loop.html", "beforeunload.html"} {
		t.Run(page, func(t *testing.T) { closeTabOf(t, page) })
	}
}

func closeTabOf(t *testing.T, page string) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+page+`"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	id, _ := stepOutput(t, out, 0)["targetId"].(string)
	if _, open := openTargets(t)[id]; id == "" || !open {
		t.Fatalf("the tab openTab answered is not open: %s", out.JSON())
	}
	closed := runJSON(t, `{"steps":[{"closeTab":"`+out.Tab+`"}]}`)
	mustOK(t, closed)
	if u, open := openTargets(t)[id]; open {
		t.Fatalf("closeTab answered %s but the tab is still open at %s", closed.JSON(), u)
	}
}

// TestAnswerOfAPageThatNavigatesInALoop: the answer for a page whose
// documents go away as they are read still says where the tab is (its
// URL and title) and why it carries no snapshot, or carries the
// snapshot of a document it caught.
func TestAnswerOfAPageThatNavigatesInALoop(t *testing.T) {
	out := runJSON(t, `{"steps":[{"openTab":"`+pagesURL(t)+`loop.html"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if out.Context == nil || !strings.Contains(out.Context.URL, "loop.html") {
		t.Fatalf("no context: %s", out.JSON())
	}
	said := false
	for _, w := range out.Warnings {
		said = said || strings.Contains(w, "the context is the browser's record of the tab") && strings.Contains(w, `{"closeTab":"`+out.Tab+`"}`)
	}
	if !said && out.ViewportSnap == "" {
		t.Fatalf("neither a snapshot nor why there is none: %s", out.JSON())
	}
	t.Logf("warned: %v", said)
}
