package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
	cdpruntime "github.com/cdp-skill/cdp-skill/runtime"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

// breakdown times the parts of one step in process, as the CLI runs them
// (connect, attach, engine, click with its settle, capture, screenshot),
// then the screenshot settings, then a recipe's per-builtin overhead.
func breakdown(c *cli, tab string, n int) error {
	for _, kv := range c.env {
		if v, ok := strings.CutPrefix(kv, state.EnvDir+"="); ok {
			state.SetDir(v)
		}
	}
	reg, err := state.OpenRegistry()
	if err != nil {
		return err
	}
	entry, err := reg.Lookup(tab)
	if err != nil {
		return err
	}
	id := target.ID(entry.TargetID)
	ep := chrome.Endpoint{Port: c.port}
	parts := []string{"connect", "attach (domains enabled)", "engine check + context", "click (action + settle)", "  of which settle",
		"post-capture (viewport + full snapshot)", "screenshot (png, current settings)", "close"}
	times := map[string][]time.Duration{}
	dir, err := os.MkdirTemp("", "bench-step-shots-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	for round := -2; round < n; round++ {
		rec := func(name string, since time.Time) {
			if round >= 0 {
				times[name] = append(times[name], time.Since(since))
			}
		}
		t := time.Now()
		b, err := browser.Connect(ctx, ep, browser.ConnectOptions{})
		if err != nil {
			return err
		}
		rec(parts[0], t)
		t = time.Now()
		p, err := b.Attach(ctx, id)
		if err != nil {
			return err
		}
		rec(parts[1], t)
		t = time.Now()
		if _, err := p.PostCapture(ctx, browser.CaptureOptions{}); err != nil {
			return err
		}
		rec(parts[2], t)
		t = time.Now()
		res, err := p.Click(ctx, browser.Target{Selector: "#a"}, browser.ClickOptions{})
		if err != nil {
			return err
		}
		rec(parts[3], t)
		if round >= 0 {
			times[parts[4]] = append(times[parts[4]], res.Settled)
		}
		t = time.Now()
		if _, err := p.PostCapture(ctx, browser.CaptureOptions{Viewport: true, Full: true}); err != nil {
			return err
		}
		rec(parts[5], t)
		t = time.Now()
		if _, err := p.Camera().SaveImage(ctx, filepath.Join(dir, "shot.png"), browser.ScreenshotOptions{}); err != nil {
			return err
		}
		rec(parts[6], t)
		t = time.Now()
		b.Close()
		rec(parts[7], t)
	}
	fmt.Printf("\nparts of a step, in process, %d rounds (median):\n", n)
	for _, name := range parts {
		fmt.Printf("  %-44s %7s\n", name, ms(median(times[name])))
	}
	if err := screenshots(ctx, ep, id, n); err != nil {
		return err
	}
	return recipeOverhead(ctx, ep, id, tab, n)
}

