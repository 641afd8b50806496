package recorder

import (
	"net/http"

	"github.com/agentcheck/agentcheck/internal/vcr"
)

// scrubRequest is the request as stored and matched: its URL and body
// (decoded already, see Recorder.decoded) with the secrets removed
// (package secrets), each distinct secret of the run's requests its own
// numbered placeholder. A redacted value thus never decides a match, two
// requests that differ in one are never merged, and a replay miss only
// ever shows redacted text.
func (r *Recorder) scrubRequest(req *http.Request, body []byte) (storedURL string, storedBody []byte) {
	return r.redact.Request(req.URL, req.Header, body)
}

// scrubInteraction removes the secrets from a recorded interaction before it
// is stored. Its request URL and body are already scrubbed; its headers and
// its response (decoded) are as sent and received. req and body are the
// live request and its body, with the credentials the recording run used:
// their values are removed wherever the server echoed them (raw,
// URL-encoded, base64).
func (r *Recorder) scrubInteraction(it *vcr.Interaction, req *http.Request, body []byte) {
	x := r.redact.Learn(req.URL, req.Header, body)
	it.Request.Headers = x.Headers(it.Request.Headers)
	var stored []byte
	it.Response.Headers, stored = x.Message(it.Response.Headers, []byte(it.Response.Body))
	it.Response.Body = string(stored)
	it.Response.ContentLength = int64(len(it.Response.Body))
}

// scrubText removes the secrets the recorder's rules find from a text
// built of stored requests, such as a replay miss's diff: a cassette
// written by another tool, or by hand, may hold what the recorder would
// have removed, and a message must not print it.
func (r *Recorder) scrubText(s string) string {
	return r.redact.Text(s)
}
