package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// stepNews is what one step of a command with several visual steps
// changed, read as the next one started (or as the command ended): the
// texts it showed, and the document it navigated to.
type stepNews struct {
	// step is the step's index in steps[] (from 0).
	step      int
	action    string
	text      []string
	transient []string
	// navigated is the URL of the new document the step loaded.
	navigated string
}

// line is the step's summary line, numbered from 1 as errors[].step
// and step messages are: `step 2 (click): Alert: "…".`
func (n stepNews) line() string {
	var parts []string
	if n.navigated != "" {
		parts = append(parts, "Navigated to "+n.navigated+".")
	}
	if len(n.text) > 0 {
		parts = append(parts, textNews(n.text[0]))
	}
	if len(n.transient) > 0 {
		parts = append(parts, fmt.Sprintf("Transient: %q.", n.transient[0]))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("step %d (%s): %s", n.step+1, n.action, strings.Join(parts, " "))
}

// visualMark is the last visual step that ran: news read before the next
// one are its.
type visualMark struct {
	step   int
	action string
}

// newsFor returns the news entry of step (adding it, in step order).
func (h *host) newsFor(step int, action string) *stepNews {
	for i := range h.news {
		if h.news[i].step == step {
			return &h.news[i]
		}
	}
	h.news = append(h.news, stepNews{step: step, action: action})
	return &h.news[len(h.news)-1]
}

// credit adds to the news of the last visual step the text lines not
// credited to an earlier step of the same document.
func (h *host) credit(text, transient []string) {
	if h.lastVisual == nil {
		return
	}
	var newText, newTransient []string
	for _, l := range text {
		if !h.newsSeen[l] {
			newText = append(newText, l)
		}
	}
	for _, l := range transient {
		// A text an earlier step showed that a later one replaced is
		// that step's news, not a transient of the later one.
		if !h.newsSeen["\x00"+l] && !h.newsSeen["\x01"+l] {
			newTransient = append(newTransient, l)
		}
	}
	if len(newText) == 0 && len(newTransient) == 0 {
		return
	}
	if h.newsSeen == nil {
		h.newsSeen = map[string]bool{}
	}
	for _, l := range newText {
		h.newsSeen[l] = true
		if _, shown, ok := strings.Cut(l, ": "); ok {
			shown, _, _ = strings.Cut(shown, " (was: ")
			h.newsSeen["\x01"+shown] = true
		}
	}
	for _, l := range newTransient {
		h.newsSeen["\x00"+l] = true
	}
	n := h.newsFor(h.lastVisual.step, h.lastVisual.action)
	n.text = append(n.text, newText...)
	n.transient = append(n.transient, newTransient...)
}

// betweenVisual runs before a visual step that follows another: when the
// page is still on the baseline's document, the news so far are read and
// credited to the step before; when a step loaded another document (or
// the command moved to another tab), the diff starts over from a new
// baseline there, so what the later steps do is reported too.
func (h *host) betweenVisual(ctx context.Context) {
	if h.lastVisual == nil || !h.captureSet.Diff {
		return
	}
	p, err := h.env.Page()
	if err != nil {
		return
	}
	if p != h.basePage || p.Documents() != h.baseDocs || h.beforeTab != h.env.Tab().TargetID {
		h.newsSeen = nil
		h.setBefore(h.readBefore(ctx, false))
		return
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if text, transient, err := p.PeekNews(rctx); err == nil {
		h.credit(text, transient)
	}
}

// noteStepNavigated records, after a step, that it loaded a new top
// document (u is the page as the step started), with the URL it went to.
func (h *host) noteStepNavigated(a *lang.Action, u pageUnder, out any) {
	if u.page == nil || a.OpensTab || u.page.TabClosed() || u.page.Documents() == u.documents {
		return
	}
	url := ""
	if a.Name == "goto" {
		var nav struct {
			URL string `json:"url"`
		}
		if data, err := json.Marshal(out); err == nil && json.Unmarshal(data, &nav) == nil {
			url = nav.URL
		}
	}
	if url == "" {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), time.Second)
		url, _ = u.page.URL(ctx)
		cancel()
	}
	if url == "" {
		url = "a new document"
	}
	h.newsFor(len(h.steps)-1, a.Name).navigated = url
	h.stepNavigated = true
}

// multiStepChanges builds the changes of a command whose visual steps
// were several: a line per step that showed something or navigated,
// naming it, then what the elements of the last document did (ch, the
// diff against its baseline, or nil).
func (h *host) multiStepChanges(ch *Changes, text, transient []string) *Changes {
	h.credit(text, transient)
	var lines, allText, allTransient []string
	for _, n := range h.news {
		if l := n.line(); l != "" {
			lines = append(lines, l)
		}
		allText = append(allText, n.text...)
		allTransient = append(allTransient, n.transient...)
	}
	if len(lines) == 0 && ch == nil {
		return nil
	}
	if ch == nil {
		ch = &Changes{}
	}
	if ch.Summary != "" {
		lines = append(lines, ch.Summary)
	}
	ch.Summary = strings.Join(lines, " ")
	ch.Text, ch.Transient = allText, allTransient
	return ch
}

// commandChanges is the changes of a command with several visual steps:
// the elements' diff of the last document, when the page is still on the
// baseline's (samePage), and each step's news.
func (h *host) commandChanges(c *browser.Capture, samePage bool) *Changes {
	var ch *Changes
	var text, transient []string
	if samePage && c.Viewport != nil && h.before != nil {
		ch = diffElements(h.before, c.Viewport.Elements, "", refSet(c.Fresh, c.Fresh == nil), refSet(c.Present, false))
		text, transient = c.Text, c.Transient
		ch = withFrames(ch, h.framesNavigated, "")
	}
	return h.multiStepChanges(ch, text, transient)
}
