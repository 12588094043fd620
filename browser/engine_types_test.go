package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/internal/npmcache"
)

// EnvTypeScriptCache names the directory the pinned TypeScript compiler
// is installed under (one subdirectory per lockfile hash). Without it it
// goes under os.UserCacheDir()/cdp-skill/typescript.
const EnvTypeScriptCache = "CDP_SKILL_TYPESCRIPT_CACHE"

// TestEngineTypeChecks runs the TypeScript compiler (pinned in
// testdata/typescript, installed with npm ci once) over the in-page
// engine's modules with their JSDoc types and the shared declarations of
// inpage/types.d.ts, as inpage/tsconfig.json sets it up (checkJs, noEmit):
// a wrong property, a call with the wrong arguments, a name used without
// its import or an import left unused fails here. When npm is missing or
// the install fails the test fails in CI (CI=true) and skips elsewhere,
// the rule browsertest applies to Chromium.
func TestEngineTypeChecks(t *testing.T) {
	tsc := typeScriptCompiler(t)
	cmd := exec.Command("node", tsc, "-p", "inpage/tsconfig.json", "--pretty", "false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tsc --checkJs over browser/inpage failed (%v):\n%s", err, strings.TrimSpace(string(out)))
	}
}

// typeScriptCompiler returns the path of the pinned tsc script.
func typeScriptCompiler(t *testing.T) string {
	t.Helper()
	dir, err := installTypeScript()
	if err != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("TypeScript unavailable (%v); CI=true makes this a failure", err)
		}
		t.Fatalf("TypeScript unavailable: %v", err)
	}
	return filepath.Join(dir, "node_modules", "typescript", "bin", "tsc")
}

// installTypeScript installs testdata/typescript's lockfile with `npm ci`
// into <cache>/<hash of the lockfile>, unless an earlier run did.
func installTypeScript() (string, error) {
	root, err := npmcache.CacheRoot(EnvTypeScriptCache, "typescript")
	if err != nil {
		return "", err
	}
	return npmcache.Install(npmcache.Set{What: "TypeScript", Dir: "testdata/typescript", Root: root})
}
