// Package quote holds the one rule per output context by which a string
// from a fabric reaches a generated file. Every string a fabric author
// writes (names, descriptions, versions, interface names) is hostile until
// it went through the rule of the place it lands in:
//
//	context                        rule
//	a comment line of any file     Comment        (bash, sh, PowerShell, YAML, Onyx "#", EOS "!")
//	a bash or sh word              ShellWord      (single quotes)
//	inside a "..." sh string       ShellDouble    (also rc.conf values: RcConfValue)
//	a PowerShell string            PowerShell     (single quotes, Unicode quotes doubled too)
//	a YAML scalar                  YAML           (a yaml.v3 node, double-quoted when not plain)
//	Markdown inline text           Markdown       (backslash escapes)
//	a switch CLI description       CLIText        (checked by CheckCLIText, quoted by OnyxString)
//	a switch CLI word / a name     CheckWord      (letters, digits, '-', '_', '.')
//
// The language (package dsl) refuses, with the file and line, every
// string that no context can carry: control characters (NUL, ESC, CR,
// LF, TAB), line and paragraph separators, invisible format characters.
// The rules here still hold for any input, so a model built by hand cannot
// break out of a line either: what a context cannot carry is written
// visibly escaped or replaced, never raw.
package quote

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable reports whether r may stand in generated text as itself: a
// graphic character or the ASCII space. Control characters (Cc), format
// characters such as the bidirectional overrides and zero-width joiners
// (Cf), line and paragraph separators (Zl, Zp: U+2028, U+2029), other
// spaces, surrogates, private-use and unassigned code points are not.
// This is Go's strconv.IsPrint, which follows the Unicode categories L, M,
// N, P, S plus U+0020.
func Printable(r rune) bool {
	return strconv.IsPrint(r)
}

// Visible returns s with every rune that is not Printable written as a Go
// escape: \n, \r, \t, \x00 (NUL), \x1b (ESC), \u2028 and so on, and each
// byte of invalid UTF-8 as \xNN. The result is one line of printable text.
func Visible(s string) string {
	if isVisible(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Printable(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r) // '\n', '\x1b', '\u2028'
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// isVisible reports whether Visible(s) == s.
func isVisible(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !Printable(r) {
			return false
		}
		i += n
	}
	return true
}

// Comment returns s fit for the text of a one-line comment in every file
// fabricc writes: bash and sh ("a word beginning with # causes that word
// and all remaining characters on that line to be ignored", Bash Reference
// Manual, 3.1.3 Comments), PowerShell (a single-line comment runs to the
// next new-line-character, CR or LF: PowerShell Language Specification
// 3.0, 2.2.2 Line terminators and 2.2.3 Comments), YAML ("#" to the line
// break, YAML 1.2.2, 6.6 Comments, where CR and LF are line breaks, 5.4),
// Onyx "#" and EOS "!" lines. A comment cannot carry a line break; every
// character that ends a line anywhere (CR, LF, NEL U+0085, U+2028,
// U+2029) and every other control or invisible character is written as
// its escape, so the comment stays one line and shows what was written.
func Comment(s string) string { return Visible(s) }

// shellPlain matches words bash and POSIX sh take literally without any
// quoting: no character of them is special to the shell.
func shellPlain(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.,:/=+@%-", c) >= 0) {
			return false
		}
	}
	return true
}

