package agentcheck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Role says who wrote a message.
type Role string

// The roles of a conversation. ragas knows Human, AI and Tool; System is kept
// when loading OpenAI messages and is ignored by every metric.
const (
	Human  Role = "human"
	AI     Role = "ai"
	Tool   Role = "tool"
	System Role = "system"
)

// Message is one turn of a conversation.
type Message struct {
	Role    Role
	Content string
	// ToolCalls are the calls an AI message makes, in order. A nil slice
	// means the message has no tool_calls field; an empty, non-nil one that
	// it has an empty list, which ragas counts as "with tool calls" when it
	// checks that a tool message follows one.
	ToolCalls []ToolCall
	// ToolCallID links a Tool message to the call it answers, by the call's
	// ID.
	ToolCallID string
	// IsError marks a Tool message whose call failed: Content is the error
	// the tool gave.
	IsError bool
	// Reasoning is what an AI message's model reasoned before it, where
	// the provider returns it (Anthropic's thinking blocks, the summaries
	// of OpenAI Responses reasoning items). No metric reads it; assertions
	// can count it as a step.
	Reasoning string
}

// ToolCall is a call of a tool by name with JSON arguments. Through
// encoding/json it is {"id", "name", "args", "kind", "invalid_args"}, the
// empty ones left out but name and args, and it reads back the same: the
// arguments keep their key order and their numbers their kind.
type ToolCall struct {
	ID   string          `json:"id,omitempty"` // optional, as the SDK or the model assigns it
	Name string          `json:"name"`
	Args jsonvalue.Value `json:"args"`           // an Object as a rule; the zero Value means no arguments
	Kind ToolKind        `json:"kind,omitempty"` // who runs the tool: the agent's code (the zero value), an MCP server, the provider
	// InvalidArgs holds the arguments as the model wrote them when they
	// are not valid JSON; Args is then null. Such a call fails every
	// comparison of its arguments, and name-only checks still see it.
	InvalidArgs string `json:"invalid_args,omitempty"`
}

// ToolKind says who runs a tool. The metrics compare calls by name and
// arguments whatever their kind; assertions can tell kinds apart.
type ToolKind string

// The kinds of tools.
const (
	// FunctionTool is a tool the agent's own code runs when the model calls
	// it: a function call. It is the zero value.
	FunctionTool ToolKind = ""
	// MCPTool is a tool of a Model Context Protocol server.
	MCPTool ToolKind = "mcp"
	// HostedTool is a tool the model's provider runs itself: web search,
	// file search, code execution and the like.
	HostedTool ToolKind = "hosted"
)

// NewToolCall builds a ToolCall from a Go map of arguments. Go maps have no
// order, so keys are sorted; use ParseToolCall to keep a written order.
func NewToolCall(name string, args map[string]any) ToolCall {
	v, err := jsonvalue.Of(args)
	if err != nil {
		panic(fmt.Sprintf("agentcheck.NewToolCall(%q): %v", name, err))
	}
	return ToolCall{Name: name, Args: v}
}

// ParseToolCall builds a ToolCall from arguments written as a JSON object.
func ParseToolCall(name, argsJSON string) (ToolCall, error) {
	v, err := jsonvalue.Parse([]byte(argsJSON))
	if err != nil {
		return ToolCall{}, fmt.Errorf("tool call %q: arguments: %w", name, err)
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return ToolCall{}, fmt.Errorf("tool call %q: arguments must be a JSON object, got %s", name, v.Kind())
	}
	return ToolCall{Name: name, Args: v}, nil
}

// ParseArguments reads a tool call's arguments as a model writes them,
// JSON text, the way every reader and adapter of agentcheck reads them:
// empty text or null is no arguments (an empty object); text that is not
// valid JSON comes back as invalid, for ToolCall.InvalidArgs, with args
// null; any other JSON value, an object as a rule but an array or a scalar
// where an SDK allows them, is the arguments.
func ParseArguments(text string) (args jsonvalue.Value, invalid string) {
	if strings.TrimSpace(text) == "" {
		return jsonvalue.Object(), ""
	}
	v, err := jsonvalue.Parse([]byte(text))
	switch {
	case err != nil:
		return jsonvalue.Value{}, text
	case v.Kind() == jsonvalue.NullKind:
		return jsonvalue.Object(), ""
	}
	return v, ""
}

// MustParseToolCall is ParseToolCall for literals; it panics on error.
func MustParseToolCall(name, argsJSON string) ToolCall {
	tc, err := ParseToolCall(name, argsJSON)
	if err != nil {
		panic(err)
	}
	return tc
}

