package device

import (
	"strings"
	"testing"
)

// TestPresets: the presets the spec names exist, each phone and tablet
// has a landscape variant with its sides swapped, names are read in any
// case with spaces or underscores, and aliases lead to their preset.
func TestPresets(t *testing.T) {
	if names := Names(); len(names) < 40 {
		t.Fatalf("%d presets", len(names))
	}
	for _, n := range []string{"iphone-se", "iphone-14", "iphone-15-pro-max", "ipad-mini", "ipad-pro-11", "ipad-pro-12.9", "pixel-7", "galaxy-s23", "galaxy-tab-s7", "desktop", "desktop-hd", "desktop-4k", "laptop", "macbook-pro-14", "pixel-5-landscape", "ipad-air-landscape"} {
		if _, ok := Lookup(n); !ok {
			t.Errorf("no preset %s", n)
		}
	}
	for _, d := range portraitDevices {
		l, ok := Lookup(d.Name + "-landscape")
		if !ok || l.Width != d.Height || l.Height != d.Width || !l.IsLandscape {
			t.Errorf("%s has no proper landscape variant: %+v %v", d.Name, l, ok)
		}
		if back := l.Turned(); back != d {
			t.Errorf("%s turned back is %+v", l.Name, back)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"Galaxy S23", "galaxy-s23"},
		{"iPhone_14 Pro", "iphone-14-pro"},
		{"ipad-pro-12-9", "ipad-pro-12.9"},
		{"macbook-pro-landscape", "macbook-pro-14-landscape"},
		{"pixel-7-portrait", "pixel-7"},
	} {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, ok := Lookup("iphone-99"); ok {
		t.Error("iphone-99 found")
	}
}

// TestUserAgents: desktops keep the browser's user agent, iPhones send
// Safari's, Android presets name the browser's version and their model
// and send client hints.
func TestUserAgents(t *testing.T) {
	desk, _ := Lookup("desktop")
	if ua, _, hints := desk.UserAgent("156"); ua != "" || hints != nil || desk.Android() {
		t.Errorf("desktop: %q %v", ua, hints)
	}
	iph, _ := Lookup("iphone-14")
	if ua, platform, hints := iph.UserAgent("156"); platform != "iPhone" || hints != nil || iph.Android() || !strings.Contains(ua, "iPhone OS") {
		t.Errorf("iphone: %q %q %v", ua, platform, hints)
	}
	px, _ := Lookup("pixel-7")
	ua, _, hints := px.UserAgent("156")
	if !px.Android() || !strings.Contains(ua, "Pixel 7") || !strings.Contains(ua, "Chrome/156.0.0.0 Mobile") || hints == nil || *hints != (UAHints{Chrome: "156", Model: "Pixel 7", Mobile: true}) {
		t.Errorf("pixel-7: %q %+v", ua, hints)
	}
	tab, _ := Lookup("galaxy-tab-s7")
	if ua, _, hints := tab.UserAgent("156"); strings.Contains(ua, "Mobile") || hints == nil || hints.Mobile {
		t.Errorf("galaxy-tab-s7: %q %+v", ua, hints)
	}
}
