package openconfig

// Tests of what each leaf fabricc writes means, written from the YANG
// definitions in openconfig/public (github.com/openconfig/public, the
// release/models tree fabricc's oc package is generated from, checked at
// commit 94f589629e1e, 2026-07-21):
//
//   - release/models/interfaces/openconfig-interfaces.yang (mtu),
//   - release/models/interfaces/openconfig-if-ethernet.yang, revision
//     2026-06-22 (enable-flow-control, port-speed),
//   - release/models/vlan/openconfig-vlan.yang (switched-vlan),
//   - release/models/qos/openconfig-qos-elements.yang, revision 2026-04-30
//     (queues, forwarding groups, classifiers, schedulers),
//   - release/models/qos/openconfig-qos-mem-mgmt.yang, revision 2026-04-30
//     (queue-management-profiles),
//   - release/models/qos/openconfig-qos-interfaces.yang, revision
//     2026-04-30 (qos/interfaces),
//   - release/models/acl/openconfig-packet-match.yang, revision 2026-03-25
//     (classifier conditions).

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/openconfig/oc"
)

// build returns the validated tree of the named fixture switch.
func build(t *testing.T, f *model.Fabric, name string) *oc.Device {
	t.Helper()
	for i := range f.Switches {
		if f.Switches[i].Name == name {
			d, err := Build(f, &f.Switches[i])
			if err != nil {
				t.Fatalf("Build(%s): %v", name, err)
			}
			return d
		}
	}
	t.Fatalf("no switch %q in the fixture", name)
	return nil
}

// TestMTUIsFrameWithoutFCS checks the interface mtu against its YANG
// meaning. openconfig/public, release/models/interfaces/
// openconfig-interfaces.yang (openconfig-version 3.x, leaf mtu, type
// uint16): "Set the max transmission unit size in octets for the physical
// interface. If this is not set, the mtu is set to the operational default
// -- e.g., 1514 bytes on an Ethernet interface." 1514 is a 1500-byte IP
// MTU plus the 14-byte Ethernet header, without FCS; the
// openconfig/featureprofiles interface test (feature/interface/singleton)
// sets it to "the L3 MTU, i.e. the payload portion of an Ethernet frame" +
// 14. The model's port MTU is the platform's own number, the IP MTU on
// Onyx and Cumulus (Linux) alike (model.PortMTU), so each gets 14 added.
// EOS gets no mtu leaf: openconfig/featureprofiles deviation
// omit_l2_mtu, "Arista does not support setting L2 MTU, so only set L3
// MTU" (ocMTU).
func TestMTUIsFrameWithoutFCS(t *testing.T) {
	tests := []struct {
		sw, port string
		want     uint16
	}{
		{"leaf1", "Ethernet1/1", 0},   // EOS, IP MTU 9214: not written
		{"leaf1", "Ethernet32/1", 0},  // EOS, IP MTU 1500: not written
		{"spine1", "swp1", 9216 + 14}, // Cumulus, Linux MTU 9216
		{"leaf2", "1/1", 9216 + 14},   // Onyx, IP MTU 9216
	}
	f := testFabric()
	for _, tt := range tests {
		d := build(t, f, tt.sw)
		if got := val(d.GetInterface(tt.port).Mtu); got != tt.want {
			t.Errorf("%s %s: mtu %d, want %d", tt.sw, tt.port, got, tt.want)
		}
		json := string(render(t, f, tt.sw)[tt.sw+".openconfig.json"])
		if tt.want == 0 {
			for _, frame := range []string{`"mtu": 9228`, `"mtu": 1514`} {
				if strings.Contains(json, frame) {
					t.Errorf("%s.openconfig.json has %s; EOS takes no L2 mtu", tt.sw, frame)
				}
			}
			continue
		}
		if want := `"mtu": ` + itoa(int(tt.want)) + ","; !strings.Contains(json, want) {
			t.Errorf("%s.openconfig.json lacks %s", tt.sw, want)
		}
	}

	// uint16 bounds the frame, not the model's number: 65521 fits, as
	// 65535, but 65530 does not, as 65544 (Onyx).
	for _, i := range []int{1} {
		f = testFabric()
		sw := &f.Switches[i]
		sw.Ports[len(sw.Ports)-1].MTU = 65530
		if _, err := Render(f, sw); err == nil || !strings.Contains(err.Error(), "MTU 65530 is outside the OpenConfig range 0-65535 (uint16) as the frame size OpenConfig counts (65544)") {
			t.Errorf("%s MTU 65530: error %v, want the uint16 frame-size error", sw.Platform, err)
		}
		sw.Ports[len(sw.Ports)-1].MTU = 65521
		if _, err := Render(f, sw); err != nil {
			t.Errorf("%s MTU 65521: %v", sw.Platform, err)
		}
	}
}

