package chrome

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// writeProfilePrefs gives a new profile the preferences cdp-skill needs
// before Chrome first starts on it: downloads a page starts while no
// cdp-skill is connected (when the DevTools download policy no longer
// applies) go to a private directory of the state dir, never to the user's
// Downloads folder, and no prompt opens. An existing Preferences file is
// left alone.
func writeProfilePrefs(profile string) error {
	path := filepath.Join(profile, "Default", "Preferences")
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	dir := filepath.Join(state.Dir(), "downloads", "unattended")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	prefs := map[string]any{
		"download": map[string]any{"default_directory": abs, "prompt_for_download": false, "directory_upgrade": true},
		"savefile": map[string]any{"default_directory": abs},
	}
	data, _ := json.Marshal(prefs)
	return state.WriteFileAtomic(path, data, 0o600)
}
