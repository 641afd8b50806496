package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

// asCommandEnv, set in the environment of a run of the test binary, makes
// it the agentcheck command: TestMain runs main, with the arguments given,
// instead of the tests. The tests that need the command as a process of its
// own (a closed pipe, --version) run the test binary so (command), the
// same main as the built command's, where a go build for them linked the
// command anew on every run of the tests (seconds of CPU).
const asCommandEnv = "AGENTCHECK_TEST_BINARY_IS_THE_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommandEnv) == "1" {
		main()
		return // main exits
	}
	// On GitHub Actions every eval the tests run would append to the job's
	// summary; the tests that want one set their own.
	os.Unsetenv(stepSummaryEnv)
	// The tests run the command in-process a few hundred times, each
	// allocating anew; under -race a collection costs much more than
	// without, and at 400% the package's tests take about a sixth less CPU
	// (alternating runs of the test binary). The command itself is not
	// changed: it runs at Go's default in its own process.
	debug.SetGCPercent(400)
	goleak.VerifyTestMain(m) // m.Run, then no goroutine left behind

}

// TestEvalFlagsAnywhere: flags may come after the files, and a bool flag
// takes true or false after a space as its value.
func TestEvalFlagsAnywhere(t *testing.T) {
	lines := synthLines(50, 21)
	path := writeFile(t, "d.jsonl", strings.Join(lines, "\n"))
	want, _, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--metrics", "tool_call_f1", path)
	if code != 0 || strings.Count(want, "\n") != 50 || !strings.HasPrefix(want, `{"tool_call_f1":`) {
		t.Fatalf("flags first: exit %d, output %.200q", code, want)
	}
	for _, args := range [][]string{
		{"eval", path, "--format", "jsonl", "--metrics", "tool_call_f1"},
		{"eval", "--format", "jsonl", path, "--metrics=tool_call_f1"},
		{"eval", "-format", "jsonl", path, "-metrics", "tool_call_f1"},
		{"eval", "--metrics", "tool_call_f1", "--format", "jsonl", "--", path},
	} {
		got, stderr, code := runAgentcheck(t, "", args...)
		if code != 0 || got != want {
			t.Errorf("agentcheck %q: exit %d, stderr %q, output differs from the flags-first run", args, code, stderr)
		}
	}

	// The bundled example's third sample makes its calls in the wrong
	// order: 0 in order, 1 in any order.
	thirdLine := func(args ...string) string {
		t.Helper()
		out, stderr, code := runAgentcheck(t, "", append([]string{"eval", "--format", "jsonl", "--metrics", "tool_call_accuracy"}, args...)...)
		out = onlyScores(t, out)
		if code != 0 {
			t.Fatalf("agentcheck eval %q: exit %d: %s", args, code, stderr)
		}
		return strings.Split(out, "\n")[2]
	}
	for args, want := range map[string]string{
		"--strict-order false":  `{"tool_call_accuracy":1.0}`,
		"--strict-order FALSE":  `{"tool_call_accuracy":1.0}`,
		"--strict-order=false":  `{"tool_call_accuracy":1.0}`,
		"--strict-order true":   `{"tool_call_accuracy":0.0}`,
		"-strict-order false":   `{"tool_call_accuracy":1.0}`,
		"--strict-order":        `{"tool_call_accuracy":0.0}`,
		"--strict-order=true":   `{"tool_call_accuracy":0.0}`,
		"--strict-order=0":      `{"tool_call_accuracy":1.0}`,
		"--strict-order=FALSE ": `{"tool_call_accuracy":1.0}`,
	} {
		if got := thirdLine(strings.Fields(args)...); got != want {
			t.Errorf("%s: the wrong-order sample scores %s, want %s", args, got, want)
		}
	}
	// After a bool flag, anything but true or false is a file.
	demo := writeFile(t, "demo.jsonl", demoData)
	out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--metrics", "tool_call_accuracy", "--strict-order", demo)
	out = onlyScores(t, out)
	if code != 0 || strings.Split(out, "\n")[2] != `{"tool_call_accuracy":0.0}` {
		t.Errorf("--strict-order FILE: exit %d, %q, stderr %q", code, out, stderr)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", path, "--verbose"}, "flag provided but not defined: -verbose"},
		{[]string{"eval", path, "--format"}, "flag needs an argument: -format"},
		{[]string{"eval", path, "--format", "yaml"}, `unknown format "yaml"`},
		{[]string{"eval", path, "---format", "jsonl"}, "bad flag syntax: ---format"},
	} {
		out, stderr, code := runAgentcheck(t, "", tt.args...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("agentcheck %q: exit %d, stdout %q, stderr %q; want %d and %q", tt.args, code, out, stderr, exitUsage, tt.want)
		}
	}
	// A flag's value may look like a flag.
	if _, stderr, code := runAgentcheck(t, "", "eval", path, "--input-format", "-x"); code != exitUsage ||
		!strings.Contains(stderr, `--input-format: unknown input format "-x"`) {
		t.Errorf("--input-format -x: exit %d, stderr %q", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	for _, tt := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/agentcheck/agentcheck", Version: "v1.4.0"}}, true, "agentcheck v1.4.0"},
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/agentcheck/agentcheck", Version: "(devel)"}}, true, "agentcheck (devel)"},
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/agentcheck/agentcheck", Version: "v0.0.0-20261126201500-86218ed1a2b3+dirty"}}, true, "agentcheck v0.0.0-20261126201500-86218ed1a2b3+dirty"},
		{&debug.BuildInfo{}, true, "agentcheck (devel)"},
		{nil, false, "agentcheck (devel)"},
	} {
		if got := versionLine(tt.info, tt.ok); got != tt.want {
			t.Errorf("versionLine(%v) = %q, want %q", tt.info, got, tt.want)
		}
	}
	for _, arg := range []string{"--version", "-version", "version"} {
		out, stderr, code := runAgentcheck(t, "", arg)
		if code != 0 || !regexp.MustCompile(`^agentcheck \S+\n$`).MatchString(out) || stderr != "" {
			t.Errorf("agentcheck %s: exit %d, stdout %q, stderr %q", arg, code, out, stderr)
		}
	}
	// As a process of its own, with the build information go test gave
	// it: (devel), as a build from a checkout has, or a version (a go build
	// stamps one from the VCS, v0.0.0-DATE-COMMIT+dirty, as the table's has;
	// .ci/install-check runs the installed command's, a release's).
	out, err := command(t, "--version").CombinedOutput()
	if err != nil || !regexp.MustCompile(`^agentcheck (\(devel\)|v\d+\.\d+\.\d+\S*)\n$`).Match(out) {
		t.Errorf("the command's --version as a process: %v, %q", err, out)
	}
}

// command is exec.Command of the agentcheck command with args, for the
// tests that need it as a process: the test binary, with asCommandEnv set.
func command(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), asCommandEnv+"=1")
	return cmd
}

