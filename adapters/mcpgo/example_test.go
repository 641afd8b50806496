package mcpgo_test

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentcheck/agentcheck/adapters/mcpgo"
)

// Example records the tool calls an agent makes through an MCP client and
// converts them to a conversation.
func Example() {
	ctx := context.Background()
	s := server.NewMCPServer("tables", "v1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("book_table", mcp.WithString("city"), mcp.WithNumber("people")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if n := req.GetInt("people", 0); n > 8 {
				return mcp.NewToolResultError(fmt.Sprintf("no table for %d", n)), nil
			}
			return mcp.NewToolResultText("booked in " + req.GetString("city", "")), nil
		})
	c, err := client.NewInProcessClient(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		fmt.Println(err)
		return
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		fmt.Println(err)
		return
	}

	// The agent gets the Recorder as its client.MCPClient.
	rec := mcpgo.Record(c)
	var agentClient client.MCPClient = rec
	for _, people := range []int{12, 2} {
		req := mcp.CallToolRequest{}
		req.Params.Name = "book_table"
		req.Params.Arguments = map[string]any{"city": "Paris", "people": people}
		agentClient.CallTool(ctx, req)
	}

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
