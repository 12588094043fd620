// Package traffic is a tab's network: the log of its requests (Network,
// read with Requests, Failed and WaitForResponse), the routes that
// intercept them (AddRoute: fulfill, abort, continue with changes), the
// file guard that applies the page's URL policy to every file: load
// (EnableGuard), and the HAR export of the log with secrets redacted
// (WriteHAR). It runs on one page session (cdpconn.Session) and knows no
// Page.
package traffic
