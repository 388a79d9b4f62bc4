package windows

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// Driver stacks the model names for Windows NICs (model.NIC.Driver).
const (
	// DriverWinOF is Mellanox WinOF (VPI), the driver of ConnectX-3 and
	// ConnectX-3 Pro (mlx4_bus).
	DriverWinOF = "winof"
	// DriverWinOF2 is Mellanox WinOF-2, the driver of ConnectX-4 and
	// later (mlx5).
	DriverWinOF2 = "winof2"
	// DriverQLogic is the QLogic FastLinQ driver.
	DriverQLogic = "qlogic"
)

// Frame-size limits of Mellanox Windows drivers: "Valid MTU values range
// for an Ethernet driver is between 614 and 9614" (WinOF-2 User Manual
// 1.21 §3.5.3, WinOF User Manual 5.50 §4.9.3), counted with the 14-byte
// Ethernet header.
const (
	ethernetHeaderBytes = 14
	minJumboPacket      = 614
	maxJumboPacket      = 9614
)

// adapterWildcards are the characters the NetAdapter cmdlets read as a
// wildcard pattern in -Name (Microsoft's Get-NetAdapter example: -Name
// "E*2" gets adapters starting with E and ending in 2; about_Wildcards:
// * ? [ ]). The compiler refuses such names too; the target does not rely
// on it, since a model can reach Render without the compiler.
const adapterWildcards = "*?[]"

// plan is everything the script sets, derived from the model and checked
// before any text is written.
type plan struct {
	policies []policy
	// pfc lists the lossless priorities; the others get PFC disabled.
	pfc []int
	// classes are the traffic classes created besides Windows' own
	// [Default] class, which holds every priority they do not claim.
	classes []trafficClass
	// defaultClass is the model class Windows' [Default] class stands for.
	defaultClass model.Class
	// drivers are the driver-wide RoCE settings, one per driver stack.
	drivers []driverSetting
	nics    []nicPlan
	// notes are the model values Windows cannot set, printed as warnings.
	notes []note
}

// policy is one NetQos policy.
type policy struct {
	name string
	// why explains the policy in the script.
	why string
	// args are the match and action parameters of New-NetQosPolicy.
	args []string
	// want are the properties of Get-NetQosPolicy the policy sets, as the
	// script prints them ("$_"), under their CIM names: TemplateMatchCondition
	// and IPProtocolMatchCondition come back as enum names ("Default",
	// "TCP"), since Windows' NetQos module casts them to its
	// NetQosPolicy.Template and NetQosPolicy.Protocol enums
	// (MSFT_NetQosPolicy.Types.ps1xml, and the <Enums> of
	// MSFT_NetQosPolicy.cdxml, in the NetQos module that ships with
	// Windows); the ports and priorities as decimal numbers. Every other
	// match condition and action must be unset (Compare-Policy).
	want []field
	// from are the model elements the policy comes from.
	from []targets.Element
}

// field is one property with its intended value, as PowerShell prints it.
type field struct {
	name, value string
}

// trafficClass is one ETS traffic class.
type trafficClass struct {
	name       string
	priorities []int
	strict     bool
	bandwidth  int
}

// driverSetting is the driver-wide RoCE mode of one driver stack.
type driverSetting struct {
	driver string
	mode   string
	port   int
	// nics are the interfaces of this driver, restarted when the
	// setting changes; names are their NICs' names in the model.
	nics, names []string
}

// nicPlan is the per-adapter part of the plan.
type nicPlan struct {
	nic       model.NIC
	jumbo     int
	addresses []netip.Prefix
	// gateway and routes are the NIC's main-table routes
	// (model.NICRoute.Prefixes via Gateway), parsed; routes is empty when
	// the NIC has no route or no prefix to route.
	gateway netip.Addr
	routes  []netip.Prefix
}

// family is the address family whose IP interface shows the adapter's IP
// MTU (NlMtu): IPv4 unless every address of the model is IPv6.
func (np nicPlan) family() string {
	for _, a := range np.addresses {
		if a.Addr().Is4() {
			return "IPv4"
		}
	}
	if len(np.addresses) > 0 {
		return "IPv6"
	}
	return "IPv4"
}

// note is one thing the model asks that the script cannot set.
type note struct {
	comment []string
	message string
	// from are the model elements the note is about.
	from []targets.Element
}

// appPolicyNames names the NetQos policy of each application; SMB
// keeps the name the Mellanox manuals and the Demartek guide use so a host
// configured by hand from their procedure is recognised as in sync. The
// script reads a policy with Get-NetQosPolicy -Name, a wildcard pattern
// (AllowGlobbing="true" on Name in MSFT_NetQosPolicy.cdxml), so no policy
// name may hold * ? [ ] (TestPolicyNamesAreLiteral).
var appPolicyNames = map[string]string{
	"smb-direct": "SMB",
	"iser":       "iSER",
	"nvme-of":    "NVMe-oF",
	"nfs-rdma":   "NFS-RDMA",
	"mpi":        "MPI",
	// Storage over TCP (model.Application.OverTCP).
	model.AppNVMeTCP: "NVMe-TCP",
	model.AppISCSI:   "iSCSI",
}

