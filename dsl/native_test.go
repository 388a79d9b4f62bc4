package dsl

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// nativeVars are the variables the native tests evaluate against: plain
// values, a null, an unknown and a marked value, so that both the direct
// path and every way back to HCL are taken.
func nativeVars() map[string]cty.Value {
	hosts := map[string]cty.Value{}
	for i := 0; i < 40; i++ {
		hosts[fmt.Sprintf("h%02d", i)] = cty.ObjectVal(map[string]cty.Value{
			"n": cty.NumberIntVal(int64(i)), "os": cty.StringVal([]string{"linux", "windows", "freebsd"}[i%3]),
		})
	}
	return map[string]cty.Value{
		"hosts":      cty.ObjectVal(hosts),
		"n":          cty.NumberIntVal(7),
		"neg":        cty.NumberIntVal(-3),
		"half":       cty.NumberFloatVal(2.5),
		"big":        cty.MustParseNumberVal("123456789012345678901234567890"),
		"s":          cty.StringVal("leaf"),
		"accent":     cty.StringVal("\u0301x"),
		"t":          cty.True,
		"nul":        cty.NullVal(cty.String),
		"dyn":        cty.NullVal(cty.DynamicPseudoType),
		"unknown":    cty.UnknownVal(cty.Number),
		"secret":     cty.NumberIntVal(3).Mark("secret"),
		"list":       cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"m":          cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}),
		"tuple":      cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(2)}),
		"secretlist": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("s")})}).Mark("secret"),
	}
}

