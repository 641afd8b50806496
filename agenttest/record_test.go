package agenttest_test

import (
	"errors"
	"testing"

	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/internal/checkname"
)

// errorfT has Errorf only, as testify's minimal TestingT.
type errorfT struct{ errors int }

func (e *errorfT) Errorf(string, ...any) { e.errors++ }

// TestRecordWithoutAttrOrArtifactDir: a t with neither Attr nor
// ArtifactDir records nothing, by design, and nothing else happens to it:
// no error reported, no panic, whatever the report.
func TestRecordWithoutAttrOrArtifactDir(t *testing.T) {
	failing := agenttest.NewReport(false, func() string { return "Expected x, but y" }, nil, nil)
	broken := agenttest.NewReport(false, nil, nil, errors.New("could not judge"))
	for _, r := range []agenttest.Report{failing, broken} {
		e := &errorfT{}
		agenttest.Record(e, checkname.Score, nil, r)
		if e.errors != 0 {
			t.Errorf("Expected Record not to report to a t without Attr or ArtifactDir, but it called Errorf %d times", e.errors)
		}
		agenttest.Record(nil, checkname.Score, nil, r)
		agenttest.Record(struct{}{}, checkname.Score, nil, r)
	}
}
