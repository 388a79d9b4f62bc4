package sim_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/channel"
	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/driver/options"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestEOSSessionCommitAbortTimer: a session's change reaches running
// only on commit; a timer commit not confirmed rolls back, a confirmed
// one stays. `show configuration sessions detail | json` reports them in
// the form of the release (napalm-automation/napalm issue #2166): up to
// 4.31 "pendingCommitTimer" then "completed"; from 4.32 "committed" at
// once, the top-level commitTimerSessionName naming the session only
// while its timer runs.
func TestEOSSessionCommitAbortTimer(t *testing.T) {
	for _, tc := range []struct {
		release, timed, confirmed string
		timerKey                  bool
	}{
		{"4.31.2F", "pendingCommitTimer", "completed", false},
		{"4.32.2F", "committed", "committed", true},
	} {
		t.Run(tc.release, func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: model.PlatformEOS, OSVersion: tc.release})
			drv := mustOpen(t, d, "arista_eos")
			base := d.Running()
			cmd(t, drv, "configure session s1")
			cmd(t, drv, "interface Ethernet33")
			cmd(t, drv, "mtu 9000")
			if d.Running() != base {
				t.Fatal("session change reached running-config before commit")
			}
			if diff := cmd(t, drv, "show session-config diffs"); !strings.Contains(diff, "+   mtu 9000") || !strings.Contains(diff, "--- system:/running-config") {
				t.Errorf("diffs = %q", diff)
			}
			cmd(t, drv, "abort")
			if d.Running() != base {
				t.Fatal("abort changed running-config")
			}
			// Timer commit, not confirmed: rolls back.
			cmd(t, drv, "configure session s2")
			cmd(t, drv, "rollback clean-config")
			cmd(t, drv, "interface Ethernet33")
			cmd(t, drv, "mtu 9100")
			cmd(t, drv, "commit timer 00:00:01")
			if !strings.Contains(d.Running(), "mtu 9100") {
				t.Fatalf("commit timer did not apply:\n%s", d.Running())
			}
			js := jsonOf(t, drv, "show configuration sessions detail | json").(map[string]any)
			if got := path(t, js, "sessions", "s2", "state"); got != tc.timed {
				t.Errorf("session state = %v, want %s", got, tc.timed)
			}
			if got, ok := js["commitTimerSessionName"]; ok != tc.timerKey || ok && got != "s2" {
				t.Errorf("commitTimerSessionName = %v (present %v), want s2 present %v", got, ok, tc.timerKey)
			}
			if _, ok := path(t, js, "sessions", "s2").(map[string]any)["commitBy"]; ok == tc.timerKey {
				t.Errorf("commitBy present %v in %s", ok, tc.release)
			}
			waitFor(t, func() bool { return d.Running() == base })
			// Timer commit confirmed: stays.
			cmd(t, drv, "configure session s3")
			cmd(t, drv, "interface Ethernet33")
			cmd(t, drv, "mtu 9200")
			cmd(t, drv, "commit timer 00:05:00")
			cmd(t, drv, "configure session s3 commit")
			js = jsonOf(t, drv, "show configuration sessions | json").(map[string]any)
			if got := path(t, js, "sessions", "s3", "state"); got != tc.confirmed {
				t.Errorf("confirmed session state = %v, want %s", got, tc.confirmed)
			}
			if got, ok := js["commitTimerSessionName"]; ok {
				t.Errorf("commitTimerSessionName = %v after the confirm", got)
			}
			time.Sleep(50 * time.Millisecond)
			if !strings.Contains(d.Running(), "mtu 9200") {
				t.Errorf("confirmed commit lost:\n%s", d.Running())
			}
		})
	}
}

