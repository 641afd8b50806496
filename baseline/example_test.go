package baseline_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentcheck/agentcheck/baseline"
)

// A baseline is the file the CLI's --save-baseline writes: cases sorted,
// one a line. A later run compares with it; a drop beyond the tolerance is
// a regression.
func ExampleScores_Compare() {
	dir, _ := os.MkdirTemp("", "baseline")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "baseline.json")
	saved := baseline.Scores{
		"refund-2":  {"tool_call_accuracy": 0.5, "tool_call_f1": 0.6666666666666666},
		"booking-1": {"tool_call_accuracy": 1, "tool_call_f1": 1},
	}
	if err := saved.WriteFile(path); err != nil {
		fmt.Println(err)
		return
	}
	data, _ := os.ReadFile(path)
	fmt.Print(string(data))

	old, _ := baseline.Read(path)
	now := baseline.Scores{
		"refund-2":  {"tool_call_accuracy": 0.45, "tool_call_f1": 0.6666666666666666},
		"booking-1": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.6666666666666666},
	}
	for _, r := range now.Compare(old, 0.1) {
		fmt.Printf("%s %s: %.4g → %.4g\n", r.Sample, r.Metric, r.Baseline, r.Score)
	}
	// Output:
	// {
	//   "samples": {
	//     "booking-1": {"tool_call_accuracy": 1.0, "tool_call_f1": 1.0},
	//     "refund-2": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.6666666666666666}
	//   }
	// }
	// booking-1 tool_call_accuracy: 1 → 0.5
	// booking-1 tool_call_f1: 1 → 0.6667
}
