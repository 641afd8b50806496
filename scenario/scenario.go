package scenario

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
)

// DefaultMaxTurns is the most turns a scenario runs when MaxTurns is 0.
const DefaultMaxTurns = 10

// Scenario is one conversation to drive the agent through. The zero values
// of the optional fields work: no Script proceeds turn after turn until the
// user is done or MaxTurns is reached; no Criteria passes a run that no
// check, checkpoint or budget failed.
type Scenario struct {
	// Name names the scenario in reports and files its run's requests
	// under a case of the cassette (recorder.WithCase), so that scenarios
	// sharing a cassette replay each their own answers, even concurrently:
	// give such scenarios distinct names (two runs of one name through one
	// model client at once fail, saying so). Default "scenario".
	Name string
	// Agent is the agent under test.
	Agent Agent
	// User writes the user's turns: a SimulatedUser, StaticUser(...), or
	// your own. Needed by the script's UserTurn and Proceed steps, and
	// with no Script.
	User User
	// Judge decides the Criteria at the end and the criteria of Checkpoint
	// steps: a *judge.Client (judge.ForTest(t)) or a *judge.Panel, whose
	// members each judge and whose aggregation decides.
	Judge judgment.Judge
	// Criteria are what must hold of the whole conversation. The judge
	// decides them when the run ends: after the script, when the user is
	// done, and when MaxTurns is reached (which is not a failure by
	// itself). The run passes when every criterion is met.
	Criteria []string
	// Script is the run's steps, in order; none is Proceed().
	Script []Step
	// MaxTurns bounds the turns (a turn is a user message and the agent's
	// reply); DefaultMaxTurns when 0. MinTurns is the least turns before
	// the simulated user may end the conversation and before JudgeEachTurn
	// may end it early.
	MaxTurns, MinTurns int
	// JudgeEachTurn asks the judge about the Criteria after every turn
	// that Proceed runs, from MinTurns on: the run ends passed when every
	// criterion is met, failed when one is not met, and goes on while any
	// is inconclusive.
	JudgeEachTurn bool
	// Budget bounds what the run may spend; exceeding it ends the run as
	// failed, naming the budget and the figure.
	Budget Budget
	// Limiter bounds the concurrent requests of the simulated user and the
	// judge, shared with other scenarios (and with the agent's client
	// through Limiter.Client). Nil is a limit of 16 shared by every
	// scenario of the process.
	Limiter *Limiter
}

// Budget bounds a run; a zero field is no bound. Tokens are counted from
// the responses' usage: the agent's from Reply.Usage, the simulated user's
// and the judge's from their answers.
type Budget struct {
	// ToolCalls bounds the tool calls the agent makes in the whole run.
	ToolCalls int
	// Tokens bounds the tokens of the whole run, all roles together;
	// AgentTokens, UserTokens and JudgeTokens those of one role.
	Tokens, AgentTokens, UserTokens, JudgeTokens int
	// TurnTimeout bounds the time of each turn: the user's message and the
	// agent's reply, tool calls included. The turn's context ends then.
	TurnTimeout time.Duration
}

// defaultLimiter is the limit of the scenarios that set none.
var defaultLimiter = NewLimiter(16)

// Run runs the scenario and returns what happened, without a test: the
// verdict, the transcript, the judgments, the usage. Its requests are
// filed under the case Name in a cassette (recorder.WithCase), in place of
// any case ctx had: in an evalsuite suite, use Case, which keeps the
// suite's case of each run.
func (s Scenario) Run(ctx context.Context) *Result {
	return s.run(recorder.WithCase(ctx, s.name()), s.name())
}

func (s Scenario) name() string {
	if s.Name == "" {
		return "scenario"
	}
	return s.Name
}

func (s Scenario) maxTurns() int {
	if s.MaxTurns == 0 {
		return DefaultMaxTurns
	}
	return s.MaxTurns
}

// validate reports what keeps the scenario from running, every problem
// with where it is, before anything runs.
func (s Scenario) validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if isNil(s.Agent) {
		add("no Agent: set Scenario.Agent to the agent under test (an AgentFunc, or an adapter's Agent)")
	}
	if len(s.Script) == 0 && s.User == nil {
		add("no Script and no User: nothing would write the user's turns, so the run could neither start nor end; give Script steps (UserSays, ...) or a User")
	}
	if s.User != nil {
		if isNil(s.User) {
			add("User is a nil %T", s.User)
		} else if v, ok := s.User.(interface{ validate() error }); ok {
			if err := v.validate(); err != nil {
				add("User: %v", err)
			}
		}
	}
	switch {
	case s.MaxTurns < 0:
		add("MaxTurns is %d, want 0 (the default, %d) or more", s.MaxTurns, DefaultMaxTurns)
	case s.MinTurns < 0:
		add("MinTurns is %d, want 0 or more", s.MinTurns)
	case s.MinTurns > s.maxTurns():
		add("MinTurns (%d) is more than MaxTurns (%d): the run could never reach it", s.MinTurns, s.maxTurns())
	}
	for _, b := range []struct {
		name string
		n    int
	}{{"ToolCalls", s.Budget.ToolCalls}, {"Tokens", s.Budget.Tokens}, {"AgentTokens", s.Budget.AgentTokens}, {"UserTokens", s.Budget.UserTokens}, {"JudgeTokens", s.Budget.JudgeTokens}} {
		if b.n < 0 {
			add("Budget.%s is %d, want 0 (no bound) or more", b.name, b.n)
		}
	}
	if s.Budget.TurnTimeout < 0 {
		add("Budget.TurnTimeout is %v, want 0 (no bound) or more", s.Budget.TurnTimeout)
	}
	if err := checkCriteria(s.Criteria); err != nil {
		add("Criteria: %v", err)
	}
	if len(s.Criteria) > 0 && isNil(s.Judge) {
		add("Criteria but no Judge: set Scenario.Judge (judge.ForTest(t)) to decide them")
	}
	if s.JudgeEachTurn && len(s.Criteria) == 0 {
		add("JudgeEachTurn but no Criteria to judge")
	}
	if p, ok := s.Judge.(judgment.Panel); ok {
		for i, m := range p.Members() {
			if isNil(m) {
				add("Judge: the panel's member %d is nil", i)
			}
		}
	}
	for i, st := range s.Script {
		if err := st.validate(s); err != nil {
			add("Script[%d] %s: %v", i, st.describe(), err)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return &invalidError{name: s.name(), problems: strings.Join(msgs, "; ")}
}

// invalidError is why a scenario cannot run: every problem found, joined.
type invalidError struct{ name, problems string }

func (e *invalidError) Error() string {
	return fmt.Sprintf("scenario %q cannot run: %s", e.name, e.problems)
}

// isNil reports whether v is nil, or holds a nil pointer or func, whose
// methods would panic.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Func:
		return r.IsNil()
	}
	return false
}

// MaxCriteria bounds the criteria of one judgment: each is an entry the
// judge's answer must give.
const maxCriteria = 50

func checkCriteria(criteria []string) error {
	if len(criteria) > maxCriteria {
		return fmt.Errorf("%d criteria, more than %d; split them between checkpoints", len(criteria), maxCriteria)
	}
	seen := make(map[string]int, len(criteria))
	var errs []error
	for i, c := range criteria {
		if strings.TrimSpace(c) == "" {
			errs = append(errs, fmt.Errorf("criterion %d is empty", i+1))
			continue
		}
		if j, dup := seen[c]; dup {
			errs = append(errs, fmt.Errorf("criteria %d and %d are both %q", j+1, i+1, c))
		}
		seen[c] = i
	}
	return errors.Join(errs...)
}
