package docs

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// switchDoc renders sw's document.
func switchDoc(t *testing.T, f *model.Fabric, sw *model.Switch) string {
	t.Helper()
	files, err := RenderSwitch(f, sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file.Name, ".md") {
			return string(file.Data)
		}
	}
	t.Fatal("no .md")
	return ""
}

// The headroom table of a switch that sizes its headroom itself says,
// before the table, that the numbers are fabricc's, for comparison, and
// what to check on the switch; a switch fabricc configures says which
// configuration keyword carries which number.
func TestHeadroomConfiguredOrNot(t *testing.T) {
	f := compileExample(t, "multivendor-clos")
	onyxTP := "**Not configured on this switch.** Onyx sizes each port's headroom itself in traffic-pool mode, MLNX-OS 3.6.5000 and later, and this switch's configuration carries none of the numbers below. " +
		"They are fabricc's computed values, for comparison, and the buffer budget below counts them; after a recable check the switch's own headroom, on the switch: show buffers details interfaces ethernet \\<port\\>."
	jericho := "**Not configured on this switch.** EOS sizes PFC headroom itself on Jericho2, which has no MMU queue profile, and this switch's configuration carries none of the numbers below."
	cumulus := "In the configuration (NVUE PFC profile): `qos pfc <profile> port-buffer` is the buffer, `xoff-threshold` and `xon-threshold` are the PAUSE threshold"
	eosMMU := "In the configuration (EOS MMU queue profile): one `ingress headroom bytes H` line for the whole platform"
	header := "| port / PG | peer response | cable | propagation | cell occupancy | in flight after PAUSE | PAUSE threshold | buffer |"

	leaf3 := switchDoc(t, f, f.Switch("leaf3"))
	i, j := strings.Index(leaf3, onyxTP), strings.Index(leaf3, header)
	if i < 0 || j < 0 || i > j {
		t.Errorf("leaf3.md: want the traffic-pool note (at %d) before the results table (at %d)", i, j)
	}
	if d := switchDoc(t, f, f.Switch("leaf1")); !strings.Contains(d, cumulus) || strings.Contains(d, "Not configured") {
		t.Errorf("leaf1.md (Cumulus) lacks the NVUE keywords or says not configured")
	}
	spine := f.Switch("spine1")
	if d := switchDoc(t, f, spine); !strings.Contains(d, eosMMU) || strings.Contains(d, "Not configured") {
		t.Errorf("spine1.md (EOS Trident3) lacks the MMU keyword or says not configured")
	}
	spine.Hardware.ASIC = "Jericho2"
	if d := switchDoc(t, f, spine); !strings.Contains(d, jericho) {
		t.Errorf("spine1.md on Jericho2 lacks %q", jericho)
	}
	fab, err := RenderFabric(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Headroom in use is the buffer of every lossless priority group (in flight after PAUSE + PAUSE threshold, SONiC's xoff + xon; fabricc's computation, not configured, on a switch whose document says so)"; !strings.Contains(string(fab.Data), want) {
		t.Errorf("fabric.md lacks %q", want)
	}
}

// An Onyx switch in advanced buffer mode says that Onyx's xoff and xon
// keywords are both the PAUSE threshold.
func TestHeadroomOnyxKeywords(t *testing.T) {
	f := compileExample(t, "demartek-lab")
	d := switchDoc(t, f, f.Switch("sn2410"))
	want := "In the configuration (Onyx advanced buffers): `ingress-buffer iPort.pgN map pool ... reserved R xoff X xon X`, where R is the buffer and Onyx's `xoff` and `xon` are both the PAUSE threshold, not the in-flight bytes that SONiC calls xoff."
	if !strings.Contains(d, want) {
		t.Errorf("sn2410.md lacks %q", want)
	}
}
