package main

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

func str(s string) cty.Value  { return cty.StringVal(s) }
func num(n int64) cty.Value   { return cty.NumberIntVal(n) }
func flt(f float64) cty.Value { return cty.NumberFloatVal(f) }

func pnum(s string) cty.Value {
	v, err := cty.ParseNumberVal(s)
	if err != nil {
		panic(fmt.Sprintf("ParseNumberVal(%q): %s", s, err))
	}
	return v
}

func pow2(n uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), n) }

func bigIntVal(i *big.Int) cty.Value { return cty.NumberVal(new(big.Float).SetInt(i)) }

func add(a *big.Int, d int64) *big.Int { return new(big.Int).Add(a, big.NewInt(d)) }
func neg(a *big.Int) *big.Int          { return new(big.Int).Neg(a) }

func list(vs ...cty.Value) cty.Value { return cty.ListVal(vs) }
func set(vs ...cty.Value) cty.Value  { return cty.SetVal(vs) }
func tup(vs ...cty.Value) cty.Value  { return cty.TupleVal(vs) }

type kv = map[string]cty.Value
type kt = map[string]cty.Type

func obj(m kv) cty.Value  { return cty.ObjectVal(m) }
func mapv(m kv) cty.Value { return cty.MapVal(m) }

var (
	tStr  = cty.String
	tNum  = cty.Number
	tBool = cty.Bool
	tDyn  = cty.DynamicPseudoType
)

func ascii(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var sb strings.Builder
	sb.Grow(n)
	for i := 0; i < n; i++ {
		sb.WriteByte(alphabet[i%len(alphabet)])
	}
	return sb.String()
}

func (g *gen) addValues() {
	g.addStringValues()
	g.addNumberValues()
	g.addBoolAndDynamicPrimitives()
	g.addCollectionValues()
	g.addObjectValues()
	g.addTupleValues()
	g.addSetOrdering()
	g.addMapValues()
	g.addLengthValues()
	g.addDynamicValues()
	g.addConversionValues()
}

func (g *gen) addStringValues() {
	g.value("string empty", str(""), tStr)
	g.value("string hello", str("hello"), tStr)
	for _, n := range []int{1, 31, 32, 255, 256, 65535, 65536} {
		g.value(fmt.Sprintf("string ascii length %d", n), str(ascii(n)), tStr)
	}
	g.value("string latin-1 accents", str("héllo wörld ñ"), tStr)
	g.value("string CJK", str("日本語テキスト"), tStr)
	g.value("string 11 CJK chars is 33 bytes (str8 header)", str(strings.Repeat("日", 11)), tStr)
	g.value("string 10 CJK chars is 30 bytes (fixstr)", str(strings.Repeat("日", 10)), tStr)
	g.value("string emoji astral plane", str("😀"), tStr)
	g.value("string emoji ZWJ family", str("👨‍👩‍👧"), tStr)
	g.value("string emoji flag", str("🇩🇪"), tStr)
	g.value("string control characters", str("\x00\x01\x07\b\t\n\v\f\r\x1b\x1f\x7f"), tStr)
	g.value("string C1 control U+0085", str("a\u0085b"), tStr)
	g.value("string quotes and backslash", str(`say "hi" \ back\slash /slash`), tStr)
	g.value("string HTML specials", str(`<a href="x">&amp;</a>`), tStr)
	g.value("string U+2028 and U+2029", str("line\u2028para\u2029end"), tStr)
	g.value("string U+FEFF BOM", str("\ufeffbom"), tStr)
	g.value("string U+FFFD replacement char", str("\ufffd"), tStr)
	g.value("string U+FFFF noncharacter", str("\uffff"), tStr)
	g.value("string precomposed e-acute", str("\u00e9"), tStr)
	g.value("string decomposed e + combining acute (NFC-normalised by cty.StringVal)", str("e\u0301"), tStr,
		"cty.StringVal normalises to NFC, so the input e+U+0301 is stored and encoded as U+00E9.")
	g.value("string Hangul jamo (NFC composes)", str("\u1100\u1161"), tStr)
	g.value("string fullwidth and ligature (NFC leaves them)", str("Ａﬁ"), tStr)
	g.value("string looks like number", str("123"), tStr)
	g.value("string looks like bool", str("true"), tStr)
	g.value("string whitespace only", str(" \t\n"), tStr)
	g.value("string null", cty.NullVal(tStr), tStr)
	g.value("string unknown", cty.UnknownVal(tStr), tStr)
}

