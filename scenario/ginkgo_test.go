package scenario_test

import (
	"testing"

	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// TestGinkgoSpecs runs the package's Ginkgo specs: a scenario run with
// GinkgoT() where a test gives t.
func TestGinkgoSpecs(t *testing.T) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	ginkgo.RunSpecs(t, "scenario under Ginkgo")
}

var _ = ginkgo.Describe("a scenario under Ginkgo", ginkgo.Ordered, func() {
	var (
		dir    string
		server *judgetest.Server
		runs   int
	)
	ginkgo.BeforeAll(func() {
		dir = ginkgo.GinkgoT().TempDir()
		server = judgetest.NewServer(refundServer(metAll))
		ginkgo.DeferCleanup(server.Close)
	})
	// The spec runs twice under one name, so both runs open one cassette:
	// the first records it through GinkgoT(), the second replays it with
	// the server gone and recording off.
	ginkgo.It("records its run through GinkgoT(), then replays it offline", ginkgo.MustPassRepeatedly(2), func() {
		runs++
		mode := recorder.RecordMissing
		if runs == 2 {
			server.Close()
			mode = recorder.RecordNone
		}
		t := ginkgo.GinkgoT()
		rec := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(mode), recorder.WithEnv(func(string) string { return "" }))
		res := refundScenario(t, rec, server.URL).Test(t)
		gomega.Expect(res.Passed).To(gomega.BeTrue(), res.String())
		gomega.Expect(res.Turns).To(gomega.HaveLen(4))
		gomega.Expect(res.String()).To(gomega.ContainSubstring("cassette: " + dir))
	})
})