// TestRoutedPortIsRouted: a routed port is routed in OpenConfig by IP on
// its subinterface 0 (openconfig/featureprofiles internal/attrs
// ConfigOCInterface: subinterface 0 ipv4 enabled), with the EOS port MTU
// as the IPv4 MTU (openconfig-if-ip.yang ipv4 leaf mtu: "The size, in
// octets, of the largest IPv4 packet that the interface will send and
// receive", what EOS's mtu sets on a routed port); switchports get none.
func TestRoutedPortIsRouted(t *testing.T) {
	tests := []struct {
		sw, port string
		routed   bool
		ipMTU    uint16
	}{
		{"leaf1", "Ethernet31/1", true, 9214},
		{"leaf1", "Ethernet1/1", false, 0},
		{"spine1", "swp1", true, 0},
		{"leaf2", "1/1", false, 0},
	}
	f := testFabric()
	for _, tt := range tests {
		i := build(t, f, tt.sw).GetInterface(tt.port)
		v4 := i.GetSubinterface(0).GetIpv4()
		if v4 == nil {
			v4 = &oc.Interface_Subinterface_Ipv4{}
		}
		if got := val(v4.Enabled); got != tt.routed || (!tt.routed && len(i.Subinterface) != 0) {
			t.Errorf("%s %s: subinterface 0 ipv4 enabled %v (%d subinterfaces), want %v", tt.sw, tt.port, got, len(i.Subinterface), tt.routed)
		}
		if got := val(v4.Mtu); got != tt.ipMTU {
			t.Errorf("%s %s: ipv4 mtu %d, want %d", tt.sw, tt.port, got, tt.ipMTU)
		}
		if tt.routed && i.GetEthernet().GetSwitchedVlan() != nil {
			t.Errorf("%s %s: routed port has a switched-vlan", tt.sw, tt.port)
		}
	}
}

// TestTrunkWithoutVLANsIsRefused: openconfig/public,
// release/models/vlan/openconfig-vlan.yang, leaf-list trunk-vlans:
// "Specify VLANs, or ranges thereof, that the interface may carry when in
// trunk mode. If not specified, all VLANs are allowed on the interface."
// A model trunk port without VLANs written without trunk-vlans would
// carry every VLAN, so the renderer refuses it.
func TestTrunkWithoutVLANsIsRefused(t *testing.T) {
	f := testFabric()
	f.Switches[0].Ports[0].TrunkVLANs = nil
	_, err := Render(f, &f.Switches[0])
	if err == nil || !strings.Contains(err.Error(), `port "Ethernet1/1": trunk port has no VLANs`) {
		t.Errorf("trunk without VLANs: error %v, want a refusal", err)
	}
	if _, err := Build(f, &f.Switches[0]); err == nil {
		t.Errorf("Build accepted a trunk without VLANs")
	}
}

// TestSwitchedVLANMeaning: openconfig-vlan.yang, access-vlan "when
// ../interface-mode = 'ACCESS'" ("Assign the access vlan to the access
// port"), native-vlan and trunk-vlans "when ../interface-mode = 'TRUNK'".
func TestSwitchedVLANMeaning(t *testing.T) {
	f := testFabric()
	d := build(t, f, "leaf1")
	trunk := d.GetInterface("Ethernet1/1").GetEthernet().GetSwitchedVlan()
	if trunk.InterfaceMode != oc.VlanTypes_VlanModeType_TRUNK || val(trunk.NativeVlan) != 100 || len(trunk.TrunkVlans) != 3 || trunk.AccessVlan != nil {
		t.Errorf("trunk port: mode %v native %d trunk %v access %v", trunk.InterfaceMode, val(trunk.NativeVlan), trunk.TrunkVlans, trunk.AccessVlan)
	}
	access := d.GetInterface("Ethernet32/1").GetEthernet().GetSwitchedVlan()
	if access.InterfaceMode != oc.VlanTypes_VlanModeType_ACCESS || val(access.AccessVlan) != 200 || access.TrunkVlans != nil || access.NativeVlan != nil {
		t.Errorf("access port: mode %v access %d", access.InterfaceMode, val(access.AccessVlan))
	}
	if d.GetInterface("Ethernet31/1").GetEthernet().SwitchedVlan != nil {
		t.Errorf("routed port has a switched-vlan")
	}
}

