package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fabricc/fabricc/model"

	"github.com/fabricc/fabricc/internal/english"
)

// checkDeviceDefaults finds what a device would keep at its own default
// because no configuration it documents can change it: the Onyx DSCP map
// and the CNP marking of NICs without a CNP setting.
func (c *checker) checkDeviceDefaults() {
	c.checkOnyxDSCPMap()
	c.checkCNPMarking()
}

// checkOnyxDSCPMap: Onyx switches get no DSCP map (no public Onyx
// document gives the command's syntax), so a DSCP-trusting Onyx port
// classifies with Onyx's default map, DSCP 8n..8n+7 -> switch priority n
// (mellanox.onyx test fixture show_qos_interface_ethernet.cfg;
// att/netarbiter RoCE_Deployment.md). Every DSCP must then reach the class
// the fabric gives it; otherwise the fabric cannot be rendered for Onyx.
func (c *checker) checkOnyxDSCPMap() {
	if c.diags.HasErrors() {
		return // a broken class set would only give follow-on errors here
	}
	var switches []string
	var rels []related
	for _, sw := range c.f.Switches {
		if sw.Platform == model.PlatformOnyx && trustsDSCP(&sw) {
			switches = append(switches, sw.Name)
			rels = append(rels, rel("switch "+sw.Name+" runs Onyx", "switch", sw.Name, "platform"))
		}
	}
	if len(switches) == 0 {
		return
	}
	wrong, classes := onyxMismatches(c.f.QoS)
	if len(wrong) == 0 {
		return
	}
	c.errorf("DSCP map Onyx keeps at its default",
		fmt.Sprintf("Onyx switch %s classifies DSCP with Onyx's default map (DSCP 8n..8n+7 -> switch priority n; no public Onyx document gives the command that changes it), which differs from the fabric's: %s. Give each class the whole blocks of eight DSCP values of its priorities (a class on priority 3 takes DSCP 24-31), or trust PCP on those switches' ports.",
			listText(switches), strings.Join(wrong, "; ")),
		c.blamedDSCP(classes), rels...)
}

// blamedDSCP is where the error points among the classes involved: the
// first whose dscp is written (a class that takes the rest of the DSCP
// values has none), else the first class's dscp.
func (c *checker) blamedDSCP(classes []string) []string {
	for _, name := range classes {
		if at := []string{"qos", "class", name, "dscp"}; c.src.Has(at...) {
			return at
		}
	}
	return []string{"qos", "class", classes[0], "dscp"}
}

// trustsDSCP reports whether a switch has a port that classifies by DSCP.
func trustsDSCP(sw *model.Switch) bool {
	for _, p := range sw.Ports {
		if p.Trust == model.TrustDSCP || p.Trust == model.TrustBoth {
			return true
		}
	}
	return false
}

// onyxMismatches lists, per fabric class, the DSCP values Onyx's default
// map would put in another class, grouped by the class each lands in
// (marked lossless or strict, the classes where a value landing by
// mistake does harm) and written as ranges, and names the classes
// involved, each class before the classes its values would land in.
func onyxMismatches(q model.QoS) (wrong []string, classes []string) {
	owner := map[int]*model.Class{} // priority -> class
	for i := range q.Classes {
		for _, p := range q.Classes[i].Priorities {
			owner[p] = &q.Classes[i]
		}
	}
	for _, cl := range q.Classes {
		var lands []*model.Class // in the order first landed in
		bad := map[*model.Class][]int{}
		for _, d := range slices.Sorted(slices.Values(cl.DSCP)) {
			o := owner[d/8]
			if o == nil || o.Name == cl.Name {
				continue
			}
			if bad[o] == nil {
				lands = append(lands, o)
			}
			bad[o] = append(bad[o], d)
		}
		if len(lands) == 0 {
			continue
		}
		classes = append(classes, cl.Name)
		parts := make([]string, len(lands))
		for k, o := range lands {
			classes = append(classes, o.Name)
			parts[k] = fmt.Sprintf("%s in class %s%s", rangesText(bad[o]), o.Name, classRole(o))
		}
		parts[0] = fmt.Sprintf("DSCP %s of class %s would land in class %s%s", rangesText(bad[lands[0]]), cl.Name, lands[0].Name, classRole(lands[0]))
		wrong = append(wrong, strings.Join(parts, "; "))
	}
	return wrong, classes
}

