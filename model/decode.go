package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Decode reads a fabric written by Marshal or Encode from r, as
// Unmarshal reads it from bytes, without holding the whole text: the
// switches, hosts and links are decoded one at a time as they are read.
// The model.json of a 4,096-switch fabric is 1 GB, and `fabricc plan`
// against its build held the file's bytes and the fabric decoded from
// them at once.
//
// The fabric is the one Unmarshal gives for the same bytes, and the
// input is refused where Unmarshal refuses it (the messages may word it
// otherwise): TestDecodeIsUnmarshal and FuzzDecodeIsUnmarshal compare
// the two, repeated and differently cased keys included.
func Decode(r io.Reader) (*Fabric, error) {
	dec := json.NewDecoder(r)
	var f Fabric
	start, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch start {
	case json.Delim('{'):
		if err := decodeMembers(dec, &f); err != nil {
			return nil, err
		}
	case nil: // null leaves the fabric as it is, as Unmarshal does
	default:
		return nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type model.Fabric", tokenKind(start))
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("invalid character after top-level value")
		}
		return nil, err
	}
	return &f, nil
}

// decodeMembers reads the members of the fabric's object up to its
// closing brace. The three long arrays, under their exact names, are
// read an element at a time; every other member is handed to Unmarshal
// on its own, in order, so that its name matches as Unmarshal matches it
// (case folded) and a repeated member overrides or merges as it would.
func decodeMembers(dec *json.Decoder, f *Fabric) error {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch key {
		case "switches":
			err = decodeArray(dec, &f.Switches)
		case "hosts":
			err = decodeArray(dec, &f.Hosts)
		case "links":
			err = decodeArray(dec, &f.Links)
		default:
			err = decodeMember(dec, f, key)
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.Token() // the closing brace
	return err
}

// decodeMember decodes the member key's value into f through Unmarshal.
func decodeMember(dec *json.Decoder, f *Fabric, key string) error {
	var value json.RawMessage
	if err := dec.Decode(&value); err != nil {
		return err
	}
	name, err := json.Marshal(key)
	if err != nil {
		return err
	}
	object := make([]byte, 0, len(name)+len(value)+3)
	object = append(append(append(append(object, '{'), name...), ':'), value...)
	return json.Unmarshal(append(object, '}'), f)
}

// decodeArray reads a JSON array into *dst an element at a time, as
// Unmarshal fills a slice: null makes it nil, elements already there
// (a repeated member) are decoded over in place, those past its length
// but within its capacity too, and the slice ends at the last element
// read.
func decodeArray[T any](dec *json.Decoder, dst *[]T) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('['):
	case nil:
		*dst = nil
		return nil
	default:
		var zero T
		return fmt.Errorf("json: cannot unmarshal %s into Go value of type []%T", tokenKind(tok), zero)
	}
	s := *dst
	n := 0
	for ; dec.More(); n++ {
		if n < cap(s) {
			s = s[:n+1]
		} else {
			var zero T
			s = append(s, zero)
		}
		if err := dec.Decode(&s[n]); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return err
	}
	if n == 0 {
		*dst = []T{} // a new empty slice, as Unmarshal makes for []
	} else {
		*dst = s[:n]
	}
	return nil
}

// tokenKind names the JSON kind of a token that starts a value.
func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('[') {
			return "array"
		}
		return "object"
	case string:
		return "string"
	case bool:
		return "bool"
	default:
		return "number"
	}
}
