package browser

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
)

// urlRead is a pending read of the top document's URL: its request went
// out, its answer is waited for on first use.
type urlRead func(ctx context.Context) (string, error)

// URL returns the top document's URL.
func (p *Page) URL(ctx context.Context) (string, error) {
	return p.sendURLRead(ctx)(ctx)
}

// StartURL returns the top document's URL as the program that was just
// handed the page starts: the read Pool.Attach sent along with its check
// that the tab is still there, when there is one (it costs no round trip
// of its own), else a read now.
func (p *Page) StartURL(ctx context.Context) (string, error) {
	return p.SendStartURL(ctx)(ctx)
}

// SendStartURL is StartURL in two parts: the read goes out now (or was
// sent by Pool.Attach), and the returned function waits for its answer.
// What is sent to the page afterwards runs after the read.
func (p *Page) SendStartURL(ctx context.Context) func(context.Context) (string, error) {
	p.mu.Lock()
	r := p.startURL
	p.startURL = nil
	p.mu.Unlock()
	if r == nil {
		r = p.sendURLRead(ctx)
	}
	return func(ctx context.Context) (string, error) {
		u, err := r(ctx)
		if err == nil {
			// A tab that shows a local file keeps its loads under the
			// URL policy for the program too.
			p.GuardFiles(ctx, u)
		}
		return u, err
	}
}

// readAheadURL sends the URL read StartURL takes, unless one was sent
// (the diff's baseline carries the URL, SendBaseline).
func (p *Page) readAheadURL(ctx context.Context) {
	p.mu.Lock()
	sent := p.startURL != nil
	p.mu.Unlock()
	if !sent {
		p.setStartURL(p.sendURLRead(ctx))
	}
}

func (p *Page) setStartURL(r urlRead) {
	p.mu.Lock()
	p.startURL = r
	p.mu.Unlock()
}

// sendURLRead sends the read of the top document's URL (in the page's
// world: location is unforgeable there too) without waiting for its reply.
func (p *Page) sendURLRead(ctx context.Context) urlRead {
	wait, err := p.sess.Send(ctx, runtime.CommandEvaluate, runtime.EvaluateParams{Expression: "location.href", ReturnByValue: ptr(true)})
	if err != nil {
		return func(context.Context) (string, error) { return "", err }
	}
	return func(ctx context.Context) (string, error) {
		var res runtime.EvaluateResult
		if err := wait(ctx, &res); err != nil {
			return "", err
		}
		var u string
		if res.Result != nil {
			json.Unmarshal(res.Result.Value, &u)
		}
		return u, nil
	}
}

// CommittedURL is the URL the browser has committed for the tab's top
// document (Target.getTargetInfo): the browser process answers it, so it
// comes at once even from a page whose main thread is blocked (an endless
// loop, a dialog), which location.href would wait for.
func (p *Page) CommittedURL(ctx context.Context) (string, error) {
	res, err := cdp.Call(ctx, p.Browser.Session(), target.GetTargetInfo, target.GetTargetInfoParams{TargetID: p.TargetID})
	if err != nil {
		return "", fmt.Errorf("read the tab's URL: %w", err)
	}
	if res.TargetInfo == nil {
		return "", fmt.Errorf("read the tab's URL: Chrome sent no target info")
	}
	return res.TargetInfo.URL, nil
}
