package browser

import (
	"context"
	"fmt"
	"strings"
)

// SnapshotOptions select what a snapshot shows (spec §7, §11.1).
type SnapshotOptions struct {
	// Root is a CSS selector or "role=<role>"; empty auto-scopes to <main>.
	Root string `json:"root,omitempty"`
	// Detail is full (default), interactive or summary.
	Detail string `json:"detail,omitempty"`
	// ViewportOnly keeps only what intersects the viewport.
	ViewportOnly bool `json:"viewportOnly,omitempty"`
	// PierceShadow walks open shadow roots (default true).
	PierceShadow *bool `json:"pierceShadow,omitempty"`
	// NoFrames leaves out the content of iframes (by default every frame,
	// cross-origin and out-of-process ones included, is snapshotted by its
	// own engine and shown under its iframe's line).
	NoFrames    bool `json:"noFrames,omitempty"`
	MaxDepth    int  `json:"maxDepth,omitempty"`
	MaxElements int  `json:"maxElements,omitempty"`
	// Since is a snapshot id: when the page renders the same, the answer is
	// Unchanged.
	Since string `json:"since,omitempty"`
	// Internal snapshots (diffs, searches) do not take a new snapshot id.
	Internal bool `json:"internal,omitempty"`
	// Refs false renders without refs.
	Refs *bool `json:"refs,omitempty"`
	// ResetRefs forgets earlier refs first (preserveRefs: false).
	ResetRefs bool `json:"resetRefs,omitempty"`
	// NoText drops text lines (includeText: false).
	NoText bool `json:"noText,omitempty"`
	// NoHeader drops the auto-scope comment line.
	NoHeader bool `json:"noHeader,omitempty"`
	// Elements asks for the flat list of ref-bearing elements (for diffs).
	Elements bool `json:"elements,omitempty"`
	// NameLimit and TextLimit truncate long names and texts (100, 200).
	NameLimit int `json:"nameLimit,omitempty"`
	TextLimit int `json:"textLimit,omitempty"`
	// ChangeLog is set on the frames' part of a command's viewport
	// capture: "start" (the diff's baseline) starts each frame's change
	// log, "take" (the capture after the command) ends it and returns its
	// news (Snapshot.News).
	ChangeLog string `json:"changeLog,omitempty"`
	// RefsMapAbove, when positive, asks for Snapshot.RefsMap if the
	// snapshot (frames included) has more refs than this.
	RefsMapAbove int `json:"refsMapAbove,omitempty"`
}

// Snapshot is a rendered snapshot.
type Snapshot struct {
	YAML       string        `json:"yaml"`
	SnapshotID string        `json:"snapshotId,omitempty"`
	Refs       int           `json:"refs"`
	Truncated  bool          `json:"truncated,omitempty"`
	Unchanged  bool          `json:"unchanged,omitempty"`
	Elements   []SnapElement `json:"elements,omitempty"`
	Seq        *seqJSON      `json:"seq,omitempty"`
	// ClosedCandidates counts custom elements that may hide a closed
	// shadow root (handled inside Snapshot).
	ClosedCandidates int `json:"closedCandidates,omitempty"`
	// Frames counts the iframes whose content is to be spliced in, and
	// URL is the document's (both for framesnap.go).
	Frames int    `json:"frames,omitempty"`
	URL    string `json:"url,omitempty"`
	// Unloaded marks, by slot, the frames that show their initial empty
	// document (nothing to snapshot).
	Unloaded []bool `json:"unloaded,omitempty"`
	// Hash is the engine's change hash of the document, given with frames.
	Hash string `json:"hash,omitempty"`
	// News is what the command changed in the frames spliced in, read
	// from their change logs (SnapshotOptions.ChangeLog "take").
	News *FrameNews `json:"news,omitempty"`
	// RefsMap is every ref of the snapshot with its role and name, when
	// SnapshotOptions.RefsMapAbove asked for it and the refs are more.
	RefsMap map[string]RefInfo `json:"refsMap,omitempty"`
}

