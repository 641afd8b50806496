package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/agentcheck/agentcheck/calibrate"
)

// calibrationGates says, for each gate of eval on a judged metric
// (--fail-under, --sample-threshold), whether the judge's calibration holds:
// the calibration file (--calibration, else FILE.calibration.json for one
// FILE) has the metric, calibrated with the same judge models, prompt
// version and criteria, and its kappa reaches the floor it was saved with.
// When it does not, it warns on stderr, or with --require-calibration
// fails the run and returns false.
func calibrationGates(cfg evalConfig, files []string, stderr io.Writer) bool {
	var judged []string
	for _, g := range slices.Concat(cfg.failUnder, cfg.sampleThresholds) {
		if judgedMetrics[g.name] && !slices.Contains(judged, g.name) {
			judged = append(judged, g.name)
		}
	}
	if len(judged) == 0 {
		return true
	}
	path := cfg.calibration
	if path == "" && len(files) == 1 && files[0] != "-" {
		path = files[0] + ".calibration.json"
	}
	ok := true
	for _, name := range judged {
		var err error
		if path == "" {
			err = &calibrate.Problem{Key: name, Kind: "missing", Detail: "no --calibration FILE names the calibration (agentcheck calibrate --save-calibration writes it)"}
		} else {
			err = calibrate.Check(path, name, judgedSetup(cfg, name), 0)
		}
		if err == nil {
			continue
		}
		var p *calibrate.Problem
		what := err.Error()
		if errors.As(err, &p) {
			what = p.Kind + ": " + p.Detail
		}
		if cfg.requireCalibration {
			ok = false
			fmt.Fprintf(stderr, "agentcheck eval: Expected the judge of the %s gates to be calibrated (--require-calibration), but its calibration is %s\n", name, shownLines(what))
			continue
		}
		fmt.Fprintf(stderr, "agentcheck eval: warning: the %s gates trust a judge whose calibration is %s\n", name, shownLines(what))
	}
	return ok
}
