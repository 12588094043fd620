package browser

import "context"

// linger has the armed watch count what the page schedules from now until
// two rendering frames into the settle as the action's (watch.js
// watchLinger): a scroll's consequences (a feed's sentinel asking for the
// next page) run there, after the scroll itself returned, and the settle
// then waits for them.
// Best effort: a page where it fails settles as before.
func (w *actionWatch) linger(ctx context.Context) {
	if w.armed {
		w.p.watchCall(ctx, nil, wpWatchLinger)
	}
}

// quietWatch is the watch of an action whose own effect is not news (a
// scroll): no change log, so what the page's timers change meanwhile is not
// reported as the action's; it lingers so that what the action schedules
// (a feed's sentinel asking for the next page) is settled.
func (p *Page) quietWatch(ctx context.Context) (*actionWatch, error) {
	p.runBeforeChange(ctx)
	w, err := p.watchWith(ctx, false)
	if err != nil {
		return nil, err
	}
	w.linger(ctx)
	return w, nil
}
