package docs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// ManualSteps lists, as Markdown list items, what a host needs that its
// script cannot do: settings that live in adapter firmware or UEFI, BIOS
// settings, and what no documented OS setting controls. Each step names
// the public document it comes from. The host scripts print the same
// steps when they run.
func ManualSteps(f *model.Fabric, h *model.Host) []string {
	names, prio := slSetting(slNICs(f, h))
	return manualSteps(h, names, prio)
}

// manualSteps is ManualSteps with the host's service-level setting
// (slSetting of slNICs) worked out by the caller.
func manualSteps(h *model.Host, slNames []string, slPrio string) []string {
	var out []string
	for _, n := range h.NICs {
		out = append(out, nicSteps(h, n)...)
		out = append(out, routeSteps(h, n)...)
	}
	out = append(out, ncclSteps(h, slNames, slPrio)...)
	out = append(out, mpiSteps(h, slNames, slPrio)...)
	out = append(out, rdmaCMSteps(h)...)
	out = append(out, sourceSteps(h)...)
	out = append(out, lustreSteps(h)...)
	out = append(out, tcpAppSteps(h)...)
	if h.Tuning {
		out = append(out, "BIOS: disable hyperthreading, C-states beyond C1, C1E and T-states; power profile performance "+
			"(Demartek RoCE Deployment Guide, System BIOS settings).")
		if h.OS == model.OSLinux {
			out = append(out, "Kernel command line: intel\\_idle.max\\_cstate=0 processor.max\\_cstate=1 mce=ignore\\_ce idle=poll, then reboot "+
				"(Demartek RoCE Deployment Guide, Linux QLogic step 9).")
		}
	}
	return out
}

// ncclSteps is the NCCL step of a Linux host whose RoCE relies on the
// applications' own ToS (targets.RoCEToS) and whose NICs do not list the
// nccl application, which has the host script write NCCL_IB_TC: NCCL
// marks NCCL_IB_TC, default 0 (lossy), and reads it from the environment
// or /etc/nccl.conf; before NCCL 2.21 its NCCL_IB_GID_INDEX defaults to
// 0, the link-local RoCE v1 GID, which does not route (NVIDIA NCCL User
// Guide, Environment Variables: NCCL_IB_TC, NCCL_IB_GID_INDEX; the GID
// types are /sys/class/infiniband/DEV/ports/1/gid_attrs/types/INDEX,
// Linux Documentation/ABI/testing/sysfs-class-infiniband). slNames and
// slPrio are slSetting's.
func ncclSteps(h *model.Host, slNames []string, slPrio string) []string {
	tos := targets.RoCEToS(h)
	if h.OS != model.OSLinux || len(tos) == 0 {
		return nil
	}
	if _, owned := h.NCCLToS(); owned || !ncclPossible(h) {
		return nil
	}
	r := firstRoCE(h)
	what := fmt.Sprintf("NCCL\\_IB\\_TC=%d, the RoCE ToS (%s),", r.TOS, targets.ToSMakeup(r))
	if len(tos) > 1 {
		what = "NCCL\\_IB\\_TC to the RoCE ToS of the NICs a job uses (ToS " + strings.Join(tos, ", ") + ")"
	}
	return []string{"NCCL: set " + what + " for every NCCL job on this host, " +
		"in /etc/nccl.conf (a line NCCL\\_IB\\_TC=" + strconv.Itoa(r.TOS) + ", read by every NCCL job) or in the jobs' environment: " +
		ncclMarking(h) +
		"Before NCCL 2.21 also set NCCL\\_IB\\_GID\\_INDEX to the index of the NIC's RoCE v2 GID (the INDEX whose /sys/class/infiniband/DEV/ports/1/gid\\_attrs/types/INDEX reads RoCE v2 beside the IPv4-mapped address, usually 3): " +
		"the default 0 is the link-local RoCE v1 GID, which does not route; NCCL 2.21 and later pick the RoCE v2 GID themselves. " +
		slStep(slNames, slPrio, "NCCL\\_IB\\_SL") +
		"perftest takes the ToS with --tos; UCX marks UCX\\_IB\\_TRAFFIC\\_CLASS instead (the RoCE section above). " +
		"With applications = \\[\"nccl\"\\] on the NICs the host script writes the NCCL\\_IB\\_TC line itself " +
		"(NVIDIA NCCL User Guide, Environment Variables: NCCL\\_IB\\_TC, NCCL\\_IB\\_GID\\_INDEX)."}
}

