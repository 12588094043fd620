package cmd

import (
	"debug/buildinfo"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// notLinked are packages the binary must not link: every linked package's
// init runs at the start of every command (the MCP Go SDK's cost about
// 0.34 ms a process). The tests may import the SDK's client; a test-only
// import is not linked.
var notLinked = []string{
	"github.com/modelcontextprotocol/",
	"github.com/google/jsonschema-go",
	"golang.org/x/oauth2",
	"encoding/gob",
}

// TestBinaryDoesNotLinkMCPSDK checks the packages of cmd/cdp-skill (go
// list -deps) and the modules recorded in the built binary.
func TestBinaryDoesNotLinkMCPSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../cmd/cdp-skill").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 100 || !slices.Contains(pkgs, "github.com/cdp-skill/cdp-skill/cmd") {
		t.Fatalf("go list -deps listed %d packages, not those of cdp-skill: %s", len(pkgs), out)
	}
	for _, p := range pkgs {
		if linkedBanned(p) {
			t.Errorf("cdp-skill links %s", p)
		}
	}
	info, err := buildinfo.ReadFile(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Deps) == 0 {
		t.Fatal("the binary records no modules")
	}
	for _, m := range info.Deps {
		if linkedBanned(m.Path) {
			t.Errorf("the binary holds module %s %s", m.Path, m.Version)
		}
	}
}

func linkedBanned(path string) bool {
	for _, bad := range notLinked {
		if path == strings.TrimSuffix(bad, "/") || strings.HasPrefix(path, strings.TrimSuffix(bad, "/")+"/") {
			return true
		}
	}
	return false
}
