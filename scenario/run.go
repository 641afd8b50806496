package scenario

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck"
)

// runner is one run of a scenario.
type runner struct {
	s   Scenario
	h   *hooks
	res *Result

	turn      int // the current turn, 0 before the user's first message
	turnStart time.Time
	turnCtx   context.Context
	endTurn   context.CancelCauseFunc
	tools     *toolSink

	// over says why the conversation is over (the user was done, MaxTurns
	// was reached, the judge decided early): later turns are skipped, the
	// script's checks still run.
	over string
	// decided is the judgment JudgeEachTurn ended the conversation with,
	// which stands as the final one.
	decided *Judgment
	// turnJudged is the length of the conversation JudgeEachTurn last
	// judged, when its judgment is the last one made: with nothing said
	// since, it stands as the final one too.
	turnJudged int
}

// outcome is how a run ends before its script does: an error, a failure,
// or a Succeed.
type outcome struct {
	end    string
	passed bool
	reason string
	detail string // more for the report: a check's message
	err    error
}

// run runs the scenario; label is the case its requests are filed under,
// when it chose it (Run), "" when its caller did (Case).
func (s Scenario) run(ctx context.Context, label string) *Result {
	start := time.Now()
	res := &Result{Name: s.name(), maxTurns: s.maxTurns(), budget: s.Budget}
	if err := s.validate(); err != nil {
		res.Err, res.End, res.Reason = err, "error", err.Error()
		return res
	}
	lim := s.Limiter
	if lim == nil {
		lim = defaultLimiter
	}
	r := &runner{s: s, h: &hooks{limiter: lim, label: label}, res: res}
	defer r.h.release()
	ctx = withHooks(ctx, r.h)
	script := s.Script
	if len(script) == 0 {
		script = []Step{Proceed()}
	}
	var out *outcome
	for i, st := range script {
		if err := context.Cause(ctx); err != nil {
			out = r.fail("", fmt.Errorf("the run was interrupted before Script[%d] %s: %w", i, st.describe(), err))
			break
		}
		if out = r.step(ctx, i, st); out != nil {
			break
		}
	}
	r.closeTurn()
	if out == nil {
		out = r.decide(ctx)
	}
	res.End, res.Passed, res.Reason, res.detail, res.Err = out.end, out.passed, out.reason, out.detail, out.err
	if out.err != nil {
		res.End, res.Passed = "error", false
	}
	res.Duration = time.Since(start)
	res.cassettes = slices.Clone(r.h.sources)
	return res
}

// step runs one step of the script.
func (r *runner) step(ctx context.Context, i int, st Step) *outcome {
	where := fmt.Sprintf("Script[%d] %s", i, st.describe())
	switch st.kind {
	case stepUserSays, stepUserTurn, stepAgent, stepAgentSays, stepProceed:
		if r.over != "" {
			r.res.notes = append(r.res.notes, fmt.Sprintf("%s skipped: the conversation was over (%s)", where, r.over))
			return nil
		}
	}
	switch st.kind {
	case stepUserSays:
		return r.userTurn(ctx, st.text)
	case stepUserTurn:
		return r.userTurn(ctx, "")
	case stepAgent:
		return r.agentTurn(ctx)
	case stepAgentSays:
		if r.turnCtx == nil {
			r.startTurn(ctx, 0)
		}
		r.res.Conversation = append(r.res.Conversation, agentcheck.Message{Role: agentcheck.AI, Content: st.text})
		r.res.Turns[len(r.res.Turns)-1].End = len(r.res.Conversation)
	case stepProceed:
		for n := 0; !st.bounded || n < st.turns; n++ {
			if out := r.userTurn(ctx, ""); out != nil || r.over != "" {
				return out
			}
			if out := r.agentTurn(ctx); out != nil {
				return out
			}
			if r.s.JudgeEachTurn && r.turn >= r.s.MinTurns {
				if out := r.judgeTurn(ctx); out != nil || r.over != "" {
					return out
				}
			}
		}
	case stepCheck:
		return r.check(i, st)
	case stepCheckpoint:
		jd, out := r.judge(ctx, "checkpoint", st.criteria)
		if out != nil {
			return out
		}
		if !jd.Passed {
			return &outcome{end: "checkpoint", reason: fmt.Sprintf("at %s (turn %d) %s", where, r.turn, tally(jd))}
		}
	case stepSucceed:
		return &outcome{end: "succeed", passed: true, reason: fmt.Sprintf("the script succeeded at %s (turn %d): %s", where, r.turn, st.text)}
	case stepFail:
		return &outcome{end: "fail", reason: fmt.Sprintf("the script failed at %s (turn %d): %s", where, r.turn, st.text)}
	}
	return nil
}