// ncclMarking says what marks NCCL's RoCE on h without NCCL_IB_TC: on
// the NICs whose script sets only RDMA-CM's default nothing, NCCL marking
// NCCL_IB_TC, default 0 (NVIDIA NCCL User Guide, Environment Variables);
// on those whose script sets MLNX_OFED's global traffic class that class,
// which mlx5_ib gives every queue pair whatever the application asked
// for, but only while it is set: an inbox driver has no such class, and
// it starts unset (-1) each time mlx5_ib loads (mlnx-ofa_kernel, mlx5_ib:
// traffic_class_store, init_tc_sysfs). So NCCL_IB_TC is needed on both.
func ncclMarking(h *model.Host) string {
	const plain = "NCCL ignores the RDMA-CM default the host script sets and marks NCCL\\_IB\\_TC, default 0, so without it its RoCE travels in the lossy default class. "
	ofed, inbox := tclassNICs(h)
	if len(ofed) == 0 {
		return plain
	}
	// After the step's colon: lower case.
	lead := "on " + strings.Join(ofed, ", ")
	if len(inbox) > 0 {
		lead = "on " + strings.Join(inbox, ", ") + " " + plain + "On " + strings.Join(ofed, ", ")
	}
	return lead + " the port's global traffic class that the host script sets marks NCCL's queue pairs whatever NCCL\\_IB\\_TC says (the RoCE section above), " +
		"but only while the class is set: an inbox driver has no such class, and it starts unset each time mlx5\\_ib loads, until the host script sets it again " +
		"(mlnx-ofa\\_kernel, mlx5\\_ib: init\\_tc\\_sysfs). Without the class NCCL ignores the RDMA-CM default and marks NCCL\\_IB\\_TC, default 0, " +
		"so with neither its RoCE travels in the lossy default class. "
}

// ncclPossible reports whether NCCL may run on h's RoCE: some RoCE NIC
// lists no applications (a NIC that lists nccl has the script write
// NCCL_IB_TC, NCCLToS).
func ncclPossible(h *model.Host) bool {
	for _, n := range h.NICs {
		if n.Transport != model.TransportIWARP && len(n.Applications) == 0 {
			return true
		}
	}
	return false
}

// listsApp reports whether a RoCE NIC of h lists one of kinds.
func listsApp(h *model.Host, kinds ...string) bool {
	for _, n := range h.NICs {
		for _, k := range kinds {
			if n.Transport != model.TransportIWARP && n.ListsApp(k) {
				return true
			}
		}
	}
	return false
}

