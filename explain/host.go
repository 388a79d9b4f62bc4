package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/docs"
)

// hostElement resolves host/<name>[/...].
func (b *Build) hostElement(el *Element, path []string) error {
	h := b.Fabric.Host(path[1])
	if h == nil {
		return fmt.Errorf("the fabric has no host %q", path[1])
	}
	key := []string{"host", h.Name}
	rest := path[2:]
	switch {
	case len(rest) == 0:
		el.What = fmt.Sprintf("host %s (%s)", h.Name, join(" ", string(h.OS), h.OSVersion))
		b.add(el, "host block", key...)
	case rest[0] == "nic" && len(rest) >= 2:
		n := h.NIC(rest[1])
		if n == nil {
			return fmt.Errorf("host %s has no nic %q", h.Name, rest[1])
		}
		return b.nic(el, h, n, rest[2:])
	case rest[0] == "tuning":
		el.What = fmt.Sprintf("host %s's tuning: %t", h.Name, h.Tuning)
		b.addAttr(el, "tuning", key...)
	default:
		el.What = fmt.Sprintf("host %s's %s", h.Name, strings.ReplaceAll(rest[0], "_", " "))
		b.addAttr(el, rest[0], key...)
	}
	return nil
}

// roceAttrs are the NIC attributes that default to what the fabric's
// RoCE class (or CNP class) says.
var roceAttrs = map[string]bool{
	"priority": true, "dscp": true, "pfc_priorities": true, "trust": true, "cnp_priority": true, "cnp_dscp": true,
}

// nic resolves host/<h>/nic/<n>[/...]; "roce" stands for all its RoCE
// marking attributes at once.
func (b *Build) nic(el *Element, h *model.Host, n *model.NIC, rest []string) error {
	key := []string{"host", h.Name, "nic", n.Name}
	who := fmt.Sprintf("host %s, nic %s (%s on %s)", h.Name, n.Name, n.Model, n.Interface)
	switch {
	case len(rest) == 0:
		el.What = who
		b.add(el, "nic block", key...)
	case rest[0] == "link":
		el.What = fmt.Sprintf("the cable of %s: %s", who, peerText(n.Peer))
		b.add(el, "link block", append(key, "link")...)
	case rest[0] == "roce":
		el.What = fmt.Sprintf("the RoCE settings of %s: %s", who, roceText(n))
		for _, attr := range []string{"priority", "dscp", "pfc_priorities", "trust", "cnp_priority", "cnp_dscp"} {
			b.nicAttr(el, key, attr)
		}
	default:
		el.What = fmt.Sprintf("%s: %s %s", who, strings.ReplaceAll(rest[0], "_", " "), nicValue(n, rest[0]))
		b.nicAttr(el, key, rest[0])
		// An attribute the nic block does not write has its default:
		// say which value that is.
		if last := len(el.Sources) - 1; last >= 0 && !el.Sources[last].Written && !roceAttrs[rest[0]] && el.Sources[last].What == rest[0] {
			el.Sources[last].Default = nicValue(n, rest[0])
		}
		if rest[0] == "dscp" {
			el.Derivation = tosDerivation(n.RoCE)
		}
	}
	return nil
}

// tosDerivation is how r's ToS follows from its DSCP: the DSCP in the
// upper six bits of the IP ToS byte, as RDMA-CM takes it, plus ECT(0) on
// RoCE v2, whose packets must be ECN-capable for a switch to mark them
// (RFC 3168, section 5).
func tosDerivation(r model.RoCE) *Derivation {
	d := &Derivation{Name: "ToS", Formula: "ToS = DSCP x 4 (the DSCP in the upper six bits of the IP ToS byte, as RDMA-CM takes it)",
		Inputs: []Term{{Name: "DSCP", Value: strconv.Itoa(r.DSCP), From: "the nic's dscp, above"}},
		Steps:  []Term{{Name: "ToS", Value: strconv.Itoa(r.TOS)}}}
	if r.TOS&model.ECTZero != 0 {
		d.Formula = "ToS = DSCP x 4 + 2 (the DSCP in the upper six bits of the IP ToS byte, as RDMA-CM takes it, and ECT(0), which a switch needs to ECN-mark RoCE v2: RFC 3168, section 5)"
	}
	return d
}

