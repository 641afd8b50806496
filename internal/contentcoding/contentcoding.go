// Package contentcoding undoes the content codings an HTTP body may carry
// (its Content-Encoding): gzip (and x-gzip), deflate (zlib as RFC 9110
// says, or bare deflate as some servers send), br (Brotli, through
// github.com/andybalholm/brotli) and zstd (Zstandard, through
// github.com/klauspost/compress/zstd), all in pure Go, and identity. The
// recorder stores every body decoded with it, so that no secret hides in a
// compressed body; the secret check can read a body some other tool stored
// encoded with the same function. Decoding is bounded: it stops with a
// *[TooLargeError] as soon as the decoded body passes the limit, never
// returning a body cut short.
package contentcoding

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// Supported lists the codings [Decode] undoes, as a Content-Encoding
// header names them.
const Supported = "gzip, x-gzip, deflate, br, zstd, identity"

// TooLargeError says that a body decodes to more than the limit given to
// [Decode].
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the decoded body is larger than %d bytes", e.Limit)
}

// Decode undoes the codings that encoding names, the value (or the values
// joined with ", ") of a Content-Encoding header: "gzip", "br", "gzip, br"
// (applied in that order, so undone from the last), in any case, with
// spaces around. An empty encoding or "identity" leaves body as it is. An
// empty body is empty in every coding. It fails with a *[TooLargeError]
// when the decoded body passes limit bytes, and with an error naming the
// coding when a coding is not one of [Supported] or the body does not
// decode with it.
func Decode(encoding string, body []byte, limit int64) ([]byte, error) {
	codings := strings.Split(encoding, ",")
	for i := len(codings) - 1; i >= 0; i-- {
		coding := strings.ToLower(strings.TrimSpace(codings[i]))
		if coding == "" || coding == "identity" || len(body) == 0 {
			continue
		}
		d, err := decodeOne(coding, body, limit)
		if err != nil {
			var tooLarge *TooLargeError
			if errors.As(err, &tooLarge) {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", coding, err)
		}
		body = d
	}
	if int64(len(body)) > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return body, nil
}

func decodeOne(coding string, body []byte, limit int64) ([]byte, error) {
	switch coding {
	case "gzip", "x-gzip":
		r, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		return readAll(r, limit)
	case "deflate":
		// RFC 9110 says zlib; some servers send bare deflate.
		if r, err := zlib.NewReader(bytes.NewReader(body)); err == nil {
			d, err := readAll(r, limit)
			var tooLarge *TooLargeError
			if err == nil || errors.As(err, &tooLarge) {
				return d, err
			}
		}
		return readAll(flate.NewReader(bytes.NewReader(body)), limit)
	case "br":
		return readAll(brotli.NewReader(bytes.NewReader(body)), limit)
	case "zstd":
		// Synchronous (concurrency 1: no goroutines), and bounded: a frame
		// that says it holds more than the limit, or needs a window of more
		// than the limit (at least 8 MiB, zstd's usual), is refused at once.
		r, err := zstd.NewReader(bytes.NewReader(body), zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(uint64(max(limit+1, 8<<20))))
		if err != nil {
			return nil, err
		}
		defer r.Close()
		d, err := readAll(r, limit)
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
			return nil, &TooLargeError{Limit: limit}
		}
		return d, err
	}
	return nil, fmt.Errorf("not a coding this program decodes (it decodes %s)", Supported)
}

// readAll reads r whole, failing as soon as it passes limit bytes.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	var b bytes.Buffer
	n, err := b.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return b.Bytes(), nil
}
