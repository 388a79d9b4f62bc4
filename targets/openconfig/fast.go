package openconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/openconfig/ygot/ygot"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/openconfig/oc"
)

// The JSON of a switch is written directly, without ygot's reflection
// (ConstructIETFJSON) and without validating the whole tree of every
// switch again: on a 4,096-switch fabric those two took 140 ms per switch,
// two thirds of a build. What is checked stays the same, split by what it
// depends on:
//
//   - the fabric-wide part (VLANs; queues, forwarding groups,
//     classifiers, scheduler policy and ECN profiles, which refer to one
//     another) is built with the ygot structs and validated against the
//     schema, leafrefs included, once per fabric;
//   - each port is built and validated the same way, with the fabric-wide
//     part, once per port shape: everything but its name and
//     description, which the schema leaves as free strings
//     (openconfig-interfaces.yang name and description are type string),
//     and whose only leafref, the QoS interface-ref, names the port
//     itself.
//
// The bytes are those ygot.EmitJSON writes for Build's tree; the tests
// compare the two for every fixture and example switch.

// shared is the fabric-wide part of one fabric, and the checked port
// shapes.
type shared struct {
	// err is the fabric-wide part's building or validation error.
	err error
	// instances is the "openconfig-network-instance:network-instances"
	// member; qosHead the QoS members before "interfaces"
	// (classifiers, forwarding groups), qosTail those after it (ECN
	// profiles, queues, scheduler policy). Each is written from its
	// first key on, at its level, without the separator before it.
	instances, qosHead, qosTail []byte
	// classifiers is true when the fabric has DSCP classifiers, which
	// ports that trust DSCP bind on input.
	classifiers bool
	// ecnQueues are the classes with ECN, by name: the output queues
	// every port binds to their ECN profiles.
	ecnQueues []ecnQueue

	mu     sync.Mutex
	shapes map[string]error

	// set is the fabric-wide part of the set requests.
	set setShared
}

// sharedCache keeps the fabric-wide part of the fabrics rendered lately,
// by the JSON of their QoS and VLANs (a model changed between two renders
// gets a new entry).
var sharedCache = struct {
	sync.Mutex
	byKey map[string]*shared
}{byKey: map[string]*shared{}}

// maxShared bounds sharedCache: a build renders one fabric, tests a few.
const maxShared = 16

// sharedPart returns the fabric-wide part of f, building it on first use.
func sharedPart(f *model.Fabric) *shared {
	key, err := json.Marshal(struct {
		Q *model.QoS
		V []model.VLAN
	}{&f.QoS, f.VLANs})
	if err != nil { // plain structs of numbers and strings always marshal
		return &shared{err: err}
	}
	sharedCache.Lock()
	defer sharedCache.Unlock()
	if s, ok := sharedCache.byKey[string(key)]; ok {
		return s
	}
	if len(sharedCache.byKey) >= maxShared {
		clear(sharedCache.byKey)
	}
	s := newShared(f)
	sharedCache.byKey[string(key)] = s
	return s
}

// newShared builds, validates and writes the fabric-wide part of f.
func newShared(f *model.Fabric) *shared {
	s := &shared{shapes: map[string]error{}, classifiers: hasDSCP(&f.QoS), ecnQueues: ecnQueues(&f.QoS)}
	d := &oc.Device{}
	if err := addVLANs(d, f.VLANs); err != nil {
		s.err = err
		return s
	}
	if err := addQoS(d, &f.QoS, nil); err != nil {
		s.err = err
		return s
	}
	if err := d.Validate(); err != nil {
		s.err = invalid(err)
		return s
	}
	if len(f.VLANs) > 0 {
		s.instances = member(1, func(w *jsonWriter) { writeInstances(w, f.VLANs) })
	}
	var head, tail []qosList
	if len(f.QoS.Classes) > 0 {
		head, tail = qosLists(classesByName(&f.QoS), s.classifiers)
		s.qosHead = member(2, func(w *jsonWriter) { writeQoSLists(w, head) })
		s.qosTail = member(2, func(w *jsonWriter) { writeQoSLists(w, tail) })
	}
	s.set = newSetShared(f, s.classifiers, head, tail)
	return s
}

