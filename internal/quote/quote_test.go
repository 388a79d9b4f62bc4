package quote

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// payloads are the hostile strings every rule must carry or neutralise.
var payloads = []string{
	"plain", "two words", "semi;colon", "$(touch x)", "`touch x`", "a'b", `a"b`, `back\slash`,
	"new\nline", "cr\rlf", "nul\x00byte", "esc\x1b[31m", "tab\there", "line\u2028sep", "para\u2029sep",
	"nel\u0085x", "\u2018left\u2019", "\u201alow\u201b", "\u201cdq\u201d\u201e", "bidi\u202eoverride",
	"${HOME}", "!!", "-n", "*", "~root", "é", "日本", "#not a comment", "a: b", "- x", "",
	"invalid\xffutf8",
}

func TestVisible(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"leaf1", "leaf1"},
		{"two words; $x", "two words; $x"},
		{"a\nb", `a\nb`},
		{"a\r\nb", `a\r\nb`},
		{"\x00\x1b\x7f", `\x00\x1b\x7f`},
		{"a\u2028b\u2029c\u0085", `a\u2028b\u2029c\u0085`},
		{"\u202e\u200b\ufeff", `\u202e\u200b\ufeff`},
		{"é ’", "é ’"},
		{"\u00a0", `\u00a0`},
		{"bad\xffbyte", `bad\xffbyte`},
	} {
		if got := Visible(tc.in); got != tc.want {
			t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, p := range payloads {
		if got := Comment(p); strings.ContainsAny(got, "\n\r\x00\x1b\u0085\u2028\u2029") {
			t.Errorf("Comment(%q) = %q still breaks the line", p, got)
		}
	}
}

func TestShellWord(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ens1f0", "ens1f0"},
		{"10.0.0.1/24", "10.0.0.1/24"},
		{"", "''"},
		{"Ethernet 4", "'Ethernet 4'"},
		{"it's", `'it'\''s'`},
		{"$(id)", "'$(id)'"},
		{"a\nb", "'a\nb'"},
		{"a\x00b", `'a\x00b'`},
	} {
		if got := ShellWord(tc.in); got != tc.want {
			t.Errorf("ShellWord(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestShellWordRoundTrip has bash and sh read every payload back as one
// word with the literal value: printf prints it exactly and no command
// inside runs.
func TestShellWordRoundTrip(t *testing.T) {
	for _, sh := range []string{"bash", "sh"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Logf("%s not installed", sh)
			continue
		}
		for _, p := range payloads {
			want := strings.ReplaceAll(p, "\x00", `\x00`)
			dir := t.TempDir()
			script := "printf '%s|' " + ShellWord(p) + "\n"
			out, err := runIn(dir, sh, "-c", script)
			if err != nil || out != want+"|" {
				t.Errorf("%s read ShellWord(%q) as %q (err %v), want %q", sh, p, out, err, want+"|")
			}
			dq := "printf '%s|' \"" + ShellDouble(p) + "\"\n"
			if out, err := runIn(dir, sh, "-c", dq); err != nil || out != Visible(p)+"|" {
				t.Errorf("%s read \"ShellDouble(%q)\" as %q (err %v), want %q", sh, p, out, err, Visible(p)+"|")
			}
			comment := "# " + Comment(p) + "\nprintf ok\n"
			if out, err := runIn(dir, sh, "-c", comment); err != nil || out != "ok" {
				t.Errorf("%s ran a comment of %q: %q (err %v)", sh, p, out, err)
			}
		}
	}
}

// runIn runs a command in dir and returns its standard output.
func runIn(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	return out.String(), err
}

func TestPowerShell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Ethernet 4", "'Ethernet 4'"},
		{"it's", "'it''s'"},
		{"a\u2018b", "'a\u2018\u2018b'"},
		{"a\u2019b", "'a\u2019\u2019b'"},
		{"a\u201ab\u201bc", "'a\u201a\u201ab\u201b\u201bc'"},
		{"$(Remove-Item C:\\)", "'$(Remove-Item C:\\)'"},
		{"\u201cdouble\u201d", "'\u201cdouble\u201d'"},
		{"nul\x00", `'nul\x00'`},
	} {
		if got := PowerShell(tc.in); got != tc.want {
			t.Errorf("PowerShell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Read back as PowerShell does: inside a verbatim string any two
	// single-quote-characters stand for one, and a lone one ends it.
	for _, p := range payloads {
		q := []rune(PowerShell(p))
		var got []rune
		i := 1
		for ; i < len(q)-1; i++ {
			if strings.ContainsRune(psSingleQuotes, q[i]) {
				if !strings.ContainsRune(psSingleQuotes, q[i+1]) || i+1 == len(q)-1 {
					break
				}
				i++
			}
			got = append(got, q[i])
		}
		want := strings.ToValidUTF8(strings.ReplaceAll(p, "\x00", `\x00`), "\ufffd")
		if i != len(q)-1 || string(got) != want {
			t.Errorf("PowerShell(%q) = %q reads back as %q, ending at rune %d of %d", p, string(q), string(got), i, len(q))
		}
	}
}

func TestYAML(t *testing.T) {
	for _, p := range payloads {
		if !utf8.ValidString(p) {
			continue // the language refuses invalid UTF-8; YAML cannot carry it
		}
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "description"}, YAML(p)}}
		if err := enc.Encode(doc); err != nil {
			t.Errorf("encoding %q: %v", p, err)
			continue
		}
		out := b.String()
		if strings.Count(out, "\n") != 1 || strings.ContainsAny(out, "\r\u0085\u2028\u2029") {
			t.Errorf("YAML(%q) is not one line: %q", p, out)
		}
		var back map[string]string
		if err := yaml.Unmarshal(b.Bytes(), &back); err != nil || back["description"] != p {
			t.Errorf("YAML(%q) = %q reads back as %q (%v)", p, out, back["description"], err)
		}
	}
	if got := YAML("leaf1").Style; got != 0 {
		t.Errorf("YAML(leaf1) style %v, want the encoder's choice", got)
	}
}

func TestRcConfValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"inet 10.0.0.1/24 mtu 9000", `"inet 10.0.0.1/24 mtu 9000"`},
		{"$(reboot)", `"\$(reboot)"`},
		{"a\"b`c\\d", "\"a\\\"b\\`c\\\\d\""},
		{"x\ny", `"x\\ny"`},
	} {
		if got := RcConfValue(tc.in); got != tc.want {
			t.Errorf("RcConfValue(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"leaf1", "leaf1"},
		{"1/1", "1/1"},
		{"a|b", `a\|b`},
		{"<script>", `\<script\>`},
		{"[x](javascript:y)", `\[x\](javascript:y)`},
		{"**b** _i_ `c`", "\\*\\*b\\*\\* \\_i\\_ \\`c\\`"},
		{"x\n# h", `x\\n\# h`},
		{"cc @octo-org/admins", "cc @&#8203;octo-org/admins"},
		{"see https://evil.example/x or WWW.evil.example", "see https:&#8203;//evil.example/x or WWW&#8203;.evil.example"},
		{"issue #12, port #a", `issue \#&#8203;12, port \#a`},
		{"ww.x w.x www", "ww.x w.x www"},
	} {
		if got := Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCheckCLIText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"to gpu01:roce0", ""},
		{"uplink #2 (spine1)", ""},
		{"", "is empty"},
		{"a\nhostname x", "holds U+000A (line feed) at character 2; switch CLIs take printable ASCII only"},
		{"a\rb", "holds U+000D (carriage return) at character 2; switch CLIs take printable ASCII only"},
		{`say "hi"`, `holds '"' at character 5, which a switch CLI reads as syntax (quote, escape, help or pipe)`},
		{"why?", `holds '?' at character 4, which a switch CLI reads as syntax (quote, escape, help or pipe)`},
		{"caf\u00e9", `holds 'é' (U+00E9) at character 4; switch CLIs take printable ASCII only`},
		{" x", "starts or ends with a space, which the switch drops"},
		{strings.Repeat("x", 241), "is 241 characters long; switch CLIs take at most 240"},
	} {
		err := CheckCLIText(tc.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckCLIText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, p := range payloads {
		out := CLIText(p)
		if strings.ContainsAny(out, cliSpecial+"\n\r\x00\x1b") || len(out) > MaxCLIText {
			t.Errorf("CLIText(%q) = %q still carries a special", p, out)
		}
		if CheckCLIText(p) == nil && out != p {
			t.Errorf("CLIText changed the valid %q to %q", p, out)
		}
	}
	if got := OnyxString("to leaf1 1/1"); got != `"to leaf1 1/1"` {
		t.Errorf("OnyxString = %s", got)
	}
	if got := OnyxString(`x" ; no vlan 1`); got != `"x_ ; no vlan 1"` {
		t.Errorf("OnyxString of a quote = %s", got)
	}
}

func TestCheckWord(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"leaf1", ""},
		{"gpu-01.rack_2", ""},
		{"", "is empty"},
		{"..", `starts with '.'; start with a letter or digit`},
		{"-x", `starts with '-'; start with a letter or digit`},
		{"a/b", `holds '/' (U+002F) at character 2; use letters, digits, '-', '_' and '.'`},
		{"a b", `holds a space at character 2; use letters, digits, '-', '_' and '.'`},
		{"l\u00e9af", `holds 'é' (U+00E9) at character 2; use letters, digits, '-', '_' and '.'`},
		{"x\x1b", `holds U+001B (escape) at character 2; use letters, digits, '-', '_' and '.'`},
		{strings.Repeat("a", 64), "is 64 characters long; at most 63"},
	} {
		err := CheckWord(tc.in, 63)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckWord(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
