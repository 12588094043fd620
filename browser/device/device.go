// Package device holds the device presets of the viewport step (spec
// §18.5): their sizes, flags and the user agent each sends.
package device

import (
	"sort"
	"strings"
	"sync"
)

// deviceKind picks the user agent a preset sends.
type deviceKind int

// The device kinds: desktops keep the browser's own user agent.
const (
	kindDesktop deviceKind = iota
	kindIPhone
	kindIPad
	kindAndroidPhone
	kindAndroidTablet
)

// Device is a device preset, or a custom size: sizes in CSS pixels.
type Device struct {
	// Name is the preset name ("iphone-14"); empty for a custom size.
	Name              string  `json:"preset,omitempty"`
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	Mobile            bool    `json:"mobile"`
	HasTouch          bool    `json:"hasTouch"`
	IsLandscape       bool    `json:"isLandscape,omitempty"`
	kind              deviceKind
	// model is the Android model in the user agent.
	model string
}

// portraitDevices are the presets as held upright; each phone and tablet
// also has a "-landscape" variant with width and height swapped.
var portraitDevices = []Device{
	iphone("iphone-se", 375, 667, 2),
	iphone("iphone-xr", 414, 896, 2),
	iphone("iphone-11", 414, 896, 2),
	iphone("iphone-11-pro", 375, 812, 3),
	iphone("iphone-11-pro-max", 414, 896, 3),
	iphone("iphone-12-mini", 375, 812, 3),
	iphone("iphone-12", 390, 844, 3),
	iphone("iphone-12-pro", 390, 844, 3),
	iphone("iphone-12-pro-max", 428, 926, 3),
	iphone("iphone-13-mini", 375, 812, 3),
	iphone("iphone-13", 390, 844, 3),
	iphone("iphone-13-pro", 390, 844, 3),
	iphone("iphone-13-pro-max", 428, 926, 3),
	iphone("iphone-14", 390, 844, 3),
	iphone("iphone-14-plus", 428, 926, 3),
	iphone("iphone-14-pro", 393, 852, 3),
	iphone("iphone-14-pro-max", 430, 932, 3),
	iphone("iphone-15", 393, 852, 3),
	iphone("iphone-15-plus", 430, 932, 3),
	iphone("iphone-15-pro", 393, 852, 3),
	iphone("iphone-15-pro-max", 430, 932, 3),
	ipad("ipad-mini", 768, 1024),
	ipad("ipad", 810, 1080),
	ipad("ipad-air", 820, 1180),
	ipad("ipad-pro-11", 834, 1194),
	ipad("ipad-pro-12.9", 1024, 1366),
	android("pixel-5", "Pixel 5", 393, 851, 2.75),
	android("pixel-6", "Pixel 6", 412, 915, 2.625),
	android("pixel-7", "Pixel 7", 412, 915, 2.625),
	android("pixel-7-pro", "Pixel 7 Pro", 412, 892, 3.5),
	android("pixel-8", "Pixel 8", 412, 915, 2.625),
	android("galaxy-s21", "SM-G991B", 360, 800, 3),
	android("galaxy-s22", "SM-S901B", 360, 780, 3),
	android("galaxy-s23", "SM-S911B", 360, 780, 3),
	android("galaxy-s23-ultra", "SM-S918B", 384, 824, 3.75),
	{Name: "galaxy-tab-s7", Width: 800, Height: 1280, DeviceScaleFactor: 2, Mobile: true, HasTouch: true, kind: kindAndroidTablet, model: "SM-T870"},
}

// desktopDevices have no landscape variant.
var desktopDevices = []Device{
	desktop("desktop", 1440, 900, 1),
	desktop("desktop-hd", 1920, 1080, 1),
	desktop("desktop-4k", 3840, 2160, 1),
	desktop("laptop", 1366, 768, 1),
	desktop("laptop-hidpi", 1440, 900, 2),
	desktop("macbook-air", 1470, 956, 2),
	desktop("macbook-pro-14", 1512, 982, 2),
	desktop("macbook-pro-16", 1728, 1117, 2),
}

// deviceAliases are other spellings of preset names.
var deviceAliases = map[string]string{
	"ipad-pro-12-9": "ipad-pro-12.9",
	"ipad-pro-129":  "ipad-pro-12.9",
	"iphone-se-3":   "iphone-se",
	"pixel-7pro":    "pixel-7-pro",
	"desktop-fhd":   "desktop-hd",
	"desktop-uhd":   "desktop-4k",
	"macbook":       "macbook-air",
	"macbook-pro":   "macbook-pro-14",
}

