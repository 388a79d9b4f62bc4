package docs

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// dcqcnTable is the DCQCN parameters section's table for
// ai-rails' rpg_min_dec_fac 25 and rpg_min_rate 1000.
const dcqcnTable = "## DCQCN parameters\n\n" +
	"The fabric sets these DCQCN reaction point parameters on its ConnectX-4 and later RoCE NICs; every parameter not listed keeps the firmware's value. " +
	"Names, units, ranges and defaults: NVIDIA \"DCQCN CC Parameters\" (DOCA SDK documentation; ConnectX-4 and later), whose WinOF and NVConfig (firmware, mlxconfig) names are listed beside MLNX\\_OFED's.\n\n" +
	"| parameter | value | unit | firmware default | WinOF | NVConfig | what it does |\n" +
	"| --- | --: | --- | --: | --- | --- | --- |\n" +
	"| rpg\\_min\\_dec\\_fac | 25 | % | 50 | DcQcnMinDecFac | RPG\\_MIN\\_DEC\\_FAC | largest share of the rate one CNP can take away |\n" +
	"| rpg\\_min\\_rate | 1000 | Mb/s | 1 | DcQcnMinRate | RPG\\_MIN\\_RATE | lowest rate a flow is limited to |\n\n"

// TestHostDCQCNLinux: the host document lists the fabric's DCQCN values
// (ai-rails sets two) and where the Linux script sets them, per driver.
func TestHostDCQCNLinux(t *testing.T) {
	f := compileExample(t, "ai-rails")
	ofed := "- rail1 (ens1np0): set and checked through MLNX\\_OFED's sysfs, /sys/class/net/ens1np0/ecn/roce\\_rp/NAME (NVIDIA MLNX\\_OFED documentation, Explicit Congestion Notification).\n"
	if s := hostDoc(t, f, "gpu01"); !strings.Contains(s, dcqcnTable+ofed) {
		t.Errorf("gpu01.md lacks\n%s%s\nin\n%s", dcqcnTable, ofed, s)
	}
	f.Host("gpu01").NICs[0].Driver = "inbox"
	inbox := "- rail1 (ens1np0): set and checked through the inbox mlx5\\_ib debugfs, /sys/kernel/debug/mlx5/PCI-DEVICE/cc\\_params/rp\\_NAME (Linux drivers/infiniband/hw/mlx5/cong.c), " +
		"which needs debugfs mounted and no kernel lockdown (kernel\\_lockdown(7)); otherwise the script fails the step and names the firmware way: mlxconfig with the NVConfig names.\n"
	if s := hostDoc(t, f, "gpu01"); !strings.Contains(s, dcqcnTable+inbox) {
		t.Errorf("gpu01.md (inbox) lacks\n%s%s\nin\n%s", dcqcnTable, inbox, s)
	}
}

// TestHostDCQCNOtherOSes: FreeBSD mlx5en names mlx5ib's sysctls; Windows
// says the script neither sets nor checks them, with the public source;
// ConnectX-3 says it has none; without a dcqcn block there is no section.
func TestHostDCQCNOtherOSes(t *testing.T) {
	f := compileExample(t, "homelab-40g")
	if s := hostDoc(t, f, "nas"); strings.Contains(s, "DCQCN parameters") {
		t.Errorf("nas.md has a DCQCN parameters section without a dcqcn block:\n%s", s)
	}
	f.QoS.DCQCN = []model.DCQCNParam{{Name: "rpg_min_dec_fac", Value: 25}}
	for host, where := range map[string]string{
		"nas": "- mlxen0 (mlxen0): not set: these are ConnectX-4 and later parameters, and the ConnectX-3 Pro has none of them.\n",
	} {
		if s := hostDoc(t, f, host); !strings.Contains(s, where) {
			t.Errorf("%s.md lacks\n%s\nin\n%s", host, where, s)
		}
	}
	nas := &f.Host("nas").NICs[0]
	nas.Model, nas.Driver, nas.Interface = "ConnectX-5", "mlx5en", "mce0"
	ws := &f.Host("workstation").NICs[0]
	ws.Model, ws.Driver = "ConnectX-5", "winof2"
	for host, where := range map[string]string{
		"nas": "- mlxen0 (mce0): set and checked through mlx5ib's sysctls, sys.class.infiniband.mlx5\\_N.cong.conf.rp\\_NAME for mceN, now and in /etc/sysctl.conf (FreeBSD sys/dev/mlx5/mlx5\\_ib/mlx5\\_ib\\_cong.c); needs mlx5ib loaded.\n",
		"workstation": "): not set or checked by the script: the WinOF column of NVIDIA \"DCQCN CC Parameters\" (DOCA SDK documentation; ConnectX-4 and later) names registry keys (as DcQcnEnablePrio0-7 for the per-priority enable) " +
			"but documents no value type for them; set them by hand with the adapter vendor's tools, or in firmware with mlxconfig and the NVConfig names.\n",
	} {
		if s := hostDoc(t, f, host); !strings.Contains(s, where) {
			t.Errorf("%s.md lacks\n%s\nin\n%s", host, where, s)
		}
	}
}
