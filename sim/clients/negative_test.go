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
// MTU (netmiko on EOS) and a VLAN removed (netmiko on Cumulus, as root,
// with auto save off).
// `fabricc diff` must show exactly those changes. The clients do not
// save them, so `fabricc push` must refuse those switches, changing
// nothing, since its save would save the clients' changes too;
// `fabricc push --save-unsaved` must repair them and say it saved what
// it found, and a second diff must show nothing.
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
			// Auto save off first: from Cumulus Linux 5.9 `nv config
			// apply` saves by default (NVUE Command Reference, Config
			// Commands), and the control needs an unsaved change.
			j.Commands, j.Config = []string{}, []string{"nv set system config auto-save enable off",
				fmt.Sprintf("nv unset bridge domain br_default vlan %d", vlan), "nv config apply -y"}
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
	l.expectRefused(t, want)
	l.expectSaved(t, want)
	l.expect(t, push.ActionDiff, nil)
}

// unsavedFound is what push reports, per platform, for unsaved changes
// that no fabricc push made.
var unsavedFound = map[model.Platform]string{
	model.PlatformOnyx:    "Onyx running configuration with unsaved changes that no fabricc push made",
	model.PlatformEOS:     "EOS running-config with unsaved changes that no fabricc push made (it differs from startup-config)",
	model.PlatformCumulus: "NVUE applied configuration with unsaved changes that no fabricc push made (nv config diff startup applied lists them)",
}

// unsavedRefusal is, per platform, the rest of the error of a push that
// finds them.
var unsavedRefusal = map[model.Platform]string{
	model.PlatformOnyx: ": a push ends by saving the whole running configuration, so it would save them too; save them (configuration write) " +
		"or discard them on the switch first, or push with --save-unsaved to save them with this change; nothing was changed",
	model.PlatformEOS: ": a push ends by saving the whole running-config, so it would save them too; save them (write memory) " +
		"or discard them on the switch first, or push with --save-unsaved to save them with this change; nothing was changed",
	model.PlatformCumulus: ": a push ends by saving the whole applied configuration, so it would save them too; save them (nv config save) " +
		"or discard them (nv config apply startup -y) first, or push with --save-unsaved to save them with this change; nothing was changed",
}

// expectRefused pushes: every switch in changed refuses with the error
// for unsaved changes of others; every other one is unchanged. The push
// is per device: all or nothing, the refusal would make the others
// abort, some before they were even read, and this checks each switch's
// own answer.
func (l *lab) expectRefused(t *testing.T, changed map[string][]string) {
	t.Helper()
	for _, d := range l.runWith(t, push.Options{Action: push.ActionPush, PerDevice: true}).Devices {
		p := l.f.Switch(d.Device).Platform
		_, isChanged := changed[d.Device]
		switch {
		case isChanged && (d.Status != push.StatusFailed || d.Error != unsavedFound[p]+unsavedRefusal[p]):
			t.Errorf("fabricc push %s over the clients' unsaved change: %s %q, want failed %q", d.Device, d.Status, d.Error, unsavedFound[p]+unsavedRefusal[p])
		case !isChanged && (d.Status != push.StatusUnchanged || !d.Verified):
			t.Errorf("fabricc push %s: %s verified %v %q, want unchanged", d.Device, d.Status, d.Verified, d.Error)
		}
	}
}

// expectSaved pushes with --save-unsaved: every switch in changed is
// repaired, verified and reports the clients' change saved with the
// push; every other one is unchanged.
func (l *lab) expectSaved(t *testing.T, changed map[string][]string) {
	t.Helper()
	for _, d := range l.runWith(t, push.Options{Action: push.ActionPush, SaveUnsaved: true}).Devices {
		_, isChanged := changed[d.Device]
		want := []push.Recovery{{Found: unsavedFound[l.f.Switch(d.Device).Platform], Action: push.RecoverySaved}}
		switch {
		case isChanged && (d.Status != push.StatusChanged || !d.Verified || !slices.Equal(d.Recovered, want)):
			t.Errorf("fabricc push --save-unsaved %s: %s verified %v %q recovered %v, want changed, verified, %v", d.Device, d.Status, d.Verified, d.Error, d.Recovered, want)
		case !isChanged && (d.Status != push.StatusUnchanged || !d.Verified || len(d.Recovered) != 0):
			t.Errorf("fabricc push --save-unsaved %s: %s verified %v %q recovered %v, want unchanged", d.Device, d.Status, d.Verified, d.Error, d.Recovered)
		}
	}
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
