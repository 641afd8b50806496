// Package vcr is the shape of a go-vcr cassette file (format version 2):
// the types the recorder stores and the secret check reads, with the YAML
// field names go-vcr writes, so that go-vcr reads agentcheck's cassettes
// and agentcheck reads go-vcr's. Owning them keeps go-vcr, and the release
// candidate of go.yaml.in/yaml/v4 it is built on, out of every program that
// records or checks cassettes; the tests still read and write the same files
// with go-vcr itself.
package vcr

import (
	"net/http"
	"net/url"
	"time"
)

// FormatVersion is the cassette format version go-vcr v4 writes and reads.
const FormatVersion = 2

// Cassette is a cassette file: its format version and its interactions.
type Cassette struct {
	Version      int            `yaml:"version"`
	Interactions []*Interaction `yaml:"interactions"`
}

// Interaction is one recorded HTTP exchange.
type Interaction struct {
	ID       int      `yaml:"id"`
	Request  Request  `yaml:"request"`
	Response Response `yaml:"response"`
}

// Request is a recorded request.
type Request struct {
	Proto            string      `yaml:"proto"`
	ProtoMajor       int         `yaml:"proto_major"`
	ProtoMinor       int         `yaml:"proto_minor"`
	ContentLength    int64       `yaml:"content_length"`
	TransferEncoding []string    `yaml:"transfer_encoding,omitempty"`
	Trailer          http.Header `yaml:"trailer,omitempty"`
	Host             string      `yaml:"host"`
	RemoteAddr       string      `yaml:"remote_addr,omitempty"`
	RequestURI       string      `yaml:"request_uri,omitempty"`
	Body             string      `yaml:"body,omitempty"`
	Form             url.Values  `yaml:"form,omitempty"`
	Headers          http.Header `yaml:"headers,omitempty"`
	URL              string      `yaml:"url"`
	Method           string      `yaml:"method"`
}

// Response is a recorded response.
type Response struct {
	Proto            string        `yaml:"proto"`
	ProtoMajor       int           `yaml:"proto_major"`
	ProtoMinor       int           `yaml:"proto_minor"`
	TransferEncoding []string      `yaml:"transfer_encoding,omitempty"`
	Trailer          http.Header   `yaml:"trailer,omitempty"`
	ContentLength    int64         `yaml:"content_length"`
	Uncompressed     bool          `yaml:"uncompressed,omitempty"`
	Body             string        `yaml:"body"`
	Headers          http.Header   `yaml:"headers"`
	Status           string        `yaml:"status"`
	Code             int           `yaml:"code"`
	Duration         time.Duration `yaml:"duration"`
}
