package runtime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-hclog"
	"go.starlark.net/starlark"

	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/browser/suggest"
	"github.com/cdp-skill/cdp-skill/builtins"
	"github.com/cdp-skill/cdp-skill/lang"
)

// Defaults of the sandbox and the step lifecycle.
const (
	DefaultStepTimeout    = 30 * time.Second
	MaxStepTimeout        = 300 * time.Second
	DefaultProgramTimeout = 10 * time.Minute
	DefaultMaxSteps       = 5_000_000
	hookMaxSteps          = 1_000_000
	maxLogLines           = 200
)

// deferredShotWait bounds how long a deferred screenshot waits for the
// host's Output.Finish before it is taken anyway (and the tab released).
const deferredShotWait = 10 * time.Second

// Program is what to run: Starlark source (a recipe, or a lowered JSON
// command) and how.
type Program struct {
	// Name is the file name used in messages and backtraces.
	Name   string
	Source []byte
	// Dir is the recipe's directory, from which load() reads files; empty
	// for JSON commands.
	Dir string
	// FromJSON marks a lowered JSON command (steps carry no source line).
	FromJSON bool
	// Tab is the alias or target id to attach before running.
	Tab string
	// Args are the recipe's --arg values, predeclared as the dict args.
	Args map[string]string
	// StepTimeout is the default step timeout (0 = 30 s).
	StepTimeout time.Duration
	// Timeout bounds the whole program (0 = 10 min).
	Timeout time.Duration
	// MaxSteps bounds Starlark execution steps (0 = 5,000,000).
	MaxSteps uint64
	// FirstStepVisual and Capture tell the host of a JSON command, before
	// it runs, whether its first step can change the screen and what
	// capture it sets (as given; configure() applies it when the program
	// runs), so the diff's baseline is read while the program compiles.
	FirstStepVisual bool
	Capture         any
	// FirstStepLooksUp says the first step's first call into the page is
	// the lookup of its target (lang.Action.LooksUpFirst).
	FirstStepLooksUp bool
	// OneStep says the JSON command is one step: the capture after the
	// command follows that step at once (see host.captureAhead).
	OneStep bool
}

// Options configure the host.
type Options struct {
	// Endpoint is where tabs open by default.
	Endpoint chrome.Endpoint
	// Headless asks for a headless Chrome when one is launched.
	Headless bool
	// Logger receives debug logs (stderr only). Nil discards.
	Logger hclog.Logger
	// Stdlib is the embedded standard library for load("@stdlib/…").
	Stdlib fs.FS
	// Pool, when set, keeps connections and tab sessions between programs
	// (a long-lived host such as the MCP server).
	Pool *Pool
	// DeferScreenshot lets the answer name the after-command screenshot
	// before it is taken: it is captured once the host calls
	// Output.Finish (after delivering the answer), while the tab stays
	// locked, and written atomically, so a reader finds either no file
	// or the new one, never the previous command's. For a resident host
	// that answers first; a fresh frame costs ~40 ms.
	DeferScreenshot bool
	// Environment is what the process environment configures; nil reads
	// it (ReadEnvironment).
	Environment *Environment
	// StepSyntax writes the steps the answer's hints suggest; nil writes
	// them as the program is written (JSON steps for a JSON command,
	// builtin calls for a recipe). An MCP server gives its tools' syntax.
	StepSyntax suggest.Syntax
}

