package cumulus

import (
	"bytes"
	"strings"

	"github.com/fabricc/fabricc/internal/memo"
	"github.com/fabricc/fabricc/internal/quote"
	"gopkg.in/yaml.v3"
)

// The patch document is written entry by entry, each entry's text made
// by yaml.v3. yaml.v3's emitter keeps every event of a document until
// the document ends: a 20 KB patch allocated 1.9 MB, and the patches of
// a 4,096-switch fabric were a sixth of everything its build allocated.
// Here yaml.v3 still writes every key and value (style, quoting,
// escapes); fabricc adds only the indentation of a block mapping, two
// spaces per level below `- set:` at four. Each entry's text depends on
// its key and value alone (yaml.v3 breaks no line: its width is
// unlimited), so it is made once and kept. An entry yaml.v3 would not
// write on one line (a complex key: one longer than 128 bytes, or with a
// line break) sends the whole document back to yaml.v3 (writeTree's
// false). TestPatchTextIsYAMLv3 and FuzzPatchTextIsYAMLv3 compare the
// two byte for byte.

// entryKind is what follows a key: a scalar, an empty mapping, or a
// mapping whose entries come on the lines below.
type entryKind uint8

const (
	entryScalar entryKind = iota
	entryEmpty
	entryParent
)

// entryKey is what an entry's text is made from.
type entryKey struct {
	key, value, tag string
	style           yaml.Style
	kind            entryKind
}

// entryTexts keeps the text of the entries made so far ("" when not one
// line), at most 65,536: a fabric's keys and values repeat from switch
// to switch; its own strings, descriptions, need not be kept.
var entryTexts = memo.New[entryKey, string](1 << 16)

// writePatch writes root as the body of the patch's one set request,
// and false when yaml.v3 must write the document (an entry that is not
// one line, or no entry at all: `- set: {}`).
func writePatch(b *bytes.Buffer, root *tree) bool {
	if len(root.keys) == 0 {
		return false
	}
	b.WriteString("- set:\n")
	return writeTree(b, root, 4)
}

// writeTree writes the entries of t at indent, and false when an entry
// is not one line.
func writeTree(b *bytes.Buffer, t *tree, indent int) bool {
	for _, k := range orderedKeys(t.keys) {
		child := t.kids[k]
		ek := entryKey{key: k, kind: entryParent}
		switch {
		case child.leaf != nil:
			ek = entryKey{key: k, value: child.leaf.Value, tag: child.leaf.Tag, style: child.leaf.Style, kind: entryScalar}
		case len(child.keys) == 0:
			ek.kind = entryEmpty
		}
		text := entryText(ek)
		if text == "" {
			return false
		}
		for i := 0; i < indent; i++ {
			b.WriteByte(' ')
		}
		b.WriteString(text)
		if ek.kind == entryParent && !writeTree(b, child, indent+2) {
			return false
		}
	}
	return true
}

// entryText returns the line yaml.v3 writes for the entry, with its line
// break: "key: value", "key: {}", or "key:" for a parent; "" when it is
// not one line.
func entryText(ek entryKey) string {
	return entryTexts.Get(ek, func() string { return makeEntryText(ek) })
}

// makeEntryText encodes the entry as a one-entry mapping, a parent as a
// key over an empty mapping without the " {}".
func makeEntryText(ek entryKey) string {
	value := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
	if ek.kind == entryScalar {
		value = &yaml.Node{Kind: yaml.ScalarNode, Tag: ek.tag, Style: ek.style, Value: ek.value}
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{quote.YAML(ek.key), value}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if enc.Encode(m) != nil || enc.Close() != nil {
		return ""
	}
	s := b.String()
	if strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") || strings.HasPrefix(s, "? ") {
		return ""
	}
	if ek.kind == entryParent {
		head, ok := strings.CutSuffix(s, ": {}\n")
		if !ok {
			return ""
		}
		return head + ":\n"
	}
	return s
}