// userTurn starts a turn with the user's message: text, or the User's when
// text is "".
func (r *runner) userTurn(ctx context.Context, text string) *outcome {
	if out := r.stopped(ctx); out != nil {
		return out
	}
	if r.turn >= r.res.maxTurns {
		r.over = fmt.Sprintf("MaxTurns (%d) was reached", r.res.maxTurns)
		return nil
	}
	r.startTurn(ctx, r.turn+1)
	if text != "" {
		r.say(text)
		return nil
	}
	in := UserInput{Conversation: slices.Clone(r.res.Conversation), Turn: r.turn, MayEnd: r.turn > max(r.s.MinTurns, 1)}
	reply, err := callUser(r.turnCtx, r.s.User, in)
	r.res.Usage.User = r.res.Usage.User.Add(reply.Usage)
	r.timeTurn()
	if out := r.interrupted("user", err); out != nil {
		return out
	}
	if !reply.Done {
		r.say(reply.Message)
		return r.overBudget()
	}
	if out := r.overBudget(); out != nil {
		return out
	}
	if !in.MayEnd && in.Turn == 1 {
		return r.fail("user", fmt.Errorf("the user ended the conversation before its first message: %s", reply.Reason))
	}
	if !in.MayEnd {
		return r.fail("user", fmt.Errorf("the user ended the conversation at turn %d, before MinTurns (%d): %s", in.Turn, r.s.MinTurns, reply.Reason))
	}
	r.undoTurn()
	r.over = "the user was done"
	if reply.Reason != "" {
		r.over += ": " + reply.Reason
	}
	return nil
}

// say adds the user's message to the conversation and the turn.
func (r *runner) say(text string) {
	r.res.Conversation = append(r.res.Conversation, agentcheck.Message{Role: agentcheck.Human, Content: text})
	r.res.Turns[len(r.res.Turns)-1].End = len(r.res.Conversation)
}

// agentTurn asks the agent for its reply to the conversation so far.
func (r *runner) agentTurn(ctx context.Context) *outcome {
	if out := r.stopped(ctx); out != nil {
		return out
	}
	if r.turnCtx == nil {
		r.startTurn(ctx, 0) // the agent speaks first: turn 0
	}
	reply, err := callAgent(r.turnCtx, r.s.Agent, slices.Clone(r.res.Conversation))
	r.res.Usage.Agent = r.res.Usage.Agent.Add(reply.Usage)
	r.timeTurn()
	// What the agent said and did before it failed is kept, when it says.
	replyErr := checkReply(reply)
	if replyErr == nil {
		r.res.Conversation = append(r.res.Conversation, reply.Messages...)
		r.res.ToolCalls += len(agentcheck.Conversation(reply.Messages).ToolCalls())
		r.res.Turns[len(r.res.Turns)-1].End = len(r.res.Conversation)
	}
	if fatal := r.tools.failure(); fatal != nil {
		return r.fail("tool", fatal)
	}
	if err == nil {
		err = replyErr
	}
	if out := r.interrupted("agent", err); out != nil {
		return out
	}
	return r.overBudget()
}

