// Package openaigo reads the transcript of an agent built on the official
// OpenAI Go SDK, github.com/openai/openai-go/v3, as an
// agentcheck.Conversation. For Chat Completions, Chat holds the
// []openai.ChatCompletionMessageParamUnion a request sent and the
// openai.ChatCompletionMessage replies received (from a ChatCompletion's
// choices, or from an openai.ChatCompletionAccumulator after streaming).
// For the Responses API, Responses holds each request's
// []responses.ResponseInputItemUnionParam and the *responses.Response it
// got, whose output items (messages, function calls, MCP calls and the
// built-in tools' items) join the conversation. Both are
// agentcheck.Transcripts: pass them wherever agentcheck, agenttest or
// matchers take a conversation. The SDK's types go through its own JSON,
// the wire format, and are read by dataset.ParseOpenAIMessages and
// dataset.ParseResponsesItems, so that they convert exactly as the same
// messages and items in a dataset file do. Agent is the other way round: an
// openai-go Chat Completions loop with mocked tools as the agent under test
// of a scenario. Only this module, not agentcheck, depends on openai-go.
package openaigo

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
)

// Chat is a Chat Completions run as the agent holds it after its last
// request: the messages that request sent (in an agent loop, earlier
// replies included, added with ToParam) and the messages received after
// them, usually the last completion's Choices[0].Message or an
// accumulator's.
type Chat struct {
	Sent     []openai.ChatCompletionMessageParamUnion
	Received []openai.ChatCompletionMessage
}

// Conversation converts the messages, Sent then Received: user, assistant,
// tool (and function) and system (and developer) messages become Human,
// AI, Tool and System; content parts keep their text, one part a line;
// assistant tool calls keep their IDs, and their arguments, a JSON string,
// are parsed. An error names the message by its index in Sent followed by
// Received, and the tool call, that could not be read; its wording is
// dataset.ParseOpenAIMessages's.
func (c Chat) Conversation() (agentcheck.Conversation, error) {
	// openai-go's JSON for the params is the request's; a received message
	// becomes a param with the SDK's own ToParam, which also serves a
	// message an accumulator built (which has no JSON of its own).
	data := []byte{'['}
	add := func(i int, m openai.ChatCompletionMessageParamUnion) error {
		b, err := json.Marshal(m)
		if err != nil {
			return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: err}
		}
		if i > 0 {
			data = append(data, ',')
		}
		data = append(data, b...)
		return nil
	}
	for i, m := range c.Sent {
		if err := add(i, m); err != nil {
			return nil, err
		}
	}
	for i, m := range c.Received {
		if err := add(len(c.Sent)+i, m.ToParam()); err != nil {
			return nil, err
		}
	}
	return dataset.ParseOpenAIMessages(append(data, ']'))
}

// Turn is one request of a Responses API run: the input items it sent and
// the response it got (nil for none).
type Turn struct {
	Input    []responses.ResponseInputItemUnionParam
	Response *responses.Response
}

// Responses is a Responses API run, its turns in order. An agent that
// sends the whole history with each request (output items turned into
// input items with ToParam, and function_call_output items added) gives
// its last turn only; one that chains requests with PreviousResponseID,
// each sending only what is new, gives every turn.
type Responses []Turn

// Conversation converts the turns' input items and response output items,
// in order, as dataset.ParseResponsesItems reads them: messages; function,
// custom, MCP and built-in tool calls (hosted, named after the tool, such
// as web_search) with their IDs; and their results as Tool messages,
// paired with their calls by call ID. Output items are read as the API
// sent them (their RawJSON), so a response must come from the SDK's
// decoding of the API's JSON (a client call, a stream's completed event, an
// accumulator's ReconstructedResponse). An error about an item is an
// *agentcheck.MessageError whose message index is the item's in its list,
// wrapped in "turn <t> input: " or "turn <t> output: ".
func (r Responses) Conversation() (agentcheck.Conversation, error) {
	// All the items go to the reader as one list, so that a result may
	// answer a call of an earlier turn; where tells where each came from.
	type place struct {
		loc   string
		index int
	}
	var where []place
	data := []byte{'['}
	add := func(loc string, i int, b []byte) {
		if len(where) > 0 {
			data = append(data, ',')
		}
		data = append(data, b...)
		where = append(where, place{loc, i})
	}
	for t, turn := range r {
		loc := fmt.Sprintf("turn %d input", t)
		for i, item := range turn.Input {
			b, err := json.Marshal(item)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", loc, &agentcheck.MessageError{Message: i, ToolCall: -1, Err: err})
			}
			add(loc, i, b)
		}
		if turn.Response == nil {
			continue
		}
		loc = fmt.Sprintf("turn %d output", t)
		for i, item := range turn.Response.Output {
			raw := item.RawJSON()
			if raw == "" {
				return nil, fmt.Errorf("%s: %w", loc, &agentcheck.MessageError{Message: i, ToolCall: -1,
					Err: errors.New("the item has no JSON as the API sent it: decode responses from the API's JSON")})
			}
			add(loc, i, []byte(raw))
		}
	}
	conv, err := dataset.ParseResponsesItems(append(data, ']'))
	var me *agentcheck.MessageError
	if errors.As(err, &me) && me.Message < len(where) {
		p := where[me.Message]
		located := *me
		located.Message = p.index
		return nil, fmt.Errorf("%s: %w", p.loc, &located)
	}
	return conv, err
}