func (g *gen) addNumberValues() {
	ints := []struct {
		name string
		v    int64
	}{
		{"0", 0}, {"1", 1}, {"-1", -1}, {"127", 127}, {"128", 128}, {"255", 255}, {"256", 256},
		{"-32", -32}, {"-33", -33}, {"-128", -128}, {"-129", -129},
		{"32767", 32767}, {"32768", 32768}, {"65535", 65535}, {"65536", 65536},
		{"-32768", -32768}, {"-32769", -32769},
		{"2^31-1", math.MaxInt32}, {"2^31", 1 << 31}, {"2^32-1", math.MaxUint32}, {"2^32", 1 << 32},
		{"-2^31", math.MinInt32}, {"-2^31-1", math.MinInt32 - 1},
		{"2^53", 1 << 53}, {"2^53+1", 1<<53 + 1}, {"-(2^53+1)", -(1<<53 + 1)},
		{"2^63-1", math.MaxInt64}, {"-2^63", math.MinInt64}, {"-2^63+1", math.MinInt64 + 1},
		{"1000000", 1000000},
	}
	for _, it := range ints {
		g.value("number "+it.name, num(it.v), tNum)
	}
	g.value("number 9007199254740993 parsed from string", pnum("9007199254740993"), tNum)
	g.value("number 2^63 (big.Int)", bigIntVal(pow2(63)), tNum)
	g.value("number 2^63+1 (big.Int)", bigIntVal(add(pow2(63), 1)), tNum)
	g.value("number 2^64-1 (big.Int)", bigIntVal(add(pow2(64), -1)), tNum)
	g.value("number 2^64 (big.Int)", bigIntVal(pow2(64)), tNum)
	g.value("number 2^64 parsed from string", pnum("18446744073709551616"), tNum)
	g.value("number 2^64+1 (big.Int)", bigIntVal(add(pow2(64), 1)), tNum)
	g.value("number -2^63-1 (big.Int)", bigIntVal(add(neg(pow2(63)), -1)), tNum)
	g.value("number -2^64 (big.Int)", bigIntVal(neg(pow2(64))), tNum)
	g.value("number 2^100 (big.Int)", bigIntVal(pow2(100)), tNum)
	g.value("number 1e20 from float64", flt(1e20), tNum)
	g.value("number 1e20 parsed from string", pnum("1e20"), tNum)
	g.value("number 1e30 parsed from string", pnum("1e30"), tNum)
	g.value("number 1e30 from float64", flt(1e30), tNum,
		"float64(1e30) is 1000000000000000019884624838656 exactly.")
	g.value("number 3.0 from float64", flt(3.0), tNum)
	g.value("number 1e15 from float64", flt(1e15), tNum)
	g.value("number 1.0 parsed from string", pnum("1.0"), tNum)
	g.value("number -0 parsed from string", pnum("-0"), tNum)
	g.value("number -0.0 from float64", flt(math.Copysign(0, -1)), tNum)
	g.value("number 0.1 parsed from string (512-bit)", pnum("0.1"), tNum)
	g.value("number 0.1 from float64", flt(0.1), tNum)
	g.value("number 0.5", pnum("0.5"), tNum)
	g.value("number 1.5", pnum("1.5"), tNum)
	g.value("number 2.5", pnum("2.5"), tNum)
	g.value("number -2.5", pnum("-2.5"), tNum)
	g.value("number 0.25 from float64", flt(0.25), tNum)
	g.value("number 123.456 parsed from string", pnum("123.456"), tNum)
	g.value("number 123.456 from float64", flt(123.456), tNum)
	g.value("number 1e-7 parsed from string", pnum("1e-7"), tNum)
	g.value("number 1e-7 from float64", flt(1e-7), tNum)
	g.value("number pi 3.14159265358979323846264338327950288 parsed", pnum("3.14159265358979323846264338327950288"), tNum)
	g.value("number pi from float64", flt(math.Pi), tNum)
	third := new(big.Float).SetPrec(512).Quo(new(big.Float).SetPrec(512).SetInt64(1), new(big.Float).SetPrec(512).SetInt64(3))
	g.value("number 1/3 at 512 bits", cty.NumberVal(third), tNum)
	g.value("number 1/3 from float64", flt(1.0/3.0), tNum)
	g.value("number 0.30000000000000004 parsed", pnum("0.30000000000000004"), tNum)
	g.value("number 1e-300 parsed", pnum("1e-300"), tNum)
	g.value("number 1e300 parsed", pnum("1e300"), tNum)
	g.value("number 1e300 from float64", flt(1e300), tNum)
	g.value("number smallest denormal float64 5e-324", flt(math.SmallestNonzeroFloat64), tNum)
	g.value("number max float64", flt(math.MaxFloat64), tNum)
	g.value("number -max float64", flt(-math.MaxFloat64), tNum)
	g.value("number 12345678901234567890.5 parsed", pnum("12345678901234567890.5"), tNum)
	g.value("number -123456789012345678901234567890 parsed", pnum("-123456789012345678901234567890"), tNum)
	g.value("number +Inf", cty.PositiveInfinity, tNum)
	g.value("number -Inf", cty.NegativeInfinity, tNum)
	g.value("number null", cty.NullVal(tNum), tNum)
	g.value("number unknown", cty.UnknownVal(tNum), tNum)
}

