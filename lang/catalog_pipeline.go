package lang

func init() {
	register(&Action{Name: "pipeline", Verb: "Ran pipeline", Positional: "list", Visual: true,
		Params: []Param{{Name: "steps", Type: "list", Doc: "the operations: {find, fill|click|type|check|select}, {waitFor, timeout}, {sleep}, {return}"}},
		Doc:    "run several simple DOM operations in one evaluation (no round trips); reports failedAt on failure"})
}