// nativeCases cover each native node's direct path and its ways back to
// HCL: conversions, nulls, unknowns, marks, errors in an operand, in the
// untaken branch and in the function, wrong argument counts and limits.
var nativeCases = []string{
	// binary operators
	`n + 1`, `n - 10`, `n * n`, `n / 2`, `n % 3`, `neg % 2`, `half * 2`, `big + 1`, `big % 7`,
	`-7 % 3`, `7 % -3`, `-7 % -3`, `-6 % 3`, `0 % 5`, `n % 0`, `neg % 0`, `2147483647 % 2`, `2147483649 % 7`,
	`n % half`, `half % 2`, `half % 16`, `big % 16`, `neg % 16`, `-7 % 16`, `n % 2147483647`, `(n * 1000000000) % 7`, `"${(5 % 3) / 3}"`, `"${(5 % 3) / n}"`, `"${(n % 5) / 3}"`, `"${(neg % 2) / 7}"`,
	`n > 3`, `n >= 7`, `n < 7`, `n <= 6`, `n == 7`, `n != 7`, `s == "leaf"`, `s != "spine"`, `t == true`,
	`"7" + 1`, `n == "7"`, `s == nul`, `nul == nul`, `list == list`, `n + nul`, `n + unknown`, `unknown == 1`,
	`secret + 1`, `secret == 3`, `n / 0`, `0 / 0`, `n + nope`, `nope.x == n`, `s + 1`, `true && n`,
	// conditionals
	`n > 3 ? "big" : "small"`, `t ? n : 0`, `t ? "x" : null`, `t ? 1 : "one"`, `t ? nul : "x"`,
	`t ? "x" : nope`, `!t ? "x" : nope`, `nul == null ? 1 : 2`, `unknown > 1 ? 1 : 2`, `secret > 1 ? 1 : 2`,
	`t ? secret : 1`, `n ? 1 : 2`, `dyn ? 1 : 2`, `t ? [1] : ["a"]`, `t ? {a = 1} : {b = 2}`,
	// format
	`format("h%04d-%02d", n, 3)`, `format("%s:%s", s, "swp1")`, `format("%d%%", n)`, `format("%5d|", n)`,
	`format("%s", n)`, `format("%d", half)`, `format("%d", neg)`, `format("%04d", neg)`, `format("%d", big)`,
	`format("%-5s|", s)`, `format("%v", list)`, `format("%s %s", s)`, `format("%s", s, s)`, `format("abc%")`,
	`format("%s", nul)`, `format("%s", unknown)`, `format("%d", secret)`, `format("%s%s", accent, accent)`,
	`format("e%s", accent)`, `format("%100000d", 1)`, `format("%[1]s", s)`, `format(s)`, `format()`, `format(nul)`,
	`format("%012d", 1)`, `format("%0d", 5)`, `format("%00d", 5)`, `format("%t", t)`, `format("%q", s)`,
	// other functions
	`floor(n / 2)`, `ceil(half)`, `lookup(m, "a", 0)`, `lookup(m, "z", 5)`, `lookup(m, "z")`, `range(n)`,
	`range(3, 0, -1)`, `range(0, 1, 0)`, `range(100000)`, `min(n, 3, neg)`, `max()`, `merge({a = 1}, {b = s})`,
	`merge([{a = 1}, {b = 2}]...)`, `length(list)`, `length(nul)`, `tostring(n)`, `tolist(["a", n])`,
	`try(nope, 3)`, `can(nope)`, `nope(1)`, `upper(s, s)`, `join(",", list)`, `join(",", ["a", 1])`,
	`ports("swp1-4")`, `cidrhost("10.0.0.0/24", n)`, `keys(hosts)`,
	// range and merge, computed natively
	`range(0)`, `range(neg)`, `range(2, 5)`, `range(5, 2)`, `range(n, n)`, `range(half)`, `range(1024)`,
	`range(1025)`, `range(-1025)`, `range("3")`, `range(nul)`, `range(unknown)`, `range(secret)`, `range(big)`,
	`range(neg, n)`, `range()`, `merge()`, `merge({a = 1}, {a = "x"})`, `merge(m, {b = 2})`, `merge({a = 1}, null)`,
	`merge(hosts, {h01 = 1})`, `merge({a = 1}, secretlist[0])`, `merge({a = secret})`, `merge({a = unknown})`,
	`merge(list)`, `merge({a = 1}, nul)`, `merge(hosts.h01, hosts.h02, {n = s})`,
	// an expanded last argument
	`merge([for k, h in hosts : {(k) = h.n}]...)`, `merge(nul...)`, `merge(dyn...)`, `merge(unknown...)`,
	`merge(tuple...)`, `merge({x = 1}, [{a = 1}, {x = 2}]...)`, `min([3, 1, n]...)`, `min(list...)`,
	`max(tolist([1, 2])...)`, `format("%s-%s", list...)`, `format(list...)`, `merge(secretlist...)`,
	`merge(toset([{a = 1}])...)`, `range([3]...)`, `range([]...)`, `upper([]...)`, `upper(["a", "b"]...)`,
	`merge([for k, h in hosts : {(k) = h.nope}]...)`, `merge([nope]...)`, `merge([{a = 1}, nul]...)`,
	`range([n, 2]...)`, `merge([{a = 1}]...).a`, `lookup([m, "a"]...)`, `merge(nope, [nope]...)`,
	`merge({a = [for k, h in hosts : h.n]}, [for k, h in hosts : {(k) = h.os}]...)`, `merge(nope, nul...)`,
	`merge({a = format("%s", nope)}, [{b = 1}]...)`, `merge({a = [for k, h in hosts : h.n]}, nul...)`, `merge([for k, h in hosts : h]...)`,
	// traversals and indexes
	`hosts.h01.n`, `hosts["h01"].os`, `hosts.h01["os"]`, `list[1]`, `list[5]`, `list[-1]`, `list[0.5]`, `list["1"]`,
	`m["a"]`, `m.a`, `m["z"]`, `m.z`, `hosts[n]`, `hosts.h01.nope`, `list[0].x`, `nul.x`, `nul[0]`, `dyn[0]`, `dyn.x`,
	`unknown[0]`, `secret[0]`, `secretlist[0]`, `secretlist[0].x`, `[1, 2, 3][1]`, `{a = 1}["a"]`, `{a = 1}.a`,
	`[{a = 1}][0].a`, `tuple[1]`, `tuple[2]`, `hosts[s]`, `list[nul]`, `list[unknown]`, `hosts.h01[0]`, `nope[0]`,
	`hosts.h01.n + list[0]`, `format("%s", hosts.h02.os)`, `"${hosts.h03.os}"`, `list[n - 6]`, `list[n]`,
	`tuple[n - 6]`, `m[s]`, `hosts[format("h%02d", n)].os`, `hosts[format("h%02d", n)]["os"]`, `list[secret - 3]`,
	`(hosts).h01.n`, `[for k, h in hosts : h][n].n`, `(t ? hosts : {}).h01`, `(list)[n - 7]`, `(m).b`,
	// literal strings: plain, empty, escaped interpolation, not yet in NFC
	`"25G"`, `""`, `"a$${b}%%{c}"`, `"e\u0301"`, "\"e\u0301\"", `"x" == s ? "" : "y"`,
	// nested, inside for expressions and templates
	`[for k, h in hosts : format("%s-%02d", h.os, h.n % 16 == 15 ? 0 : h.n) if h.n % 2 == 0]`,
	`{for k, h in hosts : format("%s:roce%d", k, h.n % 2) => h.os == "windows" ? format("SLOT 2 Port %d", h.n + 1) : format("ens1f%dnp%d", h.n, h.n)}`,
	`"${s}-${format("%03d", n)}-${n % 2 == 0 ? "even" : "odd"}"`,
	`[for k, h in hosts : h.n == 13 ? h.nope : format("%d", h.n)]`,
	`[for k, h in hosts : format("%d", h.n == 20 ? half : h.n)]`,
}

