package builtins

import (
	"path/filepath"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{
		"screenshot":  screenshot,
		"pdf":         pdf,
		"cookies":     cookies,
		"viewport":    viewport,
		"geolocation": geolocation,
	})
}

// screenshot handles screenshot(path?, full_page =, region =, selector |
// ref | text =, padding =, format =, quality =, omit_background =).
func screenshot(c *Call) (any, error) {
	o := options[lang.ScreenshotOptions](c)
	r := browser.ScreenshotRequest{FullPage: o.FullPage, Padding: o.Padding, Format: o.Format,
		Quality: o.Quality, OmitBackground: o.OmitBackground}
	var err error
	if r.Path, err = pathArg(c, o.Path); err != nil {
		return nil, err
	}
	if o.Region != nil {
		r.Region = (*browser.Rect)(o.Region)
	}
	if r.Element, err = elementArg(c); err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	r.OutputDir = c.Env.OutputDir
	res, err := p.Camera().Screenshot(c.Ctx, r)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	return res, nil
}

// pathArg reads the file path: the positional string or path=. A ref or
// an id selector in its place is refused (it would name a file "#chart"):
// the agent meant the element to capture.
func pathArg(c *Call, path string) (string, error) {
	if c.Args.Pos != nil && c.Args.Pos != starlark.None {
		pos, err := posString(c, "a file path")
		if err != nil {
			return "", err
		}
		if path != "" {
			return "", invalid("%s got a path twice (positional and path=): give one", c.Action.Builtin())
		}
		if strings.TrimSpace(pos) == "" {
			return "", invalid("%s: the path is empty", c.Action.Builtin())
		}
		path = pos
	}
	if namesAnElement(path) {
		e := browser.Errorf(browser.KindStepValidation, "%s takes a file path, not %q", c.Action.Builtin(), path)
		if c.Action.Name == "screenshot" {
			return "", e.WithAdvice(forExample(`{"screenshot": {"selector": "#chart"}}`, `{"screenshot": {"ref": "s1e4"}}`))
		}
		return "", e.WithHint("it prints the whole page; give a file name such as \"page.pdf\", or none")
	}
	return path, nil
}

// namesAnElement reports whether a capture's path is, by its look, a ref
// or a CSS selector rather than a file name: a ref, an id selector, or a
// name with no extension that holds a selector's # or [ ("input#email",
// "button[type=submit]").
func namesAnElement(path string) bool {
	p := strings.TrimSpace(path)
	if browser.IsRef(p) || strings.HasPrefix(p, "#") {
		return true
	}
	return filepath.Ext(p) == "" && strings.ContainsAny(p, "#[")
}

// elementArg reads the element to capture (selector, ref, text); the
// positional argument is the path, not a target.
func elementArg(c *Call) (browser.Target, error) {
	args := *c.Args
	args.Pos = nil
	cc := *c
	cc.Args = &args
	return targetArg(&cc)
}

// pdf handles pdf(path?, landscape =, scale =, page_ranges =, margin =,
// format =, paper_width =, paper_height =, header_template =,
// footer_template =, display_header_footer =, print_background =,
// prefer_css_page_size =).
func pdf(c *Call) (any, error) {
	o := options[lang.PDFOptions](c)
	r := browser.PDFRequest{Landscape: o.Landscape, PreferCSSPageSize: o.PreferCSSPageSize,
		DisplayHeaderFooter: o.DisplayHeaderFooter, PrintBackground: &o.PrintBackground,
		PageRanges: o.PageRanges, Format: o.Format, HeaderTemplate: o.HeaderTemplate,
		FooterTemplate: o.FooterTemplate, Scale: o.Scale,
		PaperWidth: float64(o.PaperWidth), PaperHeight: float64(o.PaperHeight), Margin: browser.Margins(o.Margin)}
	var err error
	if r.Path, err = pathArg(c, o.Path); err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	r.OutputDir = c.Env.OutputDir
	return p.Camera().PDF(c.Ctx, r)
}

// viewport handles viewport("iphone-14" | "reset", width =, height =,
// device_scale_factor =, mobile =, has_touch =, is_landscape =,
// user_agent =, preset =, reset =).
func viewport(c *Call) (any, error) {
	r, err := viewportRequest(c)
	if err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	res, err := p.Emulation().SetViewport(c.Ctx, r)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	return res, nil
}

