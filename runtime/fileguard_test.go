package runtime

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser"
)

// TestFilePolicyHoldsAcrossCommands (issue 31, item 3) drives the hostile
// fixture through the JSON frontend: a page opened from an allowed
// directory frames a file outside it, and a later command's pageFunction
// sets location.href to it. No answer shows the file; each says a load
// was refused and why.
func TestFilePolicyHoldsAcrossCommands(t *testing.T) {
	root, err := filepath.Abs("../browser/testdata/fileconfine")
	if err != nil {
		t.Fatal(err)
	}
	allowed := filepath.Join(root, "allowed")
	t.Setenv(browser.FileDirsEnv, allowed)
	open := runJSON(t, `{"steps":[{"openTab":"file://`+allowed+`/index.html"},{"snapshot":true}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	if strings.Contains(string(open.JSON()), "TOP-SECRET") {
		t.Fatalf("the answer shows the local file outside the allowed directory: %s", string(open.JSON()))
	}
	mustContain(t, string(open.JSON()), "secret.html", "refused", browser.FileDirsEnv)
	move := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"pageFunction":"location.href = '../secret.html'; 1"},{"wait":{"url":"chrome-error"}}]}`)
	look := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"pageFunction":"document.body.innerText"}]}`)
	if strings.Contains(string(string(move.JSON()))+string(look.JSON()), "TOP-SECRET") {
		t.Fatalf("location.href reached the file outside the allowed directory:\n%s\n%s", move.JSON(), look.JSON())
	}
	mustContain(t, string(move.JSON()), "secret.html", "refused")
}