// host runs one program.
type host struct {
	// stepFrame is the frame the running step started in (its command's
	// selection; nil: the top document), for the step's failure context.
	stepFrame   *browser.Frame
	prog        Program
	opts        Options
	env         *builtins.Env
	ctx         context.Context
	log         hclog.Logger
	steps       []*StepResult
	stepTimeout time.Duration
	hooks       []hookSet
	printed     []string
	// printedBytes is the size of printed (bounded by maxPrintTotal).
	printedBytes int
	resolver     *lang.Resolver
	modules      map[string]*module
	predeclared  starlark.StringDict
	urlBefore    string
	// urlPending reads urlBefore when it was asked for without waiting.
	urlPending func() string
	// beforeAhead waits for the diff's baseline read as the command
	// started (readBeforeAhead).
	beforeAhead func() *browser.Capture
	// beforeDoc is the document the baseline was read in (its time
	// origin): the diff compares a document with itself only.
	beforeDoc float64
	// baselineSent waits for the baseline sent with the tab's check
	// (sendBaselineWithAttach); nil when none was.
	baselineSent func(context.Context) *browser.Capture
	// beforeSent waits for the baseline sent with the tab's check while
	// the first step's lookup goes out behind it (readBeforeSent), on
	// beforePage; nil when that is not the way it is read.
	beforeSent func(context.Context) *browser.Capture
	beforePage *browser.Page
	// failed records the step failure that stopped the program.
	failed *stepFailure
	// timeout is the program's wall-clock budget.
	timeout time.Duration
	// start is when the program started (console messages after it are
	// the command's).
	start time.Time
	// captureSet is what the answer carries after visual steps;
	// captureAsked says the command set it itself (see nameOnce).
	captureSet   CaptureSettings
	captureAsked bool
	// visual is set once a visual step ran; verb names the first one for
	// the diff summary.
	visual bool
	verb   string
	// visualSteps counts the visual steps run so far; tree marks the
	// last step whose output is the page's tree (see treeShown).
	visualSteps int
	tree        *treeMark
	// news are the changes credited to steps of a command with several
	// visual steps (stepnews.go); newsSeen the lines credited so far in
	// the baseline's document; lastVisual the last visual step to run;
	// stepNavigated says a step loaded a new top document.
	news          []stepNews
	newsSeen      map[string]bool
	lastVisual    *visualMark
	stepNavigated bool
	// basePage and baseDocs are the page the baseline was read on and
	// how many top documents it had had then.
	basePage *browser.Page
	baseDocs int
	// verbStep is the number of the step whose verb verb is.
	verbStep int
	// profile is the site profile of the last navigation; noProfile the
	// domain it reached that has none, the first time in this tab.
	profile   *builtins.ProfileView
	noProfile string
	// siteDefaults caches the domain default hooks of site profiles;
	// anyRecipes says whether any profile has recipes at all.
	siteDefaults map[string]hookSet
	anyRecipes   *bool
	// dialogPage and dialogMark track which dialogs were reported already.
	dialogPage *browser.Page
	dialogMark int
	// downloadsFrom marks the connection's downloads when the command
	// attached its tab: the answer lists those begun after it.
	downloadsFrom int
	// framesNavigated are the URLs the command's actions took iframes to.
	framesNavigated []string
	// before is the viewport's elements before the first visual step.
	before    []browser.SnapElement
	beforeURL string
	beforeTab string
	// resultValue is the recipe's global `result`, reported as result.
	resultValue starlark.Value
	// dog answers for the command when a phase runs past its deadline.
	dog *watchdog
	// keepGoing is configure(stop_on_error = False): a failed step is
	// reported and the program goes on (spec §16.4).
	keepGoing bool
	// threads are the program's Starlark threads (the memory guard stops
	// them).
	threads threadSet
	// mem is the program's memory budget.
	mem *memAccount
	// deferredShot takes the screenshot the answer already names
	// (Options.DeferScreenshot); nil when none is due.
	deferredShot func()
}

