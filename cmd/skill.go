package cmd

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// skillFiles is the agent-facing skill: SKILL.md (the entry point an agent
// reads), EXAMPLES.md and REFERENCE.md (every step's parameters).
//
//go:embed skill/*.md
var skillFiles embed.FS

func (a *app) installSkillCommand() *cobra.Command {
	var claude, codex, mcp bool
	c := &cobra.Command{
		Use:   "install-skill",
		Short: "Install SKILL.md, EXAMPLES.md and REFERENCE.md for Claude Code (~/.claude/skills/cdp-skill) and/or Codex (~/.codex/skills/cdp-skill)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !claude && !codex {
				claude, codex = true, true
			}
			home, err := os.UserHomeDir()
			if err != nil {
				return fmt.Errorf("find the home directory: %w", err)
			}
			bin, _ := os.Executable()
			if mcp {
				return a.installMCP(home, bin, claude, codex)
			}
			var dirs []string
			if claude {
				dirs = append(dirs, filepath.Join(home, ".claude", "skills", "cdp-skill"))
			}
			if codex {
				dirs = append(dirs, filepath.Join(home, ".codex", "skills", "cdp-skill"))
			}
			var installed []string
			for _, d := range dirs {
				if err := installSkill(d, bin); err != nil {
					a.exitCode = 1
					writeJSON(a.stdout, map[string]any{"status": "error", "error": map[string]string{"type": "EXECUTION", "message": err.Error()}})
					return nil
				}
				installed = append(installed, d)
			}
			writeJSON(a.stdout, map[string]any{"status": "ok", "installed": installed, "binary": bin})
			return nil
		},
	}
	c.Flags().BoolVar(&claude, "claude", false, "install for Claude Code")
	c.Flags().BoolVar(&codex, "codex", false, "install for Codex")
	c.Flags().BoolVar(&mcp, "mcp", false, "set up the MCP server instead: print Claude Code's command, write Codex's config.toml table")
	return c
}

// installSkill writes the skill files into dir, naming the binary.
func installSkill(dir, bin string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return fs.WalkDir(skillFiles, "skill", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := skillFiles.ReadFile(path)
		if err != nil {
			return err
		}
		if bin != "" {
			data = []byte(strings.ReplaceAll(string(data), "{{binary}}", bin))
		}
		return state.WriteFileAtomic(filepath.Join(dir, filepath.Base(path)), data, 0o644)
	})
}
