//go:build !race

package clients

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/verify"
)

// negativeControl changes one thing per platform with the clients: an
// ECN threshold (onyx_traffic_class), PFC off (onyx_pfc_interface), an
// MTU (netmiko on EOS) and a VLAN removed (netmiko on Cumulus, as root).
// `fabricc diff` must show exactly those changes, `fabricc push` must
// repair them and a second diff must show nothing.
func (l *lab) negativeControl(t *testing.T, tools clientTools) {
	t.Helper()
	want := map[string][]string{}
	var extra []string
	var jobs []netmikoJob
	onyx := l.switches(model.PlatformOnyx)
	if len(onyx) < 2 {
		t.Fatalf("the negative control needs two Onyx switches, %s has %d", l.f.Name, len(onyx))
	}
	// ECN threshold on the first Onyx switch.
	ecnSw, ecnPort, ecn := onyx[0], "", (*model.Class)(nil)
	for i := range l.f.QoS.Classes {
		if c := &l.f.QoS.Classes[i]; c.ECN != nil {
			ecn = c
		}
	}
	exp := verify.Expect(l.f, ecnSw)
	for _, p := range ecnSw.Ports {
		if _, ok := exp.Ports[p.Name].ECN[ecn.TrafficClass]; ok && ecnPort == "" {
			ecnPort = p.Name
		}
	}
	line := "interface ethernet %s traffic-class %d congestion-control ecn minimum-absolute %d maximum-absolute %d"
	want[ecnSw.Name] = []string{"- " + fmt.Sprintf(line, ecnPort, ecn.TrafficClass, 200, 1600),
		"+ " + fmt.Sprintf(line, ecnPort, ecn.TrafficClass, kb(ecn.ECN.MinBytes), kb(ecn.ECN.MaxBytes))}
	extra = append(extra, "ecn_host="+ecnSw.Name, "ecn_interface="+eth(ecnPort), fmt.Sprintf("ecn_tc=%d", ecn.TrafficClass))
	// PFC off on the second Onyx switch.
	pfcSw, pfcPort := onyx[1], ""
	for _, p := range pfcSw.Ports {
		if len(p.PFCPriorities) > 0 && pfcPort == "" {
			pfcPort = p.Name
		}
	}
	want[pfcSw.Name] = []string{"- interface ethernet " + pfcPort + " no dcb priority-flow-control mode force",
		"+ interface ethernet " + pfcPort + " dcb priority-flow-control mode on force"}
	extra = append(extra, "pfc_host="+pfcSw.Name, "pfc_interface="+eth(pfcPort))
	// MTU on an EOS switch, VLAN on a Cumulus switch, with netmiko.
	for _, j := range l.netmikoJobs() {
		sw := l.f.Switch(j.Name)
		switch {
		case sw.Platform == model.PlatformEOS && len(l.switchesNamed(want, model.PlatformEOS)) == 0:
			mtu := verify.Expect(l.f, sw).Ports[sw.Ports[0].Name].MTU
			j.Commands, j.Config = []string{}, []string{"interface " + sw.Ports[0].Name, "mtu 9000"}
			want[sw.Name] = []string{"- mtu 9000", fmt.Sprintf("+ mtu %d", mtu)}
			jobs = append(jobs, j)
		case sw.Platform == model.PlatformCumulus && len(l.switchesNamed(want, model.PlatformCumulus)) == 0:
			vlan := l.unusedVLAN(sw)
			j.Commands, j.Config = []string{}, []string{fmt.Sprintf("nv unset bridge domain br_default vlan %d", vlan), "nv config apply -y"}
			want[sw.Name] = []string{fmt.Sprintf(`+ "%d": {}`, vlan)}
			jobs = append(jobs, j)
		}
	}
	inv, _ := l.inventory(t, tools.python)
	r := l.playbook(t, tools, inv, "change.yml", false, extra...)
	for _, play := range r.Plays {
		for _, task := range play.Tasks {
			for host, res := range task.Hosts {
				if o := res.outcome(); o != "changed" {
					t.Errorf("%s on %s: %s, want changed", task.Task.Name, host, o)
				}
			}
		}
	}
	for _, c := range l.netmiko(t, tools, jobs) {
		if !c.OK {
			t.Errorf("netmiko %s on %s: %s", c.Call, c.Switch, c.Error)
		}
	}
	l.expect(t, push.ActionDiff, want)
	l.expect(t, push.ActionPush, want)
	l.expect(t, push.ActionDiff, nil)
}

// switches are the switches of platform p, in fabric order.
func (l *lab) switches(p model.Platform) []*model.Switch {
	var out []*model.Switch
	for i := range l.f.Switches {
		if l.f.Switches[i].Platform == p {
			out = append(out, &l.f.Switches[i])
		}
	}
	return out
}

// switchesNamed are the switches of platform p among want's keys.
func (l *lab) switchesNamed(want map[string][]string, p model.Platform) []string {
	var out []string
	for name := range want {
		if l.f.Switch(name).Platform == p {
			out = append(out, name)
		}
	}
	return out
}

// unusedVLAN is a fabric VLAN no port of sw is a member of (the last
// one when every VLAN is used): removing it from the bridge changes one
// thing only.
func (l *lab) unusedVLAN(sw *model.Switch) int {
	used := map[int]bool{}
	for _, p := range sw.Ports {
		used[p.AccessVLAN] = true
		for _, v := range p.TrunkVLANs {
			used[v] = true
		}
	}
	ids := make([]int, 0, len(l.f.VLANs))
	for _, v := range l.f.VLANs {
		ids = append(ids, v.ID)
	}
	slices.Sort(ids)
	for _, id := range slices.Backward(ids) {
		if !used[id] {
			return id
		}
	}
	return ids[len(ids)-1]
}
