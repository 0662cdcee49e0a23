package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// lit is a run of literal bytes inside an mp(...) input description.
type lit string

// mp builds msgpack input bytes from parts: a string part is hex (spaces
// ignored), a lit part is literal bytes, a []byte part is copied.
func mp(parts ...interface{}) []byte {
	var buf bytes.Buffer
	for _, p := range parts {
		switch x := p.(type) {
		case string:
			b, err := hex.DecodeString(strings.ReplaceAll(x, " ", ""))
			if err != nil {
				panic("bad hex " + x)
			}
			buf.Write(b)
		case lit:
			buf.WriteString(string(x))
		case []byte:
			buf.Write(x)
		default:
			panic("bad part")
		}
	}
	return buf.Bytes()
}

// fixstr returns a msgpack fixstr (or str8 if needed) holding s.
func fixstr(s string) []byte {
	if len(s) < 32 {
		return append([]byte{0xa0 | byte(len(s))}, s...)
	}
	return append([]byte{0xd9, byte(len(s))}, s...)
}

func str8(s string) []byte { return append([]byte{0xd9, byte(len(s))}, s...) }
func str16(s string) []byte {
	b := []byte{0xda, 0, 0}
	binary.BigEndian.PutUint16(b[1:], uint16(len(s)))
	return append(b, s...)
}
func str32(s string) []byte {
	b := []byte{0xdb, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(len(s)))
	return append(b, s...)
}
func bin8(s string) []byte { return append([]byte{0xc4, byte(len(s))}, s...) }
func bin16(s string) []byte {
	b := []byte{0xc5, 0, 0}
	binary.BigEndian.PutUint16(b[1:], uint16(len(s)))
	return append(b, s...)
}
func bin32(s string) []byte {
	b := []byte{0xc6, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(len(s)))
	return append(b, s...)
}

// dyn builds a dynamic-value array [bin(typeJSON), value...].
func dyn(typeJSON string, value ...interface{}) []byte {
	return mp(append([]interface{}{"92", bin8(typeJSON)}, value...)...)
}

func (g *gen) addMsgpackDecode() {
	g.addMsgpackNumbers()
	g.addMsgpackStringsBools()
	g.addMsgpackExt()
	g.addMsgpackStructural()
	g.addMsgpackDynamic()
	g.addMsgpackTruncated()
}

