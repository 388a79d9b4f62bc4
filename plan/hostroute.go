package plan

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
)

// A routed NIC (model.NICRoute) gets, from its host's script, its own
// table with a default route via its gateway, a rule that selects the
// table for its address, and main-table routes to the subnets of the
// other NICs on its rail (Prefixes). The compiler derives those
// prefixes from the other hosts' addresses, so adding or removing a
// host changes the scripts of every routed host on its rail although
// nothing of theirs was written differently.

// routeChanges compares the routes of one NIC of base host h in the base (a)
// and the head (b): the written gateway is the NIC's own input; the
// route and its main-table prefixes are derived from it and from the
// other NICs of its rail (routeCauses).
func routeChanges(h *model.Host, a, b *model.NIC) (changes, effects []Change) {
	changes = change("gateway", writtenGateway(a.Route), writtenGateway(b.Route), "")
	effects = concat(change("route", routeText(a.Route), routeText(b.Route), ""), prefixChange(h, a, b))
	return changes, effects
}

// writtenGateway is the NIC's gateway attribute, "none" when not written.
func writtenGateway(r *model.NICRoute) string {
	if r == nil || !r.Written {
		return "none"
	}
	return r.Gateway
}

// routeText is "via 10.20.1.0 from 10.20.1.1 (table 1001, rule 1001)",
// or "none".
func routeText(r *model.NICRoute) string {
	if r == nil {
		return "none"
	}
	return "via " + r.Gateway + " from " + r.Source + " (table " + strconv.Itoa(r.Table) + ", rule " + strconv.Itoa(r.Priority) + ")"
}

// prefixChange is the change of the NIC's main-table routes, with a note
// naming each prefix the head no longer routes there and the commands of
// h's OS that delete the route an earlier script wrote for it where the
// script may leave it (the Linux one leaves a route without its mark, the
// Windows one a route it did not record: one a script older than its
// route record added); the FreeBSD script removes its own.
func prefixChange(h *model.Host, a, b *model.NIC) []Change {
	pa, pb := routePrefixes(a.Route), routePrefixes(b.Route)
	c := change("main routes", prefixText(pa), prefixText(pb), "")
	dropped := gone(pa, pb)
	if len(c) == 0 || len(dropped) == 0 {
		return c
	}
	var cmds []string
	switch h.OS {
	case model.OSLinux:
		for _, p := range dropped {
			cmds = append(cmds, mainRouteDel(a, p))
		}
	case model.OSWindows:
		for _, p := range dropped {
			cmds = append(cmds, windowsRouteDel(a, p)...)
		}
	case model.OSFreeBSD:
		// The FreeBSD script removes its own fabricc_ rc.conf routes the
		// fabric no longer has, and their live route while route get
		// still shows it via the same gateway (targets/freebsd,
		// routes_forget).
		c[0].Note = "the script removes its route to " + english.Or(dropped) + " (the live route and its rc.conf fabricc_ entry) when it runs"
		return c
	default:
		return c
	}
	lead := "if the main table still routes "
	if h.OS == model.OSWindows {
		// The Windows script removes the routes it recorded
		// (HKLM\SOFTWARE\fabricc\NetRoute, targets/windows).
		lead = "the script removes " + routesWord(len(dropped)) + " it recorded adding; if the main table still routes "
	}
	c[0].Note = lead + english.Or(dropped) + " here once the script ran, delete " + itThem(len(dropped)) + ": " + strings.Join(cmds, "; ")
	return c
}

// windowsRouteDel deletes the route to p on the NIC's adapter from both
// stores New-NetRoute saved it in (Microsoft Learn, Remove-NetRoute,
// -PolicyStore; New-NetRoute, -PolicyStore: "By default, a route is saved
// in both stores").
func windowsRouteDel(n *model.NIC, p string) []string {
	var out []string
	for _, store := range []string{"ActiveStore", "PersistentStore"} {
		out = append(out, "Remove-NetRoute -InterfaceAlias "+quote.PowerShell(n.Interface)+" -DestinationPrefix "+quote.PowerShell(p)+" -PolicyStore "+store+" -Confirm:$false")
	}
	return out
}

// routePrefixes are a route's main-table prefixes, none without a route.
func routePrefixes(r *model.NICRoute) []string {
	if r == nil {
		return nil
	}
	return r.Prefixes
}

// prefixText is "10.20.1.0/29, 10.20.9.1/32", or "none".
func prefixText(ps []string) string {
	if len(ps) == 0 {
		return "none"
	}
	return strings.Join(ps, ", ")
}

// routeFamily is ip's family option for a route: -6 for an IPv6 source,
// -4 otherwise (an IPv4 route keeps -4 via an IPv6 next hop).
func routeFamily(r *model.NICRoute) string {
	if strings.Contains(r.Source, ":") {
		return "-6"
	}
	return "-4"
}