// Run executes prog and returns its output. It never panics on bad input:
// every failure becomes an error in the output.
func Run(ctx context.Context, prog Program, opts Options) *Output {
	reg, err := state.OpenRegistry()
	if err != nil {
		return ErrorOutput(TypeExecution, err.Error())
	}
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	environ := opts.Environment
	if environ == nil {
		e := ReadEnvironment()
		environ = &e
	}
	h := &host{
		prog:         prog,
		opts:         opts,
		env:          builtins.NewEnv(reg, opts.Endpoint),
		log:          opts.Logger,
		stepTimeout:  clampTimeout(prog.StepTimeout),
		modules:      map[string]*module{},
		start:        time.Now(),
		captureSet:   defaultCapture(environ.Capture),
		siteDefaults: map[string]hookSet{},
	}
	h.env.Headless = opts.Headless
	h.env.Chrome, h.env.AllowDownloads = environ.Chrome, environ.AllowDownloads
	h.env.Strict = environ.Strict
	h.env.OutputDir, h.env.UploadDirs, h.env.URLs = environ.OutputDir, environ.UploadDirs, environ.URLs
	if opts.Pool != nil {
		h.env.Pool = opts.Pool.conns
		h.env.KeepEmulation = opts.Pool.KeepEmulation
		h.env.KeepNetworkLog = opts.Pool.KeepNetworkLog
	}
	h.resolver = &lang.Resolver{Dir: prog.Dir, Stdlib: opts.Stdlib, Site: builtins.SiteSource, SitesDir: state.SitesDir()}

	timeout := prog.Timeout
	if timeout <= 0 {
		timeout = DefaultProgramTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	h.ctx = ctx
	h.timeout = timeout
	h.dog = newWatchdog()
	h.dog.syntax = h.syntax()
	h.mem = &memAccount{name: prog.Name, limit: maxMemory(environ.MaxMemoryMB), threads: &h.threads}
	defer h.mem.register()()
	go guardMemory(ctx, h.mem)
	done := make(chan *Output, 1)
	release := make(chan struct{})
	var once sync.Once
	finish := func() { once.Do(func() { close(release) }) }
	go func() {
		out := h.run(ctx)
		if h.deferredShot == nil {
			h.env.Close()
			done <- out
			return
		}
		out.finish = finish
		done <- out
		select {
		case <-release:
		case <-time.After(deferredShotWait):
			// The host never called Finish: do not hold the tab forever.
		}
		h.deferredShot()
		h.env.Close()
	}()
	if out := h.dog.wait(ctx, done); out != nil {
		return out
	}
	// The command ran past its deadline: answer now; the stuck work ends
	// when its calls do (cancelling the program's context helps them).
	finish()
	cancel()
	return h.dog.output(prog.Tab)
}

// run attaches the tab, runs the program and assembles the answer, each
// phase under the watchdog.
func (h *host) run(ctx context.Context) *Output {
	if h.prog.Tab != "" {
		budget := max(attachBudget, h.stepTimeout)
		actx := ctx
		if h.prog.StepTimeout > 0 {
			// The command set its timeout: waiting for another process's
			// command on the tab takes no longer than that.
			budget = h.stepTimeout
			actx = browser.WithLockWait(ctx, h.stepTimeout)
		}
		h.dog.arm(budget, "attaching tab "+h.prog.Tab, 0, "")
		attached := h.sendBaselineWithAttach()
		err := h.env.AttachTab(actx, h.prog.Tab)
		attached()
		if err != nil {
			out := ErrorOutput(TypeConnection, h.errorText(err))
			out.Tab = h.prog.Tab
			if c := h.crashFor(h.prog.Tab, err); c != nil {
				out.Error.ErrorType = string(browser.KindBrowserCrashed)
				out.Error.Message = c.Message() + ". " + suggest.New("Open a new tab with %s", browser.OpenTab).Render(h.syntax())
			}
			h.noteCrashes(out)
			return out
		}
		h.dog.disarm()
		if p, err := h.env.Page(); err == nil {
			// Downloads of earlier commands on a kept connection are not
			// this command's.
			h.downloadsFrom = p.Downloads().Mark()
		}
		if h.prog.FromJSON {
			// A JSON command is only configure() and steps: the URL is
			// asked for now and its answer read later (resolveURLBefore),
			// its round trip hidden behind compiling and the first lookup.
			h.urlPending = h.askPageURL()
			h.readBeforeAhead()
		} else {
			h.urlBefore = h.pageURL()
		}
	}
	runErr := h.exec(ctx)
	h.resolveURLBefore()
	h.takeBeforeAhead()
	h.endBeforeSent()
	h.dog.arm(answerBudget, "assembling the answer", 0, "")
	h.env.EndCommand(ctx)
	return h.output(runErr)
}

func clampTimeout(d time.Duration) time.Duration {
	switch {
	case d <= 0:
		return DefaultStepTimeout
	case d > MaxStepTimeout:
		return MaxStepTimeout
	}
	return d
}

// exec compiles and runs the program on a sandboxed thread.
func (h *host) exec(ctx context.Context) error {
	h.predeclared = h.buildPredeclared()
	prog, err := h.compile(h.prog.Name, h.prog.Source)
	if err != nil {
		return &compileError{err}
	}
	th, stop := h.newThread(h.prog.Name, h.maxSteps())
	defer stop()
	globals, err := prog.Init(th, h.predeclared)
	if err != nil {
		return err
	}
	if r, ok := globals["result"]; ok {
		h.resultValue = r
	}
	return nil
}

// compile parses, budgets (budgetRewrite), resolves and compiles a
// program or module.
func (h *host) compile(name string, src []byte) (*starlark.Program, error) {
	f, err := lang.FileOptions.Parse(name, src, 0)
	if err != nil {
		return nil, err
	}
	budgetRewrite(f)
	return starlark.FileProgram(f, h.predeclared.Has)
}

func (h *host) maxSteps() uint64 {
	if h.prog.MaxSteps > 0 {
		return h.prog.MaxSteps
	}
	return DefaultMaxSteps
}

// newThread returns a sandboxed thread: no file system, network or process
// access except through builtins; load() restricted by the resolver; a step
// budget; cancelled when the program's context ends. Call stop when done.
func (h *host) newThread(name string, maxSteps uint64) (th *starlark.Thread, stop func()) {
	th = &starlark.Thread{Name: name, Load: h.load, Print: h.print}
	th.SetMaxExecutionSteps(maxSteps)
	th.SetLocal(builtins.EnvKey, h.env)
	th.SetLocal(builtins.CtxKey, h.ctx)
	unregister := context.AfterFunc(h.ctx, func() {
		th.Cancel(h.endReason())
	})
	forget := h.threads.add(th)
	return th, func() { unregister(); forget() }
}

// endReason says why the program's context ended: its timeout, or the
// caller (an MCP cancellation, a client that went away).
func (h *host) endReason() string {
	if errors.Is(h.ctx.Err(), context.Canceled) {
		return "the caller cancelled the command or went away before it finished"
	}
	return fmt.Sprintf("the program ran past its %s timeout", h.timeout)
}

// Bounds of what print() puts in the answer: a line, and all lines.
const (
	maxPrintLine  = 64 << 10
	maxPrintTotal = 1 << 20
)

// print keeps a printed line for the answer's log: at most maxLogLines
// lines, each cut at maxPrintLine bytes and all at maxPrintTotal, each cut
// saying so.
func (h *host) print(_ *starlark.Thread, msg string) {
	if len(h.printed) >= maxLogLines {
		return
	}
	limit := min(maxPrintLine, maxPrintTotal-h.printedBytes)
	if len(msg) > limit {
		h.log.Debug("print", "msg", msg[:max(limit, 0)], "cut", len(msg)-max(limit, 0))
		msg = fmt.Sprintf("%s… [print output cut: %d more bytes; a line keeps %d KiB and a command's log %d KiB; print a part of the value]", boundedstr(msg, max(limit, 0)), len(msg)-max(limit, 0), maxPrintLine>>10, maxPrintTotal>>10)
	} else {
		h.log.Debug("print", "msg", msg)
	}
	h.printedBytes += len(msg)
	h.printed = append(h.printed, msg)
}

// boundedstr is s cut at n bytes, on a UTF-8 boundary.
func boundedstr(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// compileError marks syntax and resolve errors of the program.
type compileError struct{ err error }

func (e *compileError) Error() string { return e.err.Error() }
func (e *compileError) Unwrap() error { return e.err }

// askPageURL sends the read of the page's URL now and returns the wait
// for it: whatever the program sends afterwards runs after the read, so its
// answer is the URL before any step, whenever it is waited for
// (resolveURLBefore).
func (h *host) askPageURL() func() string {
	p, err := h.env.Page()
	if err != nil {
		return func() string { return "" }
	}
	ctx := context.WithoutCancel(h.ctx)
	wait := p.SendStartURL(ctx)
	return func() string {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		u, _ := wait(ctx)
		return u
	}
}

// resolveURLBefore reads the URL asked for by askPageURL, once.
func (h *host) resolveURLBefore() {
	if h.urlPending != nil {
		h.urlBefore = h.urlPending()
		h.urlPending = nil
	}
}

func (h *host) pageURL() string {
	p, err := h.env.Page()
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), 2*time.Second)
	defer cancel()
	u, _ := p.StartURL(ctx)
	return u
}

