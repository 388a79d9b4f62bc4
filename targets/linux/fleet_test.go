package linux

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// The tests in this file hold what a fleet needs of a host script: one
// NIC's failure leaves the others set, the boot unit waits for the RDMA
// stack, distinct exit statuses, changes in the system log, a DCBX agent
// stopping DCB, a half-removed boot install, memlock for services, and
// the marking applications must use.

// fakeLogger appends its arguments, one call a line, to $FAKE_LOG.
const fakeLogger = "#!/bin/sh\nprintf '%s\\n' \"$*\" >>\"$FAKE_LOG\"\n"

// fleetRun runs script (a file) with args in namespace ns, with the fake
// tools of fakes (fakeBin) first on PATH and env added; it returns the
// output and the exit status.
func fleetRun(t *testing.T, ns, script string, fakes map[string]string, env []string, args ...string) (string, int) {
	t.Helper()
	dir := fakeBin(t, fakes)
	argv := append([]string{"netns", "exec", ns, "env", "PATH=" + dir + ":" + os.Getenv("PATH")}, hostNameEnv(t, script)...)
	argv = append(argv, env...)
	argv = append(append(argv, "bash", script), args...)
	out, err := exec.Command("ip", argv...).CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("ip netns exec: %v\n%s", err, out)
	}
	return string(out), 0
}

