package vcr

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// MaxMappingKeys bounds the keys of one mapping in a cassette read with the
// YAML library: far more than the headers or form fields of an exchange,
// few enough that the library's check for repeated keys, which compares
// each key of a mapping with every other, stays fast.
const MaxMappingKeys = 1000

// MappingError is a mapping a cassette may not hold: one that repeats a
// key, or has more than MaxMappingKeys keys.
type MappingError struct {
	Line   int    // the line of the repeated key, or of the mapping
	Reason string // what is wrong, without the line
}

func (e *MappingError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// CheckMappings returns a *MappingError for the first mapping under root
// that repeats a key or has more than MaxMappingKeys keys, in time linear
// in the nodes: the YAML library finds a repeated key by comparing every
// key of a mapping with every other (54 KB of one key repeated took 9.7 s
// and 3.2 GB), so a file is checked with CheckMappings before it is
// decoded. Aliases are not followed: the mapping they name is checked
// where it is defined.
func CheckMappings(root *yaml.Node) error {
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.MappingNode && len(n.Content) > 2 {
			seen := make(map[string]int, min(len(n.Content)/2, MaxMappingKeys))
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode {
					continue
				}
				if line, dup := seen[k.Value]; dup {
					return &MappingError{k.Line, fmt.Sprintf("mapping key %q already defined at line %d", k.Value, line)}
				}
				seen[k.Value] = k.Line
			}
			if len(n.Content)/2 > MaxMappingKeys {
				return &MappingError{n.Line, fmt.Sprintf("a mapping of %d keys, more than the %d any cassette holds", len(n.Content)/2, MaxMappingKeys)}
			}
		}
		stack = append(stack, n.Content...)
	}
	return nil
}
