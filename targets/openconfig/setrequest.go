package openconfig

import (
	"bytes"
	"strings"
	"sync"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// The set request ("<switch>.openconfig-set.json") is the JSON document
// applied so that the device ends in the fabric's state for what fabricc
// owns, which an update (merge) of the whole document at / cannot do: an
// update never removes (gNMI specification 3.4.4, "Modes of Update").
// It is a request file of gnmic's set command (gnmic documentation, "set"
// command, "Templated Set Request file": members "deletes" (paths),
// "replaces" and "updates" (path, value, encoding)), and holds:
//
//   - deletes: a port's description when it has none, the switched-vlan
//     of a routed port, the DSCP classifiers when no class has DSCP
//     values (a delete of a missing path succeeds, gNMI specification
//     3.4.6);
//   - replaces: what fabricc owns whole: each port's switched-vlan, the
//     classifiers, forwarding groups, ECN profiles, queues and scheduler
//     policy named by the fabric, and each port's /qos/interfaces entry;
//   - updates: the leaves fabricc owns inside containers it does not own
//     (the interface config and ethernet config, the default network
//     instance with the fabric's VLANs).
//
// Never a replace at / or /qos: that would delete what fabricc does not
// own. A target applies the deletes, then the replaces, then the updates,
// as one transaction (gNMI specification 3.4.3), whatever the order in the
// file.

// setRequestName is the file name of sw's set request.
func setRequestName(sw *model.Switch) string { return sw.Name + ".openconfig-set.json" }

// The request file is indented as the OpenConfig JSON is, with members
// sorted by name: the lists "deletes", "replaces", "updates" (the order a
// target applies them in), each item's "encoding", "path", "value". Each
// replace and update carries "encoding": "json_ietf" (gNMI specification
// 2.3.1: JSON_IETF is RFC 7951 JSON), so gnmic sends it so whatever its
// -e flag says. Its strings are written with braces escaped
// (jsonWriter.braces).

// itemLevel is the nesting level of an item in the request file (in
// the document's object, in a list).
const itemLevel = 2

// setShared is the fabric-wide part of every switch's set request: the
// deletes of the DSCP classifiers when the fabric has none, the replaces
// of the QoS list entries but /qos/interfaces and the update of the
// VLANs' network instance. replaces and updates are items as writeItems
// returns them, nil when there are none.
type setShared struct {
	deletes           []string
	replaces, updates []byte
}

// newSetShared writes the fabric-wide items of f's set requests; dscp
// is whether some class has DSCP, head and tail the /qos lists of the
// file (qosLists).
func newSetShared(f *model.Fabric, dscp bool, head, tail []qosList) setShared {
	var set setShared
	if len(f.VLANs) > 0 {
		set.updates = writeItems(func(w *jsonWriter) {
			writeItem(w, "/network-instances/network-instance"+pathKey("name", "default"), "openconfig-network-instance",
				func(w *jsonWriter) { writeDefaultInstance(w, f.VLANs) })
		})
	}
	if len(f.QoS.Classes) == 0 {
		return set
	}
	if !dscp {
		for _, k := range dscpClassifiers {
			set.deletes = append(set.deletes, "/qos/classifiers/classifier"+pathKey("name", k.name))
		}
	}
	set.replaces = writeItems(func(w *jsonWriter) {
		for _, lists := range [][]qosList{head, tail} {
			for _, l := range lists {
				for _, e := range l.entries {
					writeQoSItem(w, l.container+"/"+l.list, e.name, e.members)
				}
			}
		}
	})
	return set
}

// writeQoSItem writes the replace of the entry named name of the /qos
// list at list ("queues/queue").
func writeQoSItem(w *jsonWriter, list, name string, members func(*jsonWriter)) {
	writeItem(w, "/qos/"+list+pathKey("name", name), "openconfig-qos", members)
}

// setJSON writes sw's set request from the same writers as its
// OpenConfig JSON (renderJSON has accepted f and sw), in one pass over
// its ports: the items of each list are gathered apart and joined with
// the fabric-wide ones (shared.set) in the file's order. s is f's
// fabric-wide part and ports are sw's ports byName.
func (s *shared) setJSON(f *model.Fabric, sw *model.Switch, ports []*model.Port) []byte {
	var deletes []string
	vlans, qos, ifs := newItems(scratch()), newItems(scratch()), newItems(scratch())
	defer release(vlans, qos, ifs)
	for _, p := range ports {
		path := "/interfaces/interface" + pathKey("name", p.Name)
		if switched(p) {
			writeItem(vlans, path+"/ethernet/switched-vlan", "openconfig-vlan", func(w *jsonWriter) { writeSwitchedVLANConfig(w, p) })
		} else {
			deletes = append(deletes, path+"/ethernet/switched-vlan")
		}
		if p.Description == "" {
			deletes = append(deletes, path+"/config/description")
		}
		if s.qosHead != nil {
			writeItem(qos, "/qos/interfaces/interface"+pathKey("interface-id", p.Name), "openconfig-qos",
				func(w *jsonWriter) { writeQoSInterfaceMembers(w, s, p) })
		}
		writeItem(ifs, path, "openconfig-interfaces", func(w *jsonWriter) { writeInterfaceUpdate(w, sw.Platform, p) })
	}
	w := &jsonWriter{buf: setSize.Buffer(), braces: true}
	defer func() { setSize.Done(w.buf.Len()) }()
	w.open('{')
	if deletes = append(deletes, s.set.deletes...); len(deletes) > 0 {
		w.array("deletes")
		for _, d := range deletes {
			w.next()
			w.str(d)
		}
		w.close(']')
	}
	w.list("replaces", trimmed(vlans, itemLevel), s.set.replaces, trimmed(qos, itemLevel))
	w.list("updates", trimmed(ifs, itemLevel), s.set.updates)
	w.close('}')
	w.buf.WriteByte('\n')
	return w.buf.Bytes()
}

// setSize sizes the next request file's buffer (targets.SizeHint).
var setSize targets.SizeHint

// writeInterfaceUpdate writes the value of p's interface update: its
// interface but the switched-vlan, its names qualified as RFC 7951
// section 4 asks for a top-level member, hence in this order.
func writeInterfaceUpdate(w *jsonWriter, pl model.Platform, p *model.Port) {
	w.object("openconfig-if-ethernet:ethernet")
	writeEthernetConfig(w, p)
	w.close('}')
	writeInterfaceConfig(w, pl, p)
	w.member("name", p.Name)
	if p.Mode == model.ModeRouted {
		writeRouted(w, pl, p)
	}
}

// writeItem writes one replace or update at path whose value has the
// members members writes, each top-level member name qualified by module
// mod unless it already names its module: RFC 7951 section 4, "A
// namespace-qualified member name MUST be used for all members of a
// top-level JSON object", which a gNMI JSON_IETF value is.
func writeItem(w *jsonWriter, path, mod string, members func(*jsonWriter)) {
	w.element()
	w.member("encoding", "json_ietf")
	w.member("path", path)
	w.object("value")
	w.module, w.moduleLevel = mod, len(w.first)
	members(w)
	w.module = ""
	w.close('}')
	w.close('}')
}

// newItems returns a writer of items at their level in the request file
// into buf.
func newItems(buf *bytes.Buffer) *jsonWriter {
	w := nested(buf, itemLevel)
	w.braces = true
	return w
}

// scratchBuffers keeps the buffers setJSON gathers a switch's items in
// until it copies them into the file.
var scratchBuffers sync.Pool

// scratch returns an empty buffer from scratchBuffers or a new one.
func scratch() *bytes.Buffer {
	if b, ok := scratchBuffers.Get().(*bytes.Buffer); ok {
		b.Reset()
		return b
	}
	return &bytes.Buffer{}
}

// release gives the writers' buffers back to scratchBuffers.
func release(ws ...*jsonWriter) {
	for _, w := range ws {
		scratchBuffers.Put(w.buf)
	}
}

// writeItems returns the items write writes, trimmed, or nil when it
// writes none.
func writeItems(write func(*jsonWriter)) []byte {
	w := newItems(&bytes.Buffer{})
	write(w)
	return trimmed(w, itemLevel)
}

// list writes the array member name of the items of parts, if any.
func (w *jsonWriter) list(name string, parts ...[]byte) {
	opened := false
	for _, part := range parts {
		if part == nil {
			continue
		}
		if !opened {
			w.array(name)
			opened = true
		}
		w.raw(part)
	}
	if opened {
		w.close(']')
	}
}

// pathKey writes a gNMI path key, escaping "]" and "\" in the value
// (gNMI path conventions, "Paths and keys": a key value containing "]"
// or "\" has it escaped with "\").
func pathKey(name, v string) string {
	if strings.ContainsAny(v, `]\`) {
		v = strings.ReplaceAll(v, `\`, `\\`)
		v = strings.ReplaceAll(v, `]`, `\]`)
	}
	return "[" + name + "=" + v + "]"
}

// setElements names the model elements of each item of the request file
// by the path it sets: a port, a VLAN, a class (its ECN for an ECN
// profile) or the fabric's QoS; the lines of its value take the item's.
func setElements(sw *model.Switch) func(path []*targets.JSONNode) []targets.Element {
	return func(path []*targets.JSONNode) []targets.Element {
		if n := path[len(path)-1]; n.Index >= 0 && parentKey(path) == "vlan" {
			return one("vlan", keyOf(n, "vlan-id"))
		}
		if len(path) != 3 {
			return nil
		}
		n := path[2]
		p := n.Value
		if c := n.Child("path"); c != nil {
			p = c.Value
		}
		return pathElements(sw, p)
	}
}

// pathElements names the model elements a gNMI path of the request file
// stands for.
func pathElements(sw *model.Switch, p string) []targets.Element {
	val := func(k string) string {
		i := strings.Index(p, "["+k+"=")
		if i < 0 {
			return ""
		}
		v := p[i+len(k)+2:]
		var out strings.Builder
		for j := 0; j < len(v) && v[j] != ']'; j++ {
			if v[j] == '\\' && j+1 < len(v) {
				j++
			}
			out.WriteByte(v[j])
		}
		return out.String()
	}
	switch {
	case strings.HasPrefix(p, "/interfaces/"):
		return one("switch", sw.Name, "port", val("name"))
	case strings.HasPrefix(p, "/qos/interfaces/"):
		return one("switch", sw.Name, "port", val("interface-id"))
	case strings.HasPrefix(p, "/qos/queue-management-profiles/"):
		return one("qos", "class", strings.TrimSuffix(val("name"), "-ecn"), "ecn")
	case strings.HasPrefix(p, "/qos/queues/"), strings.HasPrefix(p, "/qos/forwarding-groups/"):
		return one("qos", "class", val("name"))
	case strings.HasPrefix(p, "/qos/"):
		return one("qos")
	}
	return nil
}
