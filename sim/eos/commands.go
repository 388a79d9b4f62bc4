package eos

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/sim/cli"
)

// cmdEnv is what an exec, enable or mode command works on: the session
// and the output of a show command (json: `| json` was asked for).
type cmdEnv struct {
	sh   *shell
	json bool
	out  strings.Builder
}

// errExit ends the session.
var errExit = errors.New("exit")

// filters reads the `| ...` pipeline and returns what to do with the
// output; a non-empty string is the error for a bad filter.
func (e *cmdEnv) filters(fs []string) (func(string) string, string) {
	post := func(s string) string { return s }
	for _, f := range fs {
		r, m, serr := filterGrammar.Match(f)
		if serr != nil {
			return nil, syntaxText(serr)
		}
		prev, expr := post, ""
		if len(m) > 1 {
			expr = m[1]
		}
		switch r.Syntax {
		case "json":
			e.json = true
		case "include <rest>":
			post = func(s string) string { return cli.Include(prev(s), expr) }
		case "exclude <rest>":
			post = func(s string) string { return cli.Exclude(prev(s), expr) }
		case "begin <rest>":
			post = func(s string) string { return cli.Begin(prev(s), expr) }
		case "section <rest>":
			post = func(s string) string { return cli.Section(prev(s), expr) }
		}
	}
	return post, ""
}

func nop(*cmdEnv, []string) error { return nil }

var filterGrammar = cli.Compile([]cli.Rule[*cmdEnv]{
	{Syntax: "json", Do: nop},
	{Syntax: "no-more", Do: nop},
	{Syntax: "include <rest>", Do: nop},
	{Syntax: "exclude <rest>", Do: nop},
	{Syntax: "begin <rest>", Do: nop},
	{Syntax: "section <rest>", Do: nop},
	{Syntax: "count"},
	{Syntax: "redirect <rest>"},
	{Syntax: "tee <rest>"},
}, nil)

// sessionRules work in every mode.
var sessionRules = []cli.Rule[*cmdEnv]{
	{Syntax: "terminal length <int>", Do: func(e *cmdEnv, m []string) error { e.sh.rows = atoi(m[1]); return nil }},
	{Syntax: "terminal width <int>", Do: nop},
	{Syntax: "terminal <rest>"},
	{Syntax: "ping <rest>"},
	{Syntax: "traceroute <rest>"},
	{Syntax: "ssh <rest>"},
	{Syntax: "telnet <rest>"},
}

var execRules = []cli.Rule[*cmdEnv]{
	{Syntax: "enable", Do: func(e *cmdEnv, m []string) error {
		if e.sh.d.opts.EnablePassword != "" {
			e.sh.askSecret = true
		} else {
			e.sh.priv = privEnable
		}
		return nil
	}},
	{Syntax: "{exit|quit|logout}", Do: func(*cmdEnv, []string) error { return errExit }},
}

var enableRules = []cli.Rule[*cmdEnv]{
	{Syntax: "disable", Do: func(e *cmdEnv, m []string) error { e.sh.priv = privExec; return nil }},
	{Syntax: "{exit|quit|logout}", Do: func(*cmdEnv, []string) error { return errExit }},
	{Syntax: "configure [terminal]", Do: func(e *cmdEnv, m []string) error { e.sh.enterConfig(nil); return nil }},
	{Syntax: "configure session [<name>]", Do: func(e *cmdEnv, m []string) error { return e.sh.enterSession(m[1]) }},
	{Syntax: "configure session <name> commit [timer] [<hms>]", Do: func(e *cmdEnv, m []string) error {
		return e.sh.commitNamed(m[1], m[2] != "", m[3])
	}},
	{Syntax: "configure session <name> abort", Do: func(e *cmdEnv, m []string) error { return e.sh.abortNamed(m[1]) }},
	{Syntax: "write [memory]", Do: func(e *cmdEnv, m []string) error { return e.save() }},
	{Syntax: "copy running-config startup-config", Do: func(e *cmdEnv, m []string) error { return e.save() }},
	{Syntax: "bash timeout <int> <rest>", Do: func(e *cmdEnv, m []string) error { return e.bash(m[2]) }},
	{Syntax: "copy <word> <word>"},
	{Syntax: "clear <rest>"},
	{Syntax: "clock <rest>"},
	{Syntax: "reload [<rest>]"},
	{Syntax: "bash [<rest>]"},
}

