package compiler

import (
	"net/netip"
	"slices"

	"github.com/fabricc/fabricc/model"
)

// railKey names the NICs of one rail: those of one connected component of
// the cabling and one address family whose links land on one switch
// (leaf; "" for a NIC cabled to another host or not at all), at one place
// among their hosts' NICs of that component and family (0 for the first
// by name).
type railKey struct {
	root string
	v6   bool
	leaf string
	rail int
}

// group is the rail's component and family: the rails one host's NICs
// can carry.
func (k railKey) group() railKey { return railKey{root: k.root, v6: k.v6} }

// mainRoutes gives each NIC with a route (model.NICRoute.Prefixes) the
// main-table routes to the other fabric NICs' subnets it carries. The
// rule for the NIC's address selects its own table only for packets
// already bound to that address; RDMA-CM initiators that resolve with no
// source (NFS over RDMA, net/sunrpc/xprtrdma/verbs.c rpcrdma_create_id;
// the SMB Direct client, fs/smb/client/smbdirect.c; nvme-rdma without
// --host-traddr, drivers/nvme/host/rdma.c) look the destination up in the
// main table alone (drivers/infiniband/core/addr.c addr4_resolve and
// addr6_resolve with no source address), which holds no fabric route.
//
// Which local NIC carries a destination (railCarrier): the one cabled to
// the leaf the destination NIC is cabled to, so that a rail-optimized
// fabric keeps each rail on its own leaf and off the spine, whatever the
// NICs are named; else the one at the destination NIC's place among its
// host's NICs; else the host's first by name. Each rail goes through one
// NIC, so no prefix is routed twice. The subnets are merged into the
// fewest exact CIDR prefixes (collapsePrefixes); a prefix equal to or
// inside one of the host's own subnets is left out, as the kernel's
// connected route already covers it (and ip route replace of the same
// prefix would take that route's place).
func (l *lowering) mainRoutes() {
	if !anyNICRoute(l.f) {
		return // the usual fabric, hosts in the leaves' VLANs: no walk of the cabling
	}
	comp := buildComponents(l.f)
	leaves := nicLeaves(l.f)
	rails := map[railKey][]netip.Prefix{}
	for i := range l.f.Hosts {
		h := &l.f.Hosts[i]
		for _, r := range hostRails(comp, leaves, h) {
			for _, a := range h.NICs[r.nic].Addresses {
				p, err := netip.ParsePrefix(a)
				if err == nil && p.Addr().Is6() == r.key.v6 {
					rails[r.key] = append(rails[r.key], p.Masked())
				}
			}
		}
	}
	byGroup := map[railKey][]railKey{} // the rails of each (root, family)
	for k, ps := range rails {
		rails[k] = collapsePrefixes(ps)
		byGroup[k.group()] = append(byGroup[k.group()], k)
	}
	for i := range l.f.Hosts {
		l.hostMainRoutes(comp, leaves, &l.f.Hosts[i], rails, byGroup)
	}
}

// anyNICRoute reports whether a NIC of f has a route of its own.
func anyNICRoute(f *model.Fabric) bool {
	for i := range f.Hosts {
		for j := range f.Hosts[i].NICs {
			if f.Hosts[i].NICs[j].Route != nil {
				return true
			}
		}
	}
	return false
}

// nicLeaves is the switch each host NIC's cable lands on, by nicNode (a
// NIC takes one cable: links.go refuses a second as "Cabled twice").
func nicLeaves(f *model.Fabric) map[string]string {
	out := map[string]string{}
	for _, l := range f.Links {
		if l.A.Kind == "host" && l.B.Kind == "switch" {
			out[nicNode(l.A.Device, l.A.Port)] = l.B.Device
		}
		if l.B.Kind == "host" && l.A.Kind == "switch" {
			out[nicNode(l.B.Device, l.B.Port)] = l.A.Device
		}
	}
	return out
}

// nicRail is one of a host's NICs (its index in the host) on a rail.
type nicRail struct {
	nic int
	key railKey
}

// hostRails places each of h's NICs with addresses on its rails, one per
// address family it has.
func hostRails(comp *components, leaves map[string]string, h *model.Host) []nicRail {
	var out []nicRail
	count := map[railKey]int{}
	for j := range h.NICs {
		n := &h.NICs[j]
		node := nicNode(h.Name, n.Name)
		root := comp.find(node)
		for _, v6 := range []bool{false, true} {
			if !hasFamily(n.Addresses, v6) {
				continue
			}
			g := railKey{root: root, v6: v6}
			out = append(out, nicRail{nic: j, key: railKey{root: root, v6: v6, leaf: leaves[node], rail: count[g]}})
			count[g]++
		}
	}
	return out
}

