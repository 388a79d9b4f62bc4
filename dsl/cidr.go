package dsl

import (
	"errors"
	"fmt"
	"math/big"
	"net/netip"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// parseCIDR reads a prefix as Terraform's cidr functions do: an IPv4
// octet may have leading zeros, read as decimal ("010.001.0.0/24" is
// 10.1.0.0/24), host bits are dropped, and an IPv4-mapped IPv6 prefix
// of 96 bits or more is its IPv4 prefix (Terraform prints it so).
func parseCIDR(s string) (netip.Prefix, error) {
	bad := fmt.Errorf("%s is not a prefix such as \"10.0.0.0/24\" or \"fd00::/64\"", shown(s))
	addr, bits, ok := strings.Cut(s, "/")
	if !ok || bits == "" || strings.Contains(addr, "%") {
		return netip.Prefix{}, bad
	}
	if !strings.Contains(addr, ":") {
		octets := strings.Split(addr, ".")
		for i, o := range octets {
			if t := strings.TrimLeft(o, "0"); len(t) < len(o) && allDigits(o) {
				if t == "" {
					t = "0"
				}
				octets[i] = t
			}
		}
		addr = strings.Join(octets, ".")
	}
	a, err := netip.ParseAddr(addr)
	if err != nil || !allDigits(bits) {
		return netip.Prefix{}, bad
	}
	n, err := strconv.Atoi(bits)
	if err != nil || n > a.BitLen() {
		return netip.Prefix{}, bad
	}
	if a.Is4In6() && n >= 96 {
		a, n = a.Unmap(), n-96
	}
	return netip.PrefixFrom(a, n).Masked(), nil
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// wholeArg is argument i as a whole number, or an argument error.
func wholeArg(args []cty.Value, i int, what string) (*big.Int, error) {
	n, acc := args[i].AsBigFloat().Int(nil)
	if acc != big.Exact || args[i].AsBigFloat().IsInf() {
		return nil, function.NewArgErrorf(i, "%s must be a whole number", what)
	}
	return n, nil
}

// CIDRHostFunc is cidrhost(prefix, n): the address of host number n in
// an IPv4 or IPv6 prefix, as Terraform's function of the same name
// (negative n counts back from the end of the prefix).
var CIDRHostFunc = function.New(&function.Spec{
	Description: "Returns the address of host number n within an IP prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.DynamicVal, function.NewArgError(0, err)
		}
		n, err := wholeArg(args, 1, "host number")
		if err != nil {
			return cty.DynamicVal, err
		}
		addr, err := hostAddr(p, n)
		if err != nil {
			return cty.DynamicVal, function.NewArgError(1, err)
		}
		return cty.StringVal(addr.String()), nil
	},
})

// hostAddr returns host n of prefix p.
func hostAddr(p netip.Prefix, n *big.Int) (netip.Addr, error) {
	p = p.Masked()
	hostBits := p.Addr().BitLen() - p.Bits()
	size := new(big.Int).Lsh(big.NewInt(1), uint(hostBits))
	if n.Sign() < 0 {
		n = new(big.Int).Add(n, size)
	}
	if n.Sign() < 0 || n.Cmp(size) >= 0 {
		return netip.Addr{}, fmt.Errorf("prefix %s has %s addresses; host number must be from -%s to %s",
			p, size, size, new(big.Int).Sub(size, big.NewInt(1)))
	}
	return addAddr(p.Addr(), n), nil
}

// addAddr is a + n, n known to fit.
func addAddr(a netip.Addr, n *big.Int) netip.Addr {
	base := a.AsSlice()
	sum := new(big.Int).Add(new(big.Int).SetBytes(base), n)
	out, _ := netip.AddrFromSlice(sum.FillBytes(make([]byte, len(base))))
	return out
}

// subnet is subnet number num of p extended by newbits bits, as
// Terraform's cidrsubnet.
func subnet(p netip.Prefix, newbits int, num *big.Int) (netip.Prefix, error) {
	if newbits < 0 {
		return netip.Prefix{}, errors.New("newbits must not be negative")
	}
	if p.Bits()+newbits > p.Addr().BitLen() {
		return netip.Prefix{}, fmt.Errorf("insufficient address space to extend prefix of %d by %d", p.Bits(), newbits)
	}
	if num.Sign() < 0 || num.BitLen() > newbits {
		return netip.Prefix{}, fmt.Errorf("prefix extension of %d does not accommodate a subnet numbered %s", newbits, num)
	}
	bits := p.Bits() + newbits
	off := new(big.Int).Lsh(num, uint(p.Addr().BitLen()-bits))
	return netip.PrefixFrom(addAddr(p.Addr(), off), bits), nil
}