// TestEthernetMeaning: openconfig/public,
// release/models/interfaces/openconfig-if-ethernet.yang, revision
// 2026-06-22, leaf enable-flow-control (default false, reference "IEEE
// 802.3x"): "Ethernet flow control is a mechanism by which a receiver may
// send PAUSE frames to a sender to stop transmission for a specified
// time. This setting should override auto-negotiated flow control
// settings." It is link pause, never PFC, and is written on every port
// (false on PFC ports) so negotiation cannot turn it on. port-speed is
// the ETHERNET_SPEED identity of the model's Mb/s.
func TestEthernetMeaning(t *testing.T) {
	f := testFabric()
	for _, sw := range f.Switches {
		d := build(t, f, sw.Name)
		for _, p := range sw.Ports {
			eth := d.GetInterface(p.Name).GetEthernet()
			if eth.EnableFlowControl == nil || *eth.EnableFlowControl != p.LinkPause {
				t.Errorf("%s %s: enable-flow-control %v, want %v (802.3x link pause)", sw.Name, p.Name, eth.EnableFlowControl, p.LinkPause)
			}
			if got, want := eth.PortSpeed, speeds[p.SpeedMbps]; got != want {
				t.Errorf("%s %s: port-speed %v, want %v", sw.Name, p.Name, got, want)
			}
		}
	}
	if speeds[25000] != oc.IfEthernet_ETHERNET_SPEED_SPEED_25GB || speeds[100000] != oc.IfEthernet_ETHERNET_SPEED_SPEED_100GB || speeds[2500] != oc.IfEthernet_ETHERNET_SPEED_SPEED_2500MB {
		t.Errorf("ETHERNET_SPEED identities do not match their Mb/s")
	}
}

// TestECNProfileMeaning: openconfig/public,
// release/models/qos/openconfig-qos-mem-mgmt.yang, revision 2026-04-30:
// min-threshold (uint64, units bytes) "The minimum threshold parameter for
// a RED-managed queue in bytes. When the average queue length is less than
// minth, all packets are admitted to the queue"; max-threshold (units
// bytes) "When the average queue length exceeds the maxth value, all
// packets are dropped (or marked if ECN is enabled)"; enable-ecn "When this
// leaf is true and the number of packets in the queue is between the
// minimum threshold and the maximum threshold, if the ECN field on the
// packet indicates that the endpoints are ECN capable ... the ECT and CE
// bits for the packet are changed to 1"; max-drop-probability-percent
// (oc-types:percentage) "If the queue depth is between min and max
// threshold then this the probability with which packets are dropped or
// marked." drop (default false) is left out: non-ECN-capable packets are
// not WRED-dropped, as the model's ECN is marking only. The profile is
// bound per port through openconfig-qos-interfaces.yang
// output/queues/queue/config/queue-management-profile, a leafref to a
// defined profile.
func TestECNProfileMeaning(t *testing.T) {
	f := testFabric()
	d := build(t, f, "leaf1")
	for _, c := range f.QoS.Classes {
		p := d.GetQos().GetQueueManagementProfile(c.Name + "-ecn")
		if c.ECN == nil {
			if p != nil {
				t.Errorf("class %s without ECN has a profile", c.Name)
			}
			continue
		}
		u := p.GetWred().GetUniform()
		if val(u.MinThreshold) != uint64(c.ECN.MinBytes) || val(u.MaxThreshold) != uint64(c.ECN.MaxBytes) {
			t.Errorf("class %s: thresholds %d..%d bytes, want %d..%d", c.Name, val(u.MinThreshold), val(u.MaxThreshold), c.ECN.MinBytes, c.ECN.MaxBytes)
		}
		if u.MinThresholdPercent != nil || u.MaxThresholdPercent != nil {
			t.Errorf("class %s: percent thresholds set beside the byte ones (mutually exclusive)", c.Name)
		}
		if !val(u.EnableEcn) || u.Drop != nil {
			t.Errorf("class %s: enable-ecn %v drop %v, want true and unset", c.Name, u.EnableEcn, u.Drop)
		}
		if int(val(u.MaxDropProbabilityPercent)) != c.ECN.MarkProbabilityPercent {
			t.Errorf("class %s: max-drop-probability-percent %d, want %d", c.Name, val(u.MaxDropProbabilityPercent), c.ECN.MarkProbabilityPercent)
		}
		for _, port := range f.Switches[0].Ports {
			q := d.GetQos().GetInterface(port.Name).GetOutput().GetQueue(c.Name)
			if val(q.QueueManagementProfile) != c.Name+"-ecn" {
				t.Errorf("%s output queue %s: queue-management-profile %q", port.Name, c.Name, val(q.QueueManagementProfile))
			}
		}
	}
}

