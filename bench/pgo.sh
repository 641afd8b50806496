#!/usr/bin/env bash
# bench/pgo.sh makes cmd/agentcheck/default.pgo, the CPU profile that
# `go build` and `go install` of the CLI use for profile-guided
# optimisation (Go's -pgo=auto: hot calls inlined, interface calls
# devirtualised). It profiles BenchmarkEvalOneWorker (eval --workers 1,
# the two tool-call metrics, jsonl) for 10 s (PGO_BENCHTIME) on each of
# the five 100,000-sample files that `bash bench/run.sh --cpu` writes to bench-out/
# (the generated file, the spec's vectors, the results and chat mixes,
# the generated samples as OpenAI messages), with a test binary built
# without a profile, and merges the five.
#
#   bash bench/run.sh --cpu && bash bench/pgo.sh
#
# Run it again after a change to the code the profile covers; a stale
# profile still builds, it only optimises less (BENCHMARKS.md, CPU10).
# Two profiles of 3 s each made builds 7% apart on the OpenAI mix; of 10 s,
# 0.4% (BENCHMARKS.md, CPU17).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench-out
MIXES="samples vectors results chat openai"
for mix in $MIXES; do
	if [ ! -f "$OUT/$mix-100k.jsonl" ]; then
		echo "bench/pgo.sh: $OUT/$mix-100k.jsonl is missing: run bash bench/run.sh --cpu first" >&2
		exit 1
	fi
done
go test -c -pgo=off -o "$OUT/pgo.test" ./cmd/agentcheck
profiles=()
for mix in $MIXES; do
	(cd cmd/agentcheck && AGENTCHECK_BENCH_FILE="$OUT/$mix-100k.jsonl" "$OUT/pgo.test" \
		-test.run '^$' -test.bench '^BenchmarkEvalOneWorker$' -test.benchtime "${PGO_BENCHTIME:-10s}" \
		-test.cpuprofile "$OUT/pgo-$mix.prof") >"$OUT/pgo-$mix.txt"
	profiles+=("$OUT/pgo-$mix.prof")
done
go tool pprof -proto "${profiles[@]}" >cmd/agentcheck/default.pgo
echo "bench/pgo.sh: wrote cmd/agentcheck/default.pgo ($(wc -c <cmd/agentcheck/default.pgo) bytes)" >&2
