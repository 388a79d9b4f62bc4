package dsl

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fabricc/fabricc/internal/quote"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Limits on what Load reads and evaluates. A fabric is a file someone
// else may have written: each limit turns what would otherwise exhaust
// memory, overflow the stack or never finish into an error at a place in
// the source. A real fabric stays far below every one of them (the
// 24-host example is 6 KB with nesting 6). The limits that grow with a
// fabric's size are in Limits.
const (
	// MaxFileBytes bounds one .hcl or var file under the default limits
	// (Limits.FileBytes).
	MaxFileBytes = 1 << 20
	// MaxDataFileBytes bounds one file a fabric reads with file,
	// fileexists or templatefile (a cabling plan, a host list), under
	// both the default and the --large limits.
	MaxDataFileBytes = 16 << 20
	// MaxFiles bounds the .hcl files of a fabric folder.
	MaxFiles = 256
	// MaxNesting bounds how deep blocks, brackets, parentheses,
	// templates and unary operators nest: the parser and the evaluator
	// recurse once per level.
	MaxNesting = 64
	// MaxOperators bounds the operators of one file: a chain of binary
	// operators is one deep tree to evaluate.
	MaxOperators = 10000
)

// fileStart is the first position of a file, where file-wide errors point.
func fileStart(name string) *hcl.Range {
	return &hcl.Range{Filename: name, Start: hcl.InitialPos, End: hcl.InitialPos}
}

// readSource reads one fabric or var file. Only a regular file of at most
// limits.FileBytes is read: a FIFO would block, a device such as
// /dev/zero never ends. When root is not empty the file was found in the
// fabric folder root, and a symbolic link must stay inside it.
func readSource(name, root string, limits Limits) ([]byte, hcl.Diagnostics) {
	max := limits.FileBytes
	fail := func(summary, detail string, args ...any) ([]byte, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(detail, args...), Subject: fileStart(name)}}
	}
	if root != "" {
		if err := insideRoot(name, root); err != nil {
			return fail("File outside the fabric folder", "%v. A fabric folder's files must be in it; copy the file in instead of linking to it.", err)
		}
	}
	st, err := os.Stat(name) // before opening: opening a FIFO blocks
	if err != nil {
		return fail("Cannot read file", "%v.", err)
	}
	if !st.Mode().IsRegular() {
		return fail("Not a regular file", "%s is a %s, not a file; give a .hcl file.", name, describeMode(st.Mode()))
	}
	if st.Size() > max {
		return fail("File too large", "%s is %d bytes; a fabric file holds at most %d%s. Split the fabric into several files of a folder.", name, st.Size(), max, limits.hint())
	}
	f, err := os.Open(name)
	if err != nil {
		return fail("Cannot read file", "%v.", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return fail("Cannot read file", "%v.", err)
	}
	if int64(len(src)) > max {
		return fail("File too large", "%s holds more than %d bytes; a fabric file holds at most %d%s.", name, max, max, limits.hint())
	}
	if d := checkBytes(src, name); d != nil {
		return nil, d
	}
	if surelyWithinLimits(src) {
		return src, nil
	}
	return src, checkTokens(src, name)
}

// checkBytes refuses a file holding, anywhere (a comment included), a
// control character other than tab, line feed and carriage return, a
// line or paragraph separator, a bidirectional control character, a byte
// order mark after the file's start or invalid UTF-8. Such a character is
// never needed in a fabric; in a comment it would still reach a terminal
// through the source snippet of a diagnostic (an ESC sequence), or show a
// reviewer other text than the parser reads (bidirectional overrides,
// "Trojan Source", CVE-2021-42574; an invisible byte order mark, which
// HCL skips only as a file's first character). Lines and columns count
// as HCL's scanner does: a leading byte order mark is not a column.
func checkBytes(src []byte, name string) hcl.Diagnostics {
	line, col, i := 1, 1, 0
	if bytes.HasPrefix(src, utf8BOM) {
		i = len(utf8BOM)
	}
	for i < len(src) {
		r, n := utf8.DecodeRune(src[i:])
		if badRune(r, n) {
			return hcl.Diagnostics{invalidCharacter(src, name, i, hcl.Pos{Line: line, Column: col, Byte: i}, r)}
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		col++
		i += n
	}
	return nil
}

// utf8BOM is the UTF-8 byte order mark, U+FEFF.
var utf8BOM = []byte("\xef\xbb\xbf")

// badRune reports whether r, of n bytes, is a character checkBytes
// refuses.
func badRune(r rune, n int) bool {
	return r == utf8.RuneError && n == 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' ||
		r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0xfeff
}

// invalidCharacter is checkBytes' diagnostic for the character r at byte
// i of src, at pos. Its detail quotes the line for the compact and JSON
// forms; the text form shows the line (shownLineAround) with the
// character escaped and a caret under it, since the file is not among
// the parsed files a snippet is cut from, and its bad byte must never
// reach a terminal raw.
func invalidCharacter(src []byte, name string, i int, pos hcl.Pos, r rune) *hcl.Diagnostic {
	what := quote.DescribeRune(r)
	if r == utf8.RuneError {
		what = fmt.Sprintf("the byte 0x%02X (not UTF-8)", src[i])
	}
	fix := "Fabric files are text: remove it (a string that needs it cannot hold it either)."
	if r == utf8.RuneError {
		fix = "Fabric files are UTF-8 text: save the file as UTF-8 (not Latin-1 or Windows-1252), or remove the byte."
	}
	if r == 0xfeff {
		fix = "A byte order mark may only start a file (an editor writes it there); remove this one."
	}
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid character",
		Detail: fmt.Sprintf("The file holds %s at column %d of line %d: %s. %s",
			what, pos.Column, pos.Line, quotedLineAround(src, i), fix),
		Subject: &hcl.Range{Filename: name, Start: pos, End: pos}}
	extraOf(d).shown = shownLineAround(src, i)
	return d
}

