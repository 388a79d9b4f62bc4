package modeltest_test

import (
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
	"github.com/google/go-cmp/cmp"
)

// compiled compiles a one-switch, one-host fabric on the default
// ("nvidia-roce") profile and returns the model.
func compiled(t *testing.T) *model.Fabric {
	t.Helper()
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	cfg := &dsl.Config{
		Fabric: &dsl.Fabric{Name: "t"},
		VLANs:  []dsl.VLAN{{Name: "rdma", ID: 100}},
		Switches: []dsl.Switch{{Name: "leaf1", Platform: "onyx", Model: "SN2700", OSVersion: str("3.10.4006"),
			Ports: []dsl.Port{{Spec: "1/1", Speed: str("100G"), Mode: str("trunk"), VLANs: []int{100}}}}},
		Hosts: []dsl.Host{{Name: "h1", OS: "linux", NICs: []dsl.NIC{{Name: "roce0", Model: "ConnectX-6 Dx",
			Interface: "ens1f0", Speed: str("100G"), MTU: num(9000), VLAN: num(100), Addresses: []string{"10.0.0.1/24"}}}}},
		Links: []dsl.Link{{A: "leaf1:1/1", B: "h1:roce0", Length: 3, Cable: str("dac")}},
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("test fabric does not compile: %v", diags)
	}
	return f
}

// TestMatchesCompiler keeps the builders equal to what the compiler
// resolves for the "nvidia-roce" profile, so target tests built on them
// test the model the compiler really produces.
func TestMatchesCompiler(t *testing.T) {
	f := compiled(t)
	if diff := cmp.Diff(f.QoS, modeltest.NVIDIARoCEQoS()); diff != "" {
		t.Errorf("NVIDIARoCEQoS differs from the compiled profile (-compiled +modeltest):\n%s", diff)
	}
	if diff := cmp.Diff(f.Hosts[0].NICs[0].RoCE, modeltest.NVIDIARoCE()); diff != "" {
		t.Errorf("NVIDIARoCE differs from the compiled NIC (-compiled +modeltest):\n%s", diff)
	}
	pg := f.Switches[0].Ports[0].PriorityGroups
	if len(pg) != 2 {
		t.Fatalf("compiled port has %d priority groups, want 2", len(pg))
	}
	if diff := cmp.Diff(pg[0].Priorities, modeltest.LossyPriorities()); diff != "" {
		t.Errorf("LossyPriorities differ from the compiled lossy PG (-compiled +modeltest):\n%s", diff)
	}
	want := modeltest.LosslessPG(pg[1].Pool, pg[1].XoffBytes, pg[1].XonBytes, pg[1].SharedAlpha)
	want.Headroom = pg[1].Headroom
	if diff := cmp.Diff(pg[1], want); diff != "" {
		t.Errorf("LosslessPG differs from the compiled lossless PG (-compiled +modeltest):\n%s", diff)
	}
}

// TestFresh checks that callers cannot change each other's values.
func TestFresh(t *testing.T) {
	a := modeltest.NVIDIARoCEQoS()
	a.Classes[0].DSCP[0] = 99
	a.DSCPToPriority[0] = 7
	a.Classes[1].ECN.MinBytes = 1
	b := modeltest.NVIDIARoCEQoS()
	if b.Classes[0].DSCP[0] != 0 || b.DSCPToPriority[0] != 0 || b.Classes[1].ECN.MinBytes != 150000 {
		t.Errorf("NVIDIARoCEQoS shares state between calls: %+v", b)
	}
	r := modeltest.NVIDIARoCE()
	r.ETS[0].BandwidthPercent = 1
	if modeltest.NVIDIARoCE().ETS[0].BandwidthPercent != 50 {
		t.Error("NVIDIARoCE shares its ETS slice between calls")
	}
}

// TestPorts checks the port and cable builders' fields.
func TestPorts(t *testing.T) {
	got := modeltest.PFCTrunk("1/1", 100000, 9216, 2, 10)
	want := model.Port{Name: "1/1", SpeedMbps: 100000, MTU: 9216, Mode: model.ModeTrunk, TrunkVLANs: []int{2, 10},
		Trust: model.TrustDSCP, PFCPriorities: []int{3}, PFCWatchdog: true}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("PFCTrunk (-got +want):\n%s", diff)
	}
	lossy := modeltest.LossyPG("p", 10240, "8")
	if diff := cmp.Diff(lossy, model.PriorityGroup{Index: 0, Priorities: []int{0, 1, 2, 4, 5, 6, 7}, Pool: "p", SizeBytes: 10240, SharedAlpha: "8"}); diff != "" {
		t.Errorf("LossyPG (-got +want):\n%s", diff)
	}
	peer := modeltest.Cable("host", "h1", "roce0", 2.5, "dac")
	if diff := cmp.Diff(peer, &model.Peer{Kind: "host", Device: "h1", Port: "roce0", CableMeters: 2.5, CableKind: "dac"}); diff != "" {
		t.Errorf("Cable (-got +want):\n%s", diff)
	}
}
