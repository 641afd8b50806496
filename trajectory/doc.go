// Package trajectory is agentcheck's one engine for lining up the tool
// calls an agent made with the calls expected: the modes (Strict, InOrder,
// Unordered, Subset, Superset, named as the CLI's --trajectory-mode names
// them) and argument modes (ArgsExact, ArgsIgnore, ArgsSubset,
// ArgsSuperset), the scorings (all or nothing, per turn, recall, partial
// arguments, F1), and the pairing, which is the best there is (maximum
// bipartite matching, the optimal assignment where credit counts, the
// weighted longest common subsequence in order), never the first that
// fits. Match compares agentcheck.ToolCalls with ToolCalls (metric's
// TrajectoryMatch, the CLI); Align pairs calls for any
// Comparer (agenttest's expectations, and through them the matchers and the
// testify assertions), so that every front end gives the same verdict. The
// rules are decided here once: a call's kind does not count unless asked
// for (Match.Kinds, agenttest's OfKind); unparseable arguments
// (ToolCall.InvalidArgs) fail every comparison of arguments and pass only
// where arguments are ignored; values compare as JSON (jsonvalue.Equal)
// unless an Equivalence says otherwise; ignored paths are dotted key paths
// of path.Match patterns (IgnorePaths); the calls made come first and the
// expected calls second in every signature.
package trajectory
