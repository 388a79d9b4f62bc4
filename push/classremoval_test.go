package push

import (
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestPushRemovesAClass: a fabric with an extra class (bulk: priority 1,
// DSCP 8-15, 20 %) is pushed, then the fabric without it. The renderers
// leave traffic class 1's ETS share on the switch (README, Scope: the
// settings of traffic classes no priority maps to), and verification
// compared it ("ETS TC1: intended (none), actual wrr 20%"), so the
// second push failed and rolled back on every platform and a class once
// pushed could never be removed (r2 #5). Now it verifies, with one note
// naming what TC1 keeps, and a second push changes nothing. Cumulus
// writes every traffic class of its scheduler (the idle ones DWRR at
// bw-percent 1, so the profile sums to 100 %: rsw #7, rcum #5), so TC1's share is
// reset, verification compares it, and there is nothing to note.
func TestPushRemovesAClass(t *testing.T) {
	const bulk = `qos {
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
  }
}
`
	for _, p := range []model.Platform{model.PlatformEOS, model.PlatformOnyx, model.PlatformCumulus} {
		t.Run(string(p), func(t *testing.T) {
			fa, seta := buildExample(t, withQoS(t, p, bulk))
			fb, setb := buildExample(t, tutorialOn(t, p, 3))
			swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
			if fa.QoS.PriorityToTC[1] != 1 || fb.QoS.PriorityToTC[1] == 1 {
				t.Fatalf("priority 1 maps to TC%d with the class and TC%d without", fa.QoS.PriorityToTC[1], fb.QoS.PriorityToTC[1])
			}
			l := startLab(t, swa, sim.Faults{})
			r := l.run(t, ActionPush, fa, swa, config(t, seta, swa))
			if r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push with the class: %s %q %v", r.Status, r.Error, r.Differences)
			}
			for _, n := range r.Notes {
				if strings.HasPrefix(n, "traffic classes no priority") {
					t.Errorf("push with the class notes %q", n)
				}
			}
			if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push without the class: %s %q %v", r.Status, r.Error, r.Differences)
			}
			r = l.run(t, ActionVerify, fb, swb, config(t, setb, swb))
			if r.Status != StatusVerified {
				t.Fatalf("verify without the class: %s %q %v", r.Status, r.Error, r.Differences)
			}
			var notes []string
			for _, n := range r.Notes {
				if strings.HasPrefix(n, "traffic classes no priority maps to keep an earlier fabric's settings: ETS TC1 wrr 20% (2 ports)") {
					notes = append(notes, n)
				}
			}
			want := 1
			if p == model.PlatformCumulus {
				want = 0
			}
			if len(notes) != want {
				t.Errorf("notes %q, want %d on TC1's share", r.Notes, want)
			}
			if r := l.run(t, ActionPush, fb, swb, config(t, setb, swb)); r.Status != StatusUnchanged {
				t.Errorf("second push without the class: %s %q, want unchanged", r.Status, r.Error)
			}
		})
	}
	t.Run("cumulus lossless with ECN", removeLosslessECN)
}

// roce4QoS is docs/changes.md's first step of moving the lossless
// priority: a second lossless class roce4 (priority 4, DSCP 32-39,
// 10 %) that marks ECN, beside the profile's roce class.
const roce4QoS = `qos {
  profile    = "nvidia-roce"
  roce_class = "roce"
  class "roce4" {
    priority  = 4
    dscp      = [34, 32, 33, 35, 36, 37, 38, 39]
    lossless  = true
    bandwidth = 10
    ecn {
      min = "150KB"
      max = "1500KB"
    }
  }
  class "default" {
    bandwidth = 40
  }
}
`

// removeLosslessECN is TestPushRemovesAClass's case of the rollback of docs/changes.md's
// step 1 (and its step 3, which removes a lossless class the same way)
// on a Cumulus switch. The renderer wrote ECN only for the model's
// classes, so traffic class 4 kept `ecn enable` from the fabric with
// roce4, and verification, which compares all eight traffic classes on
// Cumulus, failed ("ECN TC4: intended (none), actual min 150KB max
// 1500KB") and rolled the push back (rmig #1). Now every idle traffic
// class gets `ecn disable`, as the egress scheduler writes all eight:
// the push verifies, TC4 reads back without marking, and a second push
// changes nothing.
func removeLosslessECN(t *testing.T) {
	fa, seta := buildExample(t, withQoS(t, model.PlatformCumulus, roce4QoS))
	fb, setb := buildExample(t, tutorialOn(t, model.PlatformCumulus, 3))
	swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
	if fa.QoS.PriorityToTC[4] != 4 || fb.QoS.PriorityToTC[4] == 4 {
		t.Fatalf("priority 4 maps to TC%d with roce4 and TC%d without", fa.QoS.PriorityToTC[4], fb.QoS.PriorityToTC[4])
	}
	cfgb := config(t, setb, swb)
	const off = "qos congestion-control default-global traffic-class 4 ecn disable"
	if script := strings.Split(string(deviceFile(t, setb, "leaf1", "leaf1.nvue.sh")), "\n"); !slices.Contains(script, "nv set "+off) {
		t.Errorf("the fabric without roce4 does not write %q", off)
	}
	l := startLab(t, swa, sim.Faults{})
	if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push with roce4: %s %q %v", r.Status, r.Error, r.Differences)
	}
	if r := l.run(t, ActionPush, fb, swb, cfgb); r.Status != StatusChanged || !r.Verified {
		t.Fatalf("push without roce4: %s %q %v", r.Status, r.Error, r.Differences)
	}
	r := l.run(t, ActionVerify, fb, swb, cfgb)
	if r.Status != StatusVerified || len(r.Differences) != 0 {
		t.Fatalf("verify without roce4: %s %q %v", r.Status, r.Error, r.Differences)
	}
	for _, n := range r.Notes {
		if strings.Contains(n, "ECN TC4") {
			t.Errorf("verify notes %q: TC4 marks no more", n)
		}
	}
	if r := l.run(t, ActionPush, fb, swb, cfgb); r.Status != StatusUnchanged {
		t.Errorf("second push without roce4: %s %q diff %q, want unchanged", r.Status, r.Error, r.Diff)
	}
}
