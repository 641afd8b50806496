package secrets

import (
	"errors"
	"fmt"
	"iter"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file reads a cassette's YAML as nodes: a YAML error named by the
// file and its line, aliases followed (deref) and counted as expanded
// (expandedSize, against alias bombs), a mapping's pairs with "<<" merges
// (pairs, mappingValue).

// yamlLine is the "line N: " of a go.yaml.in/yaml/v3 error.
var yamlLine = lazy(`line (\d+): `)

// cassetteYAMLError names the file and the line of a YAML error.
func cassetteYAMLError(path string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	kind := "corrupt cassette"
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg, kind = te.Errors[0], "not a go-vcr cassette"
	}
	if m := yamlLine.get().FindStringSubmatchIndex(msg); m != nil {
		return fmt.Errorf("%s:%s: %s: %s", path, msg[m[2]:m[3]], kind, msg[m[1]:])
	}
	return fmt.Errorf("%s: %s: %s", path, kind, msg)
}

// deref follows aliases to the node they name.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

// expandedSize counts the nodes under n with every alias expanded, giving
// up (ok false) past limit. Each node's size is computed once, so that an
// alias bomb is refused in the time its few nodes take to count.
func expandedSize(n *yaml.Node, limit int, memo map[*yaml.Node]int) (int, bool) {
	if n == nil {
		return 0, true
	}
	if size, ok := memo[n]; ok {
		return size, size >= 0
	}
	memo[n] = -1 // a cycle is refused as unbounded
	size := 1
	if n.Kind == yaml.AliasNode {
		k, ok := expandedSize(n.Alias, limit, memo)
		if !ok {
			return limit, false
		}
		size += k
	}
	for _, c := range n.Content {
		k, ok := expandedSize(c, limit, memo)
		if !ok {
			return limit, false
		}
		size += k
		if size > limit {
			return size, false
		}
	}
	memo[n] = size
	return size, size <= limit
}

// pairs are a mapping's keys and values, aliases followed, "<<" merges
// expanded (the mapping's own keys first, then the merged keys it does not
// override). Without a merge key, they cost no allocation.
func pairs(m *yaml.Node) iter.Seq2[*yaml.Node, *yaml.Node] {
	return func(yield func(k, v *yaml.Node) bool) {
		m := deref(m)
		if m == nil || m.Kind != yaml.MappingNode {
			return
		}
		var merges []*yaml.Node
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := deref(m.Content[i]), deref(m.Content[i+1])
			if k.Tag == "!!merge" || k.Value == "<<" && k.Kind == yaml.ScalarNode {
				if v.Kind == yaml.SequenceNode {
					merges = append(merges, v.Content...)
				} else {
					merges = append(merges, v)
				}
				continue
			}
			if !yield(k, v) {
				return
			}
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(m.Content) && len(merges) > 0; i += 2 {
			seen[deref(m.Content[i]).Value] = true
		}
		for _, e := range merges {
			for k, v := range pairs(e) {
				if !seen[k.Value] {
					seen[k.Value] = true
					if !yield(k, v) {
						return
					}
				}
			}
		}
	}
}

// mappingValue is the value of key in the mapping m, merges followed;
// nil for none.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for k, v := range pairs(m) {
		if k.Value == key {
			return v
		}
	}
	return nil
}
