//go:build unix

package cmd

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/internal/pooltest"
)

// exampleDomain stands in for https://example.com, which the README's
// commands open (this machine has no internet): the same heading and link.
const exampleDomain = `<!doctype html><title>Example Domain</title><h1>Example Domain</h1>
<p>This domain is for use in documentation examples.</p>
<p><a href="more.html" onclick="window.followed = (window.followed || 0) + 1">More information...</a></p>`

// TestReadmePoolSectionWorksAsWritten runs the commands of the README's
// "Run on a browser pool" section as they are written, against a pool
// started from npm the way the README's last paragraph says (the section's
// `docker run` line is the one part replaced: there is no Docker here), with
// example.com served locally. The first command's tab is the "t1" the
// second one names, and the second command's click follows the link.
func TestReadmePoolSectionWorksAsWritten(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile("(?s)## Run on a browser pool\n.*?```sh\n(.*?)```").FindSubmatch(readme)
	if section == nil {
		t.Fatal(`README.md has no "## Run on a browser pool" section with a sh block`)
	}
	var commands []string
	var endpoint string
	for _, line := range strings.Split(string(section[1]), "\n") {
		switch {
		case strings.HasPrefix(line, "docker run "):
		case strings.HasPrefix(line, "export CDP_SKILL_ENDPOINT="):
			endpoint = strings.Trim(strings.TrimPrefix(line, "export CDP_SKILL_ENDPOINT="), "'")
		case strings.HasPrefix(line, "cdp-skill '"):
			commands = append(commands, strings.TrimSuffix(strings.TrimPrefix(line, "cdp-skill '"), "'"))
		case strings.TrimSpace(line) != "":
			t.Fatalf("the README's pool section has a line this test does not know how to run: %q", line)
		}
	}
	if endpoint == "" || len(commands) != 2 {
		t.Fatalf("expected an export of CDP_SKILL_ENDPOINT and two commands, got %q and %q", endpoint, commands)
	}
	if !strings.Contains(endpoint, "?token=s3cret") {
		t.Fatalf("the README's endpoint %q does not carry the token the docker line sets", endpoint)
	}
	pool := pooltest.Start(t, pooltest.Options{})
	site := browsertest.Serve(t, fstest.MapFS{
		"index.html": {Data: []byte(exampleDomain)},
		"more.html":  {Data: []byte(`<!doctype html><title>More</title><h1>IANA-managed Reserved Domains</h1>`)},
	})
	a := newPoolAgent(t, pool.URL())
	var last result
	for i, c := range commands {
		c = strings.ReplaceAll(c, "https://example.com", site+"index.html")
		last = a.ok(c)
		if i == 0 && last.field("tab") != "t1" {
			t.Fatalf("the README's second command names t1, the first answered tab %v: %s", last.field("tab"), last.stdout)
		}
	}
	if !strings.Contains(string(last.stdout), "IANA-managed Reserved Domains") {
		t.Fatalf("the README's click did not reach the linked page: %s", last.stdout)
	}
	a.noToken(pool.Token)
}
