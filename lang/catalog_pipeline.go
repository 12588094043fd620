package lang

import "go.starlark.net/starlark"

// PipelineOptions are pipeline's parameters (the positional list is the same
// as steps).
type PipelineOptions struct {
	Steps starlark.Value `step:"steps" type:"list" doc:"the operations: {find, fill|click|type|check|select}, {waitFor, timeout}, {sleep}, {return}" example:"[{\"find\": \"#email\", \"fill\": \"a@b.c\"}]"`
}

func init() {
	register(&Action{Name: "pipeline", Verb: "Ran pipeline", Positional: "list", Visual: true, Options: PipelineOptions{},
		Example: `{"pipeline": [{"find": "#email", "fill": "a@b.c"}, {"find": "form button", "click": true}]}`,
		Doc:     "run several simple DOM operations in one evaluation (no round trips); reports failedAt on failure"})
}