func iphone(name string, w, h int, dsf float64) Device {
	return Device{Name: name, Width: w, Height: h, DeviceScaleFactor: dsf, Mobile: true, HasTouch: true, kind: kindIPhone}
}

func ipad(name string, w, h int) Device {
	return Device{Name: name, Width: w, Height: h, DeviceScaleFactor: 2, Mobile: true, HasTouch: true, kind: kindIPad}
}

func android(name, model string, w, h int, dsf float64) Device {
	return Device{Name: name, Width: w, Height: h, DeviceScaleFactor: dsf, Mobile: true, HasTouch: true, kind: kindAndroidPhone, model: model}
}

func desktop(name string, w, h int, dsf float64) Device {
	return Device{Name: name, Width: w, Height: h, DeviceScaleFactor: dsf, kind: kindDesktop}
}

// devices holds every preset by name, built on first use (most commands
// never ask for one).
var devices = sync.OnceValue(buildDevices)

func buildDevices() map[string]Device {
	m := map[string]Device{}
	for _, d := range portraitDevices {
		m[d.Name] = d
		l := d
		l.Name, l.Width, l.Height, l.IsLandscape = d.Name+"-landscape", d.Height, d.Width, true
		m[l.Name] = l
	}
	for _, d := range desktopDevices {
		m[d.Name] = d
	}
	return m
}

// Names lists the presets, sorted.
func Names() []string {
	names := make([]string, 0, len(devices()))
	for n := range devices() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Normalize lower-cases a name and turns underscores and spaces into
// hyphens, and an alias into its preset: "iPhone_14 Pro" → "iphone-14-pro".
func Normalize(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("_", "-", " ", "-", "\"", "", "(", "", ")", "").Replace(n)
	for strings.Contains(n, "--") {
		n = strings.ReplaceAll(n, "--", "-")
	}
	n = strings.TrimSuffix(n, "-portrait")
	if a, ok := deviceAliases[n]; ok {
		return a
	}
	if base, ok := strings.CutSuffix(n, "-landscape"); ok {
		if a, ok := deviceAliases[base]; ok {
			return a + "-landscape"
		}
	}
	return n
}

// Lookup finds a preset by name (case-insensitive, underscores and
// spaces read as hyphens).
func Lookup(name string) (Device, bool) {
	d, ok := devices()[Normalize(name)]
	return d, ok
}

// Turned returns the other orientation of a preset: its landscape (or
// portrait) variant, or the same sizes swapped.
func (d Device) Turned() Device {
	name := d.Name + "-landscape"
	if d.IsLandscape {
		name = strings.TrimSuffix(d.Name, "-landscape")
	}
	if t, ok := devices()[name]; ok {
		return t
	}
	d.Width, d.Height, d.IsLandscape = d.Height, d.Width, !d.IsLandscape
	return d
}

// Android reports whether the preset is an Android phone or tablet,
// whose user agent names the browser's major version.
func (d Device) Android() bool {
	return d.kind == kindAndroidPhone || d.kind == kindAndroidTablet
}

// UserAgent returns the user agent, navigator.platform and client hints a
// preset sends; "" for desktops, which keep the browser's own. chrome is
// the browser's major version.
func (d Device) UserAgent(chrome string) (ua, platform string, hints *UAHints) {
	const ios = "17_5"
	switch d.kind {
	case kindIPhone:
		return "Mozilla/5.0 (iPhone; CPU iPhone OS " + ios + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "iPhone", nil
	case kindIPad:
		return "Mozilla/5.0 (iPad; CPU OS " + ios + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "iPad", nil
	case kindAndroidPhone, kindAndroidTablet:
		mobile := d.kind == kindAndroidPhone
		suffix := " Safari/537.36"
		if mobile {
			suffix = " Mobile Safari/537.36"
		}
		ua = "Mozilla/5.0 (Linux; Android 14; " + d.model + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + chrome + ".0.0.0" + suffix
		return ua, "Linux armv81", &UAHints{Chrome: chrome, Model: d.model, Mobile: mobile}
	}
	return "", "", nil
}

// UAHints are the user-agent client hints of an Android preset.
type UAHints struct {
	// Chrome is the browser's major version.
	Chrome string
	// Model is the phone or tablet model ("Pixel 7").
	Model string
	// Mobile is true for phones.
	Mobile bool
}
