//go:build ignore

// Command argsfloor is the parse floor of bench/run.sh's OpenAI mix with
// the arguments read too: the shared parselimit program parses each line
// with fastjson but leaves an OpenAI call's arguments the string they are
// written as, which a scorer must read as JSON. argsfloor parses each line,
// then each call's arguments string as a document of its own, and visits
// the reference calls' arguments, single-threaded as parselimit is. It is
// built in a copy of parselimit's module, for its fastjson:
//
//	bash bench/run.sh --cpu   # builds bench-out/argsfloor
//	bench-out/argsfloor bench-out/openai-100k.jsonl
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/valyala/fastjson"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var p, args fastjson.Parser
	n, calls := 0, 0
	visit := func(k []byte, v *fastjson.Value) {}
	for sc.Scan() {
		v, err := p.ParseBytes(sc.Bytes())
		if err != nil {
			fmt.Fprintf(os.Stderr, "line %d: %v\n", n+1, err)
			os.Exit(1)
		}
		for _, m := range v.GetArray("messages") {
			for _, c := range m.GetArray("tool_calls") {
				a, err := args.ParseBytes(c.GetStringBytes("function", "arguments"))
				if err != nil {
					fmt.Fprintf(os.Stderr, "line %d: arguments: %v\n", n+1, err)
					os.Exit(1)
				}
				a.GetObject().Visit(visit)
				calls++
			}
		}
		for _, c := range v.GetArray("reference_tool_calls") {
			c.GetObject("args").Visit(visit)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(n, calls)
}
