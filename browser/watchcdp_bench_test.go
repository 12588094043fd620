package browser

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/eventbreakpoints"
	"github.com/chromedp/cdproto/input"
)

// The benchmarks below measure what the CDP alternatives to the in-page
// action watch (watch.js) would cost: seeing timers through the
// Debugger's instrumentation breakpoints, enabling the Debugger on a
// script-heavy page, and seeing requests through the Network domain's
// events (issue 31). Run them with
//
//	go test -c -o /tmp/bin ./browser && cd browser &&
//	/tmp/bin -test.run '^$' -test.bench 'WatchTimers|DebuggerEnable|RequestSeen|RequestAttribution' -test.benchtime 10x

// burstPage sets 1,000 short timers when its burst() runs.
const burstPage = `<!doctype html><title>Burst</title><p id="out">0</p><script>
window.fired = 0;
function burst() { for (let i = 0; i < 1000; i++) setTimeout(() => { window.fired++; }, 0); return 1000; }
</script>`

// BenchmarkWatchTimers: one op sets 1,000 timers in the page (a Runtime
// call): bare, with the in-page watch armed and counting them (the
// wrappers; inpage-no-timers is its round trips alone), and with the Debugger's "setTimeout" instrumentation
// breakpoint, each pause resumed by the client as a watch through CDP
// would have to (pauses/op says how many round trips that is).
func BenchmarkWatchTimers(b *testing.B) {
	p := loadHTML(b, burstPage)
	ctx, cancel := context.WithTimeout(testStep(b), 10*time.Minute) // a pause per timer is slow
	defer cancel()
	burst := func(b *testing.B) {
		if raw, err := p.Eval(ctx, "burst()"); err != nil || string(raw) != "1000" {
			b.Fatalf("burst: %s %v", raw, err)
		}
	}
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			burst(b)
		}
	})
	b.Run("inpage", func(b *testing.B) {
		for b.Loop() {
			if err := p.watchCall(ctx, nil, wpWatchArm); err != nil {
				b.Fatal(err)
			}
			p.watchCall(ctx, nil, wpWatchLinger) // count what the page schedules now
			burst(b)
			p.watchCall(ctx, nil, wpWatchDisarm)
		}
	})
	b.Run("inpage-no-timers", func(b *testing.B) { // the round trips of inpage without the burst
		for b.Loop() {
			if err := p.watchCall(ctx, nil, wpWatchArm); err != nil {
				b.Fatal(err)
			}
			p.watchCall(ctx, nil, wpWatchLinger)
			if _, err := p.Eval(ctx, "1000"); err != nil {
				b.Fatal(err)
			}
			p.watchCall(ctx, nil, wpWatchDisarm)
		}
	})
	b.Run("breakpoint", func(b *testing.B) {
		paused, stop := p.sess.Subscribe("Debugger.paused")
		defer stop()
		var pauses atomic.Int64
		done := make(chan struct{})
		defer close(done)
		go func() {
			for {
				select {
				case <-paused:
					pauses.Add(1)
					cdp.Call(ctx, p.sess, debugger.Resume, debugger.ResumeParams{})
				case <-done:
					return
				}
			}
		}()
		if _, err := cdp.Call(ctx, p.sess, debugger.Enable, debugger.EnableParams{}); err != nil {
			b.Fatal(err)
		}
		defer cdp.Call(ctx, p.sess, debugger.Disable, cdp.Empty{})
		if _, err := cdp.Call(ctx, p.sess, eventbreakpoints.SetInstrumentationBreakpoint, eventbreakpoints.SetInstrumentationBreakpointParams{EventName: "setTimeout"}); err != nil {
			b.Fatal(err)
		}
		defer cdp.Call(ctx, p.sess, eventbreakpoints.RemoveInstrumentationBreakpoint, eventbreakpoints.RemoveInstrumentationBreakpointParams{EventName: "setTimeout"})
		n := 0
		for b.Loop() {
			burst(b)
			n++
		}
		b.ReportMetric(float64(pauses.Load())/float64(n), "pauses/op")
	})
}

// scriptHeavyPage has 300 inline scripts and one of about 2 MB (4,000
// functions of 500 bytes), a size real sites' bundles reach.
func scriptHeavyPage() string {
	var sb strings.Builder
	sb.WriteString("<!doctype html><title>Scripts</title><p>scripts</p>")
	for i := range 300 {
		fmt.Fprintf(&sb, "<script>window.s%d = function () { return %d; };</script>\n", i, i)
	}
	sb.WriteString("<script>")
	for i := range 4000 {
		fmt.Fprintf(&sb, "function big%d(a, b) { const x = [%s]; return x.length + a + b; }\n", i, strings.Repeat("1,", 220))
	}
	sb.WriteString("</script>")
	return sb.String()
}

