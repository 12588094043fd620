package lang

import "github.com/cdp-skill/cdp-skill/lang/stepopt"

// PipelineOptions are pipeline's parameters (the positional list is the same
// as steps).
type PipelineOptions struct {
	Steps stepopt.Operations `step:"steps" type:"list" doc:"the operations: {find, fill|click|type|check|select}, {waitFor, timeout}, {sleep}, {return}" example:"[{\"find\": \"#email\", \"fill\": \"a@b.c\"}]"`
}

func init() {
	register(&Action{Name: "pipeline", Verb: "Ran pipeline", Positional: "list", PositionalIs: "steps", Visual: true, Options: PipelineOptions{},
		Example: `{"pipeline": [{"find": "#email", "fill": "a@b.c"}, {"find": "form button", "click": true}]}`,
		Doc:     "run several simple DOM operations in one evaluation (no round trips); reports failedAt on failure"})
}
