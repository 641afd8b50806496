package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An input that cannot be read to the end (a file that does not open, an
// array of samples not closed or followed by more, samples without a comma
// between them) is no sample: every output counts the samples read, says
// the input was not read to the end, and fails the run; a sample cut short
// is a sample that could not be scored. A sharded run of such input merges
// to the unsharded run. Generated: samples of random number and position.
func TestAnInputNotReadIsNoSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 20))
	type counts struct{ Samples, Errors, Unread int }
	for round := range 4 {
		n := 2 + rng.IntN(9)
		lines := synthLines(n, uint64(round))
		k := 1 + rng.IntN(n-1) // the samples before a missing comma
		array := "[\n" + strings.Join(lines, ",\n") + "\n]"
		missing := filepath.Join(t.TempDir(), "missing.jsonl")
		for _, tc := range []struct {
			name  string
			files []string
			want  counts
		}{
			{"array not closed", []string{writeFile(t, "a.json", strings.TrimSuffix(array, "]"))}, counts{n, 0, 1}},
			{"bytes after the array", []string{writeFile(t, "a.json", array+"\n,")}, counts{n, 0, 1}},
			{"no comma between samples", []string{writeFile(t, "a.json", "["+strings.Join(lines[:k], ",")+" "+strings.Join(lines[k:], ",")+"]")}, counts{k, 0, 1}},
			{"a file that does not open", []string{missing, writeFile(t, "a.jsonl", strings.Join(lines, "\n"))}, counts{n, 0, 1}},
			{"a sample cut short", []string{writeFile(t, "a.json", strings.TrimSuffix(array, "}\n]"))}, counts{n, 1, 0}},
			{"both", []string{writeFile(t, "a.json", strings.TrimSuffix(array, "}\n]")), missing}, counts{n, 1, 1}},
		} {
			t.Run(fmt.Sprintf("%d samples, %s", n, tc.name), func(t *testing.T) {
				out, stderr, code := runAgentcheck(t, "", append([]string{"eval", "--format", "json"}, tc.files...)...)
				if code != exitFailed {
					t.Errorf("exit %d, want %d", code, exitFailed)
				}
				var doc struct {
					Summary struct {
						counts
						Pass bool
					}
					Samples []struct{ Index int }
				}
				if err := json.Unmarshal([]byte(out), &doc); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				if diff := cmp.Diff(tc.want, doc.Summary.counts); diff != "" || doc.Summary.Pass {
					t.Errorf("summary (-want +got):\n%s\npass %t", diff, doc.Summary.Pass)
				}
				if unindexed := strings.Count(out, `"index":-1`); unindexed != tc.want.Unread {
					t.Errorf("%d cases without an index, want one for each input not read (%d)", unindexed, tc.want.Unread)
				}
				var wantErr string
				if e := tc.want.Errors; e > 0 {
					wantErr += fmt.Sprintf("agentcheck eval: %d of %d samples could not be scored\n", e, tc.want.Samples)
				}
				if tc.want.Unread > 0 {
					wantErr += "agentcheck eval: 1 input error (the output says why, where it was met)\n"
				}
				if stderr != wantErr {
					t.Errorf("stderr (-want +got):\n%s", cmp.Diff(wantErr, stderr))
				}

				table, _, _ := runAgentcheck(t, "", append([]string{"eval"}, tc.files...)...)
				summary := fmt.Sprintf("%d %s, %d scored, %d could not be scored", tc.want.Samples, inflect(tc.want.Samples, "sample", "samples"), tc.want.Samples-tc.want.Errors, tc.want.Errors)
				if tc.want.Unread > 0 {
					summary += ", 1 input error"
				}
				if !strings.HasSuffix(table, summary+"\n") {
					t.Errorf("the table does not end with %q:\n%s", summary, table)
				}

				html, _, _ := runAgentcheck(t, "", append([]string{"eval", "--format", "html"}, tc.files...)...)
				verdict := fmt.Sprintf("FAIL · %d cases · %d failing (%d could not be scored) · 0 flaky", tc.want.Samples, tc.want.Errors, tc.want.Errors)
				if tc.want.Unread > 0 {
					verdict += " · 1 input error"
				}
				if !strings.Contains(html, ">"+verdict+"</div>") {
					t.Errorf("the html page's verdict is not %q", verdict)
				}
				// The filter counts the rows it shows, input errors among them.
				filter := fmt.Sprintf(`<label for="show-failing">failing (%d)</label>`, tc.want.Errors)
				if tc.want.Unread > 0 {
					filter = fmt.Sprintf(`<label for="show-failing">failing and input errors (%d)</label>`, tc.want.Errors+tc.want.Unread)
				}
				if !strings.Contains(html, filter) {
					t.Errorf("the html page's filter is not %s", filter)
				}

				md, _, _ := runAgentcheck(t, "", append([]string{"eval", "--format", "markdown"}, tc.files...)...)
				heading := fmt.Sprintf("#### Failing cases (%d)", tc.want.Errors)
				if tc.want.Unread > 0 {
					heading = fmt.Sprintf("#### Failing cases and input errors (%d)", tc.want.Errors+tc.want.Unread)
				}
				if !strings.Contains(md, summary+".\n") || !strings.Contains(md, heading+"\n") {
					t.Errorf("the markdown summary lacks %q or %q:\n%s", summary+".", heading, md)
				}

				junit, _, _ := runAgentcheck(t, "", append([]string{"eval", "--format", "junit"}, tc.files...)...)
				tests := regexp.MustCompile(`<testsuite [^>]*tests="(\d+)"[^>]*errors="(\d+)"`).FindStringSubmatch(junit)
				if tests == nil {
					t.Fatalf("no testsuite:\n%s", junit)
				}
				if got, want := tests[1], fmt.Sprint(strings.Count(junit, "<testcase ")); got != want {
					t.Errorf("JUnit tests=%s, but %s test cases", got, want)
				}
				if got, want := tests[2], fmt.Sprint(strings.Count(junit, "<error ")); got != want {
					t.Errorf("JUnit errors=%s, but %s errors", got, want)
				}

				if round > 0 {
					return // the shards' once for each kind of input
				}
				shards := shardRuns(t, 3, tc.files...)
				dir := t.TempDir()
				for _, format := range []string{"table", "json", "junit", "html", "markdown"} {
					want := runFor(t, dir, append([]string{"eval", "--format", format}, tc.files...)...)
					got := runFor(t, dir, append([]string{"merge", "--format", format}, shards...)...)
					if d := cmp.Diff(want, got); d != "" {
						t.Errorf("--format %s: merged differs from unsharded (-eval +merge):\n%s", format, d)
					}
				}
			})
		}
	}
}

