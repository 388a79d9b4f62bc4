package push

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// cabledPorts are the first two ports of sw the model cables.
func cabledPorts(t *testing.T, sw *model.Switch) (a, b string) {
	t.Helper()
	var ports []string
	for _, p := range sw.Ports {
		if p.Peer != nil {
			ports = append(ports, p.Name)
		}
	}
	if len(ports) < 2 {
		t.Fatalf("%s has %d cabled ports", sw.Name, len(ports))
	}
	return ports[0], ports[1]
}

// TestCablingOnlyVerify: on a switch with two cables swapped, push (with
// Options.Cabling set) applies and confirms without reading LLDP, since
// its read-back judges its own change; verify reads the neighbors and
// reports both ports as differences, and the switch as a mismatch.
func TestCablingOnlyVerify(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		t.Run(string(sw.Platform), func(t *testing.T) {
			a, b := cabledPorts(t, sw)
			l := startLabWith(t, sw, func(o *sim.Options) {
				o.Neighbors = sim.LabNeighbors(f, sw)
				o.Miscable(a, b)
			})
			cfg := config(t, set, sw)
			neighbors := Vendors[sw.Platform].Neighbors
			p := l.runWith(t, Options{Action: ActionPush, Fabric: f, Cabling: true}, sw, cfg)
			if p.Status != StatusChanged || !p.Verified || p.Cabling != nil || slices.Contains(p.Commands, neighbors) {
				t.Fatalf("push: status %s, verified %v, cabling %+v, error %q", p.Status, p.Verified, p.Cabling, p.Error)
			}
			v := l.runWith(t, Options{Action: ActionVerify, Fabric: f, Cabling: true}, sw, cfg)
			if v.Status != StatusMismatch || v.Verified || !slices.Contains(v.Commands, neighbors) {
				t.Fatalf("verify: status %s, verified %v, commands %q", v.Status, v.Verified, v.Commands)
			}
			var got []string
			for _, d := range v.Differences {
				got = append(got, d.Port+" "+d.Field)
			}
			if want := []string{a + " neighbor", b + " neighbor"}; !slices.Equal(got, want) {
				t.Errorf("differences %v, want %v", v.Differences, want)
			}
			if v.Cabling == nil || v.Cabling.Differ != 2 || v.Cabling.Matched != v.Cabling.Cabled-2 {
				t.Errorf("cabling %+v", v.Cabling)
			}
			// Without Options.Cabling verify reads no LLDP.
			if n := l.runWith(t, Options{Action: ActionVerify, Fabric: f}, sw, cfg); n.Status != StatusVerified || n.Cabling != nil || slices.Contains(n.Commands, neighbors) {
				t.Errorf("verify without cabling: %s %+v", n.Status, n.Cabling)
			}
		})
	}
}

// TestCablingRefused: a switch that refuses the LLDP command verifies on
// its configuration; its cabling says it was not checked, and why.
func TestCablingRefused(t *testing.T) {
	f, set := demo(t)
	for _, sw := range platformsUnderTest(f) {
		t.Run(string(sw.Platform), func(t *testing.T) {
			neighbors := Vendors[sw.Platform].Neighbors
			cfg := config(t, set, sw)
			l := startLabWith(t, sw, func(o *sim.Options) {
				o.Faults.Reject = regexp.MustCompile("^" + regexp.QuoteMeta(neighbors) + "$")
			})
			if p := l.run(t, ActionPush, f, sw, cfg); p.Status != StatusChanged {
				t.Fatalf("push: %s %q", p.Status, p.Error)
			}
			v := l.runWith(t, Options{Action: ActionVerify, Fabric: f, Cabling: true}, sw, cfg)
			if v.Status != StatusVerified || v.Cabling == nil || !strings.HasPrefix(v.Cabling.Error, "reading the LLDP neighbors: ") ||
				len(v.Notes) != 1 || !strings.HasPrefix(v.Notes[0], "cabling not checked: ") {
				t.Errorf("verify: status %s, cabling %+v, notes %q", v.Status, v.Cabling, v.Notes)
			}
		})
	}
}
