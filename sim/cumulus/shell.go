package cumulus

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

type shell struct {
	d    *Device
	user string
	root bool
	// sudo is the command waiting for the sudo password (nil: none);
	// tries counts the wrong passwords; authed is sudo's cached
	// credential for this session.
	sudo   []string
	tries  int
	authed bool
	// status is $?, the exit status of the last command.
	status int
	// noclobber is bash's `set -C`: `>` refuses an existing file.
	noclobber bool
	// doc collects a heredoc for file until the line equals end.
	doc *heredoc
	// ask holds an `nv config apply` waiting for "Are you sure? [y/N]".
	ask func() (string, int)
	// rows is the terminal's height, 0 without a terminal (Pager).
	rows int
	// nvToTerm: the line just run printed the output of an nv command
	// to the terminal while NVUE's pager is on, so Pager pages it; read
	// under the device lock, since another session's apply changes it.
	nvToTerm bool
	// nvPiped: the session defined nv as a function that pipes its
	// output through cat (nvPipeRe), so no nv output is the terminal's.
	nvPiped bool
}

type heredoc struct {
	file, end string
	lines     []string
}

// Echo is off while sudo reads its password.
func (s *shell) Echo() bool { return s.sudo == nil }

// Reject answers in the form of the program that refuses line: NVUE's
// "Error: ..." for an nv command (also under sudo), bash's "-bash:
// WORD: Permission denied" for any other line of the shell (the file
// push writes, the device lock). It names the command by its first
// words only: push's NVUE file is one base64 line of 18 KB.
func (s *shell) Reject(line string) string {
	w := strings.Fields(line)
	switch {
	case len(w) == 0:
		return "-bash: : Permission denied"
	case w[0] == "nv" || len(w) > 1 && w[0] == "sudo" && w[1] == "nv":
		return s.Refuse(strings.Join(w[:min(len(w), rejectWords)], " ") + ": rejected by the switch")
	}
	return "-bash: " + w[0] + ": Permission denied"
}

// rejectWords is how many words of an nv command Reject names.
const rejectWords = 4

// Refuse is NVUE's form of an error, "Error: reason" (the Cumulus
// Linux platform definition's failed-when-contains phrase "Error:").
func (s *shell) Refuse(reason string) string { return "Error: " + reason }

// Pager is NVUE's CLI pager: when `nv set system cli pagination state
// enabled` is applied (NVUE Command Reference, Set and Unset Commands,
// System Configuration: "view ... the output of an NVUE command one page
// at a time", pager less by default), the output of an nv command
// written to the terminal pages at its height behind less's prompt ":"
// (space: next screen, Enter: next line, q: stop). Bash itself does not
// page. Output that fits the screen is not paged, as with `less -F`: what
// NVUE passes to less has no public sample. A pipe is not a terminal, so
// `nv ... | cat` is never paged (less(1) copies its input when its
// output is not a terminal).
func (s *shell) Pager() (int, string) {
	if !s.nvToTerm || s.rows <= 0 {
		return 0, ""
	}
	return s.rows, ":"
}

// nvPipeRe is the bash function push's Cumulus session defines so that
// no nv output goes to the terminal: `nv() { command nv "$@" | cat; }`.
var nvPipeRe = regexp.MustCompile(`^nv\s*\(\)\s*\{\s*command\s+nv\s+"\$@"\s*\|\s*cat\s*;\s*\}$`)

// catPipeRe is a command line piped into cat: `CMD | cat`.
var catPipeRe = regexp.MustCompile(`^(.*\S)\s*\|\s*cat\s*$`)

// Prompt is sudo's password prompt, the here-document or apply
// confirmation prompt, or the bash prompt of the user or root
// (`cumulus@leaf1:mgmt:~$`, root `root@leaf1:mgmt:/home/cumulus#`).
func (s *shell) Prompt() string {
	switch {
	case s.sudo != nil:
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
	case s.sudo != nil:
		return s.sudoPassword(raw)
	case s.doc != nil:
		s.heredocLine(raw)
		return cli.Result{}
	case s.ask != nil:
		run := s.ask
		s.ask = nil
		if a := strings.TrimSpace(raw); a == "y" || a == "Y" || a == "yes" {
			return s.done(run())
		}
		return s.done("Declined applying the configuration.", 1)
	}
	s.nvToTerm = false
	if nvPipeRe.MatchString(strings.TrimSpace(raw)) {
		s.nvPiped = true
		return s.done("", 0)
	}
	if cli.IsList(raw) {
		return s.done(cli.RunList(raw, s.runLine))
	}
	return s.done(s.runLine(raw))
}

// runLine runs one command of a line.
func (s *shell) runLine(raw string) (string, int) {
	words, err := cli.ShellWords(raw)
	if err != nil {
		return "-bash: " + err.Error(), 2
	}
	out, status := s.run(words, raw)
	if status != exitSession {
		s.status = status
	}
	return out, status
}

// done records the exit status ($?) and returns the result.
func (s *shell) done(out string, status int) cli.Result {
	if status == exitSession {
		return cli.Result{Out: out, Status: s.status, Exit: true}
	}
	s.status = status
	return cli.Result{Out: out, Status: status}
}

// exitSession is the run status that ends the login shell.
const exitSession = -1

