// Package linux renders a Linux host's part of the lossless contract: one
// idempotent bash script, <host>.linux.sh, that sets the NIC's MTU, VLAN
// with its egress priority map, addresses, PFC, ETS, DSCP trust, RDMA-CM
// RoCE mode and ToS, and DCQCN, with --check, --dry-run and --tuning.
//
// The NIC's driver picks the tools: iproute2's dcb for the inbox mlx5
// driver, mlnx_qos for MLNX_OFED, and for QLogic FastLinQ (qede) the
// firmware's DCBX, which only UEFI setup can change (Demartek RoCE
// Deployment Guide, "Linux: Deploying iSER over RoCE", QLogic).
package linux

import (
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// scriptSize sizes the next script's buffer (targets.SizeHint).
var scriptSize targets.SizeHint

// Render returns the host's script, <host>.linux.sh.
func Render(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderFiles(f, h, false)
}

// RenderMapped is Render with the file's source map (targets.SourceMap).
func RenderMapped(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderFiles(f, h, true)
}

// renderFiles writes the script, with its source map when mapped.
func renderFiles(f *model.Fabric, h *model.Host, mapped bool) ([]targets.File, error) {
	if err := validate(f, h); err != nil {
		return nil, err
	}
	b := &script{Text: scriptSize.NewText(mapped), host: h.Name}
	writeHeader(b, f, h)
	rails := h.IPv4Rails()
	writePrelude(b, f, h, rails != nil)
	for i := range h.NICs {
		writeNIC(b, f, &h.NICs[i], i+1, rails)
	}
	writeBoot(b, f, h)
	writeMain(b, h)
	stampScriptID(b.Bytes())
	scriptSize.Done(b.Len())
	return []targets.File{{
		Name:   targets.HostScriptName(h),
		Target: "linux",
		Mode:   0o755,
		Data:   b.Bytes(),
		Map:    b.SourceMap(),
	}}, nil
}

// script is the text of one host's script, with its source map when one
// was asked for.
type script struct {
	*targets.Text
	host string
}

// nic says that the lines written next come from NIC n of the host, and
// from its HCL attribute attr when one is given.
func (b *script) nic(n *model.NIC, attr ...string) {
	if b.Mapped() {
		b.At(append([]string{"host", b.host, "nic", n.Name}, attr...)...)
	}
}

// alsoNIC adds the NIC's attribute attr to the elements of the lines
// written next.
func (b *script) alsoNIC(n *model.NIC, attr string) {
	b.Also("host", b.host, "nic", n.Name, attr)
}

// ifName is what Linux accepts as an interface name (IFNAMSIZ 16 with the
// terminating NUL) and what is safe to put into the script unquoted.
var ifName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,15}$`)

// validate rejects a model the script cannot be written from.
func validate(f *model.Fabric, h *model.Host) error {
	if err := targets.CheckHost(f, h, model.OSLinux, "Linux"); err != nil {
		return err
	}
	for i := range h.NICs {
		if err := validateNIC(h.Name, &h.NICs[i]); err != nil {
			return err
		}
	}
	return validateDCQCN(f)
}

// validateNIC checks one NIC's names and numbers.
func validateNIC(host string, n *model.NIC) error {
	who := fmt.Sprintf("linux: nic %q of host %q", n.Name, host)
	// Linux refuses "." and ".." (dev_valid_name); a leading '-' would
	// read as an option of ip and ethtool (the compiler refuses both too).
	if !ifName.MatchString(n.Interface) || n.Interface == "." || n.Interface == ".." || n.Interface[0] == '-' {
		return fmt.Errorf("%s has interface %q; write a Linux interface name of 1-15 letters, digits, '_', '.' or '-', not \".\" or \"..\" and not starting with '-'", who, n.Interface)
	}
	if vl := vlanName(n); n.VLAN != 0 && (!ifName.MatchString(vl) || vl == "." || vl == ".." || vl[0] == '-' || vl == n.Interface) {
		return fmt.Errorf("%s has VLAN interface %q; write a vlan_interface of 1-15 letters, digits, '_', '.' or '-', not \".\" or \"..\", not starting with '-' and not the interface itself", who, vl)
	}
	if n.VLAN == 0 && n.VLANInterface != "" {
		return fmt.Errorf("%s has vlan_interface %q but no VLAN; add the VLAN or remove vlan_interface", who, n.VLANInterface)
	}
	if n.VLAN < 0 || n.VLAN > 4094 {
		return fmt.Errorf("%s has VLAN %d; write 1-4094, or 0 for untagged", who, n.VLAN)
	}
	if n.MTU < 68 || n.MTU > 65535 {
		return fmt.Errorf("%s has MTU %d; write 68-65535", who, n.MTU)
	}
	for _, a := range n.Addresses {
		if _, err := netip.ParsePrefix(a); err != nil {
			return fmt.Errorf("%s has address %q, which is not in CIDR form (192.0.2.1/24): %v", who, a, err)
		}
	}
	if err := validateRoute(who, n.Route); err != nil {
		return err
	}
	r := &n.RoCE
	if len(r.ETS) != 8 {
		return fmt.Errorf("%s has %d ETS entries; the compiler must resolve 8, one per traffic class", who, len(r.ETS))
	}
	for _, p := range append(append([]int{r.Priority, r.CNPPriority}, r.PFCPriorities...), r.ECNPriorities...) {
		if p < 0 || p > 7 {
			return fmt.Errorf("%s uses priority %d; 802.1p priorities are 0-7", who, p)
		}
	}
	if r.TOS < 0 || r.TOS > 255 {
		return fmt.Errorf("%s has ToS %d; write 0-255", who, r.TOS)
	}
	return nil
}

// validateRoute checks a NIC's route (nil: none): source and gateway
// addresses of one family (or an IPv4 source via an IPv6 link-local
// gateway, RFC 5549), a table and rule priority the script can own, above
// the kernel's tables (253-255) and below its main rule (32766;
// ip-rule(8)), and main-table prefixes of the source's family with their
// host bits clear, as ip prints them.
func validateRoute(who string, r *model.NICRoute) error {
	if r == nil {
		return nil
	}
	src, err1 := netip.ParseAddr(r.Source)
	gw, err2 := netip.ParseAddr(r.Gateway)
	rfc5549 := src.Is4() && gw.Is6() && gw.IsLinkLocalUnicast()
	if err1 != nil || err2 != nil || (src.Is4() != gw.Is4() && !rfc5549) || src.Zone() != "" || gw.Zone() != "" {
		return fmt.Errorf("%s has a route from %q via %q; both must be IP addresses of one family (or IPv4 via an IPv6 link-local gateway), without a zone", who, r.Source, r.Gateway)
	}
	if r.Table < 256 || r.Priority < 1 || r.Priority >= 32766 {
		return fmt.Errorf("%s has route table %d, rule priority %d; write a table above 255 and a priority from 1 to 32765", who, r.Table, r.Priority)
	}
	for _, p := range r.Prefixes {
		pp, err := netip.ParsePrefix(p)
		if err != nil || pp.Addr().Is4() != src.Is4() || pp != pp.Masked() || pp.String() != p {
			return fmt.Errorf("%s has main-table route prefix %q; write a CIDR prefix of the source's family, host bits clear, like \"10.1.0.0/24\"", who, p)
		}
	}
	return nil
}

// vlanName is the Linux VLAN interface of a tagged NIC: its
// vlan_interface, else parent.VID, as the Demartek RoCE Deployment
// Guide's p9p1.2 (model.NIC.VLANName). validateNIC keeps it to ifName,
// so it is written into the script unquoted.
func vlanName(n *model.NIC) string {
	return n.VLANName()
}

// writeHeader writes the shebang and the comment naming what the script
// is for.
func writeHeader(b *script, f *model.Fabric, h *model.Host) {
	ver := ""
	if h.OSVersion != "" {
		ver = " " + h.OSVersion
	}
	b.Fixed("#!/usr/bin/env bash\n")
	b.At("fabric")
	b.Also("host", h.Name)
	b.Also("host", h.Name, "os")
	fmt.Fprintf(b, "# %s\n", quote.Comment(fmt.Sprintf("fabricc host script: fabric %q, host %q, OS linux%s.", f.Name, h.Name, ver)))
	b.At()
	b.WriteString("# generated by fabricc; do not edit.\n#\n")
	b.WriteString("# Nothing it sets persists across a reboot by itself (Demartek RoCE\n")
	b.WriteString("# Deployment Guide, \"Linux: Deploying iSER over RoCE\", step 5: the VLAN\n")
	b.WriteString("# egress maps \"will have to be re-entered each time the server or network\n")
	b.WriteString("# service is restarted\"): run it as root with --install once to apply it\n")
	b.WriteString("# and have systemd run a copy of it at every boot (--uninstall undoes that),\n")
	b.WriteString("# or run it as root at every boot by other means. Safe to run again: each\n")
	b.WriteString("# step first reads the current value and changes only what differs.\n")
	writeContract(b, f)
	writeMarking(b, h)
	b.At()
	b.WriteString("set -euo pipefail\n\n")
	b.At("host", h.Name, "tuning")
	tuning := 0
	if h.Tuning {
		tuning = 1
	}
	fmt.Fprintf(b, "# The fabric asks for host tuning: %v (--tuning forces it).\nTUNING=%d\nFABRIC_TUNING=$TUNING\n", h.Tuning, tuning)
	b.At()
	writeScriptID(b)
	writeHostName(b, h)
	fmt.Fprintf(b, "# Where --install puts this script's copy and its systemd unit.\nBOOT_COPY=%s\nBOOT_UNIT=%s\nBOOT_UNIT_FILE=%s\n", bootCopy, bootUnitName, bootUnitFile)
}

// writeHostName writes HOST_NAME, the name host_guard compares with the
// running host's, always in single quotes: a host name is a fabric
// string, and a bare one with a dash (HOST_NAME=rack1-gpu01) reads to
// shellcheck as arithmetic written wrong (SC2100).
func writeHostName(b *script, h *model.Host) {
	b.At("host", h.Name)
	b.WriteString("# The host this script is for: it stops on any other (host_guard, --any-host).\n")
	w := quote.ShellWord(h.Name)
	if !strings.HasPrefix(w, "'") {
		w = "'" + w + "'"
	}
	fmt.Fprintf(b, "HOST_NAME=%s\n", w)
	b.At()
}

// writeContract summarises the fabric QoS the NIC settings come from.
func writeContract(b *script, f *model.Fabric) {
	q := &f.QoS
	b.WriteString("#\n# Fabric QoS (the switches use the same maps):\n")
	for _, c := range q.Classes {
		kind := "lossy"
		if c.Lossless {
			kind = "lossless (PFC)"
		}
		if c.CNP {
			kind += ", DCQCN CNPs"
		}
		dscp := intList(c.DSCP)
		if len(c.DSCP) > 16 {
			dscp = fmt.Sprintf("the other %d values", len(c.DSCP))
		}
		b.At("qos", "class", c.Name)
		fmt.Fprintf(b, "#   class %-8s priority %d -> TC %d, DSCP %s, %s\n", quote.Comment(c.Name), c.Priority, c.TrafficClass, dscp, kind)
	}
	b.At()
	b.WriteString("#\n")
}

// writeMarking says what the applications must mark, for a host with
// RoCE NICs: the script sets RDMA-CM's default ToS only, which verbs
// applications do not use; NCCL takes its traffic class from NCCL_IB_TC,
// default 0 (NCCL User Guide, "Environment Variables", NCCL_IB_TC), which
// it also reads from /etc/nccl.conf.
func writeMarking(b *script, h *model.Host) {
	b.At("host", h.Name)
	for i := range h.NICs {
		if n := &h.NICs[i]; n.Transport != model.TransportIWARP {
			b.alsoNIC(n, "dscp")
		}
	}
	tos := targets.RoCEToS(h)
	if len(tos) == 0 {
		return
	}
	b.WriteString("# Applications mark RoCE themselves: this script sets the ToS only as RDMA-CM's\n")
	fmt.Fprintf(b, "# default (iSER, NVMe-oF, rping). Verbs applications must set ToS %s\n", strings.Join(tos, ", "))
	b.WriteString("# on their own; NCCL ignores RDMA-CM's default and marks NCCL_IB_TC, default 0\n")
	if t, ok := h.NCCLToS(); ok {
		fmt.Fprintf(b, "# (lossy): this script writes NCCL_IB_TC=%d into %s, as the NICs list\n", t, ncclConf)
		b.WriteString("# the nccl application (NCCL User Guide, Environment Variables).\n#\n")
		return
	}
	b.WriteString("# (lossy): set NCCL_IB_TC to that ToS in its environment or /etc/nccl.conf\n")
	b.WriteString("# (NCCL User Guide, Environment Variables).\n#\n")
}

// ncclConf is the host-wide NCCL configuration file, which NCCL reads
// when a job starts (NVIDIA NCCL User Guide, Environment Variables).
const ncclConf = "/etc/nccl.conf"

// writeNCCL writes the NCCL_IB_TC line of /etc/nccl.conf for a host whose
// NICs list the nccl application (model.Host.NCCLToS): only that key, the
// file's other lines kept; nothing otherwise. The line maps to the
// applications of the NICs that set its ToS: RoCE, not iWARP, NICs.
func writeNCCL(b *script, h *model.Host) {
	tos, ok := h.NCCLToS()
	if !ok {
		return
	}
	b.At("host", h.Name)
	for i := range h.NICs {
		if n := &h.NICs[i]; n.Transport != model.TransportIWARP && n.ListsApp(model.AppNCCL) {
			b.alsoNIC(n, "applications")
		}
	}
	b.WriteString("# NCCL marks its RoCE with NCCL_IB_TC (default 0, lossy), which it reads from\n")
	b.WriteString("# /etc/nccl.conf unless the job's environment sets it (NVIDIA NCCL User Guide,\n")
	b.WriteString("# Environment Variables): this script owns that one line of the file.\n")
	fmt.Fprintf(b, "nccl_tc %s %s\n", quote.ShellWord(ncclConf), quote.ShellWord(strconv.Itoa(tos)))
}

// intList joins numbers with commas, "-" when there are none.
func intList(v []int) string {
	if len(v) == 0 {
		return "-"
	}
	return targets.JoinInts(v, ",")
}