// mpiSteps is the UCX step of a Linux RoCE host whose NICs list mpi:
// Open MPI (pml ucx) and MPICH (ch4:ucx) mark their RoCE with UCX's
// UCX_IB_TRAFFIC_CLASS (ucxText), which the host script does not set, and
// on a PCP-classified VLAN with UCX_IB_SL (slStep, given slSetting's
// slNames and slPrio).
func mpiSteps(h *model.Host, slNames []string, slPrio string) []string {
	if h.OS != model.OSLinux || !listsApp(h, "mpi") {
		return nil
	}
	classes, ucxDefault := ucxClasses(h)
	what := "UCX 1.5 and later mark RoCE v2 with 106 (DSCP 26 with ECT(0)) by default, this host's RoCE DSCP, so they need no setting; " +
		"with an older UCX set UCX\\_IB\\_TRAFFIC\\_CLASS=106"
	if !ucxDefault {
		what = "set UCX\\_IB\\_TRAFFIC\\_CLASS=" + strings.Join(classes, ", or ") + ", the RoCE DSCP << 2 with ECT(0); UCX's default marks DSCP 26"
	}
	sl, keys := slStep(slNames, slPrio, "UCX\\_IB\\_SL"), "UCX\\_IB\\_TRAFFIC\\_CLASS"
	if sl != "" {
		keys += ", UCX\\_IB\\_SL"
	}
	return []string{"MPI over UCX (Open MPI's pml ucx, MPICH's ch4:ucx): " + what +
		", in every MPI job's environment (an /etc/profile.d file, or an export in Slurm's TaskProlog); the host script sets no UCX variable. " +
		sl + "(openucx/ucx, src/uct/ib/base/ib\\_iface.c: " + keys + ".)", memlockStep}
}

// memlockStep is the Slurm memlock step of a Linux host whose NICs list
// mpi: slurmd's unit sets its own LimitMEMLOCK, and slurmd gives each job
// the limits of the submitting shell (slurm.conf(5),
// PropagateResourceLimits, default ALL), so neither --tuning's limits.d
// file nor its systemd drop-in reaches MPI jobs (Slurm FAQ, memlock).
const memlockStep = "MPI under Slurm: set PropagateResourceLimitsExcept=MEMLOCK in slurm.conf. slurmd's unit sets its own locked-memory limit, and slurmd gives each job the limits of the shell it was submitted from " +
	"(slurm.conf(5), PropagateResourceLimits, default ALL), so a job submitted from a login node with a small memlock limit cannot register RDMA memory, whatever this host's limits " +
	"(Slurm FAQ, \"Why are MPI jobs failing due to the locked memory (memlock) limit being too low?\")."

// rdmaCMSteps is the step of a Linux RoCE host whose NICs list an
// application that connects through RDMA-CM (nvme-of, iser, nfs-rdma):
// it takes the host script's default ToS (default_roce_tos), but only
// for connections made after the script ran (Linux
// Documentation/ABI/testing/configfs-rdma_cm: RDMA-CM QPs are created
// with that ToS).
func rdmaCMSteps(h *model.Host) []string {
	if h.OS != model.OSLinux || !listsApp(h, "nvme-of", "iser", "nfs-rdma") {
		return nil
	}
	return []string{"NVMe-oF (nvme-rdma), iSER and NFS over RDMA connect through RDMA-CM and take the ToS the host script sets as RDMA-CM's default " +
		"(so nvme connect needs no --tos), but only on connections made after it ran: sessions made before it (at boot, if they start before it) keep their ToS, " +
		"0 in the lossy default class, until they reconnect. Run the script before they connect, or reconnect them after it ran " +
		"(Linux Documentation/ABI/testing/configfs-rdma\\_cm, default\\_roce\\_tos).", acceptedText(h)}
}

// acceptedText is the step for the accepting side of those connections
// (an NVMe-oF or iSER target, an NFS server): the passive side of an
// RDMA-CM connection takes the traffic class of the initiator's CM REQ
// (Linux drivers/infiniband/core/cm.c, cm_format_paths_from_req sets
// primary_path->traffic_class from the REQ), not its own
// default_roce_tos, which only the active side's route resolution
// reads. On MLNX_OFED the port's global traffic class overrides it.
func acceptedText(h *model.Host) string {
	s := "A target (nvmet-rdma, LIO isert) or an NFS server only accepts these connections, and an accepted connection takes the traffic class of the initiator's connection request, " +
		"not this host's default (Linux drivers/infiniband/core/cm.c, cm\\_format\\_paths\\_from\\_req): its replies, NVMe read data included, follow each initiator's ToS. " +
		"So every initiator must use ToS " + strings.Join(targets.RoCEToS(h), ", ") + ": a host of this fabric in the same class, or one set by hand (nvme connect --tos)."
	if ofed, _ := tclassNICs(h); len(ofed) > 0 {
		s += " On " + strings.Join(ofed, ", ") + " the port's global traffic class, which the host script sets, overrides the initiator's."
	}
	return s
}