// output assembles the command's answer.
func (h *host) output(runErr error) *Output {
	out := &Output{Status: StatusOK, Steps: h.steps, Log: h.printed}
	if h.env.HasPage() {
		out.Tab = h.env.Tab().Alias
	} else {
		out.Tab = h.prog.Tab
	}
	for i, s := range h.steps {
		if s.Status == StatusError {
			out.Status = StatusError
			typ := TypeExecution
			if h.failed != nil && h.failed.result == s && h.failed.connection {
				typ = TypeConnection
			}
			out.Errors = append(out.Errors, ErrorEntry{Step: i + 1, Action: s.Action, Type: typ, ErrorType: s.ErrorType, Error: s.Error})
		}
	}
	if runErr != nil {
		out.Status = StatusError
		h.reportRunError(out, runErr)
	}
	if h.resultValue != nil {
		if v, err := builtins.FromStarlark(h.resultValue); err == nil {
			out.Result = v
		} else {
			out.Result = h.resultValue.String()
		}
	}
	out.SiteProfile = h.profile
	out.ActionRequired = h.profileRequired()
	out.NextActions = h.nextActions()
	h.noteCrashes(out)
	h.capture(out)
	// A dialog answered while the answer was assembled goes on the last
	// step: no later command would hear of it.
	if n := len(h.steps); n > 0 && h.env.HasPage() {
		h.takeDialogs(h.steps[n-1])
	}
	h.opts.Pool.setDialogMark(h.dialogPage, h.dialogMark)
	return out
}

