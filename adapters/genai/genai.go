// Package genai reads the transcript of an agent built on Google's Gen AI
// Go SDK, google.golang.org/genai (on which Google's ADK builds), as an
// agentcheck.Conversation: the []*genai.Content history an agent sends to
// GenerateContent with the model's answers appended (Contents, or Request
// with the config's system instruction), a chat session's history (Chat),
// and *genai.GenerateContentResponse answers, one or a stream's chunks
// (Responses). Each is an agentcheck.Transcript: pass it wherever
// agentcheck, agenttest or matchers take a conversation. The SDK's values
// go through its own JSON, the Gemini API's wire format, and are read by
// dataset.ParseGeminiContents, so that they convert exactly as the same
// contents in a dataset file do. Only this module, not agentcheck, depends
// on the SDK.
package genai

import (
	"encoding/json"
	"errors"
	"fmt"

	gogenai "google.golang.org/genai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
)

// Contents are the contents of an agent run, as the SDK holds them: the
// history sent to Models.GenerateContent with each answer's content
// appended, or a Chat's History.
type Contents []*gogenai.Content

// Conversation converts the contents as dataset.ParseGeminiContents reads
// them: user and model contents become Human and AI messages (text parts
// joined by lines; thoughts, images and files skipped; consecutive model
// contents, which a streamed chat turn leaves, make one message), function
// calls keep their IDs or are given "call_<content>_<part>", function
// responses become Tool messages paired to their calls by ID or else by
// name, and code execution and server-side tool calls are hosted calls
// with their results. An error names the content (as message i), the part
// and the call. Arguments are Go maps: their keys come in sorted order,
// and a float64 without a fraction is written, and read, as an integer.
func (c Contents) Conversation() (agentcheck.Conversation, error) {
	data, err := marshalContents(c)
	if err != nil {
		return nil, err
	}
	return dataset.ParseGeminiContents(data)
}

// Chat returns the history of a chat session: the comprehensive history
// (History(false)), which keeps the turns whose answer was empty or
// invalid, as the session went.
func Chat(c *gogenai.Chat) Contents { return Contents(c.History(false)) }

// Request is what an agent passes to Models.GenerateContent: the contents
// (with the answers appended, for the whole run) and the config, whose
// SystemInstruction becomes a System message first; the rest of the config
// is not read.
type Request struct {
	Contents []*gogenai.Content
	Config   *gogenai.GenerateContentConfig
}

// Conversation converts the request as Contents.Conversation does, with
// the system instruction's text first.
func (r Request) Conversation() (agentcheck.Conversation, error) {
	contents, err := marshalContents(r.Contents)
	if err != nil {
		return nil, err
	}
	data := []byte(`{"contents":`)
	data = append(data, contents...)
	if r.Config != nil && r.Config.SystemInstruction != nil {
		si, err := json.Marshal(r.Config.SystemInstruction)
		if err != nil {
			return nil, fmt.Errorf("system instruction: %w", err)
		}
		data = append(append(data, `,"systemInstruction":`...), si...)
	}
	return dataset.ParseGeminiContents(append(data, '}'))
}

// Responses are answers of the model: one response of GenerateContent, or
// the chunks of GenerateContentStream in order, which make one AI message.
// Each response's first candidate is read, as the SDK's Text and
// FunctionCalls read it; a response without candidates (a blocked prompt,
// a chunk with usage only) adds nothing.
type Responses []*gogenai.GenerateContentResponse

// Conversation converts the responses' contents as Contents.Conversation
// does; an error names the response (as message i).
func (r Responses) Conversation() (agentcheck.Conversation, error) {
	data := []byte{'['}
	for i, resp := range r {
		if i > 0 {
			data = append(data, ',')
		}
		if resp == nil {
			// A list of nulls would read as one of contents.
			return nil, &agentcheck.MessageError{Message: i, ToolCall: -1, Err: errors.New("a response must be an object, got null")}
		}
		if len(resp.Candidates) == 0 {
			// Nothing to read; the placeholder keeps the list one of
			// responses, and the indexes of errors the caller's.
			data = append(data, `{"candidates":[]}`...)
			continue
		}
		b, err := json.Marshal(resp)
		if err != nil {
			var c *gogenai.Content
			if cand := resp.Candidates[0]; cand != nil {
				c = cand.Content
			}
			return nil, marshalError(i, c, err)
		}
		data = append(data, b...)
	}
	return dataset.ParseGeminiContents(append(data, ']'))
}

// marshalContents writes contents as a JSON list, each content on its own
// so that one the SDK's types cannot write is named.
func marshalContents(contents []*gogenai.Content) ([]byte, error) {
	data := []byte{'['}
	for i, c := range contents {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, marshalError(i, c, err)
		}
		if i > 0 {
			data = append(data, ',')
		}
		data = append(data, b...)
	}
	return append(data, ']'), nil
}

// marshalError locates an error writing content i (c, if known) by part
// and, for a call, by call index and name, as the reader's errors are.
func marshalError(i int, c *gogenai.Content, err error) error {
	e := &agentcheck.MessageError{Message: i, ToolCall: -1, Err: err}
	if c == nil {
		return e
	}
	switch c.Role {
	case gogenai.RoleModel:
		e.Role = agentcheck.AI
	case gogenai.RoleUser, "":
		e.Role = agentcheck.Human
	case "function", "tool":
		e.Role = agentcheck.Tool
	}
	calls := 0
	for j, p := range c.Parts {
		if _, perr := json.Marshal(p); perr != nil {
			e.Err = fmt.Errorf("part %d: %w", j, perr)
			if p.FunctionCall != nil || p.ExecutableCode != nil || p.ToolCall != nil {
				e.ToolCall = calls
				if p.FunctionCall != nil {
					e.Name = p.FunctionCall.Name
				}
			}
			break
		}
		if p != nil && (p.FunctionCall != nil || p.ExecutableCode != nil || p.ToolCall != nil) {
			calls++
		}
	}
	return e
}
