package cumulus

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
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
}

// plan is the ordered intent for one switch.
type plan struct{ items []item }

// set adds `nv set <path> <value>`; path is space separated.
func (p *plan) set(path string, value any) {
	p.items = append(p.items, item{path: strings.Fields(path), value: value})
}

// member adds `nv set <path>` where the last token is a set member.
func (p *plan) member(path string) { p.set(path, nil) }

// unsetPath adds `nv unset <path>` to the script.
func (p *plan) unsetPath(path string) {
	p.items = append(p.items, item{path: strings.Fields(path), unset: true})
}

// notef records a model value NVUE cannot take, for both artifacts.
func (p *plan) notef(format string, args ...any) {
	p.items = append(p.items, item{note: oneLine(fmt.Sprintf(format, args...))})
}

// sectionf starts a titled block of the script.
func (p *plan) sectionf(format string, args ...any) {
	p.items = append(p.items, item{section: oneLine(fmt.Sprintf(format, args...))})
}

// commentf adds an explanatory comment line to the script only.
func (p *plan) commentf(format string, args ...any) {
	p.items = append(p.items, item{comment: oneLine(fmt.Sprintf(format, args...))})
}

// notes returns the notes in order.
func (p *plan) notes() []string {
	var out []string
	for _, it := range p.items {
		if it.note != "" {
			out = append(out, it.note)
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

// script renders the plan as bash `nv set` lines between header and footer.
func (p *plan) script(header, footer []string) []byte {
	var b bytes.Buffer
	b.WriteString("#!/usr/bin/env bash\n")
	writeComments(&b, header)
	b.WriteString("set -euo pipefail\n")
	for _, it := range p.items {
		switch {
		case it.section != "":
			fmt.Fprintf(&b, "\n# %s\n", it.section)
		case it.note != "":
			fmt.Fprintf(&b, "# NOTE: %s\n", it.note)
		case it.comment != "":
			fmt.Fprintf(&b, "# %s\n", it.comment)
		case it.unset:
			fmt.Fprintf(&b, "nv unset %s\n", strings.Join(it.path, " "))
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
	b.WriteByte('\n')
	writeComments(&b, footer)
	return b.Bytes()
}

// writeComments writes each line as a bash/YAML comment.
func writeComments(b *bytes.Buffer, lines []string) {
	for _, l := range lines {
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
}

// newTree returns an empty mapping.
func newTree() *tree { return &tree{kids: map[string]*tree{}} }

// insert places value at path, expanding comma lists.
func (t *tree) insert(path []string, value any) error {
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
		if len(path) == 1 {
			if err := child.setLeaf(value, path); err != nil {
				return err
			}
			continue
		}
		if child.leaf != nil {
			return fmt.Errorf("NVUE path %q is both a value and an object", strings.Join(path, " "))
		}
		if err := child.insert(path[1:], value); err != nil {
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

// yamlDoc renders the plan as an NVUE patch document: a list holding one
// `set` request whose body is the object tree (the shape `nv config show`
// prints and `nv config patch` takes; NVIDIA docs, NVUE-CLI "nv config
// patch <nvue-file>", and the startup.yaml form `- set: {interface: ...}`).
func (p *plan) yamlDoc(header []string) ([]byte, error) {
	root := newTree()
	for _, it := range p.items {
		if it.path == nil || it.unset {
			continue
		}
		if err := root.insert(it.path, it.value); err != nil {
			return nil, err
		}
	}
	req := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "set"}, root.node(),
	}}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{req}}
	var b bytes.Buffer
	writeComments(&b, header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(seq); err != nil {
		return nil, fmt.Errorf("encoding NVUE YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding NVUE YAML: %w", err)
	}
	return b.Bytes(), nil
}