// lustreSteps is the LNet step of a Linux RoCE host whose NICs list
// lustre: LNet's o2ib driver connects through RDMA-CM, which gives its
// connections the script's default ToS only while LNet's own tos tunable
// is unset (-1, the default; lustre-release lnet/utils/lnetconfig, o2iblnd
// tunables, lnd_tos); a site lnet.conf that sets it overrides the script.
func lustreSteps(h *model.Host) []string {
	if h.OS != model.OSLinux || !listsApp(h, "lustre") {
		return nil
	}
	return []string{"Lustre (LNet o2ib) connects through RDMA-CM and takes the host script's ToS " + strings.Join(lustreToS(h), ", ") +
		" only while LNet's o2iblnd tos tunable is unset (default -1; lnetctl net show -v prints it only when set): " +
		"an lnet.conf that sets tos must set it to that ToS, or leave it out. Like the other RDMA-CM connections, LNet peers connected before the script ran keep their ToS until they reconnect " +
		"(lustre-release, lnet/utils/lnetconfig: o2iblnd tunables, tos)."}
}

// lustreToS lists the ToS of h's RoCE NICs that list lustre, as "104",
// one per distinct value.
func lustreToS(h *model.Host) []string {
	var out []string
	for _, n := range h.NICs {
		if t := strconv.Itoa(n.RoCE.TOS); n.Transport != model.TransportIWARP && n.ListsApp("lustre") && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// slStep is the service-level sentence of a verbs application's step
// whose key is key (NCCL_IB_SL, UCX_IB_SL): on NICs that tag a PCP-
// classified VLAN (slNICs, whose slSetting is names and prio) a queue
// pair's PCP is its service level, default 0; "" when the host has none.
func slStep(names []string, prio string, key string) string {
	if len(names) == 0 {
		return ""
	}
	return "On " + listWords(names) + ", whose VLAN is classified by PCP, also set " + key + "=" + prio +
		": there the PCP of a verbs queue pair is its service level, default 0, not its ToS (MLNX\\_OFED User Manual, RoCE, Type Of Service). "
}

// firstRoCE is the RoCE marking of the host's first RoCE NIC, whose ToS
// the NCCL step names (targets.RoCEToS found one).
func firstRoCE(h *model.Host) model.RoCE {
	for _, n := range h.NICs {
		if n.Transport != model.TransportIWARP {
			return n.RoCE
		}
	}
	return model.RoCE{}
}

// routeSteps is the route of a NIC with one (model.NIC.Route) on a
// Windows or FreeBSD host that the script cannot set: those scripts add
// the routes to the NIC's main-table prefixes (the fabric's NICs on its
// rail; writeHostRoutes) but keep no routing table per NIC, so a NIC with
// no such prefix reaches its RoCE peers beyond its own subnet (its /31
// holds the NIC and the switch port only, RFC 3021) only once their
// routes are added by hand (Microsoft, New-NetRoute; FreeBSD route(8),
// whose "-inet6" gateway of an IPv4 route is RFC 5549, FreeBSD 13.1 and
// later; a link-local gateway is scoped "%IF").
func routeSteps(h *model.Host, n model.NIC) []string {
	r := n.Route
	if r == nil || h.OS == model.OSLinux || len(r.Prefixes) > 0 {
		return nil
	}
	each := "for each remote RoCE subnet"
	cmd := fmt.Sprintf("New-NetRoute -InterfaceAlias %s -DestinationPrefix PREFIX -NextHop %s %s (Microsoft, New-NetRoute)", md(psArg(n.Interface)), md(r.Gateway), each)
	if h.OS == model.OSFreeBSD {
		cmd = fmt.Sprintf("route add %s %s, or a default route via %s in a FIB of the NIC's own (FreeBSD route(8), setfib(1))", freeBSDRoute(n), each, md(r.Gateway))
	}
	via := "the other end of its subnet, on " + linkPeer(n)
	if r.Written {
		via = "its gateway attribute"
	}
	return []string{fmt.Sprintf("%s: the NIC reaches RoCE peers beyond its own subnet only via %s (%s), and no other NIC of the fabric is on its rail, so the host script adds no route: add one by hand, from %s: %s.",
		md(n.Name)+" ("+md(n.Interface)+")", md(r.Gateway), via, md(r.Source), cmd)}
}

// freeBSDRoute is the route(8) arguments for PREFIX via the NIC's gateway:
// "-net PREFIX GW", "-inet6 -net PREFIX GW" for IPv6, the link-local
// gateway scoped to the NIC ("fe80::1%mlxen0"), and an IPv4 route via an
// IPv6 gateway "-net PREFIX -inet6 GW" (RFC 5549, FreeBSD 13.1 and later).
func freeBSDRoute(n model.NIC) string {
	r := n.Route
	gw := md(r.Gateway)
	if strings.HasPrefix(r.Gateway, "fe80:") {
		gw += "%" + md(n.Interface)
	}
	switch {
	case !strings.Contains(r.Gateway, ":"):
		return "-net PREFIX " + gw
	case strings.Contains(r.Source, ":"):
		return "-inet6 -net PREFIX " + gw
	default:
		return "-net PREFIX -inet6 " + gw + " (RFC 5549, FreeBSD 13.1 and later)"
	}
}

// sourceSteps are the steps of a Linux host's NICs with a route that list
// storage over RDMA-CM: nvme-rdma binds the NIC's address, and so takes
// its own table, only with nvme connect --host-traddr
// (drivers/nvme/host/rdma.c, NVMF_OPT_HOST_TRADDR); NFS over RDMA
// (net/sunrpc/xprtrdma/verbs.c, rpcrdma_create_id) and the SMB Direct
// client (fs/smb/client/smbdirect.c) bind no source, so they go by the
// main-table routes (writeRoutes), which reach the NIC's prefixes only.
func sourceSteps(h *model.Host) []string {
	if h.OS != model.OSLinux {
		return nil
	}
	var out []string
	for _, n := range h.NICs {
		r := n.Route
		if r == nil || n.Transport == model.TransportIWARP {
			continue
		}
		var apps []string
		for _, k := range []string{"nvme-of", "nfs-rdma", "smb-direct"} {
			if n.ListsApp(k) {
				apps = append(apps, k)
			}
		}
		if len(apps) == 0 {
			continue
		}
		reach := "the main-table routes of Routes, which reach " + md(strings.Join(r.Prefixes, ", ")) + " only"
		if len(r.Prefixes) == 0 {
			reach = "the main table, which has no route of this NIC (no other NIC of the fabric is on its rail)"
		}
		s := fmt.Sprintf("%s lists %s, on a routed link: connections that bind no source address go by %s; a target elsewhere is reached by the main table's other routes (often the management NIC) or not at all (Linux drivers/infiniband/core/addr.c, addr4\\_resolve).",
			md(n.Name)+" ("+md(n.Interface)+")", strings.Join(apps, ", "), reach)
		if n.ListsApp("nvme-of") {
			s += fmt.Sprintf(" nvme connect --host-traddr %s binds the NIC's address, so nvme-rdma then takes the NIC's own table (rule priority %d) whatever the destination (drivers/nvme/host/rdma.c).", md(r.Source), r.Priority)
		}
		if n.ListsApp("nfs-rdma") || n.ListsApp("smb-direct") {
			s += " NFS over RDMA (net/sunrpc/xprtrdma/verbs.c, rpcrdma\\_create\\_id) and the SMB Direct client (fs/smb/client/smbdirect.c) cannot bind a source: mount servers within those prefixes."
		}
		out = append(out, s)
	}
	return out
}

// psArg is s as a PowerShell argument: bare when it holds only letters,
// digits and "._-", else a verbatim string (quote.PowerShell, which the
// Windows script uses for the same adapter names), as for a Windows
// adapter name such as "Ethernet 4".
func psArg(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return quote.PowerShell(s)
		}
	}
	return s
}

