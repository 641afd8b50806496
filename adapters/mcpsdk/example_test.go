package mcpsdk_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcheck/agentcheck/adapters/mcpsdk"
)

// Example records the tool calls an agent makes through an MCP client and
// converts them to a conversation.
func Example() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "tables", Version: "v1"}, nil)
	type bookIn struct {
		City   string `json:"city"`
		People int    `json:"people"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "book_table"},
		func(_ context.Context, _ *mcp.CallToolRequest, in bookIn) (*mcp.CallToolResult, any, error) {
			if in.People > 8 {
				return nil, nil, fmt.Errorf("no table for %d", in.People)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "booked in " + in.City}}}, nil, nil
		})
	st, ct := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		fmt.Println(err)
		return
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1"}, nil)
	rec := mcpsdk.Record(client) // before connecting
	session, err := client.Connect(ctx, ct, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()

	// The agent's run.
	session.CallTool(ctx, &mcp.CallToolParams{Name: "book_table", Arguments: map[string]any{"city": "Paris", "people": 12}})
	session.CallTool(ctx, &mcp.CallToolParams{Name: "book_table", Arguments: map[string]any{"city": "Paris", "people": 2}})

	conv, err := rec.Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv[1].IsError, conv[1].ToolCallID)
	// Output:
	// [0] ai:
	//     -> book_table({"city":"Paris","people":12})
	// [1] tool: no table for 12
	// [2] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [3] tool: booked in Paris
	// true mcp_call_0
}
