package dsl

import (
	"reflect"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/gohcl"
)

// The reference decoder, gohcl, sets only fields of type hcl.Range from
// the def_range, label_range and attr_value_range tags. It decodes into
// a mirror of the target type, made with reflect.StructOf: the same
// fields and tags, with hcl.Range where the target has Range, and
// mirrors of the nested block types. fromMirror copies the result.

var (
	rangeType    = reflect.TypeFor[Range]()
	hclRangeType = reflect.TypeFor[hcl.Range]()
	mirrorsMu    sync.Mutex
	mirrors      = map[reflect.Type]reflect.Type{}
)

// decodeReference decodes a file's fabric blocks with gohcl over
// dynblock.Expand.
func decodeReference(body hcl.Body, ctx *hcl.EvalContext) (fileBody, hcl.Diagnostics) {
	var fb fileBody
	return fb, DecodeBody(dynblock.Expand(body, ctx), ctx, &fb)
}

// DecodeBody is gohcl.DecodeBody for structs whose range fields are
// Range (the blocks of Config, or structs holding them): target is a
// pointer to one.
func DecodeBody(body hcl.Body, ctx *hcl.EvalContext, target any) hcl.Diagnostics {
	dst := reflect.ValueOf(target).Elem()
	m := reflect.New(mirrorOf(dst.Type()))
	diags := gohcl.DecodeBody(body, ctx, m.Interface())
	fromMirror(dst, m.Elem())
	return diags
}

// mirrorOf returns the type gohcl decodes in place of t: t itself when
// nothing in it is a Range.
func mirrorOf(t reflect.Type) reflect.Type {
	mirrorsMu.Lock()
	defer mirrorsMu.Unlock()
	return mirrorLocked(t)
}

func mirrorLocked(t reflect.Type) reflect.Type {
	if m, ok := mirrors[t]; ok {
		return m
	}
	m := t
	switch {
	case t == rangeType:
		m = hclRangeType
	case t.Kind() == reflect.Pointer:
		m = reflect.PointerTo(mirrorLocked(t.Elem()))
	case t.Kind() == reflect.Slice:
		m = reflect.SliceOf(mirrorLocked(t.Elem()))
	case t.Kind() == reflect.Struct:
		fields := make([]reflect.StructField, t.NumField())
		changed := false
		for i := range fields {
			f := t.Field(i)
			fields[i] = reflect.StructField{Name: f.Name, Type: mirrorLocked(f.Type), Tag: f.Tag}
			changed = changed || fields[i].Type != f.Type
		}
		if changed {
			m = reflect.StructOf(fields)
		}
	}
	mirrors[t] = m
	return m
}

// fromMirror sets dst from src, a value of dst's mirror type.
func fromMirror(dst, src reflect.Value) {
	switch {
	case dst.Type() == src.Type():
		dst.Set(src)
	case dst.Type() == rangeType:
		dst.Set(reflect.ValueOf(RangeOf(src.Interface().(hcl.Range))))
	case dst.Kind() == reflect.Pointer:
		if !src.IsNil() {
			p := reflect.New(dst.Type().Elem())
			fromMirror(p.Elem(), src.Elem())
			dst.Set(p)
		}
	case dst.Kind() == reflect.Slice:
		if !src.IsNil() {
			s := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
			for i := range src.Len() {
				fromMirror(s.Index(i), src.Index(i))
			}
			dst.Set(s)
		}
	case dst.Kind() == reflect.Struct:
		for i := range dst.NumField() {
			fromMirror(dst.Field(i), src.Field(i))
		}
	}
}
