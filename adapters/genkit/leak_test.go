package genkit_test

import (
	"testing"

	"go.uber.org/goleak"
)

// genkit.Init (v1.4.0, genkit.go:213) watches for an interrupt with
// signal.NotifyContext and drops the cancel: its goroutine lives on, one
// per Init.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("os/signal.NotifyContext.func1"))
}
