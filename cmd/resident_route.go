package cmd

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// The warm path follows the tab's endpoint: a command on a tab that lives
// on another Chrome than the command line's default (opened with
// openTab's port, host or endpoint) is served by the resident process and
// dialog keeper of that Chrome, and nothing starts for a port the agent
// never named. The command's default endpoint (for tabs it opens without
// naming one) is unchanged: it travels with the request.

// routeFor sets a.route to the endpoint the command's work lives on when
// it is not the default one: the registry entry of its tab, else the
// endpoint its first step's openTab names.
func (a *app) routeFor(input []byte, tab string) {
	a.route = nil
	var peek struct {
		Tab     string `json:"tab"`
		Timeout any    `json:"timeout"`
		Steps   []struct {
			OpenTab json.RawMessage `json:"openTab"`
		} `json:"steps"`
	}
	if input != nil && json.Unmarshal(input, &peek) == nil && tab == "" {
		tab = peek.Tab
	}
	if ms, ok := peek.Timeout.(float64); ok && ms > 0 {
		a.cmdTimeout = time.Duration(ms) * time.Millisecond
	}
	ep, ok := a.tabEndpoint(tab)
	if !ok && tab == "" && len(peek.Steps) > 0 {
		ep, ok = openTabEndpoint(peek.Steps[0].OpenTab, a.port)
	}
	if !ok || !routable(ep) || sameEndpoint(ep, a.endpointOption()) {
		return
	}
	a.route = &ep
}

// tabEndpoint is the endpoint of the registered tab alias, if any.
func (a *app) tabEndpoint(tab string) (chrome.Endpoint, bool) {
	if tab == "" || !state.IsAlias(tab) {
		return chrome.Endpoint{}, false
	}
	reg, err := state.OpenRegistry()
	if err != nil {
		return chrome.Endpoint{}, false
	}
	entry, err := reg.Lookup(tab)
	if err != nil || entry.Endpoint == "" && entry.Host == "" && entry.Port == 0 {
		return chrome.Endpoint{}, false // unknown, or on the default endpoint
	}
	chrome.Remember(a.endpointOption())
	return browser.EndpointOf(entry).Normalize(), true
}

// openTabEndpoint is the endpoint an openTab step names, if it names one.
func openTabEndpoint(raw json.RawMessage, defPort int) (chrome.Endpoint, bool) {
	var o struct {
		Host     string          `json:"host"`
		Port     json.RawMessage `json:"port"`
		Endpoint string          `json:"endpoint"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &o) != nil {
		return chrome.Endpoint{}, false
	}
	if o.Endpoint != "" {
		return chrome.Endpoint{URL: o.Endpoint}, true
	}
	port := defPort
	if len(o.Port) > 0 {
		n, err := strconv.Atoi(string(o.Port))
		if err != nil || n <= 0 {
			return chrome.Endpoint{}, false
		}
		port = n
	}
	if o.Host == "" && len(o.Port) == 0 {
		return chrome.Endpoint{}, false
	}
	return chrome.Endpoint{Host: o.Host, Port: port}.Normalize(), true
}

// routable reports whether a resident process can serve ep: a local port
// (it is started with --port) or a remote URL.
func routable(ep chrome.Endpoint) bool {
	return ep.Remote() || ep.Local() && ep.Host == "127.0.0.1"
}

// sameEndpoint compares two endpoints, credentials included.
func sameEndpoint(x, y chrome.Endpoint) bool {
	x, y = x.Normalize(), y.Normalize()
	return x.URL == y.URL && x.Host == y.Host && x.Port == y.Port
}

// served is the endpoint the resident process and dialog keeper of this
// command serve: its tab's (a.route) or the default.
func (a *app) served() chrome.Endpoint {
	if a.route != nil {
		return *a.route
	}
	return a.endpointOption()
}
