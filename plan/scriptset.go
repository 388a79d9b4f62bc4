package plan

import (
	"strconv"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets/freebsd"
	"github.com/fabricc/fabricc/targets/linux"
)

// scriptCable is the cable length, in whole meters, that host h's
// script gives NIC n, and what takes it; 0 when the script sets none.
// The host renderers say (linux.CableLength, freebsd.CableLength); a
// Windows script sets none.
func scriptCable(h *model.Host, n *model.NIC) (int, string) {
	switch h.OS {
	case model.OSLinux:
		return linux.CableLength(n)
	case model.OSFreeBSD:
		return freebsd.CableLength(n)
	}
	return 0, ""
}

// scriptSettings are the values a host's script sets that the plan
// knows and that the NIC lines do not show as the script writes them:
// each NIC's cable length in whole metres ("roce0 cable length 3 -> 30
// m", with what takes it as the note). A NIC of one revision only is
// not listed: its line says it is added or removed.
func scriptSettings(a, b *model.Host) []Change {
	var out []Change
	for i := range b.NICs {
		nb := &b.NICs[i]
		na := a.NIC(nb.Name)
		if na == nil {
			continue
		}
		ma, toolA := scriptCable(a, na)
		mb, toolB := scriptCable(b, nb)
		if ma == mb {
			continue
		}
		c := Change{Field: nb.Name + " cable length", Before: metresOrNone(ma), After: metresOrNone(mb), Unit: "m", Note: toolB}
		if ma > 0 {
			v := int64(ma)
			c.BeforeValue = &v
		}
		if mb > 0 {
			v := int64(mb)
			c.AfterValue = &v
		} else {
			c.Note = toolA + ": not set, the NIC keeps the last length"
		}
		out = append(out, c)
	}
	return out
}

// metresOrNone is "5", or "none" for 0.
func metresOrNone(m int) string {
	if m == 0 {
		return "none"
	}
	return strconv.Itoa(m)
}
