package push

import (
	"strings"

	"github.com/fabricc/fabricc/internal/redact"
	"github.com/fabricc/fabricc/model"
)

// eosTxn is an EOS configure session (napalm's EOS driver,
// napalm/eos/eos.py): the rendered lines are entered into `configure session NAME`,
// `show session-config diffs` gives the diff, `commit timer` makes it
// effective with an automatic rollback, `configure session NAME commit`
// confirms, `write memory` saves (EOS does not save on commit:
// "Autosave to startup-config on commit is disabled" by default) and
// `configure session NAME abort` rolls back.
//
// The session merges the rendered lines into the running configuration.
// fabricc does not start it with `rollback clean-config`: that gives
// replace semantics, which would delete everything the fabric does not
// render (management, routing, AAA) from the switch.
type eosTxn struct {
	name string
	// window is the commit timer, hh:mm:ss.
	window    string
	inSession bool
	// opened: Stage sent `configure session NAME` (answered or not), so
	// the session may exist and hold lines.
	opened bool
}

func (t *eosTxn) Stage(c Conn, config []byte) (string, error) {
	if err := refuseSessionLines(model.PlatformEOS, config); err != nil {
		return "", err
	}
	run, err := c.Send("show running-config")
	if err != nil {
		return "", err
	}
	if err := eosLAGMembers(eosPortsOf(string(config)), run); err != nil {
		return "", err
	}
	t.opened = true
	if _, err := c.Send("configure session " + t.name); err != nil {
		return "", err
	}
	t.inSession = true
	for _, cmd := range blockCommands(string(config)) {
		if _, err := c.Send(cmd); err != nil {
			return "", err
		}
	}
	out, err := c.Send("show session-config diffs")
	if err != nil {
		return "", err
	}
	return eosDiff(out), nil
}

func (t *eosTxn) Discard(c Conn) error {
	if t.inSession {
		t.inSession = false
		_, err := c.Send("abort")
		return err
	}
	_, err := c.Send("configure session " + t.name + " abort")
	return err
}

// Sent is true once Stage has opened the session.
func (t *eosTxn) Sent() bool { return t.opened }

func (t *eosTxn) Apply(c Conn) error {
	_, err := c.Send("commit timer " + t.window)
	if err == nil || !refused(err) {
		t.inSession = false // refused: still in the session, which Rollback aborts
	}
	return err
}

func (t *eosTxn) Confirm(c Conn) error {
	_, err := c.Send("configure session " + t.name + " commit")
	return err
}

// Confirmed reads whether the session is committed with no timer left
// on it, in the form of EOS up to 4.31 or from 4.32 (eosSessions).
func (t *eosTxn) Confirmed(c Conn) (bool, error) {
	sessions, err := eosSessions(c)
	return sessions.committed(t.name), err
}

func (t *eosTxn) Save(c Conn) error {
	_, err := c.Send("write memory")
	return err
}

func (t *eosTxn) Rollback(c Conn) error {
	if t.inSession {
		t.inSession = false
		if _, err := c.Send("abort"); err == nil {
			return nil
		}
	}
	_, err := c.Send("configure session " + t.name + " abort")
	if err != nil && strings.Contains(err.Error(), "does not exist") {
		return nil // never created: nothing to undo
	}
	return err
}

// eosDiff keeps the changed lines of `show session-config diffs`
// (unified diff; the ---/+++ header is dropped as napalm does) and returns
// "" when no line changes.
func eosDiff(out string) string {
	var keep []string
	changed := false
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") {
			continue
		}
		if strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") {
			changed = true
		}
		keep = append(keep, redactSecret(l))
	}
	if !changed {
		return ""
	}
	return strings.TrimSpace(strings.Join(keep, "\n")) + "\n"
}

// redactSecret cuts a diff line after its first credential word
// (redact.Keyword: "username admin secret sha512 ...", "snmp-server
// community NAME", "tacacs-server key 7 ..."): the diff's context lines
// come from the running-config, and the diff goes to the terminal and the
// report.
func redactSecret(l string) string {
	body := strings.TrimLeft(l, " +-")
	words := strings.Fields(body)
	for i, w := range words {
		if redact.Keyword(w) && i+1 < len(words) {
			return l[:len(l)-len(body)] + strings.Join(words[:i+1], " ") + " <redacted>"
		}
	}
	return l
}

// blockCommands turns an EOS block-form file into the command sequence
// that enters it: comments and blank lines dropped, and an `exit` sent for
// every level the indentation closes, so each line lands in the mode its
// indentation means rather than relying on the CLI's parent-mode
// fallback.
func blockCommands(text string) []string {
	var out, open []string // open holds the indent of each open block
	lines := strings.Split(text, "\n")
	type ln struct {
		indent string
		text   string
	}
	var ls []ln
	for _, raw := range lines {
		raw = strings.TrimRight(raw, " \r")
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "!") || t == "end" {
			continue
		}
		ls = append(ls, ln{raw[:len(raw)-len(strings.TrimLeft(raw, " "))], t})
	}
	for i, l := range ls {
		for len(open) > 0 && len(open[len(open)-1]) >= len(l.indent) {
			open = open[:len(open)-1]
			out = append(out, "exit")
		}
		out = append(out, l.text)
		if i+1 < len(ls) && len(ls[i+1].indent) > len(l.indent) {
			open = append(open, l.indent)
		}
	}
	for range open {
		out = append(out, "exit")
	}
	return out
}