// BenchmarkDebuggerEnable: one op enables and disables the Debugger on a
// script-heavy page (what a watch through instrumentation breakpoints
// pays per step, or once per document if it stays on); scripts/op is the
// scriptParsed events it sends.
func BenchmarkDebuggerEnable(b *testing.B) {
	p := loadHTML(b, scriptHeavyPage())
	ctx := testCtx(b)
	parsed, stop := p.sess.Subscribe("Debugger.scriptParsed")
	defer stop()
	var scripts atomic.Int64
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-parsed:
				scripts.Add(1)
			case <-done:
				return
			}
		}
	}()
	n := 0
	for b.Loop() {
		if _, err := cdp.Call(ctx, p.sess, debugger.Enable, debugger.EnableParams{}); err != nil {
			b.Fatal(err)
		}
		if _, err := cdp.Call(ctx, p.sess, debugger.Disable, cdp.Empty{}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(scripts.Load())/float64(n), "scripts/op")
}

// fetchButtonPage's button starts a fetch in its click handler.
const fetchButtonPage = `<!doctype html><title>Fetch</title>
<button id="go" style="position:absolute;left:10px;top:10px;width:100px;height:40px" onclick="window.clicks = (window.clicks || 0) + 1; fetch('page.html?n=' + window.clicks)">Go</button>`

// BenchmarkRequestSeen: one op clicks a button (raw input) whose handler
// starts a fetch, and waits for the Network domain's requestWillBeSent of
// it. late-ms is how long after the click's input call returned the event
// came: the time a watch through Network events would have to wait to
// know whether the action started a request (the in-page watch knows when
// the input call returns).
func BenchmarkRequestSeen(b *testing.B) {
	p := loadHTML(b, fetchButtonPage)
	ctx := testCtx(b)
	sent, stop := p.sess.Subscribe("Network.requestWillBeSent")
	defer stop()
	mouse := func(typ input.DispatchMouseEventType) {
		if _, err := cdp.Call(ctx, p.sess, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: 50, Y: 30, Button: input.MouseButtonLeft, ClickCount: 1}); err != nil {
			b.Fatal(err)
		}
	}
	var late time.Duration
	n := 0
	for b.Loop() {
		mouse(input.DispatchMouseEventTypeMousePressed)
		mouse(input.DispatchMouseEventTypeMouseReleased)
		returned := time.Now()
		for {
			raw := <-sent
			if strings.Contains(string(raw), "page.html?n=") {
				break
			}
		}
		late += time.Since(returned)
		n++
	}
	b.ReportMetric(float64(late.Microseconds())/1000/float64(n), "late-ms")
	if raw, err := p.Eval(ctx, "window.clicks"); err != nil || string(raw) != fmt.Sprint(n) {
		b.Errorf("clicks = %s (%v), want %d", raw, err, n)
	}
}

// pollingPage polls its server every 50 ms on its own; its button only
// counts the click.
const pollingPage = `<!doctype html><title>Polling</title>
<button id="go" onclick="window.clicks = (window.clicks || 0) + 1">Go</button>
<script>setInterval(() => fetch('poll?t=' + Date.now()).catch(() => {}), 50);</script>`

// BenchmarkRequestAttribution: on a page that polls its server on its
// own, one op clicks a button that starts nothing. settled-ms is how long
// the click's watch waited; network-requests/op are the requestWillBeSent
// events that came during the click: what a watch through the Network
// domain, which cannot tell the action's requests from the page's, would
// wait for. (Measured at 8ec1b5f: ~1,030 ms and ~19 requests per click:
// the in-page watch too counts every request started while it is armed.)
func BenchmarkRequestAttribution(b *testing.B) {
	p := loadHTML(b, pollingPage)
	ctx := testCtx(b)
	sent, received, stop := p.sess.SubscribeCounted("Network.requestWillBeSent")
	defer stop()
	go func() {
		for range sent {
		}
	}()
	var settled time.Duration
	var requests int64
	n := 0
	for b.Loop() {
		before := received()
		res, err := p.Click(ctx, Target{Selector: "#go"}, ClickOptions{})
		if err != nil {
			b.Fatal(err)
		}
		requests += received() - before
		settled += res.Settled
		n++
	}
	b.ReportMetric(float64(settled.Microseconds())/1000/float64(n), "settled-ms")
	b.ReportMetric(float64(requests)/float64(n), "network-requests/op")
	if raw, err := p.Eval(ctx, "window.clicks"); err != nil || string(raw) != fmt.Sprint(n) {
		b.Errorf("clicks = %s (%v), want %d", raw, err, n)
	}
}
