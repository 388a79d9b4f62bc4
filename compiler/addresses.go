package compiler

import (
	"fmt"
	"net/netip"

	"github.com/fabricc/fabricc/dsl"
	"github.com/hashicorp/hcl/v2"
)

// nicAddr is one address of one NIC.
type nicAddr struct {
	host, nic string
	prefix    netip.Prefix
}

// name is "host:nic".
func (a nicAddr) name() string { return a.host + ":" + a.nic }

// checkAddresses reports an IP address on two NICs (an error: both
// answer ARP for it, and RDMA connections reach whichever answers
// first) and two NICs of one host in overlapping subnets (a warning: the
// host has one route for the subnet, so traffic meant for both leaves
// through one NIC and replies arriving on the other are dropped by
// reverse-path filtering, unless policy routing is set up).
func (l *lowering) checkAddresses() {
	// Sized for one address per NIC: a large fabric's map is not
	// rehashed as it grows (190,000 NICs at 4,096 switches).
	first := make(map[netip.Addr]nicAddr, l.nicCount())
	var mine []nicAddr
	for _, h := range l.f.Hosts {
		mine = mine[:0]
		for _, n := range h.NICs {
			for _, s := range n.Addresses {
				p, err := netip.ParsePrefix(s)
				if err != nil {
					continue // lowerNIC reported it
				}
				a := nicAddr{h.Name, n.Name, p}
				done := l.within(a.name())
				if prev, dup := first[p.Addr()]; dup {
					d := l.errorf(l.addrRange(a), "Duplicate IP address",
						"%s has address %s, which %s already has; every NIC needs its own address. Change one of them.",
						a.name(), p.Addr(), prev.name())
					also(d, fmt.Sprintf("%s has %s", prev.name(), prev.prefix), l.addrRange(prev))
				} else {
					first[p.Addr()] = a
				}
				mine = append(mine, a)
				done()
			}
		}
		l.checkHostSubnets(mine)
	}
}

// nicCount is how many NICs the fabric's hosts have.
func (l *lowering) nicCount() int {
	n := 0
	for i := range l.f.Hosts {
		n += len(l.f.Hosts[i].NICs)
	}
	return n
}

// checkHostSubnets warns when two NICs of one host sit in overlapping
// subnets.
func (l *lowering) checkHostSubnets(addrs []nicAddr) {
	for i, a := range addrs {
		for _, b := range addrs[:i] {
			if a.nic == b.nic || !a.prefix.Overlaps(b.prefix) {
				continue
			}
			defer l.within(a.name())()
			d := l.warnf(l.addrRange(a), "NICs of one host in overlapping subnets",
				"%s (%s) and %s (%s) are in overlapping subnets of one host: the host routes the subnet out of one NIC only, so the other NIC's RDMA traffic leaves through the wrong port and replies are dropped by reverse-path filtering. Give each NIC (each rail) its own subnet, or set up policy routing and accept this warning.",
				a.name(), a.prefix, b.name(), b.prefix)
			also(d, fmt.Sprintf("%s has %s", b.name(), b.prefix), l.addrRange(b))
			return
		}
	}
}

// addrRange is where a NIC's addresses are written.
func (l *lowering) addrRange(a nicAddr) dsl.Range {
	return l.src.Place("host", a.host, "nic", a.nic, "addresses")
}

// warnf records a warning at r, like errorf.
func (l *lowering) warnf(r dsl.Range, summary, detail string, args ...any) *hcl.Diagnostic {
	d := l.errorf(r, summary, detail, args...)
	d.Severity = hcl.DiagWarning
	return d
}
