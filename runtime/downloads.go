package runtime

import (
	"context"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

// downloadMark is where the connection's downloads stand before a step
// (-1 without a tab).
func (h *host) downloadMark() int {
	p, err := h.env.Page()
	if err != nil {
		return -1
	}
	return p.Downloads().Mark()
}

// noteDownloads reports on the step the downloads it began, once they
// completed (or the step's time ran out): download is {path,
// suggestedFilename, size, …}, or a list when it began several.
func (h *host) noteDownloads(ctx context.Context, a *lang.Action, res *StepResult, mark int) {
	if mark < 0 || a.ReportsDownloads {
		return
	}
	p, err := h.env.Page()
	if err != nil {
		return
	}
	list := p.Downloads().AwaitAfter(ctx, mark, h.env.OutputDir)
	switch len(list) {
	case 0:
	case 1:
		res.Download = stepDownload(list[0])
	default:
		var all []browser.Download
		for _, d := range list {
			all = append(all, stepDownload(d))
		}
		res.Download = all
	}
}

// stepDownload drops what the step's download field need not repeat.
func stepDownload(d browser.Download) browser.Download {
	if d.State == "completed" {
		d.State, d.URL = "", ""
	}
	return d
}
