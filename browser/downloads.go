package browser

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"

	"github.com/cdp-skill/cdp-skill/browser/cdpconn"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// DownloadsEnv names the environment variable that lets pages download
// files: "allow" saves them in the output directory's downloads/ folder,
// under the name the page suggested once sanitised (never replacing a
// file). Unset, every download is refused. The command reads it into
// ConnectOptions.AllowDownloads.
const DownloadsEnv = "CDP_SKILL_DOWNLOADS"

// Download is one download a page started during the command.
type Download struct {
	URL string `json:"url,omitempty"`
	// SuggestedFilename is the name the page asked for; the saved file
	// has it sanitised.
	SuggestedFilename string `json:"suggestedFilename,omitempty"`
	// State is denied, inProgress, completed or canceled.
	State string `json:"state,omitempty"`
	// Path is where a completed download was saved.
	Path string `json:"path,omitempty"`
	Size int64  `json:"size,omitempty"`
	// Note says how to allow downloads when one was denied.
	Note    string `json:"note,omitempty"`
	frameID cdp.FrameID
	guid    string
	seq     int
	at      time.Time
	// staged is Chrome's file (named by the download id) before it is
	// placed in the output directory.
	staged string
	placed bool
	waited bool
}

// terminal reports a download that will not change any more.
func (d *Download) terminal() bool { return d.State != "inProgress" }

// downloads watches the downloads of one browser connection.
type downloads struct {
	once   sync.Once
	allow  bool
	mu     sync.Mutex
	byGUID map[string]*Download
	order  []string
	// changed is closed (and replaced) whenever a download changes.
	changed chan struct{}
	// feeds count the begin and progress events received and handled.
	feeds []*cdpconn.Feed
}

func (d *downloads) poke() {
	d.mu.Lock()
	d.touch()
	d.mu.Unlock()
}

// settle waits (up to a second) until every download event received so
// far was handled: a step that just began a download then sees it.
func (d *downloads) settle(ctx context.Context) {
	d.mu.Lock()
	feeds := d.feeds
	d.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	for {
		changed := d.watch()
		done := true
		for _, f := range feeds {
			done = done && f.Read.Load() >= f.Received()
		}
		if done {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

// watch returns a channel closed at the next change.
func (d *downloads) watch() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.changed == nil {
		d.changed = make(chan struct{})
	}
	return d.changed
}

func (d *downloads) touch() {
	if d.changed != nil {
		close(d.changed)
	}
	d.changed = make(chan struct{})
}

// watchDownloads sets the download behaviour of the browser (deny, or save
// under the state dir with neutral names when downloads are allowed) and
// records the download events this connection receives.
func (b *Browser) watchDownloads(ctx context.Context) {
	b.dl.once.Do(func() {
		b.dl.byGUID = map[string]*Download{}
		params := cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny, EventsEnabled: ptr(true)}
		if b.dl.allow {
			dir, err := downloadDir()
			if err != nil {
				return
			}
			params.Behavior, params.DownloadPath = cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, dir
		}
		begins, beginsIn, _ := b.Session().SubscribeCounted(cdpbrowser.DownloadWillBegin.Method)
		progress, progressIn, _ := b.Session().SubscribeCounted(cdpbrowser.DownloadProgress.Method)
		if _, err := cdp.Call(ctx, b.Session(), cdpbrowser.SetDownloadBehavior, params); err != nil {
			return
		}
		feeds := []*cdpconn.Feed{{Received: beginsIn}, {Received: progressIn}}
		b.dl.mu.Lock()
		b.dl.feeds = feeds
		b.dl.mu.Unlock()
		go pumpDownloadEvents(begins, feeds[0], &b.dl, (*downloads).begin)
		go pumpDownloadEvents(progress, feeds[1], &b.dl, (*downloads).progress)
	})
}

// pumpDownloadEvents decodes each download event of one subscription,
// records it with handle, counts it read on feed and wakes the waiters,
// until the subscription ends.
func pumpDownloadEvents[E any](events <-chan jsonv2.Value, feed *cdpconn.Feed, d *downloads, handle func(*downloads, E)) {
	for raw := range events {
		var ev E
		if decode(raw, &ev) == nil {
			handle(d, ev)
		}
		feed.Read.Add(1)
		d.poke()
	}
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
	defer d.touch()
	dl := d.get(ev.GUID)
	dl.URL, dl.SuggestedFilename, dl.frameID = ev.URL, ev.SuggestedFilename, ev.FrameID
	if !d.allow {
		dl.State = "denied"
		dl.Note = "downloads are refused; set the environment variable " + DownloadsEnv + "=allow to save them in the output directory's downloads folder"
	}
}

// get returns the download with the id, recording it when it is new:
// its begin and progress events come through separate subscriptions, so
// either may be read first. Called with the lock held.
func (d *downloads) get(guid string) *Download {
	if dl, ok := d.byGUID[guid]; ok {
		return dl
	}
	d.order = append(d.order, guid)
	dl := &Download{State: "inProgress", guid: guid, at: time.Now(), seq: len(d.order)}
	d.byGUID[guid] = dl
	return dl
}

func (d *downloads) progress(ev cdpbrowser.EventDownloadProgress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	dl := d.get(ev.GUID)
	if dl.State == "denied" || dl.placed {
		return
	}
	defer d.touch()
	dl.State, dl.Size = string(ev.State), int64(ev.ReceivedBytes)
	if ev.State == cdpbrowser.DownloadProgressStateCompleted {
		if dir, err := downloadDir(); err == nil {
			dl.staged = filepath.Join(dir, ev.GUID)
		}
	}
}

// Downloads are the downloads one tab's frames start: a view of those its
// browser connection watches. Reach it by Page.Downloads.
type Downloads struct {
	all  *downloads
	sess *Session
	top  cdp.FrameID
	// outOfProcess lists the tab's out-of-process frames (their downloads
	// are the tab's too; the tab's frame tree does not hold them).
	outOfProcess func() []cdp.FrameID
}

// List returns the downloads the page's frames began after mark (see
// Mark; a connection kept between commands has the earlier commands'
// too); the completed ones are placed in the output directory (outDir,
// "" = the working directory).
func (t *Downloads) List(ctx context.Context, mark int, outDir string) []Download {
	return t.collect(ctx, outDir, func(dl *Download) bool { return dl.seq > mark })
}

// Mark is a point in the connection's downloads: AwaitAfter reports those
// begun after it.
func (t *Downloads) Mark() int {
	d := t.all
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.order)
}