func (g *gen) addBoolAndDynamicPrimitives() {
	g.value("bool true", cty.True, tBool)
	g.value("bool false", cty.False, tBool)
	g.value("bool null", cty.NullVal(tBool), tBool)
	g.value("bool unknown", cty.UnknownVal(tBool), tBool)
	g.value("dynamic null of dynamic type", cty.NullVal(tDyn), tDyn)
	g.value("dynamic unknown of unknown type (cty.DynamicVal)", cty.DynamicVal, tDyn)
}

// sample returns known, null and unknown sample elements of a primitive type.
func sample(ty cty.Type) (a, b, c cty.Value) {
	switch ty {
	case tStr:
		return str("a"), str("b"), str("c")
	case tNum:
		return num(1), num(2), pnum("3.5")
	case tBool:
		return cty.True, cty.False, cty.True
	}
	panic("no sample")
}

func tyName(ty cty.Type) string {
	if ty == tDyn {
		return "dynamic"
	}
	return ty.FriendlyName()
}

func (g *gen) addCollectionValues() {
	prims := []cty.Type{tStr, tNum, tBool}
	for _, et := range prims {
		a, b, _ := sample(et)
		en := tyName(et)
		// lists
		lt := cty.List(et)
		g.value("list of "+en+" empty", cty.ListValEmpty(et), lt)
		g.value("list of "+en+" one element", list(a), lt)
		g.value("list of "+en+" two elements", list(b, a), lt)
		g.value("list of "+en+" with null element", list(a, cty.NullVal(et)), lt)
		g.value("list of "+en+" with unknown element", list(cty.UnknownVal(et), a), lt)
		g.value("list of "+en+" null", cty.NullVal(lt), lt)
		g.value("list of "+en+" unknown", cty.UnknownVal(lt), lt)
		// sets
		st := cty.Set(et)
		g.value("set of "+en+" empty", cty.SetValEmpty(et), st)
		g.value("set of "+en+" one element", set(a), st)
		g.value("set of "+en+" two elements", set(b, a), st)
		g.value("set of "+en+" with null element", set(cty.NullVal(et), a), st)
		g.value("set of "+en+" with unknown element", set(cty.UnknownVal(et), a), st)
		g.value("set of "+en+" null", cty.NullVal(st), st)
		g.value("set of "+en+" unknown", cty.UnknownVal(st), st)
		// maps
		mt := cty.Map(et)
		g.value("map of "+en+" empty", cty.MapValEmpty(et), mt)
		g.value("map of "+en+" one entry", mapv(kv{"k": a}), mt)
		g.value("map of "+en+" two entries", mapv(kv{"y": b, "x": a}), mt)
		g.value("map of "+en+" with null value", mapv(kv{"k": cty.NullVal(et), "a": a}), mt)
		g.value("map of "+en+" with unknown value", mapv(kv{"k": cty.UnknownVal(et), "a": a}), mt)
		g.value("map of "+en+" null", cty.NullVal(mt), mt)
		g.value("map of "+en+" unknown", cty.UnknownVal(mt), mt)
	}
	// collections of dynamic
	for _, c := range []struct {
		name string
		ty   cty.Type
		v    cty.Value
	}{
		{"list of dynamic empty", cty.List(tDyn), cty.ListValEmpty(tDyn)},
		{"list of dynamic holding strings", cty.List(tDyn), list(str("a"), str("b"))},
		{"list of dynamic holding numbers", cty.List(tDyn), list(num(1), num(2))},
		{"list of dynamic holding objects", cty.List(tDyn), list(obj(kv{"x": num(1)}), obj(kv{"x": num(2)}))},
		{"list of dynamic holding a null string", cty.List(tDyn), list(cty.NullVal(tStr))},
		{"list of dynamic holding cty.DynamicVal", cty.List(tDyn), list(cty.DynamicVal)},
		{"list of dynamic holding a null of dynamic type", cty.List(tDyn), list(cty.NullVal(tDyn))},
		{"list of dynamic null", cty.List(tDyn), cty.NullVal(cty.List(tDyn))},
		{"list of dynamic unknown", cty.List(tDyn), cty.UnknownVal(cty.List(tDyn))},
		{"set of dynamic holding numbers", cty.Set(tDyn), set(num(3), num(1))},
		{"map of dynamic holding bools", cty.Map(tDyn), mapv(kv{"b": cty.False, "a": cty.True})},
		{"map of dynamic holding lists", cty.Map(tDyn), mapv(kv{"a": list(str("x"))})},
		{"map of dynamic empty", cty.Map(tDyn), cty.MapValEmpty(tDyn)},
	} {
		g.value(c.name, c.v, c.ty)
	}
	// nested collections
	lls := cty.List(cty.List(tStr))
	g.value("list of list of string", list(list(str("a"), str("b")), cty.ListValEmpty(tStr), list(str("c"))), lls)
	g.value("list of list of string with null and unknown inner lists", list(cty.NullVal(cty.List(tStr)), cty.UnknownVal(cty.List(tStr))), lls)
	g.value("list of list of string partly unknown", list(list(str("a"), cty.UnknownVal(tStr))), lls)
	g.value("set of set of number", set(set(num(2), num(1)), set(num(3)), cty.SetValEmpty(tNum)), cty.Set(cty.Set(tNum)))
	g.value("set of list of string", set(list(str("b")), list(str("a"), str("z")), list(str("a"))), cty.Set(cty.List(tStr)))
	g.value("map of list of bool", mapv(kv{"t": list(cty.True), "f": list(cty.False, cty.True)}), cty.Map(cty.List(tBool)))
	g.value("list of map of string", list(mapv(kv{"b": str("2"), "a": str("1")}), cty.MapValEmpty(tStr)), cty.List(cty.Map(tStr)))
	g.value("map of map of number", mapv(kv{"outer": mapv(kv{"z": num(26), "a": num(1)})}), cty.Map(cty.Map(tNum)))
	g.value("list of set of string", list(set(str("z"), str("a")), cty.SetValEmpty(tStr)), cty.List(cty.Set(tStr)))
	g.value("set of map of number", set(mapv(kv{"a": num(1)}), mapv(kv{"a": num(0)})), cty.Set(cty.Map(tNum)))
	g.value("list of list of list of number", list(list(list(num(1)), cty.ListValEmpty(tNum))), cty.List(cty.List(cty.List(tNum))))
	g.value("map of set of string partly unknown", mapv(kv{"k": set(str("a"), cty.UnknownVal(tStr))}), cty.Map(cty.Set(tStr)))

	ot := cty.Object(kt{"name": tStr, "port": tNum})
	g.value("list of object", list(obj(kv{"name": str("web"), "port": num(80)}), obj(kv{"name": str("tls"), "port": num(443)})), cty.List(ot))
	g.value("list of object with null and unknown elements", list(cty.NullVal(ot), cty.UnknownVal(ot), obj(kv{"name": cty.UnknownVal(tStr), "port": cty.NullVal(tNum)})), cty.List(ot))
	g.value("map of object", mapv(kv{"b": obj(kv{"name": str("x"), "port": num(1)}), "a": obj(kv{"name": str("y"), "port": num(2)})}), cty.Map(ot))
	g.value("list of tuple", list(tup(str("a"), num(1)), tup(str("b"), num(2))), cty.List(cty.Tuple([]cty.Type{tStr, tNum})))
	g.value("list of empty object", list(cty.EmptyObjectVal, cty.EmptyObjectVal), cty.List(cty.EmptyObject))
	g.value("list of empty tuple", list(cty.EmptyTupleVal), cty.List(cty.EmptyTuple))
}

