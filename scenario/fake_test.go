package scenario_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/scenario"
	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a goroutine outlives them, but
// for the signal watcher Ginkgo's RunSpecs leaves behind by design.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/onsi/ginkgo/v2/internal/interrupt_handler.(*InterruptHandler).registerForInterrupts.func2"))
}

// fakeModel is a judgment.Judge that plays the simulated user and the judge
// from Go funcs, and keeps the questions it was asked.
type fakeModel struct {
	name string
	// user answers "scenario_user": the turn's message, or "" for done.
	user func(q judgment.Question, n int) (done bool, message, reason string)
	// verdict answers "scenario_verdict": a verdict for each criterion.
	verdict func(criteria []string, q judgment.Question) []string
	usage   judgment.Usage

	mu        sync.Mutex
	questions []judgment.Question
	userAsked int
	inFlight  atomic.Int32
	maxFlight atomic.Int32
	hold      chan struct{} // when set, each question waits for it
}

func (f *fakeModel) Model() string {
	if f.name == "" {
		return "fake-model"
	}
	return f.name
}

var criterionLine = regexp.MustCompile(`(?m)^\d+\. (.*)$`)

// criteriaOf reads the criteria back from a verdict question's input.
func criteriaOf(q judgment.Question) []string {
	head, _, _ := strings.Cut(q.Input, "\nConversation:")
	var out []string
	for _, m := range criterionLine.FindAllStringSubmatch(head, -1) {
		out = append(out, m[1])
	}
	return out
}

func (f *fakeModel) Ask(ctx context.Context, q judgment.Question) (judgment.Answer, error) {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxFlight.Load()
		if n <= m || f.maxFlight.CompareAndSwap(m, n) {
			break
		}
	}
	if f.hold != nil {
		select {
		case <-f.hold:
		case <-ctx.Done():
			return judgment.Answer{}, context.Cause(ctx)
		}
	}
	f.mu.Lock()
	f.questions = append(f.questions, q)
	f.mu.Unlock()
	a := judgment.Answer{Model: f.Model(), Source: "testdata/fake.yaml", Rerecord: "AGENTCHECK_RECORD=all go test ./fake"}
	switch q.Name {
	case "scenario_user":
		f.mu.Lock()
		f.userAsked++
		n := f.userAsked
		f.mu.Unlock()
		done, msg, reason := f.user(q, n)
		a.JSON, _ = json.Marshal(map[string]any{"done": done, "message": msg, "reason": reason})
	case "scenario_verdict":
		criteria := criteriaOf(q)
		verdicts := f.verdict(criteria, q)
		entries := make([]map[string]string, len(verdicts))
		for i, v := range verdicts {
			entries[i] = map[string]string{"criterion": criteria[i], "verdict": v, "reason": fmt.Sprintf("%s: %s", v, criteria[i])}
		}
		a.JSON, _ = json.Marshal(map[string]any{"criteria": entries})
	default:
		return a, fmt.Errorf("fakeModel: unexpected question %q", q.Name)
	}
	a.Usage = f.usage // after the funcs, which may set it
	return a, nil
}

func (f *fakeModel) asked(name string) []judgment.Question {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []judgment.Question
	for _, q := range f.questions {
		if q.Name == name {
			out = append(out, q)
		}
	}
	return out
}

// allMet is a verdict func that finds every criterion met.
func allMet(criteria []string, _ judgment.Question) []string { return repeat("met", len(criteria)) }

func repeat(v string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// userSays is a user func that says msgs, one a turn, then is done.
func userSays(msgs ...string) func(judgment.Question, int) (bool, string, string) {
	return func(_ judgment.Question, n int) (bool, string, string) {
		if n > len(msgs) {
			return true, "", "goal reached"
		}
		return false, msgs[n-1], "asking"
	}
}

// echo is an agent that answers "echo: <last user message>", with usage.
func echo(usage judgment.Usage) scenario.Agent {
	return scenario.AgentFunc(func(_ context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
		last := ""
		for _, m := range conv {
			if m.Role == agentcheck.Human {
				last = m.Content
			}
		}
		return scenario.Reply{Messages: []agentcheck.Message{{Role: agentcheck.AI, Content: "echo: " + last}}, Usage: usage}, nil
	})
}

// roles lists the roles of a conversation's messages, for comparisons.
func roles(c agentcheck.Conversation) string {
	parts := make([]string, len(c))
	for i, m := range c {
		parts[i] = string(m.Role)
		if len(m.ToolCalls) > 0 {
			parts[i] += "->"
		}
	}
	return strings.Join(parts, " ")
}
