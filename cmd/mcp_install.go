package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// mcpSetup is what install-skill --mcp reports for one client.
type mcpSetup struct {
	// Command is the one line that registers the server (Claude Code).
	Command string `json:"command,omitempty"`
	// Config is the file written (Codex) and TOML the table it holds.
	Config  string `json:"config,omitempty"`
	TOML    string `json:"toml,omitempty"`
	Written bool   `json:"written,omitempty"`
	Note    string `json:"note,omitempty"`
}

// claudeMCPCommand is the command that adds the server to Claude Code.
func claudeMCPCommand(bin string) string {
	return "claude mcp add cdp-skill -- " + shellQuote(bin) + " mcp"
}

// codexMCPTable is the server's table in Codex's config.toml.
func codexMCPTable(bin string) string {
	name, _ := json.Marshal(bin) // a JSON string is a valid TOML basic string
	return "[mcp_servers.cdp-skill]\ncommand = " + string(name) + "\nargs = [\"mcp\"]\n"
}

var codexTableHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*\[\s*mcp_servers\s*\.\s*("?)cdp-skill("?)\s*\]`)
})

// installCodexMCP adds the server's table to the Codex config at path,
// keeping what is there; a table already present is left alone.
func installCodexMCP(path, bin string) (mcpSetup, error) {
	s := mcpSetup{Config: path, TOML: codexMCPTable(bin)}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return s, fmt.Errorf("read %s: %w", path, err)
	}
	if codexTableHeader().Match(old) {
		s.Note = "config.toml already has [mcp_servers.cdp-skill]; left as is"
		return s, nil
	}
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if text != "" {
		text += "\n"
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return s, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	perm := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := state.WriteFileAtomic(path, []byte(text+s.TOML), perm); err != nil {
		return s, err
	}
	s.Written = true
	return s, nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// installMCP sets up `cdp-skill mcp` for the chosen clients and prints
// what it did.
func (a *app) installMCP(home, bin string, claude, codex bool) error {
	out := map[string]any{"status": "ok", "binary": bin}
	if claude {
		out["claude"] = mcpSetup{Command: claudeMCPCommand(bin), Note: "run this command to add the server to Claude Code"}
	}
	if codex {
		s, err := installCodexMCP(filepath.Join(home, ".codex", "config.toml"), bin)
		if err != nil {
			a.exitCode = 1
			writeJSON(a.stdout, map[string]any{"status": "error", "error": map[string]string{"type": "EXECUTION", "message": err.Error()}})
			return nil
		}
		out["codex"] = s
	}
	writeJSON(a.stdout, out)
	return nil
}
