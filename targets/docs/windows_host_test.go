package docs

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestWindowsHostDoc checks that a Windows host's document claims no
// marking its script does not set: the WinOF-2 NIC's DSCP cell says it is
// not set, and the By hand steps say the firmware runs DCQCN on every
// priority by default and what the port's trust makes of the DSCP.
func TestWindowsHostDoc(t *testing.T) {
	f := compileExample(t, "demartek-lab")
	h := f.Host("win-client")
	if h == nil {
		t.Fatal("no host win-client")
	}
	files, err := RenderHost(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	for _, want := range []string{
		"| roce0 | RoCE v2, UDP 4791 | 3 | 26 (ToS 106), not set: driver's own | pcp | 3 | 0-7 | 6 / 48 | TC0 49 %, TC3 50 %, TC6 strict, TC7 1 % |",
		"- roce0 (Ethernet 4, ConnectX-4): DCQCN on every priority and CNP priority 6 / DSCP 48 are not set or checked by the script. Set them by hand: DCQCN per priority with the adapter registry keys DcQcnEnablePrio0 to DcQcnEnablePrio7, 1 on and 0 off (NVIDIA \"DCQCN CC Parameters\", General table, WinOF column), under the adapter's key as the WinOF-2 User Manual, \"Configuring the Driver Registry Keys\", describes, then Restart-NetAdapter; the CNP marking with mlxconfig -d DEV set CNP\\_DSCP\\_P1=48 CNP\\_802P\\_PRIO\\_P1=6 and a reboot (NVIDIA Firmware Tools (MFT) User Manual, mlxconfig). The adapter firmware runs DCQCN on the priorities of its ROCE\\_CC\\_PRIO\\_MASK (all by default) and marks CNPs as its own settings say.",
		"- roce0 (Ethernet 4, ConnectX-4): the RoCE DSCP 26 is not set by the script (the DSCP mapping keys are documented for WinOF, WinOF User Manual 5.50 §4.1.11.7, not in the WinOF-2 User Manual 1.21): RoCE leaves with the driver's own DSCP; its switch port sn2410:1/49 trusts PCP, the priority 3 the script sets, so the DSCP does not classify its RoCE there.",
	} {
		if !strings.Contains(s, want+"\n") {
			t.Errorf("win-client.md lacks the line\n%s\nin\n%s", want, s)
		}
	}
	for _, bad := range []string{"documents a setting for them", "DCQCN on priorities 3 ", "are adapter firmware defaults", "| 26 (ToS 106) |"} {
		if strings.Contains(s, bad) {
			t.Errorf("win-client.md still says %q", bad)
		}
	}

	// Toward a port trusting DSCP the step points at the warning.
	for i := range h.NICs {
		h.NICs[i].RoCE.Trust = model.TrustDSCP
	}
	steps := strings.Join(ManualSteps(f, h), "\n")
	if want := "its switch port sn2410:1/49 trusts DSCP, so capture a RoCE packet and check its DSCP, or trust PCP on both ends (fabricc warns: windows-roce-dscp-not-settable)."; !strings.Contains(steps, want) {
		t.Errorf("steps lack %q:\n%s", want, steps)
	}

	// Cabled back to back, the peer NIC classifies the RoCE, and the
	// compiler's warning (switch ports only) is not promised.
	for i := range h.NICs {
		h.NICs[i].Peer = &model.Peer{Kind: "host", Device: "nas", Port: "mlxen0"}
	}
	steps = strings.Join(ManualSteps(f, h), "\n")
	if want := "its peer NIC nas:mlxen0 trusts DSCP, so capture a RoCE packet and check its DSCP, or trust PCP on both ends."; !strings.Contains(steps, want) {
		t.Errorf("steps lack %q:\n%s", want, steps)
	}
	if strings.Contains(steps, "switch port") || strings.Contains(steps, "windows-roce-dscp-not-settable") {
		t.Errorf("steps of a back-to-back NIC speak of a switch port or a warning the compiler gives only toward one:\n%s", steps)
	}
}

// TestPSArg: an adapter name in a PowerShell command of the document is
// bare when it is a plain word and a verbatim string otherwise, with
// every single-quote-character doubled, the curly ones too.
func TestPSArg(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ethernet3", "Ethernet3"},
		{"vEthernet_1.2-a", "vEthernet_1.2-a"},
		{"Ethernet 4", "'Ethernet 4'"},
		{"Bob's NIC", "'Bob''s NIC'"},
		{"Bob\u2019s", "'Bob\u2019\u2019s'"},
		{"$(reboot)", "'$(reboot)'"},
	}
	for _, tc := range tests {
		if got := psArg(tc.in); got != tc.want {
			t.Errorf("psArg(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