// invalid wraps a schema validation error as Build reports it.
func invalid(err error) error {
	return fmt.Errorf("the OpenConfig tree does not validate against the YANG schema (a fabricc bug or a value OpenConfig rejects): %w", err)
}

// member writes members at depth level with write and returns them
// without the line break and indentation before the first.
func member(level int, write func(*jsonWriter)) []byte {
	w := nested(&bytes.Buffer{}, level)
	write(w)
	return trimmed(w, level)
}

// trimmed returns what w, a writer at depth level, wrote, without the
// line break and indentation before the first member or item (what raw
// adds), or nil when it wrote nothing.
func trimmed(w *jsonWriter, level int) []byte {
	if w.buf.Len() == 0 {
		return nil
	}
	return w.buf.Bytes()[1+2*level:]
}

// raw adds members written by member as the next members of the
// innermost object.
func (w *jsonWriter) raw(members []byte) {
	w.next()
	w.buf.Write(members)
}

// checkPort returns Build's error for port p of a switch on platform pl,
// checking each port shape against the schema once.
func (s *shared) checkPort(f *model.Fabric, pl model.Platform, p *model.Port) error {
	if p.Name == "" {
		return fmt.Errorf("port has no name; name every port in the switch block")
	}
	key := shapeKey(pl, p)
	s.mu.Lock()
	err, ok := s.shapes[key]
	s.mu.Unlock()
	if ok {
		return err
	}
	err = checkShape(f, pl, p)
	s.mu.Lock()
	s.shapes[key] = err
	s.mu.Unlock()
	return err
}

// checkShape builds a switch holding only p with the fabric-wide part
// and validates it.
func checkShape(f *model.Fabric, pl model.Platform, p *model.Port) error {
	d := &oc.Device{}
	if err := addInterface(d, pl, p); err != nil {
		return err
	}
	if err := addVLANs(d, f.VLANs); err != nil {
		return nil // reported as the fabric-wide error
	}
	if err := addQoS(d, &f.QoS, []model.Port{*p}); err != nil {
		return nil
	}
	if err := d.Validate(); err != nil {
		return invalid(err)
	}
	return nil
}

// shapeKey is everything of p the OpenConfig JSON holds but its name and
// description text, with the platform (which the MTU depends on).
func shapeKey(pl model.Platform, p *model.Port) string {
	b := make([]byte, 0, 64)
	b = append(b, pl...)
	b = append(b, ',')
	for _, n := range []int{p.SpeedMbps, p.MTU, p.AccessVLAN, p.NativeVLAN} {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ',')
	}
	b = append(b, p.Mode...)
	b = append(b, ',')
	b = append(b, p.Trust...)
	b = strconv.AppendBool(b, p.Description != "")
	b = strconv.AppendBool(b, p.LinkPause)
	b = strconv.AppendBool(b, p.Shutdown)
	for _, v := range p.TrunkVLANs {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return string(b)
}

// jsonSize sizes the next document's buffer (targets.SizeHint).
var jsonSize targets.SizeHint

