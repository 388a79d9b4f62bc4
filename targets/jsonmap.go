package targets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// JSONNode is one value of an indented JSON document, with the lines it
// starts and ends on, for mapping a JSON artifact (OpenConfig, the model)
// line by line after it was encoded.
type JSONNode struct {
	// Key is the node's member name in its object ("" in an array), with
	// an RFC 7951 module prefix removed ("openconfig-vlan:switched-vlan"
	// -> "switched-vlan").
	Key string
	// Index is the node's position in its array (-1 in an object).
	Index int
	// First and Last are the lines (from 1) of the node's first byte (its
	// key's, in an object) and of its last byte.
	First, Last int
	// Value is a scalar's text: a string's value, a number or literal as
	// written; "" for objects and arrays.
	Value string
	// Kids are an object's members in document order, or an array's
	// items.
	Kids []*JSONNode
}

// Child returns the member named key of an object node, or nil.
func (n *JSONNode) Child(key string) *JSONNode {
	if n == nil {
		return nil
	}
	for _, k := range n.Kids {
		if k.Key == key {
			return k
		}
	}
	return nil
}

// ParseJSONLines reads data into a JSONNode tree with line numbers.
func ParseJSONLines(data []byte) (*JSONNode, error) {
	p := &jsonParser{dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	for i, c := range data {
		if c == '\n' {
			p.newlines = append(p.newlines, i)
		}
	}
	root, err := p.value("", -1, 0)
	if err != nil {
		return nil, fmt.Errorf("reading JSON back: %w", err)
	}
	return root, nil
}

// jsonParser reads tokens and turns byte offsets into lines.
type jsonParser struct {
	dec      *json.Decoder
	newlines []int
}

// line is the line (from 1) holding the last byte of the token just read.
func (p *jsonParser) line() int {
	off := int(p.dec.InputOffset()) - 1
	return sort.SearchInts(p.newlines, off) + 1
}

// value reads one value; first is the line of its key (0: its own).
func (p *jsonParser) value(key string, index, first int) (*JSONNode, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	n := &JSONNode{Key: key, Index: index, First: first}
	if n.First == 0 {
		n.First = p.line()
	}
	switch t := tok.(type) {
	case json.Delim:
		if err := p.members(n, t); err != nil {
			return nil, err
		}
	case string:
		n.Value = t
	case nil:
		n.Value = "null"
	default:
		n.Value = fmt.Sprint(t)
	}
	n.Last = p.line()
	return n, nil
}

// members reads the members of an object or the items of an array up to
// the closing delimiter.
func (p *jsonParser) members(n *JSONNode, open json.Delim) error {
	for i := 0; p.dec.More(); i++ {
		if open == '[' {
			kid, err := p.value("", i, 0)
			if err != nil {
				return err
			}
			n.Kids = append(n.Kids, kid)
			continue
		}
		tok, err := p.dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		if _, after, ok := strings.Cut(name, ":"); ok {
			name = after
		}
		kid, err := p.value(name, -1, p.line())
		if err != nil {
			return err
		}
		n.Kids = append(n.Kids, kid)
	}
	_, err := p.dec.Token() // the closing delimiter
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// MapJSON maps each line of the JSON document data to model elements:
// elementOf gets the path from the root to a node and returns the node's
// elements, or nil to take its parent's. A line gets the elements of the
// innermost node that starts or ends on it; lines of nodes with no
// elements up to the root are fixed text.
func MapJSON(data []byte, elementOf func(path []*JSONNode) []Element) (*SourceMap, error) {
	root, err := ParseJSONLines(data)
	if err != nil {
		return nil, err
	}
	m := &SourceMap{Lines: make([][]Element, strings.Count(string(data), "\n"))}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		m.Lines = append(m.Lines, nil)
	}
	var walk func(path []*JSONNode, inherited []Element)
	walk = func(path []*JSONNode, inherited []Element) {
		n := path[len(path)-1]
		elems := elementOf(path)
		if elems == nil {
			elems = inherited
		}
		for _, l := range []int{n.First, n.Last} {
			if l >= 1 && l <= len(m.Lines) {
				m.Lines[l-1] = elems
			}
		}
		for _, k := range n.Kids {
			walk(append(path[:len(path):len(path)], k), elems)
		}
	}
	walk([]*JSONNode{root}, nil)
	return m, nil
}
