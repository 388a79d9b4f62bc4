package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestPushDetachesOperatorPortProfiles: an operator attaches an egress
// scheduler profile of their own to one fabric port and a congestion
// control profile to the other (a brownfield's per-port ETS and ECN:
// `nv set interface swp1 qos egress-scheduler profile ...`, NVUE
// Command Reference, Set and Unset Commands, QoS). A port's profile
// overrides default-global, where fabricc writes ETS and ECN, so the
// ports ran the operator's scheduling and marking: verify reported it,
// but push unset neither attachment, so diff said "up to date", and
// every push failed its verification and rolled back (rmig #2). Now
// push unsets `qos egress-scheduler` and `qos congestion-control` on
// the fabric's ports before its patch: the dry run shows the change,
// the push verifies, the operator's profiles stay defined (only their
// attachment to fabric ports goes), and a second push changes nothing.
func TestPushDetachesOperatorPortProfiles(t *testing.T) {
	f, set := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	sw := f.Switch("leaf1")
	cfg := config(t, set, sw)
	for _, unset := range []string{"# nv unset interface swp1,swp2 qos egress-scheduler\n", "# nv unset interface swp1,swp2 qos congestion-control\n"} {
		if !strings.Contains(string(cfg), unset) {
			t.Errorf("the patch's header lacks %q", unset)
		}
	}
	l := startLab(t, sw, sim.Faults{})
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("first push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	l.hand(t,
		"nv set qos egress-scheduler my-ets traffic-class 0-7 mode dwrr",
		"nv set qos egress-scheduler my-ets traffic-class 0-7 bw-percent 5",
		"nv set qos egress-scheduler my-ets traffic-class 0 bw-percent 60",
		"nv set qos egress-scheduler my-ets traffic-class 3 bw-percent 10",
		"nv set interface swp2 qos egress-scheduler profile my-ets",
		"nv set qos congestion-control my-ecn traffic-class 3 ecn disable",
		"nv set interface swp1 qos congestion-control profile my-ecn",
		"nv config apply -y", "nv config save")
	r := l.run(t, ActionVerify, f, sw, cfg)
	want := []string{
		"leaf1 swp1 ECN TC0: intended min 150000 B max 1500000 B, actual (none)",
		"leaf1 swp1 ECN TC3: intended min 150000 B max 1500000 B, actual (none)",
		"leaf1 swp2 ETS TC3 bandwidth: intended 50, actual 10",
		"leaf1 swp2 ETS TC6 mode: intended strict, actual wrr",
	}
	var got []string
	for _, d := range r.Differences {
		got = append(got, d.String())
	}
	if r.Status != StatusMismatch || !hasEvery(got, want) {
		t.Fatalf("verify after the operator's profiles: %s %q\n%s\nwant among them:\n%s", r.Status, r.Error, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// `nv config diff` names the attachments it removes, not the
	// profiles' names; the lines above it do, before and after (rmig #7).
	const detach = "- unset:\n    interface:\n      swp1:\n        qos:\n          congestion-control:\n      swp2:\n        qos:\n          egress-scheduler:\n"
	const named = "# replaced or removed, before -> after:\n#   interface swp1 qos congestion-control profile: \"my-ecn\" -> (none)\n#   interface swp2 qos egress-scheduler profile: \"my-ets\" -> (none)\n"
	if dry := l.run(t, ActionDiff, f, sw, cfg); dry.Status != StatusDryRun || !strings.Contains(dry.Diff, detach) || !strings.Contains(dry.Diff, named) {
		t.Errorf("dry run: %s %q; its diff lacks\n%s\nor\n%s\nit is:\n%s", dry.Status, dry.Error, detach, named, dry.Diff)
	}
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push over the operator's profiles: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionVerify, f, sw, cfg); r.Status != StatusVerified || len(r.Differences) != 0 {
		t.Errorf("verify after the push: %s %q %v", r.Status, r.Error, r.Differences)
	}
	for kind, name := range map[string]string{"egress-scheduler": "my-ets", "congestion-control": "my-ecn"} {
		if got := l.profiles(t, kind); !slices.Contains(got, name) {
			t.Errorf("%s profiles after the push: %q; the operator's %s should stay defined", kind, got, name)
		}
	}
	if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusUnchanged {
		t.Errorf("second push: %s %q diff %q, want unchanged", r.Status, r.Error, r.Diff)
	}
}

// hasEvery reports whether have holds every line of want.
func hasEvery(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
