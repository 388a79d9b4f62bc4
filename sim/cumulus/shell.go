package cumulus

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

type shell struct {
	d    *Device
	user string
	root bool
	// askSudo: the next line is the sudo password.
	askSudo bool
	// doc collects a heredoc for file until the line equals end.
	doc *heredoc
	// ask holds an `nv config apply` waiting for "Are you sure? [y/N]".
	ask func() string
}

type heredoc struct {
	file, end string
	lines     []string
}

// Echo is off while sudo reads its password.
func (s *shell) Echo() bool { return !s.askSudo }

// Reject is NVUE's style of error.
func (s *shell) Reject(line string) string {
	return "Error: " + strings.TrimSpace(line) + ": rejected by the switch"
}

// Prompt is sudo's password prompt, the here-document or apply
// confirmation prompt, or the bash prompt of the user or root.
func (s *shell) Prompt() string {
	switch {
	case s.askSudo:
		return "[sudo] password for " + s.user + ": "
	case s.doc != nil:
		return "> "
	case s.ask != nil:
		return "Are you sure? [y/N] "
	}
	vrf := ":mgmt"
	if s.d.opts.NoVRFPrompt {
		vrf = ""
	}
	if s.root {
		return "root@" + s.d.opts.Name + vrf + ":/home/" + s.user + "# "
	}
	return s.user + "@" + s.d.opts.Name + vrf + ":~$ "
}

// Exec runs one bash line.
func (s *shell) Exec(raw string) cli.Result {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	switch {
	case s.askSudo:
		s.askSudo = false
		s.root = true // any password: the SSH login already proved the user
		return cli.Result{}
	case s.doc != nil:
		s.heredocLine(raw)
		return cli.Result{}
	case s.ask != nil:
		run := s.ask
		s.ask = nil
		if a := strings.TrimSpace(raw); a == "y" || a == "Y" || a == "yes" {
			return cli.Result{Out: run()}
		}
		return cli.Result{Out: "Declined applying the configuration."}
	}
	words, err := splitWords(raw)
	if err != nil {
		return cli.Result{Out: "-bash: " + err.Error()}
	}
	if len(words) > 0 && words[0] == "sudo" && len(words) > 1 && words[1] != "su" && words[1] != "-i" {
		words = words[1:]
	}
	return s.run(words, raw)
}

var (
	heredocRe = regexp.MustCompile(`^cat\s*>\s*(\S+)\s*<<-?\s*['"]?(\w+)['"]?\s*$|^cat\s*<<-?\s*['"]?(\w+)['"]?\s*>\s*(\S+)\s*$`)
	base64Re  = regexp.MustCompile(`^echo\s+['"]?([A-Za-z0-9+/=]*)['"]?\s*\|\s*base64\s+(?:-d|--decode)\s*>\s*(\S+)\s*$`)
)

func (s *shell) run(w []string, raw string) cli.Result {
	line := strings.TrimSpace(raw)
	if len(w) == 0 || strings.HasPrefix(w[0], "#") {
		return cli.Result{}
	}
	if m := heredocRe.FindStringSubmatch(line); m != nil {
		if m[1] != "" {
			s.doc = &heredoc{file: m[1], end: m[2]}
		} else {
			s.doc = &heredoc{file: m[4], end: m[3]}
		}
		return cli.Result{}
	}
	if m := base64Re.FindStringSubmatch(line); m != nil {
		b, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			return cli.Result{Out: "base64: invalid input"}
		}
		s.d.files[m[2]] = string(b)
		return cli.Result{}
	}
	switch w[0] {
	case "exit", "logout":
		if s.root {
			s.root = false
			return cli.Result{}
		}
		return cli.Result{Exit: true}
	case "sudo":
		s.askSudo = true
		return cli.Result{}
	case "set", "true", "cd":
		return cli.Result{}
	case "echo":
		return cli.Result{Out: strings.Join(w[1:], " ")}
	case "hostname":
		return cli.Result{Out: s.d.opts.Name}
	case "cat":
		return cli.Result{Out: s.cat(w[1:])}
	case "rm":
		for _, f := range w[1:] {
			if !strings.HasPrefix(f, "-") {
				delete(s.d.files, f)
			}
		}
		return cli.Result{}
	case "nv":
		return cli.Result{Out: s.nv(w[1:])}
	}
	return cli.Result{Out: "-bash: " + w[0] + ": command not found"}
}

func (s *shell) heredocLine(raw string) {
	line := strings.TrimRight(raw, "\r")
	if strings.TrimSpace(line) == s.doc.end {
		s.d.files[s.doc.file] = strings.Join(s.doc.lines, "\n") + "\n"
		s.doc = nil
		return
	}
	s.doc.lines = append(s.doc.lines, line)
}

func (s *shell) cat(files []string) string {
	var b strings.Builder
	for _, f := range files {
		data, ok := s.d.files[f]
		if !ok {
			fmt.Fprintf(&b, "cat: %s: No such file or directory\n", f)
			continue
		}
		b.WriteString(data)
	}
	return b.String()
}

// splitWords splits a command line like bash: blanks separate words;
// '...' and "..." quote.
func splitWords(line string) ([]string, error) {
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
