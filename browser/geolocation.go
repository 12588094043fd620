package browser

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"

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
	// origin it applies to ("*": every origin; after clear, the origins
	// reset, separated by spaces).
	Permission string `json:"permission"`
	Origin     string `json:"origin"`
	Cleared    bool   `json:"cleared,omitempty"`
}

// SetGeolocation makes navigator.geolocation report g and grants the
// geolocation permission, so the page gets the position without a prompt.
// The permission is for the page's origin, or for every origin while the
// tab shows no web page (so a page loaded next gets it). Both last as long
// as this connection to the tab. The origins granted are remembered, so
// that ClearGeolocation revokes them.
func (e *Emulation) SetGeolocation(ctx context.Context, g Geolocation) (*GeolocationResult, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	if g.Accuracy == 0 {
		g.Accuracy = DefaultGeoAccuracy
	}
	origin, err := e.pageOrigin(ctx)
	if err != nil {
		return nil, err
	}
	e.noteGeoGrant(origin)
	e.p.noteOverride(func(o *commandOverrides) { o.geolocation = true })
	if err := e.setGeoPermission(ctx, cdpbrowser.PermissionSettingGranted, origin); err != nil {
		return nil, err
	}
	params := emulation.SetGeolocationOverrideParams{Latitude: &g.Latitude, Longitude: &g.Longitude, Accuracy: &g.Accuracy}
	if _, err := cdp.Call(ctx, e.p.sess, emulation.SetGeolocationOverride, params); err != nil {
		return nil, fmt.Errorf("geolocation: %w", err)
	}
	return &GeolocationResult{Latitude: &g.Latitude, Longitude: &g.Longitude, Accuracy: &g.Accuracy, Permission: "granted", Origin: geoOriginName(origin)}, nil
}

// ClearGeolocation removes the position override and returns the
// permission to prompting: for every origin SetGeolocation granted through
// this Page (the tab may have navigated since), or, when it granted none,
// for the page's origin.
func (e *Emulation) ClearGeolocation(ctx context.Context) (*GeolocationResult, error) {
	if _, err := cdp.Call(ctx, e.p.sess, emulation.ClearGeolocationOverride, cdp.Empty{}); err != nil {
		return nil, fmt.Errorf("geolocation clear: %w", err)
	}
	origins := e.takeGeoGrants()
	if len(origins) == 0 {
		origin, err := e.pageOrigin(ctx)
		if err != nil {
			return nil, err
		}
		origins = []string{origin}
	}
	for i, origin := range origins {
		if err := e.setGeoPermission(ctx, cdpbrowser.PermissionSettingPrompt, origin); err != nil {
			for _, o := range origins[i:] {
				e.noteGeoGrant(o) // still granted: a later clear retries
			}
			return nil, err
		}
	}
	shown := make([]string, len(origins))
	for i, o := range origins {
		shown[i] = geoOriginName(o)
	}
	return &GeolocationResult{Permission: "prompt", Origin: strings.Join(shown, " "), Cleared: true}, nil
}

// noteGeoGrant records that origin was granted through this tab.
func (e *Emulation) noteGeoGrant(origin string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !slices.Contains(e.geoOrigins, origin) {
		e.geoOrigins = append(e.geoOrigins, origin)
	}
}

// takeGeoGrants returns the origins granted through p, oldest first, and
// forgets them.
func (e *Emulation) takeGeoGrants() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	origins := e.geoOrigins
	e.geoOrigins = nil
	return origins
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

// setGeoPermission sets the geolocation permission of origin ("" = every
// origin) in the tab's browser context.
func (e *Emulation) setGeoPermission(ctx context.Context, setting cdpbrowser.PermissionSetting, origin string) error {
	bc, err := e.p.browserContextID(ctx)
	if err != nil {
		return fmt.Errorf("geolocation: %w", err)
	}
	params := cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "geolocation"}, Setting: setting, Origin: origin, BrowserContextID: bc,
	}
	if _, err := cdp.Call(ctx, e.p.Browser.Session(), cdpbrowser.SetPermission, params); err != nil {
		return fmt.Errorf("geolocation: set the permission of %s to %s: %w", geoOriginName(origin), setting, err)
	}
	return nil
}

// geoOriginName is the origin as reported: "*" for every origin.
func geoOriginName(origin string) string {
	if origin == "" {
		return "*"
	}
	return origin
}

// pageOrigin returns the top document's origin, or "" when it has none
// (about:blank, data: URLs). A URL that cannot be read is an error, not
// "no origin": that would grant every origin.
func (e *Emulation) pageOrigin(ctx context.Context) (string, error) {
	raw, err := e.p.URL(ctx)
	if err != nil {
		return "", fmt.Errorf("geolocation: read the page's URL for its origin: %w", err)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("geolocation: the page's URL %q: %w", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", nil
	}
	return u.Scheme + "://" + u.Host, nil
}