// nicSteps are the manual steps of one NIC.
func nicSteps(h *model.Host, n model.NIC) []string {
	r := n.RoCE
	who := md(n.Name) + " (" + md(n.Interface) + ", " + md(n.Model) + ")"
	var out []string
	if n.Vendor == "qlogic" {
		out = append(out, fmt.Sprintf("%s: set the RoCE priority in the adapter's UEFI HII, which the OS cannot: System Setup > Device Settings > the port > "+
			"Device Level Configuration, DCBX protocol Dynamic, RoCE Priority %d; DCQCN (ECN) on this adapter is a firmware setting too "+
			"(Demartek RoCE Deployment Guide, QLogic adapter set-up).", who, r.Priority))
	}
	if n.Transport == model.TransportIWARP {
		return append(out, who+": iWARP runs RDMA over TCP; check that the adapter's NetworkDirect technology (Windows) or RDMA protocol setting is iWARP; no script sets it.")
	}
	switch {
	case h.OS == model.OSLinux && n.Driver == "inbox" && n.Vendor == "mellanox":
		out = append(out, fmt.Sprintf("%s: the inbox mlx5 driver has no per-priority DCQCN switch; the firmware runs DCQCN on the priorities in ROCE\\_CC\\_PRIO\\_MASK "+
			"(set with mlxconfig; default all); wanted: %s.", who, Ranges(r.ECNPriorities)))
	case h.OS == model.OSFreeBSD:
		out = append(out, freeBSDSteps(who, n)...)
	case h.OS == model.OSWindows:
		out = append(out, windowsSteps(h, who, n)...)
	}
	return out
}

