module github.com/agentcheck/agentcheck/adapters/openaigo

go 1.26.0

require (
	github.com/agentcheck/agentcheck v0.1.0
	github.com/google/go-cmp v0.7.0
	github.com/openai/openai-go/v3 v3.96.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/sashabaranov/go-openai v1.43.0 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/text v0.42.0 // indirect
)
