package openaigo_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/openaigo"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// The first response of a run: reasoning, a message, two function calls.
const firstResponse = `{"id": "resp_68a1", "object": "response", "created_at": 1741476542, "status": "completed", "error": null,
	"incomplete_details": null, "instructions": null, "model": "gpt-4.1-2025-04-14", "parallel_tool_calls": true, "tools": [],
	"output": [
		{"type": "reasoning", "id": "rs_68a1", "summary": [{"type": "summary_text", "text": "Two cities: two calls."}]},
		{"type": "message", "id": "msg_68a2", "status": "completed", "role": "assistant",
			"content": [{"type": "output_text", "text": "Checking both.", "annotations": [], "logprobs": []}]},
		{"type": "function_call", "id": "fc_68a3", "call_id": "call_paris", "name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":2.0}", "status": "completed"},
		{"type": "function_call", "id": "fc_68a4", "call_id": "call_rome", "name": "get_weather", "arguments": "{\"city\":\"Rome\",\"days\":2}", "status": "completed"}],
	"usage": {"input_tokens": 291, "output_tokens": 23, "total_tokens": 314}}`

// The last: a web search, two MCP calls (one failed) and the answer.
const lastResponse = `{"id": "resp_68a5", "object": "response", "created_at": 1741476543, "status": "completed", "error": null,
	"incomplete_details": null, "instructions": null, "model": "gpt-4.1-2025-04-14", "parallel_tool_calls": true, "tools": [],
	"output": [
		{"type": "web_search_call", "id": "ws_68a5", "status": "completed", "action": {"type": "search", "query": "Rome weather warning"}},
		{"type": "mcp_call", "id": "mcp_68a6", "server_label": "units", "name": "to_fahrenheit", "arguments": "{\"celsius\":14}", "output": "57.2", "error": null, "approval_request_id": null},
		{"type": "mcp_call", "id": "mcp_68a7", "server_label": "units", "name": "to_fahrenheit", "arguments": "{\"celsius\":\"x\"}", "output": null, "error": "celsius must be a number"},
		{"type": "message", "id": "msg_68a8", "status": "completed", "role": "assistant", "content": [
			{"type": "output_text", "text": "Paris 14°C, Rome 18°C.", "annotations": [{"type": "url_citation", "start_index": 0, "end_index": 5, "url": "https://meteo.example", "title": "Meteo"}]},
			{"type": "refusal", "refusal": "I can't give the warning."}]}],
	"usage": {"input_tokens": 400, "output_tokens": 40, "total_tokens": 440}}`

func responsesWant() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Be brief."},
		{Role: agentcheck.Human, Content: "Weather in Paris and Rome?\nIn Celsius."},
		{Role: agentcheck.AI, Content: "Checking both.", Reasoning: "Two cities: two calls.", ToolCalls: []agentcheck.ToolCall{
			{ID: "call_paris", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Paris","days":2.0}`)},
			{ID: "call_rome", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Rome","days":2}`)},
		}},
		{Role: agentcheck.Tool, Content: "14 degrees", ToolCallID: "call_paris"},
		{Role: agentcheck.Tool, Content: "18 degrees", ToolCallID: "call_rome"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "ws_68a5", Name: "web_search", Kind: agentcheck.HostedTool, Args: jsonvalue.MustParse(`{"type": "search", "query": "Rome weather warning"}`)},
			{ID: "mcp_68a6", Name: "to_fahrenheit", Kind: agentcheck.MCPTool, Args: jsonvalue.MustParse(`{"celsius":14}`)},
			{ID: "mcp_68a7", Name: "to_fahrenheit", Kind: agentcheck.MCPTool, Args: jsonvalue.MustParse(`{"celsius":"x"}`)},
		}},
		{Role: agentcheck.Tool, Content: "57.2", ToolCallID: "mcp_68a6"},
		{Role: agentcheck.Tool, Content: "celsius must be a number", ToolCallID: "mcp_68a7", IsError: true},
		{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C.\nI can't give the warning."},
	}
}

// firstInput is the input of the first request.
func firstInput() []responses.ResponseInputItemUnionParam {
	return []responses.ResponseInputItemUnionParam{
		responses.ResponseInputItemParamOfMessage("Be brief.", responses.EasyInputMessageRoleDeveloper),
		responses.ResponseInputItemParamOfMessage(responses.ResponseInputMessageContentListParam{
			responses.ResponseInputContentParamOfInputText("Weather in Paris and Rome?"),
			{OfInputImage: &responses.ResponseInputImageParam{ImageURL: openai.String("https://example.com/map.png"), Detail: responses.ResponseInputImageDetailAuto}},
			responses.ResponseInputContentParamOfInputText("In Celsius."),
		}, responses.EasyInputMessageRoleUser),
	}
}

