package sim

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/internal/redact"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
)

// PreloadError is a line of Options.Initial that the simulator would not
// take: a character no switch CLI takes, or a line its grammar refuses.
type PreloadError struct {
	// Switch is the switch that refused it (Options.Name).
	Switch string
	// Source names the configuration (Options.InitialName).
	Source string
	// Line and Column are 1-based; Column counts characters. Line 0:
	// the configuration as a whole (NVUE's apply checks).
	Line, Column int
	// Text is the line as it may be shown: secrets replaced (Error
	// quotes it, escaping every invisible character).
	Text string
	// Why is the reason: the switch's own answer, or what is wrong with
	// the line.
	Why string
}

// Error is "FILE:LINE:COLUMN: "LINE": WHY", or "FILE: WHY" for the
// configuration as a whole (Line 0).
func (e *PreloadError) Error() string {
	if e.Line == 0 {
		return e.Source + ": " + e.Why
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.Source, e.Line, e.Column, strconv.Quote(e.Text), e.Why)
}

// preloadScript is how an operator feeds a running configuration to one
// platform: what to type before and after its lines, and which lines it
// takes.
type preloadScript struct {
	// before puts the shell in configuration mode (EOS and Onyx:
	// `enable` first, its password typed when the switch asks for it);
	// after leaves it and saves, so that the configuration is also what
	// the switch boots with (a brownfield switch runs its saved
	// configuration).
	before, after []string
	// skip is a line the script leaves out (a comment, a closing "end"
	// that the script types itself).
	skip func(line string) bool
	// accept says why a line is not a configuration line of the
	// platform's form, or "".
	accept func(line string) string
	// refused says whether the answer to a line is a refusal.
	refused func(cli.Result) bool
}

// preloadScripts are the scripts per platform.
//
// EOS takes `show running-config` text as `configure` input: "!"
// comments, indented sub-mode lines (EOS falls back to the parent mode
// for a line the sub-mode does not take, which is how a pasted block
// works), the closing "end"; `write memory` saves it as
// startup-config (Arista EOS User Manual, the running-config and
// startup-config sections: `show running-config`, `copy running-config
// startup-config`).
//
// Onyx takes `show running-config` lines in `configure terminal`: "##"
// comments, one-line interface commands; `configuration write` saves
// them (NVIDIA Onyx User Manual, `show running-config`, `configuration
// write`).
//
// Cumulus takes `nv set` and `nv unset` lines, the form `nv config show
// -o commands` prints (NVUE Command Reference, Config Commands, `nv
// config show`), then `nv config apply` and `nv config save` (same
// chapter). Any other shell line is refused: the file is not a script.
// The YAML form (`nv config show -o yaml`) is not taken.
var preloadScripts = map[model.Platform]preloadScript{
	model.PlatformEOS: {
		before:  []string{"enable", "configure"},
		after:   []string{"end", "write memory"},
		skip:    func(l string) bool { return strings.HasPrefix(l, "!") || l == "end" },
		accept:  configLine,
		refused: anyAnswer,
	},
	model.PlatformOnyx: {
		before:  []string{"enable", "configure terminal"},
		after:   []string{"configuration write", "exit"},
		skip:    hashComment,
		accept:  configLine,
		refused: anyAnswer,
	},
	model.PlatformCumulus: {
		after:   []string{"nv config apply -y", "nv config save"},
		skip:    hashComment,
		accept:  nvLine,
		refused: func(r cli.Result) bool { return r.Status != 0 || r.Out != "" || r.Exit },
	},
}

// anyAnswer is how EOS and Onyx refuse a configuration line: any answer
// at all (an error, a warning), leaving the session or a reboot.
func anyAnswer(r cli.Result) bool { return r.Out != "" || r.Exit || r.Reboot }

// hashComment is a comment line of Onyx's `show running-config` ("##")
// and of a Cumulus commands file ("#").
func hashComment(l string) bool { return strings.HasPrefix(l, "#") }

