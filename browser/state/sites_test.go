package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestNormalizeDomain(t *testing.T) {
	good := map[string]string{
		"GitHub.com": "github.com", "www.github.com": "github.com", "https://www.GitHub.com/a?b": "github.com",
		"localhost:8080": "localhost_8080", "127.0.0.1": "127.0.0.1", "http://127.0.0.1:9222/x": "127.0.0.1",
		"http://localhost:8080/": "localhost", "http://[::1]:9222/": "__1",
		"shop.example.co.uk.": "shop.example.co.uk", "my_host-1.test": "my_host-1.test",
		// Spec §15.2: anything but letters, digits, "." and "-" is "_".
		"my_site!.com": "my_site_.com", "has space.com": "has_space.com", "Bücher.de": "b_cher.de",
	}
	for in, want := range good {
		got, err := NormalizeDomain(in)
		if err != nil || got != want {
			t.Errorf("NormalizeDomain(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "../../etc", "..", "a..b", ".hidden", "/etc/passwd", "a/b", "github.com/login", "a\x00b", `a\b`, "ftp://", strings.Repeat("a", 300)} {
		if got, err := NormalizeDomain(bad); !errors.Is(err, ErrBadDomain) {
			t.Errorf("NormalizeDomain(%q) = %q, %v; want ErrBadDomain", bad, got, err)
		}
	}
}

func TestWriteReadProfileConcurrently(t *testing.T) {
	dir := t.TempDir()
	previous := SetSitesDir(dir)
	t.Cleanup(func() { SetSitesDir(previous) })
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			content := strings.Repeat(string(rune('a'+i)), 100000)
			if _, err := WriteProfile(context.Background(), Profile{Domain: "race.test", Content: content, Recipes: "def r():\n    pass\n"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	p, found, err := ReadProfile("race.test")
	if err != nil || !found {
		t.Fatal(found, err)
	}
	// Whole files only: every byte is the same writer's.
	if len(p.Content) != 100000 || strings.Count(p.Content, p.Content[:1]) != 100000 {
		t.Fatalf("torn profile: %d bytes", len(p.Content))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if p.RecipesPath != filepath.Join(dir, "race.test.star") {
		t.Errorf("recipes path %q", p.RecipesPath)
	}
}
