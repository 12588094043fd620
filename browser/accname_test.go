package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// engineDivergences are the fixtures where the engine deliberately differs
// from Chromium, keyed by element id, with the reason.
var engineDivergences = map[string]string{}

// normalizeName is how names are compared: whitespace runs (NBSP included)
// collapse and the ends are trimmed. Chromium keeps leading/trailing spaces
// and non-ASCII spaces; the snapshot shows trimmed, collapsed names, which
// is what an agent matches against.
func normalizeName(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u200b", "")), " ")
}

// TestEngineRolesAndNamesMatchFixtures checks the in-page engine's role and
// accessible name for every marked fixture element (the expectations are
// proven against Chromium by TestAccnameFixturesAgreeWithChromium).
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
			if err := p.engineCall(ctx, nil, "describe", nil); err != nil && !strings.Contains(err.Error(), "null") {
				// installs the engine; describe(null) may throw
			}
			var got []struct {
				ID, Tag, WantRole, WantName, Role, Name string
			}
			err := p.CallInto(ctx, &got, `() => {
				const out = [];
				const visit = (root) => {
					for (const el of root.querySelectorAll('*')) {
						if (el.hasAttribute('data-expect-role') || el.hasAttribute('data-expect-name')) {
							const d = window.__cdpSkill.describe(el);
							out.push({ID: el.id, Tag: el.tagName, WantRole: el.getAttribute('data-expect-role') || '', WantName: el.getAttribute('data-expect-name') ?? '', Role: d.role, Name: d.name});
						}
						if (el.shadowRoot) visit(el.shadowRoot);
					}
				};
				visit(document);
				return out;
			}`)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range got {
				total++
				wantRole := g.WantRole
				if reason, ok := engineDivergences[g.ID]; ok && g.ID != "" {
					t.Logf("%s#%s: diverges on purpose: %s", g.Tag, g.ID, reason)
					continue
				}
				if (wantRole != "" && g.Role != wantRole) || normalizeName(g.Name) != normalizeName(g.WantName) {
					failed++
					t.Errorf("%s#%s: got %s %q, want %s %q", g.Tag, g.ID, g.Role, g.Name, wantRole, g.WantName)
				}
			}
		})
	}
	t.Logf("%d elements checked, %d wrong", total, failed)
}