func (g *gen) addObjectValues() {
	g.value("object empty", cty.EmptyObjectVal, cty.EmptyObject)
	g.value("object empty null", cty.NullVal(cty.EmptyObject), cty.EmptyObject)
	g.value("object empty unknown", cty.UnknownVal(cty.EmptyObject), cty.EmptyObject)
	g.value("object one attribute", obj(kv{"name": str("x")}), cty.Object(kt{"name": tStr}))
	mixed := kv{
		"b": num(1), "B": num(2), "a": num(3), "A": num(4), "_": num(5), "1": num(6),
		"aa": num(7), "ab": num(8), "Z": num(9), "z": num(10), "a_b": num(11), "a-b": num(12), "aB": num(13),
	}
	mixedT := kt{}
	for k := range mixed {
		mixedT[k] = tNum
	}
	g.value("object attribute names needing sorting (mixed case, digits, punctuation)", obj(mixed), cty.Object(mixedT))
	uni := kv{
		"z": str("z"), "é": str("e-acute"), "e": str("e"), "日本": str("nihon"), "😀": str("grin"),
		"Ａ": str("fullwidth A"), "\uffff": str("U+FFFF"), "ä": str("a-umlaut"), "": str("empty name"),
	}
	uniT := kt{}
	for k := range uni {
		uniT[k] = tStr
	}
	g.value("object unicode and multi-byte attribute names (bytewise order, not UTF-16 order)", obj(uni), cty.Object(uniT),
		"U+FFFF (ef bf bf) sorts before U+1F600 (f0 9f 98 80) bytewise, but after it in UTF-16 code-unit order.")
	g.value("object attribute name decomposed e-acute (NFC-normalised)", obj(kv{"e\u0301": num(1)}), cty.Object(kt{"\u00e9": tNum}),
		"cty.ObjectVal normalises attribute names to NFC.")
	ot := cty.Object(kt{"id": tStr, "count": tNum, "on": tBool})
	g.value("object all attributes null", obj(kv{"id": cty.NullVal(tStr), "count": cty.NullVal(tNum), "on": cty.NullVal(tBool)}), ot)
	g.value("object partly unknown", obj(kv{"id": cty.UnknownVal(tStr), "count": num(3), "on": cty.True}), ot)
	g.value("object all attributes unknown", obj(kv{"id": cty.UnknownVal(tStr), "count": cty.UnknownVal(tNum), "on": cty.UnknownVal(tBool)}), ot)
	g.value("object null", cty.NullVal(ot), ot)
	g.value("object unknown", cty.UnknownVal(ot), ot)
	nested := cty.Object(kt{
		"tags":  cty.Map(tStr),
		"rules": cty.List(cty.Object(kt{"from": tNum, "to": tNum})),
		"meta":  cty.Object(kt{"owner": tStr, "extra": tDyn}),
		"ids":   cty.Set(tStr),
	})
	g.value("object nested collections and objects", obj(kv{
		"tags":  mapv(kv{"Name": str("web"), "env": str("prod")}),
		"rules": list(obj(kv{"from": num(80), "to": num(80)}), obj(kv{"from": num(443), "to": num(8443)})),
		"meta":  obj(kv{"owner": str("me"), "extra": tup(str("p"), num(1))}),
		"ids":   set(str("i-2"), str("i-1")),
	}), nested)
	g.value("object nested with empty and null collections", obj(kv{
		"tags":  cty.MapValEmpty(tStr),
		"rules": cty.ListValEmpty(cty.Object(kt{"from": tNum, "to": tNum})),
		"meta":  cty.NullVal(cty.Object(kt{"owner": tStr, "extra": tDyn})),
		"ids":   cty.NullVal(cty.Set(tStr)),
	}), nested)
	g.value("object nested partly unknown deep inside", obj(kv{
		"tags":  cty.UnknownVal(cty.Map(tStr)),
		"rules": list(obj(kv{"from": cty.UnknownVal(tNum), "to": num(1)})),
		"meta":  obj(kv{"owner": cty.UnknownVal(tStr), "extra": cty.DynamicVal}),
		"ids":   set(cty.UnknownVal(tStr)),
	}), nested)
	g.value("object with dynamic attribute holding a string", obj(kv{"v": str("s")}), cty.Object(kt{"v": tDyn}))
	g.value("object with dynamic attribute holding null of dynamic type", obj(kv{"v": cty.NullVal(tDyn)}), cty.Object(kt{"v": tDyn}))
	g.value("object with dynamic attribute holding cty.DynamicVal", obj(kv{"v": cty.DynamicVal}), cty.Object(kt{"v": tDyn}))
	g.value("object with dynamic attribute holding unknown string", obj(kv{"v": cty.UnknownVal(tStr)}), cty.Object(kt{"v": tDyn}))
	g.value("object with dynamic attribute holding null number", obj(kv{"v": cty.NullVal(tNum)}), cty.Object(kt{"v": tDyn}))
	g.value("object with empty-object attribute", obj(kv{"e": cty.EmptyObjectVal}), cty.Object(kt{"e": cty.EmptyObject}))
	sixteen := kv{}
	sixteenT := kt{}
	for i := 0; i < 16; i++ {
		k := fmt.Sprintf("k%02d", i)
		sixteen[k] = num(int64(i))
		sixteenT[k] = tNum
	}
	g.value("object with 16 attributes (map16 header)", obj(sixteen), cty.Object(sixteenT))
	fifteen := kv{}
	fifteenT := kt{}
	for i := 0; i < 15; i++ {
		k := fmt.Sprintf("k%02d", i)
		fifteen[k] = cty.True
		fifteenT[k] = tBool
	}
	g.value("object with 15 attributes (fixmap header)", obj(fifteen), cty.Object(fifteenT))
}