func (g *gen) addMsgpackNumbers() {
	ints := []struct{ name, hex string }{
		{"positive fixint 0", "00"},
		{"positive fixint 1", "01"},
		{"positive fixint 127", "7f"},
		{"negative fixint -1", "ff"},
		{"negative fixint -32", "e0"},
		{"uint8 0 (non-canonical)", "cc 00"},
		{"uint8 1 (non-canonical)", "cc 01"},
		{"uint8 127 (non-canonical)", "cc 7f"},
		{"uint8 128", "cc 80"},
		{"uint8 255", "cc ff"},
		{"uint16 0 (non-canonical)", "cd 0000"},
		{"uint16 255 (non-canonical)", "cd 00ff"},
		{"uint16 256", "cd 0100"},
		{"uint16 65535", "cd ffff"},
		{"uint32 1 (non-canonical)", "ce 00000001"},
		{"uint32 65536", "ce 00010000"},
		{"uint32 4294967295", "ce ffffffff"},
		{"uint64 1 (non-canonical)", "cf 0000000000000001"},
		{"uint64 4294967296", "cf 0000000100000000"},
		{"uint64 2^53+1", "cf 0020000000000001"},
		{"uint64 2^63-1", "cf 7fffffffffffffff"},
		{"uint64 2^63", "cf 8000000000000000"},
		{"uint64 2^63+1", "cf 8000000000000001"},
		{"uint64 2^64-1", "cf ffffffffffffffff"},
		{"int8 -1 (non-canonical)", "d0 ff"},
		{"int8 -32 (non-canonical)", "d0 e0"},
		{"int8 -33", "d0 df"},
		{"int8 -128", "d0 80"},
		{"int8 positive 1 (non-canonical)", "d0 01"},
		{"int8 positive 127 (non-canonical)", "d0 7f"},
		{"int16 -1 (non-canonical)", "d1 ffff"},
		{"int16 -129", "d1 ff7f"},
		{"int16 -32768", "d1 8000"},
		{"int16 positive 1 (non-canonical)", "d1 0001"},
		{"int16 positive 32767 (non-canonical)", "d1 7fff"},
		{"int32 -1 (non-canonical)", "d2 ffffffff"},
		{"int32 -32769", "d2 ffff7fff"},
		{"int32 -2^31", "d2 80000000"},
		{"int32 positive 1 (non-canonical)", "d2 00000001"},
		{"int32 positive 2^31-1 (non-canonical)", "d2 7fffffff"},
		{"int64 -1 (non-canonical)", "d3 ffffffffffffffff"},
		{"int64 -2^31-1", "d3 ffffffff7fffffff"},
		{"int64 -2^63", "d3 8000000000000000"},
		{"int64 positive 1 (non-canonical)", "d3 0000000000000001"},
		{"int64 positive 2^63-1 (non-canonical)", "d3 7fffffffffffffff"},
	}
	for _, it := range ints {
		g.msgpackIn("number from "+it.name, tNum, mp(it.hex))
	}
	floats := []struct{ name, hex string }{
		{"float32 1.5", "ca 3fc00000"},
		{"float32 0.1 (0.100000001490116...)", "ca 3dcccccd"},
		{"float32 2.0 (integral)", "ca 40000000"},
		{"float32 -0.0", "ca 80000000"},
		{"float32 +Inf", "ca 7f800000"},
		{"float32 -Inf", "ca ff800000"},
		{"float32 NaN", "ca 7fc00000"},
		{"float32 smallest denormal", "ca 00000001"},
		{"float64 1.5", "cb 3ff8000000000000"},
		{"float64 2.5", "cb 4004000000000000"},
		{"float64 0.1", "cb 3fb999999999999a"},
		{"float64 2.0 (integral)", "cb 4000000000000000"},
		{"float64 -3.0 (integral)", "cb c008000000000000"},
		{"float64 -0.0", "cb 8000000000000000"},
		{"float64 2^53 (integral)", "cb 4340000000000000"},
		{"float64 2^63 (integral, beyond int64)", "cb 43e0000000000000"},
		{"float64 2^64 (integral, beyond uint64)", "cb 43f0000000000000"},
		{"float64 -2^63 (integral, int64 min)", "cb c3e0000000000000"},
		{"float64 1e20 (integral)", "cb 4415af1d78b58c40"},
		{"float64 +Inf", "cb 7ff0000000000000"},
		{"float64 -Inf", "cb fff0000000000000"},
		{"float64 NaN", "cb 7ff8000000000000"},
		{"float64 smallest denormal", "cb 0000000000000001"},
		{"float64 max", "cb 7fefffffffffffff"},
	}
	for _, it := range floats {
		g.msgpackIn("number from "+it.name, tNum, mp(it.hex))
	}
	strs := []string{
		"0", "1", "-1", "0.1", "1e3", "1E+3", "1e-3", "-0", "+1", "1.", ".5", "1.50", "007",
		"18446744073709551616", "1e30", "3.14159265358979323846264338327950288",
		"1e1000", "Inf", "-Inf", "+Inf", "inf", "NaN", "abc", "", " 1", "1 ", "1e", "0x10", "1_000", "1,5",
	}
	for _, s := range strs {
		g.msgpackIn("number from string "+jsonText(s), tNum, fixstr(s))
	}
	g.msgpackIn("number from str8 \"0.1\"", tNum, str8("0.1"))
	g.msgpackIn("number from str16 \"12\"", tNum, str16("12"))
	g.msgpackIn("number from bin8 \"12\"", tNum, bin8("12"))
	g.msgpackIn("number from nil", tNum, mp("c0"))
	g.msgpackIn("number from bool true", tNum, mp("c3"))
	g.msgpackIn("number from array", tNum, mp("91 01"))
	g.msgpackIn("number from map", tNum, mp("80"))
}

