package calibrate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
)

// File is a saved calibration (agentcheck calibrate --save-calibration):
// per metric or criterion, the judge that was calibrated (its models, the
// prompts' version, a hash of the criteria or rubric), how many samples,
// the statistics, the floor kappa must reach, and the date. Judged gates
// read it to say when the calibration is missing, stale or below its floor.
type File struct {
	Date    string           `json:"date"` // YYYY-MM-DD, UTC
	Metrics map[string]Entry `json:"metrics"`
}

// Entry is one metric's or criterion's calibration.
type Entry struct {
	Setup
	N                int      `json:"n"`
	Accuracy         *float64 `json:"accuracy"`
	Kappa            *float64 `json:"kappa"`
	KappaLow         *float64 `json:"kappa_low"` // the 95% interval's lower end
	MCC              *float64 `json:"mcc"`
	MajorityAccuracy *float64 `json:"majority_accuracy"`
	// MinKappa is the floor kappa must reach (--min-kappa), 0 for none.
	MinKappa float64 `json:"min_kappa"`
}

// Setup is what a calibration holds for: the judge models (sorted), the
// prompts' version and a hash of the criteria (CriteriaHash).
type Setup struct {
	Judges        []string `json:"judges"`
	PromptVersion string   `json:"prompt_version"`
	CriteriaHash  string   `json:"criteria_hash"`
}

// CriteriaHash is the hash a calibration keeps of what the judge is asked
// to judge against: a rubric's text, or a metric's settings.
func CriteriaHash(criteria string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(criteria)))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// NewFile records a report's results, each under its key with its setup
// (setups[key]), dated at the given time.
func NewFile(rep Report, setups map[string]Setup, minKappa float64, at time.Time) File {
	f := File{Date: at.UTC().Format(time.DateOnly), Metrics: map[string]Entry{}}
	for _, r := range rep.Results {
		s := setups[r.Key]
		s.Judges = slices.Sorted(slices.Values(s.Judges))
		f.Metrics[r.Key] = Entry{Setup: s, N: r.N, Accuracy: ptr(r.Accuracy), Kappa: ptr(r.Kappa), KappaLow: ptr(r.Intervals.Kappa.Low),
			MCC: ptr(r.MCC), MajorityAccuracy: ptr(r.MajorityAccuracy), MinKappa: minKappa}
	}
	return f
}

func ptr(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// Save writes the file as indented JSON, metrics sorted, with a trailing
// newline: a file to commit.
func (f File) Save(path string) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Load reads a calibration file; a file that does not exist is an error
// that errors.Is(err, fs.ErrNotExist) tells.
func Load(path string) (File, error) {
	var f File
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("%s: not a calibration file: %v", path, err)
	}
	return f, nil
}

// Problem is why a judged gate should not trust its judge: the calibration
// is missing, stale or below its floor.
type Problem struct {
	Key  string
	Kind string // "missing", "stale" or "below floor"
	// Detail says what: the file, what changed, or kappa against its floor.
	Detail string
}

func (p *Problem) Error() string {
	return fmt.Sprintf("the judge of %s is not calibrated: %s: %s", p.Key, p.Kind, p.Detail)
}

// Check says whether the calibration in the file at path holds for key
// judged with setup: nil when it does; else a *Problem, "missing" when the
// file or its entry for key is missing, "stale" when the judges, the
// prompts' version or the criteria changed since, "below floor" when kappa
// (undefined counting as below) is under the entry's MinKappa or under
// minKappa, whichever is higher. Any other error is the file's.
func Check(path, key string, setup Setup, minKappa float64) error {
	f, err := Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Problem{Key: key, Kind: "missing", Detail: "no calibration file " + path + " (agentcheck calibrate --save-calibration writes it)"}
	}
	if err != nil {
		return err
	}
	e, ok := f.Metrics[key]
	if !ok {
		return &Problem{Key: key, Kind: "missing", Detail: path + " has no calibration of " + key}
	}
	var changed []string
	if now := slices.Sorted(slices.Values(setup.Judges)); !slices.Equal(now, e.Judges) {
		changed = append(changed, fmt.Sprintf("judges %s, calibrated %s", strings.Join(now, ","), strings.Join(e.Judges, ",")))
	}
	if setup.PromptVersion != e.PromptVersion {
		changed = append(changed, fmt.Sprintf("prompt %s, calibrated %s", setup.PromptVersion, e.PromptVersion))
	}
	if setup.CriteriaHash != e.CriteriaHash {
		changed = append(changed, fmt.Sprintf("criteria %s, calibrated %s", setup.CriteriaHash, e.CriteriaHash))
	}
	if len(changed) > 0 {
		return &Problem{Key: key, Kind: "stale", Detail: strings.Join(changed, "; ") + " (calibrated " + f.Date + " in " + path + ")"}
	}
	floor := max(e.MinKappa, minKappa)
	if e.Kappa == nil || *e.Kappa < floor {
		k := "undefined"
		if e.Kappa != nil {
			k = fmt.Sprint(*e.Kappa)
		}
		return &Problem{Key: key, Kind: "below floor", Detail: fmt.Sprintf("kappa %s over %d samples, floor %v (calibrated %s in %s)", k, e.N, floor, f.Date, path)}
	}
	return nil
}

// SetupOf is the setup a judged metric of package metric is calibrated
// for: its judge's models (a panel's members'), its prompts' version and a
// hash of its criteria (a rubric's text; the topic mode of topic
// adherence). ok is false for a metric no judge scores.
func SetupOf(m metric.Metric) (s Setup, ok bool) {
	var j judgment.Judge
	switch m := m.(type) {
	case metric.AgentGoalAccuracy:
		j, s.PromptVersion, s.CriteriaHash = m.Judge, metric.GoalPromptVersion, CriteriaHash(m.Name())
		if m.WithoutReference {
			s.CriteriaHash = CriteriaHash(m.Name() + " without reference")
		}
	case metric.TopicAdherence:
		j, s.PromptVersion, s.CriteriaHash = m.Judge, metric.TopicPromptVersion, CriteriaHash(m.Name()+" mode="+m.Mode.String())
	case metric.TrajectoryRubric:
		j, s.PromptVersion, s.CriteriaHash = m.Judge, metric.RubricPromptVersion, CriteriaHash(m.Rubric)
		if m.Reference {
			s.CriteriaHash = CriteriaHash(m.Rubric + "\nwith reference")
		}
	default:
		return s, false
	}
	members := []judgment.Judge{j}
	if p, isPanel := j.(judgment.Panel); isPanel {
		members = p.Members()
	}
	for _, mb := range members {
		if n, named := mb.(interface{ Model() string }); named {
			s.Judges = append(s.Judges, n.Model())
		}
	}
	slices.Sort(s.Judges)
	return s, true
}
