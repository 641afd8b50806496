package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// browserPackage is the Debian package the tests need; .ci/run installs it.
const browserPackage = "chromium-headless-shell"

// browserPath finds a headless Chromium: $AGENTCHECK_CHROMIUM, then Debian's
// chromium-headless-shell, then a full chromium. Without one the test is
// skipped with a message naming the package, unless CI is set: CI always
// has a browser, so there its absence fails the test.
func browserPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("AGENTCHECK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "NO BROWSER: the HTML report's browser tests did not run; install Debian's " + browserPackage +
		" (apt-get install -y --no-install-recommends " + browserPackage + ") or set AGENTCHECK_CHROMIUM"
	if os.Getenv("CI") != "" {
		t.Fatal(msg + " (CI is set, so a missing browser fails)")
	}
	t.Skip(msg)
	return ""
}

// Timeouts: a browser's whole life (a test's), and loading and checking one
// page. Each bounds a context, so a hung browser fails the test rather than
// stall it.
const (
	browserLife = 4 * time.Minute
	pageTimeout = 90 * time.Second
)

// browser is one headless Chromium for a test, closed at its end.
type browser struct {
	ctx context.Context
}

func startBrowser(t *testing.T) *browser {
	t.Helper()
	path := browserPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // the tests may run as root, as CI does
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	// The browser lives as long as the context of its first action, so
	// that context, the allocator's, bounds the browser's whole life.
	life, cancelLife := context.WithTimeout(context.Background(), browserLife)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(life, opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		cancelLife()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("Expected %s to start, but: %v", path, err)
	}
	return &browser{ctx: ctx}
}

// page is a report loaded in the browser, with what the browser said while
// it loaded and ran it.
type loadedPage struct {
	t   *testing.T
	ctx context.Context
	url string

	mu       sync.Mutex
	requests []string // URLs requested other than the page itself
	errors   []string // console errors, uncaught exceptions, log entries of level error
	dialogs  []string // alert, confirm, prompt, beforeunload
}

// open writes html to a file and loads it in a new tab of b. The tab is
// closed at the end of the test.
func (b *browser) open(t *testing.T, name string, html []byte) *loadedPage {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, html, 0o644); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: file}).String()
	tab, cancelTab := chromedp.NewContext(b.ctx)
	ctx, cancel := context.WithTimeout(tab, pageTimeout)
	t.Cleanup(func() {
		cancel()
		cancelTab()
	})
	p := &loadedPage{t: t, ctx: ctx, url: u}
	if err := chromedp.Listen(ctx, p.event); err != nil {
		t.Fatalf("Expected to listen to the browser's events, but: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("Expected %s to load, but: %v", u, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === "complete"`)); err != nil {
		t.Fatalf("Expected %s to finish loading, but: %v", u, err)
	}
	return p
}

func (p *loadedPage) event(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Request.URL != p.url {
			p.requests = append(p.requests, ev.Request.URL)
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			p.errors = append(p.errors, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		p.errors = append(p.errors, fmt.Sprintf("uncaught exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, msg))
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			p.errors = append(p.errors, fmt.Sprintf("%s %s: %s (%s)", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text, ev.Entry.URL))
		}
	case *page.EventJavascriptDialogOpening:
		p.dialogs = append(p.dialogs, fmt.Sprintf("%s(%q)", ev.Type, ev.Message))
		go func() { // a dialog blocks the page until it is answered
			_, _ = chromedp.Call(p.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}()
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](p *loadedPage, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("Expected %s to evaluate in the page, but: %v", expr, err)
	}
	return v
}

// seen returns what the browser reported so far.
func (p *loadedPage) seen() (requests, errors, dialogs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...), append([]string(nil), p.errors...), append([]string(nil), p.dialogs...)
}

// settle lets the page run what it has queued (timers, a dialog's event)
// before the test reads what it saw: a round trip through the page's event
// loop after two animation frames.
func (p *loadedPage) settle() {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](
		`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => r(true), 50))))`,
		chromedp.EvalAwaitPromise))
	if err != nil && !strings.Contains(err.Error(), "dialog") {
		p.t.Fatalf("Expected the page to settle, but: %v", err)
	}
}

// screenshot saves what a reader sees first, the page's top 1200×1500
// pixels, as a PNG: to the test's artifact directory and, when dst is not
// "", to dst.
func (p *loadedPage) screenshot(name, dst string) []byte {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1200, 1500)); err != nil {
		p.t.Fatalf("Expected the viewport to be set, but: %v", err)
	}
	eval[bool](p, `window.scrollTo(0, 0); true`)
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("Expected a screenshot, but: %v", err)
	}
	if err := os.WriteFile(filepath.Join(p.t.ArtifactDir(), name), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	if dst != "" {
		if err := os.WriteFile(dst, png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
	return png
}