// checkReply says what is wrong with an agent's reply.
func checkReply(reply Reply) error {
	if len(reply.Messages) == 0 {
		return errors.New("the agent returned no messages")
	}
	said := false
	for i, m := range reply.Messages {
		if m.Role != agentcheck.AI && m.Role != agentcheck.Tool {
			return fmt.Errorf("message %d of the agent's reply has role %q; a reply holds the agent's (ai) messages and tool results (tool)", i, m.Role)
		}
		said = said || m.Role == agentcheck.Tool || len(m.ToolCalls) > 0 || strings.TrimSpace(m.Content) != ""
	}
	if !said {
		return fmt.Errorf("the agent returned %d %s with no text, tool call or result", len(reply.Messages), pluralWord(len(reply.Messages), "message", "messages"))
	}
	return nil
}

// check runs a Check or CheckFunc step.
func (r *runner) check(i int, st Step) (out *outcome) {
	where := fmt.Sprintf("Script[%d] %s", i, st.describe())
	defer func() {
		if p := recover(); p != nil {
			out = r.fail("check", fmt.Errorf("%s panicked: %v\n%s", where, p, debug.Stack()))
		}
	}()
	conv := slices.Clone(r.res.Conversation)
	if st.checkFn != nil {
		if err := st.checkFn(conv); err != nil {
			return &outcome{end: "check", reason: fmt.Sprintf("the check at %s (turn %d) failed", where, r.turn), detail: err.Error()}
		}
		return nil
	}
	rep := st.check(conv)
	if err := rep.Err(); err != nil {
		return r.fail("check", fmt.Errorf("%s could not be made: %w", where, err))
	}
	if !rep.OK() {
		return &outcome{end: "check", reason: fmt.Sprintf("the check at %s (turn %d) failed", where, r.turn), detail: rep.String()}
	}
	return nil
}

// judgeTurn is JudgeEachTurn's judgment after a turn: it ends the
// conversation when every judge found every criterion met, and the run
// when every judge found one not met.
func (r *runner) judgeTurn(ctx context.Context) *outcome {
	jd, out := r.judge(ctx, "turn", r.s.Criteria)
	if out != nil {
		return out
	}
	r.turnJudged = len(r.res.Conversation)
	if jd.Passed {
		r.decided = &r.res.Judgments[len(r.res.Judgments)-1]
		r.over = fmt.Sprintf("the judge found every criterion met at turn %d", r.turn)
		return nil
	}
	for _, v := range jd.Judges {
		if v.Err == nil && !v.anyNotMet() {
			return nil // someone sees a way on
		}
	}
	return &outcome{end: "judge", reason: fmt.Sprintf("at turn %d %s", r.turn, tally(jd))}
}

// judge asks the scenario's judge about criteria and keeps the judgment.
func (r *runner) judge(ctx context.Context, when string, criteria []string) (Judgment, *outcome) {
	if out := r.stopped(ctx); out != nil {
		return Judgment{}, out
	}
	jd, err := judge(ctx, r.h, r.s.Judge, criteria, slices.Clone(r.res.Conversation))
	jd.Turn, jd.When = r.turn, when
	for _, v := range jd.Judges {
		r.res.Usage.Judge = r.res.Usage.Judge.Add(v.Usage)
	}
	r.res.Judgments = append(r.res.Judgments, jd)
	if err != nil {
		return jd, r.fail("judge", err)
	}
	return jd, r.overBudget()
}

