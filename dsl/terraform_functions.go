package dsl

import (
	"errors"
	"fmt"
	"regexp"
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
