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
	for i := range c.f.Switches {
		sw := &c.f.Switches[i]
		for j := range sw.Ports {
			c.checkPortRanges(sw.Name, &sw.Ports[j])
		}
	}
	for i := range c.f.Hosts {
		h := &c.f.Hosts[i]
		for j := range h.NICs {
			c.checkNICRanges(h.Name, &h.NICs[j])
		}
	}
}

// checkPortRanges checks one port's PFC priorities and VLANs. Every
// port of a large fabric passes through here, so the error's words and
// path are made only for a value out of range.
func (c *checker) checkPortRanges(sw string, p *model.Port) {
	where := func() string { return fmt.Sprintf("port %s:%s", sw, p.Name) }
	for _, q := range p.PFCPriorities {
		if !priorityOK(q) {
			c.priorityRange(q, where()+" PFC", portPath(sw, p.Name, "pfc"))
		}
	}
	vlan := func(v int) {
		if v != 0 && !vlanOK(v) {
			c.vlanRange(v, where(), portPath(sw, p.Name, "vlans"))
		}
	}
	for _, v := range p.TrunkVLANs {
		vlan(v)
	}
	vlan(p.AccessVLAN)
	vlan(p.NativeVLAN)
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

// checkNICRanges checks one NIC's priorities, DSCP values and VLAN; as
// checkPortRanges, it makes an error's words only for a value out of
// range.
func (c *checker) checkNICRanges(host string, n *model.NIC) {
	where := func() string { return fmt.Sprintf("NIC %s:%s", host, n.Name) }
	priority := func(v int, attr string) {
		if !priorityOK(v) {
			c.priorityRange(v, where(), nicPath(host, n.Name, attr))
		}
	}
	dscp := func(v int, attr string) {
		if !dscpOK(v) {
			c.dscpRange(v, where(), nicPath(host, n.Name, attr))
		}
	}
	r := &n.RoCE
	priority(r.Priority, "priority")
	priority(r.CNPPriority, "cnp_priority")
	for _, p := range r.PFCPriorities {
		priority(p, "pfc_priorities")
	}
	for _, p := range r.ECNPriorities {
		priority(p, "pfc_priorities")
	}
	dscp(r.DSCP, "dscp")
	dscp(r.CNPDSCP, "cnp_dscp")
	if n.VLAN != 0 && !vlanOK(n.VLAN) {
		c.vlanRange(n.VLAN, where(), nicPath(host, n.Name, "vlan"))
	}
}

// priorityOK, dscpOK and vlanOK tell whether a value is in its range:
// 802.1p priorities 0-7, DSCP 0-63, VLAN ids 1-4094.
func priorityOK(v int) bool { return v >= 0 && v <= 7 }

func dscpOK(v int) bool { return v >= 0 && v <= 63 }

func vlanOK(v int) bool { return v >= 1 && v <= 4094 }

// priorityRange, dscpRange and vlanRange report a value out of range.
func (c *checker) priorityRange(v int, where string, path []string) {
	if !priorityOK(v) {
		c.errorf("Priority out of range", fmt.Sprintf("%s uses priority %d; 802.1p priorities are 0-7.", where, v), path)
	}
}

// dscpRange reports a DSCP value outside 0-63.
func (c *checker) dscpRange(v int, where string, path []string) {
	if !dscpOK(v) {
		c.errorf("DSCP out of range", fmt.Sprintf("%s uses DSCP %d; DSCP values are 0-63.", where, v), path)
	}
}

// vlanRange reports a VLAN id outside 1-4094.
func (c *checker) vlanRange(v int, where string, path []string) {
	if !vlanOK(v) {
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
