package cumulus

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// tree is an NVUE configuration object (the structured state): nested
// maps keyed as in `nv config show -o json`; leaves are strings or ints.
type tree = map[string]any

func clone(t tree) tree {
	b, err := json.Marshal(t)
	if err != nil {
		panic(err) // maps, strings and ints only
	}
	var c tree
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	normalize(c)
	return c
}

// normalize turns JSON float64 numbers back into ints.
func normalize(t tree) {
	for k, v := range t {
		switch x := v.(type) {
		case float64:
			t[k] = int(x)
		case map[string]any:
			normalize(x)
		}
	}
}

// setPath applies `nv set <toks>` to t, validating against the schema.
func setPath(n *node, cur tree, toks []string) error {
	if len(toks) == 0 {
		return nil
	}
	tok := toks[0]
	if c, ok := n.kw[tok]; ok {
		switch {
		case c.value != nil:
			if len(toks) != 2 {
				return fmt.Errorf("Error: '%s' needs exactly one value", tok)
			}
			v, err := c.value(toks[1])
			if err != nil {
				return fmt.Errorf("Error: %s: %v", tok, err)
			}
			cur[tok] = v
			return nil
		case c.terminal && len(toks) == 2:
			ks, err := c.keys(toks[1])
			if err != nil {
				return fmt.Errorf("Error: %s: %v", tok, err)
			}
			sub := child(cur, tok)
			for _, k := range ks {
				sub[k] = tree{}
			}
			return nil
		}
		return setPath(c, child(cur, tok), toks[1:])
	}
	if n.key == nil {
		return fmt.Errorf("Error: '%s' is not a valid command argument here", tok)
	}
	ks, err := n.keys(tok)
	if err != nil {
		return fmt.Errorf("Error: %v", err)
	}
	for _, k := range ks {
		if err := setPath(n.key, child(cur, k), toks[1:]); err != nil {
			return err
		}
	}
	return nil
}

// unsetPath applies `nv unset <toks>`.
func unsetPath(n *node, cur tree, toks []string) error {
	tok := toks[0]
	if c, ok := n.kw[tok]; ok {
		if len(toks) == 1 || c.value != nil {
			delete(cur, tok)
			return nil
		}
		if c.terminal {
			ks, err := c.keys(toks[1])
			if err != nil {
				return fmt.Errorf("Error: %s: %v", tok, err)
			}
			for _, k := range ks {
				delete(child(cur, tok), k)
			}
			return nil
		}
		return unsetBelow(c, cur, tok, toks[1:])
	}
	if n.key == nil {
		return fmt.Errorf("Error: '%s' is not a valid command argument here", tok)
	}
	ks, err := n.keys(tok)
	if err != nil {
		return fmt.Errorf("Error: %v", err)
	}
	for _, k := range ks {
		if len(toks) == 1 {
			delete(cur, k)
			continue
		}
		if err := unsetBelow(n.key, cur, k, toks[1:]); err != nil {
			return err
		}
	}
	return nil
}

// unsetBelow unsets toks under cur's object k. The rest of the path is
// checked against the schema even where cur has no such object, but an
// object the unset had to make to walk it is dropped again: an unset of
// something never set leaves the configuration as it was (`nv unset
// interface swp1 lldp dcbx-pfc-tlv` on a port without LLDP settings
// adds no empty lldp object).
func unsetBelow(n *node, cur tree, k string, toks []string) error {
	_, had := cur[k]
	err := unsetPath(n, child(cur, k), toks)
	if c, ok := cur[k].(map[string]any); !had && ok && len(c) == 0 {
		delete(cur, k)
	}
	return err
}

func child(t tree, k string) tree {
	c, ok := t[k].(map[string]any)
	if !ok {
		c = tree{}
		t[k] = c
	}
	return c
}

// flatten lists the `nv set` token paths that build t, sorted.
func flatten(t tree) [][]string {
	var out [][]string
	var walk func(prefix []string, v any)
	walk = func(prefix []string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			out = append(out, append(append([]string{}, prefix...), fmt.Sprint(v)))
			return
		}
		if len(m) == 0 && len(prefix) > 0 {
			out = append(out, append([]string{}, prefix...))
			return
		}
		for k, c := range m {
			walk(append(prefix, k), c)
		}
	}
	walk(nil, t)
	sort.Slice(out, func(i, j int) bool { return strings.Join(out[i], " ") < strings.Join(out[j], " ") })
	return out
}

// commands renders t as `nv set` lines.
func commands(t tree) string {
	var b strings.Builder
	for _, p := range flatten(t) {
		b.WriteString("nv set " + strings.Join(quoteAll(p), " ") + "\n")
	}
	return b.String()
}

func quoteAll(p []string) []string {
	out := make([]string, len(p))
	for i, s := range p {
		if strings.ContainsAny(s, " '\"") || s == "" {
			out[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		} else {
			out[i] = s
		}
	}
	return out
}
