package compiler

import (
	"fmt"
	"slices"

	"github.com/fabricc/fabricc/model"
)

// cnpClassFix is the CNP class every CNP warning proposes: NVIDIA's RoCE
// defaults put CNPs on switch priority 6, traffic class 6, strict
// priority, without PFC (NVIDIA Onyx User Manual, RoCE Commands, `show
// roce`: "6 6 CNP Strict"; NVIDIA Cumulus Linux User Guide, RDMA over
// Converged Ethernet - RoCE, "Default RoCE Mode Configuration"), and
// ConnectX firmware marks them DSCP 48, priority 6 (model.FirmwareCNPDSCP).
const cnpClassFix = `class "cnp" { priority = 6, dscp = [48], strict = true } named in cnp_class = "cnp" (the nvidia-roce profile's class "cnp" is that class)`

// cnpWhy is why CNPs need a queue of their own.
const cnpWhy = "DCQCN's congestion notification packets tell a sender to slow down, so they must reach it while the RoCE queue is congested"

// checkCNPClass checks where congestion notification packets go: with
// no CNP class, where the switches put the NICs' firmware marking
// (checkNoCNPClass); with one, that it is a queue of its own, lossy,
// strict priority and without ECN, as NVIDIA's RoCE defaults give it.
// Each is a warning: a fabric may have its reasons.
func (c *checker) checkCNPClass() {
	q := &c.f.QoS
	if len(q.Classes) == 0 {
		return // the class set failed; its errors say why
	}
	cnp := q.CNP()
	if cnp == nil {
		c.checkNoCNPClass()
		return
	}
	at := []string{"qos", "class", cnp.Name}
	if c.src.Has("qos", "cnp_class") {
		at = []string{"qos", "cnp_class"}
	}
	if why := sharedCNP(q, cnp); why != "" {
		c.warnf("CNP class not separate",
			fmt.Sprintf("Congestion notification packets ride class %q, which %s. %s, and NVIDIA's RoCE defaults give them a queue of their own. Give CNPs a class of their own, e.g. %s.", cnp.Name, why, cnpWhy, cnpClassFix),
			at)
		return // the class's other traits are the RoCE or default class's own
	}
	class := []string{"qos", "class", cnp.Name}
	if cnp.Lossless {
		c.warnf("CNP class lossless",
			fmt.Sprintf("Class %q carries congestion notification packets and is lossless, so PFC pauses it (priority %d) and CNPs wait behind a pause exactly when the senders must hear from them; NVIDIA's RoCE defaults keep PFC off the CNP priority. Remove lossless = true from class %q.", cnp.Name, cnp.Priority, cnp.Name),
			c.firstWritten(append(class, "lossless"), class))
	}
	if cnp.ETS.Mode != model.ETSStrict {
		c.warnf("CNP class not strict priority",
			fmt.Sprintf("Class %q carries congestion notification packets but is scheduled by WRR (bandwidth %d %%), so under load CNPs wait for their share behind the other queues. %s; NVIDIA's RoCE defaults serve the CNP class by strict priority. Write strict = true in class %q instead of bandwidth, and give its share to another class.", cnp.Name, cnp.ETS.BandwidthPercent, cnpWhy, cnp.Name),
			c.firstWritten(append(class, "bandwidth"), class))
	}
	if cnp.ECN != nil {
		c.warnf("CNP class marks ECN",
			fmt.Sprintf("Class %q carries congestion notification packets but has an ecn block. Nothing reacts to a CE mark on a CNP, so the marking is dead configuration at best, and a queue that drops the packets it would mark when they are not ECN-capable (RFC 3168, section 5) drops every CNP sent without ECT. Remove the ecn block from class %q.", cnp.Name, cnp.Name),
			c.firstWritten(append(class, "ecn"), class))
	}
}

