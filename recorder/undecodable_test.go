package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUndecodableAnswerIsNotStored: an answer whose coding the recorder
// cannot undo (one it does not know, or a body that is not what its coding
// says) is not recorded: the exchange fails with an error naming the
// coding, and nothing of it reaches the cassette.
func TestUndecodableAnswerIsNotStored(t *testing.T) {
	key := fake("sk-proj-", 40, 302)
	answer := []byte(`{"api_key":"` + key + `"}`)
	srv := encodedServer(t, nil, func(coding string) []byte {
		switch coding {
		case "br":
			return append([]byte{0xff}, answer...) // not Brotli
		case "zstd":
			return encoders["zstd"](answer)[:12] // cut short
		}
		return answer // "compress", "x-custom": sent as is
	})
	for _, coding := range []string{"compress", "x-custom", "br", "zstd", "gzip, x-custom"} {
		t.Run(coding, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "undecodable.yaml")
			rec, err := Open(path, WithMode(RecordMissing), env())
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = fetchEncoded(rec.Client(), srv.URL, coding)
			var undecodable *UndecodableBodyError
			if !errors.As(err, &undecodable) || undecodable.Encoding != coding || !strings.Contains(err.Error(), fmt.Sprintf("Content-Encoding %q", coding)) {
				t.Fatalf("Expected an *UndecodableBodyError naming %q, but got %v", coding, err)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("the error prints the answer's secret: %v", err)
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			if data, err := os.ReadFile(path); err == nil && (bytes.Contains(data, []byte(key)) || bytes.Contains(data, []byte("undecodable"))) {
				t.Errorf("Expected nothing of the exchange stored, but the cassette is:\n%s", data)
			}
		})
	}
}
