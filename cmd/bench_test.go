package cmd

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/examples"
)

// BenchmarkWarmGoto is one whole invocation (process start, connect,
// attach, goto a loopback page, answer) against a running Chrome.
//
//	go test ./cmd -run '^$' -bench WarmGoto -benchtime 30x
func BenchmarkWarmGoto(b *testing.B) {
	srv, err := examples.Serve("")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	open := cli(b, b.TempDir(), nil, `{"steps":[{"openTab":"`+srv.URL+`index.html"}]}`)
	tab, _ := open.field("tab").(string)
	if tab == "" {
		b.Fatalf("openTab: %s", open.stdout)
	}
	defer cli(b, b.TempDir(), nil, `{"steps":[{"closeTab":"`+tab+`"}]}`)
	command := `{"tab":"` + tab + `","steps":[{"goto":"` + srv.URL + `products.html"}]}`
	dir := b.TempDir()
	b.ResetTimer()
	for b.Loop() {
		if r := cli(b, dir, nil, command); r.code != 0 {
			b.Fatalf("%s", r.stdout)
		}
	}
}

// BenchmarkColdLaunch is an invocation that finds no Chrome, launches one
// and opens a tab on a loopback page. Stopping Chrome is not timed.
//
//	go test ./cmd -run '^$' -bench ColdLaunch -benchtime 5x
func BenchmarkColdLaunch(b *testing.B) {
	browsertest.Require(b)
	srv, err := examples.Serve("")
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	bin := binary(b)
	for b.Loop() {
		b.StopTimer()
		port, _ := browsertest.FreePort()
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), `{"steps":[{"openTab":"`+srv.URL+`index.html"}]}`)
		cmd.Env = append(os.Environ(), EnvHeadless+"=1")
		b.StartTimer()
		out, err := cmd.Output()
		b.StopTimer()
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		chrome.Stop(context.Background(), port)
		b.StartTimer()
	}
}