// buildPlan derives the plan for h from the model, or says what in the
// model Windows cannot express.
func buildPlan(f *model.Fabric, h *model.Host) (*plan, error) {
	if len(h.NICs) == 0 {
		return nil, fmt.Errorf("host has no NICs; add a nic block or remove the host")
	}
	p := &plan{}
	if err := p.checkNICs(h); err != nil {
		return nil, err
	}
	def, err := defaultClass(f)
	if err != nil {
		return nil, err
	}
	p.defaultClass = def
	if err := p.buildPolicies(f, h, def); err != nil {
		return nil, err
	}
	if err := p.buildClasses(f, h, def); err != nil {
		return nil, err
	}
	if err := p.buildDrivers(h); err != nil {
		return nil, err
	}
	p.pfc = append([]int(nil), h.NICs[0].RoCE.PFCPriorities...)
	p.notes = limits(h)
	return p, nil
}

// checkNICs validates each NIC and records its per-adapter plan.
func (p *plan) checkNICs(h *model.Host) error {
	first := h.NICs[0].RoCE
	for _, n := range h.NICs {
		where := fmt.Sprintf("nic %q (interface %q)", n.Name, n.Interface)
		if n.Interface == "" {
			return fmt.Errorf("%s has no interface name; set interface to the adapter name Get-NetAdapter shows", where)
		}
		if strings.ContainsAny(n.Interface, adapterWildcards) {
			return fmt.Errorf("%s: the NetAdapter cmdlets read * ? [ ] in an adapter name as wildcards, so the script could read or change other adapters; rename the adapter (Rename-NetAdapter) and write its new name", where)
		}
		switch n.Driver {
		case DriverWinOF, DriverWinOF2, DriverQLogic:
		default:
			return fmt.Errorf("%s has driver %q; the Windows target knows %q (ConnectX-3), %q (ConnectX-4 and later) and %q (QLogic FastLinQ)", where, n.Driver, DriverWinOF, DriverWinOF2, DriverQLogic)
		}
		if n.VLAN < 0 || n.VLAN > 4095 {
			return fmt.Errorf("%s has VLAN %d; VlanID takes 0 (untagged) or 1-4095 (WinOF-2 User Manual 1.21 §3.4.4)", where, n.VLAN)
		}
		jumbo := n.MTU + ethernetHeaderBytes
		if jumbo < minJumboPacket || jumbo > maxJumboPacket {
			return fmt.Errorf("%s has MTU %d; Windows drivers take *JumboPacket %d-%d, i.e. an MTU of %d-%d (WinOF-2 User Manual 1.21 §3.5.3)", where, n.MTU, minJumboPacket, maxJumboPacket, minJumboPacket-ethernetHeaderBytes, maxJumboPacket-ethernetHeaderBytes)
		}
		if err := checkPriorities(where, n.RoCE); err != nil {
			return err
		}
		if err := sameContract(where, first, n.RoCE); err != nil {
			return err
		}
		np := nicPlan{nic: n, jumbo: jumbo}
		for _, a := range n.Addresses {
			pfx, err := netip.ParsePrefix(a)
			if err != nil {
				return fmt.Errorf("%s has address %q, which is not in CIDR form (192.168.2.11/24): %v", where, a, err)
			}
			np.addresses = append(np.addresses, pfx)
		}
		if err := np.parseRoute(where); err != nil {
			return err
		}
		p.nics = append(p.nics, np)
	}
	return nil
}

// parseRoute parses the NIC's main-table routes (model.NICRoute), so that
// only IP addresses and prefixes reach the script, and refuses what
// Windows cannot route: an IPv4 prefix via an IPv6 next hop (RFC 5549),
// which Microsoft's New-NetRoute documents no form for (the compiler
// refuses it first), and a prefix of another family than its gateway.
func (np *nicPlan) parseRoute(where string) error {
	r := np.nic.Route
	if r == nil || len(r.Prefixes) == 0 {
		return nil
	}
	gw, err := netip.ParseAddr(r.Gateway)
	if err != nil || gw.Zone() != "" {
		return fmt.Errorf("%s has gateway %q, which is not an IP address (10.20.1.0, fe80::1)", where, r.Gateway)
	}
	for _, s := range r.Prefixes {
		pfx, err := netip.ParsePrefix(s)
		if err != nil || pfx != pfx.Masked() {
			return fmt.Errorf("%s has main-table route %q, which is not a CIDR prefix with its host bits clear (10.20.1.0/29)", where, s)
		}
		if pfx.Addr().Is4() != gw.Is4() {
			return fmt.Errorf("%s: route %s via %s: Windows documents no route via a next hop of another address family (Microsoft Learn, New-NetRoute); write the switch port's IPv4 address as the gateway", where, pfx, gw)
		}
		np.routes = append(np.routes, pfx)
	}
	np.gateway = gw
	return nil
}

