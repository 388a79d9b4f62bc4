package linux

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/modeltest"
)

// stubMlnxQos is mlnx_qos for the options the script uses, with the state
// of one port in $FAKES/state and every call logged to $FAKES/calls. It
// prints what mlnx-tools' python/mlnx_qos (pretty_print) prints. PFC and
// the cable length go, as in mlnx_qos, into one IEEE PFC set
// (set_ieee_pfc(pfc_en, delay); mlx5 ignores a delay of 0): before
// mlnx-tools v24.04.0 the field not given is sent as 0 (MLNX_QOS_OLD=1),
// from v24.04.0 on (commit 83b87d9) as its current value. MLNX_QOS_DROP_PFC=1
// is a NIC that reports the set done and keeps its old PFC. --trust dscp
// fills the DSCP map with the firmware default, DSCP >> 3 (dcbnetlink.py,
// setDefaultAppEntry); --dscp2prio is repeatable (action="append");
// --dcbx os or fw sets the DCBX mode its first line prints.
const stubMlnxQos = `#!/bin/bash
echo "$*" >>"$FAKES/calls"
dcbx=os trust=pcp pfc=0,0,0,0,0,0,0,0 cable=7 tsa=ets,ets,ets,ets,ets,ets,ets,ets tcbw=12,13,12,13,12,13,12,13 ptc=0,1,2,3,4,5,6,7
dscp=()
if [ -f "$FAKES/state" ]; then . "$FAKES/state"; fi
all=0 setpfc= setcable=
while [ $# -gt 0 ]; do
	case $1 in
	-i) shift ;;
	-a) all=1 ;;
	--trust)
		shift
		if [ "$1" = dscp ] && [ "$trust" != dscp ]; then
			for d in $(seq 0 63); do dscp[d]=$((d >> 3)); done
		fi
		trust=$1
		;;
	--dcbx) shift; dcbx=$1 ;;
	--pfc) shift; setpfc=$1 ;;
	--cable_len=*) setcable=${1#--cable_len=} ;;
	--dscp2prio) shift; IFS=, read -r _ d p <<<"$1"; dscp[d]=$p ;;
	--tsa) shift; tsa=$1 ;;
	--tcbw) shift; tcbw=$1 ;;
	--prio_tc) shift; ptc=$1 ;;
	esac
	shift
done
if [ -n "$setpfc$setcable" ]; then
	if [ "${MLNX_QOS_OLD:-0}" = 1 ]; then
		setpfc=${setpfc:-0,0,0,0,0,0,0,0}
		setcable=${setcable:-0}
	fi
	if [ -n "$setpfc" ] && [ "${MLNX_QOS_DROP_PFC:-0}" != 1 ]; then pfc=$setpfc; fi
	if [ -n "$setcable" ] && [ "$setcable" != 0 ]; then cable=$setcable; fi
fi
declare -p dcbx trust pfc cable tsa tcbw ptc dscp >"$FAKES/state"
if [ "$dcbx" = os ]; then echo "DCBX mode: OS controlled"; else echo "DCBX mode: Firmware controlled"; fi
echo "Priority trust state: $trust"
if [ "$trust" = dscp ]; then
	echo "dscp2prio mapping:"
	for p in 0 1 2 3 4 5 6 7; do
		s=
		for d in $(seq 0 63); do
			if [ "${dscp[d]}" = "$p" ]; then s+=$(printf '%02d,' "$d"); fi
		done
		while [ -n "$s" ]; do
			printf '\tprio:%d dscp:%s\n' "$p" "${s:0:24}"
			s=${s:24}
		done
	done
fi
echo "Cable len: $cable"
echo "PFC configuration:"
printf '\tpriority    0   1   2   3   4   5   6   7\n\tenabled     %s   \n' "$(echo "$pfc" | sed 's/,/   /g')"
IFS=, read -r -a t <<<"$tsa"
IFS=, read -r -a w <<<"$tcbw"
IFS=, read -r -a m <<<"$ptc"
for tc in 0 1 2 3 4 5 6 7; do
	ups=
	for up in 0 1 2 3 4 5 6 7; do
		if [ "${m[up]}" = "$tc" ]; then ups+=" $up"; fi
	done
	if [ -z "$ups" ] && [ $all = 0 ]; then continue; fi
	if [ "${t[tc]}" = ets ]; then
		echo "tc: $tc ratelimit: unlimited, tsa: ets, bw: ${w[tc]}%"
	else
		echo "tc: $tc ratelimit: unlimited, tsa: ${t[tc]}"
	fi
	for up in $ups; do printf '\t priority:  %d\n' "$up"; done
done
`