// nicAttr adds the range of a NIC attribute; a RoCE attribute not written
// on the NIC comes from the fabric's RoCE or CNP class, a VLAN from its
// vlan block.
func (b *Build) nicAttr(el *Element, key []string, attr string) {
	if b.addExact(el, attr, append(append([]string(nil), key...), attr)...) {
		return
	}
	if !roceAttrs[attr] {
		b.addAttr(el, attr, key...)
		if attr == "vlan" {
			b.addNICVLAN(el, key)
		}
		return
	}
	q := &b.Fabric.QoS
	class := q.RoCEClass
	if strings.HasPrefix(attr, "cnp_") {
		class = q.CNPClass
	}
	b.addExact(el, "roce_class", "qos", "roce_class")
	if strings.HasPrefix(attr, "cnp_") {
		b.addExact(el, "cnp_class", "qos", "cnp_class")
	}
	if c := q.Class(class); c != nil {
		what := fmt.Sprintf("%s not written on the nic: class %q", attr, class)
		if ca := classAttrOf[attr]; ca != "" {
			b.addClassAttr(el, c, what, ca)
		} else {
			b.addClass(el, c, what)
		}
	}
}

// classAttrOf is the class attribute a NIC's RoCE attribute takes its
// value from when the NIC does not write it.
var classAttrOf = map[string]string{
	"priority": "priority", "pfc_priorities": "priority", "dscp": "dscp",
	"cnp_priority": "priority", "cnp_dscp": "dscp",
}

// addClassAttr adds where attribute attr of class c comes from: the
// attribute when the class block writes it; else the class block (not
// written there) and the profile that gives the value.
func (b *Build) addClassAttr(el *Element, c *model.Class, what, attr string) {
	key := []string{"qos", "class", c.Name, attr}
	if b.fromProfile(c) || b.addExact(el, what, key...) {
		if b.fromProfile(c) {
			b.addClass(el, c, what)
		}
		return
	}
	b.add(el, what, key...)
	if p := b.Fabric.QoS.Profile; p != "" {
		b.addExact(el, fmt.Sprintf("class %q %s, from profile %q", c.Name, attr, p), "qos", "profile")
	}
}

// addNICVLAN adds the vlan block of the NIC's VLAN.
func (b *Build) addNICVLAN(el *Element, key []string) {
	h := b.Fabric.Host(key[1])
	if n := h.NIC(key[3]); n != nil && n.VLAN != 0 {
		b.addExact(el, "vlan block "+strconv.Itoa(n.VLAN), "vlan", strconv.Itoa(n.VLAN))
	}
}

// roceText sums up a NIC's RoCE marking.
func roceText(n *model.NIC) string {
	r := &n.RoCE
	return fmt.Sprintf("RoCE %s, priority %d, DSCP %d, PFC on %s, trust %s, DCQCN on %s, CNPs priority %d DSCP %d",
		r.Mode, r.Priority, r.DSCP, docs.Ranges(r.PFCPriorities), r.Trust, docs.Ranges(r.ECNPriorities), r.CNPPriority, r.CNPDSCP)
}

// nicValue prints one attribute's value on n.
func nicValue(n *model.NIC, attr string) string {
	r := &n.RoCE
	switch attr {
	case "mtu":
		return strconv.Itoa(n.MTU)
	case "vlan":
		if n.VLAN == 0 {
			return "none (untagged)"
		}
		return strconv.Itoa(n.VLAN)
	case "addresses":
		return strings.Join(n.Addresses, ", ")
	case "priority":
		return strconv.Itoa(r.Priority)
	case "dscp":
		return fmt.Sprintf("%d (ToS %d)", r.DSCP, r.TOS)
	case "cnp_priority":
		return strconv.Itoa(r.CNPPriority)
	case "cnp_dscp":
		return strconv.Itoa(r.CNPDSCP)
	case "pfc_priorities":
		return docs.Ranges(r.PFCPriorities)
	case "trust":
		return string(r.Trust)
	case "roce_mode":
		return r.Mode
	case "driver":
		return n.Driver
	case "model":
		return n.Model
	case "transport":
		return string(n.Transport)
	case "interface":
		return strconv.Quote(n.Interface)
	case "vlan_interface":
		if n.VLAN == 0 {
			return "none (untagged)"
		}
		return strconv.Quote(n.VLANName())
	case "applications":
		var kinds []string
		for _, a := range n.Applications {
			kinds = append(kinds, a.Kind)
		}
		return orNone(strings.Join(kinds, ", "))
	}
	return ""
}
