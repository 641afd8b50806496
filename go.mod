module github.com/agentcheck/agentcheck

go 1.25

require github.com/sashabaranov/go-openai v1.43.0
