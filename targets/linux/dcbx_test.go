package linux

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/internal/quote"
)

// fakeDcbDCBX is iproute2's dcb for the DCBX and PFC reads: "dcb dcbx
// show" prints the flags in $FAKES/dcbx.state as dcb-dcbx(8) does ("host
// ieee") and fails, as dcbnl does for a driver without getdcbx, when the
// file is absent; "dcb dcbx set dev IF FLAGS..." keeps FLAGS; "dcb -N pfc
// show dev IF prio-pfc" prints $FAKES/pfc.state and fails without it (qede
// reports no PFC while DCBX is not operational in IEEE mode). Every call
// goes to $FAKES/calls.
const fakeDcbDCBX = `#!/bin/sh
echo "$*" >>"$FAKES/calls"
[ "$1" = -N ] && shift
case "$1 $2" in
"dcbx show") [ -f "$FAKES/dcbx.state" ] || exit 1; cat "$FAKES/dcbx.state" ;;
"dcbx set") shift 4; echo "$*" >"$FAKES/dcbx.state" ;;
"pfc show") [ -f "$FAKES/pfc.state" ] || { echo "Attribute not found" >&2; exit 1; }; cat "$FAKES/pfc.state" ;;
*) exit 1 ;;
esac
`

// dcbxRun runs body after the prelude with the fake dcb and the given
// state files (name -> content) in its directory; it returns the output,
// the exit status, and what the state and call files hold afterwards.
func dcbxRun(t *testing.T, fakes, state map[string]string, body string, args ...string) (string, int, map[string]string) {
	t.Helper()
	dir := fakeBin(t, fakes)
	for name, text := range state {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := hostRunIn(t, dir, body, args...)
	rc := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		rc = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	after := map[string]string{}
	for _, name := range []string{"dcbx.state", "calls", "lldptool.calls"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			after[name] = string(b)
		}
	}
	return out, rc, after
}

// fwNote is the manual line a NIC found in firmware DCBX mode gets: the
// lasting fix with mlxconfig, which the script does not run.
func fwNote(ifc string) string {
	return "manual: " + ifc + ": the adapter's firmware LLDP/DCBX agent puts it back in firmware DCBX mode after a firmware reset or a reboot: mlxconfig -d <pci device> query | grep -E 'LLDP_NB_DCBX|DCBX_WILLING', set each to 0 (False), as mlxconfig -d <pci device> set LLDP_NB_DCBX_P1=0 DCBX_WILLING_P1=0 (P2 for the second port), then mlxfwreset or reboot\n"
}

// TestDcbxHost: an inbox ConnectX NIC in firmware DCBX mode (mlx5 shows
// no host flag until a DCBX set with it, mlx5e_dcbnl_initialize and
// mlx5e_dcbnl_setdcbx) is a --check difference with the lasting mlxconfig
// fix; a run sets host ieee, --dry-run shows it and counts it; a NIC in
// host mode, or whose driver has no DCBX op, has nothing to do. An
// interface name with shell characters is quoted in what --dry-run shows.
func TestDcbxHost(t *testing.T) {
	const fw = "DIFF fab0 DCBX mode: intended host; actual firmware (dcb dcbx show: cee ieee)\n"
	tests := []struct {
		name  string
		ifc   string
		state string // dcb dcbx show's flags; "-": the driver has no DCBX op
		args  []string
		want  string
		after string // the flags after the call
	}{
		{"firmware mode, check", "fab0", "cee ieee \n", []string{"--check"}, fw + fwNote("fab0") + "fabricc: 1 difference(s) from the model\n", "cee ieee \n"},
		{"firmware mode, run", "fab0", "cee ieee \n", nil,
			"set fab0 DCBX mode: firmware (dcb dcbx show: cee ieee) -> host\n" + fwNote("fab0") + "fabricc: 1 change(s) applied\n", "host ieee\n"},
		{"firmware mode, dry run", "fab0", "cee ieee \n", []string{"--dry-run"},
			"would run: dcb dcbx set dev fab0 host ieee\n" + fwNote("fab0") + "fabricc: 1 change(s) would be made\n", "cee ieee \n"},
		{"lld-managed, check", "fab0", "lld-managed ieee \n", []string{"--check"},
			"DIFF fab0 DCBX mode: intended host; actual firmware (dcb dcbx show: lld-managed ieee)\n" + fwNote("fab0") + "fabricc: 1 difference(s) from the model\n", "lld-managed ieee \n"},
		{"host mode since load", "fab0", "host cee ieee \n", []string{"--check"}, "fabricc: host matches the model\n", "host cee ieee \n"},
		{"host mode, run", "fab0", "host ieee \n", nil, "fabricc: nothing to do; the host already matches\n", "host ieee \n"},
		{"no DCBX op", "fab0", "-", nil, "fabricc: nothing to do; the host already matches\n", ""},
		{"hostile name, dry run", "fab 0;x", "cee ieee \n", []string{"--dry-run"},
			"would run: dcb dcbx set dev fab\\ 0\\;x host ieee\n" + fwNote("fab 0;x") + "fabricc: 1 change(s) would be made\n", "cee ieee \n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := map[string]string{}
			if tc.state != "-" {
				state["dcbx.state"] = tc.state
			}
			body := "dcbx_host " + quote.ShellWord(tc.ifc) + "\nfinish\n"
			out, _, after := dcbxRun(t, map[string]string{"dcb": fakeDcbDCBX}, state, body, tc.args...)
			if out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
			if after["dcbx.state"] != tc.after {
				t.Errorf("DCBX flags after: %q, want %q", after["dcbx.state"], tc.after)
			}
		})
	}
}

