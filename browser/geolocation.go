package browser

import (
	"context"
	"fmt"
	"math"
	"net/url"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
)

// DefaultGeoAccuracy is the accuracy (metres) reported when none is given.
const DefaultGeoAccuracy = 10

// Geolocation is a position to emulate.
type Geolocation struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
	// Accuracy in metres (0 = DefaultGeoAccuracy).
	Accuracy float64 `json:"accuracy"`
}

// GeolocationResult is the outcome of a geolocation step.
type GeolocationResult struct {
	// Latitude, Longitude and Accuracy are the position set (absent after
	// clear).
	Latitude  *float64 `json:"latitude,omitempty"`
	Longitude *float64 `json:"longitude,omitempty"`
	Accuracy  *float64 `json:"accuracy,omitempty"`
	// Permission is the geolocation permission now set, and Origin the
	// origin it applies to ("*": every origin).
	Permission string `json:"permission"`
	Origin     string `json:"origin"`
	Cleared    bool   `json:"cleared,omitempty"`
}

// SetGeolocation makes navigator.geolocation report g and grants the
// geolocation permission, so the page gets the position without a prompt.
// The permission is for the page's origin, or for every origin while the
// tab shows no web page (so a page loaded next gets it). Both last as long
// as this connection to the tab.
func (p *Page) SetGeolocation(ctx context.Context, g Geolocation) (*GeolocationResult, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	if g.Accuracy == 0 {
		g.Accuracy = DefaultGeoAccuracy
	}
	origin, err := p.setGeoPermission(ctx, cdpbrowser.PermissionSettingGranted)
	if err != nil {
		return nil, err
	}
	params := emulation.SetGeolocationOverrideParams{Latitude: &g.Latitude, Longitude: &g.Longitude, Accuracy: &g.Accuracy}
	if _, err := cdp.Call(ctx, p.sess, emulation.SetGeolocationOverride, params); err != nil {
		return nil, fmt.Errorf("geolocation: %w", err)
	}
	return &GeolocationResult{Latitude: &g.Latitude, Longitude: &g.Longitude, Accuracy: &g.Accuracy, Permission: "granted", Origin: origin}, nil
}

// ClearGeolocation removes the position override and returns the
// permission to prompting.
func (p *Page) ClearGeolocation(ctx context.Context) (*GeolocationResult, error) {
	if _, err := cdp.Call(ctx, p.sess, emulation.ClearGeolocationOverride, cdp.Empty{}); err != nil {
		return nil, fmt.Errorf("geolocation clear: %w", err)
	}
	origin, err := p.setGeoPermission(ctx, cdpbrowser.PermissionSettingPrompt)
	if err != nil {
		return nil, err
	}
	return &GeolocationResult{Permission: "prompt", Origin: origin, Cleared: true}, nil
}

// check validates the coordinates.
func (g Geolocation) check() error {
	switch {
	case math.IsNaN(g.Latitude) || g.Latitude < -90 || g.Latitude > 90:
		return Errorf(KindStepValidation, "geolocation latitude must be between -90 and 90, not %g", g.Latitude)
	case math.IsNaN(g.Longitude) || g.Longitude < -180 || g.Longitude > 180:
		return Errorf(KindStepValidation, "geolocation longitude must be between -180 and 180, not %g", g.Longitude)
	case math.IsNaN(g.Accuracy) || g.Accuracy < 0:
		return Errorf(KindStepValidation, "geolocation accuracy must be 0 or more metres, not %g", g.Accuracy)
	}
	return nil
}

// setGeoPermission sets the geolocation permission of the page's origin
// (every origin when the page has none) in the tab's browser context, and
// returns the origin ("*" for all).
func (p *Page) setGeoPermission(ctx context.Context, setting cdpbrowser.PermissionSetting) (string, error) {
	bc, err := p.browserContextID(ctx)
	if err != nil {
		return "", fmt.Errorf("geolocation: %w", err)
	}
	origin := p.pageOrigin(ctx)
	params := cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "geolocation"}, Setting: setting, Origin: origin, BrowserContextID: bc,
	}
	if _, err := cdp.Call(ctx, p.Browser.Session(), cdpbrowser.SetPermission, params); err != nil {
		return "", fmt.Errorf("geolocation: set the permission: %w", err)
	}
	if origin == "" {
		origin = "*"
	}
	return origin, nil
}

// pageOrigin returns the top document's origin, or "" when it has none
// (about:blank, data: URLs).
func (p *Page) pageOrigin(ctx context.Context) string {
	raw, err := p.URL(ctx)
	if err != nil {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