// asInput turns output items into input items, as an agent that resends
// the history does, with the SDK's ToParam.
func asInput(t *testing.T, out []responses.ResponseOutputItemUnion) []responses.ResponseInputItemUnionParam {
	var in []responses.ResponseInputItemUnionParam
	for _, item := range out {
		switch v := item.AsAny().(type) {
		case responses.ResponseReasoningItem:
			p := v.ToParam()
			in = append(in, responses.ResponseInputItemUnionParam{OfReasoning: &p})
		case responses.ResponseOutputMessage:
			p := v.ToParam()
			in = append(in, responses.ResponseInputItemUnionParam{OfOutputMessage: &p})
		case responses.ResponseFunctionToolCall:
			p := v.ToParam()
			in = append(in, responses.ResponseInputItemUnionParam{OfFunctionCall: &p})
		default:
			t.Fatalf("unexpected output item %s", item.Type)
		}
	}
	return in
}

// functionOutput is the item giving a call's result.
func functionOutput(callID, output string) responses.ResponseInputItemUnionParam {
	item := responses.ResponseInputItemParamOfFunctionCallOutput(output)
	item.OfFunctionCallOutput.CallID = openai.String(callID)
	return item
}

// A stateless agent resends the history: its last turn holds the run.
func TestResponsesStateless(t *testing.T) {
	first := decode[responses.Response](t, firstResponse)
	input := append(firstInput(), asInput(t, first.Output)...)
	input = append(input, functionOutput("call_paris", "14 degrees"), functionOutput("call_rome", "18 degrees"))
	last := decode[responses.Response](t, lastResponse)
	got, err := openaigo.Responses{{Input: input, Response: &last}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(responsesWant(), got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	if d, _ := got[2].ToolCalls[0].Args.Get("days"); d.String() != "2.0" {
		t.Errorf("days = %s, want 2.0 as sent", d)
	}
	var _ agentcheck.Transcript = openaigo.Responses{}
}

// An agent that chains requests with PreviousResponseID sends only what is
// new: every turn makes the run. The second response comes streamed.
func TestResponsesChained(t *testing.T) {
	lastStream := []string{
		`{"type": "response.created", "sequence_number": 0, "response": {"id": "resp_68a5", "object": "response", "created_at": 1741476543, "status": "in_progress", "model": "gpt-4.1-2025-04-14", "output": [], "tools": [], "parallel_tool_calls": true}}`,
		`{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"type": "web_search_call", "id": "ws_68a5", "status": "in_progress"}}`,
		`{"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": {"type": "web_search_call", "id": "ws_68a5", "status": "completed", "action": {"type": "search", "query": "Rome weather warning"}}}`,
		`{"type": "response.output_text.delta", "sequence_number": 3, "item_id": "msg_68a8", "output_index": 3, "content_index": 0, "delta": "Paris 14°C, ", "logprobs": []}`,
		`{"type": "response.completed", "sequence_number": 4, "response": ` + lastResponse + `}`,
	}
	client, srv := newClient(t, []string{firstResponse}, lastStream)
	ctx := context.Background()
	params := responses.ResponseNewParams{Model: openai.ChatModelGPT4_1, Input: responses.ResponseNewParamsInputUnion{OfInputItemList: firstInput()}}
	var run openaigo.Responses
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	run = append(run, openaigo.Turn{Input: params.Input.OfInputItemList, Response: resp})

	results := map[string]string{"call_paris": "14 degrees", "call_rome": "18 degrees"}
	params.PreviousResponseID = openai.String(resp.ID)
	params.Input.OfInputItemList = nil
	for _, item := range resp.Output {
		if item.Type == "function_call" {
			call := item.AsFunctionCall()
			params.Input.OfInputItemList = append(params.Input.OfInputItemList, functionOutput(call.CallID, results[call.CallID]))
		}
	}
	stream := client.Responses.NewStreaming(ctx, params)
	var last *responses.Response
	for stream.Next() {
		if e := stream.Current(); e.Type == "response.completed" {
			r := e.AsResponseCompleted().Response
			last = &r
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	run = append(run, openaigo.Turn{Input: params.Input.OfInputItemList, Response: last})

	got, err := run.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(responsesWant(), got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	if !strings.Contains(srv.requests[1], `"previous_response_id":"resp_68a1"`) {
		t.Errorf("second request does not chain: %s", srv.requests[1])
	}
}

func TestResponsesErrors(t *testing.T) {
	user := responses.ResponseInputItemParamOfMessage("weather?", responses.EasyInputMessageRoleUser)
	badArgs := decode[responses.Response](t, `{"id": "resp_1", "object": "response", "status": "completed", "output": [
		{"type": "reasoning", "id": "rs_1", "summary": []},
		{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\": Paris}", "status": "completed"}]}`)
	calls := decode[responses.Response](t, firstResponse)
	noCallID := responses.ResponseInputItemParamOfFunctionCallOutput("sunny")
	handMade := &responses.Response{Output: []responses.ResponseOutputItemUnion{{Type: "message", Role: "assistant"}}}
	tests := []struct {
		name string
		run  openaigo.Responses
		err  string
		at   int
	}{
		{"result of an unknown call", openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user}, Response: &calls},
			{Input: []responses.ResponseInputItemUnionParam{functionOutput("call_paris", "14"), functionOutput("call_berlin", "9")}}},
			`turn 1 input: message 1 (tool): function_call_output answers call_id "call_berlin", which no call before it made`, 1},
		{"result not after its call", openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user}, Response: &calls},
			{Input: []responses.ResponseInputItemUnionParam{user, functionOutput("call_paris", "14")}}},
			`turn 1 input: message 1 (tool): function_call_output of call "call_paris" must follow the call, or other results of its turn`, 1},
		{"result without call_id", openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user, noCallID}}},
			`turn 0 input: message 1 (tool): "call_id" must be a non-empty string`, 1},
		{"unknown role", openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user, responses.ResponseInputItemParamOfMessage("beep", "robot")}}},
			`turn 0 input: message 1: unknown role "robot" (want user, assistant, system or developer)`, 1},
		{"empty union", openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user, {}}}},
			`turn 0 input: message 1: an item must be an object, got null`, 1},
		{"stored item reference", openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{responses.ResponseInputItemParamOfItemReference("msg_1")}}},
			`turn 0 input: message 0: item_reference "msg_1" names an item stored by the API: give the item itself`, 0},
		{"output item built by hand", openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user}, Response: handMade}},
			`turn 0 output: message 0: the item has no JSON as the API sent it: decode responses from the API's JSON`, 0},
	}
	for _, tt := range tests {
		_, err := tt.run.Conversation()
		if err == nil || err.Error() != tt.err {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, tt.err)
		}
		var me *agentcheck.MessageError
		if !errors.As(err, &me) || me.Message != tt.at {
			t.Errorf("%s: %v is not a MessageError for item %d", tt.name, err, tt.at)
		}
	}
	// Output arguments that are not valid JSON are no error: the call
	// keeps them as written.
	conv, err := openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user}, Response: &badArgs}}.Conversation()
	if err != nil || len(conv) < 2 || len(conv[1].ToolCalls) != 1 || conv[1].ToolCalls[0].InvalidArgs != `{"city": Paris}` {
		t.Errorf("Expected the call get_weather with arguments %q kept as written, but got %v, %v", `{"city": Paris}`, conv, err)
	}
}