// sudoPassword checks the password sudo asked for: three tries, as
// sudo(8) allows by default ("Sorry, try again.", then "sudo: 3
// incorrect password attempts"); the right one runs the command and is
// remembered for the session.
func (s *shell) sudoPassword(pw string) cli.Result {
	want, ok := s.d.opts.Passwords[s.user]
	if !ok || pw != want {
		s.tries++
		if s.tries < 3 {
			return cli.Result{Out: "Sorry, try again."}
		}
		s.sudo, s.tries = nil, 0
		return s.done("sudo: 3 incorrect password attempts", 1)
	}
	cmd := s.sudo
	s.sudo, s.tries, s.authed = nil, 0, true
	return s.done(s.asRoot(cmd))
}

var (
	heredocRe = regexp.MustCompile(`^cat\s*>\s*(\S+)\s*<<-?\s*['"]?(\w+)['"]?\s*$|^cat\s*<<-?\s*['"]?(\w+)['"]?\s*>\s*(\S+)\s*$`)
	base64Re  = regexp.MustCompile(`^echo\s+['"]?([A-Za-z0-9+/=]*)['"]?\s*\|\s*base64\s+(?:-d|--decode)\s*>\s*(\S+)\s*$`)
)

// run runs one command line; it returns the output and exit status.
func (s *shell) run(w []string, raw string) (string, int) {
	line := strings.TrimSpace(raw)
	if len(w) == 0 || strings.HasPrefix(w[0], "#") {
		return "", s.status
	}
	if m := heredocRe.FindStringSubmatch(line); m != nil {
		if m[1] != "" {
			s.doc = &heredoc{file: m[1], end: m[2]}
		} else {
			s.doc = &heredoc{file: m[4], end: m[3]}
		}
		return "", 0
	}
	if m := catPipeRe.FindStringSubmatch(line); m != nil && !base64Re.MatchString(line) {
		return s.piped(m[1])
	}
	if m := base64Re.FindStringSubmatch(line); m != nil {
		b, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			return "base64: invalid input", 1
		}
		s.d.files[m[2]] = string(b)
		return "", 0
	}
	switch w[0] {
	case "exit", "logout":
		if s.root {
			s.root = false
			return "", 0
		}
		return "", exitSession
	case "sudo":
		return s.sudoCmd(w[1:])
	case "set":
		s.noclobber = cli.SetOption(w[1:], s.noclobber)
		return "", 0
	case "true", "cd":
		return "", 0
	case "false":
		return "", 1
	case "echo":
		args, op, file := cli.Redirection(w[1:])
		text := strings.ReplaceAll(strings.Join(args, " "), "$?", strconv.Itoa(s.status))
		if op != "" {
			return cli.Redirect(s.d.files, op, file, text+"\n", s.noclobber, "-bash")
		}
		return text, 0
	case "hostname":
		return fmt.Sprint(s.d.operational()["system"].(tree)["hostname"]), 0
	case "cat":
		return s.cat(w[1:])
	case "rm":
		for _, f := range w[1:] {
			if !strings.HasPrefix(f, "-") {
				delete(s.d.files, f)
			}
		}
		return "", 0
	case "nv":
		if s.nvPiped {
			out, _ := nvStatus(s.nv(w[1:]))
			return out, 0 // the function's status is cat's
		}
		out, st := nvStatus(s.nv(w[1:]))
		// Decided here, under the device lock Exec holds, after the
		// command: an apply that turns paging on pages its own output.
		pager, _ := lookup(s.d.applied, []string{"system", "cli", "pagination", "state"})
		s.nvToTerm = pager == "enabled"
		return out, st
	}
	return "-bash: " + w[0] + ": command not found", 127
}

// piped runs `CMD | cat`: CMD's output goes to the pipe, not the
// terminal, so NVUE's pager does not page it.
func (s *shell) piped(cmd string) (string, int) {
	words, err := cli.ShellWords(cmd)
	if err != nil {
		return "-bash: " + err.Error(), 2
	}
	out, _ := s.run(words, cmd)
	s.nvToTerm = false
	return out, 0 // a pipeline's status is its last command's, cat's
}

// sudoCmd runs `sudo CMD...`: as root at once when the session is root
// or sudo has the password already, else after asking for it.
func (s *shell) sudoCmd(cmd []string) (string, int) {
	if len(cmd) == 0 {
		return "usage: sudo -h | -K | -k | -V\nusage: sudo [-AbEHknPS] [-u user] command", 1
	}
	if s.root || s.authed {
		return s.asRoot(cmd)
	}
	s.sudo = cmd
	return "", 0
}

// asRoot runs cmd as root: `su`, `-i` and `-s` open a root shell.
func (s *shell) asRoot(cmd []string) (string, int) {
	switch cmd[0] {
	case "su", "-i", "-s":
		s.root = true
		return "", 0
	}
	// sudo runs the nv program, not the session's nv function.
	root, piped := s.root, s.nvPiped
	s.root, s.nvPiped = true, false
	out, status := s.run(cmd, strings.Join(cmd, " "))
	s.root, s.nvPiped = root, piped
	return out, status
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

func (s *shell) cat(files []string) (string, int) {
	var b strings.Builder
	status := 0
	for _, f := range files {
		data, ok := s.d.files[f]
		if !ok {
			fmt.Fprintf(&b, "cat: %s: No such file or directory\n", f)
			status = 1
			continue
		}
		b.WriteString(data)
	}
	return b.String(), status
}
