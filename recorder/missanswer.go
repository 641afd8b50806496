package recorder

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// missStatus is the status of the response that answers a replay miss:
// no recorded answer was found.
const missStatus = http.StatusNotFound

// missResponse answers a replay miss: a 404 that says not to retry, whose
// body reads as the miss in JSON, then fails with the miss itself.
func (r *Recorder) missResponse(req *http.Request, miss error) *http.Response {
	text, _ := json.Marshal(map[string]map[string]string{"error": {
		"message": miss.Error(),
		"type":    "agentcheck_replay_miss",
	}})
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Should-Retry", "false")
	h.Set(CassetteHeader, r.path)
	return &http.Response{
		Status:     strconv.Itoa(missStatus) + " " + http.StatusText(missStatus),
		StatusCode: missStatus,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     h,
		// The length is unknown, so that a client reads to the end, where
		// the error is.
		ContentLength: -1,
		Body:          &missBody{text: bytes.NewReader(text), err: miss},
		Request:       req,
	}
}

// missBody reads as text, then fails with err instead of io.EOF.
type missBody struct {
	text *bytes.Reader
	err  error
}

func (b *missBody) Read(p []byte) (int, error) {
	if b.text.Len() > 0 {
		return b.text.Read(p)
	}
	return 0, b.err
}

func (b *missBody) Close() error { return nil }
