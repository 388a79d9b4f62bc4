package push

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestPushRefusesNVUEReleaseAcrossBoundary: push reads the release the
// switch runs from the header of `nv config show -o json` and refuses a
// file built for an os_version on the other side of a boundary where
// fabricc's NVUE file changes (targets/cumulus Boundaries), naming both
// releases, before anything is staged; a switch on the declared release
// takes the push (rcum #3). Before, a 5.15 file (ECN/RED
// enabled/disabled) went onto a 5.9.2 switch and verified.
func TestPushRefusesNVUEReleaseAcrossBoundary(t *testing.T) {
	for _, tc := range []struct {
		name, declared, runs, want string
	}{
		{"same release", "5.15.0", "5.15.0", ""},
		{"same side", "5.9.2", "5.10.1", ""},
		{"dialect", "5.15.0", "5.12.1", "the switch runs Cumulus Linux 5.12.1 (nv config show) but the fabric declares os_version 5.15.0, " +
			"on the other side of 5.15 (ECN/RED enabled/disabled instead of enable/disable, dcbx-pfc-tlv enabled instead of on), where fabricc's NVUE file changes: " +
			"correct os_version, build again and push; nothing was changed"},
		// A 5.9 file's `egress-pool` is `egress-service-pool` from 5.11
		// (rdocs #3: the renderer changed there, push did not refuse).
		{"egress service pool", "5.9.2", "5.12.1", "the switch runs Cumulus Linux 5.12.1 (nv config show) but the fabric declares os_version 5.9.2, " +
			"on the other side of 5.11 (advance-buffer-config egress-service-pool instead of egress-pool), where fabricc's NVUE file changes: " +
			"correct os_version, build again and push; nothing was changed"},
		{"features", "5.9.2", "5.5.0", "the switch runs Cumulus Linux 5.5.0 (nv config show) but the fabric declares os_version 5.9.2, " +
			"on the other side of 5.6 (qos pfc-watchdog) and 5.9 (auto save at nv config apply), where fabricc's NVUE file changes: " +
			"correct os_version, build again and push; nothing was changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tutorialOn(t, model.PlatformCumulus, 3)
			path := filepath.Join(dir, "fabric.hcl")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Replace(string(data), `os_version = "5.9.2"`, `os_version = "`+tc.declared+`"`, 1)
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			f, set := buildExample(t, dir)
			sw := f.Switch("leaf1")
			cfg := config(t, set, sw)
			l := startLabWith(t, sw, func(o *sim.Options) { o.OSVersion = tc.runs })
			running := l.sim.Running()
			r := l.run(t, ActionPush, f, sw, cfg)
			if tc.want == "" {
				if r.Status != StatusChanged || !r.Verified {
					t.Errorf("push of %s onto %s: %s %q %v", tc.declared, tc.runs, r.Status, r.Error, r.Differences)
				}
				return
			}
			if want := "staging: " + tc.want; r.Status != StatusFailed || r.Error != want {
				t.Errorf("push of %s onto %s: %s %q, want failed with %q", tc.declared, tc.runs, r.Status, r.Error, want)
			}
			if l.sim.Running() != running {
				t.Error("the refused push changed the applied configuration")
			}
		})
	}
}

// TestNVUEHeader: the release and the model of `nv config show -o json`
// come from its header, one decode for both (the NVIDIA Air export's
// header: model "vx", version "Cumulus Linux 5.15.0"); output that is
// not the document list, or has no header, gives neither.
func TestNVUEHeader(t *testing.T) {
	for _, tc := range []struct{ applied, version, model string }{
		{`[{"header": {"model": "vx", "nvue-api-version": "nvue_v1", "rev-id": 1.0, "version": "Cumulus Linux 5.15.0"}}, {"set": {}}]`, "Cumulus Linux 5.15.0", "vx"},
		{`[{"header": {"version": "Cumulus Linux 5.5.1"}}, {"set": {}}]`, "Cumulus Linux 5.5.1", ""},
		{`[{"set": {}}]`, "", ""},
		{`{"header": {"model": "vx"}}`, "", ""},
		{"", "", ""},
	} {
		if v, m := nvueHeader([]byte(tc.applied)); v != tc.version || m != tc.model {
			t.Errorf("nvueHeader(%s) = %q, %q; want %q, %q", tc.applied, v, m, tc.version, tc.model)
		}
	}
}
