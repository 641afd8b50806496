package browsertest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/report"
)

// repoRoot is the core module's directory, which go.mod's replace names.
const repoRoot = "../.."

// buildAgentcheck builds the command from the core module, once for the
// test, without the CLI's profile (-pgo=off: the page is the same, and
// the build is not every dependency compiled again with the profile); a
// build longer than five minutes fails it.
func buildAgentcheck(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "agentcheck")
	build := exec.CommandContext(ctx, "go", "build", "-pgo=off", "-o", bin, "./cmd/agentcheck")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("Expected agentcheck to build, but: %v\n%s", err, out)
	}
	return bin
}

// agentcheck runs the command bin with args and returns its standard
// output; exit 1 (a threshold failed) is a run like another. A run longer
// than a minute fails the test.
func agentcheck(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	// The demo replays its judge from the cassette built into the binary,
	// whatever judge or recording the environment asks for.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AGENTCHECK_") && !strings.HasPrefix(kv, "OPENAI_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, failed := err.(*exec.ExitError); !failed || cmd.ProcessState.ExitCode() != 1 {
			t.Fatalf("Expected agentcheck %s to run, but: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
		}
	}
	return stdout.Bytes()
}

// The thresholds under which some of the demo's samples fail.
var demoThresholds = []string{"--sample-threshold", "tool_call_accuracy=0.8", "--sample-threshold", "agent_goal_accuracy=0.5"}

// TestTheDemoReportInChromium renders the bundled demo dataset with
// agentcheck eval --format html and checks the page in the browser, against
// the run --format json saves. With AGENTCHECK_UPDATE_SCREENSHOT=1 it writes
// the README's screenshot, docs/report.png.
func TestTheDemoReportInChromium(t *testing.T) {
	b := startBrowser(t)
	bin := buildAgentcheck(t)
	page := agentcheck(t, bin, append([]string{"eval", "--format", "html"}, demoThresholds...)...)
	saved := agentcheck(t, bin, append([]string{"eval", "--format", "json"}, demoThresholds...)...)
	r, err := report.ReadJSON(bytes.NewReader(saved), "eval --format json")
	if err != nil {
		t.Fatalf("Expected --format json to read back, but: %v", err)
	}
	if len(idsOf(r, report.Fail)) == 0 || len(idsOf(r, report.Pass)) == 0 {
		t.Fatalf("Expected the demo to have failing and passing cases under %q, but it has %d and %d", demoThresholds, len(idsOf(r, report.Fail)), len(idsOf(r, report.Pass)))
	}
	t.Logf("the demo's %d cases: a page of %d bytes", len(r.Cases), len(page))
	p := b.open(t, "report-demo.html", page)
	checkReport(t, p, r)
	// The judge's reason, a tool call and the call diff are on the page a
	// reader sees.
	text := eval[string](p, `document.body.innerText`)
	for _, want := range []string{"The forecast was given in Fahrenheit (64°F), not in Celsius as desired.", "get_weather", "Expected against made"} {
		if !strings.Contains(text, want) {
			t.Errorf("Expected the demo's page to show %q, but it does not", want)
		}
	}
	dst := ""
	if os.Getenv("AGENTCHECK_UPDATE_SCREENSHOT") == "1" {
		dst = filepath.Join(repoRoot, "docs", "report.png")
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if png := p.screenshot("report-demo.png", dst); len(png) > 300<<10 {
		t.Errorf("Expected the screenshot under 300 KB, but it is %d bytes", len(png))
	}
}
