package browser

import "github.com/cdp-skill/cdp-skill/browser/cdpconn"

// The CDP connection is its own package (cdpconn): a WebSocket to Chrome,
// its flat sessions, their event streams and what the connection knows
// about a session's page that stopped answering. These names keep the
// browser package's API as it was.
type (
	// Conn is a CDP connection to a browser (cdpconn.Conn).
	Conn = cdpconn.Conn
	// Session is one CDP session on a connection (cdpconn.Session).
	Session = cdpconn.Session
	// ProtocolError is an error answer from Chrome (cdpconn.ProtocolError).
	ProtocolError = cdpconn.ProtocolError
	// ConnectionError means Chrome or the tab cannot be reached
	// (cdpconn.ConnectionError).
	ConnectionError = cdpconn.ConnectionError
	// ConnLostError is a connection whose other end closed it
	// (cdpconn.ConnLostError).
	ConnLostError = cdpconn.ConnLostError
	// HandshakeError is a refused WebSocket dial (cdpconn.HandshakeError).
	HandshakeError = cdpconn.HandshakeError
	// TabGoneError is a tab attached by an alias that is no longer open
	// (cdpconn.TabGoneError).
	TabGoneError = cdpconn.TabGoneError
)

// Dial connects to a browser-level WebSocket URL (cdpconn.Dial).
var Dial = cdpconn.Dial

// The connection's sentinel errors, texts and recovery hints.
var (
	ErrConnClosed  = cdpconn.ErrConnClosed
	ErrTabNotFound = cdpconn.ErrTabNotFound
	CrashHint      = cdpconn.CrashHint
	Reload         = cdpconn.Reload
	CloseTab       = cdpconn.CloseTab
)

// TabClosedText says a tab closed during a step (cdpconn.TabClosedText).
const TabClosedText = cdpconn.TabClosedText
