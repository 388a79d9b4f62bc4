package compiler

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

// clusterFabric is one Windows host on a Cumulus leaf with the
// nvidia-roce profile; CLASSES holds extra class blocks, HOST extra host
// attributes and NIC extra NIC attributes (OS the host's os, IFACE an
// interface name of that OS).
const clusterFabric = `
fabric "lab" {}
qos {
  profile = "nvidia-roce"
CLASSES
}
vlan "rdma" {
  id = 100
}
switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"
  port "swp1" {
    speed = "100G"
    vlans = [100]
  }
}
host "win1" {
  os = "OS"
HOST
  nic "a" {
    model     = "ConnectX-4"
    interface = "IFACE"
    vlan      = 100
NIC
  }
}
link {
  a      = "win1:a"
  b      = "leaf1:swp1"
  length = 3
}
`

// clusterClasses is Microsoft's cluster traffic class: priority 7, its
// own queue, 2 % (the default class gives it up), lossy, and the DSCP
// block 56-63 the switches map to priority 7.
const clusterClasses = `  class "default" {
    bandwidth = 48
  }
  class "cluster" {
    priority  = 7
    dscp      = [56, 57, 58, 59, 60, 61, 62, 63]
    bandwidth = 2
  }`

// clusterSrc fills clusterFabric.
func clusterSrc(os, classes, host, nic string) string {
	iface := "Ethernet 1"
	if os != "windows" {
		iface = "ens1f0"
	}
	return strings.NewReplacer("OS", os, "CLASSES", classes, "HOST", host, "NIC", nic, "IFACE", iface).Replace(clusterFabric)
}

// compileAll lowers src, applies the physics and runs the checks, and
// returns the model with every diagnostic.
func compileAll(t *testing.T, src string) (*model.Fabric, hcl.Diagnostics) {
	t.Helper()
	f, s, diags := lower(parseFabric(t, src))
	if diags.HasErrors() {
		t.Fatalf("lower: %v", diags)
	}
	diags = append(diags, applyPhysics(f, s)...)
	return f, append(diags, check(f, s)...)
}

// summaries lists the summaries of diags.
func summaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

// TestClusterClassLowered checks that a Windows host's cluster_class
// becomes model.Host.Cluster with the class's priority and DSCP mark, that
// the fabric validates with the same diagnostics as without the cluster
// class (no new warning), and that on the switch port facing the host the
// class's priority 7 is lossy: no PFC, in the lossy priority group, and
// in an egress queue of its own in a lossy pool.
func TestClusterClassLowered(t *testing.T) {
	_, base := compileAll(t, clusterSrc("windows", "", "", ""))
	f, diags := compileAll(t, clusterSrc("windows", clusterClasses, `  cluster_class = "cluster"`, ""))
	if got, want := summaries(diags), summaries(base); !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics with the cluster class: %q, without: %q", got, want)
	}
	if diags.HasErrors() {
		t.Fatalf("errors: %v", diags)
	}
	want := &model.ClusterTraffic{Class: "cluster", Priority: 7, MarkDSCP: 56}
	if got := f.Hosts[0].Cluster; !reflect.DeepEqual(got, want) {
		t.Errorf("host cluster = %+v, want %+v", got, want)
	}
	p := f.Switches[0].Ports[0]
	if p.Name != "swp1" || !slices.Equal(p.PFCPriorities, []int{3}) {
		t.Errorf("port %s PFC priorities %v, want swp1 with PFC on 3 only", p.Name, p.PFCPriorities)
	}
	for _, pg := range p.PriorityGroups {
		if slices.Contains(pg.Priorities, 7) && pg.Lossless {
			t.Errorf("priority 7 is in lossless priority group %d", pg.Index)
		}
	}
	var queue *model.EgressQueue
	for i := range p.EgressQueues {
		if p.EgressQueues[i].TrafficClass == 7 {
			queue = &p.EgressQueues[i]
		}
	}
	if queue == nil || queue.Pool != "lossy-default-egress" {
		t.Errorf("egress queue of traffic class 7 = %+v, want one in lossy-default-egress", queue)
	}
	if got := f.QoS.PriorityToTC[7]; got != 7 {
		t.Errorf("priority 7 goes to traffic class %d, want 7", got)
	}
}