// TestNetnsMlnxDCBX: an MLNX_OFED port whose mlnx_qos reads "DCBX mode:
// Firmware controlled" is a --check difference with the mlxconfig fix; a
// run sets it with mlnx_qos --dcbx os before the DCB steps, and --check
// then finds no DCBX difference.
func TestNetnsMlnxDCBX(t *testing.T) {
	s := mlnxHost(t)
	ns := newNetns(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mlnx_qos"), []byte(stubMlnxQos), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "state"), []byte("dcbx=fw\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := stubRun(t, s, ns, dir, nil, "--check")
	mustHave(t, "--check", out, "DIFF fab0 DCBX mode: intended OS controlled; actual Firmware controlled\n"+fwNote("fab0"))
	out, _ = stubRun(t, s, ns, dir, nil)
	mustHave(t, "run", out, "set fab0 DCBX mode: Firmware controlled -> OS controlled\n"+fwNote("fab0")+"set fab0 trust: pcp -> dscp\n")
	if calls := takeCalls(t, filepath.Join(dir, "calls")); !strings.Contains(calls, "-i fab0 --dcbx os\n") {
		t.Errorf("no mlnx_qos --dcbx os; calls:\n%s", calls)
	}
	out, _ = stubRun(t, s, ns, dir, nil, "--check")
	if strings.Contains(out, "DCBX") || strings.Contains(out, "manual: fab0: the adapter's firmware") {
		t.Errorf("--check after the run still reports DCBX:\n%s", out)
	}
}

// TestQedePFC: --check reads the PFC a QLogic adapter negotiated by DCBX:
// as the model wants passes; none negotiated on a priority, or DCBX not
// operational (qede reports no PFC then), is a difference; CEE, which dcb
// cannot read, and a device without dcbnl are skipped steps; a run and
// --dry-run read nothing.
func TestQedePFC(t *testing.T) {
	const want = "0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off"
	tests := []struct {
		name        string
		dcbx, pfc   string // "-": the read fails
		args        []string
		out         string
		callsExpect bool
	}{
		{"negotiated as the model", "lld-managed ieee \n", "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off \n", []string{"--check"},
			"fabricc: host matches the model\n", true},
		{"switch advertises PFC off", "lld-managed ieee \n", "prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off \n", []string{"--check"},
			"DIFF fab0 negotiated PFC: intended " + want + "; actual 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off\nfabricc: 1 difference(s) from the model\n", true},
		{"DCBX not operational", "", "-", []string{"--check"},
			"DIFF fab0 negotiated PFC: intended " + want + "; actual none (DCBX is not operational: the switch port advertises no PFC, or DCBX is off in UEFI)\nfabricc: 1 difference(s) from the model\n", true},
		{"CEE", "lld-managed cee \n", "-", []string{"--check"},
			"skipped: fab0: negotiated PFC (the adapter runs DCBX CEE, which dcb cannot read; wanted " + want + ")\nfabricc: 1 step(s) skipped (see skipped: lines above); in what could be checked:\nfabricc: host matches the model\n", true},
		{"no dcbnl (virtual device)", "-", "-", []string{"--check"},
			"skipped: fab0: DCB (dcbnl) (virtual device; only a real NIC's driver offers it)\nfabricc: 1 step(s) skipped (see skipped: lines above); in what could be checked:\nfabricc: host matches the model\n", true},
		{"run reads nothing", "", "-", nil, "fabricc: nothing to do; the host already matches\n", false},
		{"dry run reads nothing", "", "-", []string{"--dry-run"}, "fabricc: nothing to do\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := map[string]string{}
			if tc.dcbx != "-" {
				state["dcbx.state"] = tc.dcbx
			}
			if tc.pfc != "-" {
				state["pfc.state"] = tc.pfc
			}
			out, _, after := dcbxRun(t, map[string]string{"dcb": fakeDcbDCBX}, state, "qede_pfc fab0 '"+want+"'\nfinish\n", tc.args...)
			if out != tc.out {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.out)
			}
			if _, called := after["calls"]; called != tc.callsExpect {
				t.Errorf("dcb called: %v, want %v (%q)", called, tc.callsExpect, after["calls"])
			}
		})
	}
}

