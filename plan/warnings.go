package plan

import "strings"

// Warning is one warning of a revision's compile.
type Warning struct {
	// Code is the warning's code, the name an accept block takes
	// ("ecn-minimum-above-dcqcn-bound").
	Code string `json:"code"`
	// Summary is the warning's title.
	Summary string `json:"summary"`
	// Subject is what it is about, the file:line:column of its place
	// ("fabric/fabric.hcl:34:3"; REV:PATH for a git base's).
	Subject string `json:"subject"`
	// Detail is the warning's text.
	Detail string `json:"detail,omitempty"`
	// Changed marks a new warning the base raised about the same
	// subject with another text.
	Changed bool `json:"changed,omitempty"`
	// Key tells two warnings apart across revisions whatever their
	// line: the code and what the warning names, with the place left
	// out; not written.
	Key string `json:"-"`
}

// DiffWarnings sets the plan's new and gone warnings. A warning of head
// whose Key base lacks is new; one whose Key base has with another
// detail is new and marked Changed (a warning about a whole switch that
// now names one more port); one of base whose Key head lacks is gone. A
// key that occurs n times in one revision and m in the other counts the
// difference.
func DiffWarnings(p *Plan, base, head []Warning) {
	old := map[string][]int{} // indexes into base, by key
	for i, w := range base {
		old[w.Key] = append(old[w.Key], i)
	}
	matched := make([]bool, len(base))
	for _, w := range head {
		q := old[w.Key]
		if len(q) == 0 {
			p.NewWarnings = append(p.NewWarnings, w)
			continue
		}
		old[w.Key], matched[q[0]] = q[1:], true
		if base[q[0]].Detail != w.Detail {
			w.Changed = true
			p.NewWarnings = append(p.NewWarnings, w)
		}
	}
	for i, w := range base {
		if !matched[i] {
			p.GoneWarnings = append(p.GoneWarnings, w)
		}
	}
}

// warningText is "fabric.hcl:34:3: ECN minimum above DCQCN bound
// (ecn-minimum-above-dcqcn-bound): Class ...", with "changed" beside the
// code of a warning the base raised with another text.
func warningText(w Warning) string {
	code := w.Code
	if w.Changed {
		code += ", changed"
	}
	s := w.Subject + ": " + w.Summary + " (" + code + ")"
	if d := strings.TrimSpace(w.Detail); d != "" {
		s += ": " + d
	}
	return s
}
