package dsl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// loadBoth loads path with the fast decoder and the native nodes, and
// with the reference decoder (gohcl over dynblock) and HCL alone.
func loadBoth(t *testing.T, path string, opts Options) (fast, ref *Config, fd, rd hcl.Diagnostics) {
	t.Helper()
	fast, _, fd = Load(path, opts)
	if !fd.HasErrors() && !lastFast.Load() {
		t.Errorf("%s loads without errors, but the fast decoder gave up", path)
	}
	referenceDecoding, plainEvaluation = true, true
	defer func() { referenceDecoding, plainEvaluation = false, false }()
	ref, _, rd = Load(path, opts)
	return fast, ref, fd, rd
}

// fabricPaths are every fabric of the repository: the examples (the
// broken ones too), the command's and plan's test fabrics and the
// benchmark fabric.
func fabricPaths(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"../examples/*", "../examples/bad/*.hcl", "../cmd/fabricc/testdata/*", "../plan/testdata/*", "../bench/fabric"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			if st, err := os.Stat(p); err == nil && (st.IsDir() || strings.HasSuffix(p, ".hcl")) && p != "../examples/bad" {
				out = append(out, p)
			}
		}
	}
	if len(out) < 40 {
		t.Fatalf("found only %d fabrics: %v", len(out), out)
	}
	return out
}

// TestFastDecodeSame checks that the fast decoder gives the reference
// decoder's Config and diagnostics for every fabric of the repository.
func TestFastDecodeSame(t *testing.T) {
	for _, path := range fabricPaths(t) {
		t.Run(path, func(t *testing.T) {
			fast, ref, fd, rd := loadBoth(t, path, Options{})
			if d := cmp.Diff(ref, fast); d != "" {
				t.Errorf("Config differs (-reference +fast):\n%s", d)
			}
			if fmt.Sprint(SortDiagnostics(fd)) != fmt.Sprint(SortDiagnostics(rd)) {
				t.Errorf("diagnostics differ:\nfast %v\nreference %v", fd, rd)
			}
		})
	}
}

// TestFastDecodeCases covers what the repository's fabrics do not:
// nested dynamic blocks with their own and inherited iterators, a
// dynamic block over a list, a set and a map, conversions gohcl makes
// (a number written as a string, a string list from numbers, null for an
// optional attribute, an empty list) and mistakes the fast decoder hands
// to the reference decoder.
func TestFastDecodeCases(t *testing.T) {
	cases := map[string]string{
		"nested": `fabric "f" {}
locals { sw = { a = ["swp1", "swp2"], b = ["swp3"] } }
dynamic "switch" {
  for_each = local.sw
  iterator = s
  labels   = [s.key]
  content {
    platform = "cumulus"
    model    = "SN2700"
    dynamic "port" {
      for_each = toset(s.value)
      labels   = [port.value]
      content {
        speed       = "100G"
        description = format("%s on %s", port.key, s.key)
        mtu         = "9000"
        vlans       = []
        trust       = null
        lanes       = s.key == "a" ? 4 : null # hoisted: one value per switch
      }
    }
    override "swp1" {
      shutdown = s.key == "a"
    }
  }
}
dynamic "host" {
  for_each = ["h1", "h2"]
  labels = [host.value]
  content {
    os = "linux"
    nic "n" {
      model = "ConnectX-5"
      interface = "eth${host.key}"
      addresses = [host.key, 2]
      pfc_priorities = [3]
    }
  }
}
link {
  a = "a:swp1"
  b = "h1:n"
  length = 2.5
}
`,
		"unknown attribute": `fabric "f" {}
dynamic "vlan" {
  for_each = [1, 2]
  labels = ["v${vlan.value}"]
  content {
    id = vlan.value
    colour = "red"
  }
}
`,
		"label count":   `fabric "f" {}` + "\n" + `dynamic "vlan" {` + "\n" + `for_each = [1]` + "\n" + `content { id = 1 }` + "\n}\n",
		"bad for_each":  `fabric "f" {}` + "\n" + `dynamic "vlan" {` + "\n" + `for_each = 3` + "\n" + `labels = ["x"]` + "\n" + `content { id = 1 }` + "\n}\n",
		"bad type":      `fabric "f" {}` + "\n" + `vlan "v" { id = "ten" }` + "\n",
		"missing":       `fabric "f" {}` + "\n" + `vlan "v" {}` + "\n",
		"duplicate qos": `fabric "f" {}` + "\n" + `qos {}` + "\n" + `qos {}` + "\n",
		"two ecn":       `fabric "f" {}` + "\n" + `qos {` + "\n" + `class "c" {` + "\n" + `ecn {}` + "\n" + `ecn {}` + "\n}\n}\n",
		"null label":    `fabric "f" {}` + "\n" + `dynamic "vlan" {` + "\n" + `for_each = [null]` + "\n" + `labels = [vlan.value]` + "\n" + `content { id = 1 }` + "\n}\n",
		"failed value":  `fabric "f" {}` + "\n" + `vlan "v" { id = local.nope }` + "\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.hcl")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			fast, ref, fd, rd := loadBoth(t, path, Options{})
			if d := cmp.Diff(ref, fast); d != "" {
				t.Errorf("Config differs (-reference +fast):\n%s", d)
			}
			if fmt.Sprint(SortDiagnostics(fd)) != fmt.Sprint(SortDiagnostics(rd)) {
				t.Errorf("diagnostics differ:\nfast %v\nreference %v", fd, rd)
			}
			if name == "nested" && (fast == nil || len(fast.Switches) != 2 || len(fast.Switches[0].Ports) != 2 || len(fd) != 0) {
				t.Errorf("nested: want 2 switches, the first with 2 ports, no diagnostics; got %+v, %v", fast, fd)
			}
		})
	}
}

