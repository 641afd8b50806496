package browsertest

import (
	"slices"
	"strings"
	"testing"
)

// The harness's own checks: each thing the report's tests assert is absent
// is seen when a page does it, so that a silent harness cannot pass them.
func TestTheHarnessSeesWhatThePageDoes(t *testing.T) {
	b := startBrowser(t)
	p := b.open(t, "bad.html", []byte(`<!doctype html><html><head><title>bad</title></head><body>
<img src="http://127.0.0.1:9/x.png">
<script>window.__pwned = 1; console.error("boom"); alert("hi");</script>
<script>undefinedFunction()</script>
</body></html>`))
	p.settle()
	requests, errors, dialogs := p.seen()
	if !slices.ContainsFunc(requests, func(u string) bool { return strings.HasPrefix(u, "http://127.0.0.1:9/") }) {
		t.Errorf("Expected the image's request to be seen, but the requests seen are %q", requests)
	}
	if !slices.ContainsFunc(errors, func(e string) bool { return strings.Contains(e, "boom") }) ||
		!slices.ContainsFunc(errors, func(e string) bool { return strings.Contains(e, "undefinedFunction") }) {
		t.Errorf("Expected the console error and the exception to be seen, but the errors seen are %q", errors)
	}
	if len(dialogs) != 1 || !strings.Contains(dialogs[0], "hi") {
		t.Errorf("Expected the alert to be seen, but the dialogs seen are %q", dialogs)
	}
	if got := eval[string](p, `typeof window.__pwned`); got != "number" {
		t.Errorf("Expected the page's script to set window.__pwned, but it is %s", got)
	}
}
