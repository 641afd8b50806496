package dataset

import (
	"io"
	"iter"

	"github.com/agentcheck/agentcheck"
)

// ReadSamplesUnder is ReadSamples with bound, not MaxSample, the most
// bytes a sample may hold: the same reading, tested without 64 MiB of
// input.
func ReadSamplesUnder(r io.Reader, file string, bound int) iter.Seq2[agentcheck.Sample, error] {
	return samplesOf(readRecords(r, file, false, bound, "", nil))
}

// MaxSample is the bound ReadRecords and ReadSamples read under.
const MaxSample = maxSample
