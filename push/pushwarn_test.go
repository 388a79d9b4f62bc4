package push

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// oneLeafPortFabric is the tutorial fabric on platform with its first
// port and the host behind it taken out (withOverrides), so that the
// first port is outside the fabric: ports names the two ports as the
// tutorial writes them, first the one-port form.
func oneLeafPortFabric(t *testing.T, platform model.Platform, ports, second string) string {
	t.Helper()
	dir := withOverrides(t, platform, "", true)
	path := filepath.Join(dir, "fabric.hcl")
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), ports) {
		t.Fatalf("the fabric has no %s: %v", ports, err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), ports, second, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestUnownedPFCLossWarnedBeforePush is rmig #3: a port outside the
// fabric that runs PFC on a priority the push takes out of the lossless
// set (Onyx: PFC disabled on it switch-wide; Cumulus: the priority moved
// out of the lossless pool while the port's own profile still pauses
// it) is warned of by the dry run and before the push applies, in the
// diff and as the switch's warning; after the push the note says what
// the port had before, not only what it runs now.
func TestUnownedPFCLossWarnedBeforePush(t *testing.T) {
	for _, tc := range []struct {
		platform      model.Platform
		ports, second string
		hand          []string
		warning, note string
	}{
		{model.PlatformOnyx, `port "1/1-1/2"`, `port "1/2"`,
			[]string{"dcb priority-flow-control priority 4 enable", "configuration write"},
			"1/1 (not in the fabric) runs PFC on priority 4; this push disables PFC on priority 4 switch-wide: its traffic becomes lossy. " +
				"Add the port to the fabric, or move it to a lossless class the fabric keeps.",
			"not in the fabric and no longer lossless: 1/1 (PFC on priorities 3,4 before the push, which disabled PFC on priority 4 switch-wide); " +
				"their traffic is lossy now: add the ports to the fabric, or move them to a lossless class the fabric keeps"},
		{model.PlatformCumulus, `port "swp1-2"`, `port "swp2"`,
			[]string{"nv set qos traffic-pool default-lossless switch-priority 4", "nv set qos pfc my-roce switch-priority 3",
				"nv set qos pfc my-roce switch-priority 4", "nv set interface swp1 qos pfc profile my-roce", "nv config apply -y"},
			"swp1 (not in the fabric) runs PFC on priority 4; this push moves priority 4 out of the lossless buffer pool, while the port still pauses it: " +
				"its traffic becomes lossy. Add the port to the fabric, or move it to a lossless class the fabric keeps.",
			"not in the fabric and no longer lossless: swp1 (PFC on priorities 3,4 before the push, which moved priority 4 out of the lossless pool); " +
				"their traffic is lossy now: add the ports to the fabric, or move them to a lossless class the fabric keeps"},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			fa, seta := buildExample(t, tutorialOn(t, tc.platform, 3))
			fb, setb := buildExample(t, oneLeafPortFabric(t, tc.platform, tc.ports, tc.second))
			swa, swb := fa.Switch("leaf1"), fb.Switch("leaf1")
			l := startLab(t, swa, sim.Faults{})
			if r := l.run(t, ActionPush, fa, swa, config(t, seta, swa)); r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push of the two-port fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if tc.platform == model.PlatformOnyx {
				l.onyxHand(t, tc.hand...)
			} else {
				l.hand(t, tc.hand...)
			}
			cfgb := config(t, setb, swb)
			dry := l.run(t, ActionDiff, fb, swb, cfgb)
			if dry.Status != StatusDryRun || !strings.HasPrefix(dry.Diff, "# warning: "+tc.warning+"\n") || strings.Count(dry.Diff, "# warning:") != 1 {
				t.Errorf("dry run: %s %q, diff:\n%s\nwant it to start with the warning %q", dry.Status, dry.Error, dry.Diff, tc.warning)
			}
			if !slices.Equal(dry.Warnings, []string{"leaf1 " + tc.warning}) {
				t.Errorf("dry run warnings %q, want %q", dry.Warnings, "leaf1 "+tc.warning)
			}
			var asked []Staged
			r := l.runWith(t, Options{Action: ActionPush, Fabric: fb, Approve: func(s []Staged) bool { asked = s; return true }}, swb, cfgb)
			if r.Status != StatusChanged || !r.Verified {
				t.Fatalf("push of the one-port fabric: %s %q %v", r.Status, r.Error, r.Differences)
			}
			if len(asked) != 1 || !strings.Contains(asked[0].Diff, "# warning: "+tc.warning+"\n") {
				t.Errorf("the approval question was asked with %+v, want the warning in its diff", asked)
			}
			if len(r.Notes) == 0 || r.Notes[0] != tc.note {
				t.Errorf("notes after the push %q, want first %q", r.Notes, tc.note)
			}
		})
	}
}

