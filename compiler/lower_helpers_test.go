package compiler

import (
	"fmt"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// lowerFile mirrors the top-level blocks of dsl.Config for decoding test
// input without dsl.Load.
type lowerFile struct {
	Fabric   *dsl.Fabric  `hcl:"fabric,block"`
	QoS      *dsl.QoS     `hcl:"qos,block"`
	VLANs    []dsl.VLAN   `hcl:"vlan,block"`
	Switches []dsl.Switch `hcl:"switch,block"`
	Hosts    []dsl.Host   `hcl:"host,block"`
	Links    []dsl.Link   `hcl:"link,block"`
}

// parseFabric decodes HCL source into a dsl.Config, failing the test on
// syntax or schema errors.
func parseFabric(t *testing.T, src string) *dsl.Config {
	t.Helper()
	f, diags := hclparse.NewParser().ParseHCL([]byte(src), "test.hcl")
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	var lf lowerFile
	if diags := dsl.DecodeBody(f.Body, nil, &lf); diags.HasErrors() {
		t.Fatalf("decode: %v", diags)
	}
	return &dsl.Config{Fabric: lf.Fabric, QoS: lf.QoS, VLANs: lf.VLANs, Switches: lf.Switches, Hosts: lf.Hosts, Links: lf.Links}
}

// lowerSrc parses and lowers src, returning the model, sources and the
// diagnostics in compact form: "LINE:COL: SUMMARY: DETAIL", each related
// place on its own line as "  note LINE:COL: LABEL".
func lowerSrc(t *testing.T, src string) (*model.Fabric, Sources, []string) {
	t.Helper()
	f, s, diags := lower(parseFabric(t, src))
	return f, s, compactDiags(diags)
}

// compactDiags renders diagnostics one per line (related places indented).
func compactDiags(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		at := "-"
		if d.Subject != nil {
			at = fmt.Sprintf("%d:%d", d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, fmt.Sprintf("%s: %s: %s", at, d.Summary, d.Detail))
		for _, r := range dsl.RelatedOf(d) {
			out = append(out, fmt.Sprintf("  note %d:%d: %s", r.Range.Start.Line, r.Range.Start.Column, r.Label))
		}
	}
	return out
}

// mustLower lowers src and fails the test on any diagnostic.
func mustLower(t *testing.T, src string) (*model.Fabric, Sources) {
	t.Helper()
	f, s, diags := lowerSrc(t, src)
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", joinLines(diags))
	}
	return f, s
}

// joinLines joins lines for messages.
func joinLines(lines []string) string {
	out := ""
	for _, l := range lines {
		out += l + "\n"
	}
	return out
}

// minimalFabric is a complete one-switch, one-host fabric; tests append
// blocks to it or replace it.
const minimalFabric = `
fabric "lab" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"
  port "swp1-4" {
    speed = "100G"
    vlans = [100]
  }
}

host "gpu01" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0"
    vlan      = 100
    addresses = ["192.168.100.11/24"]
  }
}

link {
  a      = "gpu01:roce0"
  b      = "leaf1:swp2"
  length = 3
}
`
