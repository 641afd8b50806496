package baseline_test

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/baseline"
)

func TestRoundTrip(t *testing.T) {
	s := baseline.Scores{
		"refund-2":  {"tool_call_f1": 0.6666666666666666, "tool_call_accuracy": 1},
		"booking 1": {"tool_call_accuracy": 0.5, "nan": math.NaN()},
		`a"b`:       {},
	}
	want := "{\n  \"samples\": {\n    \"a\\\"b\": {},\n    \"booking 1\": {\"tool_call_accuracy\": 0.5},\n" +
		"    \"refund-2\": {\"tool_call_accuracy\": 1.0, \"tool_call_f1\": 0.6666666666666666}\n  }\n}\n"
	if got := string(s.Encode()); got != want {
		t.Fatalf("Encode:\n%s\nwant:\n%s", got, want)
	}
	path := filepath.Join(t.TempDir(), "dir", "b.json")
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := baseline.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(back.Encode()); got != want {
		t.Errorf("read back:\n%s\nwant:\n%s", got, want)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("Expected only the baseline in its directory, but found %d files (a stray .tmp?)", len(entries))
	}
}

func TestCompare(t *testing.T) {
	old := baseline.Scores{"a": {"m": 1, "n": 0.5}, "b": {"m": 0.9}, "gone": {"m": 1}}
	now := baseline.Scores{"a": {"m": 0.7, "n": 0.45}, "b": {"m": 0.2}, "new": {"m": 0}}
	regs := now.Compare(old, 0.1)
	if len(regs) != 2 || regs[0] != (baseline.Regression{Sample: "b", Metric: "m", Score: 0.2, Baseline: 0.9}) || regs[1].Sample != "a" || regs[1].Metric != "m" {
		t.Errorf("Expected b/m (-0.7) then a/m (-0.3), and not a/n (within 0.1), but got %+v", regs)
	}
}

func TestErrorsNameWhere(t *testing.T) {
	dir := t.TempDir()
	if _, err := baseline.Read(filepath.Join(dir, "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	for _, tt := range []struct{ data, want string }{
		{`[]`, `b.json: not a baseline: want {"samples": {"NAME": {"METRIC": SCORE, ...}, ...}}, as --save-baseline writes`},
		{`{"samples": {"a": 1}}`, `b.json: sample "a": want an object of scores by metric, got int`},
		{`{"samples": {"a": {"f1": "1"}}}`, `b.json: sample "a": f1: want a number, got string`},
		{`{"samples": `, `b.json: `},
	} {
		path := filepath.Join(dir, "b.json")
		os.WriteFile(path, []byte(tt.data), 0o644)
		if _, err := baseline.Read(path); err == nil || !strings.HasSuffix(err.Error(), strings.TrimPrefix(tt.want, "b.json: ")) || !strings.Contains(err.Error(), path) {
			t.Errorf("Expected reading %s to fail with %q, but got %v", tt.data, tt.want, err)
		}
	}
}

// TestWriteFileKeepsTheMode: a new baseline is 0644, a file to commit; one
// whose owner made it private (0600) stays so when written again.
func TestWriteFileKeepsTheMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	perm := func() fs.FileMode {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if err := (baseline.Scores{"a": {"m": 1}}).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if got := perm(); got != 0o644 {
		t.Errorf("a new baseline has mode %v, want 0644", got)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (baseline.Scores{"a": {"m": 0.5}}).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if got := perm(); got != 0o600 {
		t.Errorf("the baseline written again has mode %v, want its 0600", got)
	}
}
