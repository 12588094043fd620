package browser

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestSnapshotGolden renders each testdata/snapshot/*.txtar page.html with
// the options of options.json and compares with want.yaml.

// refNumbers matches the snapshot number of a ref.
var refNumbers = regexp.MustCompile(`(\[ref=)s[0-9]+e`)

func TestSnapshotGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/snapshot/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			parts := map[string]string{}
			for _, f := range ar.Files {
				parts[f.Name] = string(f.Data)
			}
			var opts SnapshotOptions
			if o := parts["options.json"]; o != "" {
				if err := json.Unmarshal([]byte(o), &opts); err != nil {
					t.Fatalf("options.json: %v", err)
				}
			}
			p := loadHTML(t, parts["page.html"])
			if s := parts["setup.js"]; s != "" {
				if _, err := p.Eval(testCtx(t), s); err != nil {
					t.Fatalf("setup.js: %v", err)
				}
			}
			s, err := p.Snapshot(testCtx(t), opts)
			if err != nil {
				t.Fatal(err)
			}
			// Snapshot numbers are shared by all tabs; the goldens say s1.
			got := refNumbers.ReplaceAllString(s.YAML, "${1}s1e") + "\n"
			if *update {
				found := false
				for i, f := range ar.Files {
					if f.Name == "want.yaml" {
						ar.Files[i].Data = []byte(got)
						found = true
					}
				}
				if !found {
					ar.Files = append(ar.Files, txtar.File{Name: "want.yaml", Data: []byte(got)})
				}
				os.WriteFile(file, txtar.Format(ar), 0o644)
				return
			}
			if got != parts["want.yaml"] {
				t.Errorf("snapshot:\n%s\nwant:\n%s", got, parts["want.yaml"])
			}
		})
	}
}