// RefInfo is a ref's role and accessible name, as the engine sends it:
// [role, name].
type RefInfo [2]string

// Role is the ref's role.
func (r RefInfo) Role() string { return r[0] }

// Name is the ref's accessible name ("" when it has none).
func (r RefInfo) Name() string { return r[1] }

// FrameNews is what a command changed in frames: text news as in
// Capture.Text and Capture.Transient, and the frames' refs inside what
// changed (Capture.Fresh).
type FrameNews struct {
	Text      []string `json:"text,omitempty"`
	Transient []string `json:"transient,omitempty"`
	Fresh     []string `json:"fresh,omitempty"`
}

// add merges n into f, f allocated when nil.
func (f *FrameNews) add(n *FrameNews) *FrameNews {
	if n == nil {
		return f
	}
	if f == nil {
		f = &FrameNews{}
	}
	f.Text = append(f.Text, n.Text...)
	f.Transient = append(f.Transient, n.Transient...)
	f.Fresh = append(f.Fresh, n.Fresh...)
	return f
}

// SnapElement is one ref-bearing element of a snapshot, for diffing.
type SnapElement struct {
	Ref   string         `json:"ref"`
	Role  string         `json:"role"`
	Name  string         `json:"name"`
	State map[string]any `json:"st,omitempty"`
	Value *string        `json:"value,omitempty"`
}

type engineSnapshotOptions struct {
	SnapshotOptions
	Seq seqJSON `json:"seq"`
	// SlotKey names the engine's record of the iframes the snapshot
	// marked (see takeSlots).
	SlotKey string `json:"slotKey,omitempty"`
	// ScanAt is the change count of the document's last click listener
	// scan (renderScanned); nil asks for none.
	ScanAt *int64 `json:"scanAt,omitempty"`
}

// ValidDetail checks a detail level.
func ValidDetail(d string) error {
	switch d {
	case "", "full", "interactive", "summary":
		return nil
	}
	return Errorf(KindStepValidation, "detail %q is not one of full, interactive, summary", d)
}

// Snapshot renders the ARIA snapshot of the current frame, with the
// content of its iframes under their lines (unless opts.NoFrames).
func (p *Page) Snapshot(ctx context.Context, opts SnapshotOptions) (*Snapshot, error) {
	if err := ValidDetail(opts.Detail); err != nil {
		return nil, err
	}
	s, err := p.snapshotHere(ctx, opts, "")
	if err != nil || s.Unchanged {
		return s, err
	}
	p.noteFrameRefs(p.frameIn(ctx), s.YAML)
	withFrames := s.Frames > 0
	p.spliceFrames(ctx, s, "snapshot", frameSubOptions(opts), 1)
	p.saveRefFrames()
	if withFrames && !opts.Internal {
		if u := p.framesUnchanged(ctx, s, opts.Since); u != nil {
			return u, nil
		}
	}
	s.URL, s.Hash, s.Unloaded = "", "", nil
	if opts.RefsMapAbove <= 0 || s.Refs <= opts.RefsMapAbove {
		s.RefsMap = nil
	}
	return s, nil
}

