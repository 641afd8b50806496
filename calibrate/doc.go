// Package calibrate measures whether an LLM judge agrees with people: it
// compares a judged metric's verdicts (or a rubric's, criterion by
// criterion) with human labels and reports, per metric, the confusion
// matrix with pass as positive, accuracy against the majority label's,
// precision, recall and F1 of each class, Cohen's kappa and Matthews'
// correlation with 95% bootstrap intervals (fixed seed: the same data gives
// the same intervals), Krippendorff's alpha among several labelers or over
// ordinal scores, Fleiss' kappa among a panel's judges, the flip rate of
// repeated runs, and every disagreement with the labeler's rationale beside
// the judge's reason. A File saves a calibration so that judged gates can
// say when it is missing, stale or below its floor (Check). The
// statistics need only the standard library; Evaluate runs a metric of
// package metric over labelled samples, and agentcheck calibrate is the same
// on the command line.
package calibrate
