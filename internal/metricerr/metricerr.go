// Package metricerr names the error of a metric that could not score a
// sample by the metric, once: package metric's metrics start their errors
// with their names ("tool_call_accuracy needs reference_tool_calls, ..."),
// a user's metric may not. agenttest's and evalsuite's messages name it so.
package metricerr

import (
	"fmt"
	"strings"
)

// Named is err, named by the metric unless its message already starts with
// the metric's name as a word; the cause stays for errors.Is and errors.As.
func Named(metric string, err error) error {
	if msg, ok := strings.CutPrefix(err.Error(), metric); ok && (msg == "" || msg[0] == ' ' || msg[0] == ':') {
		return err
	}
	return fmt.Errorf("%s: %w", metric, err)
}