// Input errors are no samples of a baseline: two exports of an OTLP file
// that cannot be read (named alike: by their file) neither stop
// --save-baseline as a name given twice nor stand in the baseline, and
// neither do files that do not open; the samples read are saved.
func TestInputErrorsAreNoBaselineSamples(t *testing.T) {
	dir := t.TempDir()
	traces, err := os.ReadFile("../../dataset/testdata/otel/weather.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	otel := writeFile(t, "bad.jsonl", string(traces)+"{broken\n{broken\n")
	out, stderr, code := runAgentcheck(t, "", "eval", "--input-format", "otel", "--metrics", "tool_call_f1", "--save-baseline", filepath.Join(dir, "otel.json"), otel)
	if code != exitFailed || strings.Contains(stderr, "given twice") || strings.Contains(stderr, "not written") ||
		!strings.Contains(out, "bad.jsonl:4: column 2: unexpected 'b', want an object key") {
		t.Fatalf("exit %d, stderr:\n%s\n%s", code, stderr, out)
	}
	good := writeFile(t, "good.jsonl", strings.Join(synthLines(3, 5), "\n"))
	saved := filepath.Join(dir, "base.json")
	_, stderr, code = runAgentcheck(t, "", "eval", "--save-baseline", saved, filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), good)
	if code != exitFailed || strings.Contains(stderr, "given twice") || strings.Contains(stderr, "not written") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `": {"tool_call_accuracy"`); n != 3 || strings.Contains(string(b), "a.jsonl") {
		t.Errorf("the baseline holds %d samples, want the 3 read:\n%s", n, b)
	}
}
