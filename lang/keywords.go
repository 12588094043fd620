package lang

// starlarkKeywords are the words Starlark's grammar takes: a parameter
// whose snake_case name is one gets a trailing underscore as its keyword
// argument (load → load_), Python's convention.
var starlarkKeywords = map[string]bool{
	"and": true, "break": true, "continue": true, "def": true, "elif": true, "else": true, "for": true,
	"if": true, "in": true, "lambda": true, "load": true, "not": true, "or": true, "pass": true,
	"return": true, "while": true,
}

// keywordName is the Starlark keyword argument name for a snake_case name.
func keywordName(snake string) string {
	if starlarkKeywords[snake] {
		return snake + "_"
	}
	return snake
}
