package linux

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The tests in this file feed what the host's tools really print, in the
// shape their sources print it, through the script's own read functions
// (prelude), and check the exact value each one reads.

// quietLogger is a logger that logs nothing: a run logs each applied
// change (journal), which must never reach the test machine's system log.
const quietLogger = "#!/bin/sh\n"

// fakeBin returns a new directory for a runner to put first on PATH, with
// quietLogger as logger and then the fake tools of fakes (file name ->
// content, each made executable), so that a test's own logger overrides
// the quiet one.
func fakeBin(t *testing.T, fakes map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeTools(t, dir, map[string]string{"logger": quietLogger, "uname": fakeUname})
	writeTools(t, dir, fakes)
	return dir
}

// fakeUname answers uname -n with $FAKE_HOSTNAME when it is set (the host
// a script is for, hostNameEnv, or another to test host_guard); any
// other call goes to the real uname.
const fakeUname = `#!/bin/sh
if [ "$1" = -n ] && [ -n "${FAKE_HOSTNAME+x}" ]; then
	printf '%s\n' "$FAKE_HOSTNAME"
	exit 0
fi
for u in /usr/bin/uname /bin/uname; do
	[ -x "$u" ] && exec "$u" "$@"
done
exit 1
`

// hostNameLine is the script's HOST_NAME line (writeHostName).
var hostNameLine = regexp.MustCompile(`(?m)^HOST_NAME=(.*)$`)

// hostNameEnv is FAKE_HOSTNAME=the host a script is for (script is its
// text, or the path of a file holding it), so that fakeUname makes it
// run on its own host; nothing when the script has no HOST_NAME.
func hostNameEnv(t *testing.T, script string) []string {
	t.Helper()
	if !strings.Contains(script, "\n") {
		b, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		script = string(b)
	}
	m := hostNameLine.FindStringSubmatch(script)
	if m == nil {
		return nil
	}
	name := m[1]
	if strings.HasPrefix(name, "'") {
		name = strings.ReplaceAll(strings.Trim(name, "'"), `'\''`, "'")
	}
	return []string{"FAKE_HOSTNAME=" + name}
}

