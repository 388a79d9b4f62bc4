package compiler

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
)

// checkRanges checks the resolved numbers: ETS shares, DSCP ownership,
// and the ranges of priorities (0-7), traffic classes (0-7), DSCP values
// (0-63) and VLAN ids (1-4094). Lowering validates what was written; this
// protects the model against later changes and per-port overrides.
func (c *checker) checkRanges() {
	c.checkQoSRanges()
	c.checkETS()
	for _, v := range c.f.VLANs {
		c.vlanRange(v.ID, fmt.Sprintf("VLAN %q", v.Name), []string{"vlan", fmt.Sprint(v.ID)})
	}
	for _, sw := range c.f.Switches {
		for _, p := range sw.Ports {
			where := fmt.Sprintf("port %s:%s", sw.Name, p.Name)
			for _, q := range p.PFCPriorities {
				c.priorityRange(q, where+" PFC", portPath(sw.Name, p.Name, "pfc"))
			}
			for _, v := range append(append([]int{}, p.TrunkVLANs...), p.AccessVLAN, p.NativeVLAN) {
				if v != 0 {
					c.vlanRange(v, where, portPath(sw.Name, p.Name, "vlans"))
				}
			}
		}
	}
	for _, h := range c.f.Hosts {
		for _, n := range h.NICs {
			c.checkNICRanges(h.Name, n)
		}
	}
}

// checkQoSRanges checks the classes and the two maps.
func (c *checker) checkQoSRanges() {
	q := c.f.QoS
	owner := map[int]string{}
	for _, cl := range q.Classes {
		path := []string{"qos", "class", cl.Name}
		where := fmt.Sprintf("class %q", cl.Name)
		for _, p := range append([]int{cl.Priority}, cl.Priorities...) {
			c.priorityRange(p, where, append(path, "priority"))
		}
		if cl.TrafficClass < 0 || cl.TrafficClass > 7 {
			c.errorf("Traffic class out of range",
				fmt.Sprintf("%s uses traffic class %d; switches have egress queues 0-7.", where, cl.TrafficClass),
				append(path, "traffic_class"))
		}
		for _, d := range append([]int{cl.MarkDSCP}, cl.DSCP...) {
			c.dscpRange(d, where, append(path, "dscp"))
		}
		for _, d := range cl.DSCP {
			if first, ok := owner[d]; ok && first != cl.Name {
				c.errorf("DSCP in more than one class",
					fmt.Sprintf("DSCP %d is in class %q and in class %q; a DSCP value can select only one class. Remove it from one of them.", d, first, cl.Name),
					append(path, "dscp"), rel(fmt.Sprintf("class %s DSCP %d", first, d), "qos", "class", first, "dscp"))
				continue
			}
			owner[d] = cl.Name
		}
	}
	if len(q.DSCPToPriority) != 64 || len(q.PriorityToTC) != 8 {
		c.errorf("Incomplete QoS maps",
			fmt.Sprintf("The DSCP map has %d entries (want 64) and the priority map %d (want 8). This is an internal inconsistency: report it.", len(q.DSCPToPriority), len(q.PriorityToTC)),
			[]string{"qos"})
	}
	for d, p := range q.DSCPToPriority {
		c.priorityRange(p, fmt.Sprintf("the DSCP map (DSCP %d)", d), []string{"qos"})
	}
	for p, tc := range q.PriorityToTC {
		if tc < 0 || tc > 7 {
			c.errorf("Traffic class out of range", fmt.Sprintf("Priority %d maps to traffic class %d; switches have egress queues 0-7.", p, tc), []string{"qos"})
		}
	}
	for _, p := range q.PFCPriorities {
		c.priorityRange(p, "the PFC priorities", []string{"qos"})
	}
}

// checkNICRanges checks one NIC's priorities, DSCP values and VLAN.
func (c *checker) checkNICRanges(host string, n model.NIC) {
	where := fmt.Sprintf("NIC %s:%s", host, n.Name)
	r := n.RoCE
	c.priorityRange(r.Priority, where, nicPath(host, n.Name, "priority"))
	c.priorityRange(r.CNPPriority, where, nicPath(host, n.Name, "cnp_priority"))
	for _, p := range append(append([]int{}, r.PFCPriorities...), r.ECNPriorities...) {
		c.priorityRange(p, where, nicPath(host, n.Name, "pfc_priorities"))
	}
	c.dscpRange(r.DSCP, where, nicPath(host, n.Name, "dscp"))
	c.dscpRange(r.CNPDSCP, where, nicPath(host, n.Name, "cnp_dscp"))
	if n.VLAN != 0 {
		c.vlanRange(n.VLAN, where, nicPath(host, n.Name, "vlan"))
	}
}

// priorityRange, dscpRange and vlanRange report a value out of range.
func (c *checker) priorityRange(v int, where string, path []string) {
	if v < 0 || v > 7 {
		c.errorf("Priority out of range", fmt.Sprintf("%s uses priority %d; 802.1p priorities are 0-7.", where, v), path)
	}
}

// dscpRange reports a DSCP value outside 0-63.
func (c *checker) dscpRange(v int, where string, path []string) {
	if v < 0 || v > 63 {
		c.errorf("DSCP out of range", fmt.Sprintf("%s uses DSCP %d; DSCP values are 0-63.", where, v), path)
	}
}

// vlanRange reports a VLAN id outside 1-4094.
func (c *checker) vlanRange(v int, where string, path []string) {
	if v < 1 || v > 4094 {
		c.errorf("VLAN id out of range", fmt.Sprintf("%s uses VLAN %d; VLAN ids are 1-4094 (0 and 4095 are reserved).", where, v), path)
	}
}

// checkETS checks that the WRR shares of the classes, and of every NIC,
// sum to 100.
func (c *checker) checkETS() {
	sum, wrr := 0, false
	var rels []related
	for _, cl := range c.f.QoS.Classes {
		if cl.ETS.Mode == model.ETSWRR {
			sum += cl.ETS.BandwidthPercent
			wrr = true
			rels = append(rels, rel(fmt.Sprintf("class %s bandwidth %d", cl.Name, cl.ETS.BandwidthPercent), "qos", "class", cl.Name, "bandwidth"))
		}
	}
	if wrr && sum != 100 {
		c.errorf("ETS shares do not sum to 100",
			fmt.Sprintf("The WRR bandwidth shares of the classes sum to %d%%, which every port and NIC would get; they must sum to 100. Adjust the classes' bandwidth.", sum),
			[]string{"qos"}, rels...)
	}
	for _, h := range c.f.Hosts {
		for _, n := range h.NICs {
			sum, wrr := 0, false
			for _, e := range n.RoCE.ETS {
				if e.Mode == model.ETSWRR {
					sum += e.BandwidthPercent
					wrr = true
				}
			}
			if wrr && sum != 100 {
				c.errorf("ETS shares do not sum to 100",
					fmt.Sprintf("The WRR bandwidth shares of NIC %s:%s sum to %d%%; they must sum to 100.", h.Name, n.Name, sum),
					nicPath(h.Name, n.Name))
			}
		}
	}
}