// crashFor returns the Chrome crash that took tab along, when attaching
// failed because the tab is gone.
func (h *host) crashFor(tab string, err error) *chrome.Crash {
	if !errors.Is(err, browser.ErrTabNotFound) && !errors.Is(err, state.ErrUnknownTab) {
		return nil
	}
	ep := h.opts.Endpoint.Normalize()
	if ep.Remote() {
		return nil
	}
	c := chrome.LastCrash(ep.Port)
	if c == nil || !slices.Contains(c.Tabs, tab) {
		return nil
	}
	return c
}

// noteCrashes warns, in the answer of the command that relaunched Chrome,
// that the previous one had died and what went with it.
func (h *host) noteCrashes(out *Output) {
	for _, c := range chrome.TakeNoticed() {
		out.Warnings = append(out.Warnings, string(browser.KindBrowserCrashed)+": "+c.Message())
	}
}

// reportRunError records a failure that stopped the program.
func (h *host) reportRunError(out *Output, err error) {
	var sf *stepFailure
	if errors.As(err, &sf) {
		if sf.connection {
			out.Error = &TopError{Type: TypeConnection, Message: sf.result.Error}
		}
		return // already in steps[] and errors[]
	}
	rep := lang.ReportError(err)
	var ce *compileError
	switch {
	case errors.As(err, &ce):
		out.Error = &TopError{Type: TypeParse, Message: rep.Message, Location: rep.Location}
	default:
		entry := ErrorEntry{Type: TypeExecution, Error: rep.Message, Location: rep.Location, Backtrace: rep.Backtrace}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(h.ctx.Err(), context.DeadlineExceeded) {
			entry.ErrorType = string(browser.KindTimeout)
		}
		out.Errors = append(out.Errors, entry)
	}
}

// argsDict builds the frozen args dict of a recipe.
func argsDict(args map[string]string) *starlark.Dict {
	d := starlark.NewDict(len(args))
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d.SetKey(starlark.String(k), starlark.String(args[k]))
	}
	d.Freeze()
	return d
}