// freeBSDSteps: the OFED kernel, the application ToS and DCQCN
// (ConnectX-3 Pro 40GbE home-lab write-up; FreeBSD mlx5en(4), mlx4en(4)).
func freeBSDSteps(who string, n model.NIC) []string {
	ib := map[string]string{"mlx4en": "mlx4ib", "mlx5en": "mlx5ib"}[n.Driver]
	out := []string{fmt.Sprintf("%s: RoCE needs a kernel built with options OFED and the %s module (kldload %s).", who, md(ib), md(ib)),
		fmt.Sprintf("%s: FreeBSD has no RDMA-CM default ToS, so RDMA applications must mark ToS %d (%s) themselves.", who, n.RoCE.TOS, targets.ToSMakeup(n.RoCE))}
	if n.Driver == "mlx5en" {
		return append(out, fmt.Sprintf("%s: mlx5en has no per-priority DCQCN switch; the firmware default (mlxconfig ROCE\\_CC\\_PRIO\\_MASK) applies; wanted on %s.", who, Ranges(n.RoCE.ECNPriorities)))
	}
	out = append(out, fmt.Sprintf("%s: mlx4en exposes no congestion control (ECN/DCQCN) setting; wanted on %s, not set.", who, Ranges(n.RoCE.ECNPriorities)))
	if lim := model.NICDriverQoS(model.OSFreeBSD, n.Driver); lim.PCPOnly {
		out = append(out, fmt.Sprintf("%s: mlx4en has no trust, DSCP map or ETS setting (its only QoS sysctls are the PFC masks rx\\_ppp and tx\\_ppp): "+
			"the NIC classifies received frames by their 802.1Q PCP only, so RoCE must reach it tagged with priority %d in a VLAN; ETS wanted %s, not set.",
			who, n.RoCE.Priority, nicETS(n.RoCE.ETS)))
	}
	return out
}

