package browser

import "context"

// PeekNews reads, in one round trip, the text news the top document's
// change log holds so far (Capture.Text and Capture.Transient), leaving the
// log running and the frames' logs alone: a command with several steps
// reads it between them, to say which step made which change.
func (p *Page) PeekNews(ctx context.Context) (text, transient []string, err error) {
	ctx = inFrame(ctx, nil)
	var c Capture
	if err := p.engineCall(ctx, &c, epPostCapture, p.captureArg(CaptureOptions{PeekLog: true})); err != nil {
		return nil, nil, err
	}
	return c.Text, c.Transient, nil
}
