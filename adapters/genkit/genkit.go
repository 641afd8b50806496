// Package genkit reads the transcript of an agent built on Firebase Genkit
// for Go (github.com/firebase/genkit/go) as an agentcheck.Conversation: the
// []*ai.Message history of a run (Messages), or the *ai.ModelResponse that
// genkit.Generate returns, whose request's messages and answer are the
// whole run (Response). Each is an agentcheck.Transcript: pass it wherever
// agentcheck, agenttest or matchers take a conversation. Genkit's Go values
// are read directly: text parts make the text, ai.ToolRequest parts the
// tool calls (Ref is the call's ID), ai.ToolResponse parts the Tool
// messages, paired to their calls by Ref. Only this module, not agentcheck,
// depends on Genkit. Genkit's own runtime package is also named genkit:
// import one of the two under another name.
package genkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Messages are the messages of a Genkit run, as ModelResponse.History()
// returns them or as an agent keeps them between calls: pass them wherever
// agentcheck takes a conversation (g.Expect(genkit.Messages(msgs)).To(...)).
type Messages []*ai.Message

// Conversation converts the messages. Roles user, model, system and tool
// become Human, AI, System and Tool. Text (and data) parts are joined by
// lines; reasoning, media, resource and other custom parts are skipped.
//
// A tool request part is a function ToolCall of its model message: its
// Ref is the call's ID ("call_<message>_<part>" when it has none), its
// Input, any Go value, is converted by jsonvalue.Of: a JSON object
// as a rule, and any other value (a string, a list, as tools with such
// inputs take) kept as it is (nil is no arguments); numbers keep their Go
// kind, so that a float64, as JSON decoding gives every number, is a
// float. An Input of json.RawMessage that is not valid JSON is no error:
// the call keeps it as written in InvalidArgs (Args null), so that it
// fails every check of its arguments and still counts as a call of its
// tool. A tool
// response part becomes a Tool message in place, whose Content is the
// Output (a string as it is, any other value as the compact JSON that
// encoding/json writes of it, as Genkit sends it to the model) and then
// the text of its Content parts, one a line. It answers the earliest
// unanswered request with its Ref, or without a Ref the earliest
// unanswered request of its Name, and must follow the model message that
// made the call or other responses. The responses keep their order (Genkit
// runs a turn's tools at once and records their responses as they
// finish). A user message's responses come before its text, which becomes
// a Human message. Genkit has no error flag on a response (a tool that
// fails fails the Generate call), so IsError stays false.
//
// The code execution parts of Genkit's Google AI plugin (custom parts
// "executableCode" and "codeExecutionResult") are a hosted call named
// "code_execution", with the code and its language as arguments, and its
// result, an error when the outcome is not OUTCOME_OK.
//
// An error is an *agentcheck.MessageError whose message index is the
// message's in m, naming the part and, for a call, its index among the
// message's calls and its name.
func (m Messages) Conversation() (agentcheck.Conversation, error) {
	c := converter{conv: agentcheck.Conversation{}}
	for i, msg := range m {
		if err := c.message(i, msg); err != nil {
			return nil, err
		}
	}
	return c.conv, nil
}

// Response returns the run that ended in resp, the result of
// genkit.Generate: the messages of its request (which a model plugin
// records, and which, after tool calls, hold the run so far) then its
// message, as resp.History() has them. A response without a request is its
// message alone, one without a message (a blocked answer) its request's
// messages. Converting a nil response is an error.
func Response(resp *ai.ModelResponse) agentcheck.Transcript { return response{resp} }

type response struct{ resp *ai.ModelResponse }

func (r response) Conversation() (agentcheck.Conversation, error) {
	if r.resp == nil {
		return nil, errors.New("genkit: the model response is nil")
	}
	var msgs Messages
	if r.resp.Request != nil {
		msgs = append(msgs, r.resp.Request.Messages...)
	}
	if r.resp.Message != nil {
		msgs = append(msgs, r.resp.Message)
	}
	return msgs.Conversation()
}

var roles = map[ai.Role]agentcheck.Role{
	ai.RoleUser:   agentcheck.Human,
	ai.RoleModel:  agentcheck.AI,
	ai.RoleSystem: agentcheck.System,
	ai.RoleTool:   agentcheck.Tool,
}

// Names of the custom parts of the Google AI plugin for code execution.
const (
	executableCode      = "executableCode"
	codeExecutionResult = "codeExecutionResult"
	codeExecution       = "code_execution"
)

type converter struct {
	conv  agentcheck.Conversation
	calls []call
	// open: the last message is the AI message the current model message
	// adds text and calls to.
	open bool
}

// A call made so far: its ID in the conversation, its Ref ("" when it had
// none), its name, and whether a response answered it.
type call struct {
	id, ref, name string
	answered      bool
}

