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
func Encode(w io.Writer, f *Fabric) error { return EncodeDevices(w, f, nil) }

// Devices lets EncodeDevices' caller write a switch's or host's bytes
// itself and learn where each device's bytes are: a rebuild copies the
// bytes of unchanged devices from the model.json of the build before.
// A device's bytes are its element of the "switches" or "hosts" array,
// as Marshal indents it, without the line break and indentation before
// it or the comma after it.
type Devices interface {
	// Write writes the bytes Encode would write for switch or host i of
	// the fabric and reports true, or writes nothing and reports false
	// (then the device is encoded).
	Write(w io.Writer, host bool, i int) (bool, error)
	// At reports that switch or host i's bytes are the n bytes at offset
	// off of the output.
	At(host bool, i int, off, n int64)
}

// EncodeDevices is Encode, with each switch and host written by devs
// when it will (nil: every one encoded). The bytes are Marshal's when
// devs writes the bytes Encode would.
func EncodeDevices(w io.Writer, f *Fabric, devs Devices) error {
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<16)
	e := &valueEncoder{w: bw, devs: devs, written: cw}
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
			e.kind = deviceNone
			switch t.Field(i).Name {
			case "Switches":
				e.kind = deviceSwitch
			case "Hosts":
				e.kind = deviceHost
			}
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
	// devs writes devices or is told where they are (nil: neither);
	// kind is the array being written; written counts what w flushed.
	devs    Devices
	kind    deviceKind
	written *countWriter
}

// deviceKind is what an array of the fabric holds, for Devices.
type deviceKind int

// The arrays EncodeDevices hands to Devices, and the others.
const (
	deviceNone deviceKind = iota
	deviceSwitch
	deviceHost
)

// countWriter counts the bytes written through it to w.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// offset is how many bytes e has written so far.
func (e *valueEncoder) offset() int64 { return e.written.n + int64(e.w.Buffered()) }

// element writes element i of the array being written: a device by
// e.devs when it will, else encoded.
func (e *valueEncoder) element(v reflect.Value, i int) error {
	if e.devs == nil || e.kind == deviceNone {
		return e.value(v.Interface(), "    ")
	}
	host, start := e.kind == deviceHost, e.offset()
	done, err := e.devs.Write(e.w, host, i)
	if err == nil && !done {
		err = e.value(v.Interface(), "    ")
	}
	if err != nil {
		return err
	}
	e.devs.At(host, i, start, e.offset()-start)
	return nil
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
		if err := e.element(s.Index(i), i); err != nil {
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
