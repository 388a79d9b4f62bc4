package sim_test

import (
	"regexp"

	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/util"
	"strings"
	"testing"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestEOSStartupConfig: a commit changes running-config only; `write
// memory` saves it to startup-config.
func TestEOSStartupConfig(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	saved := d.Saved()
	if saved != d.Running() {
		t.Fatal("a fresh switch has unsaved changes")
	}
	cmd(t, drv, "configure session s1")
	cmd(t, drv, "interface Ethernet33")
	cmd(t, drv, "mtu 9000")
	cmd(t, drv, "commit")
	if d.Saved() != saved {
		t.Error("commit saved startup-config")
	}
	if strings.Contains(cmd(t, drv, "show startup-config"), "mtu 9000") {
		t.Error("show startup-config shows the unsaved line")
	}
	if out := cmd(t, drv, "write memory"); out != "Copy completed successfully." {
		t.Errorf("write memory said %q", out)
	}
	if d.Saved() != d.Running() {
		t.Error("write memory did not save running-config")
	}
	if !strings.Contains(cmd(t, drv, "show startup-config"), "   mtu 9000") {
		t.Error("show startup-config lacks the saved line")
	}
}

// TestEOSSessionLimitAndAbort: EOS keeps five pending sessions; a sixth
// is refused until one is aborted; a committed session cannot be
// aborted.
func TestEOSSessionLimitAndAbort(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	drv := mustOpen(t, d, "arista_eos")
	for _, n := range []string{"a1", "a2", "a3", "a4", "a5"} {
		cmd(t, drv, "configure session "+n)
		cmd(t, drv, "end")
	}
	// Ansible's arista.eos terminal plugin's words, without "%", which
	// scrapligo's arista_eos phrases do not match (push's EOS Refusal
	// does).
	r, err := drv.SendCommand("configure session a6")
	if err != nil || r.Result != "Maximum number of pending sessions has been reached" {
		t.Fatalf("sixth session: %v %q", err, r.Result)
	}
	cmd(t, drv, "configure session a1 abort")
	cmd(t, drv, "configure session a6")
	cmd(t, drv, "commit")
	r, _ = drv.SendCommand("configure session a6 abort")
	if r.Failed == nil || !strings.Contains(r.Result, "% Error: session a6 is completed and cannot be aborted") {
		t.Errorf("abort of a committed session: %q", r.Result)
	}
}

// TestEOSBashNoclobber: bash on /mnt/flash creates a file with noclobber
// once; the second writer is refused and the file keeps the first text.
func TestEOSBashNoclobber(t *testing.T) {
	d := start(t, model.PlatformEOS, sim.Faults{})
	a, b := mustOpen(t, d, "arista_eos"), mustOpen(t, d, "arista_eos")
	const lock = "bash timeout 10 set -C; echo holder %s > /mnt/flash/x.lock && echo TAKEN"
	if out := cmd(t, a, strings.Replace(lock, "%s", "a", 1)); out != "TAKEN" {
		t.Fatalf("first writer: %q", out)
	}
	if out := cmd(t, b, strings.Replace(lock, "%s", "b", 1)); out != "bash: line 1: /mnt/flash/x.lock: cannot overwrite existing file" {
		t.Errorf("second writer: %q", out)
	}
	if out := cmd(t, b, "bash timeout 10 cat /mnt/flash/x.lock"); out != "holder a" {
		t.Errorf("cat: %q", out)
	}
	cmd(t, a, "bash timeout 10 rm -f /mnt/flash/x.lock")
	if out := cmd(t, b, "bash timeout 10 cat /mnt/flash/x.lock"); out != "cat: /mnt/flash/x.lock: No such file or directory" {
		t.Errorf("cat after rm: %q", out)
	}
	if out := cmd(t, b, "bash timeout 5 cat /mnt/flash/boot-config"); out != "SWI=flash:/EOS-4.32.2F.swi" {
		t.Errorf("boot-config: %q", out)
	}
}

// TestCumulusListsNoclobberSave: the login shell runs lists, honours
// noclobber, and `nv config save` makes the applied revision the saved
// one.
func TestCumulusListsNoclobberSave(t *testing.T) {
	d := start(t, model.PlatformCumulus, sim.Faults{})
	drv := mustOpen(t, d, cumulusDef(t))
	const lock = "set -C; echo holder %s > /var/tmp/x.lock && echo TAKEN; set +C"
	if out := cmd(t, drv, strings.Replace(lock, "%s", "a", 1)); out != "TAKEN" {
		t.Fatalf("first writer: %q", out)
	}
	if out := cmd(t, drv, strings.Replace(lock, "%s", "b", 1)); out != "-bash: /var/tmp/x.lock: cannot overwrite existing file" {
		t.Errorf("second writer: %q", out)
	}
	if out := cmd(t, drv, "echo again > /var/tmp/x.lock; cat /var/tmp/x.lock"); out != "again" {
		t.Errorf("set +C did not end noclobber: %q", out)
	}
	// Auto save off (on by default from 5.9, the simulator's release):
	// the apply that turns it off is not saved either.
	cmd(t, drv, "nv set system config auto-save enable off")
	cmd(t, drv, "nv config apply -y")
	cmd(t, drv, "nv config save")
	saved := d.Saved()
	cmd(t, drv, "nv set interface swp1 link mtu 9000")
	cmd(t, drv, "nv config apply -y")
	if d.Saved() != saved || d.Running() == saved {
		t.Fatal("apply saved the configuration, or applied nothing")
	}
	cmd(t, drv, "nv config save")
	if d.Saved() != d.Running() {
		t.Error("nv config save did not save the applied configuration")
	}
	if got := path(t, jsonOf(t, drv, "nv config revision -o json"), "3", "state"); got != "applied_and_saved" {
		t.Errorf("saved revision state %v", got)
	}
}

// TestOnyxShowConfigurationFile shows a saved file's commands.
func TestOnyxShowConfigurationFile(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{})
	drv := mustOpen(t, d, onyxDef(t))
	configs(t, drv, "interface ethernet 1/2 mtu 9000 force", "configuration write to snap1 no-switch", "interface ethernet 1/2 mtu 9100 force")
	out := cmd(t, drv, "show configuration files snap1")
	if !strings.Contains(out, `## Saved database "snap1"`) || !strings.Contains(out, "interface ethernet 1/2 mtu 9000 force") || strings.Contains(out, "9100") {
		t.Errorf("show configuration files snap1:\n%s", out)
	}
	if strings.Contains(d.Saved(), "mtu 9000") {
		t.Error("no-switch wrote the active file")
	}
	configs(t, drv, "configuration write")
	if d.Saved() != d.Running() {
		t.Error("configuration write did not save the running configuration")
	}
}

