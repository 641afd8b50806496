package assert_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/agentcheck/agentcheck"
)

// goTool is the go command of the toolchain running this test.
func goTool(t *testing.T) string {
	t.Helper()
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); runtime.GOOS != "windows" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is needed to run testdata/attrs with go test -json: %v", err)
	}
	return p
}

// attrsTest is the test binary of testdata/attrs, built once (go test -c)
// for the tests that run it, and test2json, the go command's converter of
// test output to JSON, found once (go tool -n test2json); TestMain removes
// the binary's directory.
var attrsTest struct {
	once                 sync.Once
	dir, path, test2json string
	step                 string // the command that failed, if one did
	err                  error
	out                  []byte
}

// goTestJSON runs the tests of testdata/attrs as go test -json runs them,
// with the test flags args (-test.run, -test.artifacts, ...): their test
// binary, built once, in the package's directory with go test's own flags,
// its output through test2json. A go test of its own for each test linked
// the binary anew each time (seconds of CPU), and a go tool test2json for
// each started a go command (a third of a second). err is the run's; a
// failed test is an *exec.ExitError.
func goTestJSON(t *testing.T, args ...string) (stdout []byte, stderr string, err error) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs testdata/attrs with go test; not in -short")
	}
	goCmd := goTool(t)
	attrsTest.once.Do(func() {
		attrsTest.step = "a directory for testdata/attrs's test binary"
		if attrsTest.dir, attrsTest.err = os.MkdirTemp("", "attrs-test-"); attrsTest.err != nil {
			return
		}
		attrsTest.path = filepath.Join(attrsTest.dir, "attrs.test")
		// Linked as go test links the binaries it runs.
		attrsTest.step = "go test -c ./testdata/attrs"
		if attrsTest.out, attrsTest.err = exec.Command(goCmd, "test", "-c", "-o", attrsTest.path, "-ldflags=-s -w", "./testdata/attrs").CombinedOutput(); attrsTest.err != nil {
			return
		}
		// go tool -n prints the tool's path (built and cached when the
		// toolchain does not ship it built).
		attrsTest.step = "go tool -n test2json"
		var path []byte
		if path, attrsTest.err = exec.Command(goCmd, "tool", "-n", "test2json").Output(); attrsTest.err != nil {
			if ee, ok := attrsTest.err.(*exec.ExitError); ok {
				attrsTest.out = ee.Stderr
			}
			return
		}
		attrsTest.test2json = strings.TrimSpace(string(path))
	})
	if attrsTest.err != nil {
		t.Fatalf("%s: %v\n%s", attrsTest.step, attrsTest.err, attrsTest.out)
	}
	cmd := exec.Command(attrsTest.test2json, append([]string{"-t", attrsTest.path,
		"-test.v=test2json", "-test.paniconexit0", "-test.timeout=10m0s", "-test.count=1"}, args...)...)
	cmd.Dir = filepath.Join("testdata", "attrs")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	stdout, err = cmd.Output()
	return stdout, errOut.String(), err
}

// event is a line of go test -json.
type event struct {
	Action, Test, Key, Value, Path, Output string
}

// events reads go test -json's lines.
func events(t *testing.T, stdout []byte) []event {
	t.Helper()
	var es []event
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("go test -json printed %q: %v", sc.Text(), err)
		}
		es = append(es, e)
	}
	return es
}

