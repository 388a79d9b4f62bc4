package dsl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/natural"
)

// MaxPortsPerSpec bounds how many names one port spec may expand to, so a
// typo such as "swp1-100000" is an error instead of a huge allocation.
const MaxPortsPerSpec = 4096

// portSpecForms is the hint every port spec error ends with.
const portSpecForms = `expected a port name or a range FIRST-LAST in the platform's naming, ` +
	`such as "swp1-32" (Cumulus), "Ethernet1-4", "Ethernet1/1-32/1" or "Ethernet1/1-1/4" (EOS) ` +
	`or "1/1-1/4" (Onyx); ` +
	`join several with commas`

// ExpandPorts expands a port spec into port names, in the order written.
// A spec is a comma-separated list of items; each item is one port name
// ("swp1", "Ethernet1/1", "1/5") or a range FIRST-LAST where only the last
// number of FIRST counts up, or the one number that differs
// ("Ethernet1/1-24/1": lane 1 of ports 1 to 24). LAST may be written in
// full ("swp1-swp4") or as just its trailing part ("swp1-4",
// "Ethernet1/1-1/4", "1/1-1/4", "swp1s0-3"); everything but the counting
// number must match FIRST.
func ExpandPorts(spec string) ([]string, error) {
	var out []string
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		names, err := expandItem(item)
		if err != nil && item != strings.TrimSpace(spec) {
			return nil, fmt.Errorf("in port spec %q: %w", spec, err)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, names...)
		if len(out) > MaxPortsPerSpec {
			return nil, fmt.Errorf("port spec %q expands to more than %d ports; split it or check for a typo", spec, MaxPortsPerSpec)
		}
	}
	return out, nil
}

// expandItem expands one comma-free item.
func expandItem(item string) ([]string, error) {
	if item == "" {
		return nil, fmt.Errorf("empty port name; %s", portSpecForms)
	}
	if strings.ContainsAny(item, " \t\r\n") {
		return nil, fmt.Errorf("%q contains white space; %s", item, portSpecForms)
	}
	first, last, isRange := strings.Cut(item, "-")
	if !isRange {
		return []string{item}, nil
	}
	if strings.Contains(last, "-") {
		return nil, fmt.Errorf("%q has more than one '-'; %s", item, portSpecForms)
	}
	return expandRange(item, first, last)
}

// expandRange expands FIRST-LAST. LAST is aligned with the tail of FIRST;
// one number may change between them, the others and every non-digit part
// must match. That number is the last one ("swp1-4", "Ethernet1/1-1/4",
// the lanes of one port) unless only an earlier one differs
// ("Ethernet1/1-24/1", lane 1 of ports 1 to 24, the form `fabricc models`
// prints for multi-lane EOS ports).
func expandRange(item, first, last string) ([]string, error) {
	ft := natural.Runs(first)
	lt := natural.Runs(last)
	if len(ft) == 0 || len(lt) == 0 || !isDigits(ft[len(ft)-1]) || !isDigits(lt[len(lt)-1]) {
		return nil, fmt.Errorf("%q: both ends of a range must end in a number; %s", item, portSpecForms)
	}
	if len(lt) > len(ft) {
		return nil, fmt.Errorf("%q: the end %q does not match the start %q; %s", item, last, first, portSpecForms)
	}
	off := len(ft) - len(lt)
	at, err := countingRun(item, first, last, ft[off:], lt)
	if err != nil {
		return nil, err
	}
	at += off
	lo, err1 := strconv.Atoi(ft[at])
	hi, err2 := strconv.Atoi(lt[at-off])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%q: port number too large; %s", item, portSpecForms)
	}
	if hi < lo {
		return nil, fmt.Errorf("%q: the range counts down (%d > %d); write the lower port first", item, lo, hi)
	}
	if hi-lo >= MaxPortsPerSpec {
		return nil, fmt.Errorf("%q expands to more than %d ports; check for a typo", item, MaxPortsPerSpec)
	}
	prefix := strings.Join(ft[:at], "")
	suffix := strings.Join(ft[at+1:], "")
	names := make([]string, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		names = append(names, prefix+strconv.Itoa(n)+suffix)
	}
	return names, nil
}

// countingRun returns the index in lt (and in tail, the runs of FIRST it
// is aligned with) of the one number that counts: the only digit run that
// differs, or the last run when none but the last differs. Two differing
// numbers, or any differing non-digit part, are an error.
func countingRun(item, first, last string, tail, lt []string) (int, error) {
	at := -1
	for i := range lt {
		if lt[i] == tail[i] {
			continue
		}
		if !isDigits(lt[i]) || !isDigits(tail[i]) {
			return 0, fmt.Errorf("%q: only a number may change, but %q differs from %q in %q; %s", item, last, first, lt[i], portSpecForms)
		}
		if at >= 0 {
			return 0, fmt.Errorf("%q: only one number may change, but %q differs from %q in two (%s to %s, and %s to %s); %s",
				item, last, first, tail[at], lt[at], tail[i], lt[i], portSpecForms)
		}
		at = i
	}
	if at < 0 {
		at = len(lt) - 1
	}
	return at, nil
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !natural.IsDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
