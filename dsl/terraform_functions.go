package dsl

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// The functions whose go-cty standard library version means something
// else than Terraform's function of the same name (Terraform's
// internal/lang/functions.go takes these five from its own package, not
// from cty): a Terraform user reads index(list, value) as a position, and
// cty's index is the element at a key.

// IndexFunc is Terraform's index(list, value): the position of the
// first element equal to value, an error when there is none.
var IndexFunc = function.New(&function.Spec{
	Description: "Returns the position of the first element of a list equal to the given value.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		list := args[0]
		if ty := list.Type(); !ty.IsListType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "index takes a list or tuple, not %s", ty.FriendlyName())
		}
		if !list.IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot search an empty list")
		}
		for it := list.ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, function.NewArgErrorf(1, "item not found")
	},
})

// LengthFunc is Terraform's length: the elements of a list, set, map or
// tuple, the attributes of an object, or the characters of a string.
var LengthFunc = function.New(&function.Spec{
	Description: "Returns the number of elements of a collection or characters of a string.",
	Params: []function.Parameter{
		{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.Number, function.NewArgErrorf(0, "length takes a string, a list, a set, a map, a tuple or an object, not %s", ty.FriendlyName())
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		ty := v.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))), nil
		case ty == cty.String:
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			return stdlib.Strlen(v)
		}
		return v.Length(), nil
	},
})

// LookupFunc is Terraform's lookup(map, key[, default]): without a
// default, a missing key is an error.
var LookupFunc = function.New(&function.Spec{
	Description: "Returns the element of a map at a key, or the default when the map has no such key.",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowUnknown: true},
		{Name: "key", Type: cty.String, AllowUnknown: true},
	},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true, AllowNull: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, fmt.Errorf("lookup takes two or three arguments, not %d", len(args))
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			key := args[1].AsString()
			if ty.HasAttribute(key) {
				return ty.AttributeType(key), nil
			}
			if len(args) == 3 {
				return args[2].Type(), nil
			}
			return cty.DynamicPseudoType, function.NewArgErrorf(0, "the object has no attribute %q", key)
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default must have the type of the map's elements (%s)", ty.ElementType().FriendlyName())
				}
			}
			return ty.ElementType(), nil
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup takes a map or an object, not %s", ty.FriendlyName())
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		m, key := args[0], args[1]
		if !m.IsKnown() || !key.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		k := key.AsString()
		if m.Type().IsObjectType() {
			if m.Type().HasAttribute(k) {
				return m.GetAttr(k), nil
			}
		} else if m.HasIndex(key) == cty.True {
			return m.Index(key), nil
		}
		if len(args) == 3 {
			return convert.Convert(args[2], retType)
		}
		return cty.NilVal, function.NewArgErrorf(1, "lookup failed to find key %q", k)
	},
})

// CoalesceFunc is Terraform's coalesce: the first argument that is
// neither null nor an empty string (cty's skips only null).
var CoalesceFunc = function.New(&function.Spec{
	Description: "Returns the first argument that is neither null nor an empty string.",
	VarParam: &function.Parameter{
		Name: "vals", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true, AllowNull: true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, a := range args {
			types[i] = a.Type()
		}
		ty, _ := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, a := range args {
			a, _ = convert.Convert(a, retType) // unified in Type
			if !a.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if a.IsNull() || (retType == cty.String && a.AsString() == "") {
				continue
			}
			return a, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// ReplaceFunc is Terraform's replace(string, substring, replacement): a
// substring written between slashes ("/[0-9]+/") is a regular
// expression, whose replacement may name its groups ($1).
var ReplaceFunc = function.New(&function.Spec{
	Description: "Replaces each occurrence of a substring, or of a regular expression written between slashes, with a replacement.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, sub, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if pattern, ok := slashed(sub); ok {
			re, err := regexp.Compile(pattern)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "not a regular expression: %s", err)
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, sub, repl)), nil
	},
})

// slashed returns the regular expression of a replace substring written
// between slashes.
func slashed(sub string) (string, bool) {
	if len(sub) > 1 && sub[0] == '/' && sub[len(sub)-1] == '/' {
		return sub[1 : len(sub)-1], true
	}
	return "", false
}

// Terraform's own functions that go-cty's standard library does not
// have (Terraform's internal/lang/funcs), written here with Terraform's
// meaning.

