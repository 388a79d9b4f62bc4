package dsl

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDCQCNDecodes: the qos block's dcqcn block decodes each written
// parameter with its place, in the block's order, and leaves the others
// unwritten.
func TestDCQCNDecodes(t *testing.T) {
	dir := writeFabric(t, map[string]string{"a.hcl": `fabric "f" {}
qos {
  dcqcn {
    rpg_min_rate    = 1000
    rpg_min_dec_fac = 25
  }
}
`})
	cfg, _, diags := Load(dir, Options{})
	if diags.HasErrors() {
		t.Fatalf("Load: %s", compact(t, dir, diags))
	}
	if cfg.QoS == nil || cfg.QoS.DCQCN == nil {
		t.Fatal("no qos dcqcn block decoded")
	}
	var got []string
	for _, v := range cfg.QoS.DCQCN.Written() {
		got = append(got, v.Name+"="+strconv.Itoa(v.Value)+"@"+strconv.Itoa(v.Range.HCL().Start.Line)+":"+strconv.Itoa(v.Range.HCL().Start.Column))
	}
	want := []string{"rpg_min_dec_fac=25@5:23", "rpg_min_rate=1000@4:23"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Written (-want +got):\n%s", d)
	}
}

// TestDCQCNUnknownNameListsKnown: a name the dcqcn block does not take is
// an error at it that names every one it takes (and HCL's suggestion).
func TestDCQCNUnknownNameListsKnown(t *testing.T) {
	dir := writeFabric(t, map[string]string{"a.hcl": "fabric \"f\" {}\nqos {\n  dcqcn {\n    rpg_ai_rat = 5\n  }\n}\n"})
	cfg, _, diags := Load(dir, Options{})
	if cfg != nil {
		t.Errorf("Load returned a config despite errors")
	}
	want := "a.hcl:4:5: error: Unsupported argument: An argument named \"rpg_ai_rat\" is not expected here. " +
		"A dcqcn block takes dce_tcp_g, dce_tcp_rtt, initial_alpha_value, rate_to_set_on_first_cnp, rpg_min_dec_fac, rpg_min_rate, rate_reduce_monitor_period " +
		"(MLNX_OFED's names; docs/language.md, \"DCQCN parameters\").\n"
	if d := cmp.Diff(strings.Split(want, "\n"), strings.Split(compact(t, dir, diags), "\n")); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}

// TestDCQCNHintOnlyInDCQCN: an unknown argument elsewhere gets no list of
// the dcqcn block's names.
func TestDCQCNHintOnlyInDCQCN(t *testing.T) {
	dir := writeFabric(t, map[string]string{"a.hcl": "fabric \"f\" {}\nqos {\n  rpg_min_rate = 5\n}\n"})
	_, _, diags := Load(dir, Options{})
	if got := compact(t, dir, diags); strings.Contains(got, "dcqcn block takes") {
		t.Errorf("diagnostics name the dcqcn parameters outside a dcqcn block:\n%s", got)
	}
}