func (g *gen) addTupleValues() {
	g.value("tuple empty", cty.EmptyTupleVal, cty.EmptyTuple)
	g.value("tuple empty null", cty.NullVal(cty.EmptyTuple), cty.EmptyTuple)
	g.value("tuple empty unknown", cty.UnknownVal(cty.EmptyTuple), cty.EmptyTuple)
	tt := cty.Tuple([]cty.Type{tStr, tNum, tBool})
	g.value("tuple mixed", tup(str("a"), num(1), cty.True), tt)
	g.value("tuple with null elements", tup(cty.NullVal(tStr), num(1), cty.NullVal(tBool)), tt)
	g.value("tuple partly unknown", tup(str("a"), cty.UnknownVal(tNum), cty.True), tt)
	g.value("tuple null", cty.NullVal(tt), tt)
	g.value("tuple unknown", cty.UnknownVal(tt), tt)
	g.value("tuple nested with list, object and dynamic", tup(list(num(1)), obj(kv{"a": str("x")}), str("dyn")),
		cty.Tuple([]cty.Type{cty.List(tNum), cty.Object(kt{"a": tStr}), tDyn}))
	g.value("tuple with dynamic element holding cty.DynamicVal", tup(cty.DynamicVal), cty.Tuple([]cty.Type{tDyn}))
	g.value("tuple of tuples", tup(tup(), tup(num(1), tup(str("deep")))),
		cty.Tuple([]cty.Type{cty.EmptyTuple, cty.Tuple([]cty.Type{tNum, cty.Tuple([]cty.Type{tStr})})}))
	elems := make([]cty.Value, 16)
	etys := make([]cty.Type, 16)
	for i := range elems {
		elems[i] = num(int64(i))
		etys[i] = tNum
	}
	g.value("tuple of 16 elements (array16 header)", tup(elems...), cty.Tuple(etys))
}

func (g *gen) addSetOrdering() {
	ss := cty.Set(tStr)
	g.value("set of string ordering ascii", set(str("b"), str("c"), str("a")), ss)
	g.value("set of string ordering mixed case", set(str("b"), str("B"), str("a"), str("A"), str("_"), str("1")), ss)
	g.value("set of string ordering unicode bytewise", set(str("😀"), str("Ａ"), str("\uffff"), str("é"), str("e"), str("z"), str("日")), ss,
		"Bytewise UTF-8 order; UTF-16 code-unit order would put the emoji before U+FF21 and U+FFFF.")
	g.value("set of string ordering prefixes and empty", set(str("ab"), str("a"), str(""), str("abc"), str("b")), ss)
	g.value("set of string dedup", set(str("a"), str("b"), str("a")), ss)
	g.value("set of string dedup after NFC normalisation", set(str("\u00e9"), str("e\u0301")), ss)
	g.value("set of string with several unknowns", set(str("z"), cty.UnknownVal(tStr), str("a"), cty.UnknownVal(tStr)), ss)
	g.value("set of string with null and unknown", set(cty.UnknownVal(tStr), cty.NullVal(tStr), str("m")), ss)
	g.value("set of string only null", set(cty.NullVal(tStr)), ss)
	sn := cty.Set(tNum)
	g.value("set of number ordering numeric not lexical", set(num(10), num(9), num(100), num(1)), sn)
	g.value("set of number ordering negatives and fractions", set(num(-1), num(-10), num(2), pnum("0.5"), pnum("-0.5"), num(0), pnum("1e30"), pnum("-1e30")), sn)
	g.value("set of number with infinities", set(cty.PositiveInfinity, num(0), cty.NegativeInfinity), sn)
	g.value("set of number dedup 1 and 1.0", set(num(1), pnum("1.0"), flt(1)), sn)
	g.value("set of number 0.1 parsed and 0.1 float64 are distinct", set(pnum("0.1"), flt(0.1)), sn)
	g.value("set of number big integers", set(bigIntVal(pow2(64)), bigIntVal(pow2(63)), num(math.MaxInt64), bigIntVal(add(pow2(64), 1))), sn)
	g.value("set of number with unknown and null", set(cty.NullVal(tNum), num(5), cty.UnknownVal(tNum), num(-5)), sn)
	g.value("set of bool ordering", set(cty.True, cty.False), cty.Set(tBool))
	g.value("set of bool dedup", set(cty.True, cty.True), cty.Set(tBool))
	g.value("set of bool with unknown", set(cty.UnknownVal(tBool), cty.True), cty.Set(tBool))
	ot := cty.Object(kt{"name": tStr, "port": tNum})
	g.value("set of object", set(
		obj(kv{"name": str("b"), "port": num(1)}),
		obj(kv{"name": str("a"), "port": num(2)}),
		obj(kv{"name": str("a"), "port": num(10)}),
	), cty.Set(ot))
	g.value("set of object dedup", set(obj(kv{"name": str("a"), "port": num(1)}), obj(kv{"name": str("a"), "port": num(1)})), cty.Set(ot))
	g.value("set of object with null attribute values", set(
		obj(kv{"name": cty.NullVal(tStr), "port": num(1)}),
		obj(kv{"name": str("x"), "port": cty.NullVal(tNum)}),
	), cty.Set(ot))
	g.value("set of object partly unknown", set(
		obj(kv{"name": str("k2"), "port": num(2)}),
		obj(kv{"name": cty.UnknownVal(tStr), "port": num(1)}),
		obj(kv{"name": str("k1"), "port": num(1)}),
	), cty.Set(ot))
	g.value("set of object with unknown element", set(cty.UnknownVal(ot), obj(kv{"name": str("a"), "port": num(1)})), cty.Set(ot))
	g.value("set of object with null element", set(cty.NullVal(ot), obj(kv{"name": str("a"), "port": num(1)})), cty.Set(ot))
	g.value("set of tuple", set(tup(str("b"), num(1)), tup(str("a"), num(2))), cty.Set(cty.Tuple([]cty.Type{tStr, tNum})))
	g.value("set of list of number (hash order)", set(list(num(10)), list(num(9)), list(num(1), num(2))), cty.Set(cty.List(tNum)))
	g.value("set of map of string", set(mapv(kv{"b": str("1")}), mapv(kv{"a": str("2")})), cty.Set(cty.Map(tStr)))
	g.value("set of empty object", set(cty.EmptyObjectVal), cty.Set(cty.EmptyObject))
	sixteen := make([]cty.Value, 16)
	for i := range sixteen {
		sixteen[i] = num(int64(15 - i))
	}
	g.value("set of 16 numbers (array16 header, sorted)", set(sixteen...), sn)
}

func (g *gen) addMapValues() {
	m := kv{"b": num(1), "B": num(2), "a": num(3), "A": num(4), "é": num(5), "Ａ": num(6), "😀": num(7), "\uffff": num(8), "": num(9), "aa": num(10), "a b": num(11)}
	g.value("map keys needing byte-order sorting", mapv(m), cty.Map(tNum),
		"Bytewise UTF-8 order of keys; differs from UTF-16 order for U+FFFF vs emoji.")
	g.value("map key decomposed e-acute (NFC-normalised)", mapv(kv{"e\u0301": str("v")}), cty.Map(tStr))
	sixteen := kv{}
	for i := 0; i < 16; i++ {
		sixteen[fmt.Sprintf("%c", 'p'-i)] = cty.False
	}
	g.value("map of 16 entries (map16 header)", mapv(sixteen), cty.Map(tBool))
	fifteen := kv{}
	for i := 0; i < 15; i++ {
		fifteen[fmt.Sprintf("%c", 'o'-i)] = cty.True
	}
	g.value("map of 15 entries (fixmap header)", mapv(fifteen), cty.Map(tBool))
	g.value("map of string with HTML and U+2028 in keys and values", mapv(kv{"<k>": str("a&b"), "\u2028": str("\u2029")}), cty.Map(tStr))
}

