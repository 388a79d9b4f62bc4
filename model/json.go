package model

import (
	"bytes"
	"encoding/json"
)

// Marshal returns the canonical JSON form of the fabric: two-space
// indentation, fields in declaration order, a trailing newline. The
// compiler keeps every slice in canonical order, so the same fabric always
// gives the same bytes.
func Marshal(f *Fabric) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Unmarshal reads a fabric written by Marshal.
func Unmarshal(data []byte) (*Fabric, error) {
	var f Fabric
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	return &f, nil
}
