package sim_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/channel"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/push/platforms"
	"github.com/fabricc/fabricc/sim"
)

func cumulusDef(t *testing.T) any {
	t.Helper()
	def, err := platforms.Definition(model.PlatformCumulus)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

var nvSets = []string{
	"nv set bridge domain br_default vlan 100,200",
	"nv set interface swp1-2 link mtu 9216",
	"nv set interface swp1 bridge domain br_default access 100",
	"nv set interface swp1 description 'to gpu1:roce0'",
	"nv set qos mapping default-global trust l3",
	"nv set qos mapping default-global dscp 24-31 switch-priority 3",
	"nv set qos pfc default-global switch-priority 3",
	"nv set qos congestion-control default-global traffic-class 3 min-threshold 150000",
	"nv set qos congestion-control default-global traffic-class 3 ecn enable",
	"nv set qos egress-scheduler default-global traffic-class 0,3 mode dwrr",
}

func TestCumulusSetDiffApplyShow(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	before := d.Running()
	for _, c := range nvSets {
		cmd(t, drv, c)
	}
	if d.Running() != before {
		t.Fatal("nv set changed the applied configuration before apply")
	}
	diff := cmd(t, drv, "nv config diff -o commands")
	if !strings.Contains(diff, "nv set interface swp2 link mtu 9216") {
		t.Errorf("diff lacks swp2 mtu:\n%s", diff)
	}
	if out := cmd(t, drv, "nv config apply -y"); !strings.Contains(out, "applied [rev_id: 2]") {
		t.Errorf("apply said %q", out)
	}
	show := jsonOf(t, drv, "nv config show -o json")
	set := path(t, show, "1", "set")
	for i, c := range []struct{ got, want any }{
		// nv config show lists a setting interfaces share under one key
		// (sim/cumulus/configshow.go).
		{path(t, set, "interface", "swp1-2", "link", "mtu"), 9216.0},
		{set.(map[string]any)["interface"].(map[string]any)["swp2"], nil},
		{path(t, set, "bridge", "domain", "br_default", "vlan", "100,200") != nil, true},
		{path(t, set, "interface", "swp1", "description"), "to gpu1:roce0"},
		{path(t, set, "interface", "swp1", "bridge", "domain", "br_default", "access"), 100.0},
		{path(t, set, "qos", "mapping", "default-global", "dscp", "26", "switch-priority"), 3.0},
		{path(t, set, "qos", "congestion-control", "default-global", "traffic-class", "3", "min-threshold"), 150000.0},
		{path(t, set, "qos", "egress-scheduler", "default-global", "traffic-class", "0", "mode"), "dwrr"},
		{path(t, jsonOf(t, drv, "nv show qos pfc default-global -o json"), "switch-priority", "3") != nil, true},
		// Auto save is on in 5.9 (the simulator's release): apply saves.
		{path(t, jsonOf(t, drv, "nv config revision -o json"), "2", "state"), "applied_and_saved"},
		// An earlier revision keeps its state (NVUE Command Reference,
		// Config Commands, `nv config revision`: 1-4 all
		// applied_and_saved); NVUE has no "superseded".
		{path(t, jsonOf(t, drv, "nv config revision -o json"), "1", "state"), "applied_and_saved"},
	} {
		if c.got != c.want {
			t.Errorf("check %d: got %v, want %v", i, c.got, c.want)
		}
	}
	// verify reads the grouped keys back per interface, and the
	// operational MTU and PFC priorities from the simulator's answers to
	// the other read-back commands.
	v := push.Vendors[model.PlatformCumulus]
	var outs []string
	for _, c := range v.ReadBack {
		outs = append(outs, cmd(t, drv, c))
	}
	st, err := v.Parse(outs)
	if err != nil {
		t.Fatal(err)
	}
	if p1, p2 := st.Ports["swp1"], st.Ports["swp2"]; p1 == nil || p2 == nil || p1.MTU != 9216 || p2.MTU != 9216 || p1.AccessVLAN != 100 {
		t.Errorf("read back swp1 %+v swp2 %+v, want both MTU 9216, swp1 access 100", p1, p2)
	}
	for _, name := range []string{"swp1", "swp2"} {
		if op := st.Ports[name].Operational; op == nil || op.MTU != 9216 {
			t.Errorf("read back %s operational %+v, want MTU 9216", name, op)
		}
	}
}

func TestCumulusErrorsChangeNothing(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	cmd(t, drv, "nv set interface swp1 link mtu 9000")
	for _, bad := range []string{
		"nv set interface swp1 link mtu 99999",
		"nv set qos mapping default-global trust l7",
		"nv set qos bogus thing 1",
		"nv set interface swp1 link mtu",
	} {
		r, err := drv.SendCommand(bad)
		if err != nil {
			t.Fatal(err)
		}
		if r.Failed == nil || !strings.Contains(r.Result, "Error:") {
			t.Errorf("%q not refused: %q", bad, r.Result)
		}
	}
	if got := cmd(t, drv, "nv config diff -o commands"); strings.TrimSpace(got) != "nv set interface swp1 link mtu 9000" {
		t.Errorf("refused commands changed the pending revision:\n%s", got)
	}
	if r, _ := drv.SendCommand("bogus-cmd"); r.Failed == nil {
		t.Errorf("unknown shell command not refused: %q", r.Result)
	}
}

func TestCumulusPatchConfirmAndRollback(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	yaml := "- set:\n    interface:\n      swp3:\n        link:\n          mtu: 9100\n"
	cmd(t, drv, "echo "+base64.StdEncoding.EncodeToString([]byte(yaml))+" | base64 -d > /tmp/fabricc.yaml")
	cmd(t, drv, "nv config patch /tmp/fabricc.yaml")
	before := d.Running()
	cmd(t, drv, "nv config apply --confirm 1s -y")
	if !strings.Contains(d.Running(), "mtu: 9100") {
		t.Fatalf("apply --confirm did not apply:\n%s", d.Running())
	}
	if got := path(t, jsonOf(t, drv, "nv config revision -o json"), "2", "state"); got != "confirm" {
		t.Errorf("state while waiting = %v", got)
	}
	waitFor(t, func() bool { return d.Running() == before })
	// Confirmed in time: stays.
	cmd(t, drv, "nv config patch /tmp/fabricc.yaml")
	cmd(t, drv, "nv config apply --confirm 300s -y")
	// NVUE has no `nv config confirm` (Cumulus Linux user guide, NVUE CLI,
	// "Configuration Management Commands"): it is refused and confirms nothing.
	if r, err := drv.SendCommand("nv config confirm"); err != nil || r.Failed == nil {
		t.Errorf("nv config confirm was accepted: %v %q", err, r.Result)
	}
	cmd(t, drv, "nv config apply --confirm-yes")
	if !strings.Contains(d.Running(), "mtu: 9100") {
		t.Errorf("confirmed revision not applied:\n%s", d.Running())
	}
	// Rollback primitive: apply the earlier revision.
	cmd(t, drv, "nv config apply 1 -y")
	if d.Running() != before {
		t.Errorf("nv config apply 1 did not restore revision 1:\n%s", d.Running())
	}
}

func TestCumulusHeredocReplaceAndDetach(t *testing.T) {
	d, err := sim.Start(context.Background(), sim.Options{Name: "leaf2", Platform: model.PlatformCumulus,
		Users: map[string]string{testUser: testPass}, CumulusNoVRFPrompt: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	drv := mustOpen(t, d, cumulusDef(t))
	if p, _ := drv.Channel.GetPrompt(); !strings.HasPrefix(string(p), "admin@leaf2:~$") {
		t.Errorf("prompt = %q", p)
	}
	cmd(t, drv, "nv set interface swp9 link mtu 1600")
	cmd(t, drv, "nv config detach")
	if got := cmd(t, drv, "nv config diff"); got != "" {
		t.Errorf("detach left a pending diff: %q", got)
	}
	lines := []string{"cat > /tmp/f.yaml <<'EOF'", "- set:", "    interface:", "      swp4:", "        link:", "          mtu: 9000", "EOF"}
	var events []*channel.SendInteractiveEvent
	for i, l := range lines {
		resp := "> " // regexp; "" waits for the shell prompt
		if i == len(lines)-1 {
			resp = ""
		}
		events = append(events, &channel.SendInteractiveEvent{ChannelInput: l, ChannelResponse: resp})
	}
	if _, err := drv.SendInteractive(events); err != nil {
		t.Fatal(err)
	}
	if got := cmd(t, drv, "cat /tmp/f.yaml"); !strings.Contains(got, "mtu: 9000") {
		t.Fatalf("heredoc file = %q", got)
	}
	cmd(t, drv, "nv config replace /tmp/f.yaml")
	cmd(t, drv, "nv config apply -y")
	want := "interface:\n  swp4:\n    link:\n      mtu: 9000\n" // NVUE indents by two
	if got := d.Running(); got != want {
		t.Errorf("after replace+apply running = %q, want %q", got, want)
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not reached within 5s")
}

// TestCumulusStartupAgainstApplied: `nv config diff startup applied`
// lists what is applied and not saved, empty once `nv config save` ran
// (NVUE Command Reference, Config Commands); `nv config apply startup`
// brings the applied configuration back to the saved one.
func TestCumulusStartupAgainstApplied(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	if got := cmd(t, drv, "nv config diff startup applied"); got != "" {
		t.Fatalf("a fresh switch has applied changes not saved:\n%s", got)
	}
	cmd(t, drv, "nv set system config auto-save enable off") // on by default in 5.9
	cmd(t, drv, "nv config apply -y")
	cmd(t, drv, "nv config save")
	saved := d.Saved()
	cmd(t, drv, "nv set interface swp20 description unsaved-note")
	cmd(t, drv, "nv config apply -y")
	if got := cmd(t, drv, "nv config diff startup applied -o commands"); got != "nv set interface swp20 description unsaved-note" {
		t.Errorf("diff startup applied -o commands: %q, want the one set line", got)
	}
	if got := cmd(t, drv, "nv config diff applied startup -o commands"); got != "nv unset interface swp20 description unsaved-note" {
		t.Errorf("diff applied startup -o commands: %q, want the one unset line", got)
	}
	// Without -o commands, NVUE's YAML list of changes (Cumulus Linux user
	// guide, NVUE CLI, "View Differences Between Configurations").
	if got := cmd(t, drv, "nv config diff startup applied"); got != "- set:\n    interface:\n      swp20:\n        description: unsaved-note" {
		t.Errorf("diff startup applied: %q, want the set form", got)
	}
	if got := cmd(t, drv, "nv config diff applied startup"); got != "- unset:\n    interface:" {
		t.Errorf("diff applied startup: %q, want the unset form", got)
	}
	if r, err := drv.SendCommand("nv config diff startup 99"); err != nil || r.Failed == nil || r.Result != "Error: revision 99 does not exist" {
		t.Errorf("diff against a missing revision: %v %q, want the error", err, r.Result)
	}
	if out := cmd(t, drv, "nv config apply startup -y"); !strings.HasPrefix(out, "applied [rev_id: ") {
		t.Fatalf("apply startup said %q", out)
	}
	if got := cmd(t, drv, "nv config diff startup applied"); got != "" {
		t.Errorf("after apply startup the applied configuration still differs from startup:\n%s", got)
	}
	if d.Running() != saved || d.Saved() != saved {
		t.Errorf("apply startup: applied\n%s\nsaved\n%s\nwant both\n%s", d.Running(), d.Saved(), saved)
	}
	cmd(t, drv, "nv set interface swp20 description saved-note")
	cmd(t, drv, "nv config apply -y")
	cmd(t, drv, "nv config save")
	if got := cmd(t, drv, "nv config diff startup applied"); got != "" {
		t.Errorf("after nv config save the applied configuration still differs from startup:\n%s", got)
	}
}