// viewportRequest reads the preset (positional or preset=) and the sizes.
func viewportRequest(c *Call) (browser.ViewportRequest, error) {
	o := options[lang.ViewportOptions](c)
	r := browser.ViewportRequest{Preset: o.Preset, Width: o.Width, Height: o.Height,
		DeviceScaleFactor: o.DeviceScaleFactor, UserAgent: o.UserAgent,
		Mobile: o.Mobile, HasTouch: o.HasTouch, IsLandscape: o.IsLandscape}
	if c.Args.Pos != nil && c.Args.Pos != starlark.None {
		pos, err := posString(c, "a device preset name or \"reset\"")
		if err != nil {
			return r, err
		}
		if r.Preset != "" {
			return r, invalid("viewport got a preset twice (positional and preset=): give one")
		}
		r.Preset = pos
	}
	if strings.EqualFold(strings.TrimSpace(r.Preset), "reset") {
		r.Preset, r.Reset = "", true
	}
	if c.Args.Has("reset") {
		r.Reset = o.Reset
	}
	if r.Reset {
		if others := viewportResetOthers(c, r); len(others) > 0 {
			return r, invalid("viewport reset takes nothing else, but got %s: reset, then set a viewport in the next step", strings.Join(others, ", "))
		}
	}
	return r, nil
}

// viewportResetOthers lists the settings given with reset: the preset
// (unless it is "reset" itself) and every keyword other than reset and
// preset.
func viewportResetOthers(c *Call, r browser.ViewportRequest) []string {
	var others []string
	if r.Preset != "" {
		others = append(others, "preset "+strconv.Quote(r.Preset))
	}
	for _, k := range c.Args.Keywords() {
		if k != "reset" && k != "preset" && c.Args.Has(k) {
			others = append(others, lang.SnakeCase(k))
		}
	}
	return others
}

// geolocation handles geolocation(latitude =, longitude =, accuracy =) and
// geolocation("clear") / geolocation(clear = True).
func geolocation(c *Call) (any, error) {
	o := options[lang.GeolocationOptions](c)
	clear := o.Clear
	if c.Args.Pos != nil && c.Args.Pos != starlark.None {
		pos, err := posString(c, "\"clear\" or latitude/longitude keywords")
		if err != nil {
			return nil, err
		}
		if !strings.EqualFold(strings.TrimSpace(pos), "clear") {
			return nil, invalid(`geolocation takes "clear" or a latitude and longitude, not %q`, pos).
				WithAdvice(forExample(`{"geolocation": {"latitude": 48.85, "longitude": 2.35}}`, `{"geolocation": "clear"}`))
		}
		clear = true
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	if clear {
		if o.Latitude != nil || o.Longitude != nil {
			return nil, invalid("geolocation: clear takes no coordinates")
		}
		return p.Emulation().ClearGeolocation(c.Ctx)
	}
	if o.Latitude == nil || o.Longitude == nil {
		return nil, invalid(`geolocation needs latitude and longitude, or "clear"`).
			WithAdvice(forExample(`{"geolocation": {"latitude": 48.8584, "longitude": 2.2945}}`, `{"geolocation": "clear"}`))
	}
	return p.Emulation().SetGeolocation(c.Ctx, browser.Geolocation{Latitude: *o.Latitude, Longitude: *o.Longitude, Accuracy: o.Accuracy})
}

// cookies handles cookies("get" | "clear", get =, set =, clear =).
func cookies(c *Call) (any, error) {
	o := options[lang.CookiesOptions](c)
	r := browser.CookieRequest{Get: (*browser.CookieFilter)(o.Get.Filter), Clear: (*browser.CookieFilter)(o.Clear.Filter)}
	for _, ck := range o.Set {
		r.Set = append(r.Set, browser.CookieInput(ck))
	}
	if err := cookiePositional(c, &r); err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	return p.Storage().Cookies(c.Ctx, r)
}

// cookiePositional reads "get" or "clear" given as the positional value.
func cookiePositional(c *Call, r *browser.CookieRequest) error {
	if c.Args.Pos == nil || c.Args.Pos == starlark.None {
		return nil
	}
	pos, err := posString(c, `"get" or "clear"`)
	if err != nil {
		return err
	}
	switch strings.ToLower(strings.TrimSpace(pos)) {
	case "get":
		if r.Get == nil {
			r.Get = &browser.CookieFilter{}
		}
	case "clear":
		if r.Clear == nil {
			r.Clear = &browser.CookieFilter{}
		}
	default:
		return invalid(`cookies takes "get" or "clear", or get, set and clear options, not %q`, pos).
			WithAdvice(forExample(`{"cookies": "get"}`, `{"cookies": {"set": [{"name": "sid", "value": "abc", "url": "https://example.com"}]}}`))
	}
	return nil
}
