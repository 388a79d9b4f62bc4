package docs

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// TestLinuxHostMarking: a Linux RoCE host's document says what its
// applications must mark, since the host script sets RDMA-CM's default
// ToS only and NCCL marks NCCL_IB_TC (default 0) instead; a Windows or
// FreeBSD host's does not.
func TestLinuxHostMarking(t *testing.T) {
	f := inboxTutorial(t)
	files, err := RenderHost(f, f.Host("node1"))
	if err != nil {
		t.Fatal(err)
	}
	want := "The host script sets this ToS only as RDMA-CM's default, which iSER, NVMe-oF and other RDMA-CM connections take. " +
		"Applications that open their queue pairs with verbs (NCCL, UCX, perftest) mark their own traffic class, which must be ToS 106 (DSCP 26 << 2 with ECT(0)) " +
		"or their RoCE travels in the lossy default class; perftest takes it with --tos. NCCL ignores RDMA-CM's default and marks NCCL\\_IB\\_TC, default 0, " +
		"so set NCCL\\_IB\\_TC to that ToS in the jobs' environment or in /etc/nccl.conf (NCCL User Guide, Environment Variables).\n\n" +
		ucxPrefix + "DSCP 26 is this host's RoCE DSCP, so UCX 1.5 and later need no setting; with an older UCX set UCX\\_IB\\_TRAFFIC\\_CLASS=106. " + ucxECN + "\n\n## By hand\n"
	if s := string(files[0].Data); !strings.Contains(s, "\n\n"+want) {
		t.Errorf("node1.md lacks\n%s\nin\n%s", want, s)
	}
	other := compileExample(t, "homelab-40g")
	for _, name := range []string{"nas", "workstation"} {
		files, err := RenderHost(other, other.Host(name))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(files[0].Data); strings.Contains(s, "NCCL") {
			t.Errorf("%s.md (not Linux) names NCCL:\n%s", name, s)
		}
	}
}

// inboxTutorial is examples/tutorial with node1's NICs on the inbox
// driver, whose script sets RDMA-CM's default ToS only.
func inboxTutorial(t *testing.T) *model.Fabric {
	t.Helper()
	f := compileExample(t, "tutorial")
	for i := range f.Host("node1").NICs {
		f.Host("node1").NICs[i].Driver = "inbox"
	}
	return f
}

// TestLinuxHostGlobalTClass: on an MLNX_OFED host the document says the
// script's global traffic class marks verbs applications too (and what
// it does to UCX's ECT bit), in place of the per-application paragraphs;
// a host with MLNX_OFED and inbox NICs gets both, each naming its NICs.
func TestLinuxHostGlobalTClass(t *testing.T) {
	f := compileExample(t, "tutorial")
	h := f.Host("node1")
	ofed := "the host script sets the ToS, the fabric's DSCP with ECT(0), as RDMA-CM's default and as the RDMA port's global traffic class " +
		"(/sys/class/infiniband/DEV/tc/PORT/traffic\\_class, which reads back Global tclass=N). MLNX\\_OFED's mlx5\\_ib gives every queue pair of the port that class, " +
		"whatever class the application asked for, and moves connected ones to it, so verbs applications there (UCX and MPI over it, NCCL, perftest) are marked " +
		"without a setting of their own while the class is set (mlnx-ofa\\_kernel, mlx5\\_ib: traffic\\_class\\_store). " +
		"Only MLNX\\_OFED has the class: on an inbox driver, and after mlx5\\_ib loads again until the host script has set it (it starts unset: init\\_tc\\_sysfs), " +
		"each application marks its own class, NCCL its NCCL\\_IB\\_TC. " +
		"The class keeps the ECN-capable bit ECT(0), as UCX's own default 106 (DSCP 26 with ECT(0)) has it and NVIDIA's BlueField images write the class: " +
		"a switch ECN-marks only ECN-capable packets, and drops the others where it would mark them (RFC 3168, section 5), which would leave DCQCN without its marks."
	doc := hostDoc(t, f, "node1")
	want := "\n\nOn roce0 (traffic class 106, MLNX\\_OFED) " + ofed + "\n\n## By hand"
	if !strings.Contains(doc, want) || strings.Contains(doc, "only as RDMA-CM's default") || strings.Contains(doc, ucxPrefix) {
		t.Errorf("node1.md (MLNX_OFED) lacks\n%s\nor has the per-application paragraphs, in\n%s", want, doc)
	}
	n := h.NICs[0]
	n.Name, n.Driver = "roce1", "inbox"
	h.NICs = append(h.NICs, n)
	doc = hostDoc(t, f, "node1")
	for _, w := range []string{"\n\nOn roce1 (ToS 106) the host script sets this ToS only as RDMA-CM's default, ", "\n\n" + ucxPrefix, "\n\nOn roce0 (traffic class 106, MLNX\\_OFED) " + ofed + "\n\n"} {
		if !strings.Contains(doc, w) {
			t.Errorf("node1.md (MLNX_OFED and inbox) lacks\n%s\nin\n%s", w, doc)
		}
	}
}