// TestStageFaults checks each injected failure at the second matching
// command line: drop closes before running it, reject refuses it, slow
// runs it and answers late, hang neither runs nor answers.
func TestStageFaults(t *testing.T) {
	for _, tc := range []struct {
		kind    sim.FaultKind
		applied bool
		errText string
	}{
		{sim.FaultDrop, false, "errConnectionError"},
		{sim.FaultReject, false, "% Invalid input (at token 0: 'hostname')"},
		{sim.FaultSlow, true, "errTimeoutError"},
		{sim.FaultHang, false, "errTimeoutError"},
	} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			t.Parallel()
			reached := make(chan string, 1)
			d := start(t, model.PlatformEOS, sim.Faults{Stage: &sim.StageFault{At: regexp.MustCompile(`^hostname `), Nth: 2,
				Kind: tc.kind, Delay: 3 * time.Second, Reached: func(l string) { reached <- l }}})
			drv := mustOpen(t, d, "arista_eos")
			cmd(t, drv, "configure")
			cmd(t, drv, "hostname one")
			r, err := drv.SendCommand("hostname two", opoptions.WithTimeoutOps(time.Second))
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = r.Result
			}
			if !strings.Contains(got, tc.errText) {
				t.Errorf("answer %q, want %q", got, tc.errText)
			}
			if l := <-reached; l != "hostname two" {
				t.Errorf("reached on %q", l)
			}
			if applied := strings.Contains(d.Running(), "hostname two"); applied != tc.applied {
				t.Errorf("line applied: %v, want %v", applied, tc.applied)
			}
			// The fault fires once: a new session works.
			again := mustOpen(t, d, "arista_eos")
			cmd(t, again, "configure")
			cmd(t, again, "hostname three")
		})
	}
}

// TestLoginFaults: a login reject refuses the first connection only; a
// login hang never shows the prompt.
func TestLoginFaults(t *testing.T) {
	d := start(t, model.PlatformOnyx, sim.Faults{Stage: &sim.StageFault{Login: true, Kind: sim.FaultReject}})
	if _, err := open(t, d, onyxDef(t)); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("first login: %v", err)
	}
	mustOpen(t, d, onyxDef(t))
	h := start(t, model.PlatformOnyx, sim.Faults{Stage: &sim.StageFault{Login: true, Kind: sim.FaultHang}})
	if _, err := open(t, h, onyxDef(t), options.WithTimeoutOps(time.Second)); err == nil {
		t.Error("a hung login opened")
	}
	mustOpen(t, h, onyxDef(t))
}

var _ util.Option = options.WithTimeoutOps(0)
