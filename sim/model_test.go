package sim_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// TestSimulatorsReportTheirModel: each simulator prints the hardware
// model it was started for where the OS prints it, which push compares
// with the fabric's model (push/hwmodel.go): EOS `show version | json`
// modelName with Arista's "DCS-" prefix and a real box's airflow suffix
// (napalm's EOS mock test_get_environment/issue810_7010t/
// show_version.json: "modelName": "DCS-7010T-48-R"), Onyx `show inventory`'s CHASSIS
// row (the part number: an "M", the model, a suffix), NVUE the model in
// the header of `nv config show`.
func TestSimulatorsReportTheirModel(t *testing.T) {
	for _, tc := range []struct {
		platform   model.Platform
		model, cmd string
		def        func(*testing.T) any
		read       func(t *testing.T, out string) string
		want       string
	}{
		{model.PlatformEOS, "7280CR3-32P4", "show version | json", func(*testing.T) any { return "arista_eos" }, func(t *testing.T, out string) string {
			var v struct {
				ModelName string `json:"modelName"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			return v.ModelName
		}, "DCS-7280CR3-32P4-R"},
		{model.PlatformOnyx, "SN3700C", "show inventory", onyxDef, func(t *testing.T, out string) string {
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "CHASSIS ") {
					return l
				}
			}
			t.Fatalf("no CHASSIS row: %s", out)
			return ""
		}, "CHASSIS          MSN3700C-CS2F      MT0000X00000         N/A          A1"},
		{model.PlatformCumulus, "SN4600C", "nv config show -o json", cumulusDef, func(t *testing.T, out string) string {
			var docs []struct {
				Header struct {
					Model string `json:"model"`
				} `json:"header"`
			}
			if err := json.Unmarshal([]byte(out[strings.Index(out, "["):]), &docs); err != nil || len(docs) == 0 {
				t.Fatalf("%v: %s", err, out)
			}
			return docs[0].Header.Model
		}, "SN4600C"},
	} {
		t.Run(string(tc.platform), func(t *testing.T) {
			d := startWith(t, sim.Options{Platform: tc.platform, Model: tc.model})
			if got := tc.read(t, cmd(t, mustOpen(t, d, tc.def(t)), tc.cmd)); got != tc.want {
				t.Errorf("%s on a %s: %q, want %q", tc.cmd, tc.model, got, tc.want)
			}
		})
	}
}

// TestOnyxInventoryColumns: Onyx `show inventory` has the header of a
// real Onyx 3.9.2504 session recorded in oxidized's model test data
// (ytti/oxidized spec/model/data/mlnxos#Onyx_3.9.2504#simulation.yaml):
//
//	-----------------------------------------------------------------------------
//	Module           Part Number        Serial Number        Asic Rev.    HW Rev.
//	-----------------------------------------------------------------------------
//
// and each row's values start under their column's name.
func TestOnyxInventoryColumns(t *testing.T) {
	const rule = "-----------------------------------------------------------------------------"
	const header = "Module           Part Number        Serial Number        Asic Rev.    HW Rev."
	d := startWith(t, sim.Options{Platform: model.PlatformOnyx, Model: "SN2700"})
	out := cmd(t, mustOpen(t, d, onyxDef(t)), "show inventory")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 5 || lines[0] != rule || lines[1] != header || lines[2] != rule {
		t.Fatalf("show inventory:\n%s\nwant the header\n%s\n%s\n%s", out, rule, header, rule)
	}
	for _, row := range lines[3:] {
		for _, col := range []string{"Part Number", "Serial Number", "Asic Rev.", "HW Rev."} {
			at := strings.Index(header, col)
			if len(row) <= at || row[at-1] != ' ' || row[at] == ' ' {
				t.Errorf("show inventory row %q: no value starts under %q (column %d)", row, col, at)
			}
		}
	}
	if !strings.HasPrefix(lines[3], "CHASSIS          MSN2700-CS2F ") {
		t.Errorf("show inventory: first row %q, want the CHASSIS row with part number MSN2700-CS2F", lines[3])
	}
}