func TestOnyxNoFormsFilesAndSwitchTo(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	base := d.Running()
	configs(t, drv, onyxBlock...)
	undo := []string{
		"interface ethernet 1/1 no dcb priority-flow-control mode force", "interface ethernet 1/1 dcb priority-flow-control mode auto force",
		"interface ethernet 1/1 no pfc-wd", "interface ethernet 1/1 no traffic-class 3 congestion-control",
		"interface ethernet 1/1 no traffic-class 0 dcb ets", "interface ethernet 1/1 no traffic-class 3 dcb ets", "interface ethernet 1/1 no traffic-class 6 dcb ets",
		"interface ethernet 1/1 no traffic-class 3 bind switch-priority 3", "interface ethernet 1/1 no traffic-class 6 bind switch-priority 6",
		"interface ethernet 1/1 no qos map dscp 24 25 26 27 28 29 30 31", "interface ethernet 1/1 no qos trust",
		"interface ethernet 1/1 no flowcontrol send force", "interface ethernet 1/1 no flowcontrol receive force",
		"interface ethernet 1/1 no switchport trunk allowed-vlan", "interface ethernet 1/1 no switchport mode",
		"interface ethernet 1/1 no speed force", "interface ethernet 1/1 no mtu force", "interface ethernet 1/1 no description",
		"no vlan 100", "no traffic pool roce", "no dcb priority-flow-control priority 3 enable", "no dcb priority-flow-control enable force",
	}
	configs(t, drv, undo...)
	if got := d.Running(); got != base {
		t.Errorf("no forms did not restore the config:\n%s", got)
	}
	// A checkpoint written with no-switch leaves the active file alone;
	// switching to it reboots the switch into the saved configuration.
	configs(t, drv, "interface ethernet 1/2 mtu 9000 force", "configuration write to before-push no-switch")
	saved := withoutStamp(d.Running())
	files := cmd(t, drv, "show configuration files")
	for _, want := range []string{"before-push\n", "initial (active)", "Active configuration: initial", "Unsaved changes     : yes"} {
		if !strings.Contains(files, want) {
			t.Errorf("show configuration files lacks %q:\n%s", want, files)
		}
	}
	configs(t, drv, "interface ethernet 1/2 mtu 9100 force")
	_, err := drv.SendInteractive([]*channel.SendInteractiveEvent{
		{ChannelInput: "configure terminal", ChannelResponse: ""},
		{ChannelInput: "configuration switch-to before-push", ChannelResponse: "to confirm:"},
		{ChannelInput: "yes", ChannelResponse: "Rebooting"},
	}, opoptions.WithTimeoutOps(2*time.Second))
	if err != nil {
		t.Fatalf("switch-to: %v", err)
	}
	after := mustOpen(t, d, onyxDef(t))
	if got := withoutStamp(d.Running()); got != strings.Replace(saved, `"initial"`, `"before-push"`, 1) {
		t.Errorf("switch-to did not restore the checkpoint:\n%s", lineDiffSim(saved, got))
	}
	if files := cmd(t, after, "show configuration files"); !strings.Contains(files, "before-push (active)") {
		t.Errorf("switch-to left another file active:\n%s", files)
	}
}