// TestFastDecodeBudget checks that both decoders charge the same work:
// a fabric that fits decodes fast, and the limit is crossed at the same
// place by both.
func TestFastDecodeBudget(t *testing.T) {
	work := func(path string, reference bool) int64 {
		referenceDecoding = reference
		defer func() { referenceDecoding = false }()
		lastBudget.Store(nil)
		Load(path, Options{})
		return lastBudget.Load().values.Load()
	}
	for _, path := range []string{"../examples/multivendor-clos", "../bench/fabric"} {
		if f, r := work(path, false), work(path, true); f != r || f == 0 {
			t.Errorf("%s: fast decoder charged %d values, reference %d", path, f, r)
		}
	}
}

// TestWhollyKnownSame: whollyKnown answers as cty's IsWhollyKnown for
// unknowns at every depth of every kind of collection, marked, null and
// dynamic values.
func TestWhollyKnownSame(t *testing.T) {
	unknown := cty.UnknownVal(cty.String)
	obj := func(v cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NumberIntVal(1), "z": v})
	}
	values := []cty.Value{
		cty.StringVal("x"), unknown, cty.DynamicVal, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType),
		unknown.Mark("secret"), cty.StringVal("x").Mark("secret"), cty.EmptyObjectVal, cty.EmptyTupleVal,
		obj(cty.StringVal("y")), obj(unknown), obj(obj(unknown)), obj(obj(cty.True)), obj(unknown.Mark("secret")),
		cty.ListVal([]cty.Value{obj(cty.StringVal("y")), obj(unknown)}), cty.ListVal([]cty.Value{cty.StringVal("y")}),
		cty.TupleVal([]cty.Value{cty.NumberIntVal(1), obj(obj(unknown))}), cty.TupleVal([]cty.Value{cty.NumberIntVal(1)}),
		cty.MapVal(map[string]cty.Value{"k": obj(unknown)}), cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		cty.SetVal([]cty.Value{cty.StringVal("a"), unknown}), cty.SetVal([]cty.Value{cty.StringVal("a")}),
		cty.UnknownVal(cty.List(cty.String)), cty.ListValEmpty(cty.String), cty.NullVal(cty.List(cty.String)),
		obj(cty.ListVal([]cty.Value{cty.StringVal("a"), unknown})).Mark("secret"),
	}
	for _, v := range values {
		if got, want := whollyKnown(v), v.IsWhollyKnown(); got != want {
			t.Errorf("whollyKnown(%#v) = %v, cty says %v", v, got, want)
		}
	}
}
