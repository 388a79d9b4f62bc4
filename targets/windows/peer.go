package windows

import (
	"slices"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// peerName names what n is cabled to, for the script's comments and
// warnings: "switch port sn2410:1/1", or on a switchless (back-to-back)
// link "peer NIC nas:mlxen0", the NIC at the cable's far end, which then
// classifies and pauses the host's RoCE in the switch's place. A NIC the
// model has no cable for gets "its link peer". The names are the fabric's
// own text: quote.Visible keeps them on one line (a warning's q string may
// span lines, the script's reader and TestHostileModel want one), and
// every caller writes the result through quote.Comment or q.
func peerName(n model.NIC) string {
	p := n.Peer
	if p == nil {
		return "its link peer"
	}
	name := quote.Visible(p.Device + ":" + p.Port)
	if p.Kind == "host" {
		return "peer NIC " + name
	}
	return "switch port " + name
}

// peerNames names the peers of nics, each once, in order ("switch port
// sn2410:1/1 and switch port sn2410:1/2"), and reports whether there is
// more than one (for the verb).
func peerNames(nics []model.NIC) (string, bool) {
	var names []string
	for _, n := range nics {
		if s := peerName(n); !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	switch len(names) {
	case 0:
		return "", false
	case 1:
		return names[0], false
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1], true
}

// capital returns s with its first letter in upper case (peer names start
// with "switch", "peer" or "its").
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// verb returns singular or plural by plural.
func verb(plural bool, singular, many string) string {
	if plural {
		return many
	}
	return singular
}
