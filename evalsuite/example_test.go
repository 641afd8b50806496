package evalsuite_test

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/evalsuite"
	"github.com/agentcheck/agentcheck/metric"
)

// A dataset of recorded samples, scored with a threshold per run and gated
// on the mean and the pass rate. In a test, s.Run(t, cases) runs each case
// as a subtest and fails t with the same summary; Evaluate does without a
// test.
func ExampleSuite_Evaluate() {
	cases, err := evalsuite.LoadCases("testdata/cases.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := evalsuite.Suite{
		Checks: []evalsuite.Check{{Metric: metric.ToolCallAccuracy{}, Threshold: 0.8}},
		Gates: []evalsuite.Gate{
			evalsuite.MeanAtLeast("tool_call_accuracy", 0.9),
			evalsuite.PassRateAtLeast(0.95),
		},
	}
	res := s.Evaluate(context.Background(), cases)
	for _, c := range res.Cases {
		fmt.Printf("%s: %s %s\n", c.ID, fmtScore(c.Score(0)), c.Verdict())
	}
	fmt.Println()
	fmt.Println(res)
	// Output:
	// book-1: 1 pass
	// book-2: 0.75 fail
	// 3: 0.5 pass
	// line 4: 1 pass
	//
	// Expected the mean tool_call_accuracy over 4 cases to be at least 0.9, but it is 0.8125; the cases under 0.9:
	//   case    metric              score  threshold  verdict
	//   3       tool_call_accuracy  0.5    0.5        pass
	//   book-2  tool_call_accuracy  0.75   0.8        fail
	//
	// Expected the pass rate over 4 runs to be at least 0.95, but it is 0.75 (3 passed; 95% Wilson interval [0.301, 0.954]); the cases with failed runs:
	//   case    metric              score  threshold  verdict
	//   book-2  tool_call_accuracy  0.75   0.8        fail
	//
	// 1 of 4 cases failed: book-2
}

func fmtScore(x float64) string { return fmt.Sprintf("%.4g", x) }

// A flaky agent run five times a case: pass^k says how reliably it does
// each task, pass@k whether it can at all, and the summary names the flaky
// cases. The agent here is a deterministic stand-in that books the right
// table on some runs only; a real one would send its requests with the
// context it is given, which labels each run for the recorder.
func Example_flakyAgent() {
	right := []agentcheck.ToolCall{agentcheck.MustParseToolCall("book", `{"table": 4}`)}
	wrong := []agentcheck.ToolCall{agentcheck.MustParseToolCall("book", `{"table": 5}`)}
	agent := func(passes ...bool) func(context.Context) (agentcheck.Sample, error) {
		run := 0
		return func(ctx context.Context) (agentcheck.Sample, error) {
			made := wrong
			if passes[run%len(passes)] {
				made = right
			}
			run++
			return agentcheck.Sample{
				Conversation:       agentcheck.Conversation{{Role: agentcheck.Human, Content: "Book table 4"}, {Role: agentcheck.AI, ToolCalls: made}},
				ReferenceToolCalls: right,
			}, nil
		}
	}
	s := evalsuite.Suite{
		Checks: []evalsuite.Check{{Metric: metric.ToolCallAccuracy{}, Threshold: 1}},
		Repeat: 5,
		Gates:  []evalsuite.Gate{evalsuite.PassAtK(3, 0.8), evalsuite.PassHatK(3, 0.8)},
	}
	res := s.Evaluate(context.Background(), []evalsuite.Case{
		{ID: "steady", Run: agent(true)},
		{ID: "flaky", Run: agent(true, false, true, true, false)},
		{ID: "shaky", Run: agent(false, false, true, false, false)},
	})
	for _, c := range res.Cases {
		lo, hi := c.Wilson95()
		fmt.Printf("%-6s %d/5 runs passed, 95%% CI [%.3f, %.3f], pass@3 %.2f, pass^3 %.2f\n",
			c.ID, c.Passes(), lo, hi, c.PassAtK(3), c.PassHatK(3))
	}
	fmt.Println()
	fmt.Println(res)
	// Output:
	// steady 5/5 runs passed, 95% CI [0.566, 1.000], pass@3 1.00, pass^3 1.00
	// flaky  3/5 runs passed, 95% CI [0.231, 0.882], pass@3 1.00, pass^3 0.10
	// shaky  1/5 runs passed, 95% CI [0.036, 0.624], pass@3 0.60, pass^3 0.00
	//
	// Expected pass^3 (the mean over 3 cases of 5 runs each) to be at least 0.8, but it is 0.3667; the cases that pulled it down:
	//   case   metric              score  threshold  verdict
	//   shaky  tool_call_accuracy  0.2    1          flaky 1/5, pass^3 0
	//   flaky  tool_call_accuracy  0.6    1          flaky 3/5, pass^3 0.1
	//
	// Flaky cases (some runs passed, some failed): flaky (3/5 runs passed), shaky (1/5 runs passed)
}

// The unbiased estimates over n = 10 runs with c = 3 passes.
func ExamplePassAtKEstimate() {
	for _, k := range []int{1, 2, 5} {
		fmt.Printf("k=%d pass@k=%.4f pass^k=%.4f\n", k, evalsuite.PassAtKEstimate(10, 3, k), evalsuite.PassHatKEstimate(10, 3, k))
	}
	// Output:
	// k=1 pass@k=0.3000 pass^k=0.3000
	// k=2 pass@k=0.5333 pass^k=0.0667
	// k=5 pass@k=0.9167 pass^k=0.0000
}

// 8 passes in 10 runs: the pass rate is 0.8, but could well be anywhere
// from about 0.49 to 0.94.
func ExampleWilson95() {
	lo, hi := evalsuite.Wilson95(8, 10)
	fmt.Printf("[%.3f, %.3f]\n", lo, hi)
	// Output: [0.490, 0.943]
}
