package compiler

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
)

// Sizes are written "150KB", "1.5MB", "512B" or as a plain number of
// bytes. KB and MB are binary (1024 and 1024*1024 bytes): Onyx prints ECN
// thresholds in KB and EOS takes "kbytes", both counting 1024 bytes, and
// NVUE shows 150000 B as "146.48 KB" (mellanox.onyx Ansible collection,
// onyx_traffic_class.py: "value (in KBs)"; Cumulus Linux user guide, RoCE,
// `nv show qos roce`).
var sizeUnits = []struct {
	suffix string
	bytes  float64
}{
	{"KB", 1024},
	{"MB", 1024 * 1024},
	{"B", 1},
}

// sizeForms is what parseSize accepts, for error messages.
const sizeForms = `a number of bytes (153600) or a string with a unit B, KB or MB ("150KB", "1.5MB"; KB = 1024 bytes)`

// parseSize parses a buffer size into bytes. A unit with a lowercase b
// ("kb", "Mb", "b") is refused: by convention it counts bits (IEEE
// 1541-2002 writes the bit b and the byte B), and read as bytes it would
// be 8 times what was meant.
func parseSize(s string) (int64, error) {
	if unit := bitUnit(strings.TrimSpace(s)); unit != "" {
		return 0, fmt.Errorf("%q reads as %s (a lowercase b means bits), an eighth of what fabricc would take it for, since fabricc sizes are bytes; write %q (KB = 1024 bytes, MB = 1024 KB)", s, unit, strings.ToUpper(strings.TrimSpace(s)))
	}
	t := strings.ToUpper(strings.TrimSpace(s))
	mult, unit := 1.0, ""
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suffix) {
			t = strings.TrimSpace(strings.TrimSuffix(t, u.suffix))
			mult, unit = u.bytes, u.suffix
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) || v*mult > 1<<40 {
		return 0, fmt.Errorf("%q is not a size; write %s", s, sizeForms)
	}
	if mult == 1 && v != math.Trunc(v) {
		// max = 1.5 was rounded to 2 bytes; 1.5 MB was meant.
		what := "a bare number is bytes"
		if unit == "B" {
			what = "B is bytes"
		}
		return 0, fmt.Errorf("%q is a fraction of a byte (%s, and sizes in bytes are whole numbers); for megabytes write %q", s, what, strings.TrimSpace(strings.TrimSuffix(t, "B"))+"MB")
	}
	return int64(math.Round(v * mult)), nil
}

// bitUnit names the bit unit t ends with ("kilobits" for "150kb" or
// "150Kb", "megabits", "bits" for "512b"), or "".
func bitUnit(t string) string {
	n := len(t)
	if n < 2 || t[n-1] != 'b' {
		return ""
	}
	switch c := t[n-2]; {
	case c == 'k' || c == 'K':
		return "kilobits"
	case c == 'm' || c == 'M':
		return "megabits"
	case c == ' ' || c >= '0' && c <= '9' || c == '.':
		return "bits"
	}
	return ""
}

// portSpeeds maps the accepted speed strings to Mb/s. They are the speeds
// NVUE accepts for "link speed" (NVUE command reference, `nv set interface
// <if> link speed`), which also
// cover the Onyx and EOS port speeds.
var portSpeeds = map[string]int{
	"100M": 100,
	"1G":   1000,
	"10G":  10000,
	"25G":  25000,
	"40G":  40000,
	"50G":  50000,
	"100G": 100000,
	"200G": 200000,
	"400G": 400000,
	"800G": 800000,
}

// speedForms lists the accepted speeds in ascending order.
func speedForms() string {
	names := make([]string, 0, len(portSpeeds))
	for n := range portSpeeds {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return portSpeeds[names[i]] < portSpeeds[names[j]] })
	return strings.Join(names, ", ")
}

// sortedSpeeds lists the accepted speeds in Mb/s, ascending.
func sortedSpeeds() []int {
	out := make([]int, 0, len(portSpeeds))
	for _, v := range portSpeeds {
		out = append(out, v)
	}
	sort.Ints(out)
	return out
}

// parseSpeed parses a port speed ("25G", case-insensitive) into Mb/s.
// Its error is whole sentences: the accepted speeds, and the one s
// means when it is a speed written another way (speedMeant).
func parseSpeed(s string) (int, error) {
	if v, ok := portSpeeds[strings.ToUpper(strings.TrimSpace(s))]; ok {
		return v, nil
	}
	hint := ""
	if m := speedMeant(s); m != "" {
		hint = fmt.Sprintf(" Did you mean %q?", m)
	}
	return 0, fmt.Errorf("%q is not a port speed; write one of %s.%s", s, speedForms(), hint)
}

// speedWritten matches a speed written with a unit of its own: a number,
// then G or M with what vendors and people add to it ("100Gb",
// "100GbE", "100 G", "25Gbps", "100Gb/s", "1000Mbps"), or nothing.
var speedWritten = regexp.MustCompile(`^([0-9]+)\s*(?:([gm])(?:b|bit|bits)?(?:e|ps|/s)?)?$`)

// speedMeant is the accepted speed s stands for, or "": the number in
// the unit written, or, for a bare number (speed = 100), in Gb/s, else
// in Mb/s (speed = 1000 is 1G).
func speedMeant(s string) string {
	m := speedWritten.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return ""
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n > 1e9 {
		return ""
	}
	var units []int
	switch m[2] {
	case "g":
		units = []int{1000}
	case "m":
		units = []int{1}
	default: // a bare number
		units = []int{1000, 1}
	}
	for _, u := range units {
		if form := speedForm(n * u); form != "" {
			return form
		}
	}
	return ""
}

// speedForm is the accepted spelling of mbps, or "": speedText spells
// Mb/s as portSpeeds' keys are written.
func speedForm(mbps int) string {
	f := speedText(mbps)
	if _, ok := portSpeeds[f]; ok {
		return f
	}
	return ""
}

// naturalLess orders names so that embedded numbers compare by value
// ("swp2" < "swp10"); see model.NaturalLess.
func naturalLess(a, b string) bool { return model.NaturalLess(a, b) }

// naturalCompare is naturalLess as -1, 0 or +1.
func naturalCompare(a, b string) int { return model.NaturalCompare(a, b) }

// didYouMean returns ` Did you mean "x"?` for the closest candidate, or
// "" (dsl.DidYouMean: fabricc's one suggestion rule).
func didYouMean(name string, candidates []string) string {
	return dsl.DidYouMean(name, candidates)
}

// sortedUnique returns the values sorted ascending without repeats.
func sortedUnique(v []int) []int {
	out := append([]int(nil), v...)
	sort.Ints(out)
	n := 0
	for i, x := range out {
		if i == 0 || x != out[n-1] {
			out[n] = x
			n++
		}
	}
	return out[:n]
}
