package matchers_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Ginkgo's interrupt handler waits for a signal for as long as the process
// lives.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/onsi/ginkgo/v2/internal/interrupt_handler.(*InterruptHandler).registerForInterrupts.func2"))
}
