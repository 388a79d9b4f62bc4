package push

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/push/verify"
)

// onyxPoolRe is a `traffic pool NAME type|memory percent|map
// switch-priority` line.
var onyxPoolRe = regexp.MustCompile(`^traffic pool (\S+) (type|memory percent|map switch-priority) (.+)$`)

// onyxForeignPools refuses a push onto a switch whose traffic pools
// cannot hold the fabric's: a lossless pool fabricc does not own (the
// fabric's lossless priorities belong in fabricc's one lossless pool;
// NVIDIA's own onyx_buffer_pool example creates one named "roce"), or
// pools fabricc does not own taking so much of the buffer that the
// fabric's shares would bring the total above 100 %. Nothing is checked
// when the configuration has no traffic pools (advanced buffer mode, or
// no lossless class). want and running are the pools of the rendered
// and the running configuration (verify.OnyxPoolsOf).
func onyxForeignPools(want, running map[string]verify.OnyxPool) error {
	if len(want) == 0 {
		return nil
	}
	total, ours := 0.0, ""
	for _, name := range slices.Sorted(maps.Keys(want)) {
		total += want[name].Percent
		if want[name].Type == "lossless" && ours == "" {
			ours = name
		}
	}
	var others []string
	for _, n := range slices.Sorted(maps.Keys(running)) {
		if _, owned := want[n]; owned {
			continue
		}
		p := running[n]
		name := quote.Visible(n)
		if p.Type == "lossless" {
			// Review ronyx #4: mellanox.onyx onyx_buffer_pool's own
			// example creates such a pool ("roce"), so a shop migrating
			// from Ansible meets this first; Onyx applies each line at
			// once, so the removal's traffic impact is said.
			return fmt.Errorf("the switch has a lossless traffic pool %s (%.2f %% of the buffer, switch priorities %s) that fabricc does not own: "+
				"a switch priority belongs to one pool, and the fabric's lossless priorities belong in its own (%s); "+
				"remove it with `no traffic pool %s` (configuration mode) and push again right away, in a maintenance window: "+
				"Onyx applies the removal at once, so switch priorities %s have no lossless pool until the push puts them in %s; nothing was changed",
				name, p.Percent, prioritiesText(p.Priorities), quote.Visible(ours), name, prioritiesText(p.Priorities), quote.Visible(ours))
		}
		total += p.Percent
		others = append(others, fmt.Sprintf("%s %.2f %%", name, p.Percent))
	}
	if total > verify.OnyxPoolsLimit {
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
// applies each line at once, and the shares share one buffer). running
// are the pools of the running configuration (verify.OnyxPoolsOf).
func onyxPoolShrinksFirst(send []string, running map[string]verify.OnyxPool) []string {
	first := -1
	var shrink, rest []string
	for _, l := range send {
		m := onyxPoolRe.FindStringSubmatch(l)
		if m != nil && first < 0 {
			first = len(rest) // nothing before it moves: its index in send
		}
		if m != nil && m[2] == "memory percent" {
			if v, err := strconv.ParseFloat(m[3], 64); err == nil && v < running[m[1]].Percent {
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
