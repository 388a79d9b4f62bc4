package compiler

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Sources remembers where each value of the model was written, so that a
// check made on resolved values can still point at the HCL that set them.
//
// Keys are slash-separated paths:
//
//	fabric
//	qos, qos/class/<name>, qos/class/<name>/<attr>, qos/class/<name>/ecn/<attr>
//	vlan/<id>
//	switch/<name>, switch/<name>/<attr>
//	switch/<name>/port/<port>, switch/<name>/port/<port>/<attr>
//	host/<name>, host/<name>/<attr>
//	host/<name>/nic/<nic>, host/<name>/nic/<nic>/<attr>
//	link/<index>, link/<index>/<attr>   (index in declaration order)
//	switch/<name>/port/<port>/link, .../link/length (the port's link)
//
// <attr> is the HCL attribute name ("mtu", "speed", "priority", "a").
// A port declared by a range maps to the range's label, and an attribute
// set by an `override` block maps to that block's attribute.
type Sources map[string]hcl.Range

// Key joins path elements into a Sources key.
func Key(parts ...string) string { return strings.Join(parts, "/") }

// Set records r for the path, ignoring empty ranges (attribute not written).
func (s Sources) Set(r hcl.Range, parts ...string) {
	if r.Filename == "" {
		return
	}
	s[Key(parts...)] = r
}

// At returns the range recorded for the path, or for its nearest recorded
// ancestor (switch/a/port/b/mtu falls back to switch/a/port/b, then to
// switch/a). It returns nil when nothing on the path was recorded.
func (s Sources) At(parts ...string) *hcl.Range {
	for n := len(parts); n > 0; n-- {
		if r, ok := s[Key(parts[:n]...)]; ok {
			return &r
		}
	}
	return nil
}
