package report

import (
	"io"
	"testing"
)

// BenchmarkWriteHTML100k renders the run BenchmarkWriteJSONL100k renders,
// 100,000 cases of which 10,000 fail and 1,000 could not be scored, as the
// HTML report; its size is reported as bytes/page.
func BenchmarkWriteHTML100k(b *testing.B) {
	r := benchRun(100_000)
	var size countingWriter
	if err := Write(&size, r, HTML); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, r, HTML); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "bytes/page")
}

type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