// checkPriorities rejects priorities outside 0-7 and DSCP outside 0-63.
func checkPriorities(where string, r model.RoCE) error {
	prios := append([]int{r.Priority, r.CNPPriority}, r.PFCPriorities...)
	for _, x := range prios {
		if x < 0 || x > 7 {
			return fmt.Errorf("%s uses priority %d; 802.1p priorities are 0-7", where, x)
		}
	}
	for _, d := range []int{r.DSCP, r.CNPDSCP} {
		if d < 0 || d > 63 {
			return fmt.Errorf("%s uses DSCP %d; DSCP values are 0-63", where, d)
		}
	}
	return nil
}

// sameContract requires every NIC of the host to share the RoCE priority
// and lossless priorities: NetQos policies, PFC and traffic classes are
// host-wide on Windows, not per adapter.
func sameContract(where string, a, b model.RoCE) error {
	if a.Priority != b.Priority || !slices.Equal(a.PFCPriorities, b.PFCPriorities) {
		return fmt.Errorf("%s has RoCE priority %d with PFC on %s, but another NIC of the host has priority %d with PFC on %s; Windows QoS policies and PFC are host-wide, so every NIC of a Windows host must use the same values",
			where, b.Priority, commas(b.PFCPriorities), a.Priority, commas(a.PFCPriorities))
	}
	return nil
}

// defaultClass returns the model class of traffic class 0, which
// Windows' undeletable [Default] traffic class stands for: Windows puts
// every priority no created class claims there and shows it as TC 0 in
// Get-NetAdapterQos (New-NetQosTrafficClass documentation).
func defaultClass(f *model.Fabric) (model.Class, error) {
	for _, c := range f.QoS.Classes {
		if c.TrafficClass == 0 {
			if c.ETS.Mode == model.ETSStrict {
				return c, fmt.Errorf("class %q (traffic class 0) is strict; Windows' [Default] traffic class is always ETS, so give class %q an ETS bandwidth", c.Name, c.Name)
			}
			if c.Lossless {
				return c, fmt.Errorf("class %q (traffic class 0) is lossless; the Windows target maps traffic class 0 to the lossy [Default] class, so put the lossless class on another traffic class", c.Name)
			}
			return c, nil
		}
	}
	return model.Class{}, fmt.Errorf("the QoS policy has no class on traffic class 0; Windows needs one for its [Default] traffic class")
}

