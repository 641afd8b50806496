package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// largeCassette writes a cassette of n judge interactions (about 3.3 KB
// each) in the recorder's layout and returns its path.
func largeCassette(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "large.yaml")
	if err := os.WriteFile(path, []byte(largeText(n)), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

func largeText(n int) string {
	var sb strings.Builder
	sb.WriteString("---\nversion: 2\ninteractions:\n")
	prompt := strings.Repeat("The agent booked a table for two at 7pm and confirmed by email. ", 36)
	for i := range n {
		fmt.Fprintf(&sb, `    - id: %d
      request:
        proto: 'HTTP/1.1'
        proto_major: 1
        proto_minor: 1
        content_length: 0
        host: 'api.openai.com'
        body: '{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You judge agents."},{"role":"user","content":"Conversation %d: %s"}],"seed":42,"temperature":0,"user":"agentcheck-prompt:goal/v1"}'
        headers:
            Content-Type:
                - 'application/json'
        url: 'https://api.openai.com/v1/chat/completions'
        method: POST
      response:
        proto: 'HTTP/1.1'
        proto_major: 1
        proto_minor: 1
        content_length: 0
        body: '{"id":"chatcmpl-%d","choices":[{"index":0,"message":{"role":"assistant","content":"{\"verdict\":1,\"reason\":\"the goal was met\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":812,"completion_tokens":12,"total_tokens":824}}'
        headers:
            Content-Type:
                - 'application/json'
            X-Ratelimit-Remaining-Tokens:
                - "149984"
        status: '200 OK'
        code: 200
        duration: '0s'
`, i, i, prompt, i)
	}
	return sb.String()
}

// BenchmarkCheckLarge checks a cassette of 50,000 judge interactions
// (about 165 MB): the target is under 5 s and 500 MB.
func BenchmarkCheckLarge(b *testing.B) {
	if ok, _ := layoutScan(strings.NewReader(largeText(1)), func(int, *yaml.Node) {}); !ok {
		b.Fatal("the benchmark's cassette is not in the recorder's layout")
	}
	for _, n := range []int{1000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			path := largeCassette(b, n)
			info, _ := os.Stat(path)
			b.SetBytes(info.Size())
			b.ReportAllocs()
			for b.Loop() {
				if f, err := Check(path, Rules{}); err != nil || len(f) > 0 {
					b.Fatal(f, err)
				}
			}
		})
	}
}

// repeatedKeys is a cassette of about 100 KB whose request repeats one
// header 5,000 times.
func repeatedKeys() string {
	var sb strings.Builder
	sb.WriteString("---\nversion: 2\ninteractions:\n    - id: 0\n      request:\n        url: https://x.test/a\n        method: GET\n        headers:\n")
	for range 5000 {
		sb.WriteString("            X-A: [v]\n")
	}
	sb.WriteString("      response:\n        code: 200\n")
	return sb.String()
}

// BenchmarkCheckRepeatedKeys: the target is under 1 s and 100 MB.
func BenchmarkCheckRepeatedKeys(b *testing.B) {
	path := filepath.Join(b.TempDir(), "repeated.yaml")
	if err := os.WriteFile(path, []byte(repeatedKeys()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Check(path, Rules{}); err == nil {
			b.Fatal("a repeated key passed")
		}
	}
}
