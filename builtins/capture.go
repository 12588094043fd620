package builtins

import (
	"bytes"
	"encoding/json"
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
		r.Region = &browser.Rect{}
		if err := decodeArg(c, "region", o.Region, r.Region, `{"region": {"x": 0, "y": 0, "width": 800, "height": 600}}`); err != nil {
			return nil, err
		}
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

// pathArg reads the file path: the positional string or path=.
func pathArg(c *Call, path string) (string, error) {
	if c.Args.Pos == nil || c.Args.Pos == starlark.None {
		return path, nil
	}
	pos, err := posString(c, "a file path")
	if err != nil {
		return "", err
	}
	if path != "" {
		return "", invalid("%s got a path twice (positional and path=): give one", c.Action.Builtin())
	}
	if browser.IsRef(pos) || strings.HasPrefix(pos, "#") {
		return "", browser.Errorf(browser.KindStepValidation, "%s takes a file path as its positional argument, not %q", c.Action.Builtin(), pos).
			WithHint(`to capture an element give {"screenshot": {"selector": "#chart"}} or {"screenshot": {"ref": "s1e4"}}`)
	}
	if strings.TrimSpace(pos) == "" {
		return "", invalid("%s: the path is empty", c.Action.Builtin())
	}
	return pos, nil
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

// decodeArg decodes a dict (or list) argument into out, refusing keys out
// does not have.
func decodeArg(c *Call, name string, sv starlark.Value, out any, example string) error {
	v, err := FromStarlark(sv)
	if err != nil {
		return invalid("%s: %s %v", c.Action.Builtin(), lang.SnakeCase(name), err)
	}
	return decodeData(c, lang.SnakeCase(name), v, out, example)
}

// decodeData decodes JSON-shaped data into out, refusing unknown keys.
func decodeData(c *Call, what string, v any, out any, example string) error {
	data, err := json.Marshal(v)
	if err != nil {
		return invalid("%s: %s: %v", c.Action.Builtin(), what, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		msg := strings.TrimPrefix(err.Error(), "json: ")
		msg = strings.Replace(msg, "Go struct field ", "field ", 1)
		return invalid("%s: %s is not valid (%s); e.g. %s", c.Action.Builtin(), what, msg, example)
	}
	return nil
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
		FooterTemplate: o.FooterTemplate, Scale: o.Scale}
	var err error
	if r.Path, err = pathArg(c, o.Path); err != nil {
		return nil, err
	}
	if err := pdfSizes(c, o, &r); err != nil {
		return nil, err
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	r.OutputDir = c.Env.OutputDir
	return p.Camera().PDF(c.Ctx, r)
}

// pdfSizes reads the paper size and the margins.
func pdfSizes(c *Call, o *lang.PDFOptions, r *browser.PDFRequest) error {
	var err error
	if r.PaperWidth, _, err = lengthArg(c, "paperWidth", o.PaperWidth); err != nil {
		return err
	}
	if r.PaperHeight, _, err = lengthArg(c, "paperHeight", o.PaperHeight); err != nil {
		return err
	}
	r.Margin, err = marginArg(o.Margin)
	return err
}

// lengthArg reads a length in inches: a number, or a string with a unit.
func lengthArg(c *Call, name string, v starlark.Value) (float64, bool, error) {
	if v == nil {
		return 0, false, nil
	}
	n, err := lengthValue(v)
	if err != nil {
		return 0, false, invalid("%s: %s %v", c.Action.Builtin(), lang.SnakeCase(name), err)
	}
	return n, true, nil
}

// lengthValue converts a number (inches) or a string with a unit.
func lengthValue(v starlark.Value) (float64, error) {
	if s, ok := starlark.AsString(v); ok {
		return browser.ParseInches(s)
	}
	f, ok := starlark.AsFloat(v)
	if !ok {
		return 0, invalid("must be a number of inches or a length such as \"1cm\", not %s", v.Type())
	}
	return f, nil
}

// marginArg reads margin: one length for every side, or a dict of sides.
func marginArg(v starlark.Value) (browser.Margins, error) {
	var m browser.Margins
	if v == nil {
		return m, nil
	}
	sides, isMap := v.(starlark.IterableMapping)
	if !isMap {
		n, err := lengthValue(v)
		if err != nil {
			return m, invalid("pdf: margin %v", err)
		}
		return browser.Margins{Top: &n, Bottom: &n, Left: &n, Right: &n}, nil
	}
	dst := map[string]**float64{"top": &m.Top, "bottom": &m.Bottom, "left": &m.Left, "right": &m.Right}
	for _, item := range sides.Items() {
		k, _ := starlark.AsString(item[0])
		p, known := dst[k]
		if !known {
			return m, invalid("pdf: margin has no side %s; give top, bottom, left, right", item[0])
		}
		n, err := lengthValue(item[1])
		if err != nil {
			return m, invalid("pdf: margin.%s %v", k, err)
		}
		*p = &n
	}
	return m, nil
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
			return nil, invalid(`geolocation takes "clear" or {"latitude": 48.85, "longitude": 2.35}, not %q`, pos)
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
		return nil, invalid(`geolocation needs latitude and longitude: {"geolocation": {"latitude": 48.8584, "longitude": 2.2945}}, or "clear"`)
	}
	return p.Emulation().SetGeolocation(c.Ctx, browser.Geolocation{Latitude: *o.Latitude, Longitude: *o.Longitude, Accuracy: o.Accuracy})
}

// cookieFilterJSON is the object form of get and clear.
type cookieFilterJSON struct {
	URL    string   `json:"url"`
	URLs   []string `json:"urls"`
	Domain string   `json:"domain"`
	Name   string   `json:"name"`
	All    bool     `json:"all"`
}

// cookieJSON is a cookie to set.
type cookieJSON struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	URL      string  `json:"url"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite"`
}

const cookieSetExample = `{"cookies": {"set": [{"name": "sid", "value": "abc", "url": "https://example.com"}]}}`

// cookies handles cookies("get" | "clear", get =, set =, clear =).
func cookies(c *Call) (any, error) {
	var r browser.CookieRequest
	var err error
	o := options[lang.CookiesOptions](c)
	if r.Get, err = cookieFilterArg(c, "get", o.Get); err != nil {
		return nil, err
	}
	if r.Clear, err = cookieFilterArg(c, "clear", o.Clear); err != nil {
		return nil, err
	}
	if r.Set, err = cookieSetArg(c, o.Set); err != nil {
		return nil, err
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
		return invalid(`cookies takes "get" or "clear", or {"get": …, "set": […], "clear": …}, not %q`, pos)
	}
	return nil
}

// cookieFilterArg reads get= or clear=: True (the page's cookies), a URL
// or domain string, or a filter dict; nil when absent or False.
func cookieFilterArg(c *Call, name string, v starlark.Value) (*browser.CookieFilter, error) {
	if v == nil {
		return nil, nil
	}
	if b, isBool := v.(starlark.Bool); isBool {
		if !b {
			return nil, nil
		}
		return &browser.CookieFilter{}, nil
	}
	if s, isStr := starlark.AsString(v); isStr {
		return cookieFilterString(s), nil
	}
	var f cookieFilterJSON
	if err := decodeArg(c, name, v, &f, `{"cookies": {"`+name+`": {"domain": "example.com"}}}`); err != nil {
		return nil, err
	}
	out := &browser.CookieFilter{URLs: f.URLs, Domain: f.Domain, Name: f.Name, All: f.All}
	if f.URL != "" {
		out.URLs = append([]string{f.URL}, out.URLs...)
	}
	return out, nil
}

// cookieFilterString reads a URL (with a scheme) or a domain.
func cookieFilterString(s string) *browser.CookieFilter {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		return &browser.CookieFilter{URLs: []string{s}}
	}
	return &browser.CookieFilter{Domain: s}
}

// cookieSetArg reads set=: one cookie dict or a list of them.
func cookieSetArg(c *Call, sv starlark.Value) ([]browser.CookieInput, error) {
	if sv == nil {
		return nil, nil
	}
	v, err := FromStarlark(sv)
	if err != nil {
		return nil, err
	}
	if _, one := v.(*lang.Object); one {
		v = []any{v}
	}
	var list []cookieJSON
	if err := decodeData(c, "set", v, &list, cookieSetExample); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, invalid("cookies: set is empty; e.g. %s", cookieSetExample)
	}
	out := make([]browser.CookieInput, len(list))
	for i, j := range list {
		out[i] = browser.CookieInput(j)
	}
	return out, nil
}
