package runtime

import (
	"os"
	"strings"
	"testing"
)

func TestSnapshotStep(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`three.html"},{"snapshot":true}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	first := stepOutput(t, out, 1)
	id, _ := first["snapshotId"].(string)
	if !strings.HasPrefix(id, "s") || !strings.Contains(first["yaml"].(string), `heading "Three" [level=1]`) {
		t.Fatalf("snapshot: %s", jsonString(first))
	}
	out = runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"wait":1},{"snapshot":{"since":"`+id+`"}},{"snapshot":{"inlineLimit":20}}]}`)
	mustOK(t, out)
	same := stepOutput(t, out, 1)
	if same["unchanged"] != true || same["snapshotId"] != id || same["yaml"] != nil {
		t.Errorf("since: %s", jsonString(same))
	}
	big := stepOutput(t, out, 2)
	path, _ := big["file"].(string)
	data, err := os.ReadFile(path)
	if err != nil || big["truncatedInline"] != true || !strings.HasPrefix(string(data), big["yaml"].(string)) || !strings.Contains(string(data), `listitem: c`) {
		t.Errorf("inlineLimit: %s (file %q: %v)", jsonString(big), data, err)
	}
	if len(big["yaml"].(string)) > 20 {
		t.Errorf("inline part is %d bytes", len(big["yaml"].(string)))
	}
}

func TestSnapshotSearchAndQuerySteps(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`one.html"},{"snapshotSearch":"two"},{"query":{"role":"link","output":"name"}},{"query":"h1"},{"snapshot":{"detail":"bogus"}}]}`)
	closeTabAfter(t, out)
	search := stepOutput(t, out, 1)
	if search["matchCount"] != 1.0 || jsonString(search["criteria"]) != `{"text":"two"}` {
		t.Errorf("search: %s", jsonString(search))
	}
	q := stepOutput(t, out, 2)
	res := q["results"].([]any)[0].(map[string]any)
	if res["name"] != "to two" || res["ref"] == nil {
		t.Errorf("role query: %s", jsonString(q))
	}
	css := stepOutput(t, out, 3)
	if css["selector"] != "h1" || css["results"].([]any)[0].(map[string]any)["value"] != "One" {
		t.Errorf("css query: %s", jsonString(css))
	}
	if s := out.Steps[4]; s.ErrorType != "StepValidationError" {
		t.Errorf("bad detail: %s", jsonString(s))
	}
	// The search's ref is the same the next snapshot shows.
	snap := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"snapshot":true}]}`)
	ref := search["matches"].([]any)[0].(map[string]any)["ref"].(string)
	if !strings.Contains(stepOutput(t, snap, 0)["yaml"].(string), "[ref="+ref+"]") {
		t.Errorf("ref %s from the search is not in the later snapshot: %s", ref, snap.JSON())
	}
}