// TestSchedulerMeaning: openconfig/public,
// release/models/qos/openconfig-qos-elements.yang, revision 2026-04-30:
// sequence "Schedulers are processed from lowest sequence to highest";
// priority STRICT "packets that arrive in the queue are immediately
// serviced"; input weight (uint64) "For priority schedulers, this
// indicates the priority of the corresponding input. Higher values
// indicate higher priority. For weighted round-robin schedulers, this leaf
// indicates the weight of the corresponding input." ETS bandwidth percents
// summing to 100 are WRR weights in the same proportion. queue has "when
// ../input-type = 'QUEUE'". Each port's output scheduler-policy names the
// policy, a leafref (openconfig-qos-interfaces.yang) to a defined one.
func TestSchedulerMeaning(t *testing.T) {
	f := testFabric()
	d := build(t, f, "leaf1")
	pol := d.GetQos().GetSchedulerPolicy(schedulerPolicy)
	strict, wrr := pol.GetScheduler(0), pol.GetScheduler(1)
	if strict.Priority != oc.Scheduler_Priority_STRICT || wrr.Priority != oc.Scheduler_Priority_UNSET {
		t.Errorf("priorities: sequence 0 %v, sequence 1 %v; want STRICT and unset", strict.Priority, wrr.Priority)
	}
	for _, c := range f.QoS.Classes {
		s, weight := wrr, uint64(c.ETS.BandwidthPercent)
		if c.ETS.Mode == model.ETSStrict {
			s, weight = strict, uint64(c.TrafficClass)
		}
		in := s.GetInput(c.Name)
		if in.InputType != oc.Input_InputType_QUEUE || val(in.Queue) != c.Name || val(in.Weight) != weight {
			t.Errorf("class %s: input %v queue %q weight %d, want QUEUE %q %d", c.Name, in.InputType, val(in.Queue), val(in.Weight), c.Name, weight)
		}
	}
	for _, p := range f.Switches[0].Ports {
		if got := val(d.GetQos().GetInterface(p.Name).GetOutput().GetSchedulerPolicy().Name); got != schedulerPolicy {
			t.Errorf("%s: output scheduler-policy %q", p.Name, got)
		}
	}
}

// TestQueueAndClassifierMeaning: openconfig/public,
// release/models/qos/openconfig-qos-elements.yang, revision 2026-04-30:
// queue-id (uint8) "An optional identifier which may be required by some
// hardware to map the named queue to a hardware queue" = the traffic
// class; forwarding-group output-queue "Output queue for packets in this
// forwarding group" (leafref to a queue name); classifier type IPV4
// "Classifier matches and operates on packets with IPv4 headers" (IPV6
// likewise) with the term's ipv4 (ipv6) dscp-set, which in
// openconfig-packet-match.yang (revision 2026-03-25) is "A list of DSCP
// values to be matched ... If the field is left empty then any DSCP value
// matches" (so a class without DSCP gets no term); target-group
// "References the forwarding group or class to which the matched packets
// should be assigned". On the port, openconfig-qos-interfaces.yang
// input/classifiers/classifier[type]/config/name references the
// classifier, and interface-ref/config/interface names the port in
// /interfaces.
func TestQueueAndClassifierMeaning(t *testing.T) {
	f := testFabric()
	d := build(t, f, "leaf1")
	q := d.GetQos()
	for _, c := range f.QoS.Classes {
		if got := val(q.GetQueue(c.Name).QueueId); int(got) != c.TrafficClass {
			t.Errorf("class %s: queue-id %d, want traffic class %d", c.Name, got, c.TrafficClass)
		}
		if got := val(q.GetForwardingGroup(c.Name).OutputQueue); got != c.Name {
			t.Errorf("class %s: output-queue %q", c.Name, got)
		}
		v4 := q.GetClassifier(classifierIPv4).GetTerm(c.Name)
		v6 := q.GetClassifier(classifierIPv6).GetTerm(c.Name)
		if !reflect.DeepEqual(uint8s(c.DSCP), v4.GetConditions().GetIpv4().DscpSet) || !reflect.DeepEqual(uint8s(c.DSCP), v6.GetConditions().GetIpv6().DscpSet) {
			t.Errorf("class %s: dscp-set %v / %v, want %v", c.Name, v4.GetConditions().GetIpv4().DscpSet, v6.GetConditions().GetIpv6().DscpSet, c.DSCP)
		}
		if val(v4.GetActions().TargetGroup) != c.Name || val(v6.GetActions().TargetGroup) != c.Name {
			t.Errorf("class %s: target-group %q / %q", c.Name, val(v4.GetActions().TargetGroup), val(v6.GetActions().TargetGroup))
		}
		if v4.GetConditions().Ipv6 != nil || v6.GetConditions().Ipv4 != nil {
			t.Errorf("class %s: a term matches the other IP version's header", c.Name)
		}
	}
	if q.GetClassifier(classifierIPv4).Type != oc.Qos_Classifier_Type_IPV4 || q.GetClassifier(classifierIPv6).Type != oc.Qos_Classifier_Type_IPV6 {
		t.Errorf("classifier types %v / %v", q.GetClassifier(classifierIPv4).Type, q.GetClassifier(classifierIPv6).Type)
	}
	for _, p := range f.Switches[0].Ports {
		qi := q.GetInterface(p.Name)
		if val(qi.GetInterfaceRef().Interface) != p.Name || d.GetInterface(p.Name) == nil {
			t.Errorf("%s: interface-ref %q does not name the port", p.Name, val(qi.GetInterfaceRef().Interface))
		}
		in := qi.GetInput()
		if val(in.GetClassifier(oc.Input_Classifier_Type_IPV4).Name) != classifierIPv4 || val(in.GetClassifier(oc.Input_Classifier_Type_IPV6).Name) != classifierIPv6 {
			t.Errorf("%s (trust %s): input classifiers %v", p.Name, p.Trust, in.Classifier)
		}
	}
	// leaf2's port trusts PCP: no DSCP classifier on its input.
	if in := build(t, f, "leaf2").GetQos().GetInterface("1/1").GetInput(); in != nil && len(in.Classifier) > 0 {
		t.Errorf("PCP-trusting port has input classifiers %v", in.Classifier)
	}
}