// renderJSON writes the OpenConfig JSON of sw: the bytes Emit writes for
// Build's tree, with the same errors. s is f's fabric-wide part and
// ports are sw's ports byName.
func (s *shared) renderJSON(f *model.Fabric, sw *model.Switch, ports []*model.Port) ([]byte, error) {
	for i := range sw.Ports {
		if err := s.checkPort(f, sw.Platform, &sw.Ports[i]); err != nil {
			return nil, fmt.Errorf("port %q: %w", sw.Ports[i].Name, err)
		}
	}
	for i := 1; i < len(ports); i++ {
		if ports[i].Name == ports[i-1].Name {
			return nil, fmt.Errorf("port %q: port is listed twice on the switch; keep one", ports[i].Name)
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	w := &jsonWriter{buf: jsonSize.Buffer()}
	defer func() { jsonSize.Done(w.buf.Len()) }()
	w.open('{')
	if len(ports) > 0 {
		w.object("openconfig-interfaces:interfaces")
		w.array("interface")
		for _, p := range ports {
			writeInterface(w, sw.Platform, p)
		}
		w.close(']')
		w.close('}')
	}
	if s.instances != nil {
		w.raw(s.instances)
	}
	if s.qosHead != nil {
		w.object("openconfig-qos:qos")
		w.raw(s.qosHead)
		if len(ports) > 0 {
			w.object("interfaces")
			w.array("interface")
			for _, p := range ports {
				writeQoSInterface(w, s, p)
			}
			w.close(']')
			w.close('}')
		}
		w.raw(s.qosTail)
		w.close('}')
	}
	w.close('}')
	w.buf.WriteByte('\n')
	return w.buf.Bytes(), nil
}

// byName returns the ports in the order EmitJSON lists map keys: by name
// as text.
func byName(ports []model.Port) []*model.Port {
	out := make([]*model.Port, len(ports))
	for i := range ports {
		out[i] = &ports[i]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// speedNames are the RFC 7951 names of the port speeds, module first
// (ygot.EnumName of each ETHERNET_SPEED identity).
var speedNames = func() map[int]string {
	out := map[int]string{}
	for mbps, e := range speeds {
		name, _ := ygot.EnumName(e) // a generated constant always has one
		out[mbps] = "openconfig-if-ethernet:" + name
	}
	return out
}()

// writeInterface writes /interfaces/interface[name] for p on a switch on
// platform pl (addInterface; checkPort has accepted p's MTU).
func writeInterface(w *jsonWriter, pl model.Platform, p *model.Port) {
	w.element()
	writeInterfaceConfig(w, pl, p)
	w.member("name", p.Name)
	w.object("openconfig-if-ethernet:ethernet")
	writeEthernetConfig(w, p)
	writeSwitchedVLAN(w, p)
	w.close('}')
	if p.Mode == model.ModeRouted {
		writeRouted(w, pl, p)
	}
	w.close('}')
}

// writeInterfaceConfig writes the config container of p's interface.
func writeInterfaceConfig(w *jsonWriter, pl model.Platform, p *model.Port) {
	w.object("config")
	if p.Description != "" {
		w.member("description", p.Description)
	}
	w.boolean("enabled", !p.Shutdown)
	if mtu, _ := ocMTU(pl, p.MTU); mtu > 0 {
		w.number("mtu", uint64(mtu))
	}
	w.member("name", p.Name)
	w.member("type", "iana-if-type:ethernetCsmacd")
	w.close('}')
}

// writeEthernetConfig writes the config container of p's ethernet.
func writeEthernetConfig(w *jsonWriter, p *model.Port) {
	w.object("config")
	w.boolean("enable-flow-control", p.LinkPause)
	if p.SpeedMbps != 0 {
		w.member("port-speed", speedNames[p.SpeedMbps])
	}
	w.close('}')
}

// writeRouted writes subinterface 0 of a routed port (addRouted).
func writeRouted(w *jsonWriter, pl model.Platform, p *model.Port) {
	w.object("subinterfaces")
	w.array("subinterface")
	w.element()
	w.object("config")
	w.number("index", 0)
	w.close('}')
	w.number("index", 0)
	w.object("openconfig-if-ip:ipv4")
	w.object("config")
	w.boolean("enabled", true)
	if pl == model.PlatformEOS && p.MTU > 0 && p.MTU <= 65535 {
		w.number("mtu", uint64(p.MTU))
	}
	w.close('}')
	w.close('}')
	w.close('}')
	w.close(']')
	w.close('}')
}

// writeSwitchedVLAN writes switched-vlan for an access or trunk port
// (addSwitchedVLAN).
func writeSwitchedVLAN(w *jsonWriter, p *model.Port) {
	if !switched(p) {
		return
	}
	w.object("openconfig-vlan:switched-vlan")
	writeSwitchedVLANConfig(w, p)
	w.close('}')
}

// switched reports whether p has a switched-vlan: an access or trunk
// port.
func switched(p *model.Port) bool { return p.Mode == model.ModeAccess || p.Mode == model.ModeTrunk }

// writeSwitchedVLANConfig writes the config container of p's
// switched-vlan.
func writeSwitchedVLANConfig(w *jsonWriter, p *model.Port) {
	w.object("config")
	if p.Mode == model.ModeAccess {
		if p.AccessVLAN != 0 {
			w.number("access-vlan", uint64(p.AccessVLAN))
		}
		w.member("interface-mode", "ACCESS")
	} else {
		w.member("interface-mode", "TRUNK")
		if p.NativeVLAN != 0 {
			w.number("native-vlan", uint64(p.NativeVLAN))
		}
		if len(p.TrunkVLANs) > 0 {
			w.numbers("trunk-vlans", uint64s(p.TrunkVLANs))
		}
	}
	w.close('}')
}

// writeInstances writes the default network instance with the fabric's
// VLANs (addVLANs), by VLAN ID as text.
func writeInstances(w *jsonWriter, vlans []model.VLAN) {
	w.object("openconfig-network-instance:network-instances")
	w.array("network-instance")
	w.element()
	writeDefaultInstance(w, vlans)
	w.close('}')
	w.close(']')
	w.close('}')
}

// writeDefaultInstance writes the members of the default network
// instance with the fabric's VLANs, by VLAN ID as text.
func writeDefaultInstance(w *jsonWriter, vlans []model.VLAN) {
	sorted := append([]model.VLAN(nil), vlans...)
	sort.Slice(sorted, func(i, j int) bool { return strconv.Itoa(sorted[i].ID) < strconv.Itoa(sorted[j].ID) })
	w.object("config")
	w.member("name", "default")
	w.member("type", "openconfig-network-instance-types:DEFAULT_INSTANCE")
	w.close('}')
	w.member("name", "default")
	w.object("vlans")
	w.array("vlan")
	for _, v := range sorted {
		w.element()
		w.object("config")
		if v.Name != "" {
			w.member("name", v.Name)
		}
		w.number("vlan-id", uint64(v.ID))
		w.close('}')
		w.number("vlan-id", uint64(v.ID))
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

// hasDSCP reports whether some class has DSCP values, which makes the
// two classifiers exist.
func hasDSCP(q *model.QoS) bool {
	for i := range q.Classes {
		if len(q.Classes[i].DSCP) > 0 {
			return true
		}
	}
	return false
}

// classesByName returns the classes sorted by name, the order of every
// list keyed by class.
func classesByName(q *model.QoS) []*model.Class {
	out := make([]*model.Class, len(q.Classes))
	for i := range q.Classes {
		out[i] = &q.Classes[i]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// qosEntry is one entry of a /qos list: its name key and what writes
// its members.
type qosEntry struct {
	name    string
	members func(*jsonWriter)
}

// qosList is one /qos list: its container ("queues"), its list ("queue")
// and its entries.
type qosList struct {
	container, list string
	entries         []qosEntry
}

// qosLists returns the /qos lists but /qos/interfaces of the classes (by
// name; dscp: some class has DSCP) in the file's order, which the file
// and the set request both follow: head the classifiers (when dscp) and
// forwarding groups (addClass, addTerms), tail the ECN profiles (when
// some class has ECN), the queues and the scheduler policy
// (addECNProfile, addClass, addSchedulerInput).
func qosLists(classes []*model.Class, dscp bool) (head, tail []qosList) {
	if dscp {
		l := qosList{container: "classifiers", list: "classifier"}
		for _, k := range dscpClassifiers {
			l.entries = append(l.entries, qosEntry{k.name, func(w *jsonWriter) { writeClassifier(w, classes, k) }})
		}
		head = append(head, l)
	}
	groups := qosList{container: "forwarding-groups", list: "forwarding-group"}
	for _, c := range classes {
		groups.entries = append(groups.entries, qosEntry{c.Name, func(w *jsonWriter) { writeForwardingGroup(w, c) }})
	}
	head = append(head, groups)
	if ecn := ecnClasses(classes); len(ecn) > 0 {
		l := qosList{container: "queue-management-profiles", list: "queue-management-profile"}
		for _, c := range ecn {
			l.entries = append(l.entries, qosEntry{ecnProfileName(c.Name), func(w *jsonWriter) { writeECNProfile(w, c) }})
		}
		tail = append(tail, l)
	}
	queues := qosList{container: "queues", list: "queue"}
	for _, c := range classes {
		queues.entries = append(queues.entries, qosEntry{c.Name, func(w *jsonWriter) { writeQueue(w, c) }})
	}
	tail = append(tail, queues, qosList{container: "scheduler-policies", list: "scheduler-policy",
		entries: []qosEntry{{schedulerPolicy, func(w *jsonWriter) { writeSchedulerPolicy(w, classes) }}}})
	return head, tail
}

// writeQoSLists writes the lists as the members of /qos.
func writeQoSLists(w *jsonWriter, lists []qosList) {
	for _, l := range lists {
		w.object(l.container)
		w.array(l.list)
		for _, e := range l.entries {
			w.element()
			e.members(w)
			w.close('}')
		}
		w.close(']')
		w.close('}')
	}
}

// classifierKind is one of the two DSCP classifiers: its name, type and
// the address family its terms match.
type classifierKind struct{ name, typ, family string }

// dscpClassifiers are the DSCP classifiers, in name order.
var dscpClassifiers = []classifierKind{{classifierIPv4, "IPV4", "ipv4"}, {classifierIPv6, "IPV6", "ipv6"}}

// writeForwardingGroup writes the members of c's forwarding group.
func writeForwardingGroup(w *jsonWriter, c *model.Class) {
	w.object("config")
	w.member("name", c.Name)
	w.member("output-queue", c.Name)
	w.close('}')
	w.member("name", c.Name)
}

// writeClassifier writes the members of DSCP classifier k: a term per
// class with DSCP values.
func writeClassifier(w *jsonWriter, classes []*model.Class, k classifierKind) {
	w.object("config")
	w.member("name", k.name)
	w.member("type", k.typ)
	w.close('}')
	w.member("name", k.name)
	w.object("terms")
	w.array("term")
	for _, c := range classes {
		if len(c.DSCP) == 0 {
			continue
		}
		w.element()
		w.object("actions")
		w.object("config")
		w.member("target-group", c.Name)
		w.close('}')
		w.close('}')
		w.object("conditions")
		w.object(k.family)
		w.object("config")
		w.numbers("dscp-set", uint64s(c.DSCP))
		w.close('}')
		w.close('}')
		w.close('}')
		w.object("config")
		w.member("id", c.Name)
		w.close('}')
		w.member("id", c.Name)
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

// ecnClasses returns the classes with ECN, by the name of their ECN
// profile.
func ecnClasses(classes []*model.Class) []*model.Class {
	var ecn []*model.Class
	for _, c := range classes {
		if c.ECN != nil {
			ecn = append(ecn, c)
		}
	}
	sort.Slice(ecn, func(i, j int) bool { return ecnProfileName(ecn[i].Name) < ecnProfileName(ecn[j].Name) })
	return ecn
}

// writeECNProfile writes the members of c's ECN profile.
func writeECNProfile(w *jsonWriter, c *model.Class) {
	name := ecnProfileName(c.Name)
	w.object("config")
	w.member("name", name)
	w.close('}')
	w.member("name", name)
	w.object("wred")
	w.object("uniform")
	w.object("config")
	w.boolean("enable-ecn", true)
	w.number("max-drop-probability-percent", uint64(c.ECN.MarkProbabilityPercent))
	w.member("max-threshold", strconv.FormatInt(c.ECN.MaxBytes, 10))
	w.member("min-threshold", strconv.FormatInt(c.ECN.MinBytes, 10))
	w.close('}')
	w.close('}')
	w.close('}')
}

// writeQueue writes the members of c's queue.
func writeQueue(w *jsonWriter, c *model.Class) {
	w.object("config")
	w.member("name", c.Name)
	w.number("queue-id", uint64(c.TrafficClass))
	w.close('}')
	w.member("name", c.Name)
}

// writeSchedulerPolicy writes the members of the "ets" scheduler policy:
// sequence 0 strict with the strict classes, sequence 1 with the WRR
// classes.
func writeSchedulerPolicy(w *jsonWriter, classes []*model.Class) {
	var strict, wrr []*model.Class
	for _, c := range classes {
		if c.ETS.Mode == model.ETSStrict {
			strict = append(strict, c)
		} else {
			wrr = append(wrr, c)
		}
	}
	w.object("config")
	w.member("name", schedulerPolicy)
	w.close('}')
	w.member("name", schedulerPolicy)
	w.object("schedulers")
	w.array("scheduler")
	if len(strict) > 0 {
		writeScheduler(w, strictSequence, strict, func(c *model.Class) int { return c.TrafficClass })
	}
	if len(wrr) > 0 {
		writeScheduler(w, wrrSequence, wrr, func(c *model.Class) int { return c.ETS.BandwidthPercent })
	}
	w.close(']')
	w.close('}')
}

// writeScheduler writes one scheduler of the policy with its queue
// inputs and their weights.
func writeScheduler(w *jsonWriter, seq uint64, classes []*model.Class, weight func(*model.Class) int) {
	w.element()
	w.object("config")
	if seq == strictSequence {
		w.member("priority", "STRICT")
	}
	w.number("sequence", seq)
	w.close('}')
	w.object("inputs")
	w.array("input")
	for _, c := range classes {
		w.element()
		w.object("config")
		w.member("id", c.Name)
		w.member("input-type", "QUEUE")
		w.member("queue", c.Name)
		w.member("weight", strconv.Itoa(weight(c)))
		w.close('}')
		w.member("id", c.Name)
		w.close('}')
	}
	w.close(']')
	w.close('}')
	w.number("sequence", seq)
	w.close('}')
}

// writeQoSInterface writes /qos/interfaces/interface[name] for p
// (bindPort).
func writeQoSInterface(w *jsonWriter, s *shared, p *model.Port) {
	w.element()
	writeQoSInterfaceMembers(w, s, p)
	w.close('}')
}

// writeQoSInterfaceMembers writes the members of p's /qos/interfaces
// entry.
func writeQoSInterfaceMembers(w *jsonWriter, s *shared, p *model.Port) {
	w.object("config")
	w.member("interface-id", p.Name)
	w.close('}')
	if trustsDSCP(p.Trust) && s.classifiers {
		w.object("input")
		w.object("classifiers")
		w.array("classifier")
		for _, k := range dscpClassifiers {
			w.element()
			w.object("config")
			w.member("name", k.name)
			w.member("type", k.typ)
			w.close('}')
			w.member("type", k.typ)
			w.close('}')
		}
		w.close(']')
		w.close('}')
		w.close('}')
	}
	w.member("interface-id", p.Name)
	w.object("interface-ref")
	w.object("config")
	w.member("interface", p.Name)
	w.close('}')
	w.close('}')
	w.object("output")
	writeOutputQueues(w, s.ecnQueues)
	w.object("scheduler-policy")
	w.object("config")
	w.member("name", schedulerPolicy)
	w.close('}')
	w.close('}')
	w.close('}')
}

// writeOutputQueues writes the output queues of the ECN classes with
// their profiles.
func writeOutputQueues(w *jsonWriter, queues []ecnQueue) {
	if len(queues) == 0 {
		return
	}
	w.object("queues")
	w.array("queue")
	for _, q := range queues {
		w.element()
		w.object("config")
		w.member("name", q.name)
		w.member("queue-management-profile", q.profile)
		w.close('}')
		w.member("name", q.name)
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

// ecnQueue is the output queue of a class with ECN: the class's name and
// its ECN profile's.
type ecnQueue struct{ name, profile string }

// ecnQueues returns the output queues of the classes with ECN, by name.
func ecnQueues(q *model.QoS) []ecnQueue {
	var out []ecnQueue
	for i := range q.Classes {
		if n := q.Classes[i].Name; q.Classes[i].ECN != nil {
			out = append(out, ecnQueue{n, ecnProfileName(n)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// uint64s converts the model's IDs (VLANs, DSCP values) to the unsigned
// numbers OpenConfig leaves hold.
func uint64s(in []int) []uint64 {
	out := make([]uint64, len(in))
	for i, v := range in {
		out[i] = uint64(v)
	}
	return out
}