// AwaitAfter waits (while ctx lasts) for the downloads the page began
// after mark to complete, places them in the output directory and returns
// them (WaitNext does not return them again); none begun, it returns nil
// at once.
func (t *Downloads) AwaitAfter(ctx context.Context, mark int, outDir string) []Download {
	t.all.settle(ctx)
	if t.Mark() <= mark {
		return nil
	}
	for {
		changed := t.all.watch()
		list := t.collect(ctx, outDir, func(dl *Download) bool { return dl.seq > mark })
		done := true
		for _, dl := range list {
			done = done && dl.terminal()
		}
		if done || ctx.Err() != nil {
			d := t.all
			d.mu.Lock()
			for _, dl := range list {
				d.byGUID[dl.guid].waited = true
			}
			d.mu.Unlock()
			return list
		}
		select {
		case <-ctx.Done():
		case <-changed:
		}
	}
}

// WaitNext waits for a download the page began since since and that
// neither an earlier WaitNext nor AwaitAfter returned, until it
// completes, and returns it placed in the output directory.
func (t *Downloads) WaitNext(ctx context.Context, since time.Time, outDir string) (*Download, error) {
	d := t.all
	for {
		changed := d.watch()
		var pick *Download
		t.collect(ctx, outDir, func(dl *Download) bool {
			if pick == nil && !dl.waited && !dl.at.Before(since) {
				pick = dl
			}
			return false
		})
		if pick != nil {
			d.mu.Lock()
			pick.waited = true
			d.mu.Unlock()
			list := t.AwaitAfter(ctx, pick.seq-1, outDir)
			for _, dl := range list {
				if dl.seq == pick.seq {
					return downloadOutcome(&dl)
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil, Errorf(KindTimeout, "no download began in this tab").
				WithHint("start it with a step first (a click on the download link), or raise the step timeout for a slow one")
		case <-changed:
		}
	}
}

// downloadOutcome is the result of a waited-for download: an error unless
// it completed.
func downloadOutcome(dl *Download) (*Download, error) {
	switch dl.State {
	case "completed":
		return dl, nil
	case "denied":
		return nil, Errorf(KindStepValidation, "the page began downloading %q, but downloads are refused", dl.SuggestedFilename).
			WithHint("set the environment variable %s=allow to save downloads in the output directory", DownloadsEnv)
	case "canceled":
		return nil, Errorf(KindNavigation, "the download of %q was canceled", dl.SuggestedFilename)
	}
	return nil, Errorf(KindTimeout, "the download of %q did not complete in time (%d bytes so far)", dl.SuggestedFilename, dl.Size).
		WithHint("raise the step timeout for a large file")
}

// collect returns copies of the downloads of the page's frames that
// keep accepts (called with the lock held), placing completed ones.
func (t *Downloads) collect(ctx context.Context, outDir string, keep func(*Download) bool) []Download {
	d := t.all
	d.mu.Lock()
	empty := len(d.order) == 0
	d.mu.Unlock()
	if empty {
		return nil
	}
	frames := map[cdp.FrameID]bool{t.top: true}
	if tree, err := cdp.Call(ctx, t.sess, page.GetFrameTree, cdp.Empty{}); err == nil && tree.FrameTree != nil {
		collectFrames(tree.FrameTree, frames)
	}
	if t.outOfProcess != nil {
		for _, id := range t.outOfProcess() {
			frames[id] = true
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Download
	for _, g := range d.order {
		dl := d.byGUID[g]
		if !frames[dl.frameID] || !keep(dl) {
			continue
		}
		if dl.State == "completed" && !dl.placed && dl.staged != "" {
			placeDownload(dl, outDir)
		}
		out = append(out, *dl)
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