func (g *gen) addMsgpackStringsBools() {
	g.msgpackIn("string from fixstr", tStr, fixstr("hello"))
	g.msgpackIn("string from empty fixstr", tStr, mp("a0"))
	g.msgpackIn("string from str8 short (non-canonical)", tStr, str8("hello"))
	g.msgpackIn("string from str8 empty (non-canonical)", tStr, str8(""))
	g.msgpackIn("string from str16 short (non-canonical)", tStr, str16("hello"))
	g.msgpackIn("string from str32 short (non-canonical)", tStr, str32("hello"))
	g.msgpackIn("string from bin8", tStr, bin8("hello"))
	g.msgpackIn("string from bin16", tStr, bin16("hello"))
	g.msgpackIn("string from bin32", tStr, bin32("hello"))
	g.msgpackIn("string from str8 length 32", tStr, str8(ascii(32)))
	g.msgpackIn("string decomposed e-acute is NFC-normalised", tStr, fixstr("e\u0301"))
	g.msgpackIn("string with NUL byte", tStr, fixstr("a\x00b"))
	g.msgpackIn("string from nil", tStr, mp("c0"))
	g.msgpackIn("string from positive fixint", tStr, mp("01"))
	g.msgpackIn("string from uint16", tStr, mp("cd 0100"))
	g.msgpackIn("string from float64", tStr, mp("cb 3ff8000000000000"))
	g.msgpackIn("string from bool true", tStr, mp("c3"))
	g.msgpackIn("string from array", tStr, mp("91 a1 61"))
	g.msgpackIn("string from map", tStr, mp("81 a1 61 a1 62"))

	g.msgpackIn("bool from true", tBool, mp("c3"))
	g.msgpackIn("bool from false", tBool, mp("c2"))
	g.msgpackIn("bool from nil", tBool, mp("c0"))
	g.msgpackIn("bool from string \"true\"", tBool, fixstr("true"))
	g.msgpackIn("bool from positive fixint 1", tBool, mp("01"))
	g.msgpackIn("bool from positive fixint 0", tBool, mp("00"))
	g.msgpackIn("bool from array", tBool, mp("90"))
}