// TestEvalClosedPipe: when the reader of the output goes away (| head),
// eval stops, quietly, with status 0: as a process (no SIGPIPE death) and
// in-process.
func TestEvalClosedPipe(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests

	// 2,000 samples: every format's output is 2.6 times a pipe's 64 KiB or
	// more (the table's 170 kB is the least), so a write fails once the
	// reader is gone.
	input := strings.Join(synthLines(2000, 5), "\n") + "\n"
	path := writeFile(t, "big.jsonl", input)

	t.Run("process", func(t *testing.T) {
		for _, format := range []string{"jsonl", "table", "json", "junit"} {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd := command(t, "eval", path, "--format", format)
			cmd.Stdout, cmd.Stderr = w, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			head := make([]byte, 100)
			if _, err := io.ReadFull(r, head); err != nil {
				t.Fatal(err)
			}
			r.Close()
			err = cmd.Wait()
			if err != nil || stderr.Len() != 0 {
				t.Errorf("--format %s | head: %v (%s), stderr %q; want status 0 and nothing said", format, err, cmd.ProcessState, stderr.String())
			}
		}
	})

	t.Run("in-process", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		var stderr bytes.Buffer
		code := run([]string{"eval", "--format", "jsonl", path}, nil, w, &stderr)
		w.Close()
		if code != 0 || stderr.Len() != 0 {
			t.Errorf("exit %d, stderr %q; want 0 and nothing said", code, stderr.String())
		}
	})

	t.Run("EPIPE", func(t *testing.T) {
		var stderr bytes.Buffer
		code := run([]string{"eval", "--format", "jsonl", path}, nil, &epipeWriter{n: 5000}, &stderr)
		if code != 0 || stderr.Len() != 0 {
			t.Errorf("exit %d, stderr %q; want 0 and nothing said", code, stderr.String())
		}
		// The table, the smallest output, is over two pipes' worth, so the
		// processes above met a closed pipe in every format.
		w := &epipeWriter{n: 2 << 16}
		stderr.Reset()
		if code := run([]string{"eval", "--format", "table", path}, nil, w, &stderr); code != 0 || stderr.Len() != 0 || w.n != 0 {
			t.Errorf("--format table to a pipe closed after 128 KiB: exit %d, stderr %q, %d bytes short of the close; want 0, nothing said and the close met", code, stderr.String(), w.n)
		}
		// Another write error is still one.
		stderr.Reset()
		code = run([]string{"eval", "--format", "jsonl", path}, nil, &failingWriter{n: 5000}, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "broken pipe") {
			t.Errorf("exit %d, stderr %q; want 1 and the error", code, stderr.String())
		}
	})
}

// epipeWriter fails with EPIPE after n bytes, as os.Stdout does when the
// reader has closed the pipe.
type epipeWriter struct{ n int }

func (w *epipeWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
	}
	w.n -= len(p)
	return len(p), nil
}

// TestEvalTableShortNumbers: the table rounds to four decimals, the JSON
// formats keep every digit.
func TestEvalTableShortNumbers(t *testing.T) {
	sample := `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"a": 1, "b": 2, "c": 3}}]}], "reference_tool_calls": [{"name": "f", "args": {"a": 1, "b": 2, "c": 4}}]}`
	out, _, code := runAgentcheck(t, sample, "eval", "--metrics", "tool_call_accuracy", "-")
	rows := strings.Split(out, "\n")
	if code != 0 || len(rows) < 2 || !strings.Contains(rows[1], " 0.6667 ") || strings.Contains(out, "0.66666") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
	out, _, _ = runAgentcheck(t, sample, "eval", "--metrics", "tool_call_accuracy", "--format", "jsonl", "-")
	out = onlyScores(t, out)
	if want := fmt.Sprintf(`{"tool_call_accuracy":%v}`+"\n", 2.0/3); out != want {
		t.Errorf("jsonl %q, want %q", out, want)
	}
}
