package main

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// eval scores a gzip-compressed dataset as its text: the same output and
// exit status, whatever the workers; a dataset compressed otherwise is an
// input error that says how to decompress it.
func TestEvalReadsGzipAndSaysWhatItCannot(t *testing.T) {
	t.Parallel()
	text := strings.Join(synthLines(300, 27), "\n") + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	plain := writeFile(t, "data.jsonl", text)
	packed := writeFile(t, "data.jsonl.gz", gz.String())
	for _, workers := range []string{"1", "2"} {
		want, _, wantCode := runAgentcheck(t, "", "eval", "--workers", workers, "--format", "jsonl", plain)
		got, stderr, code := runAgentcheck(t, "", "eval", "--workers", workers, "--format", "jsonl", packed)
		if got != want || code != wantCode || strings.Count(got, "\n") != 300 {
			t.Errorf("--workers %s: the gzip-compressed file gives exit %d and\n%.600s\nstderr %s\nthe plain one exit %d and\n%.600s", workers, code, got, stderr, wantCode, want)
		}
	}
	zst := writeFile(t, "data.jsonl.zst", "\x28\xb5\x2f\xfd"+"compressed")
	out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", zst)
	if want := `{"error":"` + zst + `: the input is zstd-compressed: decompress it first (zstd -dc FILE); only gzip is read as it is"}` + "\n"; out != want || code != exitFailed || !strings.Contains(stderr, "1 input error") {
		t.Errorf("a zstd file: exit %d, output %q, stderr %q; want exit %d, output %q", code, out, stderr, exitFailed, want)
	}
}