func (g *gen) addMsgpackExt() {
	const n16 = "go-cty >= 1.13 treats an ext with a payload of at most 1 byte as unknown whatever its code, parses code 12 payloads as refinements, and rejects other codes with longer payloads; 1.12 treats every ext as unknown."
	g.msgpackIn("ext fixext1 code 0 (canonical unknown)", tStr, mp("d4 00 00"))
	g.msgpackIn("ext fixext1 code 0 payload ff", tStr, mp("d4 00 ff"))
	g.msgpackIn("ext fixext1 code 5", tNum, mp("d4 05 00"))
	g.msgpackIn("ext fixext1 code 12", tNum, mp("d4 0c 00"))
	g.msgpackIn("ext fixext1 code -1 (0xff)", tBool, mp("d4 ff 00"))
	g.msgpackIn("ext ext8 zero-length code 0", tStr, mp("c7 00 00"))
	g.msgpackIn("ext ext8 one-byte code 7", tStr, mp("c7 01 07 00"))
	vec := func(name string, ty cty.Type, in []byte) {
		g.msgpackIn(name, ty, in, n16)
		g.msgpackDecode[len(g.msgpackDecode)-1].SupersededBy = supersededRefinements
	}
	vec("ext fixext2 code 0 (2-byte payload)", tStr, mp("d5 00 0000"))
	vec("ext fixext4 code 5 (4-byte payload)", tStr, mp("d6 05 00000000"))
	vec("ext fixext8 code 1", tNum, mp("d7 01 0000000000000000"))
	vec("ext fixext16 code 1", tNum, mp("d8 01 00000000000000000000000000000000"))
	vec("ext ext8 code 3 with 3-byte payload", tStr, mp("c7 03 03 010203"))
	vec("ext16 code 9 with 2-byte payload", tStr, mp("c8 0002 09 0000"))
	vec("ext32 code 9 with 2-byte payload", tStr, mp("c9 00000002 09 0000"))
	vec("ext refined unknown string not null (code 12)", tStr, mp("c7 03 0c 81 01 c2"))
	vec("ext refined unknown string prefix \"pre-\" (code 12)", tStr, mp("c7 09 0c 82 01 c2 02 a4", lit("pre-")))
	vec("ext refined unknown number >= 0 (code 12)", tNum, mp("c7 07 0c 82 01 c2 03 92 00 c3"))
	vec("ext refined unknown list length 1..2 (code 12)", cty.List(tStr), mp("c7 05 0c 82 05 01 06 02"))
	vec("ext refined payload not a map (code 12)", tStr, mp("c7 02 0c 01 02"))
	vec("ext refined prefix refinement on number (code 12)", tNum, mp("c7 04 0c 81 02 a1", lit("x")))
	g.msgpackIn("ext unknown list", cty.List(tStr), mp("d4 00 00"))
	g.msgpackIn("ext unknown object", cty.Object(kt{"a": tStr}), mp("d4 00 00"))
	g.msgpackIn("ext unknown inside list", cty.List(tStr), mp("92 a1 61 d4 00 00"))
	g.msgpackIn("ext unknown as object attribute", cty.Object(kt{"a": tStr, "b": tNum}), mp("82 a1 61 d4 00 00 a1 62 01"))
	g.msgpackIn("ext unknown in set sorts last", cty.Set(tStr), mp("93 d4 00 00 a1 62 a1 61"))
	g.msgpackIn("ext unknown for dynamic type", tDyn, mp("d4 00 00"))
	g.msgpackIn("ext unknown as map key", cty.Map(tStr), mp("81 d4 00 00 a1 76"))
	g.msgpackIn("ext unknown as object key", cty.Object(kt{"a": tStr}), mp("81 d4 00 00 a1 76"))
	vec("ext fixext2 for dynamic type", tDyn, mp("d5 05 0000"))
}

