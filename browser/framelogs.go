package browser

import (
	"context"
	"slices"

	"github.com/chromedp/cdproto/runtime"
)

// noteFrameLog records that an action started the change log of the
// current frame, when it is a child frame: the post-command capture runs in
// the top document, whose log does not see into frames, and reads this
// one's text news too (frameLogsText).
func (p *Page) noteFrameLog(ctx context.Context) {
	if !p.Frames().InChild(ctx) {
		return
	}
	sess, frame := p.currentFrame(ctx)
	key := worldKey{sess, frame}
	p.mu.Lock()
	if !slices.Contains(p.frameLogs, key) {
		p.frameLogs = append(p.frameLogs, key)
	}
	p.mu.Unlock()
}

// frameLogsText ends the change logs of the frames actions ran in and adds
// their text news to c. A frame that went away since has nothing to say.
func (p *Page) frameLogsText(ctx context.Context, c *Capture) {
	p.mu.Lock()
	keys := p.frameLogs
	p.frameLogs = nil
	p.mu.Unlock()
	for _, k := range keys {
		world, err := p.worldIn(ctx, k.sess, k.frame)
		if err != nil {
			continue
		}
		var news struct {
			Text      []string `json:"text"`
			Transient []string `json:"transient"`
		}
		expr := "window.__cdpSkill && " + epTakeChangeText.js() + "()"
		raw, err := evaluate(ctx, k.sess, runtime.EvaluateParams{Expression: expr, ContextID: world, ReturnByValue: ptr(true)}, expr)
		if err != nil || jsonUnmarshal(raw, &news) != nil {
			continue
		}
		c.Text = append(c.Text, news.Text...)
		c.Transient = append(c.Transient, news.Transient...)
	}
}
