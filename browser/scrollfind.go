package browser

import (
	"context"
	"time"
)

// ScrollUntilFound scrolls the page down step by step until the target
// exists (lazy lists, infinite scroll), up to maxScrolls times or the end
// of the page. It reports whether the target was found.
func (p *Page) ScrollUntilFound(ctx context.Context, t Target, maxScrolls int, distance float64) (bool, error) {
	if maxScrolls <= 0 {
		maxScrolls = 15
	}
	for i := 0; i <= maxScrolls; i++ {
		el, _, err := p.locate(ctx, t)
		if err != nil {
			return false, err
		}
		if el != nil {
			p.CallOn(ctx, el, nil, `(el) => el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'})`)
			p.release(el.ObjectID)
			return true, nil
		}
		var atEnd bool
		if err := p.CallInto(ctx, &atEnd, `(d) => {
			const se = document.scrollingElement || document.documentElement;
			const before = se.scrollTop;
			window.scrollBy({top: d > 0 ? d : innerHeight * 0.8, behavior: 'instant'});
			return se.scrollTop === before;
		}`, distance); err != nil {
			return false, err
		}
		// Give lazy content a moment to load after each scroll.
		if err := Sleep(ctx, 150*time.Millisecond); err != nil {
			return false, nil
		}
		if atEnd && i > 0 {
			el, _, err := p.locate(ctx, t)
			if el != nil {
				p.release(el.ObjectID)
			}
			return el != nil, err
		}
	}
	return false, nil
}

// WaitDOMQuiet waits until the DOM has not changed for stable, or timeout.
// It reports whether it got quiet.
func (p *Page) WaitDOMQuiet(ctx context.Context, stable, timeout time.Duration) (bool, error) {
	if stable <= 0 {
		stable = 300 * time.Millisecond
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	var quiet bool
	err := p.CallInto(ctx, &quiet, `(stable, timeout) => new Promise((resolve) => {
		let last = performance.now();
		const obs = new MutationObserver(() => { last = performance.now(); });
		obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
		const start = performance.now();
		const tick = () => {
			const now = performance.now();
			if (now - last >= stable) { obs.disconnect(); resolve(true); return; }
			if (now - start >= timeout) { obs.disconnect(); resolve(false); return; }
			setTimeout(tick, Math.min(50, stable / 2));
		};
		tick();
	})`, stable.Milliseconds(), timeout.Milliseconds())
	if KindOf(err) == KindContextDestroyed {
		return true, nil
	}
	return quiet, err
}