func (c *converter) message(i int, msg *ai.Message) error {
	if msg == nil {
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: errors.New("the message is nil")}
	}
	role, ok := roles[msg.Role]
	if !ok {
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf("unknown role %q (want user, model, system or tool)", msg.Role)}
	}
	fail := func(format string, args ...any) error {
		return &agentcheck.MessageError{Message: i, Role: role, ToolCall: -1, Err: fmt.Errorf(format, args...)}
	}
	c.open = false
	if role == agentcheck.AI {
		c.openAI()
	}
	var texts []string // of a user or system message
	calls, results := 0, 0
	for j, p := range msg.Content {
		if p == nil {
			return fail("part %d is nil", j)
		}
		switch p.Kind {
		case ai.PartText, ai.PartData:
			switch {
			case p.Text == "":
			case role == agentcheck.AI:
				c.addText(p.Text)
			case role == agentcheck.Tool:
				return fail("part %d: a tool message holds tool responses, not text (%q)", j, quote(p.Text, 40))
			default:
				texts = append(texts, p.Text)
			}
		case ai.PartMedia, ai.PartReasoning, ai.PartResource:
		case ai.PartToolRequest:
			tc, err := toolCall(i, j, p.ToolRequest)
			if err == nil && role != agentcheck.AI {
				err = fmt.Errorf("a tool request in a %s message: only model messages make tool requests", msg.Role)
			}
			if err != nil {
				return &agentcheck.MessageError{Message: i, Role: role, ToolCall: calls, Name: tc.Name, Err: fmt.Errorf("part %d: %w", j, err)}
			}
			c.addCall(tc, p.ToolRequest.Ref)
			calls++
		case ai.PartToolResponse:
			if role == agentcheck.AI || role == agentcheck.System {
				return fail("part %d: a tool response in a %s message: only tool and user messages hold tool responses", j, msg.Role)
			}
			if err := c.toolResponse(p.ToolResponse); err != nil {
				return fail("part %d: %w", j, err)
			}
			results++
		case ai.PartCustom:
			if x, ok := p.Custom[executableCode]; ok {
				tc, err := codeCall(i, j, x)
				if err == nil && role != agentcheck.AI {
					err = fmt.Errorf("%s in a %s message: only model messages make tool requests", executableCode, msg.Role)
				}
				if err != nil {
					return &agentcheck.MessageError{Message: i, Role: role, ToolCall: calls, Name: tc.Name, Err: fmt.Errorf("part %d: %w", j, err)}
				}
				c.addCall(tc, "")
				calls++
			} else if x, ok := p.Custom[codeExecutionResult]; ok {
				if role == agentcheck.System {
					return fail("part %d: %s in a system message", j, codeExecutionResult)
				}
				if err := c.codeResult(x); err != nil {
					return fail("part %d: %w", j, err)
				}
				results++
			}
		default:
			return fail("part %d: unknown part kind %d", j, p.Kind)
		}
	}
	switch role {
	case agentcheck.Human, agentcheck.System:
		// A user message that only answers calls adds no Human message.
		if len(texts) > 0 || results == 0 {
			c.conv = append(c.conv, agentcheck.Message{Role: role, Content: strings.Join(texts, "\n")})
		}
	case agentcheck.Tool:
		if results == 0 {
			return fail("a tool message without tool responses")
		}
	}
	return nil
}

func (c *converter) openAI() {
	c.conv = append(c.conv, agentcheck.Message{Role: agentcheck.AI})
	c.open = true
}

// addText adds text to the open AI message, on a line of its own.
func (c *converter) addText(t string) {
	if !c.open {
		c.openAI()
	}
	m := &c.conv[len(c.conv)-1]
	if m.Content != "" {
		m.Content += "\n"
	}
	m.Content += t
}

func (c *converter) addCall(tc agentcheck.ToolCall, ref string) {
	if !c.open {
		c.openAI()
	}
	m := &c.conv[len(c.conv)-1]
	m.ToolCalls = append(m.ToolCalls, tc)
	c.calls = append(c.calls, call{id: tc.ID, ref: ref, name: tc.Name})
}

// toolCall converts the tool request of part j of message i; the call is
// named when it has a name, even with an error.
func toolCall(i, j int, r *ai.ToolRequest) (agentcheck.ToolCall, error) {
	if r == nil {
		return agentcheck.ToolCall{}, errors.New("a tool request part without a tool request")
	}
	tc := agentcheck.ToolCall{ID: r.Ref, Name: r.Name}
	if r.Name == "" {
		return tc, errors.New("the tool request has no name")
	}
	args, err := jsonvalue.Of(r.Input)
	raw, isRaw := r.Input.(json.RawMessage)
	switch {
	case err != nil && isRaw && strings.TrimSpace(string(raw)) != "":
		// Arguments as the model wrote them, not valid JSON.
		tc.InvalidArgs = string(raw)
	case err != nil && !isRaw:
		return tc, fmt.Errorf("input: %w", err)
	case args.Kind() != jsonvalue.NullKind: // null is no arguments
		tc.Args = args
	}
	if tc.ID == "" {
		tc.ID = fmt.Sprintf("call_%d_%d", i, j)
	}
	return tc, nil
}

