package compiler

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestDeviceDefaults checks the two device-default findings: a DSCP map
// Onyx would keep at its default (DSCP 8n..8n+7 -> switch priority n), and
// a CNP marking a NIC's driver cannot be told.
func TestDeviceDefaults(t *testing.T) {
	h1 := func(f *model.Fabric) *model.NIC { return &f.Hosts[0].NICs[0] }
	roce := func(f *model.Fabric) *model.Class { return &f.QoS.Classes[1] }
	tests := []struct {
		name   string
		mutate func(f *model.Fabric)
		want   []string
	}{
		{"RoCE DSCP outside its default block on Onyx", func(f *model.Fabric) { roce(f).DSCP = []int{26, 34} },
			[]string{"error|DSCP map Onyx keeps at its default|qos/class/roce/dscp|switch/leaf1/platform,switch/spine1/platform"}},
		{"the same map on Cumulus", func(f *model.Fabric) {
			roce(f).DSCP = []int{26, 34}
			for i := range f.Switches {
				f.Switches[i].Platform, f.Switches[i].Hardware.Model = model.PlatformCumulus, "SN2700"
			}
		}, nil},
		{"own CNP class on a Windows WinOF-2 NIC", func(f *model.Fabric) {
			f.Hosts[0].OS, h1(f).Driver = model.OSWindows, "winof2"
		}, []string{"warning|Windows RoCE DSCP not settable|host/h1/nic/roce0/dscp|switch/leaf1/port/1/1/trust", "warning|CNP marking not settable|host/h1/nic/roce0/cnp_dscp|qos"}},
		{"own CNP class on ConnectX-3 with MLNX_OFED", func(f *model.Fabric) {
			h1(f).Model = "ConnectX-3 Pro"
		}, []string{"warning|CNP marking not settable|host/h1/nic/roce0/cnp_dscp|qos"}},
		{"own CNP class on Linux MLNX_OFED (sysfs)", func(f *model.Fabric) {}, nil},
		{"own CNP class on Linux inbox (debugfs)", func(f *model.Fabric) { h1(f).Driver = "inbox" }, nil},
		{"own CNP class on FreeBSD mlx5en (sysctl)", func(f *model.Fabric) {
			f.Hosts[0].OS, h1(f).Driver = model.OSFreeBSD, "mlx5en"
		}, nil},
		// The port trusts DSCP, which the WinOF-2 script cannot set.
		{"default CNP marking on Windows", func(f *model.Fabric) { f.Hosts[0].OS, h1(f).Driver = model.OSWindows, "winof2" }, []string{"warning|Windows RoCE DSCP not settable|host/h1/nic/roce0/dscp|switch/leaf1/port/1/1/trust"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFabric()
			src := testSources(f)
			if strings.Contains(tt.name, "own CNP") {
				withOwnCNP(f) // a fabric CNP class of DSCP 46, priority 5
			}
			tt.mutate(f)
			if diff := cmp.Diff(tt.want, runChecks(t, f, src)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// withOwnCNP moves testQoS's CNP class to DSCP 46, priority 5 (still
// TC6) and makes every NIC mark its CNPs that way.
func withOwnCNP(f *model.Fabric) {
	q := &f.QoS
	q.Classes[0].Priorities = []int{0, 1, 2, 4, 6, 7}
	q.Classes[2].Priority, q.Classes[2].Priorities, q.Classes[2].DSCP, q.Classes[2].MarkDSCP = 5, []int{5}, []int{46}, 46
	q.DSCPToPriority[48], q.DSCPToPriority[46] = 0, 5
	q.PriorityToTC[6], q.PriorityToTC[5] = 0, 6
	for i := range f.Hosts {
		for j := range f.Hosts[i].NICs {
			f.Hosts[i].NICs[j].RoCE.CNPDSCP, f.Hosts[i].NICs[j].RoCE.CNPPriority = 46, 5
		}
	}
}

// TestDeviceDefaultsText pins the two messages' wording.
func TestDeviceDefaultsText(t *testing.T) {
	f := testFabric()
	src := testSources(f)
	f.QoS.Classes[1].DSCP = []int{26, 34}
	f.Hosts[0].OS, f.Hosts[0].NICs[0].Driver = model.OSWindows, "winof2"
	withOwnCNP(f)
	diags := append(applyPhysics(f, src), check(f, src)...)
	want := map[string]string{
		"DSCP map Onyx keeps at its default": "Onyx switch leaf1, spine1 classifies DSCP with Onyx's default map (DSCP 8n..8n+7 -> switch priority n; no public Onyx document gives the command that changes it), which differs from the fabric's: DSCP 34 of class roce would land in class default. Give each class the whole blocks of eight DSCP values of its priorities (a class on priority 3 takes DSCP 24-31), or trust PCP on those switches' ports.",
		"CNP marking not settable":           "NIC h1:roce0 (ConnectX-5, driver winof2 on windows) must mark its congestion notification packets DSCP 46 priority 5, but its driver has no setting fabricc can write, so it keeps the firmware default DSCP 48 priority 6 (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1). Set those two firmware values with mlxconfig (then reset the adapter), or give the fabric's cnp class DSCP 48 and priority 6.",
	}
	got := map[string]string{}
	for _, d := range diags {
		if _, ok := want[d.Summary]; ok {
			got[d.Summary] = d.Detail
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
	for _, d := range diags {
		if strings.HasPrefix(d.Summary, "CNP") && d.Severity != hcl.DiagWarning {
			t.Errorf("%s is not a warning", d.Summary)
		}
	}
}

// TestCNPMarkingWithoutCNPClass: with no CNP class, a NIC keeps the
// firmware marking unless its cnp_dscp and cnp_priority are written (here
// as the RoCE class's); the warning says they were written and how to
// add a CNP class, and points at the qos block as the block naming none.
func TestCNPMarkingWithoutCNPClass(t *testing.T) {
	f := testFabric()
	src := testSources(f)
	f.QoS.CNPClass = ""
	f.Hosts[0].OS, f.Hosts[0].NICs[0].Driver = model.OSWindows, "winof2"
	for i := range f.Hosts {
		for j := range f.Hosts[i].NICs {
			f.Hosts[i].NICs[j].RoCE.CNPDSCP, f.Hosts[i].NICs[j].RoCE.CNPPriority = 26, 3
		}
	}
	var got []string
	for _, d := range append(applyPhysics(f, src), check(f, src)...) {
		if d.Summary == "CNP marking not settable" {
			got = append(got, d.Detail)
			for _, r := range dsl.RelatedOf(d) {
				got = append(got, "related: "+r.Label)
			}
		}
	}
	want := []string{`NIC h1:roce0 (ConnectX-5, driver winof2 on windows) must mark its congestion notification packets DSCP 26 priority 3 (its written cnp_dscp and cnp_priority: the fabric has no CNP class), but its driver has no setting fabricc can write, so it keeps the firmware default DSCP 48 priority 6 (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1). Set those two firmware values with mlxconfig (then reset the adapter), or add a class for CNPs with the firmware's marking and name it in qos, e.g. class "cnp" { priority = 6, dscp = [48], strict = true } and cnp_class = "cnp".`,
		"related: the qos block, which names no cnp_class"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestOnyxMismatchesByLanding: the Onyx DSCP-map error groups a class's
// stray DSCP values by the class each lands in under Onyx's default map
// (DSCP 8n..8n+7 -> priority n), marks lossless and strict classes,
// writes runs of three or more as ranges, and names every class
// involved, each class before the classes its values land in.
func TestOnyxMismatchesByLanding(t *testing.T) {
	class := func(name string, prios, dscp []int, lossless, strict bool) model.Class {
		c := model.Class{Name: name, Priorities: prios, DSCP: dscp, Lossless: lossless, ETS: model.ETS{Mode: model.ETSWRR}}
		if strict {
			c.ETS.Mode = model.ETSStrict
		}
		return c
	}
	// The review's fabric: one DSCP each, the default class the rest.
	var rest []int
	for d := 0; d < 64; d++ {
		if d != 10 && d != 26 && d != 34 && d != 48 && d != 56 {
			rest = append(rest, d)
		}
	}
	for _, tc := range []struct {
		name          string
		q             model.QoS
		wrong, blamed []string
	}{
		{"default spans several owners", model.QoS{Classes: []model.Class{
			class("default", []int{0, 2, 5}, rest, false, false),
			class("nvmetcp", []int{1}, []int{10}, false, false),
			class("storage", []int{3}, []int{26}, true, false),
			class("compute", []int{4}, []int{34}, true, false),
			class("cnp", []int{6}, []int{48}, false, true),
			class("cluster", []int{7}, []int{56}, false, false),
		}}, []string{
			"DSCP 8,9,11-15 of class default would land in class nvmetcp; 24,25,27-31 in class storage (lossless); 32,33,35-39 in class compute (lossless); 49-55 in class cnp (strict); 57-63 in class cluster",
		}, []string{"default", "nvmetcp", "storage", "compute", "cnp", "cluster"}},
		{"values written out of order, a lossless strict class", model.QoS{Classes: []model.Class{
			class("default", []int{0, 2, 4, 5, 7}, []int{0, 1, 2, 3, 4, 5, 6, 7}, false, false),
			class("bulk", []int{1}, []int{24, 8, 9, 10, 11, 12, 13, 14, 15}, false, false),
			class("roce", []int{3}, []int{34, 26, 33, 25, 27, 28, 29, 30, 31}, true, true),
			class("cnp", []int{6}, []int{48, 49, 50, 51, 52, 53, 54, 55}, false, true),
		}}, []string{
			"DSCP 24 of class bulk would land in class roce (lossless, strict)",
			"DSCP 33,34 of class roce would land in class default",
		}, []string{"bulk", "roce", "roce", "default"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wrong, blamed := onyxMismatches(tc.q)
			if d := cmp.Diff(tc.wrong, wrong); d != "" {
				t.Errorf("text (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.blamed, blamed); d != "" {
				t.Errorf("classes (-want +got):\n%s", d)
			}
		})
	}
}
