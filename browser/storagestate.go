package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
)

// StorageState is saved sign-in state in Playwright's storage-state shape
// (cookies, and per origin its localStorage), so files move between the
// two tools. sessionStorage, which Playwright does not save, rides along
// in each origin as sessionStorage (Playwright ignores it).
type StorageState struct {
	Cookies []StateCookie `json:"cookies"`
	Origins []StateOrigin `json:"origins"`
}

// StateCookie is a cookie as Playwright writes it.
type StateCookie struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Domain string `json:"domain"`
	Path   string `json:"path"`
	// Expires is in seconds since the epoch; -1 for a session cookie.
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite"`
}

// StateOrigin is one origin's web storage.
type StateOrigin struct {
	Origin         string      `json:"origin"`
	LocalStorage   []StateItem `json:"localStorage"`
	SessionStorage []StateItem `json:"sessionStorage,omitempty"`
}

// StateItem is one storage entry.
type StateItem struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// StorageStateRequest is a storageState step: save to or load from a file
// the output directory holds.
type StorageStateRequest struct {
	Save, Load string
	// AllCookies saves every cookie of the tab's browser context instead
	// of those the page and its frames would be sent.
	AllCookies bool
	// OutputDir is the output directory ("" = the working directory).
	OutputDir string
}

// StorageStateResult reports what was saved or loaded, never a value.
type StorageStateResult struct {
	Saved   string `json:"saved,omitempty"`
	Loaded  string `json:"loaded,omitempty"`
	Cookies int    `json:"cookies"`
	// Domains are the cookies' domains.
	Domains []string       `json:"domains,omitempty"`
	Origins []OriginReport `json:"origins,omitempty"`
	// Skipped are origins of a loaded file whose storage was not set: web
	// storage can only be written while the tab shows that origin.
	Skipped  []string `json:"skippedOrigins,omitempty"`
	Warnings []string `json:"-"`
}

// OriginReport counts the entries of one origin.
type OriginReport struct {
	Origin         string `json:"origin"`
	LocalStorage   int    `json:"localStorage"`
	SessionStorage int    `json:"sessionStorage"`
}

// maxStateFile bounds a storage-state file read by load.
const maxStateFile = 16 << 20

// State saves or loads the tab's sign-in state (cookies and the top
// origin's web storage).
func (s *Storage) State(ctx context.Context, r StorageStateRequest) (*StorageStateResult, error) {
	switch {
	case (r.Save == "") == (r.Load == ""):
		return nil, Errorf(KindStepValidation, "storageState needs one of save or load, a .json file in the output directory").
			WithHint("save the state with storageState's save option and a file name (e.g. auth.json), later load it with its load option")
	case r.Save != "":
		return s.save(ctx, r)
	}
	return s.load(ctx, r.Load, r.OutputDir)
}

// stateFile checks the file of a storageState step, inside the output
// directory, and holds its directory open (see OutputTarget).
func stateFile(path, dir string) (*OutputTarget, error) {
	if strings.TrimSpace(path) == "" {
		return nil, Errorf(KindStepValidation, "storageState: the file name is empty").WithHint(`give a name such as "auth.json"`)
	}
	return OutputFile{Path: path, Dir: dir, Kind: "storageState", Ext: ".json"}.Open()
}

func (s *Storage) save(ctx context.Context, r StorageStateRequest) (*StorageStateResult, error) {
	out, err := stateFile(r.Save, r.OutputDir)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	list, err := s.findCookies(ctx, CookieFilter{All: r.AllCookies})
	if err != nil {
		return nil, err
	}
	st := StorageState{Cookies: make([]StateCookie, 0, len(list)), Origins: []StateOrigin{}}
	for _, c := range list {
		st.Cookies = append(st.Cookies, stateCookie(c))
	}
	o, err := s.readWebStorage(ctx)
	if err != nil {
		return nil, err
	}
	if o != nil {
		st.Origins = append(st.Origins, *o)
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("storageState: encode: %w", err)
	}
	// Written 0600 (it holds secrets) through a new file renamed over the
	// name, inside the held directory: a link at the name is replaced, not
	// followed.
	if err := out.Write(append(data, '\n')); err != nil {
		return nil, err
	}
	return reportState(&StorageStateResult{Saved: out.Path}, st, st.Origins), nil
}

// stateCookie converts a CDP cookie to Playwright's shape.
func stateCookie(c *network.Cookie) StateCookie {
	out := StateCookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: -1,
		HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: string(c.SameSite)}
	if !c.Session && c.Expires > 0 {
		out.Expires = c.Expires
	}
	if out.SameSite == "" {
		out.SameSite = "Lax" // what Chromium applies to a cookie that names none
	}
	return out
}

const webStorageJS = `() => {
  const items = s => { const out = []; for (let i = 0; i < s.length; i++) { const k = s.key(i); out.push({name: k, value: s.getItem(k)}); } return out; };
  if (!/^https?:$/.test(location.protocol)) return null;
  return {origin: location.origin, localStorage: items(localStorage), sessionStorage: items(sessionStorage)};
}`