// ucxPrefix and ucxECN frame the UCX paragraph of a Linux RoCE host's
// document: UCX marks 106 by default on RoCE v2 since UCX 1.5.
const (
	ucxPrefix = "UCX (Open MPI's pml ucx, MPICH's ch4:ucx) marks UCX\\_IB\\_TRAFFIC\\_CLASS, which on RoCE v2 defaults to 106 (DSCP 26 << 2 with ECT(0)) " +
		"since UCX 1.5 and to 0 before (openucx/ucx, src/uct/ib/base/ib\\_iface.c, UCT\\_IB\\_DEFAULT\\_ROCEV2\\_DSCP): "
	ucxECN = "Keep the ECT(0) bit (+2) that UCX's value and the script's ToS carry: a switch ECN-marks only ECN-capable packets (RFC 3168, section 5), " +
		"and NVIDIA's ECN chapter (MLNX\\_OFED User Manual, Explicit Congestion Notification) does not say that ConnectX sets ECT on RoCE v2 packets itself."
)

// TestLinuxHostUCXClass: a host whose RoCE DSCP is not UCX's default 26
// is told the exact UCX_IB_TRAFFIC_CLASS, DSCP << 2 with ECT(0); two
// DSCPs name the NICs of each.
func TestLinuxHostUCXClass(t *testing.T) {
	tests := []struct {
		dscps []int
		want  string
	}{
		{[]int{24}, "set UCX\\_IB\\_TRAFFIC\\_CLASS=98 (DSCP 24) in the jobs' environment, or UCX marks DSCP 26. "},
		{[]int{24, 26}, "set UCX\\_IB\\_TRAFFIC\\_CLASS=98 (DSCP 24) for NIC roce0, or 106 (DSCP 26) for NIC roce1 in the jobs' environment, or UCX marks DSCP 26. "},
	}
	for _, tt := range tests {
		f := inboxTutorial(t)
		h := f.Host("node1")
		h.NICs = h.NICs[:1]
		for i, v := range tt.dscps {
			if i > 0 {
				n := h.NICs[0]
				n.Name = "roce1"
				h.NICs = append(h.NICs, n)
			}
			h.NICs[i].RoCE.DSCP, h.NICs[i].RoCE.TOS = v, v<<2
		}
		files, err := RenderHost(f, h)
		if err != nil {
			t.Fatal(err)
		}
		if want := ucxPrefix + tt.want + ucxECN + "\n"; !strings.Contains(string(files[0].Data), want) {
			t.Errorf("DSCPs %v: node1.md lacks\n%s\nin\n%s", tt.dscps, want, files[0].Data)
		}
	}
}

