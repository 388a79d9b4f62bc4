package freebsd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestDCQCNParamSysctls: an mlx5en NIC takes the fabric's DCQCN
// parameters through mlx5ib's cong.conf.rp_* sysctls, now and in
// sysctl.conf; the mlx4en NIC, which has none, gets no step; without a
// dcqcn block nothing is written.
func TestDCQCNParamSysctls(t *testing.T) {
	f := fixture()
	f.QoS.DCQCN = []model.DCQCNParam{{Name: "rpg_min_dec_fac", Value: 25}, {Name: "dce_tcp_rtt", Value: 5}}
	out := files(t, f, 1)
	const base = "sys.class.infiniband.mlx5_0.cong.conf."
	step := "\t# DCQCN parameters of the fabric (qos dcqcn; NVIDIA \"DCQCN CC Parameters\").\n" +
		"\tif sysctl_stops " + base + "rp_min_dec_fac; then\n" +
		"\t\tunavailable mce0 'DCQCN parameters' 'mlx5ib congestion sysctls' 'kldload mlx5ib, or set them in firmware with mlxconfig (the NVConfig names of NVIDIA \"DCQCN CC Parameters\")'\n" +
		"\telse\n" +
		"\t\tensure mce0 " + base + "rp_min_dec_fac 25 \"$(sysctl_get " + base + "rp_min_dec_fac)\" sysctl " + base + "rp_min_dec_fac=25\n" +
		"\t\tensure /etc/sysctl.conf " + base + "rp_min_dec_fac '25' \"$(conf_get /etc/sysctl.conf " + base + "rp_min_dec_fac)\" conf_set /etc/sysctl.conf " + base + "rp_min_dec_fac '25'\n" +
		"\t\tensure mce0 " + base + "rp_dce_tcp_rtt 5 \"$(sysctl_get " + base + "rp_dce_tcp_rtt)\" sysctl " + base + "rp_dce_tcp_rtt=5\n" +
		"\t\tensure /etc/sysctl.conf " + base + "rp_dce_tcp_rtt '5' \"$(conf_get /etc/sysctl.conf " + base + "rp_dce_tcp_rtt)\" conf_set /etc/sysctl.conf " + base + "rp_dce_tcp_rtt '5'\n" +
		"\tfi\n"
	if !strings.Contains(out["nas5.freebsd.sh"], step) {
		t.Errorf("mlx5en script lacks:\n%s", step)
	}
	conf := out["nas5.sysctl.conf"]
	for _, w := range []string{base + "rp_min_dec_fac=25\n", base + "rp_dce_tcp_rtt=5\n"} {
		if !strings.Contains(conf, w) {
			t.Errorf("nas5.sysctl.conf lacks %q:\n%s", w, conf)
		}
	}
	for name, s := range files(t, f, 0) {
		if strings.Contains(s, "rp_min_dec_fac") {
			t.Errorf("mlx4en host's %s sets a DCQCN parameter", name)
		}
	}
	for name, s := range files(t, fixture(), 1) {
		if strings.Contains(s, "rp_min_dec_fac") || strings.Contains(s, "DCQCN parameters") {
			t.Errorf("%s sets DCQCN parameters without a dcqcn block", name)
		}
	}
	f.QoS.DCQCN = []model.DCQCNParam{{Name: "dce_tcp_g", Value: 2048}}
	if _, err := Render(f, &f.Hosts[1]); err == nil || err.Error() != "freebsd: qos dcqcn dce_tcp_g = 2048 is out of its range 0-1023" {
		t.Errorf("Render = %v, want the range error", err)
	}
}

// TestDCQCNParamRun runs the step over a fake sysctl: --check reports the
// firmware's 50 and the missing sysctl.conf line, a run sets both, and
// without mlx5ib (the sysctl absent) --check says so.
func TestDCQCNParamRun(t *testing.T) {
	f := fixture()
	f.QoS.DCQCN = []model.DCQCNParam{{Name: "rpg_min_dec_fac", Value: 25}}
	script := files(t, f, 1)["nas5.freebsd.sh"]
	i := strings.Index(script, "\t# DCQCN parameters of the fabric")
	j := strings.Index(script[i:], "\tfi\n")
	if i < 0 || j < 0 {
		t.Fatal("no DCQCN step in the script")
	}
	const oid = "sys.class.infiniband.mlx5_0.cong.conf.rp_min_dec_fac"
	for _, c := range []struct {
		name, mode, firmware, want string
	}{
		{"check", "check", "50", "DIFF mce0 " + oid + ": intended 25; actual 50\nDIFF SYSCTLCONF " + oid + ": intended 25; actual unset\n"},
		{"run", "apply", "50", "set mce0 " + oid + ": 50 -> 25\nset SYSCTLCONF " + oid + ": unset -> 25\n25\n" + oid + "=25\n"},
		{"mlx5ib not loaded", "check", "", "DIFF mce0 DCQCN parameters: intended mlx5ib congestion sysctls present; actual absent\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conf := filepath.Join(t.TempDir(), "sysctl.conf")
			fakes := map[string]string{"sysctl": fakeTools["sysctl"]}
			if c.firmware != "" {
				fakes["sysctl."+oid] = c.firmware + "\n"
			}
			body := "MODE=" + c.mode + "\n" + strings.ReplaceAll(script[i:i+j+len("\tfi\n")], "/etc/sysctl.conf", conf)
			if c.mode == "apply" {
				body += "sysctl -n " + oid + "\ncat " + conf + "\n"
			}
			out, err := shRun(t, fakes, body)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if want := strings.ReplaceAll(c.want, "SYSCTLCONF", conf); out != want {
				t.Errorf("got\n%s\nwant\n%s", out, want)
			}
		})
	}
}
