package secrets

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// BenchmarkRedactorRequestWithEscapes stores a clean judge request whose
// prompt carries a conversation as JSON (line breaks and quotes escaped),
// as the recorder and every replay do.
func BenchmarkRedactorRequestWithEscapes(b *testing.B) {
	x, _ := Rules{}.Redactor()
	turn := `{\"role\":\"user\",\"content\":\"Book me a table for two at 7pm.\"},\n{\"role\":\"assistant\",\"tool_calls\":[{\"name\":\"book\",\"args\":{\"time\":\"19:00\",\"party\":2}}]},\n`
	body := []byte(`{"model":"gpt-4o-mini","max_tokens":100,"messages":[{"role":"system","content":"` + strings.Repeat("Judge whether the agent achieved the goal.\n", 20) + `"},{"role":"user","content":"` + strings.Repeat(turn, 12) + `"}],"seed":42}`)
	u, _ := url.Parse("https://api.openai.com/v1/chat/completions")
	h := http.Header{"Content-Type": {"application/json"}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		x.Request(u, h, body)
	}
}
