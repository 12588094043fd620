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
