package scenario_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

// weatherScenario has a tool whose Func makes its own HTTP request through
// the recorder's client, as a tool that calls a real API does: the agent
// asks for the weather in each city the user names.
func weatherScenario(t *testing.T, rec *recorder.Recorder, url string) scenario.Scenario {
	hc := rec.Client()
	box, err := scenario.NewToolbox(scenario.Tool{
		Name: "weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		Func: func(ctx context.Context, args json.RawMessage) (string, error) {
			var a struct{ City string }
			if err := json.Unmarshal(args, &a); err != nil {
				return "", err
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/weather?city="+a.City, nil)
			if err != nil {
				return "", err
			}
			resp, err := hc.Do(req)
			if err != nil {
				return "", err
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			return string(body), err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	agent := scenario.AgentFunc(func(ctx context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
		city := conv[len(conv)-1].Content
		call := agentcheck.MustParseToolCall("weather", fmt.Sprintf(`{"city":%q}`, city))
		call.ID = "call_" + city
		result := box.Call(ctx, call)
		return scenario.Reply{Messages: []agentcheck.Message{
			{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call}}, result,
			{Role: agentcheck.AI, Content: "In " + city + ": " + result.Content},
		}}, nil
	})
	return scenario.Scenario{Name: "weather", Agent: agent, User: scenario.StaticUser("Paris", "Lyon", "Nice")}
}

// TestDeletedToolInteractionNamesTurnAndRole: a tool's own request that
// the cassette lacks ends the run as the tool's error at its turn, with
// the recorder's miss (the closest request, the command that records it),
// rather than being shown to the model as a tool error.
func TestDeletedToolInteractionNamesTurnAndRole(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"city":%q,"sky":"clear"}`, r.URL.Query().Get("city"))
	}))
	defer api.Close()
	path := filepath.Join(t.TempDir(), "weather.yaml")
	rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordAll), recorder.WithEnv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	recorded := weatherScenario(t, rec, api.URL).Run(t.Context())
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if !recorded.Passed || recorded.ToolCalls != 3 || !strings.Contains(recorded.Conversation[len(recorded.Conversation)-1].Content, `"sky":"clear"`) {
		t.Fatalf("the recording:\n%s", recorded)
	}
	api.Close()

	replay, err := recorder.Open(withoutInteraction(t, path, "city=Lyon"), recorder.WithMode(recorder.RecordNone), recorder.WithTestName(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	res := weatherScenario(t, replay, api.URL).Run(t.Context())
	var re *scenario.RunError
	var miss *recorder.ReplayMissError
	if !errors.As(res.Err, &re) || re.Role != "tool" || re.Turn != 2 || !errors.As(res.Err, &miss) {
		t.Fatalf("Expected the tool's replay miss at turn 2, but:\n%s", res)
	}
	got := res.String()
	for _, w := range []string{
		`Expected the scenario "weather" to run to its end, but at turn 2 the tool failed:`,
		`weather({"city":"Lyon"}): `,
		"agentcheck: replay miss: GET /weather (case weather)",
		"closest recorded request: ",
		"record it with: AGENTCHECK_RECORD=missing ",
		"-run '^" + t.Name() + "$'",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("Expected the report to say %q, but it is:\n%s", w, got)
		}
	}
	if len(res.Turns) != 2 || res.ToolCalls != 2 {
		t.Errorf("the run went on past the miss: %d turns, %d tool calls", len(res.Turns), res.ToolCalls)
	}
}
