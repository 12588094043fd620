package browser

import "github.com/cdp-skill/cdp-skill/browser/traffic"

// A tab's network is its own package (traffic): the request log, the
// routes that intercept requests, the file guard's interception of file:
// loads, and the HAR export. These names keep the browser package's API
// as it was.
type (
	// Network is a tab's network (traffic.Network); reach it by
	// Page.Network.
	Network = traffic.Network
	// Request is one request of the log (traffic.Request).
	Request = traffic.Request
	// NetworkFilter selects requests of the log (traffic.NetworkFilter).
	NetworkFilter = traffic.NetworkFilter
	// URLMatcher matches URLs by glob or regexp (traffic.URLMatcher).
	URLMatcher = traffic.URLMatcher
	// ResponseWait is what WaitForResponse waits for (traffic.ResponseWait).
	ResponseWait = traffic.ResponseWait
	// ResponseResult is the response it found (traffic.ResponseResult).
	ResponseResult = traffic.ResponseResult
	// Route intercepts the requests it matches (traffic.Route).
	Route = traffic.Route
	// RouteRequest is a request a route sees (traffic.RouteRequest).
	RouteRequest = traffic.RouteRequest
	// RouteDecision is what a route does with it (traffic.RouteDecision).
	RouteDecision = traffic.RouteDecision
	// HARRequest is a HAR export's request (traffic.HARRequest).
	HARRequest = traffic.HARRequest
	// HARResult is what the export wrote (traffic.HARResult).
	HARResult = traffic.HARResult
)

// Route actions.
const (
	RouteFulfill  = traffic.RouteFulfill
	RouteAbort    = traffic.RouteAbort
	RouteContinue = traffic.RouteContinue
)

// The network's checks and helpers (see package traffic).
var (
	NewURLMatcher      = traffic.NewURLMatcher
	CheckStatusFilter  = traffic.CheckStatusFilter
	CheckResourceTypes = traffic.CheckResourceTypes
	ResourceTypes      = traffic.ResourceTypes
	CheckAbortReason   = traffic.CheckAbortReason
	ReadRouteFile      = traffic.ReadRouteFile
	RedactURL          = traffic.RedactURL
)