// mlnxHost is an MLNX_OFED ConnectX-6 Dx on fab0 with a 2 m cable,
// trusting DSCP, as the tutorial's node1.
func mlnxHost(t *testing.T) string {
	f := fixture()
	n := fixtureNIC("roce0", "fab0", "ConnectX-6 Dx", "mellanox", "mlnx_ofed", 0, "192.0.2.1/24")
	n.Peer = modeltest.Cable("switch", "leaf1", "swp1", 2, "dac")
	f.Hosts[0].NICs = []model.NIC{n}
	return render(t, f, 0)
}

// stubRun runs script in namespace ns with the stub mlnx_qos first on
// PATH, its state and call log in dir, and then quietLogger (fakeBin);
// env adds variables.
func stubRun(t *testing.T, script, ns, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	path := filepath.Join(dir, "host.linux.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	argv := append([]string{"netns", "exec", ns, "env", "PATH=" + dir + ":" + fakeBin(t, nil) + ":" + os.Getenv("PATH"), "FAKES=" + dir}, hostNameEnv(t, script)...)
	argv = append(argv, env...)
	argv = append(argv, append([]string{"bash", path}, args...)...)
	out, err := exec.Command("ip", argv...).CombinedOutput()
	return string(out), err
}

// TestNetnsMlnxPFCAndCable runs an MLNX_OFED host's script on a freshly
// loaded port (trust pcp, PFC off, mlx5's default cable length 7) with an
// mlnx_qos from before mlnx-tools v24.04.0 and with a later one: PFC and
// the cable length go in one call, so PFC is on after the run with both
// (two calls, --pfc then --cable_len, leave it off with the old tool). A
// port whose cable length alone differs gets the same single call, and
// PFC stays on. A NIC that does not keep the PFC it was given stops the
// run at the read-back instead of counting it applied.
func TestNetnsMlnxPFCAndCable(t *testing.T) {
	tests := []struct {
		name  string
		state string // the port before the run; empty: freshly loaded
		env   []string
		set   string // the run's set line for PFC and cable length
	}{
		{"mlnx_qos before v24.04.0", "", []string{"MLNX_QOS_OLD=1"},
			"set fab0 pfc and cable length (m): 0,0,0,0,0,0,0,0 and 7 -> 0,0,0,1,0,0,0,0 and 2\n"},
		{"mlnx_qos v24.04.0 or later", "", nil,
			"set fab0 pfc and cable length (m): 0,0,0,0,0,0,0,0 and 7 -> 0,0,0,1,0,0,0,0 and 2\n"},
		{"cable length alone differs, old mlnx_qos", "pfc=0,0,0,1,0,0,0,0\n", []string{"MLNX_QOS_OLD=1"},
			"set fab0 pfc and cable length (m): 0,0,0,1,0,0,0,0 and 7 -> 0,0,0,1,0,0,0,0 and 2\n"},
	}
	s := mlnxHost(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ns := newNetns(t)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "mlnx_qos"), []byte(stubMlnxQos), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "state"), []byte(tc.state), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := stubRun(t, s, ns, dir, tc.env)
			if err != nil || !strings.Contains(out, tc.set) {
				t.Fatalf("run: %v; want %q:\n%s", err, tc.set, out)
			}
			calls := takeCalls(t, filepath.Join(dir, "calls"))
			if !strings.Contains(calls, "-i fab0 --pfc 0,0,0,1,0,0,0,0 --cable_len=2\n") || strings.Count(calls, "--cable_len") != 1 || strings.Count(calls, "--pfc") != 1 {
				t.Errorf("want one call with --pfc and --cable_len together; calls:\n%s", calls)
			}
			// The length reads back as set: --check says what that proves.
			const record = "note: fab0: cable length 2 m: what mlx5 reads back is its record of the value set; mlx5 sizes the PFC receive buffer from it only if a buffer layout was set (dcb buffer set), else the firmware sizes that buffer\n"
			out, err = stubRun(t, s, ns, dir, tc.env, "--check")
			if err != nil || strings.Contains(out, "DIFF") || !strings.Contains(out, record) {
				t.Errorf("--check after the run: %v; want no DIFF and %q:\n%s", err, record, out)
			}
		})
	}
	t.Run("PFC not kept", func(t *testing.T) {
		ns := newNetns(t)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "mlnx_qos"), []byte(stubMlnxQos), 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := stubRun(t, s, ns, dir, []string{"MLNX_QOS_DROP_PFC=1"})
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("exit: %v, want status 1", err)
		}
		const want = "fabricc: error: fab0 pfc (read back after the set) is 0,0,0,0,0,0,0,0, not 0,0,0,1,0,0,0,0: " + readbackFix + "\n"
		// The NIC's later steps do not run; the run ends naming the NIC.
		const stopped = "fabricc: error: the steps of 1 NIC(s) stopped on an error (see fabricc: error: above; the other NICs' steps ran): fab0\n"
		if !strings.Contains(out, want) || !strings.HasSuffix(out, stopped) || strings.Contains(out, "set fab0 ets") {
			t.Errorf("want %q, no ets step and the run ending %q:\n%s", want, stopped, out)
		}
	})
}

