// Package scenario drives the agent under test through a whole conversation
// and judges it as it goes: a Scenario gives the Agent, a User (a simulated
// user, an LLM given a persona, a goal and a hidden plan, or fixed turns), a
// Script mixing fixed and simulated turns with checks and judge checkpoints,
// the Criteria a judge decides at the end, MaxTurns and a Budget of tool
// calls, tokens and time per turn. The simulated user and the judge ask a
// judgment.Judge (judge.ForTest(t), so they go through the test's cassette) with
// strict structured output; the agent's own model requests go through
// recorder.ForTest(t).Client(), so a whole run replays offline, and a request
// the cassette lacks ends the run with an error naming the turn, the role and
// the command that records it (AGENTCHECK_RECORD=missing: when only the
// criteria changed, that records the judge's new questions alone, while the
// agent's and the user's requests replay). Scenario.Test runs it in a test and fails with
// a report (the verdict, each criterion with its reason, the transcript turn by
// turn, the budgets used, the cassette); Scenario.Run returns the Result
// without a test; Case makes it an evalsuite case, so that Repeat gives pass@k
// over replayed runs. A Limiter bounds the model requests of scenarios run in
// parallel.
package scenario
