// go-cty's msgpack codec on the bytes the JS benchmark (../codec-bench.mjs) uses: reads the
// cty type JSON and the msgpack bytes from the files named on the command line, times
// msgpack.Unmarshal and msgpack.Marshal (median of N runs after 3 warm-ups) and prints one
// JSON line. Built with Debian's go and golang-github-zclconf-go-cty-dev:
//   GO111MODULE=off GOPATH=/usr/share/gocode go run main.go type.json value.msgpack 11
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

func median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

func timeIt(n int, fn func()) float64 {
	for i := 0; i < 3; i++ {
		fn()
	}
	runs := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		fn()
		runs = append(runs, float64(time.Since(t0).Nanoseconds())/1e6)
	}
	return median(runs)
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: main type.json value.msgpack iterations")
		os.Exit(2)
	}
	typeJSON, err := os.ReadFile(os.Args[1])
	check(err)
	data, err := os.ReadFile(os.Args[2])
	check(err)
	n, err := strconv.Atoi(os.Args[3])
	check(err)
	ty, err := ctyjson.UnmarshalType(typeJSON)
	check(err)
	val, err := msgpack.Unmarshal(data, ty)
	check(err)
	var sink int
	decodeMs := timeIt(n, func() {
		v, err := msgpack.Unmarshal(data, ty)
		check(err)
		sink += v.LengthInt()
	})
	encodeMs := timeIt(n, func() {
		b, err := msgpack.Marshal(val, ty)
		check(err)
		sink += len(b)
	})
	out, _ := json.Marshal(map[string]interface{}{"decodeMs": decodeMs, "encodeMs": encodeMs, "elements": val.LengthInt(), "sink": sink})
	fmt.Println(string(out))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var _ = cty.NilVal
