package openconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

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

// setItem is one replace or update of the request file.
type setItem struct {
	path  string
	value map[string]any
	// raw is the item as encode writes it, kept for the fabric-wide
	// items every switch's file repeats (setPart); nil when not made.
	raw rawJSON
}

// rawJSON is JSON writeAny copies as it is.
type rawJSON []byte

// itemLevel is the nesting level of an item in the request file.
const itemLevel = 2

// object returns the item as encode writes it.
func (it setItem) object() any {
	if it.raw != nil {
		return it.raw
	}
	return map[string]any{"path": it.path, "encoding": "json_ietf", "value": it.value}
}

// setRequest is the content of one request file.
type setRequest struct {
	deletes           []string
	replaces, updates []setItem
}

// setJSON builds sw's set request from the same writers as its
// OpenConfig JSON (renderJSON has accepted f and sw): the fabric-wide
// items once per fabric (shared.setPart), the port items per switch.
func setJSON(f *model.Fabric, sw *model.Switch) ([]byte, error) {
	s := sharedPart(f)
	fab, err := s.setPart(f)
	if err != nil {
		return nil, err
	}
	w := &jsonWriter{buf: &bytes.Buffer{}}
	w.open('{')
	w.array("interface")
	ports := byName(sw.Ports)
	for _, p := range ports {
		writeInterface(w, sw.Platform, p)
	}
	w.close(']')
	w.array("qos")
	for _, p := range ports {
		writeQoSInterface(w, &f.QoS, p, s.classifiers)
	}
	w.close(']')
	w.close('}')
	root, err := decodeObject(w.buf.Bytes())
	if err != nil {
		return nil, err
	}
	var r setRequest
	r.addInterfaces(list(root, "interface"))
	r.deletes = append(r.deletes, fab.deletes...)
	r.replaces = append(r.replaces, fab.replaces...)
	if s.qosHead != nil {
		for _, e := range list(root, "qos") {
			r.replaces = append(r.replaces, setItem{"/qos/interfaces/interface" + key("interface-id", e["interface-id"]),
				qualify(e, "openconfig-qos"), nil})
		}
	}
	r.updates = append(r.updates, fab.updates...)
	return r.encode(), nil
}

// setPart returns the fabric-wide items of every switch's set request:
// the VLANs' network instance and the QoS lists but /qos/interfaces,
// decoded from the shared members once.
func (s *shared) setPart(f *model.Fabric) (*setRequest, error) {
	s.setOnce.Do(func() {
		s.set = &setRequest{}
		if s.instances != nil {
			root, err := decodeObject(append(append([]byte("{"), s.instances...), '}'))
			if err != nil {
				s.setErr = err
				return
			}
			for _, ni := range list(obj(root["openconfig-network-instance:network-instances"]), "network-instance") {
				s.set.updates = append(s.set.updates, setItem{"/network-instances/network-instance" + key("name", ni["name"]),
					qualify(ni, "openconfig-network-instance"), nil})
			}
		}
		if s.qosHead != nil {
			doc := append(append([]byte("{"), s.qosHead...), ',')
			q, err := decodeObject(append(append(doc, s.qosTail...), '}'))
			if err != nil {
				s.setErr = err
				return
			}
			s.set.addQoS(q)
		}
		for _, items := range [][]setItem{s.set.replaces, s.set.updates} {
			for i := range items {
				var b bytes.Buffer
				writeAny(&b, items[i].object(), itemLevel)
				items[i].raw = b.Bytes()
			}
		}
	})
	return s.set, s.setErr
}

// decodeObject decodes a JSON object, numbers kept as written.
func decodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("reading the OpenConfig JSON back: %w", err)
	}
	return root, nil
}

// addInterfaces adds each interface: an update of everything but its
// switched-vlan, a replace of the switched-vlan (a delete on a routed
// port, which has none) and a delete of an absent description.
func (r *setRequest) addInterfaces(ifs []map[string]any) {
	for _, i := range ifs {
		path := "/interfaces/interface" + key("name", i["name"])
		rest := map[string]any{}
		for k, v := range i {
			rest[k] = v
		}
		eth := map[string]any{}
		for k, v := range obj(i["openconfig-if-ethernet:ethernet"]) {
			eth[k] = v
		}
		sv := obj(eth["openconfig-vlan:switched-vlan"])
		delete(eth, "openconfig-vlan:switched-vlan")
		rest["openconfig-if-ethernet:ethernet"] = eth
		r.updates = append(r.updates, setItem{path, qualify(rest, "openconfig-interfaces"), nil})
		if sv != nil {
			r.replaces = append(r.replaces, setItem{path + "/ethernet/switched-vlan", qualify(sv, "openconfig-vlan"), nil})
		} else {
			r.deletes = append(r.deletes, path+"/ethernet/switched-vlan")
		}
		if _, ok := obj(i["config"])["description"]; !ok {
			r.deletes = append(r.deletes, path+"/config/description")
		}
	}
}

