package compiler

import (
	"github.com/fabricc/fabricc/model"
)

// Link overrides. A fabric's cabling is usually written by a dynamic
// block over a cabling plan, and its changes are single exceptions: one
// server recabled to another port, one longer cable. A link block with
// override = true replaces every other link that cables one of its
// ends, so the exception is one block beside the generator instead of
// a filter in its for_each. Override links are lowered first and take
// their ends; a later link that names one of those ends is left out
// without an error (its other end stays uncabled unless something else
// cables it). Two overrides on one end are "Cabled twice", as two links
// are; an override that replaces nothing is a warning, since it hides
// the next link written on its ends.

// linkOverrides is the state of the overrides while links are lowered.
type linkOverrides struct {
	// pass is true while the override links themselves are lowered.
	pass bool
	// by maps each end an override link cables to that link's index.
	by map[**model.Peer]int
	// taken lists the override links (by index) that took their ends,
	// in order; used marks those that replaced a link.
	taken []int
	used  map[int]bool
	// replaced collects, for the link being lowered, the overrides of
	// its ends.
	replaced []int
}

// overridden reports whether peer, already cabled, was taken by an
// override link that the link being lowered, not one itself, gives way
// to; it records the override as used.
func (l *lowering) overridden(peer **model.Peer) bool {
	if l.overrides.pass {
		return false
	}
	i, ok := l.overrides.by[peer]
	if ok {
		l.overrides.replaced = append(l.overrides.replaced, i)
	}
	return ok
}

// replacedByOverride reports whether the link just resolved (its ends
// aPeer and bPeer, nil where unresolved or overridden) gives way to an
// override; it then frees the end it had taken.
func (l *lowering) replacedByOverride(aPeer, bPeer **model.Peer) bool {
	if len(l.overrides.replaced) == 0 {
		return false
	}
	for _, i := range l.overrides.replaced {
		if l.overrides.used == nil {
			l.overrides.used = map[int]bool{}
		}
		l.overrides.used[i] = true
	}
	for _, p := range []**model.Peer{aPeer, bPeer} {
		if p != nil {
			delete(l.cabled, p)
		}
	}
	return true
}

// overrideTakes records the ends of link i when it is an override.
func (l *lowering) overrideTakes(i int, aPeer, bPeer **model.Peer) {
	if !l.overrides.pass {
		return
	}
	if l.overrides.by == nil {
		l.overrides.by = map[**model.Peer]int{}
	}
	l.overrides.by[aPeer], l.overrides.by[bPeer] = i, i
	l.overrides.taken = append(l.overrides.taken, i)
}

// overridesUnused warns about each override link that replaced no link.
func (l *lowering) overridesUnused() {
	for _, i := range l.overrides.taken {
		if l.overrides.used[i] {
			continue
		}
		dl := &l.cfg.Links[i]
		l.warnf(dl.OverrideRange.Or(dl.DefRange), "Link override replaces nothing",
			"the link %q - %q has override = true, but no other link cables either end, so it replaces nothing; remove override = true (it would hide the next link written on these ends).",
			dl.A, dl.B)
	}
}
