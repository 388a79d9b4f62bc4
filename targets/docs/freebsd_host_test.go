package docs

import (
	"strings"
	"testing"
)

// TestFreeBSDMlx4HostDoc checks that the document of a FreeBSD host whose
// NIC runs mlx4en claims no trust, ETS or DCQCN as configured: the
// driver has no setting for them (model.DriverQoS), so the cells say
// "not settable on mlx4en" and By hand says what the NIC does instead.
func TestFreeBSDMlx4HostDoc(t *testing.T) {
	f := compileExample(t, "homelab-40g")
	h := f.Host("nas")
	if h == nil {
		t.Fatal("no host nas")
	}
	files, err := RenderHost(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	for _, want := range []string{
		"| mlxen0 | RoCE v2, UDP 4791 | 3 | 26 (ToS 106) | pcp, not settable on mlx4en | 3 | not settable on mlx4en (wanted 0-7) | 6 / 48 | not settable on mlx4en (wanted TC0 50 %, TC3 50 %, TC6 strict) |",
		"- mlxen0 (mlxen0, ConnectX-3 Pro): mlx4en has no trust, DSCP map or ETS setting (its only QoS sysctls are the PFC masks rx\\_ppp and tx\\_ppp): the NIC classifies received frames by their 802.1Q PCP only, so RoCE must reach it tagged with priority 3 in a VLAN; ETS wanted TC0 50 %, TC3 50 %, TC6 strict, not set.",
	} {
		if !strings.Contains(s, want+"\n") {
			t.Errorf("nas.md lacks the line\n%s\nin\n%s", want, s)
		}
	}
	if want := "mlxen0: trust, DSCP map, ETS and DCQCN are not settable on mlx4en, so the host script leaves them as the NIC has them;"; !strings.Contains(s, want) {
		t.Errorf("nas.md lacks %q:\n%s", want, s)
	}
	if bad := "| pcp | 3 | 3 |"; strings.Contains(s, bad) {
		t.Errorf("nas.md still claims trust and DCQCN as set: %q", bad)
	}

	// A workstation's WinOF NIC has every setting: its cells are plain.
	w, err := RenderHost(f, f.Host("workstation"))
	if err != nil {
		t.Fatal(err)
	}
	if ws := string(w[0].Data); strings.Contains(ws, "not settable") {
		t.Errorf("workstation.md says not settable:\n%s", ws)
	}
}
