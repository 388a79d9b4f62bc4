package cumulus

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/targets"
	"gopkg.in/yaml.v3"
)

// item is one line of intent: an `nv set` statement, a note (a model value
// NVUE cannot express, written into both artifacts) or a section heading
// (script only).
type item struct {
	// path holds the NVUE object path, one token per element. A token with
	// commas ("0,1,2") names several objects: the CLI accepts the list as
	// written and the YAML expands it into one key per name.
	path []string
	// value is an int, an int64 or a string; nil means the path itself is
	// the setting (a set member, `{}` in YAML).
	value any
	// unset marks an `nv unset` of path (script only; a patch cannot unset
	// and set the same object, see the notes where it is used).
	unset   bool
	note    string
	section string
	comment string
	// elems are the model elements the item comes from (recorded only
	// when a source map was asked for).
	elems []targets.Element
}

// plan is the ordered intent for one switch. When mapped, each item
// records the model elements current when it was added (at, also).
type plan struct {
	items  []item
	mapped bool
	cur    []targets.Element
	// sw names the switch, for the elements of its ports.
	sw string
}

// elem returns the path parts of the switch's port and more (as port
// takes them) when mapped; nil otherwise.
func (p *plan) elem(name string, more ...string) []string {
	if !p.mapped {
		return nil
	}
	return append([]string{"switch", p.sw, "port", name}, more...)
}

// port says that the items added next come from the switch's port, and
// from its HCL attribute when more names one (or from a part of it:
// "pg", "3").
func (p *plan) port(name string, more ...string) {
	if p.mapped {
		p.at(append([]string{"switch", p.sw, "port", name}, more...)...)
	}
}

// at says that the items added next come from the element with the
// given path parts (targets.Element); at() with none: fixed text.
func (p *plan) at(parts ...string) {
	if !p.mapped {
		return
	}
	p.cur = nil
	if len(parts) > 0 {
		p.cur = []targets.Element{targets.Path(parts...)}
	}
}

// also adds an element to those the items added next come from.
func (p *plan) also(parts ...string) {
	if p.mapped {
		p.cur = append(p.cur[:len(p.cur):len(p.cur)], targets.Path(parts...))
	}
}

// add appends it with the current elements.
func (p *plan) add(it item) {
	it.elems = p.cur
	p.items = append(p.items, it)
}

// set adds `nv set <path> <value>`; path is space separated.
func (p *plan) set(path string, value any) {
	p.add(item{path: strings.Fields(path), value: value})
}

// member adds `nv set <path>` where the last token is a set member.
func (p *plan) member(path string) { p.set(path, nil) }

// unsetPath adds `nv unset <path>` to the script.
func (p *plan) unsetPath(path string) {
	p.add(item{path: strings.Fields(path), unset: true})
}

// notef records a model value NVUE cannot take, for both artifacts.
func (p *plan) notef(format string, args ...any) {
	p.add(item{note: oneLine(fmt.Sprintf(format, args...))})
}

// sectionf starts a titled block of the script.
func (p *plan) sectionf(format string, args ...any) {
	p.add(item{section: oneLine(fmt.Sprintf(format, args...))})
}

// commentf adds an explanatory comment line to the script only.
func (p *plan) commentf(format string, args ...any) {
	p.add(item{comment: oneLine(fmt.Sprintf(format, args...))})
}

// notes returns the note items in order.
// unsets are the plan's `nv unset` paths, in order.
func (p *plan) unsets() []string {
	var out []string
	for _, it := range p.items {
		if it.unset {
			out = append(out, strings.Join(it.path, " "))
		}
	}
	return out
}

func (p *plan) notes() []item {
	var out []item
	for _, it := range p.items {
		if it.note != "" {
			out = append(out, it)
		}
	}
	return out
}

// oneLine keeps a comment on one line: white space runs become one
// space, and quote.Comment writes anything else that could end the line
// as its escape.
func oneLine(s string) string {
	return quote.Comment(strings.Join(strings.Fields(s), " "))
}

// shellQuote quotes s as one bash word (quote.ShellWord).
func shellQuote(s string) string { return quote.ShellWord(s) }

// scriptSize and yamlSize size the next script's and patch document's
// buffers (targets.SizeHint).
var scriptSize, yamlSize targets.SizeHint