// screenshots times Page.captureScreenshot of the viewport under each
// setting, right after a click changed the page (a fresh frame is due).
func screenshots(ctx context.Context, ep chrome.Endpoint, id target.ID, n int) error {
	b, err := browser.Connect(ctx, ep, browser.ConnectOptions{})
	if err != nil {
		return err
	}
	defer b.Close()
	p, err := b.Attach(ctx, id)
	if err != nil {
		return err
	}
	q := func(v int64) *int64 { return &v }
	yes, no := true, false
	settings := []struct {
		name   string
		params page.CaptureScreenshotParams
	}{
		{"png optimizeForSpeed", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: &yes}},
		{"png", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng}},
		{"jpeg q80 optimizeForSpeed", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, Quality: q(80), OptimizeForSpeed: &yes}},
		{"jpeg q60 optimizeForSpeed", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, Quality: q(60), OptimizeForSpeed: &yes}},
		{"webp q80", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatWebp, Quality: q(80)}},
		{"png optimizeForSpeed, half scale", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: &yes,
			Clip: &page.Viewport{Width: 1280, Height: 713, Scale: 0.5}}},
		{"png, no fresh frame (fromSurface=false)", page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: &yes, FromSurface: &no}},
	}
	fmt.Printf("\nscreenshot of the viewport after a click, %d rounds (median, bytes):\n", n)
	for _, s := range settings {
		var ds []time.Duration
		size := 0
		for round := -1; round < n; round++ {
			if _, err := p.Click(ctx, browser.Target{Selector: "#a"}, browser.ClickOptions{}); err != nil {
				return err
			}
			t := time.Now()
			res, err := cdp.Call(ctx, p.Session(), page.CaptureScreenshot, s.params)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			if round >= 0 {
				ds = append(ds, time.Since(t))
			}
			size = len(res.Data)
		}
		fmt.Printf("  %-44s %7s  %7d B\n", s.name, ms(median(ds)), size)
	}
	var ds []time.Duration
	for round := -1; round < n; round++ {
		t := time.Now()
		if _, err := cdp.Call(ctx, p.Session(), page.CaptureScreenshot, settings[0].params); err != nil {
			return err
		}
		if round >= 0 {
			ds = append(ds, time.Since(t))
		}
	}
	fmt.Printf("  %-44s %7s\n", settings[0].name+", page unchanged", ms(median(ds)))
	return nil
}

// recipeOverhead sets, in process and interleaved, the time per click of
// a command of many clicks (no capture; the runtime's per-builtin work:
// arguments, hooks, step results) against the same clicks made with the
// browser package directly.
func recipeOverhead(ctx context.Context, ep chrome.Endpoint, id target.ID, tab string, n int) error {
	const many = 20
	steps := strings.TrimSuffix(strings.Repeat(`{"click":"#a"},`, many), ",")
	command := []byte(`{"tab":"` + tab + `","capture":"none","steps":[` + steps + `]}`)
	opts := cdpruntime.Options{Endpoint: ep, Headless: true, Stdlib: stdlib.FS}
	var direct, recipe []time.Duration
	for round := -1; round < n; round++ {
		b, err := browser.Connect(ctx, ep, browser.ConnectOptions{})
		if err != nil {
			return err
		}
		p, err := b.Attach(ctx, id)
		if err != nil {
			return err
		}
		t := time.Now()
		for i := 0; i < many; i++ {
			if _, err := p.Click(ctx, browser.Target{Selector: "#a"}, browser.ClickOptions{}); err != nil {
				return err
			}
		}
		d := time.Since(t) / many
		b.Close()
		// The command attaches the tab first; time its steps only.
		t = time.Now()
		_, out := cdpruntime.RunJSON(ctx, command, opts)
		if !out.OK() {
			return fmt.Errorf("%d clicks: %s", many, out.JSON())
		}
		r := time.Since(t)
		if round >= 0 {
			direct = append(direct, d)
			recipe = append(recipe, r)
		}
	}
	// The command's fixed cost (attach, capture of the context) is a
	// click's worth of time at most; split it off with a one-click command.
	one := []byte(`{"tab":"` + tab + `","capture":"none","steps":[{"click":"#a"}]}`)
	var single []time.Duration
	for round := -1; round < n; round++ {
		t := time.Now()
		if _, out := cdpruntime.RunJSON(ctx, one, opts); !out.OK() {
			return fmt.Errorf("1 click: %s", out.JSON())
		}
		if round >= 0 {
			single = append(single, time.Since(t))
		}
	}
	per := (median(recipe) - median(single)) / (many - 1)
	fmt.Printf("\nclicks in one command (capture none), in process, %d rounds (median):\n", n)
	fmt.Printf("  browser package click                        %7s\n", ms(median(direct)))
	fmt.Printf("  click builtin in a command                   %7s  (%d clicks %s, 1 click %s)\n", ms(per), many, ms(median(recipe)), ms(median(single)))
	fmt.Printf("  overhead per builtin                         %7s\n", ms(per-median(direct)))
	return nil
}
