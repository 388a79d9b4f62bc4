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
			err = encodeArray(bw, fv)
		} else {
			err = encodeValue(bw, fv.Interface(), "  ")
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

// encodeArray writes a top-level member's non-empty array, one element
// at a time, as Marshal indents it.
func encodeArray(w *bufio.Writer, s reflect.Value) error {
	w.WriteString("[")
	for i := 0; i < s.Len(); i++ {
		if i > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n    ")
		if err := encodeValue(w, s.Index(i).Interface(), "    "); err != nil {
			return err
		}
	}
	w.WriteString("\n  ]")
	return nil
}

// encodeValue writes v indented as at prefix, without HTML escaping (as
// Marshal), and without the encoder's trailing newline.
func encodeValue(w *bufio.Writer, v any, prefix string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return err
}
