package dsl

import (
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Functions returns the functions a fabric file may call: Terraform's
// functions of these names, with Terraform's meaning (most are the go-cty
// standard library, as in Terraform; the others are Terraform's own,
// written again in terraform_functions.go and cidr.go), try and can,
// fabricc's own ports(), and strlen, which Terraform does not have.
// Load adds file, fileexists and templatefile, which read files of the
// fabric folder (files.go), and gives csvdecode's errors the file name.
func Functions() map[string]function.Function {
	return map[string]function.Function{
		"abs":             stdlib.AbsoluteFunc,
		"alltrue":         AllTrueFunc,
		"anytrue":         AnyTrueFunc,
		"can":             tryfunc.CanFunc,
		"ceil":            stdlib.CeilFunc,
		"chomp":           stdlib.ChompFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"cidrhost":        CIDRHostFunc,
		"cidrnetmask":     CIDRNetmaskFunc,
		"cidrsubnet":      CIDRSubnetFunc,
		"cidrsubnets":     CIDRSubnetsFunc,
		"coalesce":        CoalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"csvdecode":       stdlib.CSVDecodeFunc,
		"contains":        stdlib.ContainsFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"endswith":        EndsWithFunc,
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
		"one":             OneFunc,
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
		"startswith":      StartsWithFunc,
		"strcontains":     StrContainsFunc,
		"strlen":          stdlib.StrlenFunc,
		"strrev":          stdlib.ReverseFunc,
		"substr":          stdlib.SubstrFunc,
		"sum":             SumFunc,
		"title":           stdlib.TitleFunc,
		"tobool":          stdlib.MakeToFunc(cty.Bool),
		"tolist":          stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":           stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":        stdlib.MakeToFunc(cty.Number),
		"toset":           stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":        stdlib.MakeToFunc(cty.String),
		"transpose":       TransposeFunc,
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
