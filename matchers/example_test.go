package matchers_test

import (
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/onsi/gomega"
)

// conversation is what an agent did when asked to move a meeting.
var conversation = agentcheck.Conversation{
	{Role: agentcheck.Human, Content: "Move my 3pm with Ana to Friday"},
	{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("find_event", `{"attendee":"Ana","time":"15:00"}`),
		agentcheck.MustParseToolCall("update_event", `{"id":"ev_42","day":"Thursday","notify":true}`),
	}},
	{Role: agentcheck.Tool, Content: `{"id":"ev_42"}`},
	{Role: agentcheck.Tool, Content: "ok"},
	{Role: agentcheck.AI, Content: "Moved to Friday."},
}

// printingGomega prints failures; in a test use gomega.NewWithT(t), or
// Ginkgo's Expect.
func printingGomega() gomega.Gomega {
	return gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
}

func ExampleHaveToolCalls() {
	g := printingGomega()
	g.Expect(conversation).To(HaveToolCalls(
		agenttest.CallTo("find_event").With(agenttest.Args{"attendee": "Ana"}).AllowingExtraArgs(),
		agenttest.CallTo("update_event").With(agenttest.Args{
			"id":     gomega.HavePrefix("ev_"),
			"day":    "Friday",
			"notify": agenttest.OneOf(true, agenttest.Absent()),
		}),
	))
	// Output:
	// Expected the 2 tool calls made to be exactly these 2, in this order (1 differs; -want +got):
	//     want                                  got
	//   = [0] find_event(attendee: "Ana", ...)  [0] find_event(attendee: "Ana", time: "15:00")
	//   ~ [1] update_event(day: "Friday", id: HavePrefix("ev_"), notify: OneOf(true, Absent()))
	//                                           [1] update_event(id: "ev_42", day: "Thursday", notify: true)
	//
	//   want[1] update_event vs got[1] update_event:
	//       - day: "Friday"
	//       + day: "Thursday"
}

func ExampleHaveCalledTool() {
	g := printingGomega()
	g.Expect(conversation).To(HaveCalledTool("find_event").Times(1))
	g.Expect(conversation).NotTo(HaveCalledTool("update_event"))
	// Output:
	// Expected no call to update_event, but it was called 1 time:
	//     [0] find_event(attendee: "Ana", time: "15:00")
	//   = [1] update_event(id: "ev_42", day: "Thursday", notify: true)
}

func ExampleHaveToolCallAccuracy() {
	g := printingGomega()
	reference := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("find_event", `{"attendee":"Ana","time":"15:00"}`),
		agentcheck.MustParseToolCall("update_event", `{"id":"ev_42","day":"Friday"}`),
	}
	g.Expect(conversation).To(HaveToolCallAccuracy(0.9).Against(reference...))
	// Output:
	// Expected the agent's tool calls to score tool_call_accuracy >= 0.9, but they score 0.75
	// reason: 2 calls aligned by name; mean argument score 0.75
	//     reference                                       predicted
	//   = [0] find_event(attendee: "Ana", time: "15:00")  [0] find_event(attendee: "Ana", time: "15:00")
	//   ~ [1] update_event(id: "ev_42", day: "Friday")    [1] update_event(id: "ev_42", day: "Thursday", notify: true)
	//
	//   ref[1] update_event vs pred[1] update_event (argument score 0.5):
	//       - day: "Friday"
	//       + day: "Thursday"
}
