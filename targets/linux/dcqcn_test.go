package linux

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// dcqcnFixture is fixture() with the fabric setting two DCQCN parameters.
func dcqcnFixture() *model.Fabric {
	f := fixture()
	f.QoS.DCQCN = []model.DCQCNParam{{Name: "rpg_min_dec_fac", Value: 25}, {Name: "rpg_min_rate", Value: 1000}}
	return f
}

// TestDCQCNParamLines: the MLNX_OFED host writes each parameter under
// ecn/roce_rp with MLNX_OFED's name, the inbox host through debugfs
// cc_params with the rp_ name, the QLogic host nothing; each helper comes
// only with the host that calls it.
func TestDCQCNParamLines(t *testing.T) {
	f := dcqcnFixture()
	ofed := render(t, f, 0)
	for _, want := range []string{
		"\tif capable \"$ifc\" \"DCQCN parameters sysfs (ecn/roce_rp)\" \"MLNX_OFED's mlx5_core creates /sys/class/net/$ifc/ecn/roce_rp\" test -d \"/sys/class/net/$ifc/ecn/roce_rp\"; then\n" +
			"\t\tdcqcn_sysfs \"$ifc\" roce_rp rpg_min_dec_fac 25\n" +
			"\t\tdcqcn_sysfs \"$ifc\" roce_rp rpg_min_rate 1000\n" +
			"\tfi\n",
		"dcqcn_sysfs() {\n\tlocal f=/sys/class/net/$1/ecn/$2/$3\n",
	} {
		if !strings.Contains(ofed, want) {
			t.Errorf("MLNX_OFED script lacks:\n%s", want)
		}
	}
	inbox := render(t, f, 2)
	want := "\tif capable \"$ifc\" \"DCQCN parameters (mlx5 debugfs cc_params)\" \"$(dcqcn_fix \"$ifc\")\" cc_params_ready \"$ifc\"; then\n" +
		"\t\tdcqcn_debugfs \"$ifc\" rp_min_dec_fac 25\n" +
		"\t\tdcqcn_debugfs \"$ifc\" rp_min_rate 1000\n" +
		"\tfi\n"
	if !strings.Contains(inbox, want) {
		t.Errorf("inbox script lacks:\n%s", want)
	}
	if strings.Contains(inbox, "dcqcn_sysfs") || strings.Contains(ofed, "dcqcn_debugfs") {
		t.Error("a script carries the other driver's DCQCN helper")
	}
	if q := render(t, f, 1); strings.Contains(q, "dcqcn_sysfs") || strings.Contains(q, "dcqcn_debugfs") {
		t.Error("the QLogic host's script writes ConnectX DCQCN parameters")
	}
}

// TestDCQCNWithoutParams: without a dcqcn block the scripts are what they
// were: no DCQCN parameter step or helper.
func TestDCQCNWithoutParams(t *testing.T) {
	f := fixture()
	for i := range f.Hosts {
		if s := render(t, f, i); strings.Contains(s, "dcqcn_sysfs") || strings.Contains(s, "dcqcn_debugfs") || strings.Contains(s, "DCQCN parameters") {
			t.Errorf("%s: a DCQCN parameter step without a dcqcn block", f.Hosts[i].Name)
		}
	}
}

// TestDCQCNRefusesBadModel: a model.json edited past the compiler's
// ranges is refused, not written into the script.
func TestDCQCNRefusesBadModel(t *testing.T) {
	f := fixture()
	f.QoS.DCQCN = []model.DCQCNParam{{Name: "rpg_min_dec_fac", Value: 101}}
	if _, err := Render(f, &f.Hosts[0]); err == nil || err.Error() != "linux: qos dcqcn rpg_min_dec_fac = 101 is out of its range 1-100" {
		t.Errorf("Render = %v, want the range error", err)
	}
	f.QoS.DCQCN = []model.DCQCNParam{{Name: "rpg_ai_rate; reboot", Value: 1}}
	if _, err := Render(f, &f.Hosts[0]); err == nil || err.Error() != `linux: qos dcqcn has an unknown parameter "rpg_ai_rate; reboot"` {
		t.Errorf("Render = %v, want the unknown parameter error", err)
	}
}

