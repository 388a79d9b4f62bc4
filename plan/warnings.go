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
	// Key tells two warnings apart across revisions whatever their
	// line: the code and what the warning names, with the place left
	// out; not written.
	Key string `json:"-"`
}

// DiffWarnings sets the plan's new and gone warnings: those of head
// whose Key base lacks, and those of base whose Key head lacks. A key
// that occurs n times in one revision and m in the other counts the
// difference.
func DiffWarnings(p *Plan, base, head []Warning) {
	p.NewWarnings = missing(head, base)
	p.GoneWarnings = missing(base, head)
}

// missing is the warnings of a beyond those of b with the same Key.
func missing(a, b []Warning) []Warning {
	have := map[string]int{}
	for _, w := range b {
		have[w.Key]++
	}
	var out []Warning
	for _, w := range a {
		if have[w.Key] > 0 {
			have[w.Key]--
			continue
		}
		out = append(out, w)
	}
	return out
}

// warningText is "fabric.hcl:34:3: ECN minimum above DCQCN bound
// (ecn-minimum-above-dcqcn-bound): Class ...".
func warningText(w Warning) string {
	s := w.Subject + ": " + w.Summary + " (" + w.Code + ")"
	if d := strings.TrimSpace(w.Detail); d != "" {
		s += ": " + d
	}
	return s
}
