package push

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestRefusedBeforeAnythingSent: a push that a check refuses before a
// single command of its change was sent (an Onyx pre-check, NVUE's RoCE
// mode, a session-leaving line for EOS) reports that nothing was sent
// and nothing rolled back, where it read "nothing was changed (rolled
// back)". A push that fails while its change is being staged (a line of
// the EOS configure session, the NVUE patch) throws the staged change
// away before it is applied: nothing was sent either, and its words say
// the staged change was discarded (it said
// "(rolled back)", rolled_back true, a rollback that never happened).
// Only an Onyx line, which takes effect as it is sent, is rolled back.
func TestRefusedBeforeAnythingSent(t *testing.T) {
	f, set := demo(t)
	for _, tc := range []struct {
		name, sw string
		// setup prepares the switch (or returns a changed config).
		setup func(t *testing.T, l *lab, cfg []byte) []byte
		// at is where the simulator refuses a line (nil: nowhere).
		at      string
		nothing bool
		detail  string
	}{
		{"onyx pre-check", "leaf3", func(t *testing.T, l *lab, cfg []byte) []byte {
			l.onyxHand(t, "traffic pool roce type lossless", "traffic pool roce memory percent 1.40", "traffic pool roce map switch-priority 3", "configuration write")
			return cfg
		}, "", true, "and push again right away, in a maintenance window: Onyx applies the removal at once, so switch priorities 3 have no lossless pool " +
			"until the push puts them in roce-lossless; nothing was changed (stopped before any change was sent; nothing to roll back)"},
		{"nvue roce mode", "leaf1", func(t *testing.T, l *lab, cfg []byte) []byte {
			l.hand(t, "nv set qos roce", "nv config apply -y", "nv config save")
			return cfg
		}, "", true, "then push again; nothing was changed (stopped before any change was sent; nothing to roll back)"},
		{"eos session line", "spine1", func(_ *testing.T, _ *lab, cfg []byte) []byte {
			return append(append([]byte{}, cfg...), "configure terminal\n"...)
		}, "", true, "which fabricc never renders; nothing was sent (stopped before any change was sent; nothing to roll back)"},
		{"onyx line refused", "leaf3", nil, `^interface ethernet \S+ mtu `, false, "(rolled back)"},
		{"nvue patch refused", "leaf1", nil, `^nv config patch `, true, "(its staged change was discarded, never applied; nothing to roll back)"},
		{"eos session line refused", "spine1", nil, `^vlan `, true, "(its staged change was discarded, never applied; nothing to roll back)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sw := f.Switch(tc.sw)
			cfg := config(t, set, sw)
			var faults sim.Faults
			if tc.at != "" {
				faults.Stage = &sim.StageFault{At: regexp.MustCompile(tc.at), Kind: sim.FaultReject}
			}
			l := startLab(t, sw, faults)
			if tc.setup != nil {
				cfg = tc.setup(t, l, cfg)
			}
			before := l.sim.Running()
			r := l.run(t, ActionPush, f, sw, cfg)
			if r.Status != StatusFailed || r.NothingSent != tc.nothing || r.RolledBack == tc.nothing {
				t.Errorf("status %s, nothing sent %v, rolled back %v; want failed, %v, %v (error %q)",
					r.Status, r.NothingSent, r.RolledBack, tc.nothing, !tc.nothing, r.Error)
			}
			if d := r.detail(); !strings.HasSuffix(d, tc.detail) {
				t.Errorf("summary detail %q, want it to end in %q", d, tc.detail)
			}
			rep := &Report{Action: ActionPush}
			if got, want := rep.verifiedColumn(r), map[bool]string{true: "-", false: "no"}[tc.nothing]; got != want {
				t.Errorf("verified column %q, want %q", got, want)
			}
			if got := l.sim.Running(); got != before {
				t.Errorf("the switch was not restored:\n%s", lineDiff(before, got))
			}
			if tc.nothing && tc.at == "" && sentChange(sw.Platform, r.Commands) {
				t.Errorf("a command of the change was sent: %q", r.Commands)
			}
		})
	}
}

// changeStarts are the commands with which each platform's change
// begins to be sent.
var changeStarts = map[model.Platform]*regexp.Regexp{
	model.PlatformEOS:     regexp.MustCompile(`^configure session fabricc-`),
	model.PlatformOnyx:    regexp.MustCompile(`^configuration write to fabricc-pre-`),
	model.PlatformCumulus: regexp.MustCompile(`^(nv unset |nv config patch |echo )`),
}

// sentChange reports whether cmds hold a command of the change.
func sentChange(p model.Platform, cmds []string) bool {
	for _, c := range cmds {
		if changeStarts[p].MatchString(c) {
			return true
		}
	}
	return false
}
