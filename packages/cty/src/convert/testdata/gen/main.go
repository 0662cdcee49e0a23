// Command gen records what go-cty's convert.Convert does with a table of inputs, for
// convert-vectors.test.ts. Every result and error text comes from go-cty; this program only
// chooses the inputs. Run (Debian golang-github-zclconf-go-cty-dev, GOPATH mode):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run main.go > ../convert-vectors.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

type vec struct {
	Input  string  `json:"input"`
	Want   string  `json:"want"`
	Result *string `json:"result,omitempty"`
	Error  *string `json:"error,omitempty"`
	Path   *string `json:"path,omitempty"`
	Panic  *string `json:"panic,omitempty"`
}

func path(p cty.Path) string {
	var sb strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			sb.WriteString("." + s.Name)
		case cty.IndexStep:
			if !s.Key.IsKnown() {
				sb.WriteString("[?]")
			} else if s.Key.Type() == cty.String {
				b, _ := json.Marshal(s.Key.AsString())
				sb.WriteString("[" + string(b) + "]")
			} else {
				sb.WriteString("[" + s.Key.AsBigFloat().Text('f', -1) + "]")
			}
		}
	}
	return sb.String()
}

var cases = [][2]string{
	{`{"value":1.5,"type":"number"}`, `"string"`},
	{`{"value":true,"type":"bool"}`, `"string"`},
	{`{"value":"12.50","type":"string"}`, `"number"`},
	{`{"value":"1e3","type":"string"}`, `"number"`},
	{`{"value":"abc","type":"string"}`, `"number"`},
	{`{"value":"true","type":"string"}`, `"bool"`},
	{`{"value":"1","type":"string"}`, `"bool"`},
	{`{"value":"0","type":"string"}`, `"bool"`},
	{`{"value":"TRUE","type":"string"}`, `"bool"`},
	{`{"value":"yes","type":"string"}`, `"bool"`},
	{`{"value":1,"type":"number"}`, `"bool"`},
	{`{"value":true,"type":"bool"}`, `"number"`},
	{`{"value":"x","type":"string"}`, `"dynamic"`},
	{`{"value":null,"type":"string"}`, `"number"`},
	{`{"value":null,"type":"dynamic"}`, `["list","string"]`},
	{`{"value":["a","b","a"],"type":["list","string"]}`, `["set","string"]`},
	{`{"value":["b","a"],"type":["set","string"]}`, `["list","string"]`},
	{`{"value":["1","2"],"type":["list","string"]}`, `["list","number"]`},
	{`{"value":["1","x"],"type":["list","string"]}`, `["list","number"]`},
	{`{"value":["a",1,true],"type":["tuple",["string","number","bool"]]}`, `["list","string"]`},
	{`{"value":["a",1],"type":["tuple",["string","number"]]}`, `["list","dynamic"]`},
	{`{"value":[1,true],"type":["tuple",["number","bool"]]}`, `["list","dynamic"]`},
	{`{"value":["a",true],"type":["tuple",["string","bool"]]}`, `["list","number"]`},
	{`{"value":["x",true],"type":["tuple",["string","bool"]]}`, `["set","number"]`},
	{`{"value":["a","1"],"type":["tuple",["string","string"]]}`, `["set","number"]`},
	{`{"value":[],"type":["tuple",[]]}`, `["list","string"]`},
	{`{"value":["a","b"],"type":["list","string"]}`, `["tuple",["string","string"]]`},
	{`{"value":["a"],"type":["tuple",["string"]]}`, `["tuple",["number"]]`},
	{`{"value":["a","b"],"type":["tuple",["string","string"]]}`, `["tuple",["string"]]`},
	{`{"value":{"a":1,"b":"x"},"type":["object",{"a":"number","b":"string"}]}`, `["map","string"]`},
	{`{"value":{"a":1,"b":"x"},"type":["object",{"a":"number","b":"string"}]}`, `["map","dynamic"]`},
	{`{"value":{"a":1,"b":true},"type":["object",{"a":"number","b":"bool"}]}`, `["map","dynamic"]`},
	{`{"value":{"a":1,"b":true},"type":["object",{"a":"number","b":"bool"}]}`, `["map","number"]`},
	{`{"value":{"a":"1","b":"2"},"type":["map","string"]}`, `["object",{"a":"number","b":"number"}]`},
	{`{"value":{"a":"1"},"type":["map","string"]}`, `["object",{"a":"number","b":"number"}]`},
	{`{"value":{"a":"1","z":"2"},"type":["map","string"]}`, `["object",{"a":"number"}]`},
	{`{"value":{"a":"1"},"type":["map","string"]}`, `["object",{"a":"number","b":"number"},["b"]]`},
	{`{"value":{"a":"x"},"type":["map","string"]}`, `["object",{"a":"number"}]`},
	{`{"value":{"a":"x","b":"y"},"type":["object",{"a":"string","b":"string"}]}`, `["object",{"a":"string"}]`},
	{`{"value":{"a":"x"},"type":["object",{"a":"string"}]}`, `["object",{"a":"string","b":"string"}]`},
	{`{"value":{"a":"x"},"type":["object",{"a":"string"}]}`, `["object",{"a":"string","b":"string","c":"bool"}]`},
	{`{"value":{"a":"x"},"type":["object",{"a":"string"}]}`, `["object",{"a":"string","b":"string","c":"bool","d":"number"}]`},
	{`{"value":{"a":"x"},"type":["object",{"a":"string"}]}`, `["object",{"a":"string","b":"string"},["b"]]`},
	{`{"value":{"a":"x"},"type":["object",{"a":"string"}]}`, `["object",{"a":"number"}]`},
	{`{"value":{"a":true},"type":["object",{"a":"bool"}]}`, `["object",{"a":"number"}]`},
	{`{"value":{"a":[true]},"type":["object",{"a":["list","bool"]}]}`, `["object",{"a":["list","number"]}]`},
	{`{"value":{"rules":[{"from":"1"},{"from":"x"}]},"type":["object",{"rules":["list",["object",{"from":"string"}]]}]}`, `["object",{"rules":["list",["object",{"from":"number"}]]}]`},
	{`{"value":{"rules":[{"from":"1"},{"from":"x"}]},"type":["object",{"rules":["tuple",[["object",{"from":"string"}],["object",{"from":"string"}]]]}]}`, `["object",{"rules":["list",["object",{"from":"number"}]]}]`},
	{`{"value":"x","type":"string"}`, `["list","string"]`},
	{`{"value":["x"],"type":["list","string"]}`, `"string"`},
	{`{"value":["x"],"type":["list","string"]}`, `["map","string"]`},
	{`{"value":{"a":"x"},"type":["map","string"]}`, `["list","string"]`},
	{`{"value":[["a"],["b","c"]],"type":["tuple",[["tuple",["string"]],["tuple",["string","string"]]]]}`, `["list",["list","string"]]`},
	{`{"value":[["a"],["b","c"]],"type":["tuple",[["tuple",["string"]],["tuple",["string","string"]]]]}`, `["list","dynamic"]`},
	{`{"value":[{"a":"x"},{"a":"y","b":"z"}],"type":["tuple",[["object",{"a":"string"}],["object",{"a":"string","b":"string"}]]]}`, `["list","dynamic"]`},
	{`{"value":[{"a":1},{"a":"y"}],"type":["tuple",[["object",{"a":"number"}],["object",{"a":"string"}]]]}`, `["list","dynamic"]`},
	{`{"value":{"k":["a"]},"type":["map",["list","string"]]}`, `["map",["set","string"]]`},
	{`{"value":{"x":["a"],"y":["b","c"]},"type":["object",{"x":["tuple",["string"]],"y":["tuple",["string","string"]]}]}`, `["map",["list","string"]]`},
	{`{"value":{"x":1},"type":["object",{"x":"number"}]}`, `["object",{"x":"dynamic"}]`},
	{`{"value":[null,"a"],"type":["list","string"]}`, `["list","number"]`},
	{`{"value":["a",null],"type":["tuple",["string","dynamic"]]}`, `["list","string"]`},
	{`{"value":{"a":null},"type":["object",{"a":"dynamic"}]}`, `["object",{"a":["list","string"]}]`},
	{`{"value":null,"type":["object",{"a":"string"}]}`, `["object",{"a":"string","b":"number"},["b"]]`},
	{`{"value":[1,"2"],"type":["tuple",["number","string"]]}`, `["set","string"]`},
	{`{"value":[1,2],"type":["tuple",["number","number"]]}`, `["tuple",["string","string"]]`},
	{`{"value":["a"],"type":["tuple",["string"]]}`, `["tuple",["string","string"]]`},
	{`{"value":{"a":["x",1]},"type":["object",{"a":["tuple",["string","number"]]}]}`, `["object",{"a":["list","bool"]}]`},
	{`{"value":["x",1],"type":["tuple",["string","number"]]}`, `["list","bool"]`},
	{`{"value":{"p":1,"q":true},"type":["object",{"p":"number","q":"bool"}]}`, `["map","number"]`},
}

func main() {
	var out []vec
	for _, c := range cases {
		v := vec{Input: c[0], Want: c[1]}
		in, err := ctyjson.Unmarshal([]byte(c[0]), cty.DynamicPseudoType)
		if err != nil {
			panic(fmt.Sprintf("input %s: %s", c[0], err))
		}
		var want cty.Type
		if err := json.Unmarshal([]byte(c[1]), &want); err != nil {
			panic(err)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t := fmt.Sprint(r)
					v.Panic = &t
				}
			}()
			res, err := convert.Convert(in, want)
			if err != nil {
				msg := err.Error()
				v.Error = &msg
				if pe, ok := err.(cty.PathError); ok {
					p := path(pe.Path)
					v.Path = &p
				} else {
					p := ""
					v.Path = &p
				}
				return
			}
			b, err := ctyjson.Marshal(res, cty.DynamicPseudoType)
			if err != nil {
				panic(err)
			}
			s := string(b)
			v.Result = &s
		}()
		out = append(out, v)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
