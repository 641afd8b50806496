package judgetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// One server can play every model of a scenario: the agent's own model,
// which gets the conversation and the tools and answers with tool calls or
// text, the simulated user and the judges, which ask for structured output
// (a response_format json_schema) and are told apart by its name.

// ToolCall is a tool call in a scripted reply of the agent's model.
type ToolCall struct {
	// ID defaults to "call_<n>_<i>", n the number of messages in the
	// request and i the call's 1-based index in the reply: the same on
	// every run of the same conversation, and unique within it.
	ID   string
	Name string
	// Arguments is the arguments' JSON text, sent as written, so that a
	// test can also send what is not valid JSON.
	Arguments string
}

// Call is a call of the tool name. args is the arguments: a string, a
// json.RawMessage or a []byte is JSON text sent as it is, anything else is
// marshalled (a value that does not marshal panics, being a mistake in the
// test).
func Call(name string, args any) ToolCall {
	switch a := args.(type) {
	case string:
		return ToolCall{Name: name, Arguments: a}
	case json.RawMessage:
		return ToolCall{Name: name, Arguments: string(a)}
	case []byte:
		return ToolCall{Name: name, Arguments: string(a)}
	}
	b, err := json.Marshal(args)
	if err != nil {
		panic(fmt.Sprintf("judgetest: the arguments of the call to %s do not marshal: %v", name, err))
	}
	return ToolCall{Name: name, Arguments: string(b)}
}

// WithID returns c with the given ID.
func (c ToolCall) WithID(id string) ToolCall {
	c.ID = id
	return c
}

// ToolCalls is a reply in which the agent's model calls tools: content null
// (set Content for text beside the calls) and finish_reason "tool_calls".
func ToolCalls(calls ...ToolCall) Reply {
	return Reply{ToolCalls: calls}
}

// WithUsage returns r with the given token counts instead of the estimate.
func (r Reply) WithUsage(prompt, completion int) Reply {
	r.Usage = &openai.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	return r
}

// wireCall is a tool call as the Chat Completions API writes it.
type wireCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func wireCalls(req Request, calls []ToolCall) []wireCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]wireCall, len(calls))
	for i, c := range calls {
		out[i].ID, out[i].Type = c.ID, "function"
		if c.ID == "" {
			out[i].ID = fmt.Sprintf("call_%d_%d", len(req.Chat.Messages), i+1)
		}
		out[i].Function.Name, out[i].Function.Arguments = c.Name, c.Arguments
	}
	return out
}

// FromAgent reports whether the request is the agent's own model's: it
// declares tools, or asks for no json_schema. The simulated user's and the
// judges' requests declare no tools and ask for a json_schema by name.
func (r Request) FromAgent() bool {
	return len(r.Chat.Tools) > 0 || r.SchemaName() == ""
}

// UserTurn is the number of user messages in the request: 1 while the
// agent's model answers the first one, with or without tool calls between.
func (r Request) UserTurn() int {
	n := 0
	for _, m := range r.Chat.Messages {
		if m.Role == openai.ChatMessageRoleUser {
			n++
		}
	}
	return n
}

// Step is the number of assistant messages after the last user message:
// 0 for the model's first request of a turn, 1 after its first round of
// tool calls came back, and so on.
func (r Request) Step() int {
	n := 0
	for i := len(r.Chat.Messages) - 1; i >= 0 && r.Chat.Messages[i].Role != openai.ChatMessageRoleUser; i-- {
		if r.Chat.Messages[i].Role == openai.ChatMessageRoleAssistant {
			n++
		}
	}
	return n
}

// LastUser is the content of the request's last user message, "" when it
// has none.
func (r Request) LastUser() string {
	for i := len(r.Chat.Messages) - 1; i >= 0; i-- {
		if m := r.Chat.Messages[i]; m.Role == openai.ChatMessageRoleUser {
			if m.Content == "" && len(m.MultiContent) > 0 {
				parts := make([]string, 0, len(m.MultiContent))
				for _, p := range m.MultiContent {
					parts = append(parts, p.Text)
				}
				return strings.Join(parts, "\n")
			}
			return m.Content
		}
	}
	return ""
}

// ByRole routes the agent's model's requests (FromAgent) to agent, and the
// others, the simulated user's and the judges', by their schema name to
// routes as BySchema does:
//
//	judgetest.ByRole(agentScript, map[string]judgetest.Script{
//		"scenario_user":    judgetest.Sequence(judgetest.UserSays("And for 4?"), judgetest.UserDone("booked")),
//		"scenario_verdict": judgetest.Always(judgetest.Verdicts(judgetest.Met("books a table", "it did"))),
//	})
func ByRole(agent Script, routes map[string]Script) Script {
	others := BySchema(routes)
	return func(r Request) Reply {
		if r.FromAgent() {
			if agent == nil {
				return Reply{Status: http.StatusBadRequest, Message: "judgetest: no script for the agent's model requests"}
			}
			return agent(r)
		}
		return others(r)
	}
}