// A WebSocket turn collected by the SDK's ResponseAccumulator: the
// terminal event leaves the output out, so the response is rebuilt from
// the items as they were done.
func TestResponsesAccumulated(t *testing.T) {
	events := []string{
		`{"type": "response.created", "sequence_number": 0, "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}}`,
		`{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_paris", "name": "get_weather", "arguments": "", "status": "in_progress"}}`,
		`{"type": "response.function_call_arguments.delta", "sequence_number": 2, "item_id": "fc_1", "output_index": 0, "delta": "{\"city\":\"Paris\","}`,
		`{"type": "response.function_call_arguments.delta", "sequence_number": 3, "item_id": "fc_1", "output_index": 0, "delta": "\"days\":2.0}"}`,
		`{"type": "response.output_item.done", "sequence_number": 4, "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_paris", "name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":2.0}", "status": "completed"}}`,
		`{"type": "response.output_item.done", "sequence_number": 5, "output_index": 1, "item": {"type": "file_search_call", "id": "fs_1", "status": "completed", "queries": ["Paris climate"], "results": null}}`,
		`{"type": "response.completed", "sequence_number": 6, "response": {"id": "resp_1", "object": "response", "status": "completed", "output": null}}`,
	}
	var acc responses.ResponseAccumulator
	for i, e := range events {
		if err := acc.AddEvent(decode[responses.ResponsesServerEventUnion](t, e)); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	resp, err := acc.ReconstructedResponse()
	if err != nil {
		t.Fatal(err)
	}
	user := responses.ResponseInputItemParamOfMessage("Weather in Paris?", responses.EasyInputMessageRoleUser)
	got, err := openaigo.Responses{{Input: []responses.ResponseInputItemUnionParam{user}, Response: resp}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Weather in Paris?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "call_paris", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Paris","days":2.0}`)},
			{ID: "fs_1", Name: "file_search", Kind: agentcheck.HostedTool, Args: jsonvalue.MustParse(`{"queries":["Paris climate"]}`)},
		}},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}
