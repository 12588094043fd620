package corpus

import (
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// site is the corpus's web server: the pages, node_modules and the
// esbuild bundles, on 127.0.0.1 and, as a second site for cross-site
// iframes, on 127.0.0.2.
type site struct {
	Top   string // http://127.0.0.1:port/
	Cross string // http://127.0.0.2:port/
}

var (
	siteOnce sync.Once
	theSite  site
	siteErr  error
)

// serve returns the corpus site, starting it on first use. It lives for the
// test binary: every test's tab loads the libraries from the same origin,
// so Chrome's cache serves them after the first.
func serve(t testing.TB) site {
	t.Helper()
	dir := widgets(t)
	siteOnce.Do(func() { theSite, siteErr = startSite(dir) })
	if siteErr != nil {
		t.Fatalf("corpus site: %v", siteErr)
	}
	return theSite
}

func startSite(dir string) (site, error) {
	modules, err := moduleFS(dir)
	if err != nil {
		return site{}, err
	}
	bundles, err := buildBundles(dir)
	if err != nil {
		return site{}, err
	}
	mux := http.NewServeMux()
	mux.Handle("/node_modules/", cached(http.StripPrefix("/node_modules/", http.FileServerFS(modules))))
	mux.Handle("/bundle/", cached(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		js, ok := bundles[strings.TrimPrefix(r.URL.Path, "/bundle/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(js)
	})))
	mux.Handle("/", http.FileServerFS(os.DirFS("testdata/pages")))
	top, err := listen("127.0.0.1", mux)
	if err != nil {
		return site{}, err
	}
	cross, err := listen("127.0.0.2", mux)
	if err != nil {
		return site{}, err
	}
	return site{Top: top, Cross: cross}, nil
}

// cached lets Chrome keep the libraries for the binary's run.
func cached(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		h.ServeHTTP(w, r)
	})
}

func listen(host string, h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", fmt.Errorf("listen on %s: %w", host, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	return srv.URL + "/", nil
}

// buildBundles bundles each testdata/bundles/*.js entry (for libraries
// published as ES modules only) into an IIFE served as /bundle/<name>.
func buildBundles(dir string) (map[string][]byte, error) {
	entries, err := fs.Glob(os.DirFS("testdata/bundles"), "*.js")
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, name := range entries {
		src, err := os.ReadFile(filepath.Join("testdata/bundles", name))
		if err != nil {
			return nil, err
		}
		res := api.Build(api.BuildOptions{
			Stdin:       &api.StdinOptions{Contents: string(src), ResolveDir: dir, Sourcefile: name, Loader: api.LoaderJS},
			Bundle:      true,
			Format:      api.FormatIIFE,
			Platform:    api.PlatformBrowser,
			Target:      api.ES2020,
			Write:       false,
			LogLevel:    api.LogLevelSilent,
			TreeShaking: api.TreeShakingTrue,
		})
		if len(res.Errors) > 0 {
			return nil, fmt.Errorf("bundle %s: %s", name, res.Errors[0].Text)
		}
		if len(res.OutputFiles) != 1 {
			return nil, fmt.Errorf("bundle %s: esbuild wrote %d files", name, len(res.OutputFiles))
		}
		out[name] = res.OutputFiles[0].Contents
	}
	return out, nil
}