// codeCall converts the executableCode custom part j of message i.
func codeCall(i, j int, x any) (agentcheck.ToolCall, error) {
	tc := agentcheck.ToolCall{ID: fmt.Sprintf("call_%d_%d", i, j), Name: codeExecution, Kind: agentcheck.HostedTool}
	v, err := jsonvalue.Of(x)
	if err != nil {
		return tc, fmt.Errorf("%s: %w", executableCode, err)
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return tc, fmt.Errorf("%s must be an object, got %s", executableCode, v.Kind())
	}
	tc.Args = v
	return tc, nil
}

func (c *converter) toolResponse(r *ai.ToolResponse) error {
	if r == nil {
		return errors.New("a tool response part without a tool response")
	}
	what := "the tool response"
	if r.Name != "" {
		what = fmt.Sprintf("tool response %q", r.Name)
	}
	if r.Ref == "" && r.Name == "" {
		return fmt.Errorf("%s has neither a ref nor a name to pair it with its tool request", what)
	}
	text, err := outputText(r)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	id, err := c.answer(r.Ref, r.Name)
	if err != nil {
		return fmt.Errorf("%s %w", what, err)
	}
	if err := c.addResult(agentcheck.Message{Role: agentcheck.Tool, Content: text, ToolCallID: id}); err != nil {
		return fmt.Errorf("%s %w", what, err)
	}
	return nil
}

func (c *converter) codeResult(x any) error {
	v, err := jsonvalue.Of(x)
	if err != nil {
		return fmt.Errorf("%s: %w", codeExecutionResult, err)
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return fmt.Errorf("%s must be an object, got %s", codeExecutionResult, v.Kind())
	}
	var s [2]string
	for k, key := range []string{"outcome", "output"} {
		switch f, _ := v.Get(key); f.Kind() {
		case jsonvalue.NullKind:
		case jsonvalue.StringKind:
			s[k] = f.Text()
		default:
			return fmt.Errorf("%s: %q must be a string, got %s", codeExecutionResult, key, f.Kind())
		}
	}
	id, err := c.answer("", codeExecution)
	if err != nil {
		return fmt.Errorf("%s %w", codeExecutionResult, err)
	}
	if err := c.addResult(agentcheck.Message{Role: agentcheck.Tool, Content: s[1], ToolCallID: id, IsError: s[0] != "OUTCOME_OK"}); err != nil {
		return fmt.Errorf("%s %w", codeExecutionResult, err)
	}
	return nil
}

// addResult adds a Tool message where the conversation allows one.
func (c *converter) addResult(m agentcheck.Message) error {
	if n := len(c.conv); n == 0 || c.conv[n-1].Role != agentcheck.Tool && (c.conv[n-1].Role != agentcheck.AI || c.conv[n-1].ToolCalls == nil) {
		return errors.New("must follow the model message that made the call, or other tool responses")
	}
	c.conv = append(c.conv, m)
	c.open = false
	return nil
}

// answer pairs a response with its call: the earliest unanswered call
// with its ref, or without a ref of its name. It returns the call's ID.
func (c *converter) answer(ref, name string) (string, error) {
	for n := range c.calls {
		k := &c.calls[n]
		if k.answered || (ref != "" && k.ref != ref) || (ref == "" && k.name != name) {
			continue
		}
		if ref != "" && name != "" && k.name != name {
			return "", fmt.Errorf("answers ref %q, a request of %q", ref, k.name)
		}
		k.answered = true
		return k.id, nil
	}
	made := false
	for _, k := range c.calls {
		made = made || ref != "" && k.ref == ref || ref == "" && k.name == name
	}
	switch {
	case ref != "" && made:
		return "", fmt.Errorf("answers ref %q, whose tool request is answered already", ref)
	case ref != "":
		return "", fmt.Errorf("answers ref %q, which no tool request made", ref)
	case made:
		return "", errors.New("answers no tool request: every request of that name is answered already")
	}
	return "", errors.New("answers no tool request: no request of that name was made")
}

// outputText is a tool response's text: its output, a string as it is and
// any other value as compact JSON, then the text of its content parts.
func outputText(r *ai.ToolResponse) (string, error) {
	var texts []string
	switch out := r.Output.(type) {
	case nil:
	case string:
		if out != "" {
			texts = append(texts, out)
		}
	default:
		// As Genkit writes the output for the model: encoding/json (a
		// float64 without a fraction is an integer), without HTML escapes.
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return "", fmt.Errorf("output: %w", err)
		}
		v, err := jsonvalue.Parse(b.Bytes())
		if err != nil {
			return "", fmt.Errorf("output: %w", err)
		}
		switch v.Kind() {
		case jsonvalue.NullKind:
		case jsonvalue.StringKind:
			if v.Text() != "" {
				texts = append(texts, v.Text())
			}
		default:
			texts = append(texts, v.String())
		}
	}
	for _, p := range r.Content {
		if (p.IsText() || p.IsData()) && p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// quote shortens s to n bytes for an error.
func quote(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