// hasFamily reports whether one of addrs is an IPv6 (v6) or IPv4 prefix.
func hasFamily(addrs []string, v6 bool) bool {
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a); err == nil && p.Addr().Is6() == v6 {
			return true
		}
	}
	return false
}

// hostMainRoutes fills the Prefixes of h's NICs with a route.
func (l *lowering) hostMainRoutes(comp *components, leaves map[string]string, h *model.Host, rails map[railKey][]netip.Prefix, byGroup map[railKey][]railKey) {
	carriers := map[railKey][]nicRail{} // (root, family) -> NICs with a route of that family, by name
	for _, r := range hostRails(comp, leaves, h) {
		if rt := h.NICs[r.nic].Route; rt != nil && routeIs6(rt) == r.key.v6 {
			rt.Prefixes = nil
			carriers[r.key.group()] = append(carriers[r.key.group()], r)
		}
	}
	if len(carriers) == 0 {
		return
	}
	assigned := map[int][]netip.Prefix{}
	for g, nics := range carriers {
		for _, rail := range byGroup[g] {
			carrier := railCarrier(nics, rail)
			assigned[carrier] = append(assigned[carrier], rails[rail]...)
		}
	}
	own := hostSubnets(h)
	seen := map[netip.Prefix]bool{}
	for j := range h.NICs {
		ps, ok := assigned[j]
		if !ok {
			continue
		}
		for _, p := range collapsePrefixes(ps) {
			if seen[p] || coveredBy(p, own) {
				continue
			}
			seen[p] = true
			h.NICs[j].Route.Prefixes = append(h.NICs[j].Route.Prefixes, p.String())
		}
	}
}

// railCarrier is the NIC, of a host's NICs with a route on rail's
// component and family (nics, by name), that carries the rail: the one
// cabled to the rail's leaf (of several, the one at the rail's place,
// else the first), else the one at the rail's place, else the first.
func railCarrier(nics []nicRail, rail railKey) int {
	var onLeaf []nicRail
	for _, n := range nics {
		if rail.leaf != "" && n.key.leaf == rail.leaf {
			onLeaf = append(onLeaf, n)
		}
	}
	if len(onLeaf) > 0 {
		nics = onLeaf
	}
	for _, n := range nics {
		if n.key.rail == rail.rail {
			return n.nic
		}
	}
	return nics[0].nic
}

// routeIs6 reports whether a route is for IPv6 packets: its source is an
// IPv6 address (a link-local gateway may carry IPv4, RFC 5549).
func routeIs6(r *model.NICRoute) bool {
	a, err := netip.ParseAddr(r.Source)
	return err == nil && a.Is6()
}

// hostSubnets is the subnets of all of h's NICs, host bits clear.
func hostSubnets(h *model.Host) []netip.Prefix {
	var out []netip.Prefix
	for _, n := range h.NICs {
		for _, a := range n.Addresses {
			if p, err := netip.ParsePrefix(a); err == nil {
				out = append(out, p.Masked())
			}
		}
	}
	return out
}

// coveredBy reports whether p equals or lies inside one of subnets.
func coveredBy(p netip.Prefix, subnets []netip.Prefix) bool {
	for _, s := range subnets {
		if s.Addr().Is4() == p.Addr().Is4() && s.Bits() <= p.Bits() && s.Contains(p.Addr()) {
			return true
		}
	}
	return false
}

// collapsePrefixes is the fewest CIDR prefixes that cover exactly the
// addresses of ps (of one family, host bits clear): sorted, a prefix
// inside another dropped, and two sibling prefixes (the halves of one
// prefix a bit shorter) merged into it, repeatedly. In address order.
func collapsePrefixes(ps []netip.Prefix) []netip.Prefix {
	sorted := slices.Clone(ps)
	slices.SortFunc(sorted, func(a, b netip.Prefix) int {
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return a.Bits() - b.Bits()
	})
	var out []netip.Prefix
	for _, p := range sorted {
		if len(out) > 0 && out[len(out)-1].Contains(p.Addr()) {
			continue // inside the previous prefix (sorted: it starts no later)
		}
		out = append(out, p)
		for len(out) >= 2 {
			parent, ok := siblings(out[len(out)-2], out[len(out)-1])
			if !ok {
				break
			}
			out = append(out[:len(out)-2], parent)
		}
	}
	return out
}

// siblings is the prefix whose two halves are a and b, in that order.
func siblings(a, b netip.Prefix) (netip.Prefix, bool) {
	if a.Bits() != b.Bits() || a.Bits() == 0 || a.Addr().Is4() != b.Addr().Is4() {
		return netip.Prefix{}, false
	}
	parent := netip.PrefixFrom(a.Addr(), a.Bits()-1).Masked()
	if parent.Addr() != a.Addr() || !parent.Contains(b.Addr()) || a == b {
		return netip.Prefix{}, false
	}
	return parent, true
}