// ShellWord returns s as one bash or POSIX sh word with the literal value
// s: as it is when every character is plain (letters, digits and
// "_.,:/=+@%-"), otherwise in single quotes. "Enclosing characters in
// single quotes preserves the literal value of each character within the
// quotes. A single quote may not occur between single quotes, even when
// preceded by a backslash" (Bash Reference Manual, 3.1.2.2 Single Quotes;
// POSIX Shell Command Language, 2.2.2), so each ' becomes a closing
// quote, a backslash-escaped quote and an opening quote. No expansion
// ($, `, !, \) happens inside single quotes. A shell word cannot hold NUL
// (C strings end there); NUL is written as the visible text \x00.
func ShellWord(s string) string {
	if shellPlain(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\x00", `\x00`)
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellDouble returns s for the inside of a double-quoted bash or sh
// string (a message such as note "...: text"). Inside double quotes "$",
// "`", "\" and the double quote keep their special meaning (Bash
// Reference Manual, 3.1.2.3 Double Quotes; POSIX Shell Command Language,
// 2.2.3); each is escaped with a backslash. ("!" expands history only in
// interactive shells, Bash Reference Manual 9.3, never in a script.) The
// text is made one line with Visible first.
func ShellDouble(s string) string {
	s = Visible(s)
	if !strings.ContainsAny(s, "$`\\\"") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("$`\\\"", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// RcConfValue returns s as a FreeBSD rc.conf value: the double-quoted
// form sysrc(8) writes (ifconfig_mce0="inet 10.0.0.1/24"). rc.conf is
// read by sh ("/etc/rc.conf ... is a shell script", rc.conf(5)), so the
// value is a double-quoted sh string with ShellDouble's escapes.
func RcConfValue(s string) string { return `"` + ShellDouble(s) + `"` }

// PowerShell quote characters. The PowerShell Language Specification 3.0,
// 2.3.5.2 String literals, counts four characters as single-quote-
// character (U+0027 APOSTROPHE, U+2018 LEFT SINGLE QUOTATION MARK, U+2019
// RIGHT SINGLE QUOTATION MARK, U+201A SINGLE LOW-9 QUOTATION MARK, U+201B
// SINGLE HIGH-REVERSED-9 QUOTATION MARK) and four as double-quote-
// character (U+0022, U+201C, U+201D, U+201E): any of them opens or closes
// a string.
const (
	psSingleQuotes = "'\u2018\u2019\u201a\u201b"
	psDoubleQuotes = "\"\u201c\u201d\u201e"
)

// PowerShell returns s as a PowerShell verbatim (single-quoted) string,
// in which no variable or subexpression is expanded and the only special
// characters are the single-quote-characters: each is written twice
// ("verbatim-string-part: ... single-quote-character single-quote-
// character", PowerShell Language Specification 3.0, 2.3.5.2). Doubling
// only the ASCII quote is not enough: U+2018-U+201B close the string as
// well. NUL is written as the visible text \x00.
func PowerShell(s string) string {
	s = strings.ReplaceAll(s, "\x00", `\x00`)
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for _, r := range s {
		b.WriteRune(r)
		if strings.ContainsRune(psSingleQuotes, r) {
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// IsPowerShellQuote reports whether r opens or closes a PowerShell string
// (PowerShell Language Specification 3.0, 2.3.5.2): the four
// single-quote-characters and the four double-quote-characters.
func IsPowerShellQuote(r rune) bool {
	return strings.ContainsRune(psSingleQuotes+psDoubleQuotes, r)
}

// Markdown returns s for inline Markdown text (a heading, a paragraph or
// a table cell): one line (Visible), with every character that could
// start emphasis, code, a link, HTML, a table cell or a heading
// backslash-escaped ("Any ASCII punctuation character may be backslash-
// escaped", CommonMark 0.31.2, 2.4 Backslash escapes). What GitHub
// links after rendering, which no escape stops, is broken with a
// zero-width space (&#8203;, as Renovate writes its pull requests): an
// @mention, which would notify a person or team from a plan comment
// (GitHub Docs, "Basic writing and formatting syntax", Mentioning people
// and teams), a #number reference, and the www. and :// of the
// extended autolinks (GitHub Flavored Markdown Spec, 6.9).
func Markdown(s string) string {
	s = Visible(s)
	var b strings.Builder
	for i, r := range s {
		if strings.ContainsRune("\\`*_[]<>|#!&~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
		if breaksLink(s, i, r) {
			b.WriteString(zeroWidthSpace)
		}
	}
	return b.String()
}

// zeroWidthSpace is U+200B as an HTML character reference: invisible,
// and GitHub links no mention, reference or address it splits.
const zeroWidthSpace = "&#8203;"

// breaksLink reports whether Markdown writes a zero-width space after
// the rune r at byte i of s: after @, after # before a digit, after the
// ':' of "://" and after "www" before '.'.
func breaksLink(s string, i int, r rune) bool {
	rest := s[i+1:]
	switch r {
	case '@':
		return true
	case '#':
		return rest != "" && rest[0] >= '0' && rest[0] <= '9'
	case ':':
		return strings.HasPrefix(rest, "//")
	case 'w', 'W':
		return i >= 2 && strings.EqualFold(s[i-2:i+1], "www") && strings.HasPrefix(rest, ".")
	}
	return false
}

// cliSpecial are the printable ASCII characters a switch CLI line cannot
// carry as text: the double quote delimits an Onyx string (`description
// "to leaf1"`, Onyx running-config) and cannot be escaped inside one; the
// backslash is an escape character; "?" asks the interactive CLI for help
// on the word being typed (Onyx and EOS both answer "?" with the possible
// completions), so it never reaches the command; "|" starts an output
// filter on EOS.
const cliSpecial = "\"\\?|"

// MaxCLIText is the longest switch CLI text: EOS takes an interface
// description of up to 240 characters (Ansible arista.eos collection,
// eos_interface: "Description of Interface upto 240 characters").
const MaxCLIText = 240

// CheckCLIText reports why s cannot be the text of a switch CLI command
// (an interface description, a VLAN name on Onyx): it must be 1 to
// MaxCLIText printable ASCII characters (NVUE, Onyx and EOS configuration
// files and CLIs are ASCII), none of `" \ ? |`, without leading or
// trailing spaces (the switches drop them, so the verification would
// never match). The error names the first offending character.
func CheckCLIText(s string) error {
	if s == "" {
		return fmt.Errorf("is empty")
	}
	if n := utf8.RuneCountInString(s); n > MaxCLIText {
		return fmt.Errorf("is %d characters long; switch CLIs take at most %d", n, MaxCLIText)
	}
	for i, r := range s {
		switch {
		case r < 0x20 || r > 0x7e:
			return fmt.Errorf("holds %s at character %d; switch CLIs take printable ASCII only", describeRune(r), utf8.RuneCountInString(s[:i])+1)
		case strings.ContainsRune(cliSpecial, r):
			return fmt.Errorf("holds %q at character %d, which a switch CLI reads as syntax (quote, escape, help or pipe)", r, utf8.RuneCountInString(s[:i])+1)
		}
	}
	if strings.TrimSpace(s) != s {
		return fmt.Errorf("starts or ends with a space, which the switch drops")
	}
	return nil
}

// CLIText returns s for a switch CLI line: s itself when CheckCLIText
// accepts it, otherwise s with every character it refuses replaced by
// "_", so not even an unchecked string can end the line, open a quote or
// ask for help. Renderers check first and fail on a refused string; this
// is what they write.
func CLIText(s string) string {
	if CheckCLIText(s) == nil {
		return s
	}
	out := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || strings.ContainsRune(cliSpecial, r) {
			return '_'
		}
		return r
	}, s)
	if n := len(out); n > MaxCLIText {
		out = out[:MaxCLIText]
	}
	return out
}

// OnyxString returns s as an Onyx CLI string in double quotes, the form
// Onyx prints names and descriptions in (`description "to leaf1"`, `vlan
// 10 name "storage"`), with CLIText's guarantee: no quote, backslash, help
// character or line break inside.
func OnyxString(s string) string { return `"` + CLIText(s) + `"` }

// CheckWord reports why s is not a word: 1 to max ASCII letters, digits,
// '-', '_' or '.', starting with a letter or digit. A word is safe
// unquoted in every context (a file name, a shell word, a CLI token, a
// YAML plain scalar, a PowerShell argument) and the same on every
// file system.
func CheckWord(s string, max int) error {
	if s == "" {
		return fmt.Errorf("is empty")
	}
	if len(s) > max {
		return fmt.Errorf("is %d characters long; at most %d", utf8.RuneCountInString(s), max)
	}
	for i, r := range s {
		ok := r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || (i > 0 && strings.ContainsRune("-_.", r)))
		if !ok {
			if i == 0 && strings.ContainsRune("-_.", r) {
				return fmt.Errorf("starts with %q; start with a letter or digit", r)
			}
			return fmt.Errorf("holds %s at character %d; use letters, digits, '-', '_' and '.'", describeRune(r), utf8.RuneCountInString(s[:i])+1)
		}
	}
	return nil
}

// describeRune names r for a message: `"x"` for a printable character,
// its code point and name class otherwise ("U+000A (line feed)").
func describeRune(r rune) string {
	if names[r] != "" {
		return fmt.Sprintf("U+%04X (%s)", r, names[r])
	}
	if Printable(r) && r != ' ' {
		return fmt.Sprintf("%q (U+%04X)", r, r)
	}
	if r == ' ' {
		return "a space"
	}
	return fmt.Sprintf("U+%04X (an invisible or control character)", r)
}

// names are the characters messages name in words.
var names = map[rune]string{
	0x00: "NUL", 0x09: "tab", 0x0a: "line feed", 0x0b: "vertical tab", 0x0c: "form feed",
	0x0d: "carriage return", 0x1b: "escape", 0x7f: "delete", 0x85: "next line",
	0xa0: "no-break space", 0x200b: "zero width space", 0x2028: "line separator",
	0x2029: "paragraph separator", 0x202e: "right-to-left override", 0xfeff: "byte order mark",
	utf8.RuneError: "invalid UTF-8",
}

// DescribeRune names r for a diagnostic: "U+000A (line feed)", `"é"
// (U+00E9)`.
func DescribeRune(r rune) string { return describeRune(r) }
