package browser

import (
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

func TestMain(m *testing.M) { browsertest.Main(m) }
