// Package examples holds runnable recipes and JSON step files, and the small
// demo site they run against. The site is embedded and served on loopback;
// the test suite runs every example.
package examples

import (
	"embed"
	"io/fs"
	"net"
	"net/http"
)

//go:embed site
var siteFiles embed.FS

//go:embed *.star *.json
var files embed.FS

// Site is the demo site's file tree.
var Site, _ = fs.Sub(siteFiles, "site")

// Files holds the example recipes (*.star) and JSON commands (*.json).
var Files fs.FS = files

// Server serves the demo site on 127.0.0.1.
type Server struct {
	// URL is the base URL, ending in a slash.
	URL string
	srv *http.Server
}

// Serve starts the demo site on a free loopback port (or addr when given).
func Serve(addr string) (*Server, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.FileServerFS(Site)}
	go srv.Serve(ln)
	return &Server{URL: "http://" + ln.Addr().String() + "/", srv: srv}, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }
