// Command gen writes golden test vectors for @magma/cty, produced by the
// go-cty library itself (the Debian build of go-cty 1.12.1).
//
// Every output byte, JSON text and error string in the vectors comes from a
// call into go-cty; this program only chooses the inputs and records what
// go-cty returned. See README.md next to this file.
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// supersededBigInt marks a vector whose msgpack bytes differ in go-cty >= 1.14.4.
const supersededBigInt = "protocol.md D3 (go-cty >= 1.14.4)"

// supersededRefinements marks a vector whose decoding differs in go-cty >= 1.13.
const supersededRefinements = "protocol.md D3 (go-cty >= 1.13 refined unknowns)"

type valueVec struct {
	Name          string          `json:"name"`
	Type          json.RawMessage `json:"type"`
	ValueType     json.RawMessage `json:"valueType,omitempty"`
	Msgpack       *string         `json:"msgpack,omitempty"`
	MsgpackError  *string         `json:"msgpackError,omitempty"`
	MsgpackPath   *string         `json:"msgpackErrorPath,omitempty"`
	JSON          *string         `json:"json"`
	JSONError     *string         `json:"jsonError,omitempty"`
	JSONErrorPath *string         `json:"jsonErrorPath,omitempty"`
	SupersededBy  string          `json:"supersededBy,omitempty"`
	// JSONSupersededBy marks a "json" text that is not valid JSON: go-cty 1.12
	// drops the error of a value inside a dynamic-type wrapper.
	JSONSupersededBy string `json:"jsonSupersededBy,omitempty"`
	Note             string `json:"note,omitempty"`
}

// supersededDynamicJSON marks JSON output that go-cty >= 1.14.4 refuses.
const supersededDynamicJSON = "go-cty >= 1.14.4 (zclconf/go-cty#169): Marshal returns the error of the value inside the dynamic wrapper instead of this invalid JSON"

type msgpackDecodeVec struct {
	Name           string          `json:"name"`
	Type           json.RawMessage `json:"type"`
	Input          string          `json:"input"`
	Canonical      *string         `json:"canonical,omitempty"`
	CanonicalError *string         `json:"canonicalError,omitempty"`
	DecodedType    json.RawMessage `json:"decodedType,omitempty"`
	Error          *string         `json:"error,omitempty"`
	Path           *string         `json:"path,omitempty"`
	Panic          *string         `json:"panic,omitempty"`
	SupersededBy   string          `json:"supersededBy,omitempty"`
	Note           string          `json:"note,omitempty"`
}

type jsonDecodeVec struct {
	Name               string          `json:"name"`
	Type               json.RawMessage `json:"type"`
	Input              string          `json:"input"`
	Canonical          *string         `json:"canonical,omitempty"`
	CanonicalError     *string         `json:"canonicalError,omitempty"`
	CanonicalJSON      *string         `json:"canonicalJson,omitempty"`
	CanonicalJSONError *string         `json:"canonicalJsonError,omitempty"`
	DecodedType        json.RawMessage `json:"decodedType,omitempty"`
	Error              *string         `json:"error,omitempty"`
	Path               *string         `json:"path,omitempty"`
	Panic              *string         `json:"panic,omitempty"`
	SupersededBy       string          `json:"supersededBy,omitempty"`
	Note               string          `json:"note,omitempty"`
}

type typeVec struct {
	Name      string  `json:"name"`
	Input     string  `json:"input"`
	Canonical *string `json:"canonical,omitempty"`
	Error     *string `json:"error,omitempty"`
	Panic     *string `json:"panic,omitempty"`
	Note      string  `json:"note,omitempty"`
}

type gen struct {
	names         map[string]string
	values        []valueVec
	msgpackDecode []msgpackDecodeVec
	jsonDecode    []jsonDecodeVec
	types         []typeVec
}

func newGen() *gen { return &gen{names: map[string]string{}} }

func (g *gen) claim(section, name string) {
	key := section + "\x00" + name
	if _, dup := g.names[key]; dup {
		panic(fmt.Sprintf("duplicate vector name in %s: %q", section, name))
	}
	g.names[key] = name
}

func sp(s string) *string { return &s }

func typeJSON(ty cty.Type) json.RawMessage {
	b, err := ctyjson.MarshalType(ty)
	if err != nil {
		panic(fmt.Sprintf("MarshalType(%#v): %s", ty, err))
	}
	return json.RawMessage(b)
}

// formatPath renders a cty.Path the way magma reports paths: `.attr` for an
// attribute step, `["key"]` for a string index (JSON string quoting), `[n]`
// for a number index, and `[?]` for an unknown index key (go-cty uses those
// for set elements in its JSON decoder).
func formatPath(p cty.Path) string {
	var sb strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			sb.WriteString(".")
			sb.WriteString(s.Name)
		case cty.IndexStep:
			k := s.Key
			switch {
			case !k.IsKnown() || k.IsNull():
				sb.WriteString("[?]")
			case k.Type() == cty.String:
				sb.WriteString("[")
				sb.WriteString(jsonText(k.AsString()))
				sb.WriteString("]")
			case k.Type() == cty.Number:
				sb.WriteString("[")
				sb.WriteString(k.AsBigFloat().Text('f', -1))
				sb.WriteString("]")
			default:
				sb.WriteString("[?]")
			}
		default:
			sb.WriteString(fmt.Sprintf("<%T>", step))
		}
	}
	return sb.String()
}

// errInfo returns err.Error() and, for a cty.PathError, the rendered path.
func errInfo(err error) (*string, *string) {
	msg := err.Error()
	if pe, ok := err.(cty.PathError); ok {
		p := formatPath(pe.Path)
		return &msg, &p
	}
	return &msg, nil
}

func jsonText(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// safely runs f and turns a Go panic inside go-cty into a returned text.
func safely(f func()) (panicText *string) {
	defer func() {
		if r := recover(); r != nil {
			t := fmt.Sprint(r)
			panicText = &t
		}
	}()
	f()
	return nil
}

// bigIntRuleDiffers reports whether the value contains a known number that
// go-cty >= 1.14.4 encodes differently in msgpack: a whole number outside the
// int64 range that float64 represents exactly (1.12 writes a float64, the
// newer rule writes the decimal string).
func bigIntRuleDiffers(v cty.Value) bool {
	found := false
	_ = cty.Walk(v, func(_ cty.Path, x cty.Value) (bool, error) {
		if !x.IsKnown() || x.IsNull() || x.Type() != cty.Number {
			return true, nil
		}
		bf := x.AsBigFloat()
		if bf.IsInf() {
			return true, nil
		}
		if _, acc := bf.Int64(); acc == big.Exact {
			return true, nil
		}
		if _, acc := bf.Float64(); acc == big.Exact && bf.IsInt() {
			found = true
		}
		return true, nil
	})
	return found
}

// value records how go-cty encodes v as type ty.
func (g *gen) value(name string, v cty.Value, ty cty.Type, note ...string) {
	g.claim("values", name)
	vec := valueVec{Name: name, Type: typeJSON(ty), Note: strings.Join(note, " ")}
	if !v.Type().Equals(ty) {
		vec.ValueType = typeJSON(v.Type())
	}
	if p := safely(func() {
		mb, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			vec.MsgpackError, vec.MsgpackPath = errInfo(err)
		} else {
			vec.Msgpack = sp(hex.EncodeToString(mb))
		}
		jb, err := ctyjson.Marshal(v, ty)
		if err != nil {
			vec.JSONError, vec.JSONErrorPath = errInfo(err)
		} else {
			vec.JSON = sp(string(jb))
			if !json.Valid(jb) {
				vec.JSONSupersededBy = supersededDynamicJSON
			}
		}
	}); p != nil {
		panic(fmt.Sprintf("go-cty panicked encoding %q: %s", name, *p))
	}
	if vec.Msgpack != nil && bigIntRuleDiffers(v) {
		vec.SupersededBy = supersededBigInt
	}
	g.values = append(g.values, vec)
}

// msgpackIn records what go-cty's msgpack.Unmarshal makes of input for ty.
func (g *gen) msgpackIn(name string, ty cty.Type, input []byte, note ...string) {
	g.claim("msgpackDecode", name)
	vec := msgpackDecodeVec{Name: name, Type: typeJSON(ty), Input: hex.EncodeToString(input), Note: strings.Join(note, " ")}
	var v cty.Value
	var uerr error
	if p := safely(func() { v, uerr = ctymsgpack.Unmarshal(input, ty) }); p != nil {
		vec.Panic = p
		g.msgpackDecode = append(g.msgpackDecode, vec)
		return
	}
	if uerr != nil {
		vec.Error, vec.Path = errInfo(uerr)
		g.msgpackDecode = append(g.msgpackDecode, vec)
		return
	}
	if !v.Type().Equals(ty) {
		vec.DecodedType = typeJSON(v.Type())
	}
	if p := safely(func() {
		out, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			vec.CanonicalError, _ = errInfo(err)
			return
		}
		vec.Canonical = sp(hex.EncodeToString(out))
	}); p != nil {
		vec.Panic = p
	}
	if vec.Canonical != nil && bigIntRuleDiffers(v) {
		vec.SupersededBy = supersededBigInt
	}
	g.msgpackDecode = append(g.msgpackDecode, vec)
}

// jsonIn records what go-cty's json.Unmarshal makes of input for ty.
func (g *gen) jsonIn(name string, ty cty.Type, input string, note ...string) {
	g.claim("jsonDecode", name)
	vec := jsonDecodeVec{Name: name, Type: typeJSON(ty), Input: input, Note: strings.Join(note, " ")}
	var v cty.Value
	var uerr error
	if p := safely(func() { v, uerr = ctyjson.Unmarshal([]byte(input), ty) }); p != nil {
		vec.Panic = p
		g.jsonDecode = append(g.jsonDecode, vec)
		return
	}
	if uerr != nil {
		vec.Error, vec.Path = errInfo(uerr)
		g.jsonDecode = append(g.jsonDecode, vec)
		return
	}
	if !v.Type().Equals(ty) {
		vec.DecodedType = typeJSON(v.Type())
	}
	if p := safely(func() {
		out, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			vec.CanonicalError, _ = errInfo(err)
		} else {
			vec.Canonical = sp(hex.EncodeToString(out))
		}
		jout, err := ctyjson.Marshal(v, ty)
		if err != nil {
			vec.CanonicalJSONError, _ = errInfo(err)
		} else {
			if !json.Valid(jout) {
				panic(fmt.Sprintf("invalid canonical JSON for %q", name))
			}
			vec.CanonicalJSON = sp(string(jout))
		}
	}); p != nil {
		vec.Panic = p
	}
	if vec.Canonical != nil && bigIntRuleDiffers(v) {
		vec.SupersededBy = supersededBigInt
	}
	g.jsonDecode = append(g.jsonDecode, vec)
}

// typeIn records what go-cty's json.UnmarshalType makes of input.
func (g *gen) typeIn(name string, input string, note ...string) {
	g.claim("types", name)
	vec := typeVec{Name: name, Input: input, Note: strings.Join(note, " ")}
	if p := safely(func() {
		ty, err := ctyjson.UnmarshalType([]byte(input))
		if err != nil {
			vec.Error, _ = errInfo(err)
			return
		}
		out, err := ctyjson.MarshalType(ty)
		if err != nil {
			vec.Error, _ = errInfo(err)
			return
		}
		vec.Canonical = sp(string(out))
	}); p != nil {
		vec.Panic = p
	}
	g.types = append(g.types, vec)
}

func marshalLine(v interface{}) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func writeSection(w *bytes.Buffer, key string, items []interface{}, last bool) {
	fmt.Fprintf(w, "  %s: [\n", jsonText(key))
	for i, it := range items {
		w.WriteString("    ")
		w.Write(marshalLine(it))
		if i < len(items)-1 {
			w.WriteString(",")
		}
		w.WriteString("\n")
	}
	w.WriteString("  ]")
	if !last {
		w.WriteString(",")
	}
	w.WriteString("\n")
}

func main() {
	ctyVersion := flag.String("cty-version", "unknown", "go-cty version (from dpkg)")
	msgpackVersion := flag.String("msgpack-version", "unknown", "vmihailenco/msgpack version (from dpkg)")
	out := flag.String("o", "-", "output file (- for stdout)")
	flag.Parse()

	g := newGen()
	g.addValues()
	g.addMsgpackDecode()
	g.addJSONDecode()
	g.addTypes()

	var w bytes.Buffer
	w.WriteString("{\n")
	fmt.Fprintf(&w, "  \"generator\": %s,\n", jsonText(fmt.Sprintf("go-cty %s via %s (Debian)", *ctyVersion, runtime.Version())))
	notes := buildNotes(*ctyVersion, *msgpackVersion)
	noteItems := make([]interface{}, len(notes))
	for i, n := range notes {
		noteItems[i] = n
	}
	writeSection(&w, "notes", noteItems, false)
	vals := make([]interface{}, len(g.values))
	for i := range g.values {
		vals[i] = g.values[i]
	}
	writeSection(&w, "values", vals, false)
	mds := make([]interface{}, len(g.msgpackDecode))
	for i := range g.msgpackDecode {
		mds[i] = g.msgpackDecode[i]
	}
	writeSection(&w, "msgpackDecode", mds, false)
	jds := make([]interface{}, len(g.jsonDecode))
	for i := range g.jsonDecode {
		jds[i] = g.jsonDecode[i]
	}
	writeSection(&w, "jsonDecode", jds, false)
	tys := make([]interface{}, len(g.types))
	for i := range g.types {
		tys[i] = g.types[i]
	}
	writeSection(&w, "types", tys, true)
	w.WriteString("}\n")

	// Self-check: the document must be valid JSON.
	var probe interface{}
	if err := json.Unmarshal(w.Bytes(), &probe); err != nil {
		fmt.Fprintf(os.Stderr, "generated document is not valid JSON: %s\n", err)
		os.Exit(1)
	}

	if *out == "-" {
		os.Stdout.Write(w.Bytes())
	} else if err := os.WriteFile(*out, w.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "values=%d msgpackDecode=%d jsonDecode=%d types=%d bytes=%d\n",
		len(g.values), len(g.msgpackDecode), len(g.jsonDecode), len(g.types), w.Len())
}
