package contentcoding

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

func compress(t testing.TB, coding string, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip", "x-gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	case "raw-deflate":
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&buf)
	case "zstd":
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			t.Fatal(err)
		}
		defer enc.Close()
		return enc.EncodeAll(b, nil)
	case "identity":
		return b
	default:
		t.Fatalf("no encoder for %q", coding)
	}
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// reusingCompressor is compress with one encoder of each coding, reset for
// each body: a new encoder allocates large tables, which under -race cost
// more than the coding of a small body.
type reusingCompressor struct {
	gzip   *gzip.Writer
	zlib   *zlib.Writer
	brotli *brotli.Writer
	zstd   *zstd.Encoder
}

type resettable interface {
	io.WriteCloser
	Reset(io.Writer)
}

func (c *reusingCompressor) compress(t testing.TB, coding string, b []byte) []byte {
	t.Helper()
	var w resettable
	switch coding {
	case "gzip", "x-gzip":
		if c.gzip == nil {
			c.gzip = gzip.NewWriter(nil)
		}
		w = c.gzip
	case "deflate":
		if c.zlib == nil {
			c.zlib = zlib.NewWriter(nil)
		}
		w = c.zlib
	case "br":
		if c.brotli == nil {
			c.brotli = brotli.NewWriter(nil)
		}
		w = c.brotli
	case "zstd":
		if c.zstd == nil {
			enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { enc.Close() })
			c.zstd = enc
		}
		return c.zstd.EncodeAll(b, nil)
	default:
		return compress(t, coding, b)
	}
	var buf bytes.Buffer
	w.Reset(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestDecodeRoundTrips: whatever the bytes, each coding and each chain of
// two decodes to them, within a limit of exactly their length, and not
// within one byte less.
func TestDecodeRoundTrips(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(1, 2))
	codings := []string{"gzip", "x-gzip", "deflate", "br", "zstd", "identity"}
	var enc reusingCompressor
	for range 200 {
		b := make([]byte, r.IntN(5000))
		for i := range b {
			b[i] = byte(r.IntN(8)) // compressible, every run a new one
		}
		a, c := codings[r.IntN(len(codings))], codings[r.IntN(len(codings))]
		inner := enc.compress(t, a, b)
		body := enc.compress(t, c, inner)
		// Each step is bounded: the limit must hold the inner coding's body
		// too, larger than b's when b does not compress.
		got, err := Decode(strings.ToUpper(a)+" , "+c, body, int64(max(len(b), len(inner))))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("Decode(%q) of %d bytes = %d bytes, %v", a+", "+c, len(b), len(got), err)
		}
		if len(b) > 0 {
			_, err := Decode(a+", "+c, body, int64(len(b)-1))
			var tooLarge *TooLargeError
			if !errors.As(err, &tooLarge) || tooLarge.Limit != int64(len(b)-1) {
				t.Fatalf("Expected %d bytes of %q to pass a limit of %d with a *TooLargeError, but got %v", len(b), a+", "+c, len(b)-1, err)
			}
		}
	}
	raw := compress(t, "raw-deflate", []byte("bare deflate"))
	if got, err := Decode("deflate", raw, 100); err != nil || string(got) != "bare deflate" {
		t.Errorf("bare deflate: %q, %v", got, err)
	}
}

// TestDecodeRefusesWhatItCannotUndo: an unknown coding, or a body that is
// not in its coding, is an error naming the coding, never the body as is.
func TestDecodeRefusesWhatItCannotUndo(t *testing.T) {
	for _, tt := range []struct{ coding, body, want string }{
		{"compress", "abc", "compress: not a coding this program decodes"},
		{"gzip, x-custom", "abc", "x-custom: not a coding"},
		{"gzip", "not gzip", "gzip: "},
		{"br", "\xff not brotli", "br: "},
		{"zstd", "not zstd", "zstd: "},
		{"deflate", "\xff\xff not deflate", "deflate: "},
	} {
		got, err := Decode(tt.coding, []byte(tt.body), 1<<20)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%q, %q) = %q, %v; want an error with %q", tt.coding, tt.body, got, err, tt.want)
		}
	}
	if got, err := Decode("gzip", nil, 10); err != nil || len(got) != 0 {
		t.Errorf("an empty gzip body: %q, %v; want it empty", got, err)
	}
}

// FuzzDecode: no input makes Decode panic or return more than the limit.
func FuzzDecode(f *testing.F) {
	for _, c := range []string{"gzip", "deflate", "br", "zstd"} {
		f.Add(c, compress(f, c, bytes.Repeat([]byte("ab"), 300)))
	}
	f.Fuzz(func(t *testing.T, coding string, body []byte) {
		got, err := Decode(coding, body, 256)
		if err == nil && len(got) > 256 {
			t.Fatalf("Decode(%q) returned %d bytes, past the limit of 256", coding, len(got))
		}
	})
}