// buildPolicies lays out the Demartek policy set with the model's priorities:
// one NetworkDirect policy per RDMA application, one TCP port policy per
// application over TCP, DEFAULT on the RoCE priority, and TCP and UDP on
// the default class (Demartek RoCE Deployment Guide, "Windows: Deploying
// SMB Direct over RoCE with Storage Spaces").
func (p *plan) buildPolicies(f *model.Fabric, h *model.Host, def model.Class) error {
	roce := h.NICs[0].RoCE
	apps := map[string]model.Application{}
	dscp := map[string]int{} // the DSCP of the class of each application over TCP
	from := map[string][]targets.Element{}
	for _, n := range h.NICs {
		for _, a := range n.Applications {
			from[a.Kind] = append(from[a.Kind], targets.Path("host", h.Name, "nic", n.Name, "applications"))
			if old, ok := apps[a.Kind]; ok && old != a {
				return fmt.Errorf("application %q has port %d priority %d on one NIC and port %d priority %d on another; NetQos policies are host-wide, so they must agree", a.Kind, old.Port, old.Priority, a.Port, a.Priority)
			}
			if old, ok := dscp[a.Kind]; ok && a.OverTCP() && old != n.RoCE.DSCP {
				return fmt.Errorf("application %q rides DSCP %d on one NIC and DSCP %d on another; NetQos policies are host-wide, so the NICs that list it must share one class", a.Kind, old, n.RoCE.DSCP)
			}
			if a.Priority < 0 || a.Priority > 7 {
				return fmt.Errorf("application %q uses priority %d; 802.1p priorities are 0-7", a.Kind, a.Priority)
			}
			apps[a.Kind], dscp[a.Kind] = a, n.RoCE.DSCP
		}
	}
	kinds := make([]string, 0, len(apps))
	for k := range apps {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var overTCP []string
	for _, k := range kinds {
		pol, ok, err := appPolicy(apps[k])
		if err != nil {
			return err
		}
		if apps[k].OverTCP() {
			pol = tcpAppPolicy(f, h, roce, apps[k], dscp[k])
			overTCP = append(overTCP, pol.name)
		}
		if ok {
			pol.from = from[k]
			p.policies = append(p.policies, pol)
		}
		if disc, ok := nvmeDiscoveryPolicy(f, h, roce, apps[k], dscp[k]); ok {
			disc.from = from[k]
			overTCP = append(overTCP, disc.name)
			p.policies = append(p.policies, disc)
		}
	}
	if h.Cluster != nil {
		pol, err := clusterPolicy(h, roce)
		if err != nil {
			return err
		}
		p.policies = append(p.policies, pol)
	}
	for _, pol := range defaultPolicies(h, roce, def, overTCP) {
		pol.from = []targets.Element{targets.Path("qos", "class", def.Name)}
		if pol.name == "DEFAULT" {
			pol.from = nicElements(h, "priority")
		}
		p.policies = append(p.policies, pol)
	}
	return nil
}

// appPolicy returns the NetworkDirect policy of one application. RDMA
// traffic is generated by the NIC, not the IP stack, so only
// -NetDirectPortMatchCondition classifies it ("Except for
// NetDirectPortMatchCondition, the QoS powershell CmdLet for
// NetworkDirect traffic does not support port range", WinOF User Manual 5.50 §7.3);
// -IPDstPortMatchCondition would match the TCP form of the protocol
// instead. An application without a port (MPI) has no policy: its
// NetworkDirect traffic falls to the DEFAULT policy (WinOF User Manual 5.50 §7.4).
func appPolicy(a model.Application) (policy, bool, error) {
	name, ok := appPolicyNames[a.Kind]
	if !ok {
		return policy{}, false, fmt.Errorf("application %q is not known to the Windows target; it knows smb-direct, iser, nvme-of, nfs-rdma, mpi, nvme-tcp and iscsi", a.Kind)
	}
	if a.Port == 0 {
		return policy{}, false, nil
	}
	if a.Port < 1 || a.Port > 65535 {
		return policy{}, false, fmt.Errorf("application %q has port %d; ports are 1-65535", a.Kind, a.Port)
	}
	return policy{
		name: name,
		why:  fmt.Sprintf("%s: NetworkDirect (RDMA) traffic on port %d is tagged with the RoCE priority %d, which is kept lossless on every hop.", a.Kind, a.Port, a.Priority),
		args: []string{"-NetDirectPortMatchCondition", fmt.Sprint(a.Port), "-PriorityValue8021Action", fmt.Sprint(a.Priority)},
		want: []field{{"NetDirectPortMatchCondition", fmt.Sprint(a.Port)}, {"PriorityValue8021Action", fmt.Sprint(a.Priority)}},
	}, true, nil
}

// tcpAppPolicy returns the policy of an application over TCP (nvme-tcp,
// iscsi), which appPolicy has checked: its TCP port tagged with the
// priority of the NIC's class, and marked with that class's DSCP where
// the peers trust DSCP, as defaultPolicies marks TCP. iSCSI takes the
// built-in -iSCSI filter, TCP port 3260; NVMe/TCP, which has none, takes
// -IPPortMatchCondition, which matches the port at either end ("it can be
// either source port or destination port", New-NetQosPolicy), so an
// initiator's requests and a target's replies alike. Get-NetQosPolicy
// shows the -IPPortMatchCondition policy as IPProtocol and IPPort
// (New-NetQosPolicy, Example 4), and a template policy as the template
// alone (Examples 1 and 5, SMB and Default), which is what -Check expects
// of -iSCSI; no public capture shows a -iSCSI policy read back, so -Check
// also takes IPProtocol TCP and IPPort 3260 for it (Get-ReadBackForm,
// $script:TemplatePorts). Either is more specific than the
// TCP policy, which matches the protocol alone, and Windows applies the
// more specific of two policies that match ("If multiple policies apply,
// the more specific QoS policy takes precedence", Microsoft, QoS Policy
// Frequently Asked Questions), so the TCP policy does not take the
// storage traffic back to the default class.
func tcpAppPolicy(f *model.Fabric, h *model.Host, roce model.RoCE, a model.Application, dscp int) policy {
	return tcpPortPolicy(h, roce, appPolicyNames[a.Kind], fmt.Sprintf("%s: TCP on port %d goes to the NIC's class%s, priority %d.", a.Kind, a.Port, classText(f, a.Priority), a.Priority), a, dscp)
}

// tcpPortPolicy is the policy called name of a.Port over TCP, as
// tcpAppPolicy describes it; lead opens its explanation.
func tcpPortPolicy(h *model.Host, roce model.RoCE, name, lead string, a model.Application, dscp int) policy {
	prio := fmt.Sprint(a.Priority)
	pol := policy{
		name: name,
		why:  lead + " The policy is more specific than the TCP policy below, and Windows applies the more specific of two policies that match (Microsoft, QoS Policy Frequently Asked Questions).",
	}
	if a.Kind == model.AppISCSI {
		pol.args = []string{"-iSCSI", "-PriorityValue8021Action", prio}
		pol.want = []field{{"TemplateMatchCondition", "iSCSI"}, {"PriorityValue8021Action", prio}}
	} else {
		port := fmt.Sprint(a.Port)
		pol.args = []string{"-IPPortMatchCondition", port, "-IPProtocolMatchCondition", "TCP", "-PriorityValue8021Action", prio}
		pol.want = []field{{"IPProtocolMatchCondition", "TCP"}, {"IPPortMatchCondition", port}, {"PriorityValue8021Action", prio}}
	}
	pol.markDSCP(h, roce, dscp)
	return pol
}

// nvmeDiscoveryPolicyName names the policy of the NVMe/TCP discovery
// port.
const nvmeDiscoveryPolicyName = "NVMe-TCP-Discovery"

// nvmeDiscoveryPolicy returns, for the nvme-tcp application, the policy
// of the NVMe/TCP discovery controller's port (targets.
// NVMeTCPDiscoveryPort, IANA nvme-disc 8009/tcp), in the class of the
// application's I/O port: a host discovers the subsystems there before it
// connects to them, and keeps its discovery connection for change
// notifications. ok is false for other applications, and where the
// application's own port is the discovery port.
func nvmeDiscoveryPolicy(f *model.Fabric, h *model.Host, roce model.RoCE, a model.Application, dscp int) (policy, bool) {
	if a.Kind != model.AppNVMeTCP || a.Port == targets.NVMeTCPDiscoveryPort {
		return policy{}, false
	}
	disc := a
	disc.Port = targets.NVMeTCPDiscoveryPort
	lead := fmt.Sprintf("%s: TCP on port %d, the NVMe/TCP discovery controller's (IANA nvme-disc; the port nvme discover uses by default, libnvme NVME_DISC_IP_PORT), where hosts find the subsystems of port %d, goes to the same class%s, priority %d.",
		a.Kind, disc.Port, a.Port, classText(f, a.Priority), a.Priority)
	return tcpPortPolicy(h, roce, nvmeDiscoveryPolicyName, lead, disc, dscp), true
}

// andList joins words as a sentence lists them: "a", "a and b", "a, b
// and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// classText is ` "NAME"`, the class of priority p, or "" when no class
// holds it.
func classText(f *model.Fabric, p int) string {
	if c := f.QoS.ClassOfPriority(p); c != nil {
		return fmt.Sprintf(" %q", c.Name)
	}
	return ""
}

// clusterPolicyName names the failover cluster's policy as Microsoft's
// S2D guidance and Network ATC name it ("Cluster").
const clusterPolicyName = "Cluster"

// clusterPolicy returns the failover cluster's policy: the ByCluster
// parameter set of New-NetQosPolicy (-Cluster, template Cluster, the
// cluster's port 3343; Microsoft, New-NetQosPolicy) with the priority of
// the host's cluster class, and its DSCP mark where the peers trust DSCP,
// as defaultPolicies marks TCP and UDP. The class must stay off the
// lossless priorities: a heartbeat paused behind storage traffic comes
// late and the node is evicted.
func clusterPolicy(h *model.Host, roce model.RoCE) (policy, error) {
	c := h.Cluster
	if c.Priority < 0 || c.Priority > 7 {
		return policy{}, fmt.Errorf("cluster class %q uses priority %d; 802.1p priorities are 0-7", c.Class, c.Priority)
	}
	if c.MarkDSCP < 0 || c.MarkDSCP > 63 {
		return policy{}, fmt.Errorf("cluster class %q marks DSCP %d; DSCP values are 0-63", c.Class, c.MarkDSCP)
	}
	if c.Priority == roce.Priority || slices.Contains(roce.PFCPriorities, c.Priority) {
		return policy{}, fmt.Errorf("cluster class %q is on priority %d, which is the RoCE priority or has PFC on this host; a heartbeat must ride a lossy priority (Microsoft, \"Host network requirements for Azure Stack HCI\", Cluster traffic class: PFC enabled: No)", c.Class, c.Priority)
	}
	pol := policy{
		name: clusterPolicyName,
		why:  fmt.Sprintf("the failover cluster's own traffic (-Cluster: its heartbeats, port 3343) goes to the lossy class %q, priority %d, whose ETS share keeps heartbeats from being starved by storage traffic and which PFC never pauses (Microsoft, \"Host network requirements for Azure Stack HCI\", Cluster traffic class: PFC enabled No, priority 7, 1-2 %% of the bandwidth).", c.Class, c.Priority),
		args: []string{"-Cluster", "-PriorityValue8021Action", fmt.Sprint(c.Priority)},
		want: []field{{"TemplateMatchCondition", "Cluster"}, {"PriorityValue8021Action", fmt.Sprint(c.Priority)}},
		from: []targets.Element{targets.Path("host", h.Name, "cluster_class"), targets.Path("qos", "class", c.Class)},
	}
	pol.markDSCP(h, roce, c.MarkDSCP)
	return pol, nil
}

// markDSCP adds the DSCP mark of the policy's class where the host's link
// peers trust DSCP (roce.Trust), and says so in its why.
func (pol *policy) markDSCP(h *model.Host, roce model.RoCE, mark int) {
	if roce.Trust != model.TrustDSCP && roce.Trust != model.TrustBoth {
		return
	}
	peers, many := peerNames(h.NICs)
	pol.why += fmt.Sprintf(" %s %s DSCP, so it is also marked DSCP %d, the class's mark.", capital(peers), verb(many, "trusts", "trust"), mark)
	pol.args = append(pol.args, "-DSCPAction", fmt.Sprint(mark))
	pol.want = append(pol.want, field{"DSCPAction", fmt.Sprint(mark)})
}

// defaultPolicies returns DEFAULT, TCP and UDP. Where the fabric trusts
// DSCP, TCP and UDP also get the default class's DSCP mark, because that
// is what the host's link peers (switch ports, or peer NICs on a
// back-to-back link) classify by. overTCP names the policies of the
// applications over TCP, which the TCP policy's comment says it leaves
// alone.
func defaultPolicies(h *model.Host, roce model.RoCE, def model.Class, overTCP []string) []policy {
	dflt := policy{
		name: "DEFAULT",
		why:  fmt.Sprintf("everything no other policy matches, which includes NetworkDirect traffic on ports without a policy (MPI), goes on the RoCE priority %d as in every Mellanox and Demartek procedure (\"this prio should be lossless all the way in the switches\", WinOF User Manual 5.50 §7.4).", roce.Priority),
		args: []string{"-Default", "-PriorityValue8021Action", fmt.Sprint(roce.Priority)},
		want: []field{{"TemplateMatchCondition", "Default"}, {"PriorityValue8021Action", fmt.Sprint(roce.Priority)}},
	}
	out := []policy{dflt}
	for _, proto := range []string{"TCP", "UDP"} {
		pol := policy{
			name: proto,
			why:  fmt.Sprintf("%s from the IP stack goes to the lossy class %q, priority %d (\"Direct ALL TCP/UDP traffic to a lossy priority\", WinOF User Manual 5.50 §7.4; the Demartek RoCE Deployment Guide uses priority 0).", proto, def.Name, def.Priority),
			args: []string{"-IPProtocolMatchCondition", proto, "-PriorityValue8021Action", fmt.Sprint(def.Priority)},
			want: []field{{"IPProtocolMatchCondition", proto}, {"PriorityValue8021Action", fmt.Sprint(def.Priority)}},
		}
		if proto == "TCP" && len(overTCP) > 0 {
			many := len(overTCP) > 1
			pol.why += fmt.Sprintf(" The more specific %s %s above %s.", andList(overTCP), verb(many, "policy", "policies"), verb(many, "keeps its port in its class", "keep their ports in their classes"))
		}
		pol.markDSCP(h, roce, def.MarkDSCP)
		out = append(out, pol)
	}
	return out
}

// buildClasses turns the model classes other than the default one into
// Windows traffic classes, and checks that [Default] ends up with the
// default class's share and that every NIC's ETS agrees with the classes
// (Windows traffic classes are host-wide).
func (p *plan) buildClasses(f *model.Fabric, h *model.Host, def model.Class) error {
	used := 0
	for _, c := range f.QoS.Classes {
		if c.TrafficClass == def.TrafficClass {
			continue
		}
		if len(c.Priorities) == 0 {
			return fmt.Errorf("class %q has no priorities; a Windows traffic class needs at least one", c.Name)
		}
		tc := trafficClass{name: c.Name, priorities: c.Priorities, strict: c.ETS.Mode == model.ETSStrict}
		if !tc.strict {
			if c.ETS.BandwidthPercent < 1 || c.ETS.BandwidthPercent > 99 {
				return fmt.Errorf("class %q has ETS bandwidth %d%%; a Windows ETS traffic class takes 1-99%% (the rest stays with [Default])", c.Name, c.ETS.BandwidthPercent)
			}
			tc.bandwidth = c.ETS.BandwidthPercent
			used += tc.bandwidth
		}
		p.classes = append(p.classes, tc)
	}
	if 100-used != def.ETS.BandwidthPercent {
		return fmt.Errorf("class %q (Windows [Default]) has ETS bandwidth %d%%, but Windows gives [Default] what the other classes leave, %d%%; make the ETS shares sum to 100", def.Name, def.ETS.BandwidthPercent, 100-used)
	}
	return checkNICETS(f, h)
}

// checkNICETS requires each NIC's per-TC ETS to match the classes.
func checkNICETS(f *model.Fabric, h *model.Host) error {
	for _, n := range h.NICs {
		if len(n.RoCE.ETS) == 0 {
			continue
		}
		for _, c := range f.QoS.Classes {
			if c.TrafficClass >= len(n.RoCE.ETS) {
				return fmt.Errorf("nic %q has ETS for %d traffic classes but class %q is traffic class %d", n.Name, len(n.RoCE.ETS), c.Name, c.TrafficClass)
			}
			if got := n.RoCE.ETS[c.TrafficClass]; got != c.ETS {
				return fmt.Errorf("nic %q has ETS %s %d%% on traffic class %d, but class %q has %s %d%%; Windows traffic classes are host-wide, so the NIC must follow the classes",
					n.Name, got.Mode, got.BandwidthPercent, c.TrafficClass, c.Name, c.ETS.Mode, c.ETS.BandwidthPercent)
			}
		}
	}
	return nil
}

// buildDrivers collects the driver-wide RoCE mode of each Mellanox driver
// on the host ("RoCE mode is configured per-driver and is enforced on all
// the devices in the system", WinOF-2 User Manual 1.21 §3.1.3.6, WinOF User Manual 5.50 §4.1.4.4.4).
func (p *plan) buildDrivers(h *model.Host) error {
	byDriver := map[string]*driverSetting{}
	var order []string
	for _, n := range h.NICs {
		if n.Transport != model.TransportRoCE {
			continue
		}
		if n.RoCE.Mode != "v1" && n.RoCE.Mode != "v2" {
			return fmt.Errorf("nic %q has RoCE mode %q; write \"v1\" or \"v2\"", n.Name, n.RoCE.Mode)
		}
		if n.Driver == DriverQLogic {
			continue // per adapter: the "RoCE Mode" advanced property
		}
		d, ok := byDriver[n.Driver]
		if !ok {
			d = &driverSetting{driver: n.Driver, mode: n.RoCE.Mode, port: n.RoCE.UDPPort}
			byDriver[n.Driver] = d
			order = append(order, n.Driver)
		}
		if d.mode != n.RoCE.Mode || d.port != n.RoCE.UDPPort {
			return fmt.Errorf("nics on driver %s ask RoCE %s port %d and RoCE %s port %d; the RoCE mode is per driver on Windows (WinOF-2 User Manual 1.21 §3.1.3.6), so they must agree", n.Driver, d.mode, d.port, n.RoCE.Mode, n.RoCE.UDPPort)
		}
		if n.RoCE.Mode == "v2" && (n.RoCE.UDPPort < 1 || n.RoCE.UDPPort > 65535) {
			return fmt.Errorf("nic %q has RoCEv2 UDP port %d; roce_udp_dport takes 1-65535 (WinOF User Manual 5.50 §4.6.9.2)", n.Name, n.RoCE.UDPPort)
		}
		d.nics = append(d.nics, n.Interface)
		d.names = append(d.names, n.Name)
	}
	sort.Strings(order)
	for _, k := range order {
		p.drivers = append(p.drivers, *byDriver[k])
	}
	return nil
}

// dcqcnNote says that DCQCN per priority and the CNP marking are left to
// the user, and for a WinOF-2 host (ConnectX-4 and later, the adapters
// NVIDIA's DCQCN parameter page covers) names the settings NVIDIA
// documents for them: the registry keys DcQcnEnablePrio0..7 (NVIDIA
// "DCQCN CC Parameters", General table, WinOF column; 1 on, 0 off), which
// like every adapter key live under the adapter's class key and take
// effect when the adapter restarts (WinOF-2 User Manual, "Configuring the
// Driver Registry Keys"), and the firmware's CNP_DSCP_P1 and
// CNP_802P_PRIO_P1 (NVIDIA Firmware Tools (MFT) User Manual, mlxconfig).
// The script does not write them: the manuals it follows (WinOF 5.50,
// WinOF-2 1.21) give neither the keys' value type nor a way to read the
// value the driver uses back for -Check.
func dcqcnNote(h *model.Host, r model.RoCE) note {
	nt := note{from: append(nicElements(h, "cnp_priority"), nicElements(h, "cnp_dscp")...)}
	wants := fmt.Sprintf("DCQCN on %s and CNP priority %d / DSCP %d are not set or checked by this script", priorityWords(r.ECNPriorities), r.CNPPriority, r.CNPDSCP)
	firmware := targets.FirmwareDCQCN
	if !hasWinOF2(h) {
		nt.comment = []string{"DCQCN (ECN reaction and notification point) and the CNP priority/DSCP are not set here:", "the adapter's vendor tools set them."}
		nt.message = "fabricc: " + wants + "; set them with the adapter vendor's tools. " + firmware
		return nt
	}
	nt.comment = []string{
		"DCQCN (ECN reaction and notification point) and the CNP priority/DSCP are not set here.",
		"NVIDIA documents DCQCN per priority as the adapter registry keys DcQcnEnablePrio0 to",
		"DcQcnEnablePrio7 (NVIDIA DCQCN CC Parameters, General, WinOF column), taken when the",
		"adapter restarts (WinOF-2 User Manual, Configuring the Driver Registry Keys), and the CNP",
		"marking as the firmware's CNP_DSCP_P1 and CNP_802P_PRIO_P1 (NVIDIA MFT User Manual, mlxconfig).",
		"The manuals this script follows give no value type or read-back for those keys, so -Check",
		"could not show what the driver uses; the user sets them by hand.",
	}
	nt.message = fmt.Sprintf("fabricc: %s. Set them by hand: %s. %s", wants, targets.WinOF2DCQCNByHand(r.CNPDSCP, r.CNPPriority), firmware)
	return nt
}

// hasWinOF2 is true when one of the host's NICs runs WinOF-2.
func hasWinOF2(h *model.Host) bool {
	for _, n := range h.NICs {
		if n.Driver == DriverWinOF2 {
			return true
		}
	}
	return false
}

// limits lists what the model asks that this script does not set (no
// documented Windows setting of these drivers, or none it can read back),
// so the script says so instead of pretending.
func limits(h *model.Host) []note {
	r := h.NICs[0].RoCE
	var out []note
	if len(r.ECNPriorities) > 0 || r.CNPPriority != 0 || r.CNPDSCP != 0 {
		out = append(out, dcqcnNote(h, r))
	}
	var winof2 []model.NIC
	var dscp []targets.Element
	for _, n := range h.NICs {
		if n.Transport == model.TransportRoCE && n.RoCE.Mode == "v2" && n.Driver == DriverWinOF2 {
			winof2 = append(winof2, n)
			dscp = append(dscp, targets.Path("host", h.Name, "nic", n.Name, "dscp"))
		}
	}
	if len(winof2) > 0 {
		nt := winof2DSCPNote(winof2, r)
		nt.from = dscp
		out = append(out, nt)
	}
	for _, n := range h.NICs {
		if n.Driver == DriverQLogic {
			nt := qlogicNote(n)
			nt.from = []targets.Element{targets.Path("host", h.Name, "nic", n.Name, "model"), targets.Path("host", h.Name, "nic", n.Name, "priority")}
			out = append(out, nt)
		}
		if n.Transport == model.TransportIWARP {
			out = append(out, note{
				from:    []targets.Element{targets.Path("host", h.Name, "nic", n.Name, "transport")},
				comment: []string{"iWARP runs RDMA over TCP and needs no PFC; the adapter's NetworkDirect technology is chosen in its advanced properties."},
				message: fmt.Sprintf("fabricc: adapter '%s' runs iWARP: check its NetworkDirect technology property shows iWARP; this script does not set it.", n.Interface),
			})
		}
	}
	return out
}

// winof2DSCPNote explains that the RoCE DSCP of a WinOF-2 adapter is not
// set: the DSCP mapping keys are documented for WinOF only. What RoCE
// leaves with instead is the driver's own DSCP; where the switch port
// trusts DSCP the compiler warns (windows-roce-dscp-not-settable). The
// note names the NICs' peers: a switch port, or on a back-to-back link the
// peer NIC, which classifies the RoCE in the switch's place.
func winof2DSCPNote(nics []model.NIC, r model.RoCE) note {
	adapters := make([]string, len(nics))
	for i, n := range nics {
		adapters[i] = n.Interface
	}
	peers, many := peerNames(nics)
	trust := fmt.Sprintf("%s %s this host's RoCE by DSCP, so it may not land in the lossless class.", capital(peers), verb(many, "classifies", "classify"))
	if r.Trust == model.TrustPCP {
		trust = fmt.Sprintf("%s %s PCP, the 802.1p priority %d this script sets, so the DSCP does not classify this host's RoCE there.", capital(peers), verb(many, "trusts", "trust"), r.Priority)
	}
	return note{
		comment: []string{
			"The DSCP of RDMA packets is set from the priority through the adapter's",
			"PriorityToDscpMappingTable_<priority> key, documented for WinOF (ConnectX-3,",
			"WinOF User Manual 5.50 §4.1.11.7) but not in the WinOF-2 User Manual 1.21;",
			"it is not set here, and RoCE leaves with the driver's own DSCP.",
		},
		message: fmt.Sprintf("fabricc: the RoCE DSCP %d of the WinOF-2 adapter(s) %s is not set by this script (the WinOF-2 User Manual Rev 1.21 this script follows documents no key; a later one may): RoCE leaves with the driver's own DSCP. %s", r.DSCP, "'"+strings.Join(adapters, "', '")+"'", trust),
	}
}

// priorityWords is "priority 3" or "priorities 3,4" (commas), "no priority"
// for none.
func priorityWords(ps []int) string {
	switch len(ps) {
	case 0:
		return "no priority"
	case 1:
		return fmt.Sprintf("priority %d", ps[0])
	case 8:
		return "every priority"
	}
	return "priorities " + commas(ps)
}

// qlogicNote prints the UEFI HII steps of the Demartek RoCE Deployment
// Guide (QLogic sections) for a QLogic NIC,
// whose RoCE priority and DCBX mode the OS cannot set.
func qlogicNote(n model.NIC) note {
	return note{
		comment: []string{
			"QLogic FastLinQ: \"the DCBX and priority number are selected in the UEFI HII interface\"",
			"(Demartek RoCE Deployment Guide, QLogic). System Setup > Device Settings > the port > Device Level Configuration:",
			fmt.Sprintf("DCBX protocol Dynamic, RoCE Priority %d.", n.RoCE.Priority),
		},
		message: fmt.Sprintf("fabricc: adapter '%s' (%s) takes its RoCE priority from UEFI, not Windows: reboot into System Setup (F2 on Dell) > Device Settings > this port > Device Level Configuration, set DCBX protocol to Dynamic and RoCE Priority to %d (Demartek RoCE Deployment Guide, QLogic).", n.Interface, n.Model, n.RoCE.Priority),
	}
}

// commas joins numbers with commas, the list form the NetQos cmdlets take
// (-Priority 0,1,2) and print.
func commas(xs []int) string { return targets.JoinInts(xs, ",") }

// nicElements are the elements of attribute attr of every NIC of h.
func nicElements(h *model.Host, attr string) []targets.Element {
	out := make([]targets.Element, len(h.NICs))
	for i, n := range h.NICs {
		out[i] = targets.Path("host", h.Name, "nic", n.Name, attr)
	}
	return out
}

// others returns the priorities 0-7 not in xs, ascending.
func others(xs []int) []int {
	in := map[int]bool{}
	for _, x := range xs {
		in[x] = true
	}
	var out []int
	for p := 0; p < 8; p++ {
		if !in[p] {
			out = append(out, p)
		}
	}
	return out
}