// String renders the call as name({"arg":value,...}), and a call whose
// arguments are not valid JSON as name(<unparseable "text">).
func (tc ToolCall) String() string {
	if tc.InvalidArgs != "" {
		return tc.Name + "(<unparseable " + strconv.Quote(tc.InvalidArgs) + ">)"
	}
	if tc.Args.Len() == 0 {
		return tc.Name + "()"
	}
	return tc.Name + "(" + tc.Args.String() + ")"
}

// Conversation is the messages of an agent run, in order.
type Conversation []Message

// ToolCalls returns the calls of every AI message, in message order and then
// call order: the predicted calls the metrics score.
func (c Conversation) ToolCalls() []ToolCall {
	n := 0
	for i := range c {
		if c[i].Role == AI {
			n += len(c[i].ToolCalls)
		}
	}
	if n == 0 {
		return nil
	}
	calls := make([]ToolCall, 0, n)
	for i := range c {
		if c[i].Role == AI {
			calls = append(calls, c[i].ToolCalls...)
		}
	}
	return calls
}

// MessageError locates a problem in a conversation by message index
// (0-based) and, where it is about one, tool call index.
type MessageError struct {
	Message  int
	Role     Role
	ToolCall int    // -1 when the problem is not about one call
	Name     string // the tool call's name, if known
	Err      error
}

// Error is "message i (role), tool call j \"name\": " and the problem,
// leaving out what is not known.
func (e *MessageError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "message %d", e.Message)
	if e.Role != "" {
		fmt.Fprintf(&b, " (%s)", e.Role)
	}
	if e.ToolCall >= 0 {
		fmt.Fprintf(&b, ", tool call %d", e.ToolCall)
		if e.Name != "" {
			fmt.Fprintf(&b, " %q", e.Name)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap is the problem itself.
func (e *MessageError) Unwrap() error { return e.Err }

// Validate checks the conversation as ragas does: every Tool message must
// follow an AI message that has tool calls, or another Tool message. Every
// tool call must have a name; its arguments may be any JSON value (an
// object as a rule), or none.
func (c Conversation) Validate() error {
	for i := range c {
		m := &c[i] // not a copy of each message and call: Validate runs on every sample read
		switch m.Role {
		case Human, AI, System:
		case Tool:
			if i == 0 {
				return &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf("a tool message must follow an ai message with tool calls, but it is the first message")}
			}
			if prev := &c[i-1]; prev.Role != Tool && (prev.Role != AI || prev.ToolCalls == nil) {
				return &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf("a tool message must follow an ai message with tool calls or another tool message, but message %d is %s", i-1, describeMessage(*prev))}
			}
		default:
			return &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf("unknown role %q (want human, ai, tool or system)", m.Role)}
		}
		if len(m.ToolCalls) > 0 && m.Role != AI {
			return &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf("only ai messages make tool calls")}
		}
		for j := range m.ToolCalls {
			if m.ToolCalls[j].Name == "" {
				return &MessageError{Message: i, Role: m.Role, ToolCall: j, Err: fmt.Errorf("tool call has no name")}
			}
		}
	}
	return nil
}

func describeMessage(m Message) string {
	if m.Role == AI {
		return "an ai message without tool calls"
	}
	return "a " + string(m.Role) + " message"
}

// String renders the conversation for people and judges: one numbered line
// per message, tool calls indented under the message that made them.
//
//	[0] human: Find Chinese restaurants and book one
//	[1] ai: Searching...
//	    -> restaurant_search({"cuisine":"Chinese"})
//	[2] tool: Found Golden Dragon
func (c Conversation) String() string {
	var b strings.Builder
	for i, m := range c {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(i))
		b.WriteString("] ")
		b.WriteString(string(m.Role))
		b.WriteString(":")
		if m.Content != "" {
			b.WriteByte(' ')
			b.WriteString(strings.ReplaceAll(m.Content, "\n", "\n    "))
		}
		for _, tc := range m.ToolCalls {
			b.WriteString("\n    -> ")
			b.WriteString(tc.String())
		}
	}
	return b.String()
}

// Sample is one case to score: a conversation and what it should have done.
type Sample struct {
	// ID is the sample's id in its dataset: the record's top-level "id",
	// a string or an integer (its digits), as reports name the sample; ""
	// when it has none.
	ID           string
	Conversation Conversation
	// Reference is the desired outcome, for goal accuracy.
	Reference string
	// ReferenceToolCalls are the calls the agent should have made. nil means
	// the sample gives none (ragas refuses to score tool call accuracy then);
	// an empty, non-nil slice means the agent should call no tool.
	ReferenceToolCalls []ToolCall
	// ReferenceTopics are the topics the agent may talk about.
	ReferenceTopics []string
}
