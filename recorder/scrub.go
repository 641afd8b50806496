package recorder

import (
	"net/http"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// scrubRequest is the request as stored and matched: its URL and body with
// the secrets removed. A redacted value thus never decides a match, and a
// replay miss only ever shows redacted text.
func (r *Recorder) scrubRequest(req *http.Request, body []byte) (storedURL string, storedBody []byte) {
	return r.redact.URL(req.URL), r.redact.Body(body)
}

// scrubInteraction removes the secrets from a recorded interaction before it
// is stored. Its request URL and body are already scrubbed; its headers and
// its response body are as sent and received. req is the live request, with
// the credentials the recording run used.
func (r *Recorder) scrubInteraction(it *cassette.Interaction, req *http.Request) {
	it.Request.Headers = r.redact.Headers(it.Request.Headers)
	it.Response.Headers = r.redact.Headers(it.Response.Headers)
	it.Response.Body = string(r.redact.Body([]byte(it.Response.Body)))
	it.Response.ContentLength = int64(len(it.Response.Body))
}
