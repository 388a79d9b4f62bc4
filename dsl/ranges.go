package dsl

import "github.com/hashicorp/hcl/v2"

// Range is where a block, a label or an attribute is written: an
// hcl.Range held by pointer, or nothing when it is not written. The
// decoded blocks carry one per attribute they may have, written or not;
// a 4,096-switch fabric has about 7.5 million, and as hcl.Range (64
// bytes each) they were 479 MB of the 567 MB its configuration held.
// The instances of a dynamic block share the ranges of its content.
type Range struct{ r *hcl.Range }

// RangeOf returns r as a Range; the zero hcl.Range gives the zero
// Range.
func RangeOf(r hcl.Range) Range {
	if r == (hcl.Range{}) {
		return Range{}
	}
	return Range{&r}
}

// HCL returns the range; the zero hcl.Range when nothing is written.
func (r Range) HCL() hcl.Range {
	if r.r == nil {
		return hcl.Range{}
	}
	return *r.r
}

// Ptr returns a pointer to a copy of the range, as hcl.Range.Ptr does,
// for a diagnostic's Subject.
func (r Range) Ptr() *hcl.Range {
	h := r.HCL()
	return &h
}

// Or returns r, or fallback when nothing is written at r (an attribute
// not written, whose value is a default or a profile's): a check points
// at the attribute, or else at its block.
func (r Range) Or(fallback Range) Range {
	if r.Empty() {
		return fallback
	}
	return r
}

// Empty reports whether nothing is written there.
func (r Range) Empty() bool { return r.r == nil }

// Equal reports whether r and o are the same range (go-cmp uses it).
func (r Range) Equal(o Range) bool { return r.HCL() == o.HCL() }

// String is the range as hcl.Range prints it.
func (r Range) String() string { return r.HCL().String() }