// decide ends a run whose script ran to its end: the judge decides the
// Criteria, unless JudgeEachTurn already did.
func (r *runner) decide(ctx context.Context) *outcome {
	how := "the script ended"
	end := "script"
	switch {
	case r.decided != nil:
		return &outcome{end: "judge", passed: true, reason: r.over}
	case strings.HasPrefix(r.over, "MaxTurns"):
		how, end = r.over, "max_turns"
	case r.over != "":
		how, end = r.over, "user"
	}
	how += fmt.Sprintf(" (turn %d)", r.turn)
	if len(r.s.Criteria) == 0 {
		return &outcome{end: end, passed: true, reason: how + " and nothing failed"}
	}
	var jd Judgment
	if n := len(r.res.Judgments); n > 0 && r.res.Judgments[n-1].When == "turn" && r.turnJudged == len(r.res.Conversation) {
		jd = r.res.Judgments[n-1] // the same question, asked after the last turn
	} else {
		var out *outcome
		if jd, out = r.judge(ctx, "end", r.s.Criteria); out != nil {
			return out
		}
	}
	if !jd.Passed {
		return &outcome{end: end, reason: how + ", and " + tally(jd)}
	}
	return &outcome{end: end, passed: true, reason: how + ", and the judge found every criterion met"}
}

