package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"

	"github.com/cdp-skill/cdp-skill/browser/device"
)

// maxViewportSide bounds a custom viewport's width and height (CSS px).
const maxViewportSide = 16384

// ViewportRequest is a viewport step: a preset, a custom size, or a reset.
// With a preset, the other fields given override the preset's.
type ViewportRequest struct {
	Preset            string
	Width, Height     int
	DeviceScaleFactor float64
	Mobile, HasTouch  *bool
	// IsLandscape picks a preset's landscape variant; for a custom size it
	// sets the screen orientation.
	IsLandscape *bool
	// UserAgent overrides the user agent (presets of phones and tablets
	// set a mobile one).
	UserAgent string
	// Reset clears the emulation.
	Reset bool
}

// Device is a device preset of the viewport step, or a custom size.
type Device = device.Device

// LookupDevice finds a preset by name (case-insensitive, underscores and
// spaces read as hyphens). An unknown name is a StepValidationError that
// lists close names.
func LookupDevice(name string) (Device, error) {
	if d, ok := device.Lookup(name); ok {
		return d, nil
	}
	e := Errorf(KindStepValidation, "unknown device preset %q", name)
	if close := closeDeviceNames(device.Normalize(name), 6); len(close) > 0 {
		e.Message += fmt.Sprintf("; close names: %s", strings.Join(close, ", "))
	}
	return Device{}, e.WithHint("presets cover iPhones (iphone-se … iphone-15-pro-max), iPads (ipad-mini, ipad-air, ipad-pro-11, ipad-pro-12.9), Pixels (pixel-5 … pixel-8), Galaxies (galaxy-s21 … galaxy-s23-ultra, galaxy-tab-s7), desktops (desktop, desktop-hd, desktop-4k, laptop, macbook-air, macbook-pro-14, macbook-pro-16), phones and tablets with -landscape; or give {width, height}")
}

// closeDeviceNames returns up to n preset names near name: those sharing
// its family (the part before the first digit or hyphen) first, then by
// edit distance.
func closeDeviceNames(name string, n int) []string {
	type scored struct {
		name  string
		score int
	}
	var list []scored
	for _, d := range device.Names() {
		s := editDistance(name, d)
		if strings.Contains(d, name) || strings.HasPrefix(name, strings.TrimSuffix(d, "-landscape")) {
			s -= 10
		}
		if s <= max(3, len(name)/3) || strings.Contains(d, name) {
			list = append(list, scored{d, s})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].score < list[j].score })
	var out []string
	for _, s := range list[:min(n, len(list))] {
		out = append(out, s.name)
	}
	return out
}

// ViewportResult is the emulated viewport.
type ViewportResult struct {
	// Device holds the sizes and flags; its Name is the preset, if any.
	Device
	// UserAgent is set when the user agent is overridden.
	UserAgent string `json:"userAgent,omitempty"`
	Reset     bool   `json:"reset,omitempty"`
	// Warnings are notes for the step result.
	Warnings []string `json:"-"`
}

// SetViewport emulates a device or a viewport size (device metrics, touch,
// and for phone and tablet presets a mobile user agent), or clears the
// emulation. The emulation lasts as long as this connection to the tab.
func (e *Emulation) SetViewport(ctx context.Context, r ViewportRequest) (*ViewportResult, error) {
	if r.Reset {
		return e.ResetViewport(ctx)
	}
	d, err := r.device()
	if err != nil {
		return nil, err
	}
	e.p.noteOverride(func(o *commandOverrides) { o.viewport = true })
	chrome := ""
	if d.Android() {
		chrome = e.chromeMajor(ctx)
	}
	ua, platform, hints := d.UserAgent(chrome)
	if r.UserAgent != "" {
		ua, platform, hints = r.UserAgent, "", nil
	}
	if err := e.emulateDevice(ctx, d, r.IsLandscape != nil || d.Mobile); err != nil {
		return nil, err
	}
	if err := e.setUserAgent(ctx, ua, platform, hints); err != nil {
		return nil, err
	}
	res := &ViewportResult{Device: d, UserAgent: ua}
	if ua != "" && e.servedPage(ctx) {
		res.Warnings = append(res.Warnings, "the user agent applies to requests from now on: reload (or goto) for the site to serve its mobile pages")
	}
	return res, nil
}

// device resolves the request into the device to emulate.
func (r ViewportRequest) device() (Device, error) {
	var d Device
	if r.Preset != "" {
		var err error
		if d, err = LookupDevice(r.Preset); err != nil {
			return d, err
		}
		if r.IsLandscape != nil && *r.IsLandscape != d.IsLandscape {
			d = d.Turned()
		}
	} else {
		if r.Width == 0 || r.Height == 0 {
			return d, Errorf(KindStepValidation, "viewport needs a preset name or width and height").
				WithHint("give a preset name (e.g. iphone-14) or a width and a height (e.g. 1280 and 800)")
		}
		d = Device{DeviceScaleFactor: 1, IsLandscape: r.IsLandscape != nil && *r.IsLandscape}
	}
	r.override(&d)
	return d, r.check(d)
}

// override applies the fields the request gives.
func (r ViewportRequest) override(d *Device) {
	if r.Width > 0 {
		d.Width = r.Width
	}
	if r.Height > 0 {
		d.Height = r.Height
	}
	if r.DeviceScaleFactor > 0 {
		d.DeviceScaleFactor = r.DeviceScaleFactor
	}
	if r.Mobile != nil {
		d.Mobile = *r.Mobile
	}
	if r.HasTouch != nil {
		d.HasTouch = *r.HasTouch
	}
}

