package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestEngineRolesAndNamesMatchFixtures checks the in-page engine's role and
// accessible name for every marked fixture element (the expectations are
// proven against Chromium by TestAccnameFixturesAgreeWithChromium). The
// engine's full name must equal Chromium's exactly, spaces and NBSP
// included; the name snapshots show is that name with its ASCII spaces
// trimmed from the ends.
func TestEngineRolesAndNamesMatchFixtures(t *testing.T) {
	base := browsertest.Serve(t, os.DirFS("testdata/accname"))
	pages, _ := filepath.Glob("testdata/accname/*.html")
	total, failed := 0, 0
	for _, page := range pages {
		name := filepath.Base(page)
		t.Run(name, func(t *testing.T) {
			p := openTestTab(t)
			ctx := testCtx(t)
			if _, err := p.Navigate(ctx, base+name, WaitLoad); err != nil {
				t.Fatal(err)
			}
			if err := p.engineCall(ctx, nil, epDescribe, nil); err != nil && !strings.Contains(err.Error(), "null") {
				// installs the engine; describe(null) may throw
			}
			var got []struct {
				ID, Tag, WantRole, WantName, Role, Name, FullName string
			}
			raw, err := p.engineEval(ctx, `(() => {
				const out = [];
				const visit = (root) => {
					for (const el of root.querySelectorAll('*')) {
						if (el.hasAttribute('data-expect-role') || el.hasAttribute('data-expect-name')) {
							const d = `+epDescribe.js()+`(el);
							out.push({ID: el.id, Tag: el.tagName, WantRole: el.getAttribute('data-expect-role') || '', WantName: el.getAttribute('data-expect-name') ?? '', Role: d.role, Name: d.name, FullName: d.fullName});
						}
						if (el.shadowRoot) visit(el.shadowRoot);
					}
				};
				visit(document);
				return out;
			})()`)
			if err == nil {
				err = json.Unmarshal(raw, &got)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range got {
				total++
				if (g.WantRole != "" && g.Role != g.WantRole) || g.FullName != g.WantName {
					failed++
					t.Errorf("%s#%s: got %s %q, want %s %q", g.Tag, g.ID, g.Role, g.FullName, g.WantRole, g.WantName)
				}
				// A name from content also loses the non-breaking spaces
				// at its ends (WPT's comp_text_node), an author's keeps them.
				trimmed, content := strings.Trim(g.FullName, " \t\n\f\r"), strings.Trim(g.FullName, " \t\n\f\r\u00a0")
				if g.Name != trimmed && g.Name != content {
					t.Errorf("%s#%s: snapshot name %q is not the full name %q trimmed", g.Tag, g.ID, g.Name, g.FullName)
				}
			}
		})
	}
	t.Logf("%d elements checked, %d wrong", total, failed)
}