// script renders the plan as bash `nv set` lines between header and
// footer, and its source map when the plan is mapped.
func (p *plan) script(header, footer []item) ([]byte, *targets.SourceMap) {
	b := scriptSize.Buffer()
	defer func() { scriptSize.Done(b.Len()) }()
	var rec *targets.Recorder
	if p.mapped {
		rec = &targets.Recorder{}
	}
	b.WriteString("#!/usr/bin/env bash\n")
	writeComments(b, rec, header)
	rec.Set(b.Len(), nil)
	b.WriteString("set -euo pipefail\n")
	for _, it := range p.items {
		rec.Set(b.Len(), it.elems)
		switch {
		case it.section != "":
			fmt.Fprintf(b, "\n# %s\n", it.section)
		case it.note != "":
			fmt.Fprintf(b, "# NOTE: %s\n", it.note)
		case it.comment != "":
			fmt.Fprintf(b, "# %s\n", it.comment)
		case it.unset:
			fmt.Fprintf(b, "nv unset %s\n", strings.Join(it.path, " "))
		default:
			line := "nv set " + strings.Join(it.path, " ")
			if it.value != nil {
				line += " " + shellQuote(fmt.Sprint(it.value))
			}
			if strings.ContainsAny(line, "$`") {
				// A literal $ or backtick inside single quotes is meant.
				b.WriteString("# shellcheck disable=SC2016\n")
			}
			b.WriteString(line + "\n")
		}
	}
	rec.Set(b.Len(), nil)
	b.WriteByte('\n')
	writeComments(b, rec, footer)
	return b.Bytes(), rec.SourceMap(b.Bytes())
}

// writeComments writes each item's text (its note, else its comment) as
// a bash/YAML comment line, recording its elements in rec (may be nil).
func writeComments(b *bytes.Buffer, rec *targets.Recorder, lines []item) {
	for _, it := range lines {
		rec.Set(b.Len(), it.elems)
		l := it.comment
		if it.note != "" {
			l = "NOTE: " + it.note
		}
		if l == "" {
			b.WriteString("#\n")
			continue
		}
		b.WriteString("# " + quote.Comment(l) + "\n")
	}
}

// tree is an ordered YAML mapping under construction.
type tree struct {
	keys []string
	kids map[string]*tree
	leaf *yaml.Node // set for scalar values
	// elems are the elements every item below this key comes from (their
	// intersection); seen is set once an item reached it.
	elems []targets.Element
	seen  bool
}

// touch records that an item with elems reaches t.
func (t *tree) touch(elems []targets.Element) {
	if !t.seen {
		t.elems, t.seen = elems, true
		return
	}
	var both []targets.Element
	for _, e := range t.elems {
		if slices.Contains(elems, e) {
			both = append(both, e)
		}
	}
	t.elems = both
}

// newTree returns an empty mapping.
func newTree() *tree { return &tree{kids: map[string]*tree{}} }

// insert places value at path, expanding comma lists; elems are the
// item's elements.
func (t *tree) insert(path []string, value any, elems []targets.Element) error {
	if len(path) == 0 {
		return nil
	}
	for _, k := range strings.Split(path[0], ",") {
		child, ok := t.kids[k]
		if !ok {
			child = newTree()
			t.kids[k] = child
			t.keys = append(t.keys, k)
		}
		child.touch(elems)
		if len(path) == 1 {
			if err := child.setLeaf(value, path); err != nil {
				return err
			}
			continue
		}
		if child.leaf != nil {
			return fmt.Errorf("NVUE path %q is both a value and an object", strings.Join(path, " "))
		}
		if err := child.insert(path[1:], value, elems); err != nil {
			return err
		}
	}
	return nil
}

// setLeaf stores a scalar (or nothing, for a set member).
func (t *tree) setLeaf(value any, path []string) error {
	if value == nil {
		if t.leaf != nil {
			return fmt.Errorf("NVUE path %q is both a value and an object", strings.Join(path, " "))
		}
		return nil
	}
	if len(t.keys) > 0 {
		return fmt.Errorf("NVUE path %q is both a value and an object", strings.Join(path, " "))
	}
	t.leaf = scalar(value)
	return nil
}