// snapshotHere renders the current frame's document only (iframes are
// marked for spliceFrames).
func (p *Page) snapshotHere(ctx context.Context, opts SnapshotOptions, slotKey string) (*Snapshot, error) {
	if opts.ResetRefs {
		if err := p.engineCall(ctx, nil, epResetRefs); err != nil {
			return nil, err
		}
	}
	entry := epSnapshot
	if opts.ChangeLog != "" {
		entry = epFrameCapture
	}
	var s Snapshot
	err := p.renderScanned(ctx, func(scanAt *int64) (int64, error) {
		var a struct {
			Snapshot
			Rescan int64 `json:"rescan"`
		}
		err := p.engineCall(ctx, &a, entry, engineSnapshotOptions{opts, p.snapshotSeq(ctx, opts), slotKey, scanAt})
		s = a.Snapshot
		return a.Rescan, err
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	// Some custom elements may hide closed shadow roots: register them
	// through CDP and render again (the first render took no refs that
	// the second does not keep, and no snapshot id when internal). A
	// closed root inside a closed root is found by the render after its
	// host's root was registered: go on while renders find more.
	for round := 0; s.ClosedCandidates > 0 && round < maxClosedRootRounds; round++ {
		n, err := p.registerClosedShadowRoots(ctx)
		if err != nil || n == 0 {
			break
		}
		again := opts
		if s.SnapshotID != "" {
			// Keep the snapshot id the first render took.
			again.Internal = true
		}
		var s2 Snapshot
		if err := p.engineCall(ctx, &s2, epSnapshot, engineSnapshotOptions{again, p.snapshotSeq(ctx, again), slotKey, nil}); err != nil {
			break
		}
		// The first render took the frame's change log.
		s2.SnapshotID, s2.News = s.SnapshotID, s.News
		s = s2
	}
	p.storeSeq(s.Seq)
	s.Seq = nil
	if opts.NoText {
		s.YAML = dropTextLines(s.YAML)
	}
	return &s, nil
}

// maxClosedRootRounds bounds the renders that look for closed shadow
// roots nested in closed shadow roots.
const maxClosedRootRounds = 8

func dropTextLines(yaml string) string {
	lines := strings.Split(yaml, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimLeft(l, " "), "- text: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// SearchOptions filter a snapshot search (spec §7.10, §11.2).
type SearchOptions struct {
	Text    string     `json:"text,omitempty"`
	Pattern string     `json:"pattern,omitempty"`
	Role    string     `json:"role,omitempty"`
	Exact   bool       `json:"exact,omitempty"`
	Near    *NearPoint `json:"near,omitempty"`
	Limit   int        `json:"limit,omitempty"`
	Context *int       `json:"context,omitempty"`
	Root    string     `json:"root,omitempty"`
}

// NearPoint is a proximity filter in viewport coordinates.
type NearPoint struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Radius float64 `json:"radius,omitempty"`
}

// SearchResult is the answer of a search.
type SearchResult struct {
	Matches          []map[string]any `json:"matches"`
	MatchCount       int              `json:"matchCount"`
	SearchedElements int              `json:"searchedElements"`
	Seq              *seqJSON         `json:"seq,omitempty"`
}

// Search finds elements of the accessibility tree without rendering it.
// Matches with a ref keep it for later commands.
func (p *Page) Search(ctx context.Context, opts SearchOptions) (*SearchResult, error) {
	if opts.Text == "" && opts.Pattern == "" && opts.Role == "" && opts.Near == nil {
		return nil, Errorf(KindStepValidation, "snapshotSearch needs text, pattern, role or near")
	}
	type engineSearch struct {
		SearchOptions
		Context int     `json:"context"`
		Seq     seqJSON `json:"seq"`
	}
	es := engineSearch{SearchOptions: opts, Context: 2, Seq: p.seqArg()}
	if opts.Context != nil {
		es.Context = *opts.Context
	}
	var r SearchResult
	if err := p.engineCall(ctx, &r, epSearch, es); err != nil {
		if strings.Contains(err.Error(), "Invalid regular expression") {
			return nil, Errorf(KindStepValidation, "pattern %q is not a valid regular expression", opts.Pattern)
		}
		return nil, fmt.Errorf("snapshotSearch: %w", err)
	}
	p.storeSeq(r.Seq)
	r.Seq = nil
	// The frames' elements are searched too; their matches say which frame
	// (their boxes are in the top-level viewport).
	limit := opts.Limit
	if limit <= 0 {
		limit = 10
	}
	if opts.Near == nil && opts.Root == "" {
		p.searchFrames(ctx, func() any { es.Seq = p.seqArg(); return es }, limit, &r)
	}
	if r.Matches == nil {
		r.Matches = []map[string]any{}
	}
	return &r, nil
}
