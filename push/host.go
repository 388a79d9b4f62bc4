package push

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/fabricc/fabricc/inventory"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/transport"
	"github.com/fabricc/fabricc/push/verify"
)

// verify also checks the hosts of the inventory: it runs each host's own
// script, as rendered for it, in its read-only check mode (--check: one
// "DIFF <interface> <what>: intended <x>; actual <y>" line per difference,
// exit status diffStatus when there is any). Nothing here changes a host; push and
// diff never connect to one.

// HostTarget is one host for verify to check: its model, how to reach it,
// and its rendered script, read only when the host's turn comes.
type HostTarget struct {
	Host   *model.Host
	Device *inventory.Device
	Script func() ([]byte, error)
}

// ScriptRunner runs cmd on the host dev with script as its standard
// input, and returns what it printed and its exit status. An error means
// it could not run cmd or did not see it end: connecting, logging in, a
// lost connection, a timeout, ctx ending.
type ScriptRunner func(ctx context.Context, dev *inventory.Device, cmd string, script []byte) (transport.Output, error)

// SSHScriptRunner runs the command over SSH (push/transport: the same
// login, known_hosts check and timeouts as a switch's session, without a
// terminal), checking host keys with hostKey. connect_timeout bounds the
// connection and login, command_timeout the script's run.
func SSHScriptRunner(hostKey ssh.HostKeyCallback) ScriptRunner {
	return func(ctx context.Context, dev *inventory.Device, cmd string, script []byte) (transport.Output, error) {
		// A host has no `enable`: a defaults block's enable password
		// source is not read for it.
		login := *dev
		login.Auth.EnableEnv, login.Auth.EnableFile = "", ""
		creds, err := login.Credentials()
		if err != nil {
			return transport.Output{}, err
		}
		tr := &transport.SSH{Creds: creds, HostKey: hostKey}
		addr := net.JoinHostPort(dev.Address, strconv.Itoa(dev.Port))
		return tr.Run(ctx, addr, dev.ConnectTimeout, dev.CommandTimeout, cmd, script)
	}
}

// HostCommand is the command line verify runs on a host of operating
// system os, its script arriving on standard input: `bash -s -- --check`
// (Linux) or `sh -s -- --check` (FreeBSD, whose base system has no bash).
// "-s: commands are read from the standard input", and the arguments
// after it are the positional parameters (GNU Bash Reference Manual,
// 6.1 Invoking Bash; POSIX.1-2017, sh, OPTIONS). With sudo it is run by `sudo -n`,
// which fails rather than asks for a password (sudo(8), -n).
func HostCommand(os model.OS, sudo bool) string {
	cmd := "bash -s -- --check"
	if os == model.OSFreeBSD {
		cmd = "sh -s -- --check"
	}
	if sudo {
		cmd = "sudo -n " + cmd
	}
	return cmd
}

// What a script's --check prints last: its summary line, when it ran to
// its end (finish() in every Linux and FreeBSD script).
var (
	checkMatches = "fabricc: host matches the model"
	checkDiffers = regexp.MustCompile(`^fabricc: ([0-9]+) difference\(s\) from the model$`)
)

// diffStatus is the exit status of a host's --check that found
// differences and no error: 3 for the Linux and FreeBSD scripts, whose
// 1 is an error (a step that stopped, a missing tool).
const diffStatus = 3

// runHost checks one host: it runs the host's script with --check and
// reads its output into the host's result. A panic (a fabricc bug) fails
// this host alone.
func runHost(ctx context.Context, o Options, t HostTarget) (res *DeviceResult) {
	start := time.Now()
	res = &DeviceResult{Device: t.Host.Name, Platform: string(t.Host.OS), Address: t.Device.Addr(), Host: true, Commands: []string{}}
	defer func() {
		if p := recover(); p != nil {
			res.Status, res.Error = StatusFailed, fmt.Sprintf("internal error, a fabricc bug (please report it with this text): %v", p)
		}
		stamp(res, start)
	}()
	if err := checkHost(ctx, o, t, res); err != nil {
		res.Status, res.Error = StatusFailed, err.Error()
	}
	return res
}

