package cli

import (
	"fmt"
	"strings"
)

// The little of bash the simulators share: command lists and output
// redirection with noclobber (GNU Bash Reference Manual, "Lists of
// Commands", "Redirecting Output" and "The Set Builtin": `set -C`, the
// same as `set -o noclobber`, makes `>` refuse to overwrite an existing
// file; `>|` and `>>` are not affected). fabricc's device lock on EOS
// (bash on /mnt/flash) and Cumulus Linux relies on that refusal.

// RunList runs a command list: commands joined by `;` (always), `&&`
// (after success) and `||` (after failure), outside quotes. run runs
// one command and returns its output and exit status; the list's status
// is the last command's.
func RunList(line string, run func(cmd string) (string, int)) (string, int) {
	var out strings.Builder
	status := 0
	for i, it := range splitList(line) {
		if i > 0 && (it.op == "&&" && status != 0 || it.op == "||" && status == 0) {
			continue
		}
		o, st := run(it.text)
		out.WriteString(o)
		if o != "" && !strings.HasSuffix(o, "\n") {
			out.WriteString("\n")
		}
		status = st
	}
	return strings.TrimSuffix(out.String(), "\n"), status
}

// IsList reports whether line joins several commands with ;, && or ||.
func IsList(line string) bool { return len(splitList(line)) > 1 }

type listItem struct {
	op   string // the operator before the command: "", ";", "&&", "||"
	text string
}

// splitList splits line at ;, && and || outside quotes.
func splitList(line string) []listItem {
	var items []listItem
	var cur strings.Builder
	op := ""
	var quote byte
	flush := func(next string) {
		if t := strings.TrimSpace(cur.String()); t != "" {
			items = append(items, listItem{op: op, text: t})
		}
		cur.Reset()
		op = next
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';':
			flush(";")
			continue
		case (c == '&' || c == '|') && i+1 < len(line) && line[i+1] == c:
			flush(string([]byte{c, c}))
			i++
			continue
		}
		cur.WriteByte(c)
	}
	flush("")
	return items
}

// Redirection splits an output redirection off a command's words:
// "> FILE", ">> FILE" or ">| FILE" at the end. op is "" when there is
// none.
func Redirection(words []string) (args []string, op, file string) {
	n := len(words)
	if n >= 2 {
		switch words[n-2] {
		case ">", ">>", ">|":
			return words[:n-2], words[n-2], words[n-1]
		}
	}
	return words, "", ""
}

// Redirect writes data to file as the redirection op does, with
// bash's noclobber rule; it returns bash's error (prefixed with prefix,
// "-bash" for a login shell) and status 1 when it refuses.
func Redirect(files map[string]string, op, file, data string, noclobber bool, prefix string) (string, int) {
	old, exists := files[file]
	switch {
	case op == ">" && noclobber && exists:
		return prefix + ": " + file + ": cannot overwrite existing file", 1
	case op == ">>":
		files[file] = old + data
	default:
		files[file] = data
	}
	return "", 0
}

// SetOption applies `set -C`, `set -o noclobber`, `set +C` or `set +o
// noclobber` to noclobber; other options leave it.
func SetOption(args []string, noclobber bool) bool {
	for i, a := range args {
		switch {
		case a == "-C", a == "-o" && i+1 < len(args) && args[i+1] == "noclobber":
			noclobber = true
		case a == "+C", a == "+o" && i+1 < len(args) && args[i+1] == "noclobber":
			noclobber = false
		}
	}
	return noclobber
}

// ShellWords splits a command line like bash: blanks separate words;
// '...' and "..." quote.
func ShellWords(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\r' || r == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unexpected EOF while looking for matching `%c'", quote)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
