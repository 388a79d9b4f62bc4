package quote

import "gopkg.in/yaml.v3"

// YAML returns s as a YAML string scalar node for yaml.v3's encoder.
// Printable ASCII text is left to the encoder's choice of style, which
// quotes it when the plain form would read back as something else ("2",
// "true", "a: b", "# x"). Text with any other character (a line break, a
// control or format character, any non-ASCII letter) is always written in
// the double-quoted style, where every line break and non-printable
// character is an escape sequence (\n, \r, \e, \0, \L for U+2028, \P for
// U+2029; YAML 1.2.2, 5.7 Escaped Characters and 7.3.1 Double-Quoted
// Style): the value stays on its line, never becomes a block scalar, and
// reads back exactly, by YAML 1.1 parsers (which count U+0085, U+2028 and
// U+2029 as line breaks) too.
func YAML(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			n.Style = yaml.DoubleQuotedStyle
			break
		}
	}
	return n
}
