package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"

	"github.com/cdp-skill/cdp-skill/browser/state"
)

// DownloadsEnv names the environment variable that lets pages download
// files: "allow" saves them in the state dir (downloads/, named by Chrome's
// download id, never by the page). Unset, every download is refused.
const DownloadsEnv = "CDP_SKILL_DOWNLOADS"

// Download is one download a page started during the command.
type Download struct {
	URL string `json:"url"`
	// SuggestedName is the name the page asked for (never used on disk).
	SuggestedName string `json:"suggestedName,omitempty"`
	// State is denied, inProgress, completed or canceled.
	State string `json:"state"`
	// Path is where a completed download was saved.
	Path  string `json:"path,omitempty"`
	Bytes int64  `json:"bytes,omitempty"`
	// Note says how to allow downloads when one was denied.
	Note    string `json:"note,omitempty"`
	frameID cdp.FrameID
}

// downloads watches the downloads of one browser connection.
type downloads struct {
	once   sync.Once
	allow  bool
	mu     sync.Mutex
	byGUID map[string]*Download
	order  []string
}

// watchDownloads sets the download behaviour of the browser (deny, or save
// under the state dir with neutral names when DownloadsEnv is "allow") and
// records the download events this connection receives.
func (b *Browser) watchDownloads(ctx context.Context) {
	b.dl.once.Do(func() {
		b.dl.byGUID = map[string]*Download{}
		b.dl.allow = strings.EqualFold(strings.TrimSpace(os.Getenv(DownloadsEnv)), "allow")
		params := cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny, EventsEnabled: ptr(true)}
		if b.dl.allow {
			dir, err := downloadDir()
			if err != nil {
				return
			}
			params.Behavior, params.DownloadPath = cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, dir
		}
		begins, _ := b.Session().Subscribe(cdpbrowser.DownloadWillBegin.Method)
		progress, _ := b.Session().Subscribe(cdpbrowser.DownloadProgress.Method)
		if _, err := cdp.Call(ctx, b.Session(), cdpbrowser.SetDownloadBehavior, params); err != nil {
			return
		}
		go func() {
			for raw := range begins {
				var ev cdpbrowser.EventDownloadWillBegin
				if decode(raw, &ev) == nil {
					b.dl.begin(ev)
				}
			}
		}()
		go func() {
			for raw := range progress {
				var ev cdpbrowser.EventDownloadProgress
				if decode(raw, &ev) == nil {
					b.dl.progress(ev)
				}
			}
		}()
	})
}

func downloadDir() (string, error) {
	root, err := state.OpenRoot()
	if err != nil {
		return "", err
	}
	defer root.Close()
	if err := root.MkdirAll("downloads", 0o700); err != nil {
		return "", err
	}
	return filepath.Abs(filepath.Join(state.Dir(), "downloads"))
}

func (d *downloads) begin(ev cdpbrowser.EventDownloadWillBegin) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dl := &Download{URL: ev.URL, SuggestedName: ev.SuggestedFilename, State: "inProgress", frameID: ev.FrameID}
	if !d.allow {
		dl.State = "denied"
		dl.Note = "downloads are refused; set the environment variable " + DownloadsEnv + "=allow to save them in the state dir"
	}
	if _, ok := d.byGUID[ev.GUID]; !ok {
		d.order = append(d.order, ev.GUID)
	}
	d.byGUID[ev.GUID] = dl
}

func (d *downloads) progress(ev cdpbrowser.EventDownloadProgress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dl, ok := d.byGUID[ev.GUID]
	if !ok || dl.State == "denied" {
		return
	}
	dl.State, dl.Bytes = string(ev.State), int64(ev.ReceivedBytes)
	if ev.State == cdpbrowser.DownloadProgressStateCompleted {
		if dir, err := downloadDir(); err == nil {
			dl.Path = filepath.Join(dir, ev.GUID)
		}
	}
}

// Downloads returns the downloads the page's frames started while this
// connection watched.
func (p *Page) Downloads(ctx context.Context) []Download {
	d := &p.Browser.dl
	d.mu.Lock()
	empty := len(d.order) == 0
	d.mu.Unlock()
	if empty {
		return nil
	}
	frames := map[cdp.FrameID]bool{cdp.FrameID(p.TargetID): true}
	if tree, err := cdp.Call(ctx, p.sess, page.GetFrameTree, cdp.Empty{}); err == nil && tree.FrameTree != nil {
		collectFrames(tree.FrameTree, frames)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Download
	for _, g := range d.order {
		if dl := d.byGUID[g]; frames[dl.frameID] {
			out = append(out, *dl)
		}
	}
	return out
}

func collectFrames(t *page.FrameTree, into map[cdp.FrameID]bool) {
	if t.Frame != nil {
		into[t.Frame.ID] = true
	}
	for _, c := range t.ChildFrames {
		collectFrames(c, into)
	}
}
