package runtime

import (
	"context"
	"errors"
	"time"

	"github.com/cdp-skill/cdp-skill/lang"
)

// RunJSON parses, validates, lowers and runs a JSON command. The request is
// nil when the input did not parse.
func RunJSON(ctx context.Context, input []byte, opts Options) (*lang.Request, *Output) {
	req, err := lang.ParseRequest(input)
	if err != nil {
		return nil, LangErrorOutput(err)
	}
	if err := lang.CheckTabNeeds(req); err != nil {
		return req, LangErrorOutput(err)
	}
	src, err := lang.Lower(req)
	if err != nil {
		return req, LangErrorOutput(err)
	}
	prog := Program{
		Name:        "command.json",
		Source:      []byte(src),
		FromJSON:    true,
		Tab:         req.Tab,
		StepTimeout: time.Duration(req.TimeoutMS) * time.Millisecond,
		Capture:     req.Capture,
	}
	if len(req.Steps) > 0 && req.Steps[0].Action != nil {
		prog.FirstStepVisual = req.Steps[0].Action.Visual
		prog.FirstStepLooksUp = req.Steps[0].Action.LooksUpFirst
	}
	prog.OneStep = len(req.Steps) == 1
	out := Run(ctx, prog, opts)
	out.Warnings = append(req.Warnings, out.Warnings...)
	return req, out
}

// LangErrorOutput turns a PARSE/VALIDATION error of package lang into an
// output.
func LangErrorOutput(err error) *Output {
	var le *lang.Error
	if errors.As(err, &le) {
		return ErrorOutput(string(le.Type), le.Error())
	}
	return ErrorOutput(TypeValidation, err.Error())
}
