package scenario

import (
	"context"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/evalsuite"
)

// Case is the scenario as a case of an evalsuite suite, named id: each run
// of the case (Suite.Repeat of them) runs the scenario under the case label
// evalsuite gives it (id#run1, id#run2, ...), so that each replays its own
// interactions of the cassette, and the suite's gates see pass@k and pass^k
// over the runs. A run passes when the scenario passed (and the suite's
// checks, if any, pass on its transcript); a failed run is
// evalsuite.Failed with the run's report; a run that could not reach its end
// is the run's error.
func Case(id string, s Scenario) evalsuite.Case {
	if s.Name == "" {
		s.Name = id
	}
	return evalsuite.Case{ID: id, Run: func(ctx context.Context) (agentcheck.Sample, error) {
		res := s.run(ctx, "") // labelled by evalsuite, run by run
		switch {
		case res.Err != nil:
			return res.Sample(), res.Report().Err()
		case !res.Passed:
			return res.Sample(), &evalsuite.Failed{Reason: res.String()}
		}
		return res.Sample(), nil
	}}
}
