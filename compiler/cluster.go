package compiler

import (
	"fmt"
	"slices"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// clusterGuidance is Microsoft's cluster traffic class, which the
// heartbeat class of a Windows host follows: "PFC enabled: No",
// "Recommended traffic priority: Priority 7", a bandwidth reservation of
// 2 % on 10 GbE or lower and 1 % on 25 GbE or higher (Microsoft, "Host
// network requirements for Azure Stack HCI", RDMA traffic considerations,
// Cluster traffic class; Network ATC makes the same: "Deploy host
// networking with Network ATC", Default Data Center Bridging (DCB)
// configuration).
const clusterGuidance = `Microsoft's cluster traffic class has PFC disabled, priority 7 and a 1-2 % ETS share (Microsoft, "Host network requirements for Azure Stack HCI", RDMA traffic considerations: Cluster traffic class)`

// hostCluster lowers cluster_class, the class a Windows failover
// cluster's heartbeat rides in, into out.Cluster once the host's NICs are
// lowered: the class must exist, be lossy and carry no RoCE of the host,
// and the host must run Windows (the setting is its New-NetQosPolicy
// -Cluster policy). osOK is whether the host's os is one fabricc
// renders (lowerHost reports it otherwise).
func (l *lowering) hostCluster(h *dsl.Host, out *model.Host, osOK bool) {
	if h.ClusterClass == nil {
		return
	}
	name, at := *h.ClusterClass, h.ClusterClassRange.Or(h.DefRange)
	if !osOK {
		return // the unknown os is the error
	}
	if out.OS != model.OSWindows {
		l.errorf(at, "Cluster class on a host that is not Windows",
			"host %q runs %s, but cluster_class is a Windows failover cluster setting: it becomes the host's New-NetQosPolicy -Cluster policy, which only the Windows script writes. Remove cluster_class from host %q.", h.Name, out.OS, h.Name)
		return
	}
	c := l.namedClass(name, at, fmt.Sprintf("host %q", h.Name), "puts its failover cluster's heartbeat in class")
	if c == nil {
		return
	}
	if why := l.clusterLossless(c, out); why != "" {
		l.errorf(at, "Cluster heartbeat in a lossless class",
			"host %q puts its failover cluster's heartbeat in class %q, which %s. A heartbeat must not share PFC PAUSE with storage traffic: paused behind a congested lossless queue it arrives late and the node is evicted; %s. Declare a lossy class for it (priority 7, bandwidth 1 or 2, no lossless) and name that class in cluster_class.",
			h.Name, name, why, clusterGuidance)
		return
	}
	out.Cluster = &model.ClusterTraffic{Class: c.Name, Priority: c.Priority, MarkDSCP: c.MarkDSCP}
}

// clusterLossless says why class c cannot carry host h's cluster
// heartbeat ("" when it can): it is lossless, it is the RoCE class or a
// NIC's class, or a NIC of the host has PFC on its priority.
func (l *lowering) clusterLossless(c *model.Class, h *model.Host) string {
	switch {
	case c.Name == l.f.QoS.RoCEClass:
		return "is the RoCE class (qos roce_class)"
	case c.Lossless:
		return fmt.Sprintf("is lossless (PFC on priority %d)", c.Priority)
	}
	for _, n := range h.NICs {
		if n.RoCE.Priority == c.Priority {
			return fmt.Sprintf("is on priority %d, the RoCE priority of nic %q", c.Priority, n.Name)
		}
		if slices.Contains(n.RoCE.PFCPriorities, c.Priority) {
			return fmt.Sprintf("is on priority %d, on which nic %q has PFC", c.Priority, n.Name)
		}
	}
	return ""
}

// checkClusterShare warns where a cluster heartbeat class's share is below
// the 2 % Microsoft's cluster traffic class reserves on 10 GbE or lower
// (clusterGuidance) while a NIC of a host that puts its heartbeat there
// runs at 10 Gb/s or less: 1 % of 10 GbE is 100 Mb/s for heartbeats
// sharing the port with SMB Direct at line rate.
func (c *checker) checkClusterShare() {
	for _, cl := range c.f.QoS.Classes {
		if cl.ETS.Mode != model.ETSWRR || cl.ETS.BandwidthPercent >= 2 {
			continue
		}
		var slow []string
		host := ""
		for i := range c.f.Hosts {
			h := &c.f.Hosts[i]
			if h.Cluster == nil || h.Cluster.Class != cl.Name {
				continue
			}
			for _, n := range h.NICs {
				if n.SpeedMbps > 0 && n.SpeedMbps <= 10000 {
					slow = append(slow, fmt.Sprintf("%s:%s (%s)", h.Name, n.Name, speedText(n.SpeedMbps)))
					if host == "" {
						host = h.Name
					}
				}
			}
		}
		if len(slow) == 0 {
			continue
		}
		c.warnf("Cluster class share below 2 % on 10 GbE",
			fmt.Sprintf("class %q has bandwidth %d and carries the failover cluster heartbeat of hosts with NICs at 10 Gb/s or less: %s. %s: 2 %% on 10 GbE or lower, 1 %% on 25 GbE or higher. %d %% of 10 Gb/s is %d Mb/s for heartbeats that share the port with SMB Direct at line rate, and a heartbeat delayed under load gets the node evicted. Give class %q bandwidth = 2 (taking the point from another class's share), or accept this warning.",
				cl.Name, cl.ETS.BandwidthPercent, listText(slow), clusterGuidance, cl.ETS.BandwidthPercent, cl.ETS.BandwidthPercent*100, cl.Name),
			[]string{"qos", "class", cl.Name, "bandwidth"},
			rel(fmt.Sprintf("host %q puts its heartbeat in class %q", host, cl.Name), "host", host, "cluster_class"))
	}
}