// Turns scripts the agent's model turn by turn, from the conversation each
// request carries rather than the order requests arrive in: a request of
// user turn n (UserTurn) at step k (Step) gets turns[n-1][k]. A turn is
// the model's requests until it answers in text, e.g. a ToolCalls reply,
// then a Content reply once the results are back. It keeps no state, so
// conversations run concurrently or again get the same replies. A request
// outside the script is exhausted (see Then), answered with a 400 that
// names its turn and step.
func Turns(turns ...[]Reply) Script {
	return func(r Request) Reply {
		n, k := r.UserTurn(), r.Step()
		switch {
		case n == 0:
			return Reply{exhausted: "judgetest: Turns: the request has no user message"}
		case n > len(turns):
			return Reply{exhausted: fmt.Sprintf("judgetest: Turns: user turn %d is past the %d turns scripted", n, len(turns))}
		case k >= len(turns[n-1]):
			return Reply{exhausted: fmt.Sprintf("judgetest: Turns: user turn %d has %d replies scripted, none for step %d", n, len(turns[n-1]), k+1)}
		}
		return turns[n-1][k]
	}
}

// The simulated user's answer, for requests whose schema is named
// "scenario_user".
type userAnswer struct {
	Done    bool   `json:"done"`
	Message string `json:"message"`
	Reason  string `json:"reason"`
}

// UserSays is the simulated user's answer that writes its next turn:
// {"done": false, "message": message, "reason": ""}.
func UserSays(message string) Reply {
	return JSON(userAnswer{Message: message})
}

// UserDone is the simulated user's answer that ends the conversation:
// {"done": true, "message": "", "reason": reason}.
func UserDone(reason string) Reply {
	return JSON(userAnswer{Done: true, Reason: reason})
}

// Verdict is the judge's verdict on one criterion, in its answer to a
// request whose schema is named "scenario_verdict".
type Verdict struct {
	Criterion string `json:"criterion"`
	// Verdict is "met", "not_met" or "inconclusive".
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// Met is a criterion the judge finds met.
func Met(criterion, reason string) Verdict { return Verdict{criterion, "met", reason} }

// NotMet is a criterion the judge finds not met.
func NotMet(criterion, reason string) Verdict { return Verdict{criterion, "not_met", reason} }

// Inconclusive is a criterion the judge cannot decide yet.
func Inconclusive(criterion, reason string) Verdict {
	return Verdict{criterion, "inconclusive", reason}
}

// Verdicts is the judge's answer with a verdict per criterion:
// {"criteria": [{"criterion": ..., "verdict": ..., "reason": ...}, ...]}.
func Verdicts(vs ...Verdict) Reply {
	if vs == nil {
		vs = []Verdict{}
	}
	return JSON(struct {
		Criteria []Verdict `json:"criteria"`
	}{vs})
}

// EachCriterion answers the judge's scenario_verdict requests with a
// verdict on every criterion a request asks about, in order, each from
// decide: the criteria are read from the request's schema, which names
// them (the enum of "criterion"), so a script needs no copy of them and no
// reading of the prompt:
//
//	judgetest.EachCriterion(func(c string) judgetest.Verdict { return judgetest.Met(c, "message [3] shows it") })
//
// A request whose schema names no criteria gets a 400 that says so.
func EachCriterion(decide func(criterion string) Verdict) Script {
	return func(r Request) Reply {
		criteria, ok := schemaCriteria(r.Schema())
		if !ok {
			return Reply{Status: http.StatusBadRequest, Message: fmt.Sprintf(
				"judgetest: EachCriterion: the request's schema %q names no criteria (properties.criteria.items.properties.criterion.enum)", r.SchemaName())}
		}
		vs := make([]Verdict, len(criteria))
		for i, c := range criteria {
			vs[i] = decide(c)
		}
		return Verdicts(vs...)
	}
}

// schemaCriteria reads the criteria a scenario_verdict schema enumerates.
func schemaCriteria(schema map[string]any) ([]string, bool) {
	node := any(schema)
	for _, key := range []string{"properties", "criteria", "items", "properties", "criterion", "enum"} {
		m, ok := node.(map[string]any)
		if !ok {
			return nil, false
		}
		node = m[key]
	}
	enum, ok := node.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(enum))
	for _, e := range enum {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// quoteNames lists names quoted, for messages.
func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