// sharedCNP says why the CNP class is not a queue of CNPs' own, or "".
func sharedCNP(q *model.QoS, cnp *model.Class) string {
	switch {
	case cnp.Name == q.RoCEClass:
		return "is the RoCE class, where CNPs share the queue (lossless and paused by PFC) with the data whose rate they are meant to cut"
	case slices.Contains(cnp.Priorities, 0):
		return "holds priority 0, where all traffic that no policy marks lands, so CNPs queue behind bulk traffic"
	}
	return ""
}

// fitsCNP reports whether a class would pass every CNP class check: a
// queue of its own, lossy, strict priority, without ECN.
func fitsCNP(q *model.QoS, cl *model.Class) bool {
	return sharedCNP(q, cl) == "" && !cl.Lossless && cl.ETS.Mode == model.ETSStrict && cl.ECN == nil
}

// firstWritten is path when the source writes it, else fallback.
func (c *checker) firstWritten(path, fallback []string) []string {
	if c.src.Has(path...) {
		return path
	}
	return fallback
}

// checkNoCNPClass warns that a fabric without a CNP class leaves CNPs at
// the NICs' firmware marking (nicRoCE), and says where the switches put
// it: the class of DSCP 48 on DSCP-trusting ports, of priority 6 on
// PCP-trusting ones. A fabric whose hosts run no RoCE sends no CNPs.
func (c *checker) checkNoCNPClass() {
	if len(c.f.Hosts) > 0 && !c.anyRoCENIC() {
		return
	}
	q := &c.f.QoS
	where, lossless := cnpLanding(q)
	worse := ""
	if lossless != "" {
		worse = fmt.Sprintf(" Class %q is lossless: CNPs in it would wait behind the paused data whose rate they are meant to cut.", lossless)
	}
	fix := "give them a class of their own, e.g. " + cnpClassFix
	if cl := q.ClassOfDSCP(model.FirmwareCNPDSCP); cl != nil && fitsCNP(q, cl) {
		fix = fmt.Sprintf("class %q is fit for them: name it in cnp_class = %q", cl.Name, cl.Name)
	}
	c.warnf("No CNP class",
		fmt.Sprintf("The fabric has no CNP class (qos names no cnp_class and profile %q has none), so the host scripts leave each NIC's congestion notification packets at the ConnectX firmware marking, DSCP %d and priority %d (mlxconfig CNP_DSCP_P1, CNP_802P_PRIO_P1), and the switches put them %s.%s %s; %s.",
			"none", model.FirmwareCNPDSCP, model.FirmwareCNPPriority, where, worse, cnpWhy, fix),
		c.firstWritten([]string{"qos", "profile"}, []string{"qos"}))
}

// cnpLanding says where the switches put CNPs of the firmware marking,
// and names the lossless class that takes them, if one does.
func cnpLanding(q *model.QoS) (string, string) {
	byDSCP, byPCP := q.ClassOfDSCP(model.FirmwareCNPDSCP), q.ClassOfPriority(model.FirmwareCNPPriority)
	where := fmt.Sprintf("in %s on ports that trust DSCP", classTraits(byDSCP))
	if byPCP != byDSCP {
		where += fmt.Sprintf(" and in %s on ports that trust PCP", classTraits(byPCP))
	}
	for _, cl := range []*model.Class{byDSCP, byPCP} {
		if cl != nil && cl.Lossless {
			return where, cl.Name
		}
	}
	return where, ""
}

// classTraits is `class "other" (lossy, WRR 40 %)`.
func classTraits(cl *model.Class) string {
	if cl == nil {
		return "no class (none lists the value)"
	}
	kind := "lossy"
	if cl.Lossless {
		kind = "lossless"
	}
	sched := "strict priority"
	if cl.ETS.Mode != model.ETSStrict {
		sched = fmt.Sprintf("WRR %d %%", cl.ETS.BandwidthPercent)
	}
	return fmt.Sprintf("class %q (%s, %s)", cl.Name, kind, sched)
}

// anyRoCENIC reports whether some host NIC runs RoCE.
func (c *checker) anyRoCENIC() bool {
	for i := range c.f.Hosts {
		for _, n := range c.f.Hosts[i].NICs {
			if n.Transport == model.TransportRoCE {
				return true
			}
		}
	}
	return false
}
