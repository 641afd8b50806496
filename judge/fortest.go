package judge

import (
	"context"

	"github.com/agentcheck/agentcheck/recorder"
)

// T is what ForTest needs of a test: recorder.T's methods and the test's
// context. *testing.T, *testing.B, *testing.F and Ginkgo's GinkgoT() all
// have them.
type T interface {
	recorder.T
	Context() context.Context
}

// ForTest returns a judge for the test t: a Client, configured by opts as
// New configures one, whose requests go through t's own cassette,
// recorder.ForTest(t): testdata/cassettes/ and recorder.CassetteFile(t.Name())
// (TestBooking~88.yaml), replayed by default, recorded only when AGENTCHECK_RECORD says so (never with
// CI=true, which fails the test), saved when the test ends. Replaying needs
// no key and no network:
//
//	j := judge.ForTest(t)
//	g.Expect(conversation).To(matchers.AchieveGoal(j))
//
// The judges of one test (a panel's members) and the agent's client from
// recorder.ForTest(t).Client() share that cassette. A recorder given with
// WithRecorder takes its place, e.g. one with other options:
// judge.ForTest(t, judge.WithRecorder(recorder.ForTest(t, recorder.WithDir("cassettes")))).
// Every question is asked within t's context as well as the one Ask is
// given, so that a judge stops when its test ends. Answers that go through
// the cassette, recorded or replayed, carry its path as their Source and
// the command that records it anew as their Rerecord.
func ForTest(t T, opts ...Option) *Client {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.recorder == nil {
		opts = append([]Option{WithRecorder(recorder.ForTest(t))}, opts...)
	}
	c := New(opts...)
	c.bound = t.Context()
	return c
}