// containsString reports whether s holds v.
func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// routeCauses names the NICs whose subnets one NIC's main-table routes
// cover in one revision and not the other: "host stor01 removed",
// "gpu05:rail1 added", "gpu02:rail1 changed", at most maxRouteCauses of
// them and a count of the rest.
func routeCauses(base, head *model.Fabric, host string, a, b *model.NIC) []string {
	pa, pb := parsePrefixes(routePrefixes(a.Route)), parsePrefixes(routePrefixes(b.Route))
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, side := range []struct {
		f, other *model.Fabric
		in, out  []netip.Prefix
		verb     string
	}{{base, head, pa, pb, "removed"}, {head, base, pb, pa, "added"}} {
		for i := range side.f.Hosts {
			h := &side.f.Hosts[i]
			if h.Name == host {
				continue
			}
			for j := range h.NICs {
				n := &h.NICs[j]
				if movedOnRail(n, side.in, side.out) {
					add(nicCause(h, n, side.other, side.verb))
				}
			}
		}
	}
	if len(out) > maxRouteCauses {
		out = append(out[:maxRouteCauses], "and "+strconv.Itoa(len(out)-maxRouteCauses)+" more")
	}
	if len(out) > 0 {
		out[0] = "the subnets on its rail: " + out[0]
	}
	return out
}

// maxRouteCauses is how many NICs routeCauses names.
const maxRouteCauses = 3

// movedOnRail reports whether a subnet of n is covered by a prefix of in
// and by none of out.
func movedOnRail(n *model.NIC, in, out []netip.Prefix) bool {
	for _, a := range n.Addresses {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			continue
		}
		if p = p.Masked(); covered(in, p) && !covered(out, p) {
			return true
		}
	}
	return false
}

// covered reports whether a prefix of ps holds all of p.
func covered(ps []netip.Prefix, p netip.Prefix) bool {
	for _, q := range ps {
		if q.Bits() <= p.Bits() && q.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

// nicCause is "host H VERB" when the other revision lacks host h,
// "H:N VERB" when it lacks the NIC, and "H:N changed" otherwise.
func nicCause(h *model.Host, n *model.NIC, other *model.Fabric, verb string) string {
	oh := other.Host(h.Name)
	switch {
	case oh == nil:
		return "host " + h.Name + " " + verb
	case oh.NIC(n.Name) == nil:
		return h.Name + ":" + n.Name + " " + verb
	}
	return h.Name + ":" + n.Name + " changed"
}

// parsePrefixes parses the compiler's prefixes; it wrote them.
func parsePrefixes(ps []string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range ps {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// gone are the prefixes of a that b lacks.
func gone(a, b []string) []string {
	var out []string
	for _, p := range a {
		if !containsString(b, p) {
			out = append(out, p)
		}
	}
	return out
}

// routesWord is "the route" or "the routes", by n.
func routesWord(n int) string {
	if n == 1 {
		return "the route"
	}
	return "the routes"
}

// itThem is "it" for one, "them" for more.
func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// mainRouteDel deletes the main-table route to prefix p that n's script
// wrote: on its interface only, so another route to p stays (ip-route(8),
// "ip route del": a route is selected by the prefix and the attributes
// given).
func mainRouteDel(n *model.NIC, p string) string {
	return "ip " + routeFamily(n.Route) + " route del " + p + " dev " + quote.ShellWord(n.Interface)
}

// routeKept is "rule 1001, table 1001 and main routes 10.20.1.0/29,
// 10.20.9.1/32" for a routed NIC, nil for another.
func routeKept(n *model.NIC) []string {
	r := n.Route
	if r == nil {
		return nil
	}
	out := []string{"rule " + strconv.Itoa(r.Priority), "routing table " + strconv.Itoa(r.Table)}
	if len(r.Prefixes) > 0 {
		out = append(out, "main routes "+strings.Join(r.Prefixes, ", "))
	}
	return out
}

// routeClear deletes what a routed NIC's script wrote: the rule at its
// priority (ip-rule(8), "ip rule del"), its table's routes (ip-route(8),
// "ip route flush table") and its main-table routes (mainRouteDel).
// Deleting an interface's last address of a family drops the routes
// through it but not the rule, so these go first.
func routeClear(n *model.NIC) []string {
	r := n.Route
	if r == nil {
		return nil
	}
	fam := routeFamily(r)
	out := []string{"ip " + fam + " rule del priority " + strconv.Itoa(r.Priority), "ip " + fam + " route flush table " + strconv.Itoa(r.Table)}
	for _, p := range r.Prefixes {
		out = append(out, mainRouteDel(n, p))
	}
	return out
}
