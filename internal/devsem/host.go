package devsem

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// CNP is how a NIC marks the congestion notification packets it sends.
type CNP struct {
	DSCP     int
	Priority int
}

// sysfsWrite is a dry run's "would run: echo VALUE > PATH" line, the
// command a person could paste (the script writes PATH itself).
var sysfsWrite = regexp.MustCompile(`^would run: echo (\S+) > (\S+)$`)

// cnpFiles maps a kernel file to the CNP field it sets, with the part of
// the path that names the device:
//   - MLNX_OFED mlx5_core: /sys/class/net/IF/ecn/roce_np/cnp_dscp and
//     cnp_802p_prio, "the DiffServ Code Point / 802.1p priority of the
//     generated CNP" (MLNX_OFED documentation, Explicit Congestion
//     Notification; mlx5 en_ecn sysfs attributes);
//   - upstream mlx5_ib: debugfs mlx5/PCI/cc_params/np_cnp_dscp and
//     np_cnp_prio (Linux drivers/infiniband/hw/mlx5/cong.c; writing
//     np_cnp_prio also sets np_cnp_prio_mode 0, "use this priority").
var cnpFiles = []struct {
	re   *regexp.Regexp
	prio bool
}{
	{regexp.MustCompile(`^/sys/class/net/([^/]+)/ecn/roce_np/cnp_dscp$`), false},
	{regexp.MustCompile(`^/sys/class/net/([^/]+)/ecn/roce_np/cnp_802p_prio$`), true},
	{regexp.MustCompile(`^/sys/kernel/debug/mlx5/([^/]+)/cc_params/np_cnp_dscp$`), false},
	{regexp.MustCompile(`^/sys/kernel/debug/mlx5/([^/]+)/cc_params/np_cnp_prio$`), true},
}

// DefaultCNP is how a ConnectX NIC marks CNPs until told otherwise: its
// firmware defaults CNP_DSCP_P1 48 and CNP_802P_PRIO_P1 6 (mlxconfig
// query; NVIDIA's Cumulus RoCE defaults map DSCP 48 and PCP 6 to the CNP
// switch priority 6 for that reason).
var DefaultCNP = CNP{DSCP: 48, Priority: 6}

// CNPs are the CNP markings a script sets, by device.
type CNPs map[string]CNP

// Of is the marking of a device: what the script set, else the default.
func (c CNPs) Of(dev string) CNP {
	if m, ok := c[dev]; ok {
		return m
	}
	return DefaultCNP
}

// ReadLinuxCNP reads the writes a host script's --dry-run prints and
// returns the CNP marking each device ends up with, by the device part of
// the path (the interface for sysfs, the PCI device for debugfs). A field
// the script does not write keeps the NIC default.
func ReadLinuxCNP(dryRun string) (CNPs, error) {
	out := CNPs{}
	for _, line := range strings.Split(dryRun, "\n") {
		m := sysfsWrite.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		m[1], m[2] = m[2], m[1] // path, value
		for _, f := range cnpFiles {
			dev := f.re.FindStringSubmatch(m[1])
			if dev == nil {
				continue
			}
			v, err := strconv.Atoi(m[2])
			if err != nil {
				return nil, fmt.Errorf("%s gets %q, not a number", m[1], m[2])
			}
			c := out.Of(dev[1])
			if f.prio {
				c.Priority = v
			} else {
				c.DSCP = v
			}
			out[dev[1]] = c
		}
	}
	return out, nil
}