func (g *gen) addMsgpackStructural() {
	ls := cty.List(tStr)
	g.msgpackIn("list from fixarray", ls, mp("92 a1 61 a1 62"))
	g.msgpackIn("list from empty fixarray", ls, mp("90"))
	g.msgpackIn("list from nil", ls, mp("c0"))
	g.msgpackIn("list from array16 short (non-canonical)", ls, mp("dc 0002 a1 61 a1 62"))
	g.msgpackIn("list from array32 short (non-canonical)", ls, mp("dd 00000002 a1 61 a1 62"))
	g.msgpackIn("list from array16 empty (non-canonical)", ls, mp("dc 0000"))
	g.msgpackIn("list from map", ls, mp("81 a1 61 a1 62"))
	g.msgpackIn("list from string", ls, fixstr("ab"))
	g.msgpackIn("list element of wrong kind", ls, mp("92 a1 61 01"))
	g.msgpackIn("list element array where string expected", ls, mp("92 a1 61 90"))
	g.msgpackIn("list with null element", ls, mp("92 c0 a1 61"))

	ss := cty.Set(tStr)
	g.msgpackIn("set from unsorted array", ss, mp("93 a1 63 a1 61 a1 62"))
	g.msgpackIn("set from array with duplicates", ss, mp("93 a1 61 a1 61 a1 62"))
	g.msgpackIn("set from array with NFC-equal strings", ss, mp("92 a2 c3a9 a3 65cc81"))
	g.msgpackIn("set of number from mixed encodings of equal numbers", cty.Set(tNum), mp("93 01 cb 3ff0000000000000 a1 31"))
	g.msgpackIn("set of number 1.5 as float64 and as string", cty.Set(tNum), mp("92 cb 3ff8000000000000 a3", lit("1.5")))
	g.msgpackIn("set with null element", ss, mp("92 c0 a1 61"))
	g.msgpackIn("set from map", ss, mp("80"))
	g.msgpackIn("set element of wrong kind", ss, mp("91 c3"))

	ms := cty.Map(tStr)
	g.msgpackIn("map from unsorted fixmap", ms, mp("82 a1 62 a1 31 a1 61 a1 32"))
	g.msgpackIn("map from empty fixmap", ms, mp("80"))
	g.msgpackIn("map from map16 short (non-canonical)", ms, mp("de 0001 a1 6b a1 76"))
	g.msgpackIn("map from map32 short (non-canonical)", ms, mp("df 00000001 a1 6b a1 76"))
	g.msgpackIn("map with duplicate keys (last wins)", ms, mp("82 a1 6b a1 31 a1 6b a1 32"))
	g.msgpackIn("map with bin8 key", ms, mp("81", bin8("k"), "a1 76"))
	g.msgpackIn("map with str8 key", ms, mp("81", str8("k"), "a1 76"))
	g.msgpackIn("map with integer key", ms, mp("81 01 a1 76"))
	g.msgpackIn("map with nil key", ms, mp("81 c0 a1 76"))
	g.msgpackIn("map with decomposed key is NFC-normalised", ms, mp("81 a3 65cc81 a1 76"))
	g.msgpackIn("map from array", ms, mp("91 a1 61"))
	g.msgpackIn("map value of wrong kind", ms, mp("81 a1 6b 90"))
	g.msgpackIn("map of number value of wrong kind (path)", cty.Map(tNum), mp("82 a1 61 01 a1 62", fixstr("x")))

	ot := cty.Object(kt{"a": tStr, "b": tNum})
	g.msgpackIn("object from sorted fixmap", ot, mp("82 a1 61 a1 78 a1 62 01"))
	g.msgpackIn("object from unsorted fixmap", ot, mp("82 a1 62 01 a1 61 a1 78"))
	g.msgpackIn("object from map16 (non-canonical)", ot, mp("de 0002 a1 61 a1 78 a1 62 01"))
	g.msgpackIn("object from nil", ot, mp("c0"))
	g.msgpackIn("object missing attribute", ot, mp("81 a1 61 a1 78"))
	g.msgpackIn("object extra attribute", ot, mp("83 a1 61 a1 78 a1 62 01 a1 63 c3"))
	g.msgpackIn("object right count but unknown attribute", ot, mp("82 a1 61 a1 78 a1 7a 01"))
	g.msgpackIn("object duplicate attribute instead of another", ot, mp("82 a1 61 a1 78 a1 61 a1 79"))
	g.msgpackIn("object zero-length map (quirk: empty object)", ot, mp("80"))
	g.msgpackIn("object zero-length map16 (quirk: empty object)", ot, mp("de 0000"))
	g.msgpackIn("object from array", ot, mp("92 a1 78 01"))
	g.msgpackIn("object from string", ot, fixstr("x"))
	g.msgpackIn("object integer key", ot, mp("82 01 a1 78 a1 62 01"))
	g.msgpackIn("object bin8 key", ot, mp("82", bin8("a"), "a1 78 a1 62 01"))
	g.msgpackIn("object attribute of wrong kind", ot, mp("82 a1 61 a1 78 a1 62", fixstr("not a number")))
	g.msgpackIn("object empty type from empty map", cty.EmptyObject, mp("80"))
	g.msgpackIn("object empty type from non-empty map", cty.EmptyObject, mp("81 a1 61 01"))
	g.msgpackIn("object empty type from nil", cty.EmptyObject, mp("c0"))
	nested := cty.Object(kt{"rules": cty.List(cty.Object(kt{"from": tNum, "to": tNum}))})
	g.msgpackIn("object nested error path", nested, mp("81 a5", lit("rules"), "92 82 a4", lit("from"), "01 a2", lit("to"), "02 82 a4", lit("from"), "a1 78 a2", lit("to"), "03"))
	g.msgpackIn("object nested ok", nested, mp("81 a5", lit("rules"), "91 82 a2", lit("to"), "02 a4", lit("from"), "01"))

	tt := cty.Tuple([]cty.Type{tStr, tNum})
	g.msgpackIn("tuple from fixarray", tt, mp("92 a1 61 01"))
	g.msgpackIn("tuple from array16 (non-canonical)", tt, mp("dc 0002 a1 61 01"))
	g.msgpackIn("tuple too short", tt, mp("91 a1 61"))
	g.msgpackIn("tuple too long", tt, mp("93 a1 61 01 01"))
	g.msgpackIn("tuple zero-length array (quirk: empty tuple)", tt, mp("90"))
	g.msgpackIn("tuple from nil", tt, mp("c0"))
	g.msgpackIn("tuple from map", tt, mp("80"))
	g.msgpackIn("tuple element of wrong kind", tt, mp("92 a1 61 c3"))
	g.msgpackIn("tuple empty type from empty array", cty.EmptyTuple, mp("90"))
	g.msgpackIn("tuple empty type from non-empty array", cty.EmptyTuple, mp("91 01"))
}

