package openconfig

import (
	"fmt"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// benchLeaf is a 67-port EOS leaf shaped like bench/fabric's: 64 x 25G
// host ports in one access VLAN trusting DSCP (every other one described
// by its host), three 100G routed uplinks, in the fixture's QoS (three
// classes, two with ECN, DSCP classifiers) and VLANs.
func benchLeaf() (*model.Fabric, *model.Switch) {
	f := testFabric()
	sw := f.Switches[0]
	sw.Ports = nil
	for i := 1; i <= 64; i++ {
		p := model.Port{Name: fmt.Sprintf("Ethernet%d", i), SpeedMbps: 25000, MTU: 9214, Mode: model.ModeAccess,
			AccessVLAN: 100, Trust: model.TrustDSCP, PFCPriorities: []int{3}}
		if i%2 == 1 {
			p.Description = fmt.Sprintf("h%04d-roce0", i)
		}
		sw.Ports = append(sw.Ports, p)
	}
	for i := 1; i <= 3; i++ {
		sw.Ports = append(sw.Ports, model.Port{Name: fmt.Sprintf("Ethernet%d/1", 64+i), Description: fmt.Sprintf("spine%d-swp1", i),
			SpeedMbps: 100000, MTU: 9214, Mode: model.ModeRouted, Trust: model.TrustDSCP, PFCPriorities: []int{3}})
	}
	f.Switches = []model.Switch{sw}
	return f, &f.Switches[0]
}

// BenchmarkSetRequest measures benchLeaf's set request
// ("<switch>.openconfig-set.json") beside its OpenConfig JSON, both
// after the fabric-wide part is made, as in a build, where every switch
// but the first finds it made.
func BenchmarkSetRequest(b *testing.B) {
	f, sw := benchLeaf()
	if _, err := renderJSON(f, sw); err != nil {
		b.Fatal(err)
	}
	setJSON(f, sw)
	b.Run("set", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			setJSON(f, sw)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := renderJSON(f, sw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
