package genai_test

import (
	"testing"

	"go.uber.org/goleak"
)

// go.opencensus.io/stats/view, which the genai SDK imports, starts its
// worker in an init function, for as long as the process lives.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("go.opencensus.io/stats/view.(*worker).start"))
}