// TestNativeSame evaluates every case with the native nodes and through
// HCL alone, under a limit each case stays within and one it crosses,
// and requires the same value, diagnostics and count.
func TestNativeSame(t *testing.T) {
	vars := nativeVars()
	for _, src := range nativeCases {
		for _, values := range []int64{1_000_000, 25} {
			t.Run(fmt.Sprintf("%s/%d", src, values), func(t *testing.T) {
				limits := Limits{Values: values, StringBytes: 1 << 20, Ports: MaxPorts}
				plain := evalBothWays(t, src, vars, limits, false)
				native := evalBothWays(t, src, vars, limits, true)
				sameEvaluation(t, "HCL", plain, "native", native)
			})
		}
	}
}

// TestNativeNodes checks that the cases reach the native nodes: a
// rewrite that wrapped nothing would make TestNativeSame pass trivially.
func TestNativeNodes(t *testing.T) {
	kinds := map[string]int{}
	for _, src := range nativeCases {
		body, _ := nativeBody(t, src, newBudget(LargeLimits), true)
		hclsyntax.VisitAll(body.Attributes["x"].Expr, func(n hclsyntax.Node) hcl.Diagnostics {
			switch n.(type) {
			case *nativeBinary, *nativeConditional, *nativeCall, *nativeIndex, *nativeRelative, *nativeLiteral:
				kinds[fmt.Sprintf("%T", n)]++
			}
			return nil
		})
	}
	for _, k := range []string{"*dsl.nativeBinary", "*dsl.nativeConditional", "*dsl.nativeCall", "*dsl.nativeIndex", "*dsl.nativeRelative", "*dsl.nativeLiteral"} {
		if kinds[k] < 10 {
			t.Errorf("only %d %s nodes in the cases: %v", kinds[k], k, kinds)
		}
	}
}

// TestNativeFormat pins the direct formatter to cty's format function:
// the same text for what it takes, and no answer for what it leaves to
// cty.
func TestNativeFormat(t *testing.T) {
	for _, c := range []struct {
		spec string
		args []cty.Value
		want string // "" when nativeFormat must leave it to cty
	}{
		{"leaf%04d", []cty.Value{cty.NumberIntVal(7)}, "leaf0007"},
		{"%s:%s", []cty.Value{cty.StringVal("leaf1"), cty.StringVal("swp1")}, "leaf1:swp1"},
		{"%d%%|%3d", []cty.Value{cty.NumberIntVal(50), cty.NumberIntVal(4)}, "50%|  4"},
		{"10.%d.%d.%d/24", []cty.Value{cty.NumberIntVal(16), cty.NumberIntVal(255), cty.NumberIntVal(41)}, "10.16.255.41/24"},
		{"%d", []cty.Value{cty.NumberFloatVal(1.5)}, ""},
		{"%d", []cty.Value{cty.NumberIntVal(-1)}, ""},
		{"%s", []cty.Value{cty.NumberIntVal(1)}, ""},
		{"%5s", []cty.Value{cty.StringVal("x")}, ""},
		{"%s", nil, ""},
		{"x", []cty.Value{cty.StringVal("y")}, ""},
		{"%123d", []cty.Value{cty.NumberIntVal(1)}, ""},
	} {
		args := append([]cty.Value{cty.StringVal(c.spec)}, c.args...)
		got, ok := nativeFormat(args)
		if c.want == "" {
			if ok {
				t.Errorf("format(%q, %v) was formatted natively as %#v; it must go to cty", c.spec, c.args, got)
			}
			continue
		}
		want, err := Functions()["format"].Call(args)
		if err != nil || want.AsString() != c.want {
			t.Fatalf("cty's format(%q) = %#v, %v; the case expects %q", c.spec, want, err, c.want)
		}
		if !ok || !got.RawEquals(want) {
			t.Errorf("format(%q, %v) = %#v, %v; cty gives %#v", c.spec, c.args, got, ok, want)
		}
	}
}