// SumFunc is Terraform's sum(list): the sum of a list, set or tuple of
// numbers; an empty list is an error.
var SumFunc = function.New(&function.Spec{
	Description: "Returns the sum of a list, set or tuple of numbers.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (ret cty.Value, err error) {
		list := args[0]
		ty := list.Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		if !list.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(big.ErrNaN); !ok {
					panic(r)
				}
				ret, err = cty.NilVal, errors.New("can't compute sum of opposing infinities")
			}
		}()
		sum := cty.NilVal
		for it := list.ElementIterator(); it.Next(); {
			_, v := it.Element()
			if v.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			n, err := convert.Convert(v, cty.Number)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")
			}
			if sum == cty.NilVal {
				sum = n
			} else {
				sum = sum.Add(n)
			}
		}
		return sum, nil
	},
})

// AllTrueFunc is Terraform's alltrue(list): whether every element is
// true (an empty list is true; a null element is false).
var AllTrueFunc = boolListFunc("Returns whether every element of a list of bools is true.",
	cty.False, func(v cty.Value) bool { return v.IsNull() || v.False() })

// AnyTrueFunc is Terraform's anytrue(list): whether some element is
// true (an empty list is false; a null element is not true).
var AnyTrueFunc = boolListFunc("Returns whether some element of a list of bools is true.",
	cty.True, func(v cty.Value) bool { return !v.IsNull() && v.True() })

// boolListFunc is a function of a list of bools that returns decided at
// the first known element hit matches, unknown when an unknown element
// could still match, and the opposite of decided otherwise.
func boolListFunc(description string, decided cty.Value, hit func(cty.Value) bool) function.Function {
	return function.New(&function.Spec{
		Description: description,
		Params:      []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			unknown := false
			for it := args[0].ElementIterator(); it.Next(); {
				_, v := it.Element()
				switch {
				case !v.IsKnown():
					unknown = true
				case hit(v):
					return decided, nil
				}
			}
			if unknown {
				return cty.UnknownVal(cty.Bool), nil
			}
			return decided.Not(), nil
		},
	})
}

// oneError is one's refusal of a collection of two or more elements.
const oneError = "must be a list, set, or tuple value with either zero or one elements"

// OneFunc is Terraform's one(list): the element of a list, set or tuple
// of one element, null for none, an error for more.
var OneFunc = function.New(&function.Spec{
	Description: "Returns the only element of a list, set or tuple, or null when it is empty.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			switch etys := ty.TupleElementTypes(); len(etys) {
			case 0:
				return cty.DynamicPseudoType, nil
			case 1:
				return etys[0], nil
			}
		}
		return cty.NilType, function.NewArgErrorf(0, oneError)
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v := args[0]
		if !v.Length().IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		switch v.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := v.ElementIterator()
			it.Next()
			_, e := it.Element()
			return e, nil
		}
		return cty.NilVal, function.NewArgErrorf(0, oneError)
	},
})

// stringTest is a Terraform function of two strings that returns a bool.
func stringTest(desc, second string, test func(s, t string) bool) function.Function {
	return function.New(&function.Spec{
		Description: desc,
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
			{Name: second, Type: cty.String},
		},
		Type: function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(test(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

// StartsWithFunc, EndsWithFunc and StrContainsFunc are Terraform's
// startswith, endswith and strcontains.
var (
	StartsWithFunc  = stringTest("Returns whether a string starts with a prefix.", "prefix", strings.HasPrefix)
	EndsWithFunc    = stringTest("Returns whether a string ends with a suffix.", "suffix", strings.HasSuffix)
	StrContainsFunc = stringTest("Returns whether a string contains a substring.", "substr", strings.Contains)
)

// TransposeFunc is Terraform's transpose(map): a map of lists of
// strings with keys and values swapped, each list sorted.
var TransposeFunc = function.New(&function.Spec{
	Description: "Swaps the keys and the values of a map of lists of strings.",
	Params:      []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:        function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		in := args[0]
		if !in.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		keysOf := map[string][]string{}
		for it := in.ElementIterator(); it.Next(); {
			k, l := it.Element()
			if l.IsNull() {
				return cty.MapValEmpty(cty.List(cty.String)), errors.New("input must not contain null list")
			}
			for jt := l.ElementIterator(); jt.Next(); {
				_, s := jt.Element()
				if s.IsNull() {
					return cty.MapValEmpty(cty.List(cty.String)), errors.New("input list must not contain null string")
				}
				keysOf[s.AsString()] = append(keysOf[s.AsString()], k.AsString())
			}
		}
		if len(keysOf) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		out := make(map[string]cty.Value, len(keysOf))
		for s, ks := range keysOf {
			sort.Strings(ks)
			vals := make([]cty.Value, len(ks))
			for i, k := range ks {
				vals[i] = cty.StringVal(k)
			}
			out[s] = cty.ListVal(vals)
		}
		return cty.MapVal(out), nil
	},
})
