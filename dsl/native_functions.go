package dsl

import (
	"math/big"
	"strconv"

	"github.com/zclconf/go-cty/cty"
)

// natives are the functions a native call computes itself, each exactly
// as its cty implementation (cty/function/stdlib) does, for arguments
// that passed the call's checks: known, unmarked, of the parameter's
// type. ok is false for anything else; the call then goes to the
// function. These three are most of a generated fabric's calls, and
// cty's generic path walks every argument to its last element (merge's
// arguments are the whole fabric).
var natives = map[string]func(args []cty.Value) (cty.Value, bool){
	"format": nativeFormat,
	"merge":  nativeMerge,
	"range":  nativeRange,
}

// nativeFormat formats as cty's format does, for a format string of
// literal text, %%, %s given a string and %d given a whole number
// (with an optional zero flag and a width under 100), with exactly one
// argument per verb; ok is false for anything else.
func nativeFormat(args []cty.Value) (cty.Value, bool) {
	if len(args) == 0 || args[0].IsNull() {
		return cty.NilVal, false
	}
	spec := args[0].AsString()
	rest := args[1:]
	out := make([]byte, 0, len(spec)+16)
	for i := 0; i < len(spec); i++ {
		if spec[i] != '%' {
			out = append(out, spec[i])
			continue
		}
		i++
		if i < len(spec) && spec[i] == '%' {
			out = append(out, '%')
			continue
		}
		zero, width := false, 0
		if i < len(spec) && spec[i] == '0' {
			zero = true
			i++
		}
		for digits := 0; i < len(spec) && spec[i] >= '0' && spec[i] <= '9'; i++ {
			if digits++; digits > 2 {
				return cty.NilVal, false
			}
			width = width*10 + int(spec[i]-'0')
		}
		if i >= len(spec) || len(rest) == 0 || rest[0].IsNull() {
			return cty.NilVal, false
		}
		var ok bool
		switch spec[i] {
		case 's':
			ok = !zero && width == 0 && rest[0].Type() == cty.String
			if ok {
				out = append(out, rest[0].AsString()...)
			}
		case 'd':
			out, ok = appendInteger(out, rest[0], zero, width)
		}
		if !ok {
			return cty.NilVal, false
		}
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return cty.NilVal, false
	}
	return cty.StringVal(string(out)), true
}

// appendInteger appends a non-negative whole number as Go's %d, %Nd or
// %0Nd writes it (cty's format hands integers to Go's fmt).
func appendInteger(out []byte, v cty.Value, zero bool, width int) ([]byte, bool) {
	if v.Type() != cty.Number {
		return out, false
	}
	n, acc := v.AsBigFloat().Int64()
	if acc != big.Exact || n < 0 {
		return out, false
	}
	digits := strconv.AppendInt(nil, n, 10)
	pad := byte(' ')
	if zero {
		pad = '0'
	}
	for i := len(digits); i < width; i++ {
		out = append(out, pad)
	}
	return append(out, digits...), true
}

// nativeMerge merges objects as cty's merge does when every argument is
// a non-null object: the attributes of all of them, a later argument's
// replacing an earlier one's, in an object (cty.ObjectVal of the merged
// attributes, which is what merge returns for objects whether or not
// their types match). Maps, and nulls, are left to cty.
func nativeMerge(args []cty.Value) (cty.Value, bool) {
	n := 0
	for _, a := range args {
		if a.IsNull() || !a.Type().IsObjectType() {
			return cty.NilVal, false
		}
		n += len(a.Type().AttributeTypes())
	}
	attrs := make(map[string]cty.Value, n)
	for _, a := range args {
		for name := range a.Type().AttributeTypes() {
			attrs[name] = a.GetAttr(name)
		}
	}
	return cty.ObjectVal(attrs), true
}

// maxRangeValues is how many numbers cty's range makes before it fails.
const maxRangeValues = 1024

// nativeRange counts as cty's range does for one or two whole-number
// arguments (range(n) from 0 towards n, range(a, b) from a towards b, a
// step of 1 or -1): the same numbers, each the previous plus the step,
// in a list, or an empty list of numbers. ok is false for a fraction, a
// step argument, or more than cty's 1,024 numbers (cty's error).
func nativeRange(args []cty.Value) (cty.Value, bool) {
	start := cty.Zero
	var end cty.Value
	switch len(args) {
	case 1:
		end = args[0]
	case 2:
		start, end = args[0], args[1]
	default:
		return cty.NilVal, false
	}
	from, ok1 := smallWhole(start)
	to, ok2 := smallWhole(end)
	if !ok1 || !ok2 || start.IsNull() || end.IsNull() {
		return cty.NilVal, false
	}
	step, count := cty.NumberIntVal(1), to-from
	if to < from {
		step, count = cty.NumberIntVal(-1), from-to
	}
	if count == 0 {
		return cty.ListValEmpty(cty.Number), true
	}
	if count > maxRangeValues {
		return cty.NilVal, false
	}
	vals := make([]cty.Value, count)
	for i, num := 0, start; i < len(vals); i, num = i+1, num.Add(step) {
		vals[i] = num
	}
	return cty.ListVal(vals), true
}

// smallWhole returns a non-null number that is whole and within an
// int32, so that differences of two cannot overflow.
func smallWhole(v cty.Value) (int64, bool) {
	if v.IsNull() || v.Type() != cty.Number {
		return 0, false
	}
	return smallWholeFloat(v.AsBigFloat())
}

// smallWholeFloat is smallWhole of a number's value.
func smallWholeFloat(f *big.Float) (int64, bool) {
	n, acc := f.Int64()
	if acc != big.Exact || n < -1<<31 || n > 1<<31 {
		return 0, false
	}
	return n, true
}
