package jsonvalue_test

import (
	"fmt"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Parse keeps the key order and the int/float split as written, and
// locates malformed JSON by line and column.
func ExampleParse() {
	v, err := jsonvalue.Parse([]byte(`{"city": "Paris", "days": 2, "budget": 1e3}`))
	if err != nil {
		panic(err)
	}
	days, _ := v.Get("days")
	budget, _ := v.Get("budget")
	fmt.Println(v)
	fmt.Println(days.Kind(), budget.Kind(), v.Canonical())

	_, err = jsonvalue.Parse([]byte("{\"city\": \"Paris\",\n \"days\" 2}"))
	fmt.Println(err)
	// Output:
	// {"city":"Paris","days":2,"budget":1000.0}
	// int float {"budget":1000.0,"city":"Paris","days":2}
	// line 2, column 9: unexpected '2' after object key, want ':'
}

// Equal compares JSON values: numbers by value whatever their spelling,
// objects whatever their key order; a bool is no number.
func ExampleEqual() {
	a := jsonvalue.MustParse(`{"city": "Paris", "days": 2}`)
	b := jsonvalue.MustParse(`{"days": 2.0, "city": "Paris"}`)
	fmt.Println(jsonvalue.Equal(a, b), a.String() == b.String())
	fmt.Println(jsonvalue.Equal(jsonvalue.Int(1), jsonvalue.Bool(true)))
	// Output:
	// true false
	// false
}

// Object keeps its members in the order given; Of sorts a Go map's keys,
// Go maps having no order. A Float stays a Float when integral.
func ExampleObject() {
	v := jsonvalue.Object(
		jsonvalue.Member{Key: "to", Value: jsonvalue.String("Lisbon")},
		jsonvalue.Member{Key: "from", Value: jsonvalue.String("Berlin")},
		jsonvalue.Member{Key: "seats", Value: jsonvalue.Array(jsonvalue.Int(1), jsonvalue.Float(2))},
	)
	for _, m := range v.Members() {
		fmt.Println(m.Key, m.Value)
	}
	w, _ := jsonvalue.Of(map[string]any{"to": "Lisbon", "from": "Berlin"})
	fmt.Println(w, jsonvalue.Value{})
	// Output:
	// to "Lisbon"
	// from "Berlin"
	// seats [1,2.0]
	// {"from":"Berlin","to":"Lisbon"} null
}

// A Decoder reads a document of a known shape: here the names of a list
// of tool calls, with Values built only for their arguments, and the same
// errors as Parse.
func ExampleDecoder() {
	var d jsonvalue.Decoder
	read := func(text string) error {
		d.Reset(text)
		for more, err := d.NextElem(true); more || err != nil; more, err = d.NextElem(false) {
			if err != nil {
				return err
			}
			var name string
			var args jsonvalue.Value
			for key, more, err := d.NextKey(true); more || err != nil; key, more, err = d.NextKey(false) {
				if err != nil {
					return err
				}
				switch key {
				case "name":
					name, err = d.ReadString()
				case "args":
					args, err = d.Value(2)
				default:
					_, err = d.Value(2)
				}
				if err != nil {
					return err
				}
			}
			fmt.Printf("%s(%s)\n", name, args)
		}
		return d.End("the list of calls")
	}
	fmt.Println(read(`[{"name": "weather", "id": 7, "args": {"city": "Paris"}}, {"name": "time", "args": {}}]`))
	fmt.Println(read(`[{"name": "weather", "args": {"city": "Paris"}}] x`))
	fmt.Println(read(`[{"name": 7}]`))
	// Output:
	// weather({"city":"Paris"})
	// time({})
	// <nil>
	// weather({"city":"Paris"})
	// line 1, column 50: unexpected 'x' after the list of calls
	// line 1, column 11: unexpected '7', want a string
}