// ncclStep is the "By hand" item of a Linux RoCE host marking ToS 106
// whose NICs do not list the nccl application, its one NIC on MLNX_OFED:
// the global traffic class marks NCCL while it is set, which it is not on
// an inbox driver nor after mlx5_ib loads until the script sets it again
// (mlnx-ofa_kernel, mlx5_ib: the class is -1 from init_tc_sysfs, and
// tclass_get_tclass_locked uses it over the queue pair's own class only
// when it is 0 or more), so NCCL_IB_TC is still needed.
const ncclStep = "- NCCL: set NCCL\\_IB\\_TC=106, the RoCE ToS (DSCP 26 << 2 with ECT(0)), for every NCCL job on this host, " +
	"in /etc/nccl.conf (a line NCCL\\_IB\\_TC=106, read by every NCCL job) or in the jobs' environment: " +
	"on roce0 (traffic class 106, MLNX\\_OFED) the port's global traffic class that the host script sets marks NCCL's queue pairs whatever NCCL\\_IB\\_TC says (the RoCE section above), " +
	"but only while the class is set: an inbox driver has no such class, and it starts unset each time mlx5\\_ib loads, until the host script sets it again " +
	"(mlnx-ofa\\_kernel, mlx5\\_ib: init\\_tc\\_sysfs). Without the class NCCL ignores the RDMA-CM default and marks NCCL\\_IB\\_TC, default 0, " +
	"so with neither its RoCE travels in the lossy default class. " +
	"Before NCCL 2.21 also set NCCL\\_IB\\_GID\\_INDEX to the index of the NIC's RoCE v2 GID (the INDEX whose /sys/class/infiniband/DEV/ports/1/gid\\_attrs/types/INDEX reads RoCE v2 beside the IPv4-mapped address, usually 3): " +
	"the default 0 is the link-local RoCE v1 GID, which does not route; NCCL 2.21 and later pick the RoCE v2 GID themselves. " +
	"perftest takes the ToS with --tos; UCX marks UCX\\_IB\\_TRAFFIC\\_CLASS instead (the RoCE section above). " +
	"With applications = \\[\"nccl\"\\] on the NICs the host script writes the NCCL\\_IB\\_TC line itself " +
	"(NVIDIA NCCL User Guide, Environment Variables: NCCL\\_IB\\_TC, NCCL\\_IB\\_GID\\_INDEX).\n"