// TestShutPortBroughtUpWarned is rmig #4: a fabric port an operator shut
// by hand on EOS (`shutdown` in its interface block) or Onyx (`interface
// ethernet 1/2 shutdown`) gets the warning Cumulus gave, at the head of
// the dry run's diff and as the switch's warning (the summary's DETAIL,
// --json, --report); the push brings the port up.
func TestShutPortBroughtUpWarned(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		port     string
		hand     []string
	}{
		{model.PlatformEOS, "Ethernet2/1", []string{"interface Ethernet2/1", "shutdown", "end", "write memory"}},
		{model.PlatformOnyx, "1/2", []string{"interface ethernet 1/2 shutdown", "configuration write"}},
		{model.PlatformCumulus, "swp2", []string{"nv set interface swp2 link state down", "nv config apply -y"}},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			f, set := buildExample(t, tutorialOn(t, tc.platform, 3))
			sw := f.Switch("leaf1")
			cfg := config(t, set, sw)
			l := startLab(t, sw, sim.Faults{})
			if r := l.run(t, ActionPush, f, sw, cfg); r.Status != StatusChanged {
				t.Fatalf("first push: %s %q", r.Status, r.Error)
			}
			switch tc.platform {
			case model.PlatformEOS:
				l.eosHand(t, tc.hand...)
			case model.PlatformOnyx:
				l.onyxHand(t, tc.hand...)
			default:
				l.hand(t, tc.hand...)
			}
			how := map[model.Platform]string{model.PlatformCumulus: "link state down"}[tc.platform]
			if how == "" {
				how = "shutdown"
			}
			warning := tc.port + " is administratively down on the switch (" + how + ") and this push brings it up; " +
				"to keep it down, set shutdown = true on the port in the fabric"
			dry := l.run(t, ActionDiff, f, sw, cfg)
			if !strings.HasPrefix(dry.Diff, "# warning: "+warning+"\n") || strings.Count(dry.Diff, "# warning:") != 1 {
				t.Errorf("dry run diff:\n%s\nwant it to start with %q, once", dry.Diff, warning)
			}
			if !slices.Equal(dry.Warnings, []string{"leaf1 " + warning}) || !strings.Contains(dry.detail(), "warning: leaf1 "+warning) {
				t.Errorf("dry run warnings %q, detail %q, want %q", dry.Warnings, dry.detail(), "leaf1 "+warning)
			}
			r := l.run(t, ActionPush, f, sw, cfg)
			if r.Status != StatusChanged || !r.Verified || !slices.Equal(r.Warnings, dry.Warnings) {
				t.Errorf("push: %s %q warnings %q, want changed and verified with the warning", r.Status, r.Error, r.Warnings)
			}
			if again := l.run(t, ActionDiff, f, sw, cfg); again.Diff != "" || len(again.Warnings) != 0 {
				t.Errorf("after the push: diff %q warnings %q, want none", again.Diff, again.Warnings)
			}
		})
	}
}
