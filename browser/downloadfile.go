package browser

import (
	"os"

	"github.com/cdp-skill/cdp-skill/browser/confine"
)

// placeDownload moves a completed download from Chrome's staging folder
// (in the state dir, named by the download id) into the output directory's
// downloads folder under its sanitised suggested name; an existing file is
// never replaced ("name (1).ext" instead). On failure the file stays
// staged and the download's path points there. Called with the lock held.
func placeDownload(dl *Download, outDir string) {
	dl.placed, dl.Path = true, dl.staged
	if outDir == "" {
		d, err := os.Getwd()
		if err != nil {
			dl.Note = "kept in the state dir: " + err.Error()
			return
		}
		outDir = d
	}
	path, size, err := confine.CopyIntoOutput(dl.staged, outDir, confine.SanitizeFilename(dl.SuggestedFilename))
	if err != nil {
		dl.Note = "kept in the state dir: " + err.Error()
		return
	}
	os.Remove(dl.staged)
	dl.Path, dl.Size = path, size
}
