module github.com/agentcheck/agentcheck

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/onsi/gomega v1.44.0
	github.com/sashabaranov/go-openai v1.43.0
	go.yaml.in/yaml/v4 v4.0.0-rc.6
	gopkg.in/dnaeon/go-vcr.v4 v4.0.7
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/net v0.56.0 // indirect
	golang.org/x/text v0.38.0 // indirect
)