// writeTools writes each tool of tools (file name -> content) into dir,
// executable.
func writeTools(t *testing.T, dir string, tools map[string]string) {
	t.Helper()
	for name, content := range tools {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// takeCalls returns the call log a fake tool appends to at path, and
// empties it; "" when there is none yet.
func takeCalls(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hostRun runs the prelude and then body with bash, with the fake tools
// in fakes (fakeBin) first on PATH; it returns stdout and stderr
// together. args are the script's options.
func hostRun(t *testing.T, fakes map[string]string, body string, args ...string) (string, error) {
	t.Helper()
	return hostRunIn(t, fakeBin(t, fakes), body, args...)
}

// hostRunIn is hostRun with the fake tools already in dir, which is also
// $FAKES.
func hostRunIn(t *testing.T, dir, body string, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	script := "set -euo pipefail\n" + allPrelude() + "\n" + body
	argv := append([]string{"-c", script, "host.linux.sh"}, args...)
	cmd := exec.Command("bash", argv...)
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "FAKES="+dir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// readValue runs call (one read function) after the prelude and returns
// what it printed.
func readValue(t *testing.T, fakes map[string]string, call string) string {
	t.Helper()
	out, err := hostRun(t, fakes, call+"\n")
	if err != nil {
		t.Fatalf("%s: %v\n%s", call, err, out)
	}
	return out
}

// allPrelude is every block of the prelude, whatever a script needs.
func allPrelude() string {
	return preludeText(^feature(0))
}

// printer is a fake tool that prints text whatever its arguments.
func printer(text string) string {
	return "#!/bin/sh\ncat <<'FABRICC_EOF'\n" + text + "FABRICC_EOF\n"
}

// TestPauseGet: ethtool -a as ethtool prints it, through the ioctl path
// (ethtool.c dump_pause: "Autonegotiate:\t%s\nRX:\t\t%s\nTX:\t\t%s\n") and
// the netlink one (netlink/pause.c, which adds "RX negotiated:" and "TX
// negotiated:" lines when autonegotiation is on).
func TestPauseGet(t *testing.T) {
	tests := []struct{ name, out, want string }{
		{"ioctl, pause on", "Pause parameters for p9p1:\nAutonegotiate:\toff\nRX:\t\ton\nTX:\t\ton\n\n", "autoneg off rx on tx on"},
		{"ioctl, pause off", "Pause parameters for p9p1:\nAutonegotiate:\toff\nRX:\t\toff\nTX:\t\toff\n\n", "autoneg off rx off tx off"},
		{"netlink, autoneg with negotiated result", "Pause parameters for p9p1:\nAutonegotiate:\ton\nRX:\t\toff\nTX:\t\ton\nRX negotiated: on\nTX negotiated: off\n\n", "autoneg on rx off tx on"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := readValue(t, map[string]string{"ethtool": printer(tc.out)}, "pause_get p9p1"); got != tc.want {
				t.Errorf("pause_get = %q, want %q", got, tc.want)
			}
		})
	}
}

// fakeDcb answers "dcb [-N] OBJECT show dev IF KEY" from the file
// dcb.OBJECT.KEY beside it, as iproute2's dcb prints: the key, then
// "N:value " per entry (dcb/dcb.c dcb_print_named_array), one line. Without
// -N an APP table names the DSCP values it knows (dcb_app.c
// dcb_app_print_pid_dscp uses rtnl_dsfield_get_name), which the fake
// imitates by naming DSCP 8 "CS1".
const fakeDcb = `#!/bin/sh
n=0
if [ "$1" = -N ]; then n=1; shift; fi
f="$FAKES/dcb.$1.$5"
[ -f "$f" ] || exit 0
if [ $n = 0 ]; then sed 's/ 8:/ CS1:/' "$f"; else cat "$f"; fi
`

// TestDcbGet: every dcb read of the script, in dcb's own print shape
// (dcb_pfc.c, dcb_ets.c, dcb_app.c; dcb-app(8): an empty table prints
// nothing at all, dcb_app_print_filtered prints the key only before the
// first entry).
func TestDcbGet(t *testing.T) {
	appDesc := "dscp-prio "
	for d := 63; d >= 0; d-- {
		appDesc += fmt.Sprintf("%d:%d ", d, d>>3)
	}
	var appWant []string
	for d := 0; d < 64; d++ {
		appWant = append(appWant, fmt.Sprintf("%d:%d", d, d>>3))
	}
	tests := []struct{ name, object, key, out, want string }{
		{"prio-pfc", "pfc", "prio-pfc", "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off \n", "0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off"},
		{"willing", "ets", "willing", "willing off \n", "off"},
		{"tc-tsa", "ets", "tc-tsa", "tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets \n", "0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets"},
		{"prio-tc", "ets", "prio-tc", "prio-tc 0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7 \n", "0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7"},
		// mlx5 reports its cable length as the PFC delay (en_dcbnl.c,
		// mlx5e_dcbnl_ieee_getpfc); dcb_pfc.c prints "delay %d".
		{"delay", "pfc", "delay", "delay 7 \n", "7"},
		{"dscp-prio, 64 entries in any order", "app", "dscp-prio", appDesc + "\n", strings.Join(appWant, " ")},
		{"dscp-prio, DSCP 8 has a name", "app", "dscp-prio", "dscp-prio 0:0 8:1 \n", "0:0 8:1"},
		{"dscp-prio, empty table", "app", "dscp-prio", "", "none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"dcb": fakeDcb, "dcb." + tc.object + "." + tc.key: tc.out}
			if got := readValue(t, fakes, fmt.Sprintf("dcb_get ens2f0np0 %s %s", tc.object, tc.key)); got != tc.want {
				t.Errorf("dcb_get %s %s = %q, want %q", tc.object, tc.key, got, tc.want)
			}
		})
	}
}

// TestDcbETS runs the script's own ETS steps (the lines nic.go writes for
// the inbox mlx5 driver) in --check mode against what mlx5 reports. mlx5
// reports 100 % for a strict TC whatever was set
// (drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c, mlx5e_build_tc_tx_bw
// gives a strict TC MLX5E_MAX_BW_ALLOC, and mlx5e_dcbnl_ieee_getets reads
// it back from the port), so the bandwidth of a TC that is not ets must
// not count, or every run finds a difference and sets ETS again.
func TestDcbETS(t *testing.T) {
	s := render(t, fixture(), 2)
	var steps []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "dcb ets set dev") {
			steps = append(steps, strings.TrimSpace(l))
		}
	}
	if len(steps) != 2 {
		t.Fatalf("want 2 ETS steps in the script, found %d", len(steps))
	}
	body := "ifc=ens2f0np0\n" + strings.Join(steps, "\n") + "\nfinish\n"
	tests := []struct {
		name        string
		tsa, bw, pt string
		want        []string
	}{
		{"as set, strict TC read back at 100%",
			"tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets \n",
			"tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:100 7:0 \n",
			"prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \n",
			[]string{"fabricc: host matches the model\n"}},
		{"driver defaults (mlx5e_ets_init: vendor, 100% each, prio 0 on TC 1)",
			"tc-tsa 0:vendor 1:vendor 2:vendor 3:vendor 4:vendor 5:vendor 6:vendor 7:vendor \n",
			"tc-bw 0:100 1:100 2:100 3:100 4:100 5:100 6:100 7:100 \n",
			"prio-tc 0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7 \n",
			[]string{
				"DIFF ens2f0np0 ets: intended tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0; actual tc-tsa 0:vendor 1:vendor 2:vendor 3:vendor 4:vendor 5:vendor 6:vendor 7:vendor tc-bw 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0\n",
				"DIFF ens2f0np0 ets prio-tc: intended 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0; actual 0:1 1:0 2:2 3:3 4:4 5:5 6:6 7:7\n",
				"fabricc: 2 difference(s) from the model\n",
			}},
		{"a real bandwidth difference still shows",
			"tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets \n",
			"tc-bw 0:60 1:0 2:0 3:40 4:0 5:0 6:100 7:0 \n",
			"prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \n",
			[]string{"; actual tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:60 1:0 2:0 3:40 4:0 5:0 6:0 7:0\n", "fabricc: 1 difference(s) from the model\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"dcb": fakeDcb, "dcb.ets.tc-tsa": tc.tsa, "dcb.ets.tc-bw": tc.bw, "dcb.ets.prio-tc": tc.pt}
			out, _ := hostRun(t, fakes, body, "--check")
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("--check output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestDcbETSZeroGroup: mlx5 puts ETS TCs of 0 % into a group below the
// others with an equal share of 100 (the last one the remainder) and reads
// them back as 0 only when another ETS TC has less than 100 (en_dcbnl.c,
// mlx5e_build_tc_tx_bw and mlx5e_dcbnl_ieee_getets). One ETS class at 100
// % with the rest strict or unused is the case where they read back as
// 16 and 20.
func TestDcbETSZeroGroup(t *testing.T) {
	const tsa = "tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets \n"
	tests := []struct{ bw, want string }{
		{"tc-bw 0:100 1:16 2:16 3:16 4:16 5:16 6:100 7:20 \n", "tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:100 1:0 2:0 3:0 4:0 5:0 6:0 7:0"},
		{"tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:100 7:0 \n", "tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0"},
		{"tc-bw 0:60 1:10 2:10 3:10 4:10 5:0 6:100 7:0 \n", "tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:60 1:10 2:10 3:10 4:10 5:0 6:0 7:0"},
	}
	for _, tc := range tests {
		fakes := map[string]string{"dcb": fakeDcb, "dcb.ets.tc-tsa": tsa, "dcb.ets.tc-bw": tc.bw}
		if got := readValue(t, fakes, "dcb_ets ens2f0np0"); got != tc.want {
			t.Errorf("dcb_ets over %q = %q, want %q", tc.bw, got, tc.want)
		}
	}
	q := nvidiaQos()
	q.bw = [8]int{100, 16, 16, 16, 16, 16, 0, 20}
	fakes := map[string]string{"mlnx_qos": fakeMlnxQos, "mlnx_qos.all": q.text(true), "mlnx_qos.out": q.text(false)}
	if got, want := readValue(t, fakes, "mlnx_get p9p1 ets"), "tsa ets,ets,ets,ets,ets,ets,strict,ets tcbw 100,0,0,0,0,0,0,0"; got != want {
		t.Errorf("mlnx_get ets = %q, want %q", got, want)
	}
}

// TestDcbETSWritesKeepBandwidth: dcb ets set reads the current ETS, changes
// what it is given and refuses a tc-bw that does not sum to 100
// (dcb_ets.c, dcb_ets_validate_bw). On mlx5 the read-back carries 100 % for
// every strict TC, so a step that sets only prio-tc would be refused;
// each ETS write therefore carries the intended tc-tsa and tc-bw. There is
// no willing step: mlx5 neither reads nor keeps ETS willing (writeDcb).
func TestDcbETSWritesKeepBandwidth(t *testing.T) {
	s := render(t, fixture(), 2)
	const tb = " tc-tsa 0:ets 1:ets 2:ets 3:ets 4:ets 5:ets 6:strict 7:ets tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0"
	assertHas(t, s, []string{
		"dcb ets set dev \"$ifc\"" + tb + "\n",
		"dcb ets set dev \"$ifc\" prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0" + tb + "\n",
	}, []string{"willing off", "ets willing"})
}

// mlnxQos is the state mlnx_qos shows; text renders it as mlnx-tools'
// python/mlnx_qos pretty_print does (current mlnx-tools): trust line,
// dscp2prio lines of at most 8 values each, each line with its own
// "prio:N dscp:" (print_dscp2prio_sysfs / dcbnetlink.py printAppSelector),
// the PFC table ("%1d   " per priority), then one block per TC: "tc: %d
// ratelimit: %s, tsa: " + "ets, bw: %s%%" or "strict", and "\t priority:
// %s" per priority. Without -a only the TCs some priority maps to are
// printed (tc2up is filled from prio_tc; -a adds every TC).
type mlnxQos struct {
	trust string
	dscp  [64]int
	pfc   [8]int
	tsa   [8]string
	bw    [8]int
	ptc   [8]int
}

func (q *mlnxQos) text(all bool) string {
	var b strings.Builder
	b.WriteString("DCBX mode: OS controlled\n")
	b.WriteString("Priority trust state: " + q.trust + "\n")
	if q.trust == "dscp" {
		b.WriteString("dscp2prio mapping:\n")
		for p := 0; p < 8; p++ {
			s := ""
			for d := 0; d < 64; d++ {
				if q.dscp[d] == p {
					s += fmt.Sprintf("%02d,", d)
				}
			}
			pad := fmt.Sprintf("\tprio:%d dscp:", p)
			temp := ""
			for len(s) > 24 {
				temp += pad + s[:24] + "\n"
				s = s[24:]
			}
			if s != "" {
				temp += pad + s
			}
			if temp != "" {
				b.WriteString(temp + "\n")
			}
		}
	}
	b.WriteString("Receive buffer size (bytes): 130944,130944,0,0,0,0,0,0,max_buffer_size=262016\n")
	b.WriteString("Cable len: 7\nPFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     ")
	for _, e := range q.pfc {
		fmt.Fprintf(&b, "%d   ", e)
	}
	b.WriteString("\n\tbuffer      0   0   0   1   0   0   0   0   \n")
	for tc := 0; tc < 8; tc++ {
		var ups []int
		for up, t := range q.ptc {
			if t == tc {
				ups = append(ups, up)
			}
		}
		if len(ups) == 0 && !all {
			continue
		}
		fmt.Fprintf(&b, "tc: %d ratelimit: unlimited, tsa: ", tc)
		if q.tsa[tc] == "ets" {
			fmt.Fprintf(&b, "ets, bw: %d%%\n", q.bw[tc])
		} else {
			b.WriteString(q.tsa[tc] + "\n")
		}
		for _, up := range ups {
			fmt.Fprintf(&b, "\t priority:  %d\n", up)
		}
	}
	return b.String()
}

// nvidiaQos is the fixture's contract as mlnx_qos shows it once set.
func nvidiaQos() *mlnxQos {
	q := &mlnxQos{trust: "dscp", pfc: [8]int{0, 0, 0, 1, 0, 0, 0, 0},
		tsa: [8]string{"ets", "ets", "ets", "ets", "ets", "ets", "strict", "ets"},
		bw:  [8]int{50, 0, 0, 50, 0, 0, 0, 0}, ptc: [8]int{0, 0, 0, 3, 0, 0, 6, 0}}
	copy(q.dscp[:], fixture().QoS.DSCPToPriority)
	return q
}

// fakeMlnxQos prints mlnx_qos.all when called with -a, else mlnx_qos.out.
const fakeMlnxQos = `#!/bin/sh
for a in "$@"; do
	if [ "$a" = -a ]; then cat "$FAKES/mlnx_qos.all"; exit 0; fi
done
cat "$FAKES/mlnx_qos.out"
`

// TestMlnxGet reads each field of mlnx_qos's output as the tool prints it
// on a host that carries the fabric's contract.
func TestMlnxGet(t *testing.T) {
	q := nvidiaQos()
	var dp []string
	for d, p := range q.dscp {
		dp = append(dp, fmt.Sprintf("%d:%d", d, p))
	}
	tests := []struct{ field, want string }{
		{"trust", "dscp"},
		{"pfc", "0,0,0,1,0,0,0,0"},
		// TCs 1, 2, 4, 5 and 7 carry no priority: only -a prints them.
		{"ets", "tsa ets,ets,ets,ets,ets,ets,strict,ets tcbw 50,0,0,50,0,0,0,0"},
		{"prio_tc", "0,0,0,3,0,0,6,0"},
		// "Cable len: 7": MLX5E_DEFAULT_CABLE_LEN until one is set.
		{"cable_len", "7"},
		// Priority 0 holds 48 DSCP values: six lines of eight.
		{"dscp2prio", strings.Join(dp, " ") + " "},
	}
	fakes := map[string]string{"mlnx_qos": fakeMlnxQos, "mlnx_qos.all": q.text(true), "mlnx_qos.out": q.text(false)}
	for _, tc := range tests {
		t.Run(tc.field, func(t *testing.T) {
			if got := readValue(t, fakes, "mlnx_get p9p1 "+tc.field); got != tc.want {
				t.Errorf("mlnx_get %s = %q, want %q", tc.field, got, tc.want)
			}
		})
	}
}

// TestMlnxGetOlderShapes: what older mlnx-tools print.
//   - mlnx-tools 5c00758 (June 2017) names the line "Priority trust mode:".
//   - mlnx-tools d1b0709 (MLNX_OFED 4.2, until 1259c00 of February 2019)
//     wraps the dscp2prio list after eight values onto lines that carry no
//     "prio:N dscp:" of their own (dcbnetlink.py printAppSelector, pad
//     "\t            ").
//   - When the driver has no rate limit (MaxrateNL.get fails), pretty_print
//     leaves out the "tc: N ratelimit: ..., tsa: " head of every TC line,
//     which then reads only "ets, bw: 50%" or "strict"; with -a the TCs
//     still come in order 0 to 7.
func TestMlnxGetOlderShapes(t *testing.T) {
	old := "DCBX mode: OS controlled\nPriority trust state: dscp\ndscp2prio mapping:\n" +
		"\tprio:0 dscp:00,01,02,03,04,05,06,07,\n\t            08,09,10,11,12,13,14,15,\n\t            16,17,18,19,20,21,22,23,\n" +
		"\t            32,33,34,35,36,37,38,39,\n\t            40,41,42,43,44,45,46,47,\n\t            56,57,58,59,60,61,62,63,\n" +
		"\tprio:3 dscp:24,25,26,27,28,29,30,31,\n\tprio:6 dscp:48,49,50,51,52,53,54,55,\n" +
		"Cable len: 7\nPFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0   \n"
	noRate := "Rate limit is not supported on your system!\nDCBX mode: OS controlled\nPriority trust state: pcp\nCable len: 7\nPFC configuration:\n" +
		"\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0   \n" +
		"ets, bw: 50%\n\t priority:  0\n\t priority:  1\n\t priority:  2\n\t priority:  4\n\t priority:  5\n\t priority:  7\n" +
		"ets, bw: 0%\nets, bw: 0%\nets, bw: 50%\n\t priority:  3\nets, bw: 0%\nets, bw: 0%\nstrict\n\t priority:  6\nets, bw: 0%\n"
	var dp []string
	for d, p := range fixture().QoS.DSCPToPriority {
		dp = append(dp, fmt.Sprintf("%d:%d", d, p))
	}
	tests := []struct{ name, out, field, want string }{
		{"trust mode line (2017)", "Priority trust mode: dscp\nPFC configuration:\n", "trust", "dscp"},
		{"wrapped dscp2prio without prefix (OFED 4.2)", old, "dscp2prio", strings.Join(dp, " ") + " "},
		{"no rate limit: TC lines without head, ets", noRate, "ets", "tsa ets,ets,ets,ets,ets,ets,strict,ets tcbw 50,0,0,50,0,0,0,0"},
		{"no rate limit: TC lines without head, prio_tc", noRate, "prio_tc", "0,0,0,3,0,0,6,0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"mlnx_qos": printer(tc.out)}
			if got := readValue(t, fakes, "mlnx_get p9p1 "+tc.field); got != tc.want {
				t.Errorf("mlnx_get %s = %q, want %q", tc.field, got, tc.want)
			}
		})
	}
}

// TestVlanRead: ip -d -o link show of a VLAN device as iproute2 prints it
// (ip/iplink_vlan.c: "protocol %s ", "id %u ", then per map print_nl and
// "      %s { " with "%u:%u " per entry and "} "; -o turns each new line
// into a backslash). The kernel lists only non-zero egress entries, by
// hash bucket (skb priority & 15), newest first within one
// (net/8021q/vlan_netlink.c vlan_fill_info).
func TestVlanRead(t *testing.T) {
	const head = "7: p9p1.2@p9p1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT group default qlen 1000\\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff promiscuity 0 allmulti 0 minmtu 0 maxmtu 65535 \\    vlan protocol 802.1Q id 2 <REORDER_HDR> "
	const tail = "addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 \n"
	tests := []struct{ name, out, info, egress string }{
		{"both maps", head + "\\      ingress-qos-map { 0:0 1:0 } \\      egress-qos-map { 2:3 3:3 } " + tail, "802.1Q id 2 on p9p1", "2:3 3:3"},
		{"bucket order", head + "\\      egress-qos-map { 18:3 2:3 3:3 } " + tail, "802.1Q id 2 on p9p1", "2:3 3:3 18:3"},
		{"no egress entries", head + tail, "802.1Q id 2 on p9p1", "none"},
		{"802.1ad", strings.Replace(head, "802.1Q", "802.1ad", 1) + tail, "802.1Q id none on p9p1", "none"},
		{"absent", "", "absent", "none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"ip": "#!/bin/sh\ncat \"$FAKES/ip.out\"\n", "ip.out": tc.out}
			if got := readValue(t, fakes, "vlan_info p9p1.2"); got != tc.info {
				t.Errorf("vlan_info = %q, want %q", got, tc.info)
			}
			if got := readValue(t, fakes, "vlan_egress p9p1.2"); got != tc.egress {
				t.Errorf("vlan_egress = %q, want %q", got, tc.egress)
			}
		})
	}
}

// TestLinkAndAddr: ip -o link and ip -o addr as iproute2 prints them
// (ip/ipaddress.c print_addrinfo: "%u: %s", "    %s " family, the address,
// "/%d " prefix length).
func TestLinkAndAddr(t *testing.T) {
	links := []struct{ out, want string }{
		{"2: ens2f0np0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 9000 qdisc mq state DOWN mode DEFAULT group default qlen 1000\\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff\n", "up"},
		{"2: ens2f0np0: <BROADCAST,MULTICAST> mtu 9000 qdisc mq state DOWN mode DEFAULT group default qlen 1000\\    link/ether 24:8a:07:11:22:33 brd ff:ff:ff:ff:ff:ff\n", "down"},
		{"", "absent"},
	}
	for _, tc := range links {
		fakes := map[string]string{"ip": printer(tc.out)}
		if got := readValue(t, fakes, "link_state ens2f0np0"); got != tc.want {
			t.Errorf("link_state over %q = %q, want %q", tc.out, got, tc.want)
		}
	}
	const addrs = "2: ens2f0np0    inet 10.0.1.10/24 brd 10.0.1.255 scope global ens2f0np0\\       valid_lft forever preferred_lft forever\n" +
		"2: ens2f0np0    inet6 2001:db8::a/64 scope global \\       valid_lft forever preferred_lft forever\n" +
		"2: ens2f0np0    inet6 fe80::268a:7ff:fe11:2233/64 scope link \\       valid_lft forever preferred_lft forever\n"
	for _, tc := range []struct{ addr, want string }{
		{"10.0.1.10/24", "present"}, {"2001:db8::a/64", "present"}, {"10.0.1.10/16", "absent"}, {"10.0.1.1/24", "absent"},
	} {
		if got := readValue(t, map[string]string{"ip": printer(addrs)}, "addr_state ens2f0np0 "+tc.addr); got != tc.want {
			t.Errorf("addr_state %s = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// TestReadSys: the sysfs, configfs and debugfs values the script reads,
// each as its kernel show function prints it: mtu "%d\n"; rdma_cm
// default_roce_mode "%s\n" of ib_cache_gid_type_str and default_roce_tos
// "%u\n" (drivers/infiniband/core/cma_configfs.c); MLNX_OFED's
// ecn/roce_np/enable/N, cnp_dscp and cnp_802p_prio "%d\n" (mlx5 en_ecn.c);
// cc_params files "%d\n" (drivers/infiniband/hw/mlx5/cong.c get_param);
// scaling_governor "%s\n" (drivers/cpufreq/cpufreq.c).
func TestReadSys(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"mtu": "9000\n", "default_roce_mode": "RoCE v2\n", "default_roce_mode.v1": "IB/RoCE v1\n",
		"default_roce_tos": "104\n", "enable": "1\n", "cnp_dscp": "48\n", "scaling_governor": "performance\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		want := strings.TrimSuffix(text, "\n")
		if got := readValue(t, nil, "printf '%s' \"$(read_sys "+filepath.Join(dir, name)+")\""); got != want {
			t.Errorf("read_sys %s = %q, want %q", name, got, want)
		}
	}
	if got := readValue(t, nil, "read_sys "+filepath.Join(dir, "none")); got != "absent" {
		t.Errorf("read_sys of a missing file = %q, want absent", got)
	}
	// A read that fails (here a directory; on a host a debugfs file under
	// kernel lockdown, or the speed of a link that is down) is no value.
	if got := readValue(t, nil, "read_sys "+dir); got != "unreadable" {
		t.Errorf("read_sys of what cannot be read = %q, want unreadable", got)
	}
}

// TestCNPDebugfs: the inbox mlx5_ib marks CNPs with np_cnp_prio only while
// np_cnp_prio_mode is 0; writing np_cnp_prio sets the mode to 0
// (drivers/infiniband/hw/mlx5/cong.c, mlx5_ib_set_cc_param_mask_val), but
// with the mode at 1 the firmware does not use the value that np_cnp_prio
// still reads back, so a matching np_cnp_prio alone is no proof.
func TestCNPDebugfs(t *testing.T) {
	tests := []struct{ mode, prio, want string }{
		{"0\n", "6\n", "6"},
		{"1\n", "6\n", "not used (np_cnp_prio_mode 1)"},
		{"", "6\n", "not used (np_cnp_prio_mode absent)"},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "np_cnp_prio"), []byte(tc.prio), 0o644); err != nil {
			t.Fatal(err)
		}
		if tc.mode != "" {
			if err := os.WriteFile(filepath.Join(dir, "np_cnp_prio_mode"), []byte(tc.mode), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := readValue(t, nil, "printf '%s' \"$(cnp_prio_debugfs "+dir+")\""); got != tc.want {
			t.Errorf("np_cnp_prio_mode %q: cnp_prio_debugfs = %q, want %q", tc.mode, got, tc.want)
		}
	}
}

// TestEnsureFailure: a tool that fails inside ensure (ip on a kernel
// without 8021q: "Error: Unknown device type.", status 2) stops the run
// with status 1 and a fabricc: error line naming the interface, the step
// and the command, quoted as a shell reads it back.
func TestEnsureFailure(t *testing.T) {
	fakes := map[string]string{"ip": "#!/bin/sh\necho 'Error: Unknown device type.' >&2\nexit 2\n"}
	out, err := hostRun(t, fakes, "ensure fab0.2 vlan '802.1Q id 2 on fab0' absent ip link add link fab0 name fab0.2 type vlan id 2 egress-qos-map 'a b'\necho not reached\n")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1:\n%s", err, out)
	}
	for _, w := range []string{"Error: Unknown device type.\n",
		"fabricc: error: fab0.2 vlan: ip link add link fab0 name fab0.2 type vlan id 2 egress-qos-map a\\ b failed with exit status 2\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "not reached") {
		t.Errorf("the script went on after the failed step:\n%s", out)
	}
}

// TestDryRunCommands: each --dry-run line is a command a root shell runs
// as it stands: write_value as echo with a redirection, the RDMA-CM steps
// as modprobe and mount, odd words quoted.
func TestDryRunCommands(t *testing.T) {
	body := `ensure fab0 'CNP DSCP' 48 24 write_value /sys/class/net/fab0/ecn/roce_np/cnp_dscp 48
ensure x mode 'RoCE v2' absent write_value '/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode' 'RoCE v2'
ensure system memlock unlimited 'not set' write_value /etc/security/limits.d/90-fabricc-rdma.conf $'* soft memlock unlimited\n* hard memlock unlimited'
ensure x y a b ip addr del '10.0.1.99/24' dev 'we ird'
`
	out, err := hostRun(t, nil, body, "--dry-run")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := `would run: echo 48 > /sys/class/net/fab0/ecn/roce_np/cnp_dscp
would run: echo RoCE\ v2 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode
would run: echo $'* soft memlock unlimited\n* hard memlock unlimited' > /etc/security/limits.d/90-fabricc-rdma.conf
would run: ip addr del 10.0.1.99/24 dev we\ ird
`
	if out != want {
		t.Errorf("dry run:\n%s\nwant:\n%s", out, want)
	}
	dir := t.TempDir()
	for _, l := range strings.Split(strings.TrimSuffix(want, "\n"), "\n")[:3] {
		cmd := strings.TrimPrefix(l, "would run: ")
		cmd = strings.ReplaceAll(cmd, "/sys/class/net/fab0/ecn/roce_np/", dir+"/")
		cmd = strings.ReplaceAll(cmd, "/sys/kernel/config/rdma_cm/mlx5_0/ports/1/", dir+"/")
		cmd = strings.ReplaceAll(cmd, "/etc/security/limits.d/", dir+"/")
		if out, err := exec.Command("bash", "-c", cmd).CombinedOutput(); err != nil {
			t.Errorf("%s: %v: %s", cmd, err, out)
		}
	}
	for f, w := range map[string]string{"cnp_dscp": "48\n", "default_roce_mode": "RoCE v2\n", "90-fabricc-rdma.conf": "* soft memlock unlimited\n* hard memlock unlimited\n"} {
		if got, _ := os.ReadFile(filepath.Join(dir, f)); string(got) != w {
			t.Errorf("pasted dry-run line wrote %q to %s, want %q", got, f, w)
		}
	}
}

// TestRoCECMDryRun: a dry run of the RDMA-CM step on a host without the
// NIC prints modprobe and mount, not the script's own helpers.
func TestRoCECMDryRun(t *testing.T) {
	f := fixture()
	s := render(t, f, 2)
	out, err := runScript(t, s, "", "--dry-run")
	if err != nil {
		t.Fatalf("--dry-run: %v\n%s", err, out)
	}
	assertHas(t, out, []string{"would run: modprobe rdma_cm\n", "would run: mount -t configfs none /sys/kernel/config\n",
		"would run: mkdir /sys/kernel/config/rdma_cm/rdma-device-of-ens2f0np0\n"},
		[]string{"load_rdma_cm", "write_value"})
}

// TestRoCECMToSNote runs roce_cm for real on a configfs stand-in (a tmpfs
// at /sys/kernel/config in a mount namespace, the NIC's RDMA device
// given): a run or --dry-run that changes default_roce_tos notes that
// RDMA-CM connections made before keep their ToS until they reconnect
// (the kernel applies it to QPs created afterwards only); a run that
// finds the ToS right, and --check, say nothing of it.
func TestRoCECMToSNote(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: the mount namespace needs root")
	}
	const note = "note: fab0: RDMA-CM connections made before this change keep the ToS they were created with until they reconnect; only new ones get ToS 136 (reconnect NVMe-oF and iSER sessions, e.g. nvme disconnect and nvme connect, and restart the RDMA applications)\n"
	tests := []struct {
		name, tos string
		args      []string
		want      string
	}{
		{"run, ToS 104 -> 136", "104", nil, "set fab0 default_roce_tos (mlx5_0 port 1): 104 -> 136\n" + note + "136\n"},
		{"run, group made", "", nil, "set fab0 rdma_cm group mlx5_0: absent -> present\nset fab0 default_roce_tos (mlx5_0 port 1): absent -> 136\n" + note + "136\n"},
		{"dry run", "104", []string{"--dry-run"}, "would run: echo 136 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos\n" + note + "104\n"},
		{"run, ToS already 136", "136", nil, "136\n"},
		{"check", "104", []string{"--check"}, "DIFF fab0 default_roce_tos (mlx5_0 port 1): intended 136; actual 104\n104\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			port := "/sys/kernel/config/rdma_cm/mlx5_0/ports/1"
			setup := "mount -t tmpfs none /sys/kernel && mkdir /sys/kernel/config && mount -t tmpfs none /sys/kernel/config && mkdir -p /sys/kernel/config/rdma_cm"
			if tc.tos != "" {
				setup += " && mkdir -p " + port + " && echo 'RoCE v2' >" + port + "/default_roce_mode && echo " + tc.tos + " >" + port + "/default_roce_tos"
			}
			// The group's ports appear with the group on real configfs.
			body := `mkdir() { command mkdir -p "$1/ports/1" && echo 'RoCE v2' >"$1/ports/1/default_roce_mode"; }
rdma_dev() { printf mlx5_0; }
capable() { return 0; }
need_tool() { :; }
MODE=${1:-apply}; MODE=${MODE#--}
roce_cm fab0 'RoCE v2' 136 mlx5_ib
cat ` + port + "/default_roce_tos 2>/dev/null || echo none\n"
			file := filepath.Join(t.TempDir(), "cm.sh")
			if err := os.WriteFile(file, []byte("set -euo pipefail\n"+allPrelude()+"\n"+body), 0o644); err != nil {
				t.Fatal(err)
			}
			argv := append([]string{"--mount", "--propagation", "private", "bash", "-c", setup + ` && exec bash "$0" "$@"`, file}, tc.args...)
			out, err := exec.Command("unshare", argv...).CombinedOutput()
			if err != nil || string(out) != tc.want {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}

// readbackFix is the fix of a PFC set the NIC did not keep, on a netdev
// without a PCI device: the likely cause, a DCBX agent, and how to remove
// each.
const readbackFix = "the tool reported success, but the NIC did not keep it: a DCBX agent likely applied other PFC over it, the adapter's firmware LLDP/DCBX agent (ConnectX: mlxconfig -d <pci device> query | grep -E 'LLDP_NB_DCBX|DCBX_WILLING', set each to 0 (False), as mlxconfig -d <pci device> set LLDP_NB_DCBX_P1=0 DCBX_WILLING_P1=0 (P2 for the second port), then mlxfwreset or reboot) or lldpad (systemctl disable --now lldpad); remove it, then run again"

// TestDcbPFCReadback runs the inbox NIC's PFC steps as writeDcb writes
// them with a dcb that reports every set done: a NIC that keeps the PFC
// it was given passes; one that does not (a DCBX agent rewrote it, a
// driver that ignores the set) stops the run at the read-back instead of
// counting it applied; a run that changed nothing reads nothing back.
func TestDcbPFCReadback(t *testing.T) {
	const pfc = "0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off"
	// dcb as iproute2 prints "dcb -N pfc show dev IF prio-pfc" and
	// "... delay"; a set is logged and, unless DROP is set, kept.
	const fakeDcb = `#!/bin/bash
st=$FAKES/pfc
[ -f "$st" ] || echo 'prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off' >"$st"
[ -f "$FAKES/delay" ] || echo 'delay 7' >"$FAKES/delay"
if [ "$1 $2" = "-N pfc" ] && [ "$3" = show ]; then
	if [ "$6" = delay ]; then cat "$FAKES/delay"; else cat "$st"; fi
	exit 0
fi
echo "$*" >>"$FAKES/calls"
if [ "$5" = prio-pfc ] && [ -z "$DROP" ]; then shift 5; echo "prio-pfc $*" >"$st"; fi
if [ "$5" = delay ]; then echo "delay $6" >"$FAKES/delay"; fi
`
	body := `nic() {
	local ifc=fab0
	local sets=$CHANGES
	ensure "$ifc" pfc '` + pfc + `' "$(dcb_get "$ifc" pfc prio-pfc)" dcb pfc set dev "$ifc" prio-pfc ` + pfc + `
	cable_len "$ifc" 5 "$(dcb_get "$ifc" pfc delay)" dcb pfc set dev "$ifc" delay 5
	pfc_readback "$ifc" '` + pfc + `' "$sets" dcb_get "$ifc" pfc prio-pfc
}
nic
echo "changes $CHANGES"
`
	tests := []struct {
		name, drop, want string
		fail             bool
	}{
		{"kept", "", "set fab0 pfc: 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off -> " + pfc + "\nset fab0 cable length (m): 7 -> 5\nchanges 2\n", false},
		{"not kept", "1", "set fab0 pfc: 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off -> " + pfc + "\nset fab0 cable length (m): 7 -> 5\n" +
			"fabricc: error: fab0 pfc (read back after the set) is 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off, not " + pfc + ": " + readbackFix + "\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DROP", tc.drop)
			out, err := hostRun(t, map[string]string{"dcb": fakeDcb}, body)
			if (err != nil) != tc.fail || out != tc.want {
				t.Errorf("err %v (want failure %v):\n%s\nwant:\n%s", err, tc.fail, out, tc.want)
			}
		})
	}
}

// TestMlnxDSCPCheck: --check of the DSCP map where it cannot be compared
// entry by entry: a port that trusts PCP has no map in use (one note; the
// trust step reports the difference), and mlnx_qos output without a trust
// line is one difference, not 64 "unreadable" entries.
func TestMlnxDSCPCheck(t *testing.T) {
	pcp := nvidiaQos()
	pcp.trust = "pcp"
	tests := []struct{ name, out, want string }{
		{"trust pcp", pcp.text(true), "note: fab0: DSCP map: not in use (trust pcp)\n"},
		{"no output", "", "DIFF fab0 DSCP map: intended the fabric's; actual unreadable\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"mlnx_qos": printer(tc.out)}
			out, err := hostRun(t, fakes, "mlnx_dscp fab0 0:0 1:0 24:3 48:6\n", "--check")
			if err != nil || out != tc.want {
				t.Errorf("%v\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}
