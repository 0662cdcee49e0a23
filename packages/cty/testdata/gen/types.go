package main

func (g *gen) addTypes() {
	for _, in := range []string{`"string"`, `"number"`, `"bool"`, `"dynamic"`} {
		g.typeIn("primitive "+in, in)
	}
	for _, kind := range []string{"list", "set", "map"} {
		for _, el := range []string{`"string"`, `"number"`, `"bool"`, `"dynamic"`} {
			g.typeIn(kind+" of "+el, `["`+kind+`",`+el+`]`)
		}
	}
	cases := []struct{ name, in string }{
		{"list of list of string", `["list",["list","string"]]`},
		{"set of map of number", `["set",["map","number"]]`},
		{"map of set of list of bool", `["map",["set",["list","bool"]]]`},
		{"list of object (aws schema example)", `["list",["object",{"address":"string","port":"number"}]]`},
		{"object empty", `["object",{}]`},
		{"object one attribute", `["object",{"a":"string"}]`},
		{"object attributes unsorted", `["object",{"b":"bool","a":"string","B":"number","A":"dynamic"}]`},
		{"object unicode attribute names unsorted", `["object",{"😀":"string","Ａ":"string","\uffff":"string","é":"string","e":"string"}]`},
		{"object nested", `["object",{"inner":["object",{"z":"number","y":["list","string"]}],"a":"bool"}]`},
		{"object with escaped attribute name", `["object",{"a\"b":"string","\u0041":"number"}]`},
		{"object with empty attribute name", `["object",{"":"string"}]`},
		{"object duplicate attribute name", `["object",{"a":"string","a":"number"}]`},
		{"object optional attributes", `["object",{"a":"string","b":"number","c":"bool"},["b","a"]]`},
		{"object optional attributes sorted", `["object",{"a":"string","b":"number"},["a","b"]]`},
		{"object optional attributes empty list", `["object",{"a":"string"},[]]`},
		{"object optional attribute not declared", `["object",{"a":"string"},["z"]]`},
		{"object optional attributes duplicated", `["object",{"a":"string"},["a","a"]]`},
		{"object optional attributes not strings", `["object",{"a":"string"},[1]]`},
		{"object optional attributes not a list", `["object",{"a":"string"},"a"]`},
		{"object optional attributes nested in list", `["list",["object",{"a":"string","b":["object",{"c":"number"},["c"]]},["b"]]]`},
		{"object extra fourth element", `["object",{"a":"string"},["a"],1]`},
		{"object missing attribute map", `["object"]`},
		{"object attributes as array", `["object",["a","string"]]`},
		{"tuple empty", `["tuple",[]]`},
		{"tuple mixed", `["tuple",["string","number",["list","bool"],"dynamic"]]`},
		{"tuple nested", `["tuple",[["tuple",[]],["tuple",["string"]]]]`},
		{"tuple elements not array", `["tuple","string"]`},
		{"whitespace around primitive", " \n\"string\"\t "},
		{"whitespace inside complex", ` [ "map" , [ "list" , "number" ] ] `},
		{"whitespace inside object", "[\"object\", {\n  \"b\": \"string\",\n  \"a\": \"number\"\n}]"},
		{"unknown primitive kind", `"strin"`},
		{"primitive kind wrong case", `"String"`},
		{"unknown complex kind", `["foo","string"]`},
		{"complex kind wrong case", `["List","string"]`},
		{"capsule kind is not a type", `"capsule"`},
		{"list missing element type", `["list"]`},
		{"list extra element", `["list","string","number"]`},
		{"list with invalid element type", `["list","strin"]`},
		{"kind not a string", `[1,"string"]`},
		{"empty array", `[]`},
		{"object instead of type", `{"type":"string"}`},
		{"number instead of type", `1`},
		{"null instead of type", `null`},
		{"empty input", ``},
		{"trailing data after primitive", `"string" x`},
		{"trailing data after primitive (second type)", `"string""number"`},
		{"trailing data after complex", `["list","string"] ["list","number"]`},
		{"trailing comma in complex", `["list","string",]`},
		{"unterminated complex", `["list","string"`},
		{"unterminated string", `"string`},
	}
	for _, c := range cases {
		g.typeIn(c.name, c.in)
	}
}
