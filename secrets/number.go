package secrets

import (
	"strconv"
	"sync"
)

// Redaction must never merge two requests that differ only in a secret:
// "credentials: p1" and "credentials: p2" stored as the same request would
// replay each other's answers. So a Redactor numbers the distinct secrets
// of the requests it stores, in order of first appearance: the first
// becomes "[REDACTED]", the second "[REDACTED-2]", the third
// "[REDACTED-3]", and each comes back as the same placeholder wherever it
// reappears. A replay, scrubbing its live requests in the same order,
// numbers its own values the same way, so that each request matches the
// one recorded for it though the values differ (a key in CI is not the
// developer's). A secret found only in a response (an access token the
// server issued) is stored as "[REDACTED]" without taking a number, since
// a replay never scrubs the responses it serves; a request that sends it
// back is stored with that same placeholder, which is what a replaying
// client, having received it, sends. The numbers a run gives thus depend
// on its requests' order, and only in a cassette recorded in one run do
// they line up with a replay's.

// maxNumbered bounds the secrets a Redactor remembers; past it, a new
// secret still takes the next number but is not remembered.
const maxNumbered = 1 << 16

// numbering is the placeholders a Redactor gave, by secret value.
type numbering struct {
	mu   sync.Mutex
	of   map[string]string
	next int // the number the next request secret takes, less one
}

// scrubMode says what a Redactor's replacements do with the numbering.
type scrubMode int

const (
	// lookup: a known secret's placeholder, "[REDACTED]" for another.
	lookup scrubMode = iota
	// requestMode: a new secret takes the next number.
	requestMode
	// responseMode: a new secret is remembered as "[REDACTED]".
	responseMode
)

// numbered returns the placeholder n gives secret in mode m.
func (n *numbering) placeholder(secret string, m scrubMode) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if p, ok := n.of[secret]; ok {
		return p
	}
	p := Redacted
	switch m {
	case requestMode:
		n.next++
		if n.next > 1 {
			p = "[REDACTED-" + strconv.Itoa(n.next) + "]"
		}
	case responseMode:
	default:
		return p
	}
	if n.of == nil {
		n.of = make(map[string]string)
	}
	if len(n.of) < maxNumbered {
		n.of[secret] = p
	}
	return p
}

// replacement is what secret becomes.
func (x *Redactor) replacement(secret string) string {
	if x.num == nil {
		return Redacted
	}
	return x.num.placeholder(secret, x.mode)
}

// inMode is x replacing in mode m.
func (x *Redactor) inMode(m scrubMode) *Redactor {
	if x.mode == m {
		return x
	}
	c := *x
	c.mode = m
	return &c
}