// nvLine refuses a Cumulus line that is not one `nv set` or `nv unset`
// command: the lines reach a bash-like shell, where a list (`;`, `&&`),
// a pipe, a redirection, a here-document or a substitution would run or
// swallow more than the command.
func nvLine(l string) string {
	if r := shellSyntax(l); r != 0 {
		return fmt.Sprintf("%q outside single quotes is shell syntax; a Cumulus configuration here is one `nv set` or `nv unset` command a line", r)
	}
	w, err := cli.ShellWords(l)
	if err != nil {
		return err.Error()
	}
	if len(w) >= 3 && w[0] == "nv" && (w[1] == "set" || w[1] == "unset") {
		return ""
	}
	return "a Cumulus configuration here is `nv set` and `nv unset` lines, as `nv config show -o commands` prints them"
}

// shellSyntax is the first character of l that bash would take as more
// than a word's text: ; & | < > outside quotes, $ and ` outside single
// quotes (GNU Bash Reference Manual, "Quoting"); 0 when there is none.
func shellSyntax(l string) rune {
	var q rune
	for _, r := range l {
		switch {
		case q == '\'':
			if r == q {
				q = 0
			}
		case r == '$' || r == '`':
			return r
		case q == '"':
			if r == q {
				q = 0
			}
		case r == '\'' || r == '"':
			q = r
		case strings.ContainsRune(";&|<>", r):
			return r
		}
	}
	return 0
}

// configLine refuses the EOS and Onyx lines that are not configuration:
// leaving configuration mode, saving, committing or rolling back, a
// command of exec mode (a shell, a ping, a reload). "ssh" and "clock"
// lead lines of a running configuration too (Onyx `ssh server enable`,
// `clock timezone`): the grammar judges them.
func configLine(l string) string {
	switch strings.Fields(l)[0] {
	case "exit", "quit", "logout", "reload", "configure", "enable", "disable", "show", "do", "write", "copy", "configuration",
		"bash", "commit", "abort", "rollback", "clear", "terminal", "ping", "traceroute", "slogin":
		return "not a line of a running configuration (the lab enters configuration mode and saves by itself)"
	}
	return ""
}

// preload replays opts.Initial through a shell of dev, as an operator
// typing it at the switch would, then saves it.
func preload(dev cli.Device, opts Options) error {
	at := PreloadError{Switch: opts.Name, Source: cmp.Or(opts.InitialName, "initial configuration")}
	script, ok := preloadScripts[opts.Platform]
	if !ok {
		return fmt.Errorf("sim: platform %q takes no initial configuration", opts.Platform)
	}
	lines, err := initialLines(at, opts.Initial)
	if err != nil {
		return err
	}
	sh := dev.NewShell(cli.Session{User: LabUser})
	for _, l := range script.before {
		if r := execOwn(sh, l, opts.EnablePassword); failed(r) {
			return fmt.Errorf("sim: %s: %q refused: %s", opts.Name, l, why(r))
		}
	}
	for i, raw := range lines {
		l := strings.TrimSpace(raw)
		if l == "" || script.skip(l) {
			continue
		}
		if reason := script.accept(l); reason != "" {
			return lineError(at, i+1, raw, reason)
		}
		if r := sh.Exec(raw); script.refused(r) {
			return lineError(at, i+1, raw, redactIn(why(r), raw)+refusedHint)
		}
	}
	return finish(sh, script, at)
}

// lineError is the refusal of line n (raw) of the configuration at
// names, made only for the line that fails: its text with secrets
// hidden, and the reason.
func lineError(at PreloadError, n int, raw, reason string) *PreloadError {
	at.Line, at.Column, at.Text, at.Why = n, column(raw), redactLine(raw), reason
	return &at
}

// refusedHint follows the switch's answer to a refused line.
const refusedHint = "; the lab takes what the simulator's grammar takes (sim/README.md): remove or rewrite the line"