// TestDCQCNSysfsRun runs the MLNX_OFED step in a fake /sys: --check
// reports each value that differs from the firmware's, a run writes it,
// and a NIC without ecn/roce_rp fails the step naming MLNX_OFED.
func TestDCQCNSysfsRun(t *testing.T) {
	const steps = "if capable \"$ifc\" \"DCQCN parameters sysfs (ecn/roce_rp)\" \"MLNX_OFED's mlx5_core creates /sys/class/net/$ifc/ecn/roce_rp\" test -d \"/sys/class/net/$ifc/ecn/roce_rp\"; then\n" +
		"\tdcqcn_sysfs \"$ifc\" roce_rp rpg_min_dec_fac 25\n" +
		"\tdcqcn_sysfs \"$ifc\" roce_rp rpg_min_rate 1000\n" +
		"fi\n"
	rp := "/sys/class/net/fab0/ecn/roce_rp/"
	firmware := nic(map[string]string{rp + "rpg_min_dec_fac": "50\n", rp + "rpg_min_rate": "1000\n"})
	tests := []struct {
		name  string
		files map[string]string
		mode  string
		after string
		want  string
	}{
		{"check", firmware, "--check", "", "DIFF fab0 DCQCN rpg_min_dec_fac: intended 25; actual 50\nend\n"},
		{"run", firmware, "", "cat " + rp + "rpg_min_dec_fac " + rp + "rpg_min_rate\n",
			"set fab0 DCQCN rpg_min_dec_fac: 50 -> 25\n25\n1000\nend\n"},
		{"no MLNX_OFED sysfs", nic(nil), "--check", "", "DIFF fab0 DCQCN parameters sysfs (ecn/roce_rp): intended supported; actual unsupported\nend\n"},
		{"no MLNX_OFED sysfs, run", nic(nil), "", "", "fabricc: error: fab0 DCQCN parameters sysfs (ecn/roce_rp) is unsupported, not supported: MLNX_OFED's mlx5_core creates /sys/class/net/fab0/ecn/roce_rp\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeSys{mounts: []string{"/sys/class/net"}, files: tc.files, links: nicLink}
			body := "MODE=${1:-apply}; MODE=${MODE#--}\nifc=fab0\njournal() { :; }\n" + steps + tc.after + "echo end\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, _ := fs.run(t, body, args...)
			if out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}

// TestDCQCNDebugfsRun runs the inbox step in a fake debugfs: --check
// reports a difference under the rp_ name; under kernel lockdown --check
// reports the step unsupported and a run stops with the reason and the
// mlxconfig way.
func TestDCQCNDebugfsRun(t *testing.T) {
	const steps = "if capable \"$ifc\" \"DCQCN parameters (mlx5 debugfs cc_params)\" \"$(dcqcn_fix \"$ifc\")\" cc_params_ready \"$ifc\"; then\n" +
		"\tdcqcn_debugfs \"$ifc\" rp_min_dec_fac 25\n" +
		"fi\n"
	d := "/sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/"
	mounts := []string{"/sys/class/net", "/sys/kernel/debug", "/sys/kernel/security"}
	files := func(lockdown string) map[string]string {
		return nic(map[string]string{d + "rp_min_dec_fac": "50\n", "/sys/kernel/security/lockdown": lockdown})
	}
	tests := []struct {
		name  string
		files map[string]string
		mode  string
		want  string
	}{
		{"check", files("[none] integrity confidentiality\n"), "--check", "DIFF fab0 DCQCN rp_min_dec_fac: intended 25; actual 50\nend\n"},
		{"lockdown, check", files("none [integrity] confidentiality\n"), "--check",
			"DIFF fab0 DCQCN parameters (mlx5 debugfs cc_params): intended supported; actual unsupported\nend\n"},
		{"lockdown, run", files("none [integrity] confidentiality\n"), "",
			"fabricc: error: fab0 DCQCN parameters (mlx5 debugfs cc_params) is unsupported, not supported: kernel lockdown (integrity, as UEFI Secure Boot sets it) refuses debugfs (kernel_lockdown(7)); " +
				"or set them in firmware: mlxconfig -d 0000:3b:00.0 set with the NVConfig names of NVIDIA \"DCQCN CC Parameters\", then mlxfwreset or a reboot\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := fakeSys{mounts: mounts, files: tc.files, links: nicLink}
			body := "MODE=${1:-apply}; MODE=${MODE#--}\nifc=fab0\n" + steps + "echo end\n"
			var args []string
			if tc.mode != "" {
				args = []string{tc.mode}
			}
			out, _ := fs.run(t, body, args...)
			if out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
		})
	}
}
