package runtime

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// pageUnder is the page a step started on, and how many documents its
// top frame had had then.
type pageUnder struct {
	page      *browser.Page
	documents int
}

// lookupKinds are the failures of a step that looked for something in the
// page: when the page loaded another document meanwhile (a redirect, a
// session that expired, a script's reload), what the step looked for may
// have been on the page it left.
var lookupKinds = map[browser.Kind]bool{
	browser.KindElementNotFound: true, browser.KindTimeout: true, browser.KindStaleElement: true,
}

// navigations are the actions whose own work is to load a document.
var navigations = map[string]bool{"goto": true, "reload": true, "back": true, "forward": true}

// explain adds to a failed lookup that the page loaded another document
// while the step ran, and which, so the agent does not look again for
// an element of a page that is gone.
func (u pageUnder) explain(ctx context.Context, a *lang.Action, err error) error {
	if u.page == nil || navigations[a.Name] || a.OpensTab || !lookupKinds[browser.KindOf(err)] || u.page.TabClosed() || u.page.Documents() == u.documents {
		return err
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	now := "another document"
	if url, uerr := u.page.URL(rctx); uerr == nil && url != "" {
		now = url
	}
	msg := err.Error()
	var details map[string]any
	if be := (*browser.Error)(nil); errors.As(err, &be) && be.Message != "" {
		msg, details = be.Message, be.Details
	}
	return &browser.Error{Kind: browser.KindOf(err), Err: err, Details: details,
		Message: fmt.Sprintf("%s; meanwhile the page loaded a new document (a navigation or a reload), now %s", msg, now),
		Hint:    "take a snapshot to see the page it is on now; if the step's target was on the page it left, wait for the page the step expects before acting"}
}
