package push

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/push/verify"
	"gopkg.in/yaml.v3"
)

// nvueBeforeAfter lists what staging a Cumulus push changes, one line
// per value, with the value before and after: `interface swp1
// description: "gpu01 HCA0" -> "to gpu01:roce0"`, `interface swp1 qos
// pfc profile: "my-roce" -> "pfc-sp3-100g-1m"`, "(none)" for a value
// that is not there. NVUE's `nv config diff` lists only what is set and
// unset, so the first push over a hand-configured switch did not say
// what it replaced (rmig #7); the EOS and Onyx diffs show both sides.
// applied is `nv config show -o json` read before staging, decoded, unsets the
// `nv unset` paths push runs first (without "nv unset "), patch the
// `.nvue.yaml`. A value the push leaves as it was is not listed, nor one
// it adds where there was none: NVUE's diff shows those as they are. A
// set's member (`switch-priority: {"3": {}}`) reads "present".
// Interface lists ("swp1-6,10") are expanded, as NVUE expands them.
func nvueBeforeAfter(applied *verify.NVUEConfig, unsets []string, patch []byte) ([]string, error) {
	before := map[string]string{}
	flattenNVUE(applied.Object(), nil, before)
	after := maps.Clone(before)
	for _, u := range unsets {
		for _, prefix := range unsetPrefixes(u) {
			for k := range after {
				if k == prefix || strings.HasPrefix(k, prefix+" ") {
					delete(after, k)
				}
			}
		}
	}
	var docs []map[string]any
	if err := yaml.Unmarshal(patch, &docs); err != nil {
		return nil, fmt.Errorf("the NVUE patch: %w", err)
	}
	for _, d := range docs {
		flattenNVUE(d["set"], nil, after)
	}
	union := maps.Clone(before)
	maps.Copy(union, after)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(union)) {
		b, inB := before[k]
		a, inA := after[k]
		if !inB || inA && a == b {
			continue // an addition NVUE's diff shows as it is, or no change
		}
		out = append(out, fmt.Sprintf("%s: %s -> %s", k, orNone(b, inB), orNone(a, inA)))
	}
	return out, nil
}

// nvueListKey is a key NVUE reads as a list: interface names with
// ranges ("swp1-6,10") or numbers ("0-7", "3,4").
var nvueListKey = regexp.MustCompile(`^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$`)

// flattenNVUE writes each value under v into out by its path of keys,
// a list key as one path per member; an empty object is "present".
func flattenNVUE(v any, path []string, out map[string]string) {
	if mm, ok := v.(map[any]any); ok { // YAML with a key that is not a string
		m := make(map[string]any, len(mm))
		for k, sub := range mm {
			m[fmt.Sprint(k)] = sub
		}
		v = m
	}
	m, ok := v.(map[string]any)
	if !ok {
		if len(path) > 0 {
			out[strings.Join(path, " ")] = valueText(v)
		}
		return
	}
	if len(m) == 0 {
		if len(path) > 0 {
			out[strings.Join(path, " ")] = "present"
		}
		return
	}
	for k, sub := range m {
		for _, name := range keyNames(path, k) {
			flattenNVUE(sub, append(slices.Clip(path), pathWord(name)), out)
		}
	}
}

// keyNames expands key k under path: an interface list, or a list of
// numbers; any other key is itself.
func keyNames(path []string, k string) []string {
	if len(path) == 1 && path[0] == "interface" || nvueListKey.MatchString(k) {
		return verify.NVUENames(k)
	}
	return []string{k}
}

// unsetPrefixes are the paths an `nv unset` path removes, one per
// interface it names.
func unsetPrefixes(u string) []string {
	words := strings.Fields(u)
	if len(words) < 2 || words[0] != "interface" {
		return []string{strings.Join(words, " ")}
	}
	var out []string
	for _, name := range verify.NVUENames(words[1]) {
		out = append(out, strings.Join(append([]string{"interface", name}, words[2:]...), " "))
	}
	return out
}

// nvuePathWord matches a key printed as it is; any other is quoted, so
// that a key read from the switch stays one visible word.
var nvuePathWord = regexp.MustCompile(`^[A-Za-z0-9_.:/,+-]+$`)

// pathWord prints one key of a path.
func pathWord(k string) string {
	if nvuePathWord.MatchString(k) {
		return k
	}
	return strconv.Quote(k)
}

// nvueScalar is a string NVUE reads as a number or a boolean: the
// applied configuration may hold `infinite: "true"` where the patch has
// `infinite: true`, the same value.
var nvueScalar = regexp.MustCompile(`^(true|false|-?[0-9]+(\.[0-9]+)?)$`)

// valueText prints a value: a string quoted (a description is the
// operator's text, and may hold anything), a number or a boolean as
// NVUE prints it, a string that reads as one too.
func valueText(v any) string {
	switch x := v.(type) {
	case string:
		if nvueScalar.MatchString(x) {
			return x
		}
		return strconv.Quote(x)
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return strconv.Quote(fmt.Sprint(v))
}

// orNone is text, or "(none)" where there is no value.
func orNone(text string, ok bool) string {
	if !ok {
		return "(none)"
	}
	return text
}
