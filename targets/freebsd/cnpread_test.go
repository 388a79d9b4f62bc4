package freebsd

import (
	"fmt"
	"testing"
)

// TestCNPDefault runs cnp_default, the step of an mlx5en NIC whose fabric
// CNP class is the firmware default 48/6, over mlx5ib's congestion
// sysctls as the fake sysctl holds them: absent (mlx5ib not loaded) is
// "not read", the default is silent, a firmware that marks otherwise
// (mlnx-tools' roce_config 56/7, or np_cnp_prio_mode 1, which ignores
// np_cnp_prio) is a DIFF with the mlxconfig fix in --check and set now in
// a run.
func TestCNPDefault(t *testing.T) {
	const base = "sys.class.infiniband.mlx5_0.cong.conf."
	const fix = "manual: mce0: the firmware marks CNPs DSCP %s priority %s, not the fabric's 48/6, and takes its own again at the next attach: mlxconfig -d DEV set CNP_DSCP_P1=48 CNP_802P_PRIO_P1=6 and a reboot keep the fabric's\n"
	for _, c := range []struct {
		name, mode           string
		dscp, prio, prioMode string // "" for a sysctl that does not exist
		want                 string
	}{
		{"mlx5ib not loaded", "check", "", "", "",
			"note: mce0: CNP marking, wanted DSCP 48 priority 6 (the firmware default), not read: " + base + "np_cnp_dscp is absent (kldload mlx5ib to read it; mlxconfig -d DEV query CNP_DSCP_P1 CNP_802P_PRIO_P1 shows the firmware's)\n"},
		{"firmware default", "check", "48", "6", "0", ""},
		{"firmware marks 56/7", "check", "56", "7", "0",
			"DIFF mce0 " + base + "np_cnp_dscp: intended 48; actual 56\nDIFF mce0 " + base + "np_cnp_prio: intended 6; actual 7\n" + fmt.Sprintf(fix, "56", "7")},
		{"priority mode 1", "check", "48", "6", "1",
			"DIFF mce0 " + base + "np_cnp_prio: intended 6; actual not used (np_cnp_prio_mode 1)\n" + fmt.Sprintf(fix, "48", "not used (np_cnp_prio_mode 1)")},
		{"run sets 56/7 to 48/6", "apply", "56", "7", "0",
			"set mce0 " + base + "np_cnp_dscp: 56 -> 48\nset mce0 " + base + "np_cnp_prio: 7 -> 6\n" + fmt.Sprintf(fix, "56", "7") + "48\n6\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fakes := map[string]string{"sysctl": fakeTools["sysctl"]}
			for oid, v := range map[string]string{"np_cnp_dscp": c.dscp, "np_cnp_prio": c.prio, "np_cnp_prio_mode": c.prioMode} {
				if v != "" {
					fakes["sysctl."+base+oid] = v + "\n"
				}
			}
			body := "MODE=" + c.mode + "\ncnp_default mce0 " + base + " 48 6\n"
			if c.mode == "apply" {
				body += "sysctl -n " + base + "np_cnp_dscp\nsysctl -n " + base + "np_cnp_prio\n"
			}
			out, err := shRun(t, fakes, body)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if out != c.want {
				t.Errorf("got\n%s\nwant\n%s", out, c.want)
			}
		})
	}
}
