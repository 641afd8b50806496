package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
)

// User writes the user's side of a scenario's conversation, one turn at a
// time: the next message, or that the user is done.
type User interface {
	Next(ctx context.Context, in UserInput) (UserReply, error)
}

// UserInput is what a User is given to write a turn.
type UserInput struct {
	// Conversation is the conversation so far, tool calls and results
	// included (a simulated user sees only the messages' text, as a person
	// in a chat window does).
	Conversation agentcheck.Conversation
	// Turn is the turn to write, from 1.
	Turn int
	// MayEnd is false for the first turn and before the scenario's
	// MinTurns: the user must write a message, and ending is an error.
	MayEnd bool
}

// UserReply is a user's turn: Message, or Done with the Reason the
// conversation ends (the goal was reached, the user gave up, ...).
type UserReply struct {
	Done    bool
	Message string
	Reason  string
	// Usage is the tokens the turn cost, for a simulated user.
	Usage judgment.Usage
}

// StaticUser is a user who says the given messages, one a turn, in order,
// and is then done.
func StaticUser(messages ...string) User { return staticUser(messages) }

type staticUser []string

func (u staticUser) validate() error {
	if len(u) == 0 {
		return errors.New("the static user has no messages: give StaticUser at least one")
	}
	var errs []error
	for i, m := range u {
		if strings.TrimSpace(m) == "" {
			errs = append(errs, fmt.Errorf("the static user's message %d is empty", i+1))
		}
	}
	return errors.Join(errs...)
}

func (u staticUser) Next(_ context.Context, in UserInput) (UserReply, error) {
	said := 0
	for _, m := range in.Conversation {
		if m.Role == agentcheck.Human {
			said++
		}
	}
	if said >= len(u) {
		if len(u) == 1 {
			return UserReply{Done: true, Reason: "the static user's 1 message is said"}, nil
		}
		return UserReply{Done: true, Reason: fmt.Sprintf("the static user's %d messages are said", len(u))}, nil
	}
	return UserReply{Message: u[said]}, nil
}

// UserPromptVersion versions the simulated user's prompt; it is part of
// every request, so a cassette recorded with another prompt misses, and says
// why.
const userPromptVersion = "scenario-user/v1"

// SimulatedUser is a user played by a model: given a persona, a goal and a
// hidden plan, it writes each turn from the conversation so far, or ends the
// conversation with a structured done signal. It asks Model the question
// "scenario_user" with a strict schema (answer {"done", "message",
// "reason"}); an answer that does not fit is asked again by the judge
// client, then reported, never taken as a turn. It never sees the judge's
// criteria, nor the agent's tool calls.
type SimulatedUser struct {
	// Model plays the user: a *judge.Client (judge.ForTest(t)), which asks
	// at temperature 0 with a fixed seed through the test's cassette.
	Model judgment.Judge
	// Persona is who the user is: "a retired teacher, polite, not at ease
	// with computers".
	Persona string
	// Goal is what the user came for: "get a refund for order 1042".
	Goal string
	// Plan is what the user knows, wants and how to react, hidden from the
	// agent: "you have the order number but not the invoice; accept store
	// credit only if a refund is refused twice".
	Plan string
	// FirstMessage, when set, is the user's first turn, word for word,
	// without asking the model.
	FirstMessage string
}

const userInstructions = `You play a person who writes to an AI assistant in a chat, so that the assistant can be tested. You are that person, not the assistant: never answer, explain or help as the assistant would, and never mention that this is a test.
The persona says who you are; the goal, what you came for; the plan, what you know, what you want and how you react. Keep to them. Give a piece of what you know when the assistant asks for it or when a person in your place would offer it, in your own words; never recite the goal or the plan.
Write one chat message, the way this person types: short and plain. React to what the assistant said last.
End the conversation when the goal is reached, when the assistant has refused or failed and the plan leaves you nothing more to try, or when the plan says to stop. Do not end it while the assistant is still working on your request or has asked you something.
Answer with JSON:
- done: true to end the conversation now, without a message; false to write the next message.
- message: the next message when done is false; "" when done is true.
- reason: one sentence for the tester, which the assistant never sees: why you wrote this message, or why you ended ("goal reached: the refund was confirmed").`

var userSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"done":    map[string]any{"type": "boolean"},
		"message": map[string]any{"type": "string"},
		"reason":  map[string]any{"type": "string"},
	},
	"required":             []string{"done", "message", "reason"},
	"additionalProperties": false,
}

var userSchemaJSON = mustJSON(userSchema)

func (u SimulatedUser) validate() error {
	if isNil(u.Model) {
		return errNoModel
	}
	return nil
}

var errNoModel = errors.New("the simulated user has no Model: set SimulatedUser.Model (judge.ForTest(t))")

// Next writes turn in.Turn: FirstMessage for the first, else the model's.
func (u SimulatedUser) Next(ctx context.Context, in UserInput) (UserReply, error) {
	if in.Turn == 1 && u.FirstMessage != "" {
		return UserReply{Message: u.FirstMessage, Reason: "the scenario's first message"}, nil
	}
	if isNil(u.Model) {
		return UserReply{}, errNoModel
	}
	q := judgment.Question{
		Name:          "scenario_user",
		PromptVersion: userPromptVersion,
		Instructions:  userInstructions,
		Input:         u.input(in),
		Schema:        userSchema,
		SchemaJSON:    userSchemaJSON,
	}
	a, err := hooksOf(ctx).ask(ctx, u.Model, q)
	reply := UserReply{Usage: a.Usage}
	if err != nil {
		return reply, err
	}
	var ans struct {
		Done    bool   `json:"done"`
		Message string `json:"message"`
		Reason  string `json:"reason"`
	}
	if err := json.Unmarshal(a.JSON, &ans); err != nil {
		return reply, fmt.Errorf("scenario_user: the answer %.200q does not decode: %w", a.JSON, err)
	}
	reply.Done, reply.Reason = ans.Done, ans.Reason
	if !ans.Done {
		reply.Message = ans.Message
		if strings.TrimSpace(ans.Message) == "" {
			return reply, fmt.Errorf("scenario_user: the answer neither ends the conversation nor writes a message: %s", a.JSON)
		}
	}
	return reply, nil
}

// input is the question's user message: the persona, goal and plan, the
// conversation as the user saw it, and the turn to write.
func (u SimulatedUser) input(in UserInput) string {
	var b strings.Builder
	section := func(name, text string) {
		if text = strings.TrimSpace(text); text != "" {
			b.WriteString(name + ":\n" + text + "\n\n")
		}
	}
	section("Persona", u.Persona)
	section("Goal", u.Goal)
	section("Plan", u.Plan)
	b.WriteString("Conversation so far (you are \"user\"):\n")
	shown := 0
	for _, m := range in.Conversation {
		var who string
		switch {
		case m.Role == agentcheck.Human:
			who = "user"
		case m.Role == agentcheck.AI && strings.TrimSpace(m.Content) != "":
			who = "assistant"
		default:
			continue // tool calls and results, system messages: not in the chat window
		}
		shown++
		b.WriteString(who + ": " + strings.ReplaceAll(strings.TrimSpace(m.Content), "\n", "\n    ") + "\n")
	}
	if shown == 0 {
		b.WriteString("(nothing yet: you write first)\n")
	}
	b.WriteString("\nWrite turn " + strconv.Itoa(in.Turn) + " of the conversation")
	if in.MayEnd {
		b.WriteString(", or end it.")
	} else {
		b.WriteString(". You may not end the conversation yet: done must be false.")
	}
	return b.String()
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
