package recorder_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck/recorder"
)

// A committed cassette replays with no network and no key; the answer
// carries the cassette's path in a header.
func ExampleOpen() {
	// WithMode pins replay here; tests usually let AGENTCHECK_RECORD
	// decide.
	rec, err := recorder.Open("testdata/cassettes/ExampleOpen.yaml", recorder.WithMode(recorder.RecordNone))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rec.Close()
	// Key order and whitespace do not matter, nor does the host.
	body := `{ "seed": 1, "model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Is 2+2 4?"}] }`
	resp, err := rec.Client().Post("http://127.0.0.1:1/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	fmt.Println(string(answer))
	fmt.Println(resp.Header.Get(recorder.CassetteHeader))
	// Output:
	// {"choices":[{"message":{"role":"assistant","content":"{\"verdict\":1,\"reason\":\"4 is right\"}"}}]}
	// testdata/cassettes/ExampleOpen.yaml
}

// An agent's own HTTP client records its calls once and replays them
// offline ever after. In a test, recorder.ForTest(t) opens the test's own
// cassette and saves it when the test ends; here the recording and the
// replay are two recorders of one file.
func ExampleRecorder_Transport() {
	weather := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"city":%q,"celsius":18}`, r.URL.Query().Get("city"))
	}))
	dir, _ := os.MkdirTemp("", "agentcheck")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "weather.yaml")
	get := func(c *http.Client, url string) string {
		resp, err := c.Get(url)
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}

	// The agent's client, with its own timeout and transport.
	agent := &http.Client{Timeout: 10 * time.Second, Transport: http.DefaultTransport}
	rec, _ := recorder.Open(path, recorder.WithMode(recorder.RecordMissing), recorder.WithEnv(func(string) string { return "" }))
	recording := *agent
	recording.Transport = rec.Transport(agent.Transport)
	fmt.Println(get(&recording, weather.URL+"/weather?city=Paris"))
	rec.Close()
	weather.Close() // the replay needs no server

	rec, _ = recorder.Open(path, recorder.WithMode(recorder.RecordNone))
	defer rec.Close()
	replaying := *agent
	replaying.Transport = rec.Transport(agent.Transport)
	fmt.Println(get(&replaying, "http://weather.invalid/weather?city=Paris"))
	fmt.Println(strings.Contains(get(&replaying, "http://weather.invalid/weather?city=Oslo"), "replay miss: GET /weather"))
	// Output:
	// {"city":"Paris","celsius":18}
	// {"city":"Paris","celsius":18}
	// true
}
