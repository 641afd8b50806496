package agentcheck

// Transcript is an agent run held in some SDK's own types, which an adapter
// package reads as a Conversation (goopenai.Messages is one). Assertions and
// matchers take a Transcript wherever they take a Conversation.
type Transcript interface {
	Conversation() (Conversation, error)
}
