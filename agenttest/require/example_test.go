package require_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest/require"
)

// printT prints a failure as go test shows it, less the Error Trace, which
// varies with where the example runs, and stops on FailNow as *testing.T
// does.
type printT struct{}

func (printT) Errorf(format string, args ...any) {
	for _, line := range strings.Split(strings.Trim(fmt.Sprintf(format, args...), "\n"), "\n") {
		if !strings.HasPrefix(line, "\tError Trace:") && !strings.HasPrefix(line, "\t\t\t") {
			fmt.Println(strings.TrimRight(strings.ReplaceAll(line, "\t", "    "), " "))
		}
	}
}

func (printT) FailNow() {
	fmt.Println("FailNow")
	runtime.Goexit()
}

func ExampleNotCalled() {
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Cancel my 8pm booking, and book 9pm instead"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("cancel_booking", `{"booking_id":"b_3"}`),
			agentcheck.MustParseToolCall("book_table", `{"restaurant_id":"r_17","time":"21:00"}`),
		}},
	}
	// In a test, pass the *testing.T; here a TestingT that prints, on a
	// goroutine of its own as a test runs.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		require.NotCalled(printT{}, conv, "cancel_booking", "the agent may not cancel")
		fmt.Println("not reached")
	}()
	wg.Wait()
	// Output:
	// Error:          Expected no call to cancel_booking, but it was called 1 time:
	//                       = [0] cancel_booking(booking_id: "b_3")
	//                         [1] book_table(restaurant_id: "r_17", time: "21:00")
	//     Messages:       the agent may not cancel
	// FailNow
}
