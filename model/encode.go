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
// encoder are reused from one value to the next: one encoder per value
// allocated its output again for each of 130,000 devices.
type valueEncoder struct {
	w        *bufio.Writer
	compact  bytes.Buffer
	indented []byte
	enc      *json.Encoder
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
// Marshal), and without the encoder's trailing newline. The encoder
// writes v compact and indent lays it out: encoding/json's own
// indentation steps a scanner through every byte, and took four times
// as long as the encoding.
func (e *valueEncoder) value(v any, prefix string) error {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.compact)
		e.enc.SetEscapeHTML(false)
	}
	e.compact.Reset()
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	e.indented = indent(e.indented[:0], bytes.TrimSuffix(e.compact.Bytes(), []byte("\n")), prefix, "  ")
	_, err := e.w.Write(e.indented)
	return err
}

// indent appends src, compact JSON as encoding/json writes it (no
// space outside strings), to dst laid out as json.Indent lays it out:
// a member or element per line, each line after the first starting with
// prefix and one step per level, ": " after a key, and empty objects
// and arrays kept as {} and []. TestIndentIsJSONIndent and FuzzIndent
// compare the two.
func indent(dst, src []byte, prefix, step string) []byte {
	depth := 0
	open := false // an object or array has just opened
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = newline(dst, prefix, step, depth)
		}
		switch c {
		case '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = newline(append(dst, c), prefix, step, depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newline(dst, prefix, step, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd returns the index just past the JSON string that starts at
// src[start] (a quote), skipping escaped characters.
func stringEnd(src []byte, start int) int {
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(src)
}

// newline starts a line at depth.
func newline(dst []byte, prefix, step string, depth int) []byte {
	dst = append(dst, '\n')
	dst = append(dst, prefix...)
	for range depth {
		dst = append(dst, step...)
	}
	return dst
}