// qosLists are the /qos lists whose entries fabricc names, with their
// key; each entry is replaced whole.
var qosLists = []struct{ container, list, key string }{
	{"classifiers", "classifier", "name"},
	{"forwarding-groups", "forwarding-group", "name"},
	{"queue-management-profiles", "queue-management-profile", "name"},
	{"queues", "queue", "name"},
	{"scheduler-policies", "scheduler-policy", "name"},
	{"interfaces", "interface", "interface-id"},
}

// addQoS replaces each /qos list entry fabricc names and deletes the
// DSCP classifiers when the fabric has none.
func (r *setRequest) addQoS(q map[string]any) {
	for _, l := range qosLists {
		for _, e := range list(obj(q[l.container]), l.list) {
			r.replaces = append(r.replaces, setItem{"/qos/" + l.container + "/" + l.list + key(l.key, e[l.key]),
				qualify(e, "openconfig-qos"), nil})
		}
	}
	if q["classifiers"] == nil {
		for _, c := range []string{classifierIPv4, classifierIPv6} {
			r.deletes = append(r.deletes, "/qos/classifiers/classifier"+key("name", c))
		}
	}
}

// obj is v as a JSON object, or nil.
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// list returns the entries of the list named name inside container c.
func list(c map[string]any, name string) []map[string]any {
	var out []map[string]any
	entries, _ := c[name].([]any)
	for _, e := range entries {
		out = append(out, obj(e))
	}
	return out
}

// key writes a gNMI path key, escaping "]" and "\" in the value (gNMI
// path conventions, "Paths and keys": a key value containing "]" or "\"
// has it escaped with "\").
func key(name string, v any) string {
	s := fmt.Sprint(v)
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `]`, `\]`)
	return "[" + name + "=" + s + "]"
}

// qualify returns m with each top-level member name qualified by module
// mod unless it already names its module: RFC 7951 section 4, "A
// namespace-qualified member name MUST be used for all members of a
// top-level JSON object", which a gNMI JSON_IETF value is.
func qualify(m map[string]any, mod string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !strings.Contains(k, ":") {
			k = mod + ":" + k
		}
		out[k] = v
	}
	return out
}

// encode writes the request file: indented JSON, members sorted by name
// ("deletes", "replaces", "updates": the order a target applies them in).
// Each replace and update carries "encoding": "json_ietf" (gNMI
// specification 2.3.1: JSON_IETF is RFC 7951 JSON), so gnmic sends it so
// whatever its -e flag says.
func (r *setRequest) encode() []byte {
	doc := map[string]any{}
	if len(r.deletes) > 0 {
		d := make([]any, len(r.deletes))
		for i, p := range r.deletes {
			d[i] = p
		}
		doc["deletes"] = d
	}
	for name, items := range map[string][]setItem{"replaces": r.replaces, "updates": r.updates} {
		if len(items) == 0 {
			continue
		}
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = it.object()
		}
		doc[name] = out
	}
	var b bytes.Buffer
	writeAny(&b, doc, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

// writeAny writes v (decoded JSON: objects, arrays, strings, json.Number,
// bools) indented by two spaces per level with object members sorted.
func writeAny(b *bytes.Buffer, v any, level int) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(b, level+1)
			writeString(b, k)
			b.WriteString(": ")
			writeAny(b, v[k], level+1)
		}
		indent(b, level)
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(b, level+1)
			writeAny(b, e, level+1)
		}
		indent(b, level)
		b.WriteByte(']')
	case rawJSON:
		b.Write(v)
	case string:
		writeString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	default:
		b.WriteString("null")
	}
}

// indent starts a new line at level.
func indent(b *bytes.Buffer, level int) {
	b.WriteByte('\n')
	for i := 0; i < level; i++ {
		b.WriteString("  ")
	}
}

// writeString writes s as a JSON string with HTML escaping off and "{"
// and "}" written as \u007b and \u007d: gnmic reads a request file as a
// Go text/template before it parses it (gnmic documentation, "set"
// command, "Templated Set Request file"), so a "{{" in a description
// would otherwise be run as a template action. The escapes read back as
// the same characters in JSON and YAML alike.
func writeString(b *bytes.Buffer, s string) {
	if plain(s) {
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	var e bytes.Buffer
	enc := json.NewEncoder(&e)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a Go string always encodes
	lit := bytes.TrimSuffix(e.Bytes(), []byte{'\n'})
	lit = bytes.ReplaceAll(lit, []byte("{"), []byte(`\u007b`))
	lit = bytes.ReplaceAll(lit, []byte("}"), []byte(`\u007d`))
	b.Write(lit)
}

// plain reports whether s is printable ASCII that JSON writes as is and
// holds no brace.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '{' || c == '}' {
			return false
		}
	}
	return true
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