// configRules are the mode commands of configuration mode (the
// configuration commands are the frames' grammar).
var configRules = []cli.Rule[*cmdEnv]{
	{Syntax: "end", Do: func(e *cmdEnv, m []string) error { e.sh.leaveConfig(); return nil }},
	{Syntax: "exit", Do: func(e *cmdEnv, m []string) error {
		if len(e.sh.stack) > 1 {
			e.sh.stack = e.sh.stack[:len(e.sh.stack)-1]
		} else {
			e.sh.leaveConfig()
		}
		return nil
	}},
	{Syntax: "commit", Do: func(e *cmdEnv, m []string) error {
		sess, err := e.sh.inSession()
		if err != nil {
			return err
		}
		e.sh.leaveConfig()
		return e.sh.d.commit(sess)
	}},
	{Syntax: "commit timer <hms>", Do: func(e *cmdEnv, m []string) error {
		sess, err := e.sh.inSession()
		if err != nil {
			return err
		}
		e.sh.leaveConfig()
		return e.sh.d.commitTimer(sess, m[1])
	}},
	{Syntax: "abort", Do: func(e *cmdEnv, m []string) error {
		sess, err := e.sh.inSession()
		if err != nil {
			return err
		}
		e.sh.d.abort(sess)
		e.sh.leaveConfig()
		return nil
	}},
	{Syntax: "rollback clean-config", Do: func(e *cmdEnv, m []string) error {
		sess, err := e.sh.inSession()
		if err != nil {
			return err
		}
		sess.st = sess.st.cleanConfig()
		e.sh.stack = e.sh.stack[:1]
		return nil
	}},
	{Syntax: "configure session [<name>]", Do: func(e *cmdEnv, m []string) error { return e.sh.enterSession(m[1]) }},
	{Syntax: "configure session <name> commit [timer] [<hms>]", Do: func(e *cmdEnv, m []string) error {
		return e.sh.commitNamed(m[1], m[2] != "", m[3])
	}},
	{Syntax: "configure session <name> abort", Do: func(e *cmdEnv, m []string) error { return e.sh.abortNamed(m[1]) }},
}

// save is `write memory`: running-config becomes startup-config.
func (e *cmdEnv) save() error {
	e.sh.d.startup = e.sh.d.run.clone()
	e.out.WriteString("Copy completed successfully.")
	return nil
}

// bash runs `bash timeout N COMMAND` in a fresh non-interactive bash
// over the files of /mnt/flash: command lists, echo with output
// redirection and noclobber (`set -C`), cat and rm. arista.eos's
// cliconf reads the boot image with `cat /mnt/flash/boot-config`
// ("SWI=flash:..."); fabricc keeps its device lock there.
func (e *cmdEnv) bash(cmd string) error {
	b := &bash{files: e.sh.d.flash}
	out, _ := cli.RunList(cmd, b.run)
	e.out.WriteString(out)
	return nil
}

// bash is one `bash -c` run: its noclobber option.
type bash struct {
	files     map[string]string
	noclobber bool
}

// run runs one simple command; errors are bash's own, for `bash -c`
// ("bash: line 1: ...").
func (b *bash) run(line string) (string, int) {
	w, err := cli.ShellWords(line)
	if err != nil {
		return "bash: line 1: " + err.Error(), 2
	}
	if len(w) == 0 {
		return "", 0
	}
	args, op, file := cli.Redirection(w[1:])
	switch w[0] {
	case "set":
		b.noclobber = cli.SetOption(args, b.noclobber)
		return "", 0
	case "true":
		return "", 0
	case "false":
		return "", 1
	case "echo":
		if op == "" {
			return strings.Join(args, " "), 0
		}
		return cli.Redirect(b.files, op, file, strings.Join(args, " ")+"\n", b.noclobber, "bash: line 1")
	case "cat":
		return b.cat(args)
	case "rm":
		for _, f := range args {
			if !strings.HasPrefix(f, "-") {
				delete(b.files, f)
			}
		}
		return "", 0
	}
	return "bash: line 1: " + w[0] + ": command not found", 127
}

func (b *bash) cat(files []string) (string, int) {
	var out strings.Builder
	status := 0
	for _, f := range files {
		data, ok := b.files[f]
		if !ok {
			fmt.Fprintf(&out, "cat: %s: No such file or directory\n", f)
			status = 1
			continue
		}
		out.WriteString(data)
	}
	return strings.TrimSuffix(out.String(), "\n"), status
}

var cmdKinds = map[string]string{
	"if":   kinds["if"],
	"name": `[\w.\-]{1,50}`,
	"hms":  `\d\d:\d\d:\d\d`,
}

var (
	execGrammar   = cli.Compile(join(showRules, sessionRules, execRules), cmdKinds)
	enableGrammar = cli.Compile(join(showRules, sessionRules, enableRules), cmdKinds)
	configGrammar = cli.Compile(join(showRules, sessionRules, configRules), cmdKinds)
)

// commands is the command set of the session's privilege level.
func (s *shell) commands() *cli.Grammar[*cmdEnv] {
	switch s.priv {
	case privExec:
		return execGrammar
	case privEnable:
		return enableGrammar
	}
	return configGrammar
}
