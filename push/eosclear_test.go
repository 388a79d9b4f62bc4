package push

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/sim"
	"github.com/fabricc/fabricc/targets/eos"
)

// bulkQoS is the tutorial's qos block with a lossy "bulk" class
// (priority 1, DSCP 8-15, 20 %), marking ECN when ecn is set.
func bulkQoS(ecn bool) string {
	marking := ""
	if ecn {
		marking = "    ecn {\n      min = \"100KB\"\n      max = \"1000KB\"\n    }\n"
	}
	return `qos {
  profile = "nvidia-roce"
  class "roce" {
    bandwidth = 40
  }
  class "default" {
    bandwidth = 40
  }
  class "bulk" {
    priority  = 1
    dscp      = [8, 9, 10, 11, 12, 13, 14, 15]
    bandwidth = 20
` + marking + `  }
}
`
}

// pushTwice pushes fabric dir a then dir b to one simulated EOS leaf
// (a 7050CX3, Trident3: it has an MMU queue profile), checks that the
// second push verifies and that a verify and a second push of b find
// nothing to change, and returns b's model and the switch's running
// configuration read back as push's verification reads it.
func pushTwice(t *testing.T, a, b string) (*model.Fabric, *verify.State, string) {
	t.Helper()
	fa, seta := buildExample(t, a)
	fb, setb := buildExample(t, b)
	swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
	l := startLab(t, swa, sim.Faults{})
	if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of the first fabric: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push of the second fabric: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionVerify, fb, swb, config(t, setb, swb)); r.Status != StatusVerified || len(r.Differences) != 0 {
		t.Errorf("verify of the second fabric: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusUnchanged {
		t.Errorf("second push of the second fabric: %s %q, want unchanged", r.Status, r.Error)
	}
	running := l.sim.Running()
	st, err := verify.ParseEOS(running)
	if err != nil {
		t.Fatal(err)
	}
	return fb, st, running
}

// TestPushStopsECNMarking: an EOS switch pushed with a fabric whose bulk
// class (TC1) marks ECN, then with the same fabric where the class no
// longer marks, keeps no ECN on tx-queue 1 of either port. Before
// targets/eos wrote `no random-detect ecn minimum-threshold` for a class
// without ECN, the merge left the thresholds on the switch: it went on
// marking, and push's verification of the second fabric failed ("ECN
// TC1: intended (none), actual min 100KB max 1000KB") and rolled back.
func TestPushStopsECNMarking(t *testing.T) {
	fb, got, running := pushTwice(t,
		withQoS(t, model.PlatformEOS, bulkQoS(true)),
		withQoS(t, model.PlatformEOS, bulkQoS(false)))
	for _, c := range fb.QoS.Classes {
		if c.Name == "bulk" && (c.TrafficClass != 1 || c.ECN != nil) {
			t.Fatalf("bulk class: TC%d, ECN %v; the test assumes TC1 without ECN", c.TrafficClass, c.ECN)
		}
	}
	for _, port := range []string{"Ethernet1/1", "Ethernet2/1"} {
		p := got.Ports[port]
		if p == nil {
			t.Fatalf("%s not read back", port)
		}
		if e, ok := p.ECN[1]; ok {
			t.Errorf("%s tx-queue 1 still marks ECN: %+v", port, e)
		}
		if _, ok := p.ECN[3]; !ok {
			t.Errorf("%s tx-queue 3 (roce) lost its ECN", port)
		}
	}
	if strings.Contains(running, "random-detect ecn minimum-threshold 102400 bytes") {
		t.Errorf("the bulk class's thresholds are still in the running-config:\n%s", running)
	}
}

// TestPushClearsUnusedMMUSettings: an EOS switch pushed with a fabric
// that has a bulk class (TC1, so egress unicast queue 1 in the MMU queue
// profile), then with the fabric without it, keeps in its profile only
// the settings the second fabric's profile has: queue 1's lines are gone.
// Before targets/eos wrote every group and queue 0-7 in both states, the
// merge kept them, and verification did not look.
func TestPushClearsUnusedMMUSettings(t *testing.T) {
	a := withQoS(t, model.PlatformEOS, bulkQoS(true))
	fa, _ := buildExample(t, a)
	fb, got, _ := pushTwice(t, a, tutorialOn(t, model.PlatformEOS, 3))
	before, after := eos.ProfileSettings(fa.Switch("leaf1")), eos.ProfileSettings(fb.Switch("leaf1"))
	gone := []string{}
	for k := range before {
		if _, ok := after[k]; !ok && (strings.HasPrefix(k, "ingress priority-group ") || strings.HasPrefix(k, "egress unicast queue ")) {
			gone = append(gone, k)
		}
	}
	slices.Sort(gone)
	if !slices.Equal(gone, []string{"egress unicast queue 1 reserved", "egress unicast queue 1 threshold"}) {
		t.Fatalf("settings only the first fabric's profile has: %q; the test assumes egress unicast queue 1's", gone)
	}
	want := map[string]string{}
	for k, v := range after {
		if strings.HasPrefix(k, "ingress priority-group ") || strings.HasPrefix(k, "egress unicast queue ") {
			want[k] = v
		}
	}
	if !maps.Equal(got.MMUProfile, want) {
		t.Errorf("MMU profile read back:\n%v\nwant\n%v", got.MMUProfile, want)
	}
}