func (g *gen) addLengthValues() {
	for _, n := range []int{15, 16, 65535, 65536} {
		elems := make([]cty.Value, n)
		for i := range elems {
			elems[i] = num(0)
		}
		g.value(fmt.Sprintf("list of %d zeros", n), cty.ListVal(elems), cty.List(tNum))
	}
	for _, n := range []int{15, 16} {
		elems := make([]cty.Value, n)
		for i := range elems {
			elems[i] = cty.True
		}
		g.value(fmt.Sprintf("list of %d trues", n), cty.ListVal(elems), cty.List(tBool))
	}
}

func (g *gen) addDynamicValues() {
	cases := []struct {
		name string
		v    cty.Value
	}{
		{"string", str("hello")},
		{"empty string", str("")},
		{"number int", num(42)},
		{"number -1", num(-1)},
		{"number 0.1 parsed", pnum("0.1")},
		{"number 1.5", pnum("1.5")},
		{"number 2^64", bigIntVal(pow2(64))},
		{"number +Inf", cty.PositiveInfinity},
		{"bool true", cty.True},
		{"list of string", list(str("a"), str("b"))},
		{"empty list of string", cty.ListValEmpty(tStr)},
		{"set of number", set(num(2), num(1))},
		{"map of bool", mapv(kv{"k": cty.True})},
		{"object", obj(kv{"x": num(1), "y": tup(str("p"), str("q"))})},
		{"empty object", cty.EmptyObjectVal},
		{"tuple", tup(str("a"), num(1), cty.False)},
		{"empty tuple", cty.EmptyTupleVal},
		{"list of list of number", list(list(num(1)))},
		{"null string", cty.NullVal(tStr)},
		{"null list of number", cty.NullVal(cty.List(tNum))},
		{"null object", cty.NullVal(cty.Object(kt{"a": tStr}))},
		{"unknown string", cty.UnknownVal(tStr)},
		{"unknown object", cty.UnknownVal(cty.Object(kt{"a": tStr}))},
		{"list of string partly unknown", list(str("a"), cty.UnknownVal(tStr))},
		{"object with dynamic attribute", obj(kv{"inner": str("v")})},
		{"string with HTML specials", str("<&>")},
		{"object with unicode attribute names", obj(kv{"é": num(1), "a": num(2)})},
	}
	for _, c := range cases {
		g.value("dynamic holding "+c.name, c.v, tDyn)
	}
	g.value("list of list of dynamic holding strings", list(list(str("x"))), cty.List(cty.List(tDyn)))
	g.value("map of object with dynamic attribute", mapv(kv{"k": obj(kv{"d": num(7)})}), cty.Map(cty.Object(kt{"d": tDyn})))
	g.value("set of object with dynamic attribute", set(obj(kv{"d": str("b")}), obj(kv{"d": str("a")})), cty.Set(cty.Object(kt{"d": tDyn})))
	g.value("object with dynamic attribute holding object with dynamic-typed list", obj(kv{"d": obj(kv{"l": list(num(1))})}), cty.Object(kt{"d": tDyn}))
}

func (g *gen) addConversionValues() {
	const n = "The value's type differs from the given type; go-cty's Marshal converts it first (convert.Convert)."
	g.value("conversion string value encoded as number", str("12"), tNum, n)
	g.value("conversion number value encoded as string", pnum("1.50"), tStr, n)
	g.value("conversion bool value encoded as string", cty.True, tStr, n)
	g.value("conversion string value encoded as bool", str("false"), tBool, n)
	g.value("conversion tuple value encoded as list of string", tup(str("a"), num(1)), cty.List(tStr), n)
	g.value("conversion object value encoded as map of string", obj(kv{"b": str("x"), "a": cty.True}), cty.Map(tStr), n)
	g.value("conversion list value encoded as set (dedup)", list(str("b"), str("a"), str("b")), cty.Set(tStr), n)
	g.value("conversion string value not a number", str("abc"), tNum, n)
	g.value("conversion object missing attribute", obj(kv{"a": str("x")}), cty.Object(kt{"a": tStr, "b": tStr}), n)
	g.value("conversion object extra attribute", obj(kv{"a": str("x"), "c": str("y")}), cty.Object(kt{"a": tStr}), n)
}