// CIDRSubnetFunc is Terraform's cidrsubnet(prefix, newbits, netnum):
// subnet number netnum of prefix, its prefix length newbits longer.
var CIDRSubnetFunc = function.New(&function.Spec{
	Description: "Returns subnet number netnum of an IP prefix, extended by newbits bits.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.DynamicVal, function.NewArgError(0, err)
		}
		newbits, err := wholeArg(args, 1, "newbits")
		if err != nil {
			return cty.DynamicVal, err
		}
		if !newbits.IsInt64() || newbits.Int64() > 128 || newbits.Int64() < -128 {
			return cty.DynamicVal, function.NewArgErrorf(1, "insufficient address space to extend prefix of %d by %s", p.Bits(), newbits)
		}
		num, err := wholeArg(args, 2, "netnum")
		if err != nil {
			return cty.DynamicVal, err
		}
		s, err := subnet(p, int(newbits.Int64()), num)
		if err != nil {
			return cty.DynamicVal, err
		}
		return cty.StringVal(s.String()), nil
	},
})

// CIDRSubnetsFunc is Terraform's cidrsubnets(prefix, newbits...):
// consecutive subnets of prefix, each newbits longer than it, each
// starting after the one before, aligned to its own size.
var CIDRSubnetsFunc = function.New(&function.Spec{
	Description: "Returns consecutive subnets of an IP prefix, one for each number of additional bits.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:    &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:        function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.DynamicVal, function.NewArgError(0, err)
		}
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		addrBits := p.Addr().BitLen()
		next := new(big.Int).SetBytes(p.Addr().AsSlice()) // the first free address
		end := new(big.Int).Add(next, new(big.Int).Lsh(big.NewInt(1), uint(addrBits-p.Bits())))
		out := make([]cty.Value, 0, len(args)-1)
		for i := 1; i < len(args); i++ {
			nb, err := wholeArg(args, i, "newbits")
			if err != nil {
				return cty.DynamicVal, err
			}
			if nb.Sign() < 1 {
				return cty.DynamicVal, function.NewArgErrorf(i, "must extend prefix by at least one bit")
			}
			if nb.Cmp(big.NewInt(32)) > 0 {
				return cty.DynamicVal, function.NewArgErrorf(i, "may not extend prefix by more than 32 bits")
			}
			bits := p.Bits() + int(nb.Int64())
			if bits > addrBits {
				return cty.DynamicVal, function.NewArgErrorf(i, "would extend prefix to %d bits, which is too long for an %s address", bits, ipVersion(p))
			}
			size := new(big.Int).Lsh(big.NewInt(1), uint(addrBits-bits))
			// round next up to a multiple of size
			start := new(big.Int).Add(next, new(big.Int).Sub(size, big.NewInt(1)))
			start.Div(start, size).Mul(start, size)
			stop := new(big.Int).Add(start, size)
			if stop.Cmp(end) > 0 {
				return cty.DynamicVal, function.NewArgErrorf(i, "not enough remaining address space for a subnet with a prefix of %d bits after %s", bits, prevText(out, p))
			}
			a, _ := netip.AddrFromSlice(start.FillBytes(make([]byte, addrBits/8)))
			out = append(out, cty.StringVal(netip.PrefixFrom(a, bits).String()))
			next = stop
		}
		return cty.ListVal(out), nil
	},
})

func ipVersion(p netip.Prefix) string {
	if p.Addr().Is4() {
		return "IPv4"
	}
	return "IPv6"
}

// prevText is the subnet a cidrsubnets error says it could not follow.
func prevText(out []cty.Value, p netip.Prefix) string {
	if len(out) == 0 {
		return p.String()
	}
	return out[len(out)-1].AsString()
}

// CIDRNetmaskFunc is Terraform's cidrnetmask(prefix): the dotted
// netmask of an IPv4 prefix.
var CIDRNetmaskFunc = function.New(&function.Spec{
	Description: "Returns the dotted-decimal netmask of an IPv4 prefix.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.DynamicVal, function.NewArgError(0, err)
		}
		if !p.Addr().Is4() {
			return cty.DynamicVal, function.NewArgErrorf(0, "IPv6 addresses cannot have a netmask: %s", shown(args[0].AsString()))
		}
		mask := ^uint32(0) << (32 - p.Bits())
		if p.Bits() == 0 {
			mask = 0
		}
		return cty.StringVal(fmt.Sprintf("%d.%d.%d.%d", mask>>24, mask>>16&0xff, mask>>8&0xff, mask&0xff)), nil
	},
})