// TestNetnsNICFailureGoesOn: the first NIC's interface is missing, which
// stops its steps; the second NIC is still set, and the run exits 1 at
// the end naming the first. --check reports both and exits 3. Both NICs
// have IPv4 addresses, so the second also gets the three rail sysctls
// (rail_sysctls), which count among its differences and changes.
func TestNetnsNICFailureGoesOn(t *testing.T) {
	ns := newNetns(t)
	f := fixture()
	bad := fixtureNIC("roce0", "fab9", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.9/24")
	good := fixtureNIC("roce1", "fab0", "ConnectX-5", "mellanox", "inbox", 0, "192.0.2.1/24")
	good.MTU = 9000
	f.Hosts[2].NICs = []model.NIC{bad, good}
	f.Hosts[2].Tuning = false
	path := writeScript(t, render(t, f, 2))
	logs := map[string]string{"logger": fakeLogger}
	env := []string{"FAKE_LOG=" + filepath.Join(t.TempDir(), "log")}

	out, rc := fleetRun(t, ns, path, logs, env, "--check")
	mustHave(t, "--check", out, "DIFF fab9 link: intended present; actual absent\n",
		"DIFF fab0 mtu: intended 9000; actual 1500\n", "DIFF fab0 rp_filter: intended 2; actual 0\n", "fabricc: 7 difference(s) from the model\n")
	if rc != 3 {
		t.Errorf("--check: status %d, want 3:\n%s", rc, out)
	}
	out, rc = fleetRun(t, ns, path, logs, env)
	mustHave(t, "run", out,
		"fabricc: error: interface fab9 not found: load its driver, or fix the nic's interface attribute in the fabric\n",
		"set fab0 mtu: 1500 -> 9000\n", "set fab0 address 192.0.2.1/24: absent -> present\n")
	if want := "fabricc: 6 change(s) applied; 1 NIC(s) failed, their steps stopped on an error: fab9\n" +
		"fabricc: error: the steps of 1 NIC(s) stopped on an error (see fabricc: error: above; the other NICs' steps ran): fab9\n"; rc != 1 || !strings.HasSuffix(out, want) {
		t.Errorf("run: status %d, want 1 and the output ending\n%s\ngot:\n%s", rc, want, out)
	}
	if d := linkDump(t, ns); !strings.Contains(d, "fab0@fab1: <") || !strings.Contains(d, " mtu 9000 ") || !strings.Contains(d, "inet 192.0.2.1/24 ") {
		t.Errorf("the second NIC was not set:\n%s", d)
	}
}

// TestRDMAWait: under the boot unit a run waits for a real NIC's RDMA
// device (udev loads mlx5_ib after the netdev), up to RDMA_WAIT seconds
// from the script's start; elsewhere, and on --check, it does not wait.
func TestRDMAWait(t *testing.T) {
	const stubs = "is_physical() { true; }\nn=0\nrdma_dev() { [[ $n -ge 2 ]] && printf mlx5_0; }\nsleep() { n=$((n + 1)); echo \"slept $n\"; }\n"
	tests := []struct {
		name, env string
		args      []string
		want      string
	}{
		{"boot unit: waits until the device is there", "export INVOCATION_ID=x FABRICC_BOOT_UNIT=1\n", nil, "slept 1\nslept 2\ndone after 2\n"},
		{"boot unit, time up", "export INVOCATION_ID=x FABRICC_BOOT_UNIT=1\nSECONDS=60\n", nil,
			"note: fab0: no RDMA device after 60 s of boot; its RDMA steps fail below (is the RDMA driver, mlx5_ib, loaded?)\ndone after 0\n"},
		{"INVOCATION_ID of another service", "export INVOCATION_ID=x\nunset FABRICC_BOOT_UNIT\n", nil, "done after 0\n"},
		{"not under systemd", "unset INVOCATION_ID FABRICC_BOOT_UNIT\n", nil, "done after 0\n"},
		{"--check at boot", "export INVOCATION_ID=x FABRICC_BOOT_UNIT=1\n", []string{"--check"}, "done after 0\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := hostRun(t, nil, tc.env+stubs+"rdma_wait fab0\necho \"done after $n\"\n", tc.args...)
			if err != nil || out != tc.want {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}

// TestNetnsExitStatusAndLog: --check exits 3 on differences; a run with
// --changed-exit N exits N when it changed something and 0 when not, and
// logs each change with logger, but not under the boot unit; bad
// --changed-exit values are refused with status 2.
func TestNetnsExitStatusAndLog(t *testing.T) {
	ns := newNetns(t)
	f, _ := bootFixture("demartek-lab")
	path := writeScript(t, render(t, f, 2))
	logFile := filepath.Join(t.TempDir(), "log")
	logs := map[string]string{"logger": fakeLogger}
	env := []string{"FAKE_LOG=" + logFile}
	readLog := func() string {
		b, _ := os.ReadFile(logFile)
		_ = os.Remove(logFile)
		return string(b)
	}
	steps := []struct {
		name string
		env  []string
		args []string
		rc   int
		last string
		log  string
	}{
		{"check, differences", nil, []string{"--check"}, 3, "fabricc: 3 difference(s) from the model\n", ""},
		{"run that changes", nil, []string{"--changed-exit", "7"}, 7, "fabricc: 3 change(s) applied\n",
			"-t fabricc-host-settings -- set fab0 mtu: 1500 -> 9000\n-t fabricc-host-settings -- set fab0 state: down -> up\n-t fabricc-host-settings -- set fab0 address 192.0.2.1/24: absent -> present\n"},
		{"run with nothing to do", nil, []string{"--changed-exit=7"}, 0, "fabricc: nothing to do; the host already matches\n", ""},
		{"check, no difference", nil, []string{"--check"}, 0, "fabricc: host matches the model\n", ""},
		{"drift", nil, nil, -1, "", ""},
		{"dry run that would change", nil, []string{"--dry-run", "--changed-exit", "9"}, 9, "fabricc: 1 change(s) would be made\n", ""},
		{"plain run, no --changed-exit", nil, nil, 0, "fabricc: 1 change(s) applied\n", "-t fabricc-host-settings -- set fab0 mtu: 1500 -> 9000\n"},
		{"drift", nil, nil, -1, "", ""},
		{"the boot unit's run is not logged", []string{"INVOCATION_ID=x", "FABRICC_BOOT_UNIT=1"}, nil, 0, "fabricc: 1 change(s) applied\n", ""},
	}
	for _, s := range steps {
		if s.name == "drift" {
			if out, err := exec.Command("ip", "-n", ns, "link", "set", "fab0", "mtu", "1500").CombinedOutput(); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			continue
		}
		out, rc := fleetRun(t, ns, path, logs, append(env, s.env...), s.args...)
		if rc != s.rc || !strings.HasSuffix(out, s.last) {
			t.Errorf("%s: status %d, want %d and the output ending %q:\n%s", s.name, rc, s.rc, s.last, out)
		}
		if got := readLog(); got != s.log {
			t.Errorf("%s: logged\n%s\nwant\n%s", s.name, got, s.log)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--changed-exit", "1"}, "fabricc: --changed-exit takes a number from 3 to 125 (0, 1 and 2 are taken; 126 and up are the shell's), not 1\n"},
		{[]string{"--changed-exit=126"}, "fabricc: --changed-exit takes a number from 3 to 125 (0, 1 and 2 are taken; 126 and up are the shell's), not 126\n"},
		{[]string{"--changed-exit", "x y"}, "fabricc: --changed-exit takes a number from 3 to 125 (0, 1 and 2 are taken; 126 and up are the shell's), not x\\ y\n"},
		{[]string{"--changed-exit"}, "fabricc: --changed-exit takes a number from 3 to 125 (0, 1 and 2 are taken; 126 and up are the shell's), not ''\n"},
		{[]string{"--check", "--changed-exit", "4"}, "fabricc: --check changes nothing and exits 3 on differences; use --changed-exit with a run or --dry-run\n"},
	} {
		out, rc := fleetRun(t, ns, path, logs, env, tc.args...)
		if rc != 2 || out != tc.want {
			t.Errorf("%q: status %d, output %q; want 2 and %q", tc.args, rc, out, tc.want)
		}
	}
}

// fakePgrepLldpad is pgrep on a host where lldpad runs.
const fakePgrepLldpad = "#!/bin/sh\n[ \"$*\" = \"-x lldpad\" ]\n"

// TestNetnsDCBXAgent: with lldpad running and LLDP not disabled on the
// NIC's interface, a run leaves that NIC's DCB steps out and exits 1 with
// the fix, naming the interface, after setting the rest; --check reports
// the agent on the interface as a difference; --dry-run counts none of
// the steps a run leaves out. With LLDP disabled there (lldptool
// set-lldp -i fab0 adminStatus=disabled, the fix's second way) the run
// goes on with the DCB steps.
func TestNetnsDCBXAgent(t *testing.T) {
	ns := newNetns(t)
	f, _ := bootFixture("demartek-lab")
	path := writeScript(t, render(t, f, 2))
	fakes := map[string]string{"pgrep": fakePgrepLldpad, "logger": fakeLogger, "lldptool": fakeLldptool}
	env := []string{"FAKE_LOG=" + filepath.Join(t.TempDir(), "log")}
	fix := "stop and disable it (systemctl disable --now lldpad), or disable LLDP on this interface (lldptool set-lldp -i fab0 adminStatus=disabled; lldptool(8)), then run this script again"

	out, rc := fleetRun(t, ns, path, fakes, env, "--check")
	mustHave(t, "--check", out, "DIFF fab0 DCBX agent: intended none; actual lldpad (running and managing this interface; it may rewrite PFC, ETS and the DCB APP table: "+fix+")\n")
	if rc != 3 {
		t.Errorf("--check: status %d, want 3", rc)
	}
	out, _ = fleetRun(t, ns, path, fakes, env, "--dry-run")
	mustHave(t, "--dry-run", out, "note: fab0: lldpad is running and manages it: a run would leave out its DCB steps and exit 1; "+fix+"\n", "fabricc: 3 change(s) would be made\n")
	if strings.Contains(out, "DCB (dcbnl)") {
		t.Errorf("--dry-run went through the DCB step:\n%s", out)
	}
	out, rc = fleetRun(t, ns, path, fakes, env)
	mustHave(t, "run", out,
		"fabricc: error: fab0: lldpad is running and manages it, and may rewrite PFC, ETS and the DCB APP table, so its DCB steps are left out: "+fix+"\n",
		"set fab0 mtu: 1500 -> 9000\n",
		"note: fab0: DCB steps left out: lldpad manages it\n")
	if strings.Contains(out, "DCB (dcbnl)") {
		t.Errorf("the DCB step ran:\n%s", out)
	}
	if want := "fabricc: 3 change(s) applied\nfabricc: error: DCB is not set on fab0 while lldpad manages it (see fabricc: error: above)\n"; rc != 1 || !strings.HasSuffix(out, want) {
		t.Errorf("run: status %d, want 1 and the output ending\n%s\ngot:\n%s", rc, want, out)
	}
	// LLDP disabled on fab0: lldpad leaves it alone, and the DCB step runs
	// (and, on a veth, is skipped).
	out, rc = fleetRun(t, ns, path, fakes, append(env, "LLDP_OFF=fab0"))
	mustHave(t, "run with LLDP off on fab0", out, "skipped: fab0: DCB (dcbnl) (virtual device; only a real NIC's driver offers it)\n")
	if rc != 0 || strings.Contains(out, "lldpad") {
		t.Errorf("run with LLDP off on fab0: status %d:\n%s", rc, out)
	}
	// No agent: the same.
	fakes["pgrep"] = "#!/bin/sh\nexit 1\n"
	out, rc = fleetRun(t, ns, path, fakes, env)
	mustHave(t, "run without lldpad", out, "skipped: fab0: DCB (dcbnl) (virtual device; only a real NIC's driver offers it)\n")
	if rc != 0 || strings.Contains(out, "lldpad") {
		t.Errorf("run without lldpad: status %d:\n%s", rc, out)
	}
}

// TestToolWarning: a WARNING mlnx_qos prints on standard output while it
// sets is passed on as a note (mlnx-tools python/mlnx_qos prints it when
// lldpad runs).
func TestToolWarning(t *testing.T) {
	fakes := map[string]string{"mlnx_qos": printer("****** WARNING: lldpad service is running and may overwrite your settings ******\nDCBX mode: OS controlled\nPriority trust state: dscp\n")}
	out, err := hostRun(t, fakes, "ensure fab0 pfc 0,0,0,1,0,0,0,0 0,0,0,0,0,0,0,0 mlnx_qos -i fab0 --pfc 0,0,0,1,0,0,0,0\n")
	want := "set fab0 pfc: 0,0,0,0,0,0,0,0 -> 0,0,0,1,0,0,0,0\nnote: fab0: mlnx_qos warns: WARNING: lldpad service is running and may overwrite your settings\n"
	if err != nil || out != want {
		t.Errorf("%v\n%s\nwant:\n%s", err, out, want)
	}
}

// TestNetnsBootHalfInstalled: a unit whose copy is gone (it fails at
// every boot) and a copy without its unit are --check differences, not
// "not installed"; a plain run writes the absent copy when the unit is
// there, and only notes a copy without its unit.
func TestNetnsBootHalfInstalled(t *testing.T) {
	ns := newNetns(t)
	f, _ := bootFixture("demartek-lab")
	s := render(t, f, 2)
	path := writeScript(t, s)
	unit := bootUnit(f, &f.Hosts[2])

	r := newBootRoot(t, true)
	unitPath, copyPath := filepath.Join(r.unit, bootUnitName), filepath.Join(r.sbin, "fabricc-host-settings")
	if err := os.WriteFile(unitPath, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	out, rc := r.run(t, ns, path, "--check")
	mustHave(t, "--check, unit without copy", out, "DIFF system boot copy /usr/local/sbin/fabricc-host-settings: intended this build; actual absent (run --install)\n")
	if rc != 3 || strings.Contains(out, "not installed") || strings.Contains(out, "DIFF system boot unit") {
		t.Errorf("--check, unit without copy: status %d, want 3, no \"not installed\":\n%s", rc, out)
	}
	out, rc = r.run(t, ns, path)
	mustHave(t, "run, unit without copy", out,
		"note: boot: fabricc-host-settings.service is installed but its copy /usr/local/sbin/fabricc-host-settings is absent, so the unit fails at every boot; this run writes the copy, so the next boot applies these settings (--uninstall removes both)\n"+
			"boot: wrote /usr/local/sbin/fabricc-host-settings (mode 0755): a copy of this script (was: absent)\n")
	if b, _ := os.ReadFile(copyPath); rc != 0 || string(b) != s {
		t.Errorf("run, unit without copy: status %d, or the copy is not this script:\n%s", rc, out)
	}
	if out, rc = r.run(t, ns, path, "--check"); rc != 0 || strings.Contains(out, "DIFF") {
		t.Errorf("--check after the copy was restored: status %d:\n%s", rc, out)
	}

	r2 := newBootRoot(t, true)
	if err := os.WriteFile(filepath.Join(r2.sbin, "fabricc-host-settings"), []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
	out, rc = r2.run(t, ns, path, "--check")
	mustHave(t, "--check, copy without unit", out, "DIFF system boot unit /etc/systemd/system/fabricc-host-settings.service: intended this build; actual absent (run --install)\n")
	if rc != 3 || strings.Contains(out, "not installed") {
		t.Errorf("--check, copy without unit: status %d, want 3:\n%s", rc, out)
	}
	out, rc = r2.run(t, ns, path)
	mustHave(t, "run, copy without unit", out,
		"note: boot: /usr/local/sbin/fabricc-host-settings is there but its unit /etc/systemd/system/fabricc-host-settings.service is not, so nothing runs it at boot: run --install to have systemd run it, or --uninstall to remove it\n")
	if got := listing(t, r2.unit) + takeCalls(t, r2.calls); rc != 0 || got != "" {
		t.Errorf("run, copy without unit: status %d, wrote or ran %q:\n%s", rc, got, out)
	}
}

// TestMemlock: --tuning's memlock writes limits.d for PAM sessions and a
// systemd drop-in with DefaultLimitMEMLOCK=infinity for services
// (systemd-system.conf(5)), checks both by name, and notes that services
// get it after daemon-reexec; without systemd the drop-in is skipped.
func TestMemlock(t *testing.T) {
	fakes := map[string]string{"systemctl": "#!/bin/sh\n[ \"$1\" = show ] && echo 8388608\n"}
	body := `cd "$FAKES"
MEMLOCK_LIMITS=limits.conf
MEMLOCK_DROPIN=system.conf.d/90-fabricc-rdma.conf
has_systemd() { true; }
MODE=check; memlock
MODE=apply; memlock
cat limits.conf system.conf.d/90-fabricc-rdma.conf
MODE=check; DIFFS=0; memlock; echo "differences: $DIFFS"
MODE=apply; CHANGES=0; memlock; echo "changes: $CHANGES"
`
	want := "DIFF system memlock for PAM sessions (limits.conf): intended unlimited; actual not set\n" +
		"DIFF system directory system.conf.d: intended present; actual absent\n" +
		"DIFF system memlock for systemd services (system.conf.d/90-fabricc-rdma.conf): intended infinity; actual not set\n" +
		"set system memlock for PAM sessions (limits.conf): not set -> unlimited\n" +
		"set system directory system.conf.d: absent -> present\n" +
		"set system memlock for systemd services (system.conf.d/90-fabricc-rdma.conf): not set -> infinity\n" +
		"note: memlock: systemd gives DefaultLimitMEMLOCK to services started after systemctl daemon-reexec or a reboot; running services and logged-in sessions keep their limit\n" +
		"* soft memlock unlimited\n* hard memlock unlimited\n[Manager]\nDefaultLimitMEMLOCK=infinity\n" +
		"differences: 0\n" +
		"note: memlock: systemd gives DefaultLimitMEMLOCK to services started after systemctl daemon-reexec or a reboot; running services and logged-in sessions keep their limit\n" +
		"changes: 0\n"
	if out, err := hostRun(t, fakes, body); err != nil || out != want {
		t.Errorf("%v\n%s\nwant:\n%s", err, out, want)
	}
	noSystemd := "cd \"$FAKES\"\nMEMLOCK_LIMITS=limits.conf\nhas_systemd() { false; }\nmemlock\n"
	want = "set system memlock for PAM sessions (limits.conf): not set -> unlimited\n" +
		"skipped: memlock for services: systemd is not running here, so no DefaultLimitMEMLOCK to set\n"
	if out, err := hostRun(t, fakes, noSystemd); err != nil || out != want {
		t.Errorf("without systemd: %v\n%s\nwant:\n%s", err, out, want)
	}
}

// TestMarkingHeader: the header of a RoCE host says what applications
// must mark, NCCL's NCCL_IB_TC included, each ToS once; an iWARP-only
// host's says nothing of it.
func TestMarkingHeader(t *testing.T) {
	f, _ := bootFixture("demartek-lab")
	want := "#\n# Applications mark RoCE themselves: this script sets the ToS only as RDMA-CM's\n" +
		"# default (iSER, NVMe-oF, rping). Verbs applications must set ToS 106 (DSCP 26 << 2 with ECT(0))\n" +
		"# on their own; NCCL ignores RDMA-CM's default and marks NCCL_IB_TC, default 0\n" +
		"# (lossy): set NCCL_IB_TC to that ToS in its environment or /etc/nccl.conf\n" +
		"# (NCCL User Guide, Environment Variables).\n#\nset -euo pipefail\n"
	if s := render(t, f, 2); !strings.Contains(s, want) {
		t.Errorf("header lacks\n%s\nin:\n%s", want, s[:2000])
	}
	f.Hosts[2].NICs[0].Transport = model.TransportIWARP
	if s := render(t, f, 2); strings.Contains(s, "NCCL") {
		t.Errorf("an iWARP host's header names NCCL")
	}
}

// TestNMNote: after a NIC's steps, a note when NetworkManager manages its
// interface (nmcli's GENERAL.STATE other than 10, unmanaged), naming what
// NetworkManager puts back; nothing when it is unmanaged or nmcli absent.
func TestNMNote(t *testing.T) {
	note := "note: fab0: NetworkManager manages it (state 100 (connected)): it puts its own MTU and addresses back whenever it reconfigures the link (nmcli device reapply, a connection brought up, a restart of NetworkManager); give its connection the fabric's MTU and addresses, or leave the interface unmanaged (nmcli device set fab0 managed no)\n"
	for _, tc := range []struct {
		name, nmcli, want string
	}{
		{"managed, connected", "GENERAL.STATE:100 (connected)\n", note},
		{"unmanaged", "GENERAL.STATE:10 (unmanaged)\n", ""},
		{"no such device", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"nmcli": printer(tc.nmcli)}
			out, err := hostRun(t, fakes, "NIC_COUNTS='0 0 0'\nnic_leave fab0 0\n")
			if err != nil || out != tc.want {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}
