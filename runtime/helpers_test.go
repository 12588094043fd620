package runtime

import (
	"strconv"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/lang"
)

func freePort() (string, error) {
	p, err := browsertest.FreePort()
	return strconv.Itoa(p), err
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func compileForTest(t *testing.T, command string) string {
	t.Helper()
	req, err := lang.ParseRequest([]byte(command))
	if err != nil {
		t.Fatal(err)
	}
	src, err := lang.Lower(req)
	if err != nil {
		t.Fatal(err)
	}
	return src
}