// scalar makes a typed YAML scalar.
func scalar(v any) *yaml.Node {
	switch x := v.(type) {
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x)}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	default:
		return quote.YAML(fmt.Sprint(x))
	}
}

// node converts the tree to a YAML mapping in insertion order.
func (t *tree) node() *yaml.Node {
	if t.leaf != nil {
		return t.leaf
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if len(t.keys) == 0 {
		m.Style = yaml.FlowStyle
	}
	for _, k := range orderedKeys(t.keys) {
		key := quote.YAML(k)
		m.Content = append(m.Content, key, t.kids[k].node())
	}
	return m
}

// orderedKeys sorts numeric keys (DSCP values, switch priorities, VLAN IDs)
// ascending, as `nv config show` prints them; other keys keep insertion
// order.
func orderedKeys(keys []string) []string {
	for _, k := range keys {
		if _, err := strconv.Atoi(k); err != nil {
			return keys
		}
	}
	out := append([]string(nil), keys...)
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := strconv.Atoi(out[i])
		b, _ := strconv.Atoi(out[j])
		return a < b
	})
	return out
}

// yamlDoc renders the plan as an NVUE patch document (with its source
// map when the plan is mapped): a list holding one
// `set` request whose body is the object tree (the shape `nv config show`
// prints and `nv config patch` takes; NVIDIA docs, NVUE-CLI "nv config
// patch <nvue-file>", and the startup.yaml form `- set: {interface: ...}`).
func (p *plan) yamlDoc(header []item) ([]byte, *targets.SourceMap, error) {
	root, err := p.patchTree()
	if err != nil {
		return nil, nil, err
	}
	b := yamlSize.Buffer()
	defer func() { yamlSize.Done(b.Len()) }()
	var rec *targets.Recorder
	if p.mapped {
		rec = &targets.Recorder{}
	}
	writeComments(b, rec, header)
	rec.Set(b.Len(), nil)
	if start := b.Len(); !writePatch(b, root) {
		b.Truncate(start)
		if err := encodePatch(b, root); err != nil {
			return nil, nil, err
		}
	}
	if rec == nil {
		return b.Bytes(), nil, nil
	}
	m := rec.SourceMap(b.Bytes())
	if err := mapYAML(b.Bytes(), root, m); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), m, nil
}

// patchTree is the object tree of the plan's settings.
func (p *plan) patchTree() (*tree, error) {
	root := newTree()
	for _, it := range p.items {
		if it.path == nil || it.unset {
			continue
		}
		if err := root.insert(it.path, it.value, it.elems); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// encodePatch writes root as the body of the patch's one set request,
// the whole document through yaml.v3's encoder (yamltext.go says when).
func encodePatch(b *bytes.Buffer, root *tree) error {
	req := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "set"}, root.node(),
	}}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{req}}
	enc := yaml.NewEncoder(b)
	enc.SetIndent(2)
	if err := enc.Encode(seq); err != nil {
		return fmt.Errorf("encoding NVUE YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encoding NVUE YAML: %w", err)
	}
	return nil
}

// mapYAML gives each line of the encoded tree the elements of its key:
// it reads the document back (yaml.v3 nodes carry their line) and walks
// it beside root, which encoded it in the same order.
func mapYAML(data []byte, root *tree, m *targets.SourceMap) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("reading the NVUE YAML back: %w", err)
	}
	// document -> sequence -> {set: root}
	if len(doc.Content) != 1 || len(doc.Content[0].Content) != 1 || len(doc.Content[0].Content[0].Content) != 2 {
		return fmt.Errorf("reading the NVUE YAML back: not one set request")
	}
	mapTree(doc.Content[0].Content[0].Content[1], root, m)
	return nil
}

// mapTree maps the keys of mapping node n, encoded from t.
func mapTree(n *yaml.Node, t *tree, m *targets.SourceMap) {
	if t.leaf != nil || n.Kind != yaml.MappingNode {
		return
	}
	keys := orderedKeys(t.keys)
	for i := 0; i+1 < len(n.Content) && i/2 < len(keys); i += 2 {
		child := t.kids[keys[i/2]]
		if line := n.Content[i].Line; line >= 1 && line <= len(m.Lines) {
			m.Lines[line-1] = child.elems
		}
		mapTree(n.Content[i+1], child, m)
	}
}
