package metric

import "github.com/agentcheck/agentcheck/judgment"

// Deprecated names of package judgment, kept while the packages that other
// changes are editing move to judgment; removed in the next commit.
type (
	Judge             = judgment.Judge
	Question          = judgment.Question
	Answer            = judgment.Answer
	Usage             = judgment.Usage
	Panel             = judgment.Panel
	Aggregation       = judgment.Aggregation
	AggregationMethod = judgment.AggregationMethod
)

const (
	Mean      = judgment.Mean
	Majority  = judgment.Majority
	Min       = judgment.Min
	Unanimous = judgment.Unanimous
	Consensus = judgment.Consensus
)

var Aggregate = judgment.Aggregate
