package metricerr

import (
	"errors"
	"testing"
)

func TestNamedNamesOnce(t *testing.T) {
	for _, c := range []struct{ name, err, want string }{
		{"tool_call_accuracy", "tool_call_accuracy needs reference_tool_calls", "tool_call_accuracy needs reference_tool_calls"},
		{"topic_adherence", "topic_adherence: the conversation is empty", "topic_adherence: the conversation is empty"},
		{"my_metric", "the tool is unknown", "my_metric: the tool is unknown"},
		// A longer name that starts with the metric's is another metric.
		{"tool_call", "tool_call_f1 needs reference_tool_calls", "tool_call: tool_call_f1 needs reference_tool_calls"},
		{"m", "", "m: "},
	} {
		cause := errors.New(c.err)
		got := Named(c.name, cause)
		if got.Error() != c.want || !errors.Is(got, cause) {
			t.Errorf("Expected Named(%q, %q) to be %q wrapping its cause, but it is %q (errors.Is %v)", c.name, c.err, c.want, got, errors.Is(got, cause))
		}
	}
}