// checkHost runs the check and judges its output.
func checkHost(ctx context.Context, o Options, t HostTarget, res *DeviceResult) error {
	step := func(s string) {
		if o.Progress != nil {
			o.Progress.Step(t.Host.Name, s)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, t.Device.DeviceTimeout)
	defer cancel()
	script, err := t.Script()
	if err != nil {
		return err
	}
	cmd := HostCommand(t.Host.OS, t.Device.Sudo)
	step(stepConnect)
	res.Commands = append(res.Commands, cmd)
	out, err := o.RunScript(ctx, t.Device, cmd, script)
	if err != nil {
		// Worded as a switch's connection error is (dialSSH).
		return fmt.Errorf("check %s (%s): %w", t.Host.Name, t.Device.Addr(), err)
	}
	step(stepVerify)
	return judgeCheck(res, out)
}

// judgeCheck reads a --check run into res: each DIFF line a difference
// (port: the interface, field: what), each "skipped:", "manual:" and
// "note:" line a note. Exit status 0 after the script's summary line
// "fabricc: host matches the model" is verified; diffStatus with DIFF
// lines and the summary line that counts them is a mismatch. Anything else failed:
// the error is the script's last error line (its standard error's last
// line, else its output's), and DIFF lines printed before a script
// stopped short are kept, but they need not be all.
func judgeCheck(res *DeviceResult, out transport.Output) error {
	var last string
	for _, l := range strings.Split(string(out.Stdout), "\n") {
		switch {
		case strings.HasPrefix(l, "DIFF "):
			res.Differences = append(res.Differences, parseDiff(res.Device, l))
		case strings.HasPrefix(l, "skipped: "), strings.HasPrefix(l, "manual: "), strings.HasPrefix(l, "note: "):
			res.Notes = append(res.Notes, l)
		}
		if strings.TrimSpace(l) != "" {
			last = l
		}
	}
	n := len(res.Differences)
	switch {
	case out.Status == 0 && n == 0 && last == checkMatches:
		res.Status, res.Verified = StatusVerified, true
		return nil
	case out.Status == diffStatus && n > 0 && checkDiffers.MatchString(last):
		// The summary counts the DIFF lines it printed: a count that
		// differs means lines were lost on the way.
		if counted := checkDiffers.FindStringSubmatch(last)[1]; counted != strconv.Itoa(n) {
			return fmt.Errorf("the check counted %s differences but %s arrived, so they need not be all", counted, plural(n, "DIFF line"))
		}
		res.Status = StatusMismatch
		return nil
	}
	why := lastLine(string(out.Stderr))
	if why == "" {
		why = last
	}
	if why == "" {
		why = "no output"
	}
	if out.Status == 0 && n > 0 && last == checkMatches {
		return fmt.Errorf("the check printed %s and then that the host matches the model; its output is inconsistent", plural(n, "difference"))
	}
	if out.Status != 0 && n > 0 && checkDiffers.MatchString(last) {
		// The Linux script's error after its differences: a NIC whose
		// check stopped, so they need not be all.
		return fmt.Errorf("the check printed %s and its summary but exited with status %d, an error, so they need not be all: %s", plural(n, "difference"), out.Status, why)
	}
	if out.Status == 0 || n > 0 {
		return fmt.Errorf("the check stopped before its summary line (exit status %d), so its %s need not be all: %s", out.Status, plural(n, "difference"), why)
	}
	return fmt.Errorf("the check exited with status %d: %s", out.Status, why)
}

// parseDiff reads "DIFF <interface> <what>: intended <x>; actual <y>". A
// DIFF line in another shape is still a difference, its text the actual.
func parseDiff(host, line string) verify.Difference {
	ifc, rest, ok1 := strings.Cut(strings.TrimPrefix(line, "DIFF "), " ")
	what, rest, ok2 := strings.Cut(rest, ": intended ")
	intended, actual, ok3 := strings.Cut(rest, "; actual ")
	if !ok1 || !ok2 || !ok3 {
		return verify.Difference{Device: host, Field: "check output", Intended: "DIFF <interface> <what>: intended <x>; actual <y>", Actual: line}
	}
	return verify.Difference{Device: host, Port: ifc, Field: what, Intended: intended, Actual: actual}
}

// lastLine is the last line of s that is not blank.
func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			return lines[i]
		}
	}
	return ""
}
