// Package targets holds what every renderer shares: the File an artifact is
// written as, and the signatures a target package exports.
//
// Each target lives in its own package below targets/ (targets/onyx,
// targets/eos, ...). A switch target exports
//
//	func Render(f *model.Fabric, sw *model.Switch) ([]targets.File, error)
//
// and a host target exports
//
//	func Render(f *model.Fabric, h *model.Host) ([]targets.File, error)
//
// Renderers are thin: they read the model and print it in the device's own
// syntax. They never invent a value the model does not hold, and the same
// model always gives the same bytes. The bytes they return are the
// caller's: a renderer keeps no reference to them, so a build can hand
// them to the next device once written (Recycle, buffers.go).
//
// Each target also exports RenderMapped, the same renderer returning every
// file with its source map (File.Map): which model element (an Element:
// a port, a priority group, a class) each line was written from, for
// `fabricc explain`. A renderer writes into a Text and names the element
// once per block (Text.At, Text.Also); without a map asked for, those
// calls record nothing, so a build pays nothing for them. Renderers that
// build their bytes otherwise map them afterwards: JSON by reading it back
// (MapJSON), NVUE YAML by reading its keys back, a chart as a whole
// (Uniform).
package targets

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// File is one rendered artifact of one device.
type File struct {
	// Name is the file name inside the device's folder, saying what it
	// is: "<device>.onyx.cli", "<device>.eos.cfg", "<device>.nvue.sh",
	// "<device>.nvue.yaml", "<device>.linux.sh", "<device>.windows.ps1",
	// "<device>.freebsd.sh", "<device>.openconfig.json", ...
	Name string
	// Target names the renderer that wrote it: "onyx", "eos", "cumulus",
	// "linux", "windows", "freebsd", "openconfig".
	Target string
	// Mode is the file permission: 0o755 for scripts, 0o644 otherwise.
	Mode uint32
	Data []byte
	// Map is the file's source map, written only when one was asked for
	// (RenderMapped); nil otherwise.
	Map *SourceMap
}

// SwitchRenderer renders one switch of a fabric.
type SwitchRenderer func(f *model.Fabric, sw *model.Switch) ([]File, error)

// HostRenderer renders one host of a fabric.
type HostRenderer func(f *model.Fabric, h *model.Host) ([]File, error)

// HostScriptName is the file name of the script a host's target writes:
// "gpu01.linux.sh", "nas.freebsd.sh" (which verify runs on the host with
// --check), "win01.windows.ps1" (which the operator runs with -Check).
func HostScriptName(h *model.Host) string {
	if h.OS == model.OSWindows {
		return h.Name + ".windows.ps1"
	}
	return h.Name + "." + string(h.OS) + ".sh"
}

// RoCEToS lists the ToS values the applications of a host must mark, as
// "106 (DSCP 26 << 2 with ECT(0))": one per distinct ToS of its NICs other than iWARP
// ones, in NIC order; nil when it has none. The Linux script and the
// device documentation both print it.
func RoCEToS(h *model.Host) []string {
	var seen []int
	var tos []string
	for i := range h.NICs {
		n := &h.NICs[i]
		if n.Transport == model.TransportIWARP || slices.Contains(seen, n.RoCE.TOS) {
			continue
		}
		seen = append(seen, n.RoCE.TOS)
		tos = append(tos, fmt.Sprintf("%d (%s)", n.RoCE.TOS, ToSMakeup(n.RoCE)))
	}
	return tos
}

// ToSMakeup says how r's ToS is made: "DSCP 26 << 2 with ECT(0)" on RoCE
// v2, "DSCP 26 << 2" where it has no ECN field to set.
func ToSMakeup(r model.RoCE) string {
	if r.TOS&model.ECTZero != 0 {
		return fmt.Sprintf("DSCP %d << 2 with ECT(0)", r.DSCP)
	}
	return fmt.Sprintf("DSCP %d << 2", r.DSCP)
}

// SetsGlobalTClass reports whether the Linux host script sets the global
// traffic class of n's RDMA port (to GlobalTClass): a RoCE NIC of MLNX_OFED's
// mlx5_ib (ConnectX-4 and later), whose /sys/class/infiniband/DEV/tc/PORT/
// traffic_class marks every queue pair of the port, verbs ones included.
// The inbox driver and mlx4 (ConnectX-3) have no such file.
func SetsGlobalTClass(n *model.NIC) bool {
	return n.Driver == "mlnx_ofed" && n.Transport != model.TransportIWARP && n.RunsMlx5()
}

// GlobalTClass is the global traffic class the Linux script writes for n
// (SetsGlobalTClass): the RoCE ToS, which carries ECT(0). The class replaces the
// ToS of every queue pair of the port, UCX's included, whose own default
// for RoCE v2 is 106, DSCP 26 with ECT(0) (openucx/ucx,
// UCT_IB_DEFAULT_ROCEV2_DSCP), as NVIDIA's BlueField images write the
// class (`echo 106 > /sys/class/infiniband/mlx5_N/tc/1/traffic_class` in
// their mlx_bf_udev). Without ECT a packet is not ECN-capable, and a
// switch that would mark it CE for DCQCN drops it instead (RFC 3168,
// section 5: a router marks only ECT packets), so the class must not
// take the bit away.
func GlobalTClass(n *model.NIC) int { return n.RoCE.TOS | model.ECTZero }