// TestNetnsMlnxDSCPMap: on a port that trusts PCP, --check reports the
// trust difference and one line for the DSCP map, which mlnx_qos does
// not print until the port trusts DSCP; a run then sets trust dscp and
// writes the 40 DSCPs in which the fabric's map differs from the
// firmware default (DSCP >> 3) in one mlnx_qos call; a second run reads
// mlnx_qos once for the NIC and changes nothing.
func TestNetnsMlnxDSCPMap(t *testing.T) {
	s := mlnxHost(t)
	ns := newNetns(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mlnx_qos"), []byte(stubMlnxQos), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := stubRun(t, s, ns, dir, nil, "--check")
	for _, w := range []string{"DIFF fab0 trust: intended dscp; actual pcp\n", "note: fab0: DSCP map: not in use (trust pcp)\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("--check lacks %q", w)
		}
	}
	if err == nil || strings.Contains(out, "unreadable") || strings.Contains(out, "dscp 0 priority") {
		t.Errorf("--check: %v, want exit 1 and no per-DSCP line:\n%s", err, out)
	}
	if n := strings.Count(takeCalls(t, filepath.Join(dir, "calls")), " -a\n"); n != 1 {
		t.Errorf("--check read mlnx_qos -a %d times for one NIC, want 1", n)
	}

	var want, have, set []string
	for d := 0; d < 64; d++ {
		p := fixture().QoS.DSCPToPriority[d]
		if p != d>>3 {
			want = append(want, strings.Join([]string{strconv.Itoa(d), strconv.Itoa(p)}, ":"))
			have = append(have, strings.Join([]string{strconv.Itoa(d), strconv.Itoa(d >> 3)}, ":"))
			set = append(set, "--dscp2prio set,"+strconv.Itoa(d)+","+strconv.Itoa(p))
		}
	}
	if len(set) != 40 {
		t.Fatalf("the fixture's map differs from DSCP >> 3 in %d DSCPs, want 40", len(set))
	}
	out, err = stubRun(t, s, ns, dir, nil)
	line := "set fab0 DSCP map (40 of 64 entries): " + strings.Join(have, " ") + " -> " + strings.Join(want, " ") + "\n"
	if err != nil || !strings.Contains(out, line) {
		t.Errorf("run: %v; want %q:\n%s", err, line, out)
	}
	calls := takeCalls(t, filepath.Join(dir, "calls"))
	if !strings.Contains(calls, "-i fab0 "+strings.Join(set, " ")+"\n") || strings.Count(calls, "--dscp2prio") != 40 {
		t.Errorf("want the 40 DSCPs in one call; calls:\n%s", calls)
	}
	out, err = stubRun(t, s, ns, dir, nil)
	if err != nil || !strings.Contains(out, "fabricc: nothing to do; the host already matches\n") {
		t.Errorf("second run: %v\n%s", err, out)
	}
	if calls := takeCalls(t, filepath.Join(dir, "calls")); strings.Count(calls, " -a\n") != 1 {
		t.Errorf("second run: want one mlnx_qos -a for the NIC; calls:\n%s", calls)
	}
}

