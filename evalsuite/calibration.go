package evalsuite

import (
	"errors"

	"github.com/agentcheck/agentcheck/calibrate"
)

// checkCalibration holds every judged check to the suite's calibration
// file; with RequireCalibration a problem fails the suite.
func (s Suite) checkCalibration(res *Result) {
	for _, c := range s.Checks {
		if c.Metric == nil {
			continue
		}
		setup, judged := calibrate.SetupOf(c.Metric)
		if !judged {
			continue
		}
		var err error
		if s.Calibration == "" {
			err = &calibrate.Problem{Key: c.Metric.Name(), Kind: "missing",
				Detail: "Suite.Calibration names no calibration file (agentcheck calibrate --save-calibration writes one)"}
		} else {
			err = calibrate.Check(s.Calibration, c.Metric.Name(), setup, 0)
		}
		if err == nil {
			continue
		}
		res.Calibration = append(res.Calibration, err)
		if s.RequireCalibration {
			res.Err = errors.Join(res.Err, err)
		}
	}
}

// logCalibration logs the calibration's problems as warnings when they do
// not fail the suite (Run's T logs them when it can).
func logCalibration(t any, res *Result, required bool) {
	l, ok := t.(interface{ Logf(string, ...any) })
	if !ok || required {
		return
	}
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	for _, err := range res.Calibration {
		l.Logf("warning: %v", err)
	}
}
