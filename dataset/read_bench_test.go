package dataset_test

import (
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/dataset"
)

// BenchmarkReadRecords splits 10,000 samples of about 1 KB, written as JSON
// Lines and as a pretty-printed JSON array, each with LF and CRLF line
// ends, into records.
func BenchmarkReadRecords(b *testing.B) {
	sample := `{"user_input": [{"type": "human", "content": "` + strings.Repeat("find a table for four in Paris ", 30) + `"}, {"type": "ai", "content": "done"}]}`
	for _, tc := range []struct{ name, file, text string }{
		{"jsonl", "runs.jsonl", strings.Repeat(sample+"\n", 10000)},
		{"jsonl CRLF", "runs.jsonl", strings.Repeat(sample+"\r\n", 10000)},
		{"array", "runs.json", "[\n" + strings.Repeat(strings.ReplaceAll(sample, ", ", ",\n  ")+",\n", 9999) + sample + "\n]\n"},
		{"array CRLF", "runs.json", "[\r\n" + strings.Repeat(strings.ReplaceAll(sample, ", ", ",\r\n  ")+",\r\n", 9999) + sample + "\r\n]\r\n"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				n := 0
				for _, err := range dataset.ReadRecords(strings.NewReader(tc.text), tc.file) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != 10000 {
					b.Fatalf("%d records, want 10000", n)
				}
			}
		})
	}
}
