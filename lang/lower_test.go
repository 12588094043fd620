package lang

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestLowerGolden lowers each testdata/lower/*.txtar input.json and compares
// with want.star; the lowered source must also pass the static checker.
func TestLowerGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/lower/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var input, want []byte
			for _, f := range ar.Files {
				switch f.Name {
				case "input.json":
					input = f.Data
				case "want.star":
					want = f.Data
				}
			}
			req, err := ParseRequest(input)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Lower(req)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				for i, f := range ar.Files {
					if f.Name == "want.star" {
						ar.Files[i].Data = []byte(got)
					}
				}
				os.WriteFile(file, txtar.Format(ar), 0o644)
				return
			}
			if got != string(want) {
				t.Errorf("lowered:\n%s\nwant:\n%s", got, want)
			}
			if diags := Check("lowered.star", []byte(got), nil); len(diags) > 0 {
				t.Errorf("lowered source does not check: %v", diags)
			}
		})
	}
}

func TestLowerTimeoutTwice(t *testing.T) {
	req, err := ParseRequest([]byte(`{"steps":[{"goto":{"url":"a","timeout":5},"timeout":6}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lower(req); err == nil || !strings.Contains(err.Error(), "timeout is given both") {
		t.Fatalf("err = %v", err)
	}
}
