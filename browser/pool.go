package browser

import (
	"context"
	"sync"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// Pool keeps connections to Chrome and attached tab sessions for the life
// of a process that runs many programs (the MCP server), so that a program
// pays neither the connect nor the attach. A tab Chrome detaches (closed,
// crashed) leaves the pool, and a connection that ends is replaced on next
// use. It is safe for concurrent use; callers serialize programs on the same
// tab (the tab lock).
type Pool struct {
	mu    sync.Mutex
	conns map[string]*poolConn
	// connected says a connection was made at some time.
	connected bool
}

// poolConn is one kept connection and the pages attached through it.
type poolConn struct {
	b     *Browser
	dead  chan struct{}
	pages map[target.ID]*Page
	// handed says Launched was already reported once.
	handed bool
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{conns: map[string]*poolConn{}} }

// Browser returns the kept connection to the Chrome at ep, connecting (and,
// for a local endpoint, launching Chrome) when there is none or it ended.
// Launched is reported on the first hand-out only. opts apply when it
// connects; AutoLaunch is set for a local endpoint.
func (pl *Pool) Browser(ctx context.Context, ep chrome.Endpoint, opts ConnectOptions) (*Browser, error) {
	ep = ep.Normalize()
	opts.AutoLaunch = ep.Local()
	return pl.connect(ctx, ep, opts)
}

// Warm connects to the Chrome at ep ahead of the first program, never
// launching one: it fails when no Chrome answers there.
func (pl *Pool) Warm(ctx context.Context, ep chrome.Endpoint) error {
	_, err := pl.connect(ctx, ep.Normalize(), ConnectOptions{})
	return err
}

// connect returns the kept connection to ep or makes one with opts.
func (pl *Pool) connect(ctx context.Context, ep chrome.Endpoint, opts ConnectOptions) (*Browser, error) {
	key := ep.String()
	if ep.Remote() {
		key = ep.URL // two tokens of one pool are two sessions
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if c, ok := pl.conns[key]; ok {
		select {
		case <-c.dead:
			delete(pl.conns, key)
		default:
			if c.handed {
				c.b.Launched = false
			}
			c.handed = true
			return c.b, nil
		}
	}
	b, err := Connect(ctx, ep, opts)
	if err != nil {
		return nil, err
	}
	c := &poolConn{b: b, dead: make(chan struct{}), pages: map[target.ID]*Page{}, handed: true}
	events, _ := b.Session().Subscribe("Target.detachedFromTarget")
	go pl.watch(c, events)
	pl.conns[key] = c
	pl.connected = true
	return b, nil
}

// watch drops pages whose session Chrome detached, and marks the
// connection dead when it ends (the event stream closes with it).
func (pl *Pool) watch(c *poolConn, events <-chan jsonv2.Value) {
	for raw := range events {
		var ev target.EventDetachedFromTarget
		if decode(raw, &ev) != nil {
			continue
		}
		pl.mu.Lock()
		for id, p := range c.pages {
			if p.sess.ID() == ev.SessionID {
				delete(c.pages, id)
				p.Close()
			}
		}
		pl.mu.Unlock()
	}
	pl.mu.Lock()
	c.pages = map[target.ID]*Page{}
	pl.mu.Unlock()
	close(c.dead)
}

// Attach returns the kept page of target id on b, resumed for a new
// program (see Page.Resume), or attaches and keeps a new one. ahead, when
// not nil, is called with a kept page right after the check that its tab
// is still there goes out: what it sends goes with the check, in the same
// round trip.
func (pl *Pool) Attach(ctx context.Context, b *Browser, id target.ID, ahead func(*Page)) (*Page, error) {
	pl.mu.Lock()
	c := pl.connOf(b)
	var kept *Page
	if c != nil {
		kept = c.pages[id]
	}
	pl.mu.Unlock()
	if kept != nil {
		// The detach event of a tab closed a moment ago may still be on
		// its way: ask Chrome (one cheap round trip) before reusing. The
		// program's first read of the URL goes out with it (with what
		// ahead sends, when that carries it).
		check, err := b.Session().Send(ctx, target.CommandGetTargetInfo, target.GetTargetInfoParams{TargetID: id})
		if err == nil && ahead != nil {
			ahead(kept)
		}
		kept.readAheadURL(ctx)
		if err == nil {
			err = check(ctx, nil)
		}
		if err == nil {
			kept.Resume()
			return kept, nil
		}
		pl.drop(c, id, kept)
	}
	p, err := b.Attach(ctx, id)
	if err != nil || c == nil {
		return p, err
	}
	pl.mu.Lock()
	select {
	case <-c.dead:
	default:
		c.pages[id] = p
	}
	pl.mu.Unlock()
	return p, nil
}

// drop forgets page p of target id.
func (pl *Pool) drop(c *poolConn, id target.ID, p *Page) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if c.pages[id] == p {
		delete(c.pages, id)
	}
	p.Close()
}

// connOf finds the pool entry of b; pl.mu is held.
func (pl *Pool) connOf(b *Browser) *poolConn {
	for _, c := range pl.conns {
		if c.b == b {
			return c
		}
	}
	return nil
}

// Close closes every kept connection. Chrome and its tabs keep running.
func (pl *Pool) Close() {
	pl.mu.Lock()
	conns := pl.conns
	pl.conns = map[string]*poolConn{}
	pl.mu.Unlock()
	for _, c := range conns {
		c.b.Close()
	}
}

// Kept reports whether p is still one of the pool's pages.
func (pl *Pool) Kept(p *Page) bool {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for _, c := range pl.conns {
		if c.pages[p.TargetID] == p {
			return true
		}
	}
	return false
}

// Gone reports whether the pool once held a connection and every one it
// held has ended (Chrome went away): a resident process then has nothing
// warm left to offer.
func (pl *Pool) Gone() bool {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if !pl.connected {
		return false
	}
	for _, c := range pl.conns {
		select {
		case <-c.dead:
		default:
			return false
		}
	}
	return true
}
