package runtime

import (
	"os"
	"strings"
)

// EnvStrict names the variable that turns strict mode on for every command
// (the same as "strict": true in each): no automatic fallbacks in actions.
const EnvStrict = "CDP_SKILL_STRICT"

// strictDefault reads CDP_SKILL_STRICT: 1, true or yes turn strict mode on.
func strictDefault() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvStrict))) {
	case "1", "true", "yes":
		return true
	}
	return false
}