// fakeLldptool answers "lldptool get-lldp -i IF adminStatus" as lldptool(8)
// prints it: disabled on the interfaces in $LLDP_OFF, rxtx elsewhere; and
// "lldptool -t -i IF -V IEEE-DCBX -c mode" as lldptool-dcbx(8) prints it
// (lldptool's print_arg_value: "mode=auto"), from $FAKES/lldpad-dcbx.IF,
// failing without that file. With $FAKES set, each call's arguments go to
// $FAKES/lldptool.calls, each followed by "|", one call a line.
const fakeLldptool = `#!/bin/sh
if [ -n "${FAKES:-}" ]; then
	printf '%s|' "$@" >>"$FAKES/lldptool.calls"
	echo >>"$FAKES/lldptool.calls"
fi
if [ "$1" = get-lldp ]; then
	for i in $LLDP_OFF; do
		if [ "$3" = "$i" ]; then echo adminStatus=disabled; exit 0; fi
	done
	echo adminStatus=rxtx
	exit 0
fi
if [ "$1 $2 $4 $5 $6 $7" = "-t -i -V IEEE-DCBX -c mode" ] && [ -n "${FAKES:-}" ] && [ -f "$FAKES/lldpad-dcbx.$3" ]; then
	exec cat "$FAKES/lldpad-dcbx.$3"
fi
echo "Device not found"
exit 1
`

// TestDcbxCheckPerNIC: with lldpad running, only the NICs on which LLDP
// is not disabled (lldptool get-lldp -i IF adminStatus) are held: --check
// reports each, naming the interface in the fix; --dry-run notes it and
// leaves its DCB steps out, so they are not counted; a run leaves them
// out and exits 1 naming them; the others' DCB steps run.
func TestDcbxCheckPerNIC(t *testing.T) {
	fix := func(ifc string) string {
		return "stop and disable it (systemctl disable --now lldpad), or disable LLDP on this interface (lldptool set-lldp -i " + ifc + " adminStatus=disabled; lldptool(8)), then run this script again"
	}
	body := "dcbx_check fab0 fab1\nfor i in fab0 fab1; do\n\tif dcb_free \"$i\"; then ensure \"$i\" pfc on off true; fi\ndone\nfinish\n"
	tests := []struct {
		name, off string
		args      []string
		want      string
		rc        int
	}{
		{"check", "fab0", []string{"--check"},
			"DIFF fab1 DCBX agent: intended none; actual lldpad (running and managing this interface; it may rewrite PFC, ETS and the DCB APP table: " + fix("fab1") + ")\n" +
				"DIFF fab0 pfc: intended on; actual off\nDIFF fab1 pfc: intended on; actual off\nfabricc: 3 difference(s) from the model\n", 3},
		{"dry run", "fab0", []string{"--dry-run"},
			"note: fab1: lldpad is running and manages it: a run would leave out its DCB steps and exit 1; " + fix("fab1") + "\n" +
				"would run: true\nfabricc: 1 change(s) would be made\n", 0},
		{"run", "fab0", nil,
			"fabricc: error: fab1: lldpad is running and manages it, and may rewrite PFC, ETS and the DCB APP table, so its DCB steps are left out: " + fix("fab1") + "\n" +
				"set fab0 pfc: off -> on\nnote: fab1: DCB steps left out: lldpad manages it\nfabricc: 1 change(s) applied\n" +
				"fabricc: error: DCB is not set on fab1 while lldpad manages it (see fabricc: error: above)\n", 1},
		{"run, LLDP off on both", "fab0 fab1", nil, "set fab0 pfc: off -> on\nset fab1 pfc: off -> on\nfabricc: 2 change(s) applied\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakes := map[string]string{"pgrep": fakePgrepLldpad, "lldptool": fakeLldptool}
			out, rc, _ := dcbxRun(t, fakes, nil, "export LLDP_OFF='"+tc.off+"'\n"+body, tc.args...)
			if out != tc.want || rc != tc.rc {
				t.Errorf("status %d, want %d; got:\n%s\nwant:\n%s", rc, tc.rc, out, tc.want)
			}
		})
	}
}