// TestLinuxHostNCCLByHand: the "By hand" section of a Linux RoCE host
// lists the NCCL_IB_TC step (with the GID index for NCCL before 2.21)
// rather than "Nothing", since NCCL marks ToS 0 unless told; a host
// whose NICs list the nccl application has the script write it, and its
// section goes back to "Nothing".
func TestLinuxHostNCCLByHand(t *testing.T) {
	f := compileExample(t, "tutorial")
	h := f.Host("node1")
	files, err := RenderHost(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	if !strings.HasSuffix(s, "\n## By hand\n\n"+ncclStep) {
		t.Errorf("node1.md does not end with the NCCL step\n%s\nbut\n%s", ncclStep, s[strings.Index(s, "## By hand"):])
	}
	for i := range h.NICs {
		h.NICs[i].Applications = append(h.NICs[i].Applications, model.Application{Kind: model.AppNCCL, Priority: h.NICs[i].RoCE.Priority})
	}
	files, err = RenderHost(f, h)
	if err != nil {
		t.Fatal(err)
	}
	if w := "which would leave DCQCN without its marks. The host script also writes NCCL\\_IB\\_TC=106 into /etc/nccl.conf, since the NICs list the nccl application, for NCCL jobs that start before the global class is set.\n\n"; !strings.Contains(string(files[0].Data), w) {
		t.Errorf("with nccl, node1.md (MLNX_OFED) lacks\n%s\nin\n%s", w, files[0].Data)
	}
	want := "\n## By hand\n\nNothing: the host script sets everything the model asks of this host.\n"
	if s := string(files[0].Data); !strings.HasSuffix(s, want) {
		t.Errorf("with nccl, node1.md does not end with\n%s\nbut\n%s", want, s[strings.Index(s, "## By hand"):])
	}
	// On the inbox driver the per-application paragraph says so.
	for i := range h.NICs {
		h.NICs[i].Driver = "inbox"
	}
	files, err = RenderHost(f, h)
	if err != nil {
		t.Fatal(err)
	}
	want = "NCCL ignores RDMA-CM's default and marks NCCL\\_IB\\_TC, default 0, so the host script writes NCCL\\_IB\\_TC=106 into /etc/nccl.conf, " +
		"since the NICs list the nccl application; a job whose environment sets NCCL\\_IB\\_TC overrides it. " +
		"Before NCCL 2.21 also set NCCL\\_IB\\_GID\\_INDEX to the NIC's RoCE v2 GID (usually 3; the default 0 is the link-local RoCE v1 GID, which does not route) " +
		"(NCCL User Guide, Environment Variables).\n\n" + ucxPrefix
	if s := string(files[0].Data); !strings.Contains(s, want) {
		t.Errorf("with nccl, node1.md lacks\n%s\nin\n%s", want, s)
	}
}

// TestHostRoutes: a NIC's route is listed under Routes, with where its
// gateway came from; a Linux host's script sets it, a Windows or FreeBSD
// host's document lists it under "By hand" with the command to add it.
func TestHostRoutes(t *testing.T) {
	f := compileExample(t, "tutorial")
	h := f.Host("node1")
	h.NICs[0].Route = &model.NICRoute{Gateway: "10.1.1.2", Source: "10.1.1.3", Table: 1001, Priority: 1001, Prefixes: []string{"10.1.0.0/25", "10.1.4.0/31"}}
	files, err := RenderHost(f, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(files[0].Data)
	want := "## Routes\n\nThe host script adds, for each NIC below, a default route via the gateway in a routing table of the NIC's own and a rule that sends the packets from the NIC's address there (ip-rule(8), ip-route(8)), " +
		"so that traffic bound to the NIC's address leaves by its own link; table and rule priority are 1000 plus the NIC's place among the host's NICs by name, and the script refuses a table or priority another tool already uses. " +
		"It also adds, in the main table, a route via the same gateway to each of the NIC's main-table prefixes (ip route replace PREFIX via GATEWAY dev IF proto 173). " +
		"The rule only sees packets already bound to the NIC's address, and RDMA-CM initiators that resolve with no source address look the destination up in the main table alone " +
		"(Linux drivers/infiniband/core/addr.c, addr4\\_resolve and addr6\\_resolve): NFS over RDMA (net/sunrpc/xprtrdma/verbs.c, rpcrdma\\_create\\_id), " +
		"the SMB Direct client (fs/smb/client/smbdirect.c), nvme-rdma without --host-traddr (drivers/nvme/host/rdma.c), rping without -I. " +
		"It is the main-table routes that make the kernel pick the NIC, and its address as the source, for them, and so let each NIC reach its RoCE peers beyond its own subnet.\n\n"
	row := "| NIC | source | gateway | gateway from | table | rule priority | main-table prefixes |\n| --- | --- | --- | --- | --: | --: | --- |\n" +
		"| roce0 | 10.1.1.3 | 10.1.1.2 | derived: the other end of its subnet | 1001 | 1001 | 10.1.0.0/25, 10.1.4.0/31 |\n\n## RoCE and DCB settings\n"
	prune := "Every route and rule the script writes carries protocol 173 (ip-route(8) proto, ip-rule(8) protocol), its mark: a run removes the marked ones the fabric no longer has (a prefix merged otherwise, a NIC renumbered or removed, with its table and rule), --check reports them, and a route or rule without the mark (another tool's, the connected route, a DHCP default) is never removed. " +
		"A route or rule that is already what the fabric wants but lacks the mark (one netplan, NetworkManager or an administrator wrote, usually proto static, or one a fabricc build before the mark wrote) counts as matching and is left to whoever wrote it: the script does not mark it, so it never removes it; delete it by hand once the fabric drops it (fabricc plan names the command). " +
		"Where ip rule does not take protocol (iproute2 before 4.17; the kernel keeps it from Linux 4.17) the rules are written without the mark and a run removes none.\n"
	if !strings.Contains(s, prune) {
		t.Errorf("node1.md lacks\n%s", prune)
	}
	if !strings.Contains(s, want) || !strings.Contains(s, row) || strings.Contains(s, "New-NetRoute") || strings.Contains(s, "via inet6") {
		t.Errorf("node1.md lacks\n%s\nor\n%s\nor lists the route by hand or the RFC 5549 note:\n%s", want, row, s)
	}
	h.NICs[0].Route = &model.NICRoute{Gateway: "fe80::1", Written: true, Source: "10.9.0.1", Table: 1001, Priority: 1001}
	if files, err = RenderHost(f, h); err != nil {
		t.Fatal(err)
	}
	s = string(files[0].Data)
	for _, w := range []string{
		"An IPv4 route via an IPv6 link-local gateway (RFC 5549, as on a BGP-unnumbered link) is written via inet6 GATEWAY (ip-route(8)) and needs Linux 5.2 and iproute2 5.2 or later (\"ipv4: Allow ipv6 gateway with ipv4 routes\").\n",
		"| roce0 | 10.9.0.1 | fe80::1 | gateway attribute | 1001 | 1001 | - |\n",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("node1.md with a link-local gateway lacks\n%s\nin\n%s", w, s)
		}
	}
}

// TestLinuxHostRails: a Linux host with several NICs with IPv4 addresses
// (ai-rails' gpu01, eight rails) has the "Several rails" paragraph naming
// them and the three sysctls; a host with one NIC (the tutorial's node1)
// has none.
func TestLinuxHostRails(t *testing.T) {
	f := compileExample(t, "ai-rails")
	files, err := RenderHost(f, f.Host("gpu01"))
	if err != nil {
		t.Fatal(err)
	}
	want := "\n## Several rails\n\nNICs rail1, rail2, rail3, rail4, rail5, rail6, rail7, rail8 have IPv4 addresses. " +
		"Linux's defaults let every interface answer ARP for every address of the host, so a peer (and RDMA-CM resolving a GID) may learn the wrong rail's MAC address, " +
		"and strict reverse-path filtering drops replies that come in by another rail. " +
		"The host script sets net.ipv4.conf.IF.arp\\_ignore = 1, arp\\_announce = 2 and rp\\_filter = 2 (loose) on each of their interfaces (the VLAN interface of a tagged NIC), " +
		"`--check` reports each that differs, and the boot unit applies them again at every boot " +
		"(Linux kernel Documentation/networking/ip-sysctl.rst: arp\\_ignore, arp\\_announce, rp\\_filter). " +
		"A host with one such NIC, or only IPv6 ones (ARP is IPv4's), gets none of them.\n\n"
	if s := string(files[0].Data); !strings.Contains(s, want) {
		t.Errorf("gpu01.md lacks\n%s\nin\n%s", want, s)
	}
	one := compileExample(t, "tutorial")
	files, err = RenderHost(one, one.Host("node1"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(files[0].Data); strings.Contains(s, "Several rails") {
		t.Errorf("node1.md (one NIC) has the rails paragraph:\n%s", s)
	}
}

// compileHPC compiles testdata/hpc: cn001 with MPI and NVMe-oF on two
// untagged ConnectX-6 Dx ports, cn002 with MPI on a ConnectX-5 on VLAN
// 200, where it and its switch port trust PCP.
func compileHPC(t *testing.T) *model.Fabric {
	t.Helper()
	cfg, _, diags := dsl.Load(filepath.Join("testdata", "hpc"), dsl.Options{})
	if diags.HasErrors() {
		t.Fatalf("loading testdata/hpc: %v", diags)
	}
	f, diags := compiler.Compile(cfg)
	if diags.HasErrors() {
		t.Fatalf("compiling testdata/hpc: %v", diags)
	}
	return f
}

// hostDoc is the Markdown document of host name in f.
func hostDoc(t *testing.T, f *model.Fabric, name string) string {
	t.Helper()
	files, err := RenderHost(f, f.Host(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(files[0].Data)
}

// TestLinuxHostServiceLevel: on a NIC that tags a VLAN classified by PCP
// the document names the service level verbs applications must set
// (UCX_IB_SL, NCCL_IB_SL, perftest --sl), in the RoCE section and the
// NCCL step, since their PCP is the service level, default 0, not the
// ToS; an untagged NIC's document does not.
func TestLinuxHostServiceLevel(t *testing.T) {
	f := compileHPC(t)
	doc := hostDoc(t, f, "cn002")
	want := "\n\nNIC p0 (VLAN 200, priority 3) tags a VLAN where it or its switch port classifies by PCP, and a verbs queue pair's PCP is its service level, not its ToS " +
		"(MLNX\\_OFED User Manual, RoCE, Type Of Service: SL affects the PCP only when the traffic goes over tagged VLAN frames). " +
		"The service level defaults to 0, the default class, so verbs applications there must also set it: UCX\\_IB\\_SL=3 for UCX, NCCL\\_IB\\_SL=3 for NCCL and perftest --sl 3 " +
		"(openucx/ucx, src/uct/ib/base/ib\\_iface.c, UCX\\_IB\\_SL; NVIDIA NCCL User Guide, Environment Variables: NCCL\\_IB\\_SL). " +
		"RDMA-CM connections get their PCP from the ToS through the VLAN's egress map, which the host script sets.\n\n"
	if !strings.Contains(doc, want) {
		t.Errorf("cn002.md lacks\n%s\nin\n%s", want, doc)
	}
	sl := "On p0 (VLAN 200, priority 3), whose VLAN is classified by PCP, also set %s=3: there the PCP of a verbs queue pair is its service level, default 0, not its ToS (MLNX\\_OFED User Manual, RoCE, Type Of Service). "
	if step := fmt.Sprintf(sl, "UCX\\_IB\\_SL") + "(openucx/ucx, src/uct/ib/base/ib\\_iface.c: UCX\\_IB\\_TRAFFIC\\_CLASS, UCX\\_IB\\_SL.)\n"; !strings.Contains(doc, step) {
		t.Errorf("cn002.md's MPI step lacks\n%s\nin\n%s", step, doc)
	}
	f.Host("cn002").NICs[0].Applications = nil // NCCL may run there
	if step := fmt.Sprintf(sl, "NCCL\\_IB\\_SL"); !strings.Contains(hostDoc(t, f, "cn002"), step) {
		t.Errorf("cn002.md's NCCL step lacks\n%s\nin\n%s", step, hostDoc(t, f, "cn002"))
	}
	if doc := hostDoc(t, f, "cn001"); strings.Contains(doc, "\\_SL") {
		t.Errorf("cn001.md (untagged NICs) names a service level:\n%s", doc)
	}
}

// TestLinuxHostApplicationSteps: the applications table prints "-" for
// an application no port identifies; mpi gives the UCX step, an
// RDMA-CM application (nvme-of) the step that sessions made before the
// script keep their ToS, lustre the LNet tos step; a host whose NICs all
// list applications, none of them nccl, gets no NCCL step.
func TestLinuxHostApplicationSteps(t *testing.T) {
	// accepted is the step of the accepting side (cm_format_paths_from_req).
	const accepted = "- A target (nvmet-rdma, LIO isert) or an NFS server only accepts these connections, and an accepted connection takes the traffic class of the initiator's connection request, " +
		"not this host's default (Linux drivers/infiniband/core/cm.c, cm\\_format\\_paths\\_from\\_req): its replies, NVMe read data included, follow each initiator's ToS. " +
		"So every initiator must use ToS 106 (DSCP 26 << 2 with ECT(0)): a host of this fabric in the same class, or one set by hand (nvme connect --tos)"
	f := compileHPC(t)
	h := f.Host("cn001")
	h.NICs[1].Applications = append(h.NICs[1].Applications, model.Application{Kind: "lustre", Priority: 3})
	doc := hostDoc(t, f, "cn001")
	want := "\n\n## Applications\n\n| NIC | application | port | priority |\n| --- | --- | --: | --: |\n" +
		"| p0 | mpi | - | 3 |\n| p0 | nvme-of | 4420 | 3 |\n| p1 | mpi | - | 3 |\n| p1 | lustre | - | 3 |\n\n## By hand\n\n"
	if !strings.Contains(doc, want) {
		t.Errorf("cn001.md lacks\n%s\nin\n%s", want, doc)
	}
	steps := "- MPI over UCX (Open MPI's pml ucx, MPICH's ch4:ucx): UCX 1.5 and later mark RoCE v2 with 106 (DSCP 26 with ECT(0)) by default, this host's RoCE DSCP, so they need no setting; " +
		"with an older UCX set UCX\\_IB\\_TRAFFIC\\_CLASS=106, in every MPI job's environment (an /etc/profile.d file, or an export in Slurm's TaskProlog); the host script sets no UCX variable. " +
		"(openucx/ucx, src/uct/ib/base/ib\\_iface.c: UCX\\_IB\\_TRAFFIC\\_CLASS.)\n" +
		memlockLine +
		"- NVMe-oF (nvme-rdma), iSER and NFS over RDMA connect through RDMA-CM and take the ToS the host script sets as RDMA-CM's default (so nvme connect needs no --tos), " +
		"but only on connections made after it ran: sessions made before it (at boot, if they start before it) keep their ToS, 0 in the lossy default class, until they reconnect. " +
		"Run the script before they connect, or reconnect them after it ran (Linux Documentation/ABI/testing/configfs-rdma\\_cm, default\\_roce\\_tos).\n" +
		accepted + ".\n" +
		"- Lustre (LNet o2ib) connects through RDMA-CM and takes the host script's ToS 106 only while LNet's o2iblnd tos tunable is unset (default -1; lnetctl net show -v prints it only when set): " +
		"an lnet.conf that sets tos must set it to that ToS, or leave it out. Like the other RDMA-CM connections, LNet peers connected before the script ran keep their ToS until they reconnect " +
		"(lustre-release, lnet/utils/lnetconfig: o2iblnd tunables, tos).\n"
	if !strings.HasSuffix(doc, steps) {
		t.Errorf("cn001.md does not end with\n%s\nbut\n%s", steps, doc[strings.Index(doc, "## By hand"):])
	}
	// On MLNX_OFED the port's global traffic class overrides the
	// initiator's on the accepting side too.
	h.NICs[0].Driver = "mlnx_ofed"
	ofed := accepted + ". On p0 (traffic class 106, MLNX\\_OFED) the port's global traffic class, which the host script sets, overrides the initiator's.\n"
	if doc := hostDoc(t, f, "cn001"); !strings.Contains(doc, ofed) {
		t.Errorf("cn001.md with p0 on MLNX_OFED lacks\n%s\nin\n%s", ofed, doc[strings.Index(doc, "## By hand"):])
	}
	if strings.Contains(doc, "- NCCL:") {
		t.Errorf("cn001.md (mpi, nvme-of, lustre only) has an NCCL step:\n%s", doc)
	}
	if doc := hostDoc(t, compileExample(t, "tutorial"), "node1"); strings.Contains(doc, "PropagateResourceLimits") {
		t.Errorf("node1.md (no mpi) has the Slurm memlock step:\n%s", doc)
	}
}

// memlockLine is the Slurm memlock step of a host whose NICs list mpi:
// slurmd's unit sets its own limit and jobs take the submitting shell's.
const memlockLine = "- MPI under Slurm: set PropagateResourceLimitsExcept=MEMLOCK in slurm.conf. slurmd's unit sets its own locked-memory limit, and slurmd gives each job the limits of the shell it was submitted from " +
	"(slurm.conf(5), PropagateResourceLimits, default ALL), so a job submitted from a login node with a small memlock limit cannot register RDMA memory, whatever this host's limits " +
	"(Slurm FAQ, \"Why are MPI jobs failing due to the locked memory (memlock) limit being too low?\").\n"

// TestHostNICTableRoCEPathMTU: the NIC table shows the RoCE path MTU
// each NIC runs (iboe_get_mtu: MTU less 96 B, rounded down to an IB
// MTU), 4096 for MTU 4200 and 2048 for MTU 4096.
func TestHostNICTableRoCEPathMTU(t *testing.T) {
	f := compileHPC(t)
	f.Host("cn001").NICs[1].MTU = 4096
	want := "| NIC | interface | model | driver | transport | speed | MTU | RoCE path MTU | VLAN | addresses | peer | cable |\n" +
		"| --- | --- | --- | --- | --- | --- | --: | --: | --: | --- | --- | --- |\n" +
		"| p0 | ens1f0np0 | ConnectX-6 Dx | inbox | roce | 100G | 4200 | 4096 | - | 10.10.0.1/24 | [leaf1](../leaf1/leaf1.md) swp1 | 2 m dac |\n" +
		"| p1 | ens1f1np1 | ConnectX-6 Dx | inbox | roce | 100G | 4096 | 2048 | - | 10.11.0.1/24 | [leaf1](../leaf1/leaf1.md) swp2 | 2 m dac |\n"
	if doc := hostDoc(t, f, "cn001"); !strings.Contains(doc, want) {
		t.Errorf("cn001.md lacks\n%s\nin\n%s", want, doc)
	}
}

// TestHostNICTableVLANInterface: a NIC's vlan_interface is shown beside
// its VLAN in the NIC table; a NIC without one shows the VLAN alone.
func TestHostNICTableVLANInterface(t *testing.T) {
	f := compileHPC(t)
	row := "| p0 | ens2f0np0 | ConnectX-5 | mlnx\\_ofed | roce | 100G | 9000 | 4096 | %s | 10.10.0.2/24 | [leaf1](../leaf1/leaf1.md) swp3 | 2 m dac |\n"
	if want := fmt.Sprintf(row, "200"); !strings.Contains(hostDoc(t, f, "cn002"), want) {
		t.Errorf("cn002.md lacks\n%s\nin\n%s", want, hostDoc(t, f, "cn002"))
	}
	f.Host("cn002").NICs[0].VLANInterface = "vl_200"
	if want := fmt.Sprintf(row, "200 (vl\\_200)"); !strings.Contains(hostDoc(t, f, "cn002"), want) {
		t.Errorf("cn002.md lacks\n%s\nin\n%s", want, hostDoc(t, f, "cn002"))
	}
}

// TestHostSourceSteps: a Linux NIC with a route that lists nvme-of,
// nfs-rdma or smb-direct has a By hand step saying that unbound
// connections reach only its main-table prefixes, that nvme connect
// --host-traddr binds the NIC's address, and that NFS over RDMA and SMB
// Direct cannot bind one; a NIC without such an application has none.
func TestHostSourceSteps(t *testing.T) {
	f := compileExample(t, "tutorial")
	h := f.Host("node1")
	h.NICs[0].Route = &model.NICRoute{Gateway: "10.1.1.2", Source: "10.1.1.3", Table: 1001, Priority: 1001, Prefixes: []string{"10.1.0.0/25"}}
	files, err := RenderHost(f, h)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(files[0].Data); strings.Contains(s, "on a routed link") {
		t.Errorf("node1.md without storage applications has the source step:\n%s", s)
	}
	h.NICs[0].Applications = append(h.NICs[0].Applications, model.Application{Kind: "nvme-of", Port: 4420}, model.Application{Kind: "nfs-rdma", Port: 20049})
	if files, err = RenderHost(f, h); err != nil {
		t.Fatal(err)
	}
	want := "- roce0 (" + h.NICs[0].Interface + ") lists nvme-of, nfs-rdma, on a routed link: connections that bind no source address go by the main-table routes of Routes, which reach 10.1.0.0/25 only; " +
		"a target elsewhere is reached by the main table's other routes (often the management NIC) or not at all (Linux drivers/infiniband/core/addr.c, addr4\\_resolve). " +
		"nvme connect --host-traddr 10.1.1.3 binds the NIC's address, so nvme-rdma then takes the NIC's own table (rule priority 1001) whatever the destination (drivers/nvme/host/rdma.c). " +
		"NFS over RDMA (net/sunrpc/xprtrdma/verbs.c, rpcrdma\\_create\\_id) and the SMB Direct client (fs/smb/client/smbdirect.c) cannot bind a source: mount servers within those prefixes.\n"
	if s := string(files[0].Data); !strings.Contains(s, want) {
		t.Errorf("node1.md lacks\n%s\nin\n%s", want, s[strings.Index(s, "## By hand"):])
	}
}