// quotedLineAround quotes the line of src that holds byte i, at most 60
// bytes either side of it, in Go syntax (control characters and invalid
// UTF-8 escaped), "..." marking what is cut off.
func quotedLineAround(src []byte, i int) string {
	lo, hi, cutBefore, cutAfter := lineAround(src, i)
	q := strconv.Quote(string(src[lo:hi]))
	if cutBefore {
		q = "..." + q
	}
	if cutAfter {
		q += "..."
	}
	return q
}

// lineAround bounds the part of the line of src holding byte i that a
// message shows: at most 60 bytes either side of i, whole characters,
// without a leading byte order mark (HCL skips it) or the CR of a CRLF
// line end; cutBefore and cutAfter say whether the line goes on.
func lineAround(src []byte, i int) (lo, hi int, cutBefore, cutAfter bool) {
	start, end := lineStart(src, i), len(src)
	if start == 0 && i >= len(utf8BOM) && bytes.HasPrefix(src, utf8BOM) {
		start = len(utf8BOM)
	}
	if nl := bytes.IndexByte(src[i:], '\n'); nl >= 0 {
		end = i + nl
	}
	if end > i+1 && src[end-1] == '\r' {
		end--
	}
	lo, hi = max(start, i-60), min(end, i+60)
	for lo > start && !utf8.RuneStart(src[lo]) {
		lo--
	}
	for hi < end && !utf8.RuneStart(src[hi]) {
		hi++
	}
	return lo, hi, lo > start, hi < end
}

// ReadSource reads an HCL file given on the command line (an inventory)
// under the same rules as a fabric file: a regular file of at most
// MaxFileBytes, nesting and operators within their limits.
func ReadSource(name string) ([]byte, hcl.Diagnostics) { return readSource(name, "", DefaultLimits) }

// describeMode names a non-regular file type for a message.
func describeMode(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&os.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&os.ModeDevice != 0, m&os.ModeCharDevice != 0:
		return "device"
	case m&os.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// insideRoot refuses a file of the folder root whose real path (links
// followed) is not inside root's real path.
func insideRoot(name, root string) error { return InsideFolder(name, root) }

// InsideFolder refuses a file whose real path (absolute, links followed)
// is not inside the real path of the folder root; a file that is not
// there is the error of filepath.EvalSymlinks (fs.ErrNotExist).
func InsideFolder(name, root string) error {
	real, err := realPath(name)
	if err != nil {
		return err
	}
	realRoot, err := realPath(root)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s links to %s, outside %s", name, real, root)
	}
	return nil
}

// realPath is p absolute, with every link followed.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// opens and closes are the tokens that start and end a nesting level.
var (
	opens = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenOBrace: true, hclsyntax.TokenOBrack: true, hclsyntax.TokenOParen: true,
		hclsyntax.TokenOQuote: true, hclsyntax.TokenOHeredoc: true,
		hclsyntax.TokenTemplateInterp: true, hclsyntax.TokenTemplateControl: true,
	}
	closes = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenCBrace: true, hclsyntax.TokenCBrack: true, hclsyntax.TokenCParen: true,
		hclsyntax.TokenCQuote: true, hclsyntax.TokenCHeredoc: true, hclsyntax.TokenTemplateSeqEnd: true,
	}
	operators = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenStar: true, hclsyntax.TokenSlash: true, hclsyntax.TokenPlus: true, hclsyntax.TokenMinus: true,
		hclsyntax.TokenPercent: true, hclsyntax.TokenEqualOp: true, hclsyntax.TokenNotEqual: true,
		hclsyntax.TokenLessThan: true, hclsyntax.TokenLessThanEq: true, hclsyntax.TokenGreaterThan: true,
		hclsyntax.TokenGreaterThanEq: true, hclsyntax.TokenAnd: true, hclsyntax.TokenOr: true,
		hclsyntax.TokenBang: true, hclsyntax.TokenQuestion: true,
	}
)