// windowsSteps: what the WinOF and WinOF-2 manuals document no setting
// for (Mellanox WinOF User Manual and Release Notes, Rev 5.50; Mellanox
// WinOF-2 User Manual, Rev 1.21).
func windowsSteps(h *model.Host, who string, n model.NIC) []string {
	r := n.RoCE
	var out []string
	if len(r.ECNPriorities) > 0 || r.CNPPriority != 0 || r.CNPDSCP != 0 {
		out = append(out, windowsDCQCNStep(who, n))
	}
	if windowsDSCPUnset(h, n) {
		why := "the DSCP mapping keys are documented for WinOF, WinOF User Manual 5.50 §4.1.11.7, not in the WinOF-2 User Manual 1.21"
		if n.Driver == "qlogic" {
			why = "the Demartek RoCE Deployment Guide's QLogic set-up has no DSCP setting"
		}
		peer := linkPeer(n)
		trust := peer + " trusts DSCP, so capture a RoCE packet and check its DSCP, or trust PCP on both ends"
		if n.Peer != nil && n.Peer.Kind == "switch" {
			trust += " (fabricc warns: windows-roce-dscp-not-settable)"
		}
		if r.Trust == model.TrustPCP {
			trust = fmt.Sprintf("%s trusts PCP, the priority %d the script sets, so the DSCP does not classify its RoCE there", peer, r.Priority)
		}
		out = append(out, fmt.Sprintf("%s: the RoCE DSCP %d is not set by the script (%s): RoCE leaves with the driver's own DSCP; %s.", who, r.DSCP, why, trust))
	}
	return out
}

// windowsDCQCNStep says that the script neither sets nor checks DCQCN and
// the CNP marking, and how to set them by hand, in the words of the
// Windows script's own note (targets.WinOF2DCQCNByHand on WinOF-2, the
// vendor's tools on other drivers).
func windowsDCQCNStep(who string, n model.NIC) string {
	r := n.RoCE
	s := fmt.Sprintf("%s: DCQCN on %s and CNP priority %d / DSCP %d are not set or checked by the script. ", who, priorityWords(r.ECNPriorities), r.CNPPriority, r.CNPDSCP)
	firmware := md(targets.FirmwareDCQCN)
	if n.Driver != "winof2" {
		return s + "Set them with the adapter vendor's tools. " + firmware
	}
	return s + "Set them by hand: " + md(targets.WinOF2DCQCNByHand(r.CNPDSCP, r.CNPPriority)) + ". " + firmware
}

// linkPeer names what n is cabled to, in Markdown: "its switch port
// sn2410:1/49", or on a switchless (back-to-back) link "its peer NIC
// nas:mlxen0", which classifies the RoCE in the switch's place; "its
// link peer" when the model has no cable for it.
func linkPeer(n model.NIC) string {
	switch {
	case n.Peer == nil:
		return "its link peer"
	case n.Peer.Kind == "host":
		return "its peer NIC " + md(n.Peer.Device+":"+n.Peer.Port)
	}
	return "its switch port " + md(n.Peer.Device+":"+n.Peer.Port)
}

// windowsDSCPUnset reports whether n is a Windows RoCE v2 NIC whose
// driver has no documented setting for the DSCP of RDMA packets, so its
// script leaves it (WinOF-2, QLogic; the WinOF script sets
// RroceDscpMarkPriorityFlowControl_<priority> and PriorityToDscpMappingTable_<priority>).
func windowsDSCPUnset(h *model.Host, n model.NIC) bool {
	return h.OS == model.OSWindows && n.Transport == model.TransportRoCE && n.RoCE.Mode == "v2" &&
		(n.Driver == "winof2" || n.Driver == "qlogic")
}

// priorityWords is "priority 3" or "priorities 3-4" (Ranges), "no
// priority" for none.
func priorityWords(ps []int) string {
	switch len(ps) {
	case 0:
		return "no priority"
	case 1:
		return fmt.Sprintf("priority %d", ps[0])
	case 8:
		return "every priority"
	}
	return "priorities " + Ranges(ps)
}
