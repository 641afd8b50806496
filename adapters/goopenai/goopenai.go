// Package goopenai reads the messages of an agent built on
// github.com/sashabaranov/go-openai as an agentcheck.Conversation: convert
// the []openai.ChatCompletionMessage an agent sent and received to
// Messages, and pass that wherever agentcheck, agenttest or matchers take a
// conversation (it is an agentcheck.Transcript). The messages go through
// go-openai's own JSON, the Chat Completions wire format, and are read by
// dataset.ParseOpenAIMessages, so that they convert exactly as the same
// messages in a dataset file do. Agent is the other way round: a go-openai
// chat loop with mocked tools as the agent under test of a scenario. Only
// this package, not agentcheck, depends on go-openai.
package goopenai

import (
	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
)

// Messages are the Chat Completions messages of an agent run, as sent and
// received: pass them wherever agentcheck takes a conversation
// (g.Expect(goopenai.Messages(msgs)).To(...)).
type Messages []openai.ChatCompletionMessage

// Conversation converts the messages: user, assistant, tool (and function)
// and system (and developer) messages become Human, AI, Tool and System;
// content parts keep their text, one part a line; assistant tool calls keep
// their IDs, and their arguments, a JSON string, are parsed (an empty
// string is no arguments). An error names the message, and the tool call,
// that could not be read; its wording is dataset.ParseOpenAIMessages's.
func (m Messages) Conversation() (agentcheck.Conversation, error) {
	// go-openai's own JSON is the Chat Completions wire format, which
	// dataset.ParseOpenAIMessages reads: one reader for the shape, whichever
	// way it arrives. Each message is written on its own so that one
	// go-openai refuses to write can be named.
	data := []byte{'['}
	for i, msg := range m {
		b, err := msg.MarshalJSON()
		if err != nil {
			return nil, &agentcheck.MessageError{Message: i, ToolCall: -1, Err: err}
		}
		if i > 0 {
			data = append(data, ',')
		}
		data = append(data, b...)
	}
	return dataset.ParseOpenAIMessages(append(data, ']'))
}
