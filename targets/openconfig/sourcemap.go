package openconfig

import (
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// portAttrs names the HCL port attribute each leaf below
// /interfaces/interface comes from.
var portAttrs = map[string]string{
	"mtu":                 "mtu",
	"description":         "description",
	"port-speed":          "speed",
	"enable-flow-control": "pfc",
	"interface-mode":      "mode",
	"access-vlan":         "vlans",
	"trunk-vlans":         "vlans",
	"native-vlan":         "native_vlan",
	"input":               "trust",
}

// jsonElements returns the function that names the model elements of
// each node of sw's OpenConfig JSON (see Build for its shape): interfaces
// are ports, VLANs are VLANs, queues, forwarding groups, classifier terms
// and scheduler inputs are traffic classes, ECN profiles are their
// classes' ECN, and /qos/interfaces entries are ports. Containers shared
// by all (the roots, the default network instance, the scheduler
// sequences) are fixed text.
func jsonElements(sw *model.Switch) func(path []*targets.JSONNode) []targets.Element {
	return func(path []*targets.JSONNode) []targets.Element {
		n := path[len(path)-1]
		if len(path) < 2 {
			return nil
		}
		section := sectionOf(path)
		switch {
		case n.Index >= 0 && parentKey(path) == "interface" && section == "interfaces":
			return one("switch", sw.Name, "port", keyOf(n, "name"))
		case n.Index >= 0 && parentKey(path) == "interface" && section == "qos":
			return one("switch", sw.Name, "port", keyOf(n, "interface-id"))
		case n.Index >= 0 && parentKey(path) == "vlan":
			return one("vlan", keyOf(n, "vlan-id"))
		case n.Index >= 0 && (parentKey(path) == "queue" || parentKey(path) == "forwarding-group"):
			return queueElements(sw, path, keyOf(n, "name"))
		case n.Index >= 0 && parentKey(path) == "term":
			return one("qos", "class", keyOf(n, "id"), "dscp")
		case n.Index >= 0 && parentKey(path) == "input" && section == "qos":
			return one("qos", "class", keyOf(n, "id"), "ets")
		case n.Index >= 0 && parentKey(path) == "queue-management-profile":
			return one("qos", "class", strings.TrimSuffix(keyOf(n, "name"), "-ecn"), "ecn")
		case n.Index >= 0 && parentKey(path) == "trunk-vlans":
			return one("switch", sw.Name, "port", portOf(path), "vlans")
		case n.Key == "weight" && len(path) >= 3 && section == "qos":
			// Derived from the class's ETS (explain shows the step).
			return one("qos", "class", keyOf(path[len(path)-3], "id"), "ets", "weight")
		}
		return leafElements(sw, path)
	}
}

// leafElements names the port attribute of a leaf below an interface.
func leafElements(sw *model.Switch, path []*targets.JSONNode) []targets.Element {
	n := path[len(path)-1]
	attr, ok := portAttrs[n.Key]
	if !ok || sectionOf(path) == "" {
		return nil
	}
	port := portOf(path)
	if port == "" {
		return nil
	}
	out := one("switch", sw.Name, "port", port, attr)
	if n.Key == "mtu" && len(path) == 6 && sectionOf(path) == "interfaces" {
		// The interface mtu is derived: the frame size (ocMTU).
		out = one("switch", sw.Name, "port", port, "mtu", "frame")
	}
	if n.Key == "access-vlan" || n.Key == "native-vlan" {
		out = append(out, targets.Path("vlan", n.Value))
	}
	return out
}

// queueElements names the queue of class name: the class, or within a
// /qos/interfaces entry the port and the class's ECN (the profile bound
// to the port's output queue).
func queueElements(sw *model.Switch, path []*targets.JSONNode, name string) []targets.Element {
	for _, p := range path {
		if port := keyOf(p, "interface-id"); p.Index >= 0 && port != "" {
			return []targets.Element{targets.Path("switch", sw.Name, "port", port), targets.Path("qos", "class", name, "ecn")}
		}
	}
	return one("qos", "class", name)
}

// portOf is the port of the interface entry on path, or "".
func portOf(path []*targets.JSONNode) string {
	for i := len(path) - 1; i >= 0; i-- {
		if p := path[i]; p.Index >= 0 {
			if v := keyOf(p, "name"); v != "" && sectionOf(path) == "interfaces" {
				return v
			}
			if v := keyOf(p, "interface-id"); v != "" {
				return v
			}
		}
	}
	return ""
}

// sectionOf is the top-level container of path: "interfaces",
// "network-instances" or "qos".
func sectionOf(path []*targets.JSONNode) string {
	if len(path) < 2 {
		return ""
	}
	return path[1].Key
}

// parentKey is the member name of the array holding the last node.
func parentKey(path []*targets.JSONNode) string {
	if len(path) < 2 {
		return ""
	}
	return path[len(path)-2].Key
}

// keyOf is the value of a list entry's key leaf.
func keyOf(n *targets.JSONNode, key string) string {
	if k := n.Child(key); k != nil {
		return k.Value
	}
	return ""
}

// one is the element list of one path.
func one(parts ...string) []targets.Element { return []targets.Element{targets.Path(parts...)} }