// CheckHost is a host renderer's entry check: f and h are given, h runs
// os, and the compiler resolved the fabric's priority maps (64 DSCP and 8
// priority entries). The error starts with the OS name and calls the
// script a title script ("a Linux script").
func CheckHost(f *model.Fabric, h *model.Host, os model.OS, title string) error {
	if f == nil || h == nil {
		return fmt.Errorf("%s: no fabric or host given", os)
	}
	if h.OS != os {
		return fmt.Errorf("%s: host %q has os %q; only %s hosts get a %s script", os, h.Name, h.OS, os, title)
	}
	if len(f.QoS.DSCPToPriority) != 64 || len(f.QoS.PriorityToTC) != 8 {
		return fmt.Errorf("%s: fabric %q has %d DSCP and %d priority map entries; the compiler must resolve 64 and 8",
			os, f.Name, len(f.QoS.DSCPToPriority), len(f.QoS.PriorityToTC))
	}
	return nil
}

// CheckQoSMaps refuses a model whose fabric-wide maps are incomplete or
// out of range: 64 DSCP entries and 8 priority entries, priorities and
// traffic classes 0-7. The compiler guarantees this; renderers call it so
// a hand-built model fails with a clear error instead of a wrong config.
func CheckQoSMaps(q *model.QoS) error {
	if len(q.DSCPToPriority) != 64 {
		return fmt.Errorf("qos: DSCP-to-priority map has %d entries; it needs all 64", len(q.DSCPToPriority))
	}
	if len(q.PriorityToTC) != 8 {
		return fmt.Errorf("qos: priority-to-traffic-class map has %d entries; it needs all 8", len(q.PriorityToTC))
	}
	for d, p := range q.DSCPToPriority {
		if p < 0 || p > 7 {
			return fmt.Errorf("qos: DSCP %d maps to priority %d; priorities are 0-7", d, p)
		}
	}
	for p, tc := range q.PriorityToTC {
		if tc < 0 || tc > 7 {
			return fmt.Errorf("qos: priority %d maps to traffic class %d; traffic classes are 0-7", p, tc)
		}
	}
	for _, c := range q.Classes {
		if c.TrafficClass < 0 || c.TrafficClass > 7 {
			return fmt.Errorf("qos: class %q has traffic class %d; traffic classes are 0-7", c.Name, c.TrafficClass)
		}
	}
	return nil
}

// JoinInts writes numbers in decimal, separated by sep ("0,0,0,1" for a
// sysctl array, "3, 6" for prose); no numbers give "". Renderers wrap it
// with their own word for an empty list.
func JoinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

// HeadroomAssumption describes what a lossless priority group's headroom
// was computed for, to print next to every headroom number a config
// carries: "1 m at 100G, port MTU 9216 B, lossless MTU 1024 B, small
// packets 100 %" (the small-packet share is qos.headroom's
// small_packet_percent; 100 % is the worst case). It is "" when the model
// holds no computation for the group.
func HeadroomAssumption(pg *model.PriorityGroup) string {
	h := pg.Headroom
	if h == nil {
		return ""
	}
	return fmt.Sprintf("%s m at %s, port MTU %d B, lossless MTU %d B, small packets %d %%",
		strconv.FormatFloat(h.CableMeters, 'f', -1, 64), speedText(h.SpeedMbps), h.PortMTUBytes, h.LosslessMTUBytes, h.SmallPacketPercent)
}

// speedText prints Mb/s as "100G", "25G" or "100M".
func speedText(mbps int) string {
	if mbps >= 1000 && mbps%1000 == 0 {
		return strconv.Itoa(mbps/1000) + "G"
	}
	return strconv.Itoa(mbps) + "M"
}

// NICStep is the host script line that runs NIC i's function (nic_<i>)
// for interface ifc, the same in the Linux and FreeBSD scripts: the
// function runs in a command substitution (a subshell, so that a step
// that stops ends that NIC's steps only) with its output on fd 3, and
// nic_enter and nic_leave, which each script's prelude defines, hand the
// counters back and note a NIC that stopped.
func NICStep(i int, ifc string) string {
	return fmt.Sprintf("{ set +e; NIC_COUNTS=$(nic_enter; nic_%d >&3); nic_leave %s $?; } 3>&1\n", i, quote.ShellWord(ifc))
}

// WinOF2DCQCNByHand is how to set DCQCN per priority and the CNP marking
// by hand on a WinOF-2 NIC, which the Windows script does not do (no
// value type or read-back documented): the registry keys
// DcQcnEnablePrio0..7 (NVIDIA "DCQCN CC Parameters", General table,
// WinOF column) and the firmware's CNP_DSCP_P1 and CNP_802P_PRIO_P1
// (NVIDIA Firmware Tools (MFT) User Manual, mlxconfig). Plain text: the
// Windows script and the host document each escape it for their context.
func WinOF2DCQCNByHand(cnpDSCP, cnpPriority int) string {
	return fmt.Sprintf("DCQCN per priority with the adapter registry keys DcQcnEnablePrio0 to DcQcnEnablePrio7, 1 on and 0 off "+
		"(NVIDIA \"DCQCN CC Parameters\", General table, WinOF column), under the adapter's key as the WinOF-2 User Manual, "+
		"\"Configuring the Driver Registry Keys\", describes, then Restart-NetAdapter; the CNP marking with "+
		"mlxconfig -d DEV set CNP_DSCP_P1=%d CNP_802P_PRIO_P1=%d and a reboot (NVIDIA Firmware Tools (MFT) User Manual, mlxconfig)",
		cnpDSCP, cnpPriority)
}

// FirmwareDCQCN is what a NVIDIA adapter runs when nothing sets DCQCN or
// the CNP marking (mlxconfig ROCE_CC_PRIO_MASK; plain text).
const FirmwareDCQCN = "The adapter firmware runs DCQCN on the priorities of its ROCE_CC_PRIO_MASK (all by default) and marks CNPs as its own settings say."