// execOwn types one of the script's own lines, and the enable password
// when the line is `enable` and the switch asks for it (EOS and Onyx
// prompt "Password: "): the answer is the password's.
func execOwn(sh cli.Shell, l, enablePassword string) cli.Result {
	r := sh.Exec(l)
	if failed(r) || !strings.HasPrefix(sh.Prompt(), "Password:") {
		return r
	}
	return sh.Exec(enablePassword)
}

// finish leaves an Onyx sub-mode (`exit`; its prompts are "(config
// interface ...)", "(config vlan N)") and types the script's closing
// lines; a refused apply (NVUE's checks of the whole configuration) is
// the file's error (at names the switch and the file).
func finish(sh cli.Shell, script preloadScript, at PreloadError) error {
	for range 3 {
		if !strings.Contains(sh.Prompt(), "(config ") {
			break
		}
		sh.Exec("exit")
	}
	for _, l := range script.after {
		if r := sh.Exec(l); failed(r) {
			at.Why = fmt.Sprintf("the switch refuses the configuration as a whole (%s): %s", l, why(r))
			return &at
		}
	}
	return nil
}

// failed says whether the answer to one of the script's own lines is an
// error: an exit status (NVUE), or EOS's and Onyx's "%" errors.
func failed(r cli.Result) bool {
	out := strings.TrimSpace(r.Out)
	return r.Status != 0 || r.Exit || r.Reboot || strings.HasPrefix(out, "%") || strings.HasPrefix(out, "Error")
}

// initialLines splits text into lines ("\n" or "\r\n" ends) and refuses
// any other character no switch CLI takes: control characters
// (including tab), invisible ones and invalid UTF-8 (at names the switch
// and the file).
func initialLines(at PreloadError, text string) ([]string, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		lines[i] = l
		col := 1
		for j := 0; j < len(l); col++ {
			r, n := utf8.DecodeRuneInString(l[j:])
			if r == utf8.RuneError && n == 1 || !quote.Printable(r) {
				at.Line, at.Column, at.Text = i+1, col, redactLine(l)
				at.Why = quote.DescribeRune(r) + " is not a character of a switch configuration; remove it"
				return nil, &at
			}
			j += n
		}
	}
	return lines, nil
}

// column is the 1-based column of the first character of l that is not
// a space.
func column(l string) int {
	return utf8.RuneCountInString(l) - utf8.RuneCountInString(strings.TrimLeft(l, " ")) + 1
}

// why is the switch's answer to a refused line, on one line.
func why(r cli.Result) string {
	out := strings.TrimSpace(r.Out)
	switch {
	case out != "":
		return strings.Join(strings.Fields(out), " ")
	case r.Exit:
		return "the line ends the session"
	case r.Reboot:
		return "the line reboots the switch"
	}
	return fmt.Sprintf("exit status %d", r.Status)
}

// redactLine returns l with every word after a secret keyword
// (redact.Keyword) replaced by "[redacted]", the rest as it was: a refused
// line is shown in the error, and a running configuration holds password
// hashes and keys.
func redactLine(l string) string {
	var b strings.Builder
	hide := false
	for len(l) > 0 {
		sp := len(l) - len(strings.TrimLeft(l, " \t"))
		b.WriteString(l[:sp])
		l = l[sp:]
		n := strings.IndexAny(l, " \t")
		if n < 0 {
			n = len(l)
		}
		word := l[:n]
		if hide {
			b.WriteString("[redacted]")
		} else {
			b.WriteString(word)
		}
		hide = hide || redact.Keyword(word)
		l = l[n:]
	}
	return b.String()
}

// redactIn replaces, in the switch's answer to line, every word that
// redactLine hides in line.
func redactIn(answer, line string) string {
	w, r := strings.Fields(line), strings.Fields(redactLine(line))
	for i := range w {
		if r[i] == "[redacted]" {
			answer = strings.ReplaceAll(answer, w[i], "[redacted]")
		}
	}
	return answer
}
