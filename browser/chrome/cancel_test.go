package chrome_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

// A connect its caller gave up on (a client that went away, an interrupt)
// says so: it does not call a healthy Chrome frozen, nor launch another.
func TestEnsureCancelledSaysSo(t *testing.T) {
	port := browsertest.Require(t).Port
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, launched, err := chrome.Ensure(ctx, chrome.Endpoint{Port: port}, true, chrome.LaunchOptions{Headless: true})
	if err == nil || launched || !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "frozen") || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("Ensure with a cancelled context: launched=%v err=%v", launched, err)
	}
	if _, _, err := chrome.Ensure(context.Background(), chrome.Endpoint{Port: port}, true, chrome.LaunchOptions{Headless: true}); err != nil {
		t.Fatalf("the same Chrome afterwards: %v", err)
	}
}