// TestNativeSameFabrics loads every fabric of the repository with the
// native nodes and through HCL alone, and requires the same Config, the
// same diagnostics and the same budget count.
func TestNativeSameFabrics(t *testing.T) {
	for _, path := range fabricPaths(t) {
		t.Run(path, func(t *testing.T) {
			native, _, nd := Load(path, Options{})
			counted := [2]int64{lastBudget.Load().values.Load(), lastBudget.Load().bytes.Load()}
			plainEvaluation = true
			defer func() { plainEvaluation = false }()
			plain, _, pd := Load(path, Options{})
			if d := cmp.Diff(plain, native); d != "" {
				t.Errorf("Config differs (-HCL +native):\n%s", d)
			}
			if w, g := diagText(SortDiagnostics(pd)), diagText(SortDiagnostics(nd)); w != g {
				t.Errorf("diagnostics differ:\nHCL:    %s\nnative: %s", w, g)
			}
			if plainCount := [2]int64{lastBudget.Load().values.Load(), lastBudget.Load().bytes.Load()}; plainCount != counted {
				t.Errorf("budget: HCL counted %v, native %v", plainCount, counted)
			}
		})
	}
}

// evalBothWays evaluates src as an attribute under limits, with the
// native nodes or through HCL alone.
func evalBothWays(t *testing.T, src string, vars map[string]cty.Value, limits Limits, native bool) evaluation {
	t.Helper()
	work := newBudget(limits)
	body, fns := nativeBody(t, src, work, native)
	ctx := &hcl.EvalContext{Variables: vars, Functions: fns}
	v, d := body.Attributes["x"].Expr.Value(ctx)
	renameBudgetErrors(d)
	return evaluation{v, d, [2]int64{work.values.Load(), work.bytes.Load()}}
}

// nativeBody parses src into an attribute rewritten as Load rewrites
// one, with the native nodes when native is set, and the function table
// to evaluate it with.
func nativeBody(t *testing.T, src string, work *budget, native bool) (*hclsyntax.Body, map[string]function.Function) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags)
	}
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{"x": {Name: "x", Expr: expr}}}
	chargeBodies([]hcl.Body{body}, work)
	raw := Functions()
	fns := boundedFunctions(raw, work)
	if native {
		nativeExprs([]hcl.Body{body}, fns, raw, work)
	}
	return body, fns
}

// FuzzNativeSame is the differential check of the native nodes: for any
// expression, over the same variables, they must give what HCL alone
// gives.
func FuzzNativeSame(f *testing.F) {
	for _, s := range nativeCases {
		f.Add(s)
	}
	vars := nativeVars()
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2048 || strings.Count(src, "range") > 1 {
			return // nested ranges over the fuzzer's numbers are slow, not interesting
		}
		if diags := checkTokens([]byte(src), "t.hcl"); diags.HasErrors() {
			return
		}
		if _, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos); diags.HasErrors() {
			return
		}
		limits := Limits{Values: 5000, StringBytes: 1 << 16, Ports: MaxPorts}
		plain, native := evalBothWays(t, src, vars, limits, false), evalBothWays(t, src, vars, limits, true)
		dropSuggestions(plain.diags)
		dropSuggestions(native.diags)
		sameEvaluation(t, "HCL", plain, "native", native)
	})
}

// dropSuggestions removes HCL's "Did you mean" from errors about unknown
// names: among names equally close to a misspelling HCL picks one in map
// order, so the suggestion can differ between two runs of HCL alone.
func dropSuggestions(diags hcl.Diagnostics) {
	for _, d := range diags {
		if i := strings.Index(d.Detail, " Did you mean"); i >= 0 {
			d.Detail = d.Detail[:i]
		}
	}
}