// withoutStamp drops the "## Generated at" header line of an Onyx
// running-config, the one line that depends on when the switch booted.
func withoutStamp(run string) string {
	var out []string
	for _, l := range strings.Split(run, "\n") {
		if !strings.HasPrefix(l, "## Generated at ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// lineDiffSim lists the lines only in a (-) or only in b (+).
func lineDiffSim(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ia, ib := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !ib[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ia[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}

func TestOnyxErrorChangesNothing(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	before := d.Running()
	for _, bad := range []string{"interface ethernet 1/1 mtu 99999 force", "interface ethernet 1/1 frobnicate", "interface ethernet 1/1 switchport access vlan 77", "bogus"} {
		mr, err := drv.SendConfigs([]string{bad})
		if err != nil {
			t.Fatal(err)
		}
		if mr.Failed == nil {
			t.Errorf("%q accepted: %q", bad, mr.JoinedResult())
		}
	}
	if r, _ := drv.SendConfigs([]string{"bogus"}); !strings.Contains(r.JoinedResult(), `% Error: bogus: this command is not simulated`) {
		t.Errorf("error text = %q", r.JoinedResult())
	}
	_ = cmd(t, drv, "show version")
	if got := d.Running(); got != before {
		t.Errorf("refused commands changed the config:\n%s", got)
	}
}

func TestFaultRejectLatencyDrop(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{Reject: regexp.MustCompile(`^\s*mtu 9000`)})
	drv := mustOpen(t, d, "arista_eos")
	mr, err := drv.SendConfigs([]string{"interface Ethernet33", "mtu 9000"})
	if err != nil || mr.Failed == nil || !strings.Contains(mr.JoinedResult(), "% Invalid input") {
		t.Errorf("reject: err=%v out=%q", err, mr.JoinedResult())
	}
	if strings.Contains(d.Running(), "mtu 9000") {
		t.Error("rejected command changed state")
	}

	slow := start(t, model.PlatformEOS, sim.Faults{Latency: 300 * time.Millisecond})
	sdrv := mustOpen(t, slow, "arista_eos")
	t0 := time.Now()
	cmd(t, sdrv, "show version")
	if el := time.Since(t0); el < 300*time.Millisecond {
		t.Errorf("latency fault: command took %v", el)
	}

	drop := start(t, model.PlatformEOS, sim.Faults{DropAfter: 6})
	ddrv := mustOpen(t, drop, "arista_eos") // enable, terminal width, terminal length: 3 lines
	var failed bool
	for i := 0; i < 5 && !failed; i++ {
		_, err := ddrv.SendCommand("show version", options.WithTimeoutOps(2*time.Second))
		failed = err != nil
	}
	if !failed {
		t.Error("connection was not dropped")
	}
}

func TestFaultAuthAndHostKey(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{RejectAuth: true})
	if _, err := open(t, d, "arista_eos"); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("auth fault: err = %v", err)
	}
	ok := start(t, model.PlatformEOS, sim.Faults{})
	if _, err := open(t, ok, "arista_eos", options.WithAuthPassword("wrong")); err == nil {
		t.Error("wrong password accepted")
	}
	for _, wrong := range []bool{false, true} {
		dev, err := sim.Start(context.Background(), sim.Options{Name: "leaf1", Platform: model.PlatformEOS,
			Users: map[string]string{testUser: testPass}, Faults: sim.Faults{WrongHostKey: wrong}})
		if err != nil {
			t.Fatal(err)
		}
		defer dev.Close()
		kh := filepath.Join(t.TempDir(), "known_hosts")
		if err := os.WriteFile(kh, []byte(dev.KnownHostsLine()+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err = openWith(t, dev, "arista_eos", options.WithSSHKnownHostsFile(kh))
		if wrong && (err == nil || !strings.Contains(err.Error(), "key mismatch")) {
			t.Errorf("wrong host key: err = %v", err)
		}
		if !wrong && err != nil {
			t.Errorf("right host key refused: %v", err)
		}
	}
}

func TestFaultDrift(t *testing.T) {
	for _, p := range []model.Platform{model.PlatformEOS, model.PlatformOnyx, model.PlatformCumulus} {
		t.Run(string(p), func(t *testing.T) {
			d := start(t, p, sim.Faults{Drift: true})
			var drv = map[model.Platform]func() any{
				model.PlatformEOS: func() any { return "arista_eos" }, model.PlatformOnyx: func() any { return onyxDef(t) }, model.PlatformCumulus: func() any { return cumulusDef(t) },
			}[p]()
			c := mustOpen(t, d, drv)
			// On Cumulus the drift is operational: NVUE applied 9216,
			// the switch runs 9116 (below).
			want := map[model.Platform]string{model.PlatformEOS: "mtu 9114", model.PlatformOnyx: "interface ethernet 1/1 mtu 9116 force", model.PlatformCumulus: "mtu: 9216"}[p]
			switch p {
			case model.PlatformEOS:
				cmd(t, c, "configure session drift")
				cmd(t, c, "interface Ethernet33")
				cmd(t, c, "mtu 9214")
				cmd(t, c, "commit")
			case model.PlatformOnyx:
				configs(t, c, "interface ethernet 1/1 mtu 9216 force")
				cmd(t, c, "show version") // leaves configuration mode
			case model.PlatformCumulus:
				cmd(t, c, "nv set interface swp1 link mtu 9216")
				cmd(t, c, "nv config apply -y")
				for show, mtu := range map[string]string{"nv show interface swp1 link -o json": `"mtu": 9116`, "nv show interface swp1 link --applied -o json": `"mtu": 9216`} {
					if out := cmd(t, c, show); !strings.Contains(out, mtu) {
						t.Errorf("drift: %s lacks %s:\n%s", show, mtu, out)
					}
				}
			}
			if !strings.Contains(d.Running(), want) {
				t.Errorf("drift: running lacks %q:\n%s", want, d.Running())
			}
		})
	}
}

// TestRejectInVendorForm: an injected refusal answers in the form of the
// program that refuses the line, which the platform's definition takes
// as a failure: Onyx's and EOS's "%" lines, NVUE's "Error:" for an nv
// command, and bash's for another line of a Cumulus shell (before, every
// Cumulus line read "Error: LINE: rejected by the switch", the whole
// line echoed, an 18 KB base64 one among them).
func TestRejectInVendorForm(t *testing.T) {
	for _, tc := range []struct {
		platform model.Platform
		def      func(*testing.T) any
		line     string
		want     string
	}{
		{model.PlatformOnyx, func(t *testing.T) any { return onyxDef(t) }, "show interfaces", "% Unrecognized command \"show\".\nType \"?\" for help."},
		{model.PlatformEOS, func(*testing.T) any { return "arista_eos" }, "show interfaces", "% Invalid input (at token 0: 'show')"},
		{model.PlatformCumulus, func(t *testing.T) any { return cumulusDef(t) }, "echo " + strings.Repeat("QUJD", 64) + " | base64 -d > /tmp/f.yaml",
			"-bash: echo: Permission denied"},
		{model.PlatformCumulus, func(t *testing.T) any { return cumulusDef(t) }, "nv config patch /tmp/fabricc-1.yaml",
			"Error: nv config patch /tmp/fabricc-1.yaml: rejected by the switch"},
		{model.PlatformCumulus, func(t *testing.T) any { return cumulusDef(t) }, "sudo nv unset interface swp1 qos pfc",
			"Error: sudo nv unset interface: rejected by the switch"},
	} {
		t.Run(string(tc.platform)+"/"+strings.Fields(tc.line)[0], func(t *testing.T) {
			d := start(t, tc.platform, sim.Faults{Reject: regexp.MustCompile("^" + regexp.QuoteMeta(tc.line) + "$")})
			drv := mustOpen(t, d, tc.def(t))
			r, err := drv.SendCommand(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(r.Result); got != tc.want || r.Failed == nil {
				t.Errorf("answer %q (failed: %v), want %q, a failure", got, r.Failed, tc.want)
			}
		})
	}
}
