package builtins

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestRefsMapReadsSnapshotLines(t *testing.T) {
	yaml := `# scoped to main
- main:
  - heading "Account settings" [level=1]
  - button "Save" [ref=s1e2]
  - textbox "Email" [required] [invalid] [ref=s1e4]: "a@b.c"
  - link "Open help" [ref=s1e3] [url=/one.html]
  - generic [clickable] [ref=s1e5]
  - button "Say \"hi\" [ref=s9e9]" [ref=s2e1]
  - iframe "Pay" [ref=s1e6]:
    - checkbox "Remember me" [checked] [ref=s1e9]
  - text: see [ref=s1e7]
  - paragraph: a [ref=s1e8] in text`
	want := map[string]RefEntry{
		"s1e2": {Role: "button", Name: "Save"},
		"s1e4": {Role: "textbox", Name: "Email"},
		"s1e3": {Role: "link", Name: "Open help"},
		"s1e5": {Role: "generic"},
		"s2e1": {Role: "button", Name: `Say "hi" [ref=s9e9]`},
		"s1e6": {Role: "iframe", Name: "Pay"},
		"s1e9": {Role: "checkbox", Name: "Remember me"},
	}
	if got := refsMap(yaml); !reflect.DeepEqual(got, want) {
		t.Errorf("refsMap =\n%v\nwant\n%v", got, want)
	}
}

// BenchmarkRefsMap reads the refs map off a 2,500-ref snapshot (what a
// snapshot above 1000 refs pays for its refs file).
//
//	go test ./builtins -run '^$' -bench RefsMap
func BenchmarkRefsMap(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("- main:\n")
	for i := range 2500 {
		fmt.Fprintf(&sb, "  - textbox \"Field number %d\" [required] [ref=s1e%d]: \"\"\n", i, i+1)
	}
	yaml := sb.String()
	b.SetBytes(int64(len(yaml)))
	for b.Loop() {
		if len(refsMap(yaml)) != 2500 {
			b.Fatal("refs lost")
		}
	}
}