// TestPFCDiffInWords: --check's PFC line names priorities, not a bit
// mask, in the script's DIFF format, and calls a priority intended
// lossless but off on the NIC lossy: PFC moved from priority 3 to 4 read
// from mlnx_qos's enabled row (the stub above) and from dcb's prio-pfc;
// PFC off everywhere, and on a priority too many; a value in neither form
// as it is.
func TestPFCDiffInWords(t *testing.T) {
	const lossy3 = " (priority 3 is lossy from this NIC: RoCE in it is dropped, not paused, under congestion)"
	dcbOn := func(on ...string) string {
		var f []string
		for p := 0; p < 8; p++ {
			s := strconv.Itoa(p) + ":off"
			for _, o := range on {
				if o == strconv.Itoa(p) {
					s = strconv.Itoa(p) + ":on"
				}
			}
			f = append(f, s)
		}
		return strings.Join(f, " ")
	}
	tests := []struct{ name, state, body, want string }{
		{"mlnx_qos, moved from 3 to 4", "pfc=0,0,0,0,1,0,0,0\n", "mlnx_pfc fab0 0,0,0,1,0,0,0,0\n",
			"DIFF fab0 pfc: intended priority 3; actual priority 4" + lossy3 + "\n"},
		{"mlnx_qos, off", "", "mlnx_pfc fab0 0,0,0,1,0,0,0,0\n",
			"DIFF fab0 pfc: intended priority 3; actual no priority" + lossy3 + "\n"},
		{"mlnx_qos, two intended, one on another", "pfc=0,0,0,0,0,0,1,0\n", "mlnx_pfc fab0 0,0,0,1,0,1,0,0\n",
			"DIFF fab0 pfc: intended priorities 3,5; actual priority 6 (priorities 3,5 are lossy from this NIC: RoCE in them is dropped, not paused, under congestion)\n"},
		{"mlnx_qos, one too many", "pfc=0,0,0,1,1,0,0,0\n", "mlnx_pfc fab0 0,0,0,1,0,0,0,0\n",
			"DIFF fab0 pfc: intended priority 3; actual priorities 3,4\n"},
		{"dcb, moved from 3 to 4", "", "ensure fab0 pfc '" + dcbOn("3") + "' '" + dcbOn("4") + "' true\n",
			"DIFF fab0 pfc: intended priority 3; actual priority 4" + lossy3 + "\n"},
		{"unreadable", "", "ensure fab0 pfc '" + dcbOn("3") + "' unreadable true\n",
			"DIFF fab0 pfc: intended priority 3; actual unreadable\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := fakeBin(t, map[string]string{"mlnx_qos": stubMlnxQos})
			if err := os.WriteFile(filepath.Join(dir, "state"), []byte(tc.state), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := hostRunIn(t, dir, "MODE=${1:-apply}; MODE=${MODE#--}\n"+tc.body, "--check")
			if err != nil || out != tc.want {
				t.Errorf("%v\ngot:\n%s\nwant:\n%s", err, out, tc.want)
			}
		})
	}
}
