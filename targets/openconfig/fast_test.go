package openconfig

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// emitSlow is the reference: the JSON ygot.EmitJSON writes for Build's
// validated tree.
func emitSlow(f *model.Fabric, sw *model.Switch) ([]byte, error) {
	d, err := Build(f, sw)
	if err != nil {
		return nil, err
	}
	return Emit(d)
}

// sameAsYgot fails unless renderJSON writes what emitSlow writes for
// every switch of f, or fails with the same error.
func sameAsYgot(t *testing.T, f *model.Fabric) {
	t.Helper()
	for i := range f.Switches {
		sw := &f.Switches[i]
		want, werr := emitSlow(f, sw)
		got, gerr := renderJSON(f, sw)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%s: error %v, want %v", sw.Name, gerr, werr)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: direct JSON differs from ygot.EmitJSON:\n%s", sw.Name, firstDiff(got, want))
		}
	}
}

// firstDiff shows the lines around the first difference of a and b.
func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y []byte
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if !bytes.Equal(x, y) {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, x, y)
		}
	}
	return "same lines"
}

// TestDirectJSONMatchesYgot compares the direct writer with ygot on the
// fixture fabric and on variants that reach every branch: no VLANs, no
// DSCP classes, no ECN, WRR only, strict only, unnamed VLANs, VLAN IDs
// whose text order differs from their numeric order, descriptions with
// characters JSON escapes, shut ports, link pause, PCP trust, ports
// without speed or MTU, and the errors Build reports.
func TestDirectJSONMatchesYgot(t *testing.T) {
	variants := []struct {
		name   string
		change func(f *model.Fabric)
	}{
		{"fixture", func(*model.Fabric) {}},
		{"no VLANs", func(f *model.Fabric) { f.VLANs = nil }},
		{"VLAN order by text", func(f *model.Fabric) {
			f.VLANs = []model.VLAN{{ID: 200, Name: "b"}, {ID: 1000}, {ID: 30, Name: "c"}}
		}},
		{"no DSCP", func(f *model.Fabric) {
			for i := range f.QoS.Classes {
				f.QoS.Classes[i].DSCP = nil
			}
		}},
		{"no ECN", func(f *model.Fabric) {
			for i := range f.QoS.Classes {
				f.QoS.Classes[i].ECN = nil
			}
		}},
		{"all strict", func(f *model.Fabric) {
			for i := range f.QoS.Classes {
				f.QoS.Classes[i].ETS = model.ETS{Mode: model.ETSStrict}
			}
		}},
		{"all WRR", func(f *model.Fabric) {
			for i := range f.QoS.Classes {
				f.QoS.Classes[i].ETS = model.ETS{Mode: model.ETSWRR, BandwidthPercent: 30 + i}
			}
		}},
		{"no classes", func(f *model.Fabric) { f.QoS.Classes = nil }},
		{"ports of every kind", func(f *model.Fabric) {
			ps := f.Switches[0].Ports
			ps[0].Description = "to <gpu> & \"x\" \u00e9\u2028\\"
			ps[0].Shutdown = true
			ps[1].LinkPause, ps[1].PFCPriorities = true, nil
			ps[1].Trust = model.TrustPCP
			if len(ps) > 2 {
				ps[2].SpeedMbps, ps[2].MTU, ps[2].Description = 0, 0, ""
				ps[2].Mode, ps[2].TrunkVLANs, ps[2].NativeVLAN = model.ModeTrunk, nil, 0
			}
		}},
		{"no ports", func(f *model.Fabric) {
			for i := range f.Switches {
				f.Switches[i].Ports = nil
			}
		}},
		{"bad MTU", func(f *model.Fabric) { f.Switches[0].Ports[1].MTU = 70000 }},
		{"bad speed", func(f *model.Fabric) { f.Switches[0].Ports[0].SpeedMbps = 30000 }},
		{"bad VLAN", func(f *model.Fabric) { f.VLANs = append(f.VLANs, model.VLAN{ID: 4095}) }},
		{"duplicate port", func(f *model.Fabric) {
			ps := f.Switches[0].Ports
			ps[1].Name = ps[0].Name
		}},
		{"unnamed port", func(f *model.Fabric) { f.Switches[0].Ports[0].Name = "" }},
		{"bad mode", func(f *model.Fabric) { f.Switches[0].Ports[0].Mode = "bridged" }},
		{"bad ECN", func(f *model.Fabric) { f.QoS.Classes[1].ECN = &model.ECN{MinBytes: 9, MaxBytes: 9} }},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			f := testFabric()
			v.change(f)
			sameAsYgot(t, f)
		})
	}
}

// TestDirectJSONSpeeds compares every OpenConfig speed.
func TestDirectJSONSpeeds(t *testing.T) {
	f := testFabric()
	sw := &f.Switches[0]
	base := sw.Ports[0]
	sw.Ports = nil
	for mbps := range speeds {
		p := base
		p.Name, p.SpeedMbps = fmt.Sprintf("p%d", mbps), mbps
		sw.Ports = append(sw.Ports, p)
	}
	sameAsYgot(t, f)
}

// renderJSON is shared.renderJSON with f's fabric-wide part and sw's
// ports byName, as renderFiles calls it.
func renderJSON(f *model.Fabric, sw *model.Switch) ([]byte, error) {
	return sharedPart(f).renderJSON(f, sw, byName(sw.Ports))
}

// setJSON is shared.setJSON with f's fabric-wide part and sw's ports
// byName, as renderFiles calls it.
func setJSON(f *model.Fabric, sw *model.Switch) []byte {
	return sharedPart(f).setJSON(f, sw, byName(sw.Ports))
}
