package dsl

import (
	"fmt"
	"math/big"
	"net/netip"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Functions returns the functions a fabric file may call: Terraform's
// functions of these names, with Terraform's meaning (most are the go-cty
// standard library, as in Terraform; coalesce, index, length, lookup and
// replace are Terraform's own, terraform_functions.go), try and can,
// fabricc's own ports() and cidrhost(), and strlen, which Terraform
// does not have.
func Functions() map[string]function.Function {
	return map[string]function.Function{
		"abs":             stdlib.AbsoluteFunc,
		"can":             tryfunc.CanFunc,
		"ceil":            stdlib.CeilFunc,
		"chomp":           stdlib.ChompFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"cidrhost":        CIDRHostFunc,
		"coalesce":        CoalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        stdlib.ContainsFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"flatten":         stdlib.FlattenFunc,
		"floor":           stdlib.FloorFunc,
		"format":          stdlib.FormatFunc,
		"formatlist":      stdlib.FormatListFunc,
		"indent":          stdlib.IndentFunc,
		"index":           IndexFunc,
		"join":            stdlib.JoinFunc,
		"jsondecode":      stdlib.JSONDecodeFunc,
		"jsonencode":      stdlib.JSONEncodeFunc,
		"keys":            stdlib.KeysFunc,
		"length":          LengthFunc,
		"log":             stdlib.LogFunc,
		"lookup":          LookupFunc,
		"lower":           stdlib.LowerFunc,
		"max":             stdlib.MaxFunc,
		"merge":           stdlib.MergeFunc,
		"min":             stdlib.MinFunc,
		"parseint":        stdlib.ParseIntFunc,
		"ports":           PortsFunc,
		"pow":             stdlib.PowFunc,
		"range":           stdlib.RangeFunc,
		"regex":           stdlib.RegexFunc,
		"regexall":        stdlib.RegexAllFunc,
		"replace":         ReplaceFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"signum":          stdlib.SignumFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"split":           stdlib.SplitFunc,
		"strlen":          stdlib.StrlenFunc,
		"substr":          stdlib.SubstrFunc,
		"title":           stdlib.TitleFunc,
		"tolist":          stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":           stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":        stdlib.MakeToFunc(cty.Number),
		"toset":           stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":        stdlib.MakeToFunc(cty.String),
		"trim":            stdlib.TrimFunc,
		"trimprefix":      stdlib.TrimPrefixFunc,
		"trimspace":       stdlib.TrimSpaceFunc,
		"trimsuffix":      stdlib.TrimSuffixFunc,
		"try":             tryfunc.TryFunc,
		"upper":           stdlib.UpperFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,
	}
}

// PortsFunc is ports(spec): the list of port names a port spec expands to
// (see ExpandPorts), e.g. ports("swp1-4") is ["swp1","swp2","swp3","swp4"].
var PortsFunc = function.New(&function.Spec{
	Description: "Expands a port range spec such as \"swp1-4\" into a list of port names.",
	Params:      []function.Parameter{{Name: "spec", Type: cty.String}},
	Type:        function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		names, err := ExpandPorts(args[0].AsString())
		if err != nil {
			return cty.DynamicVal, function.NewArgError(0, err)
		}
		if len(names) == 0 {
			return cty.ListValEmpty(cty.String), nil
		}
		vals := make([]cty.Value, len(names))
		for i, n := range names {
			vals[i] = cty.StringVal(n)
		}
		return cty.ListVal(vals), nil
	},
})

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
		p, err := netip.ParsePrefix(args[0].AsString())
		if err != nil {
			return cty.DynamicVal, function.NewArgErrorf(0, "%q is not a prefix such as \"10.0.0.0/24\" or \"fd00::/64\"", args[0].AsString())
		}
		n, acc := args[1].AsBigFloat().Int(nil)
		if acc != big.Exact {
			return cty.DynamicVal, function.NewArgErrorf(1, "host number must be a whole number")
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
	base := p.Addr().AsSlice()
	sum := new(big.Int).Add(new(big.Int).SetBytes(base), n)
	out := sum.FillBytes(make([]byte, len(base)))
	a, _ := netip.AddrFromSlice(out)
	return a, nil
}
