package matchers_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// TestGinkgoSpecs runs the package's Ginkgo specs: judged assertions given
// GinkgoT() where a test gives t.
func TestGinkgoSpecs(t *testing.T) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	ginkgo.RunSpecs(t, "matchers under Ginkgo")
}

var _ = ginkgo.Describe("a judged assertion under Ginkgo", ginkgo.Ordered, func() {
	var (
		dir    string
		server *judgetest.Server
		asked  int // questions the server answered while recording
		runs   int
	)
	ginkgo.BeforeAll(func() {
		dir = ginkgo.GinkgoT().TempDir()
		server = judgetest.NewServer(judgeScript())
		ginkgo.DeferCleanup(server.Close)
	})

	onTime := agentcheck.Sample{Conversation: booking("20:00"), Reference: bookingReference}
	late := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference}

	// The spec runs twice under one name, so both runs open one cassette:
	// the first records it through GinkgoT(), the second replays it with the
	// server gone and recording off.
	ginkgo.It("records its judge's answers through GinkgoT(), then replays them offline", ginkgo.MustPassRepeatedly(2), func() {
		runs++
		mode := recorder.RecordMissing
		if runs == 2 {
			asked = server.Count()
			server.Close()
			mode = recorder.RecordNone
		}
		t := ginkgo.GinkgoT()
		rec := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(mode), noEnv())
		j := judge.ForTest(t, judge.WithRecorder(rec), judge.WithBaseURL(server.URL), judge.WithModel("judge-a"),
			judge.WithMaxAnswerAttempts(1), judge.WithRetry(judge.RetryPolicy{Initial: time.Millisecond, MaxAttempts: 1}))

		gomega.Expect(onTime).To(AchieveGoal(j))
		gomega.Expect(late).NotTo(AchieveGoal(j))
		gomega.Expect(assert.GoalAchieved(t, j, onTime, "testify-style, given GinkgoT()")).To(gomega.BeTrue())

		// A failure names the cassette, which is named after the spec.
		var msg string
		g := gomega.NewGomega(func(m string, _ ...int) { msg = m })
		g.Expect(late).To(AchieveGoal(j))
		gomega.Expect(msg).To(gomega.ContainSubstring("the judge found it did not (agent_goal_accuracy 0, want 1)"))
		gomega.Expect(msg).To(gomega.MatchRegexp(`cassette: .*a_judged_assertion_under_Ginkgo_records_its_judge.*\.yaml`))
		// Re-recording focuses the spec: go test -run would pick a test
		// function, not a spec.
		gomega.Expect(msg).To(gomega.ContainSubstring(`re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST='a judged assertion under Ginkgo records its judge'\''s answers through GinkgoT(), then replays them offline' go test ./matchers -count=1 -run '^TestGinkgoSpecs$' -ginkgo.focus ' a judged assertion under Ginkgo records its judge'\''s answers through GinkgoT\(\), then replays them offline$'`))
	})

	ginkgo.It("asked the server only while recording", func() {
		gomega.Expect(runs).To(gomega.Equal(2))
		gomega.Expect(asked).To(gomega.BeNumerically(">=", 4), "two questions for each of the two conversations")
		cassettes, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(cassettes).To(gomega.HaveLen(1))
		info, err := os.Stat(cassettes[0])
		gomega.Expect(err).NotTo(gomega.HaveOccurred())
		gomega.Expect(info.Size()).To(gomega.BeNumerically(">", 0))
	})
})