// TestRealTestingTRecords runs the tests of testdata/attrs, whose
// assertions get a real *testing.T, as go test -json -artifacts does, and
// reads what they recorded: the attributes in the JSON stream, and the
// failure's artifacts under -outputdir.
func TestRealTestingTRecords(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	out := t.TempDir()
	stdout, stderr, err := goTestJSON(t, "-test.artifacts", "-test.outputdir="+out, "-test.run=^(TestScorePasses|TestToolCallsFail)$")
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatalf("go test ./testdata/attrs: %v\n%s", err, stderr)
	}

	attrs := map[string]map[string]string{} // test -> key -> value
	artifacts := map[string]string{}        // test -> dir
	result := map[string]string{}           // test -> pass or fail
	var output strings.Builder
	for _, e := range events(t, stdout) {
		switch e.Action {
		case "attr":
			if attrs[e.Test] == nil {
				attrs[e.Test] = map[string]string{}
			}
			attrs[e.Test][e.Key] = e.Value
		case "artifacts":
			artifacts[e.Test] = e.Path
		case "pass", "fail":
			result[e.Test] = e.Action
		case "output":
			output.WriteString(e.Output)
		}
	}
	if result["TestScorePasses"] != "pass" || result["TestToolCallsFail"] != "fail" {
		t.Fatalf("results %v, want TestScorePasses to pass and TestToolCallsFail to fail\n%s%s", result, output.String(), stderr)
	}
	if got := attrs["TestScorePasses"]; got["agentcheck.tool_call_accuracy"] != "0.75" || got["agentcheck.verdict"] != "pass" || got["agentcheck.check"] != "score" {
		t.Errorf("attributes of TestScorePasses = %v, want agentcheck.tool_call_accuracy 0.75, verdict pass, check score", got)
	}
	dir := artifacts["TestToolCallsFail"]
	if got := attrs["TestToolCallsFail"]; got["agentcheck.verdict"] != "fail" || got["agentcheck.check"] != "tool_calls" ||
		got["agentcheck.artifacts"] != filepath.Join(dir, "agentcheck-tool_calls.txt")+","+filepath.Join(dir, "agentcheck-tool_calls.json") {
		t.Errorf("attributes of TestToolCallsFail = %v (artifact directory %s)", got, dir)
	}
	if !strings.Contains(output.String(), "Messages:   \tbooking for 2 nights") {
		t.Errorf("the failure lacks the test's message:\n%s", output.String())
	}
	// go test and testify both name the line of the assertion, not one of
	// agentcheck's own.
	src, err := os.ReadFile(filepath.Join("testdata", "attrs", "attrs_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	at := fmt.Sprintf("attrs_test.go:%d", 1+bytes.Count(src[:bytes.Index(src, []byte("\tassert.ToolCalls("))], []byte("\n")))
	if m := regexp.MustCompile(`(?m)^\s+(attrs_test\.go:\d+): \n\s+Error Trace:\s+\S*/testdata/attrs/(attrs_test\.go:\d+)\n`).FindStringSubmatch(output.String()); m == nil || m[1] != at || m[2] != at {
		t.Errorf("the failure is not reported at the assertion's line, %s (got %q):\n%s", at, m, output.String())
	}

	// Under <outputdir>/_artifacts; the package and test directories below
	// it are the testing package's business.
	if rel, err := filepath.Rel(out, dir); err != nil || !strings.HasPrefix(rel, "_artifacts"+string(filepath.Separator)) {
		t.Fatalf("artifact directory %q, want one under %s/_artifacts: %v", dir, out, err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "agentcheck-tool_calls.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(report), "Expected the 2 tool calls made to be exactly these 2, in this order (1 differs; -want +got):\n") ||
		!strings.Contains(string(report), "- nights: 2\n") {
		t.Errorf("the report artifact:\n%s", report)
	}
	js, err := os.ReadFile(filepath.Join(dir, "agentcheck-tool_calls.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := agentcheck.ParseSample(string(js))
	if err != nil || len(s.Conversation) != 5 || len(s.ReferenceToolCalls) != 2 || s.Conversation[4].Content != "Booked hotel A for 3 nights." {
		t.Errorf("the transcript artifact reads back as %v, %v:\n%s", s.Conversation, err, js)
	}
	if _, ok := artifacts["TestScorePasses"]; ok {
		t.Error("a passing test asked for an artifact directory")
	}
}

// TestRealTestingTWithoutArtifacts runs the failing test of testdata/attrs
// as go test -json does with no -artifacts: its artifact directory goes
// with the test, so no agentcheck.artifacts attribute names files in it,
// while the check and its verdict are still recorded.
func TestRealTestingTWithoutArtifacts(t *testing.T) {
	t.Parallel()
	stdout, stderr, err := goTestJSON(t, "-test.run=^TestToolCallsFail$")
	if _, failed := err.(*exec.ExitError); err != nil && !failed {
		t.Fatalf("go test ./testdata/attrs: %v\n%s", err, stderr)
	}
	attrs := map[string]string{}
	for _, e := range events(t, stdout) {
		if e.Action == "attr" && e.Test == "TestToolCallsFail" {
			attrs[e.Key] = e.Value
		}
	}
	if attrs["agentcheck.verdict"] != "fail" || attrs["agentcheck.check"] != "tool_calls" {
		t.Fatalf("Expected TestToolCallsFail to record its failed check, but its attributes are %v\n%s%s", attrs, stdout, stderr)
	}
	if p, ok := attrs["agentcheck.artifacts"]; ok {
		t.Errorf("Expected no agentcheck.artifacts without -artifacts, but it names %s, which go test removes with the test", p)
	}
}