// TestDcbxCheckLldpadDCBX: with lldpad running, a NIC where lldptool reads
// a DCBX mode (lldptool -t -i IF -V IEEE-DCBX -c mode, lldptool-dcbx(8))
// is held even with LLDP disabled there, since lldpad's DCBX sets PFC and
// ETS at link-up without looking at LLDP's admin status: --check reports
// it, --dry-run notes it, a run leaves its DCB steps out and exits 1, each
// with the one fix that works, stopping lldpad. An answer that is no DCBX
// mode leaves the decision to LLDP's admin status. A hostile interface
// name reaches lldptool as one argument and the message shell-quoted.
func TestDcbxCheckLldpadDCBX(t *testing.T) {
	const fix = "stop and disable it (systemctl disable --now lldpad), then run this script again"
	how := func(mode, word string) string {
		return mode + " DCBX on it (lldptool -t -i " + word + " -V IEEE-DCBX -c mode), which sets PFC and ETS whether LLDP is disabled there or not"
	}
	ing := func(mode, word string) string {
		return mode + " DCBX to this interface (lldptool -t -i " + word + " -V IEEE-DCBX -c mode), which sets PFC and ETS whether LLDP is disabled there or not"
	}
	tests := []struct {
		name, ifc, answer string // answer: what lldptool prints for ifc's DCBX mode; "": it fails
		args              []string
		want              string
		rc                int
	}{
		{"IEEE, check", "fab1", "mode=auto\n", []string{"--check"},
			"DIFF fab1 DCBX agent: intended none; actual lldpad (running and applying " + ing("IEEE", "fab1") + "; it may rewrite PFC, ETS and the DCB APP table: " + fix + ")\n" +
				"DIFF fab0 pfc: intended on; actual off\nDIFF fab1 pfc: intended on; actual off\nfabricc: 3 difference(s) from the model\n", 3},
		{"IEEE, dry run", "fab1", "mode=auto\n", []string{"--dry-run"},
			"note: fab1: lldpad is running and runs " + how("IEEE", "fab1") + ": a run would leave out its DCB steps and exit 1; " + fix + "\n" +
				"would run: true\nfabricc: 1 change(s) would be made\n", 0},
		{"IEEE, run", "fab1", "mode=auto\n", nil,
			"fabricc: error: fab1: lldpad is running and runs " + how("IEEE", "fab1") + ", and may rewrite PFC, ETS and the DCB APP table, so its DCB steps are left out: " + fix + "\n" +
				"set fab0 pfc: off -> on\nnote: fab1: DCB steps left out: lldpad manages it\nfabricc: 1 change(s) applied\n" +
				"fabricc: error: DCB is not set on fab1 while lldpad manages it (see fabricc: error: above)\n", 1},
		{"CEE, hostile name, dry run", "fab 1;x", "mode=CEE\n", []string{"--dry-run"},
			"note: fab 1;x: lldpad is running and runs " + how("CEE", "fab\\ 1\\;x") + ": a run would leave out its DCB steps and exit 1; " + fix + "\n" +
				"would run: true\nfabricc: 1 change(s) would be made\n", 0},
		{"no DCBX mode in the answer", "fab1", "mode=unknown\n", nil,
			"set fab0 pfc: off -> on\nset fab1 pfc: off -> on\nfabricc: 2 change(s) applied\n", 0},
		{"lldptool answers no DCBX mode", "fab1", "", nil,
			"set fab0 pfc: off -> on\nset fab1 pfc: off -> on\nfabricc: 2 change(s) applied\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := quote.ShellWord(tc.ifc)
			body := "export LLDP_OFF='fab0 fab1'\ndcbx_check fab0 " + w + "\nfor i in fab0 " + w + "; do\n\tif dcb_free \"$i\"; then ensure \"$i\" pfc on off true; fi\ndone\nfinish\n"
			state := map[string]string{}
			if tc.answer != "" {
				state["lldpad-dcbx."+tc.ifc] = tc.answer
			}
			fakes := map[string]string{"pgrep": fakePgrepLldpad, "lldptool": fakeLldptool}
			out, rc, after := dcbxRun(t, fakes, state, body, tc.args...)
			if out != tc.want || rc != tc.rc {
				t.Errorf("status %d, want %d; got:\n%s\nwant:\n%s", rc, tc.rc, out, tc.want)
			}
			if query := "-t|-i|" + tc.ifc + "|-V|IEEE-DCBX|-c|mode|\n"; !strings.Contains(after["lldptool.calls"], query) {
				t.Errorf("lldptool calls lack %q:\n%s", query, after["lldptool.calls"])
			}
		})
	}
}
