package agentcheck_test

// BFCL's deliberate differences: the cases of testdata/peer-suites/bfcl*.jsonl
// where agenttest.BFCLCalls decides otherwise than BFCL's AST checker, on
// purpose, each in one of four categories. TestPeerConformance skips them;
// TestBFCLDifferences checks that each still differs, the way its category
// says, so that the list cannot go stale.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// A bfclDifference is why agentcheck decides a BFCL case otherwise, and
// which way: whether agentcheck passes the call BFCL fails.
type bfclDifference struct {
	why    string
	passes bool
}

var (
	bfclNumbers       = bfclDifference{"JSON number semantics: 10 equals 10.0, so an integral float is an integer (BFCL's Python type check wants int)", true}
	bfclExplicitEmpty = bfclDifference{`an explicit "" or [] is a value given, not a parameter left out (BFCL's "" in the possible answers means it may be left out, and it also accepts "" or [] given)`, false}
	bfclPairing       = bfclDifference{"parallel calls pair up optimally: BFCL gives each possible answer the first call that fits, which can leave a later answer without one", true}
	bfclListInDict    = bfclDifference{"strings in a list in a dict are normalised by trajectory.BFCLStrings like every other string (BFCL compares that list exactly)", true}
)

// bfclDifferences are the BFCL cases agentcheck decides otherwise.
var bfclDifferences = map[string]bfclDifference{
	"bfcl/live_multiple::live_multiple_144-56-0[float-for-int:perPage]":                               bfclNumbers,
	"bfcl/live_multiple::live_multiple_27-7-0[float-for-int:a]":                                       bfclNumbers,
	"bfcl/live_multiple::live_multiple_507-149-4[explicit-empty:origin_airport]":                      bfclExplicitEmpty,
	"bfcl/live_multiple::live_multiple_64-26-0[explicit-empty:delivery_instructions]":                 bfclExplicitEmpty,
	"bfcl/live_multiple::live_multiple_68-29-0[float-for-int:port]":                                   bfclNumbers,
	"bfcl/live_multiple::live_multiple_766-170-4[float-for-int:num_passengers]":                       bfclNumbers,
	"bfcl/live_multiple::live_multiple_976-215-0[float-for-int:province_id]":                          bfclNumbers,
	"bfcl/live_multiple::live_multiple_997-228-0[float-for-int:day]":                                  bfclNumbers,
	"bfcl/live_parallel_multiple::live_parallel_multiple_0-0-0[explicit-empty:newIngredients:0]":      bfclExplicitEmpty,
	"bfcl/live_parallel_multiple::live_parallel_multiple_0-0-0[explicit-empty:specialInstructions:0]": bfclExplicitEmpty,
	"bfcl/live_simple::live_simple_179-104-0[float-for-int:service_id]":                               bfclNumbers,
	"bfcl/live_simple::live_simple_2-2-0[float-for-int:time]":                                         bfclNumbers,
	"bfcl/live_simple::live_simple_236-124-1[float-for-int:volume]":                                   bfclNumbers,
	"bfcl/live_simple::live_simple_67-31-0[float-for-int:plazo_del_credito_mensual]":                  bfclNumbers,
	"bfcl/live_simple::live_simple_70-34-0[explicit-empty:t1]":                                        bfclExplicitEmpty,
	"bfcl/live_simple::live_simple_70-34-0[float-for-int:perPage]":                                    bfclNumbers,
	"bfcl/multiple::multiple_112[float-for-int:years]":                                                bfclNumbers,
	"bfcl/multiple::multiple_115[float-for-int:number]":                                               bfclNumbers,
	"bfcl/multiple::multiple_120[float-for-int:distance_in_light_years]":                              bfclNumbers,
	"bfcl/multiple::multiple_120[float-for-int:speed_of_light]":                                       bfclNumbers,
	"bfcl/multiple::multiple_121[float-for-int:height]":                                               bfclNumbers,
	"bfcl/multiple::multiple_123[float-for-int:favorable_outcomes]":                                   bfclNumbers,
	"bfcl/multiple::multiple_123[float-for-int:total_outcomes]":                                       bfclNumbers,
	"bfcl/multiple::multiple_124[float-for-int:event_outcomes]":                                       bfclNumbers,
	"bfcl/multiple::multiple_124[float-for-int:total_outcomes]":                                       bfclNumbers,
	"bfcl/multiple::multiple_152[float-for-int:end_year]":                                             bfclNumbers,
	"bfcl/multiple::multiple_167[float-for-int:tempo]":                                                bfclNumbers,
	"bfcl/multiple::multiple_172[explicit-empty:team]":                                                bfclExplicitEmpty,
	"bfcl/multiple::multiple_179[float-for-int:hand_size]":                                            bfclNumbers,
	"bfcl/multiple::multiple_20[float-for-int:size]":                                                  bfclNumbers,
	"bfcl/multiple::multiple_32[float-for-int:round_off]":                                             bfclNumbers,
	"bfcl/multiple::multiple_38[explicit-empty:genre]":                                                bfclExplicitEmpty,
	"bfcl/multiple::multiple_49[float-for-int:compound_freq]":                                         bfclNumbers,
	"bfcl/multiple::multiple_68[explicit-empty:title]":                                                bfclExplicitEmpty,
	"bfcl/multiple::multiple_82[float-for-int:tempo]":                                                 bfclNumbers,
	"bfcl/multiple::multiple_83[explicit-empty:competition]":                                          bfclExplicitEmpty,
	"bfcl/multiple::multiple_86[float-for-int:numPlayers]":                                            bfclNumbers,
	"bfcl/multiple::multiple_90[float-for-int:group_size]":                                            bfclNumbers,
	"bfcl/multiple::multiple_96[float-for-int:b]":                                                     bfclNumbers,
	"bfcl/multiple::multiple_96[float-for-int:c]":                                                     bfclNumbers,
	"bfcl/multiple::multiple_97[float-for-int:radius]":                                                bfclNumbers,
	"bfcl/parallel::parallel_178[parallel-first-fit]":                                                 bfclPairing,
	"bfcl/parallel::parallel_77[float-for-int:number1:1]":                                             bfclNumbers,
	"bfcl/parallel::parallel_87[float-for-int:initial_velocity:1]":                                    bfclNumbers,
	"bfcl/parallel::parallel_96[parallel-first-fit]":                                                  bfclPairing,
	"bfcl/parallel::parallel_99[float-for-int:mass:0]":                                                bfclNumbers,
	"bfcl/parallel_multiple::parallel_multiple_135[dict-list-string-case:cards.John:1]":               bfclListInDict,
	"bfcl/parallel_multiple::parallel_multiple_135[dict-list-string-case:cards.Mike:1]":               bfclListInDict,
	"bfcl/parallel_multiple::parallel_multiple_135[dict-list-string-case:cards.Sarah:1]":              bfclListInDict,
	"bfcl/parallel_multiple::parallel_multiple_160[explicit-empty:case_type:1]":                       bfclExplicitEmpty,
	"bfcl/parallel_multiple::parallel_multiple_178[float-for-int:initial_temp:1]":                     bfclNumbers,
	"bfcl/parallel_multiple::parallel_multiple_184[explicit-empty:team_name:1]":                       bfclExplicitEmpty,
	"bfcl/parallel_multiple::parallel_multiple_191[explicit-empty:deck:0]":                            bfclExplicitEmpty,
	"bfcl/simple_python::simple_python_101[float-for-int:time]":                                       bfclNumbers,
	"bfcl/simple_python::simple_python_112[float-for-int:favorable_outcomes]":                         bfclNumbers,
	"bfcl/simple_python::simple_python_132[float-for-int:dividends_paid]":                             bfclNumbers,
	"bfcl/simple_python::simple_python_132[float-for-int:net_income]":                                 bfclNumbers,
	"bfcl/simple_python::simple_python_134[float-for-int:years]":                                      bfclNumbers,
	"bfcl/simple_python::simple_python_135[float-for-int:purchase_price]":                             bfclNumbers,
	"bfcl/simple_python::simple_python_145[float-for-int:principal]":                                  bfclNumbers,
	"bfcl/simple_python::simple_python_194[float-for-int:num_results]":                                bfclNumbers,
	"bfcl/simple_python::simple_python_19[float-for-int:num1]":                                        bfclNumbers,
	"bfcl/simple_python::simple_python_239[float-for-int:year]":                                       bfclNumbers,
	"bfcl/simple_python::simple_python_256[float-for-int:radius]":                                     bfclNumbers,
	"bfcl/simple_python::simple_python_25[float-for-int:height]":                                      bfclNumbers,
	"bfcl/simple_python::simple_python_269[float-for-int:compounds_per_year]":                         bfclNumbers,
	"bfcl/simple_python::simple_python_269[float-for-int:time]":                                       bfclNumbers,
	"bfcl/simple_python::simple_python_309[float-for-int:season_year]":                                bfclNumbers,
	"bfcl/simple_python::simple_python_31[float-for-int:initial_velocity]":                            bfclNumbers,
	"bfcl/simple_python::simple_python_329[float-for-int:dice_faces]":                                 bfclNumbers,
	"bfcl/simple_python::simple_python_329[float-for-int:dice_number]":                                bfclNumbers,
	"bfcl/simple_python::simple_python_337[dict-list-string-case:cards.Alex]":                         bfclListInDict,
	"bfcl/simple_python::simple_python_337[dict-list-string-case:cards.Robert]":                       bfclListInDict,
	"bfcl/simple_python::simple_python_337[dict-list-string-case:cards.Sam]":                          bfclListInDict,
	"bfcl/simple_python::simple_python_337[dict-list-string-case:cards.Steve]":                        bfclListInDict,
	"bfcl/simple_python::simple_python_339[float-for-int:deck_size]":                                  bfclNumbers,
	"bfcl/simple_python::simple_python_353[explicit-empty:ingredients]":                               bfclExplicitEmpty,
	"bfcl/simple_python::simple_python_379[explicit-empty:timezone]":                                  bfclExplicitEmpty,
	"bfcl/simple_python::simple_python_41[float-for-int:charge1]":                                     bfclNumbers,
	"bfcl/simple_python::simple_python_42[float-for-int:round_off]":                                   bfclNumbers,
	"bfcl/simple_python::simple_python_45[float-for-int:mass]":                                        bfclNumbers,
}

func init() {
	for id, d := range bfclDifferences {
		deliberate[id] = d.why
	}
}

func TestBFCLDifferences(t *testing.T) {
	byID := map[string]peerCase{}
	for _, c := range loadPeerCases(t) {
		byID[c.ID] = c
	}
	count := map[string]int{}
	for _, id := range slices.Sorted(maps.Keys(bfclDifferences)) {
		d := bfclDifferences[id]
		count[d.why]++
		t.Run(id, func(t *testing.T) {
			c, ok := byID[id]
			if !ok {
				t.Fatalf("no such case in testdata/peer-suites")
			}
			got, err := runPeerCase(c)
			if err != nil {
				t.Fatalf("cannot express: %v", err)
			}
			if got.pass != d.passes || *c.Verdict.Pass == d.passes {
				t.Errorf("Expected agentcheck to pass=%v where BFCL says %v (%s), but agentcheck says %v\n%s", d.passes, !d.passes, d.why, got.pass, got.why)
			}
		})
	}
	var b strings.Builder
	for _, why := range slices.Sorted(maps.Keys(count)) {
		fmt.Fprintf(&b, "\n  %d: %s", count[why], why)
	}
	t.Logf("%d deliberate differences from BFCL:%s", len(bfclDifferences), b.String())
}
