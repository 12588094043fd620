package cdpconn

import "github.com/chromedp/cdproto/target"

// What a connection has done, for the tests of the packages above it
// (browser's tests count a step's round trips and the subscriptions a
// closed page leaves). No command reads these; the Makefile's deadcode
// check knows this file is test support.

// Sent is the number of commands sent on c so far.
func (c *Conn) Sent() int64 { return c.next.Load() }

// Subscribed counts the event subscriptions c holds for each method on
// the sessions keep accepts.
func (c *Conn) Subscribed(keep func(target.SessionID) bool) map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, list := range c.subs {
		if keep(k.session) && len(list) > 0 {
			out[k.method] += len(list)
		}
	}
	return out
}
