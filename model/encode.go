package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
)

// Encode writes Marshal(f) to w, one switch, host or link at a time, so a
// fabric of 130,000 devices is never held as one buffer of JSON. The
// bytes are Marshal's.
func Encode(w io.Writer, f *Fabric) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	e := &valueEncoder{w: bw}
	v := reflect.ValueOf(f).Elem()
	t := v.Type()
	bw.WriteString("{")
	first := true
	for i := 0; i < t.NumField(); i++ {
		name, omitEmpty := jsonName(t.Field(i))
		fv := v.Field(i)
		if name == "" || omitEmpty && fv.IsZero() {
			continue
		}
		if !first {
			bw.WriteString(",")
		}
		first = false
		bw.WriteString("\n  ")
		key, _ := json.Marshal(name)
		bw.Write(key)
		bw.WriteString(": ")
		var err error
		if fv.Kind() == reflect.Slice && fv.Len() > 0 {
			err = e.array(fv)
		} else {
			err = e.value(fv.Interface(), "  ")
		}
		if err != nil {
			return err
		}
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// jsonName is a struct field's JSON name and whether it is omitempty.
func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(","+opts+",", ",omitempty,")
}

// valueEncoder writes the members of a fabric to w. Its buffers and
// encoders are reused from one value to the next: one encoder per value
// allocated its output and indentation again for each of 130,000 devices.
type valueEncoder struct {
	w    *bufio.Writer
	buf  bytes.Buffer
	encs map[string]*json.Encoder // by indentation prefix
}

// array writes a top-level member's non-empty array, one element at a
// time, as Marshal indents it.
func (e *valueEncoder) array(s reflect.Value) error {
	e.w.WriteString("[")
	for i := 0; i < s.Len(); i++ {
		if i > 0 {
			e.w.WriteString(",")
		}
		e.w.WriteString("\n    ")
		if err := e.value(s.Index(i).Interface(), "    "); err != nil {
			return err
		}
	}
	e.w.WriteString("\n  ]")
	return nil
}

// value writes v indented as at prefix, without HTML escaping (as
// Marshal), and without the encoder's trailing newline.
func (e *valueEncoder) value(v any, prefix string) error {
	enc := e.encs[prefix]
	if enc == nil {
		enc = json.NewEncoder(&e.buf)
		enc.SetIndent(prefix, "  ")
		enc.SetEscapeHTML(false)
		if e.encs == nil {
			e.encs = map[string]*json.Encoder{}
		}
		e.encs[prefix] = enc
	}
	e.buf.Reset()
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := e.w.Write(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
	return err
}
