package report

import (
	"bytes"
	"testing"

	"github.com/agentcheck/agentcheck/internal/plainreason"
	"github.com/agentcheck/agentcheck/metric"
)

// plainreason's SetResult keeps a plain reason as it is and leaves to
// SetResult what it cannot take so (judges' verdicts, a reason past the
// bound); its WriteCase copies the reasons its mask marks and escapes the
// others, and leaves the Writer as it was.
func TestPlainReasonEntryPoints(t *testing.T) {
	set := plainreason.SetResult.(func(*Case, int, *metric.Result) bool)
	write := plainreason.WriteCase.(func(*Writer, *Case, uint64) error)
	long := bytes.Repeat([]byte("ab "), 200)
	for _, r := range []metric.Result{
		{Score: 0.5, Reason: "1 call aligned by name; mean argument score 0.5"},
		{Score: 0.5, Reason: string(long)},
		{Score: 0.5, Reason: "judged", Verdicts: []metric.Verdict{{Model: "m", Score: 1, Reason: "fine"}}},
	} {
		var want, got Case
		want.SetResult(2, &r)
		ok := set(&got, 2, &r)
		if ok != (len(r.Reason) <= maxReason && len(r.Verdicts) == 0) {
			t.Fatalf("Expected SetResult of %q (%d verdicts) to say %v", r.Reason, len(r.Verdicts), !ok)
		}
		if len(got.Scores) != 3 || got.Scores[2] != want.Scores[2] || got.Reasons[2] != want.Reasons[2] || len(got.Verdicts) != len(want.Verdicts) {
			t.Fatalf("Expected the plain SetResult of %q to set the case as SetResult does:\n%+v\nbut it set\n%+v", r.Reason, want, got)
		}
	}
	run := &Run{Metrics: []MetricSummary{{Name: "a"}, {Name: "b"}}}
	c := Case{Scores: []float64{0.5, 0.5}, Reasons: []string{`says "no"`, "plain"}}
	var out bytes.Buffer
	w := NewWriter(&out, JSONL, run)
	write(w, &c, 2) // b's reason only
	w.WriteCase(&c)
	w.Close()
	const line = `{"a":0.5,"b":0.5,"reasons":{"a":"says \"no\"","b":"plain"}}` + "\n"
	if out.String() != line+line {
		t.Fatalf("Expected both writes to be\n%sbut they are\n%s", line, out.String())
	}
}