// check validates the numbers of a custom viewport.
func (r ViewportRequest) check(d Device) error {
	switch {
	case r.Width < 0 || r.Height < 0 || d.Width > maxViewportSide || d.Height > maxViewportSide:
		return Errorf(KindStepValidation, "viewport width and height must be 1 to %d CSS pixels, got %d×%d", maxViewportSide, d.Width, d.Height)
	case r.DeviceScaleFactor < 0 || d.DeviceScaleFactor > 10 || math.IsNaN(r.DeviceScaleFactor):
		return Errorf(KindStepValidation, "viewport deviceScaleFactor must be above 0 and at most 10, not %g", r.DeviceScaleFactor)
	}
	return nil
}

// emulateDevice sets the device metrics (screen size too) and touch.
// The tab's view keeps its size (dontSetVisibleSize): an override that
// resized it would leave a headless tab at the emulated size after the
// connection ends, while the rest of the emulation is gone.
func (e *Emulation) emulateDevice(ctx context.Context, d Device, orient bool) error {
	params := emulation.SetDeviceMetricsOverrideParams{
		Width: int64(d.Width), Height: int64(d.Height), DeviceScaleFactor: d.DeviceScaleFactor, Mobile: d.Mobile,
		ScreenWidth: int64(d.Width), ScreenHeight: int64(d.Height), DontSetVisibleSize: ptr(true),
	}
	if orient {
		params.ScreenOrientation = &emulation.ScreenOrientation{Type: emulation.ScreenOrientationTypePortraitPrimary}
		if d.IsLandscape {
			params.ScreenOrientation = &emulation.ScreenOrientation{Type: emulation.ScreenOrientationTypeLandscapePrimary, Angle: 90}
		}
	}
	if _, err := cdp.Call(ctx, e.p.sess, emulation.SetDeviceMetricsOverride, params); err != nil {
		return fmt.Errorf("viewport: set device metrics: %w", err)
	}
	touch := emulation.SetTouchEmulationEnabledParams{Enabled: d.HasTouch}
	if d.HasTouch {
		touch.MaxTouchPoints = 5
	}
	if _, err := cdp.Call(ctx, e.p.sess, emulation.SetTouchEmulationEnabled, touch); err != nil {
		return fmt.Errorf("viewport: set touch emulation: %w", err)
	}
	return nil
}

// setUserAgent overrides the user agent, or clears the override (ua "").
func (e *Emulation) setUserAgent(ctx context.Context, ua, platform string, hints *device.UAHints) error {
	params := emulation.SetUserAgentOverrideParams{UserAgent: ua, Platform: platform}
	if hints != nil {
		params.UserAgentMetadata = uaMetadata(hints)
	}
	if _, err := cdp.Call(ctx, e.p.sess, emulation.SetUserAgentOverride, params); err != nil {
		return fmt.Errorf("viewport: set the user agent: %w", err)
	}
	return nil
}

// uaMetadata builds the client hints (Sec-CH-UA-*) of an Android preset.
func uaMetadata(h *device.UAHints) *emulation.UserAgentMetadata {
	brands := []*emulation.UserAgentBrandVersion{
		{Brand: "Chromium", Version: h.Chrome}, {Brand: "Google Chrome", Version: h.Chrome}, {Brand: "Not.A/Brand", Version: "99"},
	}
	return &emulation.UserAgentMetadata{Brands: brands, Platform: "Android", PlatformVersion: "14.0.0", Model: h.Model, Mobile: h.Mobile}
}

// ResetViewport clears the device emulation, touch and user agent
// overrides, and reports the tab's own viewport.
func (e *Emulation) ResetViewport(ctx context.Context) (*ViewportResult, error) {
	if _, err := cdp.Call(ctx, e.p.sess, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
		return nil, fmt.Errorf("viewport reset: %w", err)
	}
	if _, err := cdp.Call(ctx, e.p.sess, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{}); err != nil {
		return nil, fmt.Errorf("viewport reset: touch: %w", err)
	}
	if err := e.setUserAgent(ctx, "", "", nil); err != nil {
		return nil, err
	}
	var v struct {
		W   int     `json:"w"`
		H   int     `json:"h"`
		DPR float64 `json:"dpr"`
	}
	if err := e.topInto(ctx, `({w: innerWidth, h: innerHeight, dpr: devicePixelRatio})`, &v); err != nil {
		return nil, fmt.Errorf("viewport reset: read the viewport: %w", err)
	}
	return &ViewportResult{Device: Device{Width: v.W, Height: v.H, DeviceScaleFactor: v.DPR}, Reset: true}, nil
}

// chromeMajor returns the browser's major version for user agents
// ("148"), or a recent one when it cannot be read.
func (e *Emulation) chromeMajor(ctx context.Context) string {
	product, err := e.p.Browser.Version(ctx)
	if err != nil {
		return "148"
	}
	_, v, ok := strings.Cut(product, "/")
	major, _, _ := strings.Cut(v, ".")
	if !ok || major == "" {
		return "148"
	}
	return major
}

// servedPage reports whether the top document came from a server (not
// about:blank or a data: URL).
func (e *Emulation) servedPage(ctx context.Context) bool {
	u, err := e.p.URL(ctx)
	return err == nil && (strings.HasPrefix(u, "http:") || strings.HasPrefix(u, "https:"))
}

// topInto evaluates an expression in the top document (whatever frame
// actions run in) and decodes its value into out.
func (e *Emulation) topInto(ctx context.Context, expr string, out any) error {
	res, err := cdp.Call(ctx, e.p.sess, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: ptr(true)})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return &JSError{Text: exceptionText(res.ExceptionDetails), Source: expr}
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return fmt.Errorf("no value for %s", expr)
	}
	return json.Unmarshal(res.Result.Value, out)
}