func (g *gen) addMsgpackDynamic() {
	g.msgpackIn("dynamic string", tDyn, dyn(`"string"`, fixstr("hello")))
	g.msgpackIn("dynamic number", tDyn, dyn(`"number"`, "2a"))
	g.msgpackIn("dynamic bool", tDyn, dyn(`"bool"`, "c3"))
	g.msgpackIn("dynamic object from terraform golden", tDyn,
		dyn(`["object",{"x":"number","y":["tuple",["string","string"]]}]`, "82 a1 78 01 a1 79 92 a1 70 a1 71"))
	g.msgpackIn("dynamic list of string", tDyn, dyn(`["list","string"]`, "92 a1 61 a1 62"))
	g.msgpackIn("dynamic set of number unsorted", tDyn, dyn(`["set","number"]`, "92 02 01"))
	g.msgpackIn("dynamic map of bool", tDyn, dyn(`["map","bool"]`, "81 a1 6b c3"))
	g.msgpackIn("dynamic empty object", tDyn, dyn(`["object",{}]`, "80"))
	g.msgpackIn("dynamic empty tuple", tDyn, dyn(`["tuple",[]]`, "90"))
	g.msgpackIn("dynamic nil (null of dynamic type)", tDyn, mp("c0"))
	g.msgpackIn("dynamic typed null string", tDyn, dyn(`"string"`, "c0"))
	g.msgpackIn("dynamic typed unknown string", tDyn, dyn(`"string"`, "d4 00 00"))
	g.msgpackIn("dynamic type JSON with whitespace", tDyn, dyn(`[ "list" , "string" ]`, "91 a1 61"))
	g.msgpackIn("dynamic type JSON object keys unsorted", tDyn, dyn(`["object",{"b":"bool","a":"string"}]`, "82 a1 61 a1 78 a1 62 c2"))
	g.msgpackIn("dynamic type JSON as str instead of bin", tDyn, mp("92", fixstr(`"string"`), fixstr("hi")))
	g.msgpackIn("dynamic type JSON as str8 instead of bin", tDyn, mp("92", str8(`"string"`), fixstr("hi")))
	g.msgpackIn("dynamic type dynamic nested", tDyn, dyn(`"dynamic"`, dyn(`"number"`, "07")))
	g.msgpackIn("dynamic bad type JSON", tDyn, dyn(`foo`, "a1 61"))
	g.msgpackIn("dynamic unknown type kind", tDyn, dyn(`"strin"`, "a1 61"))
	g.msgpackIn("dynamic type JSON with trailing data", tDyn, dyn(`"string" 1`, "a1 61"))
	g.msgpackIn("dynamic type JSON empty", tDyn, dyn(``, "a1 61"))
	g.msgpackIn("dynamic type JSON with optional attributes", tDyn, dyn(`["object",{"a":"string"},["a"]]`, "81 a1 61 a1 78"))
	g.msgpackIn("dynamic array of three elements", tDyn, mp("93", bin8(`"string"`), "a1 61 a1 62"))
	g.msgpackIn("dynamic array of one element", tDyn, mp("91", bin8(`"string"`)))
	g.msgpackIn("dynamic empty array", tDyn, mp("90"))
	g.msgpackIn("dynamic not an array (string)", tDyn, fixstr("hello"))
	g.msgpackIn("dynamic not an array (number)", tDyn, mp("01"))
	g.msgpackIn("dynamic not an array (map)", tDyn, mp("81 a1 61 01"))
	g.msgpackIn("dynamic type given as number", tDyn, mp("92 01 a1 61"))
	g.msgpackIn("dynamic value does not match type", tDyn, dyn(`"number"`, fixstr("abc")))
	g.msgpackIn("dynamic inner ext is unknown of that type", tDyn, dyn(`["list","string"]`, "d4 00 00"))
	g.msgpackIn("dynamic as object attribute", cty.Object(kt{"d": tDyn}), mp("81 a1 64", dyn(`"bool"`, "c2")))
	g.msgpackIn("dynamic as object attribute null", cty.Object(kt{"d": tDyn}), mp("81 a1 64 c0"))
	g.msgpackIn("dynamic as list element, mixed types", cty.List(tDyn), mp("92", dyn(`"string"`, fixstr("a")), dyn(`"number"`, "01")))
	g.msgpackIn("dynamic as list element, same types", cty.List(tDyn), mp("92", dyn(`"string"`, fixstr("b")), dyn(`"string"`, fixstr("a"))))
	g.msgpackIn("dynamic as map value, mixed types", cty.Map(tDyn), mp("82 a1 61", dyn(`"string"`, fixstr("a")), "a1 62", dyn(`"bool"`, "c3")))
	g.msgpackIn("dynamic error path inside object", cty.Object(kt{"d": tDyn}), mp("81 a1 64", dyn(`"number"`, "c3")))
}

