package dsl

import "github.com/hashicorp/hcl/v2"

// Related is another place in the source that a diagnostic is about: the
// first declaration of a duplicate, or the other end of a disagreement.
type Related struct {
	// Label says what the place is ("switch port leaf1:swp1 declares MTU 9216").
	Label string
	Range hcl.Range
}

// extra is what fabricc keeps in hcl.Diagnostic.Extra.
type extra struct {
	related  []Related
	instance string
	// instances are the instances a collapsed diagnostic stands for.
	instances []string
	// shown is the line of a character the file may not hold, made
	// printable, for the text form's snippet (badline.go).
	shown *shownLine
}

// extraOf returns d's extra, creating it.
func extraOf(d *hcl.Diagnostic) *extra {
	e, _ := d.Extra.(*extra)
	if e == nil {
		e = &extra{}
		d.Extra = e
	}
	return e
}

// SetInstance records which instance of a repeated block (a dynamic
// block, a for_each, a port range) d is about ("leaf3", "gpu07:nic1"),
// so that Collapse can name the instances of one mistake.
func SetInstance(d *hcl.Diagnostic, name string) *hcl.Diagnostic {
	extraOf(d).instance = name
	return d
}

// InstanceOf returns the instance recorded with SetInstance, or "".
func InstanceOf(d *hcl.Diagnostic) string {
	if e, ok := d.Extra.(*extra); ok {
		return e.instance
	}
	return ""
}

// Also records that d is also about the place r, described by label, and
// returns d. Diagnostic writers show every related place with its own
// snippet (text) or range (JSON).
func Also(d *hcl.Diagnostic, label string, r hcl.Range) *hcl.Diagnostic {
	e := extraOf(d)
	e.related = append(e.related, Related{Label: label, Range: r})
	return d
}

// RelatedOf returns the places recorded with Also, in order.
func RelatedOf(d *hcl.Diagnostic) []Related {
	if e, ok := d.Extra.(*extra); ok {
		return e.related
	}
	return nil
}

// InstancesOf returns every instance d is about: all the instances of a
// diagnostic that Collapse made of many, each named (its detail names
// five), or the one SetInstance recorded; nil when they are not all
// known.
func InstancesOf(d *hcl.Diagnostic) []string {
	e, ok := d.Extra.(*extra)
	switch {
	case !ok:
		return nil
	case e.instances != nil:
		return e.instances
	case e.instance != "":
		return []string{e.instance}
	}
	return nil
}
