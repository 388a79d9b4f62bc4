package push

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
)

// onyxPool is one `traffic pool NAME` as a configuration's lines set it.
type onyxPool struct {
	name, typ string
	percent   float64
	sps       []int
}

var onyxPoolRe = regexp.MustCompile(`^traffic pool (\S+) (type|memory percent|map switch-priority) (.+)$`)

// onyxPoolsOf reads the traffic pools of lines, in name order.
func onyxPoolsOf(lines []string) []*onyxPool {
	byName := map[string]*onyxPool{}
	for _, l := range lines {
		m := onyxPoolRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		p := byName[m[1]]
		if p == nil {
			p = &onyxPool{name: m[1], typ: "lossy"} // the default type (Shared Buffer Commands, `type`)
			byName[m[1]] = p
		}
		switch m[2] {
		case "type":
			p.typ = m[3]
		case "memory percent":
			p.percent, _ = strconv.ParseFloat(m[3], 64)
		default:
			p.sps = expandInts(m[3])
		}
	}
	out := make([]*onyxPool, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *onyxPool) int { return strings.Compare(a.name, b.name) })
	return out
}

// onyxForeignPools refuses a push onto a switch whose traffic pools
// cannot hold the fabric's: a lossless pool fabricc does not own (the
// fabric's lossless priorities belong in fabricc's one lossless pool;
// NVIDIA's own onyx_buffer_pool example creates one named "roce"), or
// pools fabricc does not own taking so much of the buffer that the
// fabric's shares would bring the total above 100 %. Nothing is checked
// when the configuration has no traffic pools (advanced buffer mode, or
// no lossless class).
func onyxForeignPools(want, running []string) error {
	owned := map[string]*onyxPool{}
	total := 0.0
	for _, p := range onyxPoolsOf(want) {
		owned[p.name] = p
		total += p.percent
	}
	if len(owned) == 0 {
		return nil
	}
	var others []string
	for _, p := range onyxPoolsOf(running) {
		if owned[p.name] != nil {
			continue
		}
		name := quote.Visible(p.name)
		if p.typ == "lossless" {
			return fmt.Errorf("the switch has a lossless traffic pool %s (%.2f %% of the buffer, switch priorities %s) that fabricc does not own: "+
				"a switch priority belongs to one pool, and the fabric's lossless priorities belong in its own; "+
				"remove it with `no traffic pool %s` (configuration mode) and push again; nothing was changed",
				name, p.percent, prioritiesText(p.sps), name)
		}
		total += p.percent
		others = append(others, fmt.Sprintf("%s %.2f %%", name, p.percent))
	}
	if total > 100.0001 {
		return fmt.Errorf("the fabric's traffic pools and the switch's other pools (%s) would use %.2f %% of the buffer, more than 100 %%; "+
			"shrink or remove those pools (`no traffic pool NAME`) and push again; nothing was changed", strings.Join(others, ", "), total)
	}
	return nil
}

func prioritiesText(sps []int) string {
	if len(sps) == 0 {
		return "none"
	}
	return joinInts(sps)
}

// onyxPoolShrinksFirst moves the `traffic pool NAME memory percent P`
// lines of send that shrink a pool before the first traffic pool line,
// so that the pools never add up to more than 100 % on the way (Onyx
// applies each line at once, and the shares share one buffer).
func onyxPoolShrinksFirst(send, running []string) []string {
	now := map[string]float64{}
	for _, p := range onyxPoolsOf(running) {
		now[p.name] = p.percent
	}
	first := slices.IndexFunc(send, func(l string) bool { return onyxPoolRe.MatchString(l) })
	if first < 0 {
		return send
	}
	var shrink, rest []string
	for i, l := range send {
		m := onyxPoolRe.FindStringSubmatch(l)
		if i >= first && m != nil && m[2] == "memory percent" {
			if v, err := strconv.ParseFloat(m[3], 64); err == nil && v < now[m[1]] {
				shrink = append(shrink, l)
				continue
			}
		}
		rest = append(rest, l)
	}
	if len(shrink) == 0 {
		return send
	}
	return slices.Concat(rest[:first], shrink, rest[first:])
}