// val is *p, or the zero value when p is nil.
func val[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// uint8s converts DSCP values as addTerms does.
func uint8s(v []int) []uint8 {
	out := make([]uint8, len(v))
	for i, x := range v {
		out[i] = uint8(x)
	}
	return out
}

// TestNoteClaimsHoldForTheSchema checks the note's claims against the
// schema fabricc generates (oc, from openconfig/public release/models at
// the revisions above), so a regeneration from models that gain PFC or an
// 802.1p match fails here and the note is revisited:
//
//   - no node of /interfaces, /qos or /network-instances is named after
//     PFC, the PFC watchdog or headroom (the whole of openconfig/public at
//     commit 94f589629e1e has no "priority-flow-control", "pfc",
//     "headroom" or "watchdog" in release/models either);
//   - the classifier's l2 conditions are openconfig-packet-match.yang
//     (revision 2026-03-25) ethernet-header-config: source-mac,
//     source-mac-mask, destination-mac, destination-mac-mask, ethertype; no
//     802.1p/PCP. (set-dot1p exists, but only as a remark action,
//     openconfig-qos-elements.yang qos-common-remark-actions-config.)
func TestNoteClaimsHoldForTheSchema(t *testing.T) {
	var paths []string
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, prefix string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Map || ty.Kind() == reflect.Slice {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			fl := ty.Field(i)
			p := prefix + "/" + fl.Tag.Get("path")
			paths = append(paths, p)
			walk(fl.Type, p)
		}
	}
	walk(reflect.TypeOf(oc.Device{}), "")
	if !strings.Contains(strings.Join(paths, "\n"), "config/enable-flow-control") {
		t.Fatalf("the schema walk found no enable-flow-control among %d paths", len(paths))
	}
	for _, p := range paths {
		l := strings.ToLower(p)
		for _, w := range []string{"pfc", "priority-flow", "headroom", "watchdog", "dot1p", "pcp"} {
			if strings.Contains(l, w) && !strings.Contains(l, "set-dot1p") {
				t.Errorf("schema node %s mentions %q: the note's claim that OpenConfig cannot carry it needs revisiting", p, w)
			}
		}
	}
	l2 := reflect.TypeOf(oc.Qos_Classifier_Term_Conditions_L2{})
	var got []string
	for i := 0; i < l2.NumField(); i++ {
		got = append(got, l2.Field(i).Tag.Get("path"))
	}
	want := []string{"config/destination-mac", "config/destination-mac-mask", "config/ethertype", "config/source-mac", "config/source-mac-mask"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("classifier l2 conditions are %v, want %v (no 802.1p match)", got, want)
	}
}