// readWebStorage reads the main frame's origin's storage (nil for a page
// that is not a web page).
func (s *Storage) readWebStorage(ctx context.Context) (*StateOrigin, error) {
	var o *StateOrigin
	raw, err := s.callTop(ctx, webStorageJS)
	if err != nil {
		return nil, fmt.Errorf("storageState: read the page's storage: %w", err)
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, fmt.Errorf("storageState: decode the page's storage: %w", err)
	}
	return o, nil
}

func (s *Storage) load(ctx context.Context, name, dir string) (*StorageStateResult, error) {
	target, err := stateFile(name, dir)
	if err != nil {
		return nil, err
	}
	defer target.Close()
	st, err := readStateFile(target, name)
	if err != nil {
		return nil, err
	}
	in := make([]CookieInput, 0, len(st.Cookies))
	for _, c := range st.Cookies {
		ci := CookieInput{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite}
		if c.Expires > 0 {
			ci.Expires = c.Expires
		}
		in = append(in, ci)
	}
	if err := s.setCookies(ctx, in); err != nil {
		return nil, err
	}
	res := &StorageStateResult{Loaded: target.Path}
	applied, err := s.writeWebStorage(ctx, st.Origins, res)
	if err != nil {
		return nil, err
	}
	return reportState(res, *st, applied), nil
}

// readStateFile reads and decodes a storage-state file inside the held
// output directory, without following a link at its name.
func readStateFile(t *OutputTarget, name string) (*StorageState, error) {
	f, err := t.OpenRead()
	if errors.Is(err, os.ErrNotExist) {
		return nil, Errorf(KindStepValidation, "storageState: no file %q to load", name).
			WithHint("save one first with storageState's save option and the name %q", name)
	}
	if err != nil {
		return nil, Errorf(KindStepValidation, "storageState: cannot open %q: %v", name, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err != nil {
		return nil, fmt.Errorf("storageState: read %s: %w", t.Path, err)
	}
	if len(data) > maxStateFile {
		return nil, Errorf(KindStepValidation, "storageState: %q is larger than %d MB", name, maxStateFile>>20)
	}
	var st StorageState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, Errorf(KindStepValidation, "storageState: %q is not a storage-state file (%v)", name, err).
			WithHint("it must hold a cookies list and an origins list, as storageState save or Playwright's storageState() writes")
	}
	return &st, nil
}

const setWebStorageJS = `(o) => {
  for (const it of o.localStorage || []) localStorage.setItem(it.name, it.value);
  for (const it of o.sessionStorage || []) sessionStorage.setItem(it.name, it.value);
  return true;
}`

// writeWebStorage sets the storage of the origin the tab shows; the other
// origins are reported as skipped.
func (s *Storage) writeWebStorage(ctx context.Context, origins []StateOrigin, res *StorageStateResult) ([]StateOrigin, error) {
	if len(origins) == 0 {
		return nil, nil
	}
	u, err := s.p.URL(ctx)
	if err != nil {
		return nil, fmt.Errorf("storageState: read the page URL: %w", err)
	}
	current := originOf(u)
	var applied []StateOrigin
	for _, o := range origins {
		if !sameOrigin(o.Origin, current) {
			res.Skipped = append(res.Skipped, o.Origin)
			continue
		}
		if _, err := s.callTop(ctx, setWebStorageJS, o); err != nil {
			return nil, fmt.Errorf("storageState: set the storage of %s: %w", o.Origin, err)
		}
		applied = append(applied, o)
	}
	if len(res.Skipped) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("web storage was set only for the origin the tab shows (%s); cookies were set for every site. For %s: goto it, then load again",
			current, strings.Join(res.Skipped, ", ")))
	}
	return applied, nil
}

// sameOrigin compares two origins as URLs (default ports, case).
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil || ua.Host == "" {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Hostname(), ub.Hostname()) && effectivePort(ua) == effectivePort(ub)
}

func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// reportState fills the counts of res: cookies, their domains, and the
// origins listed.
func reportState(res *StorageStateResult, st StorageState, origins []StateOrigin) *StorageStateResult {
	res.Cookies = len(st.Cookies)
	for _, c := range st.Cookies {
		d := strings.TrimPrefix(c.Domain, ".")
		if !slices.Contains(res.Domains, d) {
			res.Domains = append(res.Domains, d)
		}
	}
	slices.Sort(res.Domains)
	for _, o := range origins {
		res.Origins = append(res.Origins, OriginReport{Origin: o.Origin, LocalStorage: len(o.LocalStorage), SessionStorage: len(o.SessionStorage)})
	}
	return res
}

// callTop calls fn with args in the top document, whatever frame the steps
// run in (storage state belongs to the tab's origin).
func (s *Storage) callTop(ctx context.Context, fn string, args ...any) (json.RawMessage, error) {
	expr, err := callExpr(fn, args...)
	if err != nil {
		return nil, err
	}
	return evaluate(ctx, s.p.sess, runtime.EvaluateParams{Expression: expr, ReturnByValue: ptr(true)}, "")
}