// checkTokens scans src with HCL's lexer (a state machine, no recursion)
// before it is parsed: nesting deeper than MaxNesting (a run of unary
// operators counts one level per operator) or more than MaxOperators
// operators is an error at the token that crosses the limit.
func checkTokens(src []byte, name string) hcl.Diagnostics {
	tokens, _ := hclsyntax.LexConfig(src, name, hcl.InitialPos)
	depth, run, ops := 0, 0, 0
	for i, tok := range tokens {
		t := tok.Type
		switch {
		case opens[t]:
			depth++
		case closes[t] && depth > 0:
			depth--
		}
		if operators[t] {
			ops++
		}
		unary := (t == hclsyntax.TokenBang || t == hclsyntax.TokenMinus) && i > 0 && (operators[tokens[i-1].Type] || opens[tokens[i-1].Type])
		if unary {
			run++
		} else if t != hclsyntax.TokenBang && t != hclsyntax.TokenMinus {
			run = 0
		}
		r := tok.Range
		switch {
		case depth+run > MaxNesting:
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Nesting too deep",
				Detail: fmt.Sprintf("Blocks, brackets, parentheses, templates and unary operators nest more than %d levels deep here; "+
					"fabricc stops there. Compute the value in steps with locals.", MaxNesting), Subject: &r}}
		case ops > MaxOperators:
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Too many operators",
				Detail: fmt.Sprintf("This file holds more than %d operators; fabricc stops there. Compute the value in steps with locals, or split the file.", MaxOperators), Subject: &r}}
		}
	}
	return nil
}

// surelyWithinLimits reports whether src is sure to pass checkTokens,
// from one pass over its bytes instead of HCL's lexer: the lexer's pass
// took longer than parsing a fabric a script writes out as plain
// blocks (1.2 of 3.8 s for 9 MB). It counts what may be a nesting
// level, a unary operator or an operator, never less than checkTokens
// counts, and leaves to checkTokens what codeBytes gives up on.
// FuzzSurelyWithinLimits holds it to that.
func surelyWithinLimits(src []byte) bool {
	depth, run, ops := 0, 0, 0
	return codeBytes(src, func(i int) bool {
		c := src[i]
		if c == '"' { // a plain string is one level deeper, and ends a unary run
			ok := depth+1+run <= MaxNesting
			run = 0
			return ok
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth = max(depth-1, 0)
		}
		if c == '!' || c == '-' {
			run++
		} else if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			run = 0
		}
		if strings.IndexByte("*/+-%!?<>&|", c) >= 0 || c == '=' && i+1 < len(src) && src[i+1] == '=' {
			ops++
		}
		return depth+run <= MaxNesting && ops <= MaxOperators
	})
}

// codeBytes calls visit with the index of each byte of src that is
// code, outside comments and quoted strings; a plain quoted string is
// visited at its opening quote only. It returns false, having stopped,
// where telling text from code needs HCL's lexer (a template sequence,
// a heredoc, a string past its line, an unterminated string or block
// comment), or when visit returns false. The line break that ends a
// line comment is visited.
func codeBytes(src []byte, visit func(i int) bool) bool {
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return false
			}
			i += end + 3
			continue
		case c == '<' && i+1 < len(src) && src[i+1] == '<':
			return false // a heredoc
		}
		if !visit(i) {
			return false
		}
		if c == '"' {
			end, ok := plainStringEnd(src, i)
			if !ok {
				return false
			}
			i = end
		}
	}
	return true
}

// plainStringEnd returns the index of the quote that ends the quoted
// string starting at src[start], and false when the string holds a
// template sequence ("${", "%{") or a line break, or does not end.
func plainStringEnd(src []byte, start int) (int, bool) {
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				return 0, false
			}
			i++
		case '"':
			return i, true
		case '\n':
			return 0, false
		case '{':
			if src[i-1] == '$' || src[i-1] == '%' {
				return 0, false
			}
		}
	}
	return 0, false
}

// MaxPorts bounds the ports of a whole fabric (DefaultLimits), counted
// over the port and override specs as written (a spec of a range counts
// each port): a pod of 64 switches with 64 ports each is 4096.
const MaxPorts = 65536

// checkPortCount refuses a fabric whose port specs name more than
// limits.Ports ports together, at the spec that crosses the limit, before the
// compiler expands them.
func checkPortCount(cfg *Config, limits Limits) hcl.Diagnostics {
	total := 0
	for _, s := range cfg.Switches {
		for _, blocks := range [][]Port{s.Ports, s.Overrides} {
			for _, p := range blocks {
				names, err := ExpandPorts(p.Spec)
				if err != nil {
					continue // the compiler reports the spec
				}
				if total += len(names); total > limits.Ports {
					return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Too many ports",
						Detail:  fmt.Sprintf("The fabric's port specs name more than %d ports together; fabricc stops at this one. Check the ranges and dynamic blocks%s.", limits.Ports, limits.hint()),
						Subject: p.LabelRange.Or(p.DefRange).Ptr()}}
				}
			}
		}
	}
	return nil
}
