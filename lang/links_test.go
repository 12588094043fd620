//go:build unix

package lang

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadRefusesHardLinks (issue 31, Low): load() of a hard link to a
// file outside the recipe's directory is refused, as uploads refuse one;
// a plain file next to the recipe still loads.
func TestLoadRefusesHardLinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.star")
	os.WriteFile(secret, []byte("x = 1\n"), 0o600)
	if err := os.Link(secret, filepath.Join(dir, "linked.star")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "plain.star"), []byte("y = 2\n"), 0o600)
	r := &Resolver{Dir: dir}
	from := filepath.Join(dir, "main.star")
	if _, _, err := r.Resolve(from, "linked.star"); !errors.Is(err, ErrLoadDenied) || !strings.Contains(err.Error(), "hard links") {
		t.Fatalf("load of a hard link: %v", err)
	}
	if _, src, err := r.Resolve(from, "plain.star"); err != nil || string(src) != "y = 2\n" {
		t.Fatalf("load of a plain file: %q %v", src, err)
	}
}