// tally says how a judgment went, for a reason: "the judge found 1 of 2
// criteria not met", "2 of 3 judges found every criterion met".
func tally(jd Judgment) string {
	var judged []JudgeVerdict
	for _, v := range jd.Judges {
		if v.Err == nil {
			judged = append(judged, v)
		}
	}
	if len(jd.Judges) == 1 && len(judged) == 1 {
		v := judged[0]
		var notMet, open int
		for _, c := range v.Criteria {
			switch c.Verdict {
			case "not_met":
				notMet++
			case "inconclusive":
				open++
			}
		}
		n := len(v.Criteria)
		switch {
		case notMet > 0 && open > 0:
			return fmt.Sprintf("the judge found %d of %d criteria not met and %d inconclusive", notMet, n, open)
		case notMet > 0:
			return fmt.Sprintf("the judge found %d of %d %s not met", notMet, n, pluralWord(n, "criterion", "criteria"))
		case open > 0:
			return fmt.Sprintf("the judge found %d of %d %s inconclusive", open, n, pluralWord(n, "criterion", "criteria"))
		}
		return "the judge found every criterion met"
	}
	passed := 0
	for _, v := range judged {
		if v.allMet() {
			passed++
		}
	}
	s := fmt.Sprintf("%d of %d judges found every criterion met", passed, len(judged))
	if jd.Disagreement != "" {
		s += " (" + jd.Disagreement + ")"
	}
	return s
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// startTurn begins turn n, with its own context: ended when the turn
// ends, and by Budget.TurnTimeout.
func (r *runner) startTurn(ctx context.Context, n int) {
	r.closeTurn()
	r.turn = n
	r.turnStart = time.Now()
	tctx, cancel := context.WithCancelCause(ctx)
	if d := r.s.Budget.TurnTimeout; d > 0 {
		var stop context.CancelFunc
		tctx, stop = context.WithTimeoutCause(tctx, d, &budgetError{fmt.Sprintf("turn %d took longer than Budget.TurnTimeout (%v)", n, d)})
		inner := cancel
		cancel = func(err error) { inner(err); stop() }
	}
	r.tools = &toolSink{turn: n, cancel: cancel}
	if b := r.s.Budget.ToolCalls; b > 0 {
		r.tools.budget, r.tools.left = b, b-r.res.ToolCalls
	}
	r.turnCtx, r.endTurn = withToolSink(tctx, r.tools), cancel
	at := len(r.res.Conversation)
	r.res.Turns = append(r.res.Turns, Turn{Number: n, First: at, End: at})
}

// closeTurn ends the current turn's context.
func (r *runner) closeTurn() {
	if r.endTurn != nil {
		r.endTurn(nil)
		r.endTurn = nil
	}
}

// undoTurn takes back a turn that the user ended before writing it.
func (r *runner) undoTurn() {
	r.closeTurn()
	r.turnCtx = nil
	r.res.Turns = r.res.Turns[:len(r.res.Turns)-1]
	r.turn--
}

// timeTurn notes how long the current turn has taken so far.
func (r *runner) timeTurn() {
	r.res.Turns[len(r.res.Turns)-1].Duration = time.Since(r.turnStart)
}

// interrupted turns what ended a role's call into the run's outcome: the
// turn's budget, or the role's error.
func (r *runner) interrupted(role string, err error) *outcome {
	var be *budgetError
	if errors.As(context.Cause(r.turnCtx), &be) {
		return &outcome{end: "budget", reason: "over budget: " + be.msg}
	}
	if err != nil {
		return r.fail(role, err)
	}
	return nil
}

// stopped is the outcome of a run whose context has ended, checked before
// each call of a role, so that a cancelled run stops at the next one even
// when the agent or the user ignores its context.
func (r *runner) stopped(ctx context.Context) *outcome {
	if err := context.Cause(ctx); err != nil {
		return r.fail("", fmt.Errorf("the run was interrupted: %w", err))
	}
	return nil
}

// fail is the outcome of an error of role at the current turn.
func (r *runner) fail(role string, err error) *outcome {
	re, ok := err.(*RunError)
	if !ok {
		re = &RunError{Turn: r.turn, Role: role, Err: err}
	}
	return &outcome{end: "error", reason: re.Error(), err: re}
}

// overBudget is the budget failure the run has come to, if any.
func (r *runner) overBudget() *outcome {
	b, u := r.s.Budget, r.res.Usage
	over := func(format string, args ...any) *outcome {
		return &outcome{end: "budget", reason: "over budget: " + fmt.Sprintf(format, args...)}
	}
	switch {
	case b.ToolCalls > 0 && r.res.ToolCalls > b.ToolCalls:
		return over("the agent made %d tool calls, more than Budget.ToolCalls (%d)", r.res.ToolCalls, b.ToolCalls)
	case b.AgentTokens > 0 && u.Agent.Total() > b.AgentTokens:
		return over("the agent used %d tokens, more than Budget.AgentTokens (%d)", u.Agent.Total(), b.AgentTokens)
	case b.UserTokens > 0 && u.User.Total() > b.UserTokens:
		return over("the simulated user used %d tokens, more than Budget.UserTokens (%d)", u.User.Total(), b.UserTokens)
	case b.JudgeTokens > 0 && u.Judge.Total() > b.JudgeTokens:
		return over("the judge used %d tokens, more than Budget.JudgeTokens (%d)", u.Judge.Total(), b.JudgeTokens)
	case b.Tokens > 0 && u.Total().Total() > b.Tokens:
		return over("the run used %d tokens, more than Budget.Tokens (%d)", u.Total().Total(), b.Tokens)
	case b.TurnTimeout > 0 && len(r.res.Turns) > 0 && r.res.Turns[len(r.res.Turns)-1].Duration > b.TurnTimeout:
		// The turn's time is its user's and agent's, judgments left out.
		d := r.res.Turns[len(r.res.Turns)-1].Duration
		return over("turn %d took %v, longer than Budget.TurnTimeout (%v)", r.turn, d.Round(time.Millisecond), b.TurnTimeout)
	}
	return nil
}

// budgetError is the cause of a turn's context that a budget ended.
type budgetError struct{ msg string }

func (e *budgetError) Error() string { return "over budget: " + e.msg }

// RunError is what kept a run from its end: the turn it happened at, the
// role that failed ("user", "agent", "judge", "tool" or "check") and its
// error, kept whole, so that errors.As finds a recorder.ReplayMissError
// with the closest recorded request, the diff and the command that records
// the request.
type RunError struct {
	Turn int
	Role string
	Err  error
}

func (e *RunError) Error() string {
	if e.Role == "" {
		return fmt.Sprintf("turn %d: %v", e.Turn, e.Err)
	}
	return fmt.Sprintf("turn %d, %s: %v", e.Turn, e.Role, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// callAgent asks the agent, turning a panic into an error.
func callAgent(ctx context.Context, a Agent, conv agentcheck.Conversation) (reply Reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the agent panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return a.Respond(ctx, conv)
}

// callUser asks the user, turning a panic into an error.
func callUser(ctx context.Context, u User, in UserInput) (reply UserReply, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the user panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return u.Next(ctx, in)
}