// classRole marks a lossless or strict class: " (lossless)", " (strict)",
// " (lossless, strict)", or "".
func classRole(c *model.Class) string {
	var role []string
	if c.Lossless {
		role = append(role, "lossless")
	}
	if c.ETS.Mode == model.ETSStrict {
		role = append(role, "strict")
	}
	if len(role) == 0 {
		return ""
	}
	return " (" + strings.Join(role, ", ") + ")"
}

// rangesText writes ascending numbers with each run of three or more as
// a range: 8,9,11-15.
func rangesText(v []int) string { return strings.Join(english.Runs(v), ",") }

// cnpSettable reports whether fabricc's host output can set a NIC's CNP
// marking: MLNX_OFED's mlx5 sysfs ecn/roce_np/cnp_dscp and cnp_802p_prio
// (MLNX_OFED documentation, Explicit Congestion Notification), the inbox
// mlx5_ib debugfs cc_params np_cnp_dscp and np_cnp_prio (Linux
// drivers/infiniband/hw/mlx5/cong.c), FreeBSD mlx5ib's sysctl
// sys.class.infiniband.<dev>.cong.conf (mlx5_ib_cong.c). The Windows
// WinOF-2 User Manual, Rev 1.21, and WinOF User Manual, Rev 5.50, name no
// CNP setting; ConnectX-3 drivers (mlx4) have none.
func cnpSettable(h *model.Host, n *model.NIC) bool {
	if n.RunsMlx4() {
		return false
	}
	switch h.OS {
	case model.OSLinux:
		return n.Driver == "mlnx_ofed" || n.Driver == "inbox"
	case model.OSFreeBSD:
		return n.Driver == "mlx5en"
	}
	return false
}

// checkCNPMarking warns where a Mellanox NIC must mark its CNPs other than
// the firmware default and fabricc has no setting to say so: the NIC keeps
// sending CNPs with DSCP 48 and priority 6, into whatever class the
// fabric gives those.
func (c *checker) checkCNPMarking() {
	for i := range c.f.Hosts {
		h := &c.f.Hosts[i]
		for j := range h.NICs {
			n := &h.NICs[j]
			if !strings.EqualFold(n.Vendor, "mellanox") || n.Transport != model.TransportRoCE {
				continue
			}
			if n.RoCE.FirmwareCNP() || cnpSettable(h, n) {
				continue
			}
			why, fix, label := "", "give the fabric's cnp class DSCP 48 and priority 6", "the fabric's CNP class"
			if c.f.QoS.CNP() == nil {
				why = " (its written cnp_dscp and cnp_priority: the fabric has no CNP class)"
				fix = `add a class for CNPs with the firmware's marking and name it in qos, e.g. class "cnp" { priority = 6, dscp = [48], strict = true } and cnp_class = "cnp"`
				label = "the qos block, which names no cnp_class"
			}
			c.warnf("CNP marking not settable",
				fmt.Sprintf("NIC %s:%s (%s, driver %s on %s) must mark its congestion notification packets DSCP %d priority %d%s, but its driver has no setting fabricc can write, so it keeps the firmware default DSCP %d priority %d (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1). Set those two firmware values with mlxconfig (then reset the adapter), or %s.",
					h.Name, n.Name, n.Model, n.Driver, h.OS, n.RoCE.CNPDSCP, n.RoCE.CNPPriority, why, model.FirmwareCNPDSCP, model.FirmwareCNPPriority, fix),
				nicPath(h.Name, n.Name, "cnp_dscp"), rel(label, "qos", "cnp_class"))
		}
	}
}