// TestClusterClassErrors checks each mistake a cluster_class can hold,
// at the attribute, with what to do.
func TestClusterClassErrors(t *testing.T) {
	guidance := `Microsoft's cluster traffic class has PFC disabled, priority 7 and a 1-2 % ETS share (Microsoft, "Host network requirements for Azure Stack HCI", RDMA traffic considerations: Cluster traffic class). Declare a lossy class for it (priority 7, bandwidth 1 or 2, no lossless) and name that class in cluster_class.`
	lossless := ` A heartbeat must not share PFC PAUSE with storage traffic: paused behind a congested lossless queue it arrives late and the node is evicted; `
	for _, tc := range []struct {
		name, os, classes, host, nic string
		want                         []string
	}{
		{"not Windows", "linux", clusterClasses, `  cluster_class = "cluster"`, "", []string{
			`27:19: Cluster class on a host that is not Windows: host "win1" runs linux, but cluster_class is a Windows failover cluster setting: it becomes the host's New-NetQosPolicy -Cluster policy, which only the Windows script writes. Remove cluster_class from host "win1".`,
		}},
		{"unknown class", "windows", clusterClasses, `  cluster_class = "clustr"`, "", []string{
			`27:19: Unknown class: host "win1" puts its failover cluster's heartbeat in class "clustr", which the qos block does not declare; the classes are "default", "roce", "cnp" or "cluster". Did you mean "cluster"?`,
		}},
		{"RoCE class", "windows", "", `  cluster_class = "roce"`, "", []string{
			`20:19: Cluster heartbeat in a lossless class: host "win1" puts its failover cluster's heartbeat in class "roce", which is the RoCE class (qos roce_class).` + lossless + guidance,
		}},
		{"lossless class", "windows", "  roce_class = \"roce\"\n  class \"default\" {\n    bandwidth = 40\n  }\n  class \"bulk\" {\n    priority  = 4\n    dscp      = [32]\n    bandwidth = 10\n    lossless  = true\n    ecn {\n      min = \"150KB\"\n      max = \"1500KB\"\n      probability = 100\n    }\n  }", `  cluster_class = "bulk"`, "", []string{
			`34:19: Cluster heartbeat in a lossless class: host "win1" puts its failover cluster's heartbeat in class "bulk", which is lossless (PFC on priority 4).` + lossless + guidance,
		}},
		{"PFC on the NIC", "windows", clusterClasses, `  cluster_class = "cluster"`, "    pfc_priorities = [3, 7]", []string{
			`27:19: Cluster heartbeat in a lossless class: host "win1" puts its failover cluster's heartbeat in class "cluster", which is on priority 7, on which nic "a" has PFC.` + lossless + guidance,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, got := lowerSrc(t, clusterSrc(tc.os, tc.classes, tc.host, tc.nic))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}

// TestClusterShareOn10GbE: a cluster heartbeat class with a share below
// Microsoft's 2 % for 10 GbE or lower, on a host whose NIC runs at 10 Gb/s
// or less, is a warning at the class's bandwidth naming the NICs; 2 %, or
// a NIC at 25 Gb/s, is not.
func TestClusterShareOn10GbE(t *testing.T) {
	classes := func(share string) string {
		def := map[string]string{"1": "49", "2": "48"}[share]
		return strings.NewReplacer("bandwidth = 48", "bandwidth = "+def, "bandwidth = 2", "bandwidth = "+share).Replace(clusterClasses)
	}
	const want1 = `class "cluster" has bandwidth 1 and carries the failover cluster heartbeat of hosts with NICs at 10 Gb/s or less: win1:a (10G). Microsoft's cluster traffic class has PFC disabled, priority 7 and a 1-2 % ETS share (Microsoft, "Host network requirements for Azure Stack HCI", RDMA traffic considerations: Cluster traffic class): 2 % on 10 GbE or lower, 1 % on 25 GbE or higher. 1 % of 10 Gb/s is 100 Mb/s for heartbeats that share the port with SMB Direct at line rate, and a heartbeat delayed under load gets the node evicted. Give class "cluster" bandwidth = 2 (taking the point from another class's share), or accept this warning.`
	for _, tc := range []struct {
		name, share, speed string
		want               []string
	}{
		{"1 % at 10G", "1", "10G", []string{"11:17: Cluster class share below 2 % on 10 GbE: " + want1, `  note 27:19: host "win1" puts its heartbeat in class "cluster"`}},
		{"2 % at 10G", "2", "10G", nil},
		{"1 % at 25G", "1", "25G", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := clusterSrc("windows", classes(tc.share), `  cluster_class = "cluster"`, "")
			src = strings.Replace(strings.Replace(src, `model    = "SN2700"`, `model    = "SN2410"`, 1), `speed = "100G"`, `speed = "`+tc.speed+`"`, 1)
			_, diags := compileAll(t, src)
			var mine hcl.Diagnostics
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					t.Errorf("unexpected error: %s: %s", d.Summary, d.Detail)
				}
				if d.Summary == "Cluster class share below 2 % on 10 GbE" {
					mine = append(mine, d)
				}
			}
			if got := compactDiags(mine); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", joinLines(got), joinLines(tc.want))
			}
		})
	}
}