func (g *gen) addMsgpackTruncated() {
	g.msgpackIn("truncated empty input for string", tStr, mp(""))
	g.msgpackIn("truncated empty input for number", tNum, mp(""))
	g.msgpackIn("truncated empty input for dynamic", tDyn, mp(""))
	g.msgpackIn("truncated empty input for object", cty.Object(kt{"a": tStr}), mp(""))
	g.msgpackIn("truncated fixstr body", tStr, mp("a5 6865"))
	g.msgpackIn("truncated uint16", tNum, mp("cd 01"))
	g.msgpackIn("truncated float64", tNum, mp("cb 3ff8"))
	g.msgpackIn("truncated list", cty.List(tNum), mp("93 01 02"))
	g.msgpackIn("truncated map after key", cty.Map(tNum), mp("81 a1 61"))
	g.msgpackIn("truncated object after key", cty.Object(kt{"a": tNum}), mp("81 a1 61"))
	g.msgpackIn("truncated ext", tStr, mp("d4 00"))
	g.msgpackIn("truncated dynamic after type", tDyn, mp("92", bin8(`"string"`)))
	g.msgpackIn("trailing bytes after number", tNum, mp("01 02"))
	g.msgpackIn("trailing bytes after string", tStr, mp("a1 61 a1 62"))
	g.msgpackIn("trailing bytes after nil", tStr, mp("c0 c0"))
	g.msgpackIn("trailing garbage after object", cty.Object(kt{"a": tNum}), mp("81 a1 61 01 ff ff"))
	g.msgpackIn("reserved code 0xc1 for string", tStr, mp("c1"))
	g.msgpackIn("reserved code 0xc1 for number", tNum, mp("c1"))
	g.msgpackIn("reserved code 0xc1 for dynamic", tDyn, mp("c1"))
}