// TestNativeFunctions pins the natives to the cty functions they stand
// for: the same value, RawEquals (number precision included), for every
// argument list a native answers, and an answer for the ones a fabric
// uses, so that a native that always declined would fail here.
func TestNativeFunctions(t *testing.T) {
	num := cty.NumberIntVal
	obj := func(kv ...any) cty.Value {
		m := map[string]cty.Value{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(cty.Value)
		}
		return cty.ObjectVal(m)
	}
	nested := obj("leaf", cty.StringVal("leaf0001"), "ports", cty.ListVal([]cty.Value{cty.StringVal("swp1")}))
	for _, c := range []struct {
		name   string
		args   []cty.Value
		native bool // the native must answer
	}{
		{"range", []cty.Value{num(3)}, true},
		{"range", []cty.Value{num(0)}, true},
		{"range", []cty.Value{num(-4)}, true},
		{"range", []cty.Value{num(1), num(49)}, true},
		{"range", []cty.Value{num(49), num(1)}, true},
		{"range", []cty.Value{cty.MustParseNumberVal("2"), num(6)}, true},
		{"range", []cty.Value{num(1024)}, true},
		{"range", []cty.Value{num(-1024)}, true},
		{"range", []cty.Value{num(1025)}, false},
		{"range", []cty.Value{cty.NumberFloatVal(2.5)}, false},
		{"range", []cty.Value{num(0), num(10), num(2)}, false},
		{"range", []cty.Value{cty.MustParseNumberVal("1e40")}, false},
		{"merge", nil, true},
		{"merge", []cty.Value{obj("a", num(1)), obj("a", cty.StringVal("x"), "b", nested)}, true},
		{"merge", []cty.Value{obj("h0001-00", nested), obj("h0001-01", nested)}, true},
		{"merge", []cty.Value{obj("a", cty.UnknownVal(cty.String)), obj("b", num(1).Mark("x"))}, true},
		{"merge", []cty.Value{cty.EmptyObjectVal, cty.EmptyObjectVal}, true},
		{"merge", []cty.Value{cty.MapVal(map[string]cty.Value{"a": num(1)}), obj("b", num(2))}, false},
		{"merge", []cty.Value{obj("a", num(1)), cty.NullVal(cty.EmptyObject)}, false},
	} {
		ok := sameAsCty(t, c.name, c.args)
		if ok != c.native {
			t.Errorf("%s%#v: native answered %v, want %v", c.name, c.args, ok, c.native)
		}
	}
}

// sameAsCty calls the native for name and cty's function with args, and
// fails t when the native answers anything but cty's value; it reports
// whether the native answered.
func sameAsCty(t *testing.T, name string, args []cty.Value) bool {
	t.Helper()
	want, err := Functions()[name].Call(args)
	got, ok := natives[name](args)
	switch {
	case ok && err != nil:
		t.Errorf("%s%#v: native answered %#v where cty fails: %v", name, args, got, err)
	case ok && !want.RawEquals(got):
		t.Errorf("%s%#v:\nnative %#v\ncty    %#v", name, args, got, want)
	}
	return ok
}

// FuzzNativeFunctions compares range and merge with cty's on arguments
// made from the fuzzer's numbers and names: whole and fractional bounds
// either way round, and objects whose attributes overlap.
func FuzzNativeFunctions(f *testing.F) {
	f.Add(int64(3), int64(-2), 0.5, "a,b,a,c", uint8(3))
	f.Add(int64(1), int64(49), 0.0, "leaf0001,leaf0002", uint8(2))
	f.Add(int64(-1024), int64(1025), 1e40, "", uint8(0))
	f.Fuzz(func(t *testing.T, a, b int64, frac float64, names string, n uint8) {
		num := cty.NumberIntVal
		if math.IsNaN(frac) || math.IsInf(frac, 0) {
			frac = 0.5 // cty has no number for these
		}
		fl := cty.NumberFloatVal(float64(a) + frac)
		// cty's range stops with an error after 1,024 numbers, so any
		// bounds are quick.
		for _, args := range [][]cty.Value{{num(a)}, {num(a), num(b)}, {fl}, {num(b), fl}, {num(a), num(b), num(1)}} {
			sameAsCty(t, "range", args)
		}
		var objs []cty.Value
		keys := strings.Split(names, ",")
		for i := 0; i < int(n%8); i++ {
			attrs := map[string]cty.Value{}
			for j, k := range keys {
				if (i+j)%3 != 2 {
					attrs[k] = []cty.Value{num(int64(i)), cty.StringVal(k), cty.ListVal([]cty.Value{num(a)})}[(i+j)%3]
				}
			}
			objs = append(objs, cty.ObjectVal(attrs))
		}
		sameAsCty(t, "merge", objs)
	})
}

// TestLiteralDivisor requires a % by a literal whole number within an
// int32 other than 0 to read its divisor once, and any other % to leave
// it to binary: TestNativeSame's % cases then check its values.
func TestLiteralDivisor(t *testing.T) {
	for src, want := range map[string]int64{
		`n % 16`: 16, `n % 3`: 3, `n % 0`: 0, `n % -3`: 0, `n % 2.5`: 0, `n % half`: 0,
		`n % 2147483649`: 0, `n + 16`: 0, `n % 2147483647`: 2147483647,
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags)
		}
		if got := newNativeBinary(expr.(*hclsyntax.BinaryOpExpr)).divisor; got != want {
			t.Errorf("%s: divisor %d, want %d", src, got, want)
		}
	}
}
