package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestTutorial runs docs/tutorial.md as a reader would and fails where
// the page and fabricc disagree. It builds the fabricc binary, starts in
// an empty temporary folder and goes through the page's fenced blocks in
// order:
//
//   - an ```hcl block is a file the reader writes: the HTML comment
//     `<!-- file: PATH -->` just above it names it (and, with ", the same
//     as REPO-PATH", a file of the repository that must hold the same
//     bytes, examples/tutorial/fabric.hcl);
//   - a ```diff block is an edit made by hand: `--- PATH` and `+++ PATH`,
//     then lines kept (" "), removed ("-") and added ("+"); the kept and
//     removed lines must occur exactly once in the file;
//   - a ```console block holds commands ("$ " lines), each followed by
//     what it prints: stdout and stderr together, as a terminal shows
//     them. Each command runs with sh in the folder, fabricc first on
//     PATH, and $? holding the exit status of the command before it, so
//     that `echo $?` shows it. `fabricc lab` without --run-push is the
//     page's second terminal: it runs in the background until the test
//     ends, and its output is compared once it says it is serving.
//
// Any other block fails the test, so nothing on the page goes unchecked.
// A line "..." in an expected output stands for one or more lines: the
// page writes it only where it leaves output out.
// What must vary between runs is normalised on both sides (tutorialNormalise):
// the lab's ports and the TIME column of the push, diff and verify
// summaries. Push's progress lines are printed output like any other:
// the page leaves them out with a "...".
func TestTutorial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fabricc and starts a simulated switch")
	}
	// The page runs the host script (bash, which reads the NIC with ip)
	// and a few shell tools.
	for _, tool := range []string{"sh", "bash", "ip", "cp", "find", "sort", "grep", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("docs/tutorial.md runs %s, which is not installed", tool)
		}
	}
	steps, err := parseTutorial(readDoc(t, filepath.Join("docs", "tutorial.md")))
	if err != nil {
		t.Fatal(err)
	}
	commands := 0
	for _, s := range steps {
		if s.kind == stepCommand {
			commands++
		}
	}
	if commands < 10 {
		t.Fatalf("docs/tutorial.md has %d commands; the parser found too few (want a console block per step)", commands)
	}
	bin := buildBinary(t)
	work, home := t.TempDir(), t.TempDir()
	env := []string{
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "TMPDIR=" + home, "TERM=dumb", "NO_COLOR=1", "LC_ALL=C",
	}
	status := 0
	for _, s := range steps {
		switch s.kind {
		case stepFile:
			if s.same != "" {
				repo, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(s.same)))
				if err != nil {
					t.Fatal(err)
				}
				if string(repo) != s.text {
					t.Errorf("docs/tutorial.md line %d: the file shown for %s is not %s:\n%s", s.line, s.path, s.same,
						cmp.Diff(strings.Split(string(repo), "\n"), strings.Split(s.text, "\n")))
				}
			}
			writeFile(t, filepath.Join(work, filepath.FromSlash(s.path)), s.text)
		case stepEdit:
			p := filepath.Join(work, filepath.FromSlash(s.path))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("docs/tutorial.md line %d: %v", s.line, err)
			}
			text := string(data)
			for _, h := range s.hunks {
				if n := strings.Count(text, h.old); n != 1 {
					t.Fatalf("docs/tutorial.md line %d: the lines the edit keeps and removes occur %d times in %s, want once:\n%s", s.line, n, s.path, h.old)
				}
				text = strings.Replace(text, h.old, h.new, 1)
			}
			writeFile(t, p, text)
		case stepCommand:
			var got string
			if labCommand.MatchString(s.command) {
				got = startTutorialLab(t, work, env, bin, s.command)
			} else {
				got, status = runTutorialCommand(t, work, env, status, s.command)
			}
			want, have := tutorialNormalise(s.output), tutorialNormalise(got)
			if !matchElided(want, have) {
				t.Errorf("docs/tutorial.md line %d: $ %s\n%s\nthe page shows:\n%s\nfabricc printed:\n%s", s.line, s.command, firstMissing(want, have), s.output, got)
			}
		}
	}
}

// labCommand is the page's second terminal: the lab, serving.
var labCommand = regexp.MustCompile(`^fabricc lab( |$)`)

// The kinds of step of the page.
const (
	stepFile = iota
	stepEdit
	stepCommand
)

// tutorialStep is one thing the reader does.
type tutorialStep struct {
	kind int
	line int // of the page, for messages
	// stepFile and stepEdit
	path       string
	text, same string // stepFile: the file; a repository file with the same bytes
	hunks      []hunk
	// stepCommand
	command, output string
}

// hunk is one part of an edit: old becomes new.
type hunk struct{ old, new string }

var (
	fenceOpen     = regexp.MustCompile("^```([a-z]*)$")
	fileDirective = regexp.MustCompile(`^<!-- file: (\S+?)(?:, the same as (\S+))? -->$`)
)

// parseTutorial turns the page into its steps.
func parseTutorial(doc string) ([]tutorialStep, error) {
	lines := strings.Split(doc, "\n")
	var steps []tutorialStep
	file, same := "", ""
	for i := 0; i < len(lines); i++ {
		if m := fileDirective.FindStringSubmatch(lines[i]); m != nil {
			file, same = m[1], m[2]
			continue
		}
		if strings.HasPrefix(lines[i], "```") && fenceOpen.FindStringSubmatch(lines[i]) == nil {
			return nil, fmt.Errorf("docs/tutorial.md line %d: a fence the test does not read: %q", i+1, lines[i])
		}
		m := fenceOpen.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		start := i + 2 // the first line inside the block
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("docs/tutorial.md line %d: the block is not closed", start-1)
		}
		switch m[1] {
		case "hcl":
			if file == "" {
				return nil, fmt.Errorf("docs/tutorial.md line %d: an hcl block needs <!-- file: PATH --> above it", start)
			}
			steps = append(steps, tutorialStep{kind: stepFile, line: start, path: file, same: same, text: strings.Join(body, "\n") + "\n"})
			file, same = "", ""
		case "diff":
			s, err := parseEdit(body, start)
			if err != nil {
				return nil, err
			}
			steps = append(steps, s)
		case "console":
			s, err := parseConsole(body, start)
			if err != nil {
				return nil, err
			}
			steps = append(steps, s...)
		default:
			return nil, fmt.Errorf("docs/tutorial.md line %d: a %q block, which the test does not check; use console, hcl or diff", start, m[1])
		}
	}
	return steps, nil
}

// parseEdit reads a diff block: a header naming the file, then hunks
// separated by "@@" lines.
func parseEdit(body []string, line int) (tutorialStep, error) {
	if len(body) < 3 || !strings.HasPrefix(body[0], "--- ") || body[1] != "+++ "+strings.TrimPrefix(body[0], "--- ") {
		return tutorialStep{}, fmt.Errorf("docs/tutorial.md line %d: a diff block starts with --- PATH and +++ PATH", line)
	}
	s := tutorialStep{kind: stepEdit, line: line, path: strings.TrimPrefix(body[0], "--- ")}
	var old, new strings.Builder
	flush := func() {
		if old.Len() > 0 || new.Len() > 0 {
			s.hunks = append(s.hunks, hunk{old.String(), new.String()})
		}
		old.Reset()
		new.Reset()
	}
	for _, l := range body[2:] {
		switch {
		case strings.HasPrefix(l, "@@"):
			flush()
		case l == "" || l[0] == ' ':
			// A kept line (an empty one may have lost its space).
			old.WriteString(strings.TrimPrefix(l, " ") + "\n")
			new.WriteString(strings.TrimPrefix(l, " ") + "\n")
		case l[0] == '-':
			old.WriteString(l[1:] + "\n")
		case l[0] == '+':
			new.WriteString(l[1:] + "\n")
		default:
			return tutorialStep{}, fmt.Errorf("docs/tutorial.md line %d: %q is not a diff line", line, l)
		}
	}
	flush()
	return s, nil
}

// parseConsole reads a console block: "$ COMMAND" lines, each followed by
// its output.
func parseConsole(body []string, line int) ([]tutorialStep, error) {
	var steps []tutorialStep
	for j, l := range body {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			steps = append(steps, tutorialStep{kind: stepCommand, line: line + j, command: cmd})
			continue
		}
		if len(steps) == 0 {
			return nil, fmt.Errorf("docs/tutorial.md line %d: a console block starts with a $ line", line)
		}
		steps[len(steps)-1].output += l + "\n"
	}
	return steps, nil
}

// runTutorialCommand runs one command of the page with sh in dir, $?
// set to the previous command's exit status, and returns what it
// printed (stdout and stderr through one pipe, in the order written) and
// its exit status.
func runTutorialCommand(t *testing.T, dir string, env []string, previous int, command string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", fmt.Sprintf("(exit %d); %s", previous, command))
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &exit) && ctx.Err() == nil:
		return out.String(), exit.ExitCode()
	}
	t.Fatalf("$ %s: %v\n%s", command, err, out.String())
	return "", 0
}

// startTutorialLab starts `fabricc lab ...` (the page's second terminal)
// and returns what it printed up to "serving; ...". It is stopped as a
// reader stops it, with Ctrl-C (SIGINT), when the test ends.
func startTutorialLab(t *testing.T, dir string, env []string, bin, command string) string {
	t.Helper()
	args := strings.Fields(command)[1:]
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("$ %s did not stop on SIGINT:\n%s", command, out.String())
		}
	})
	const serving = "serving; press Ctrl-C to stop\n"
	deadline := time.After(30 * time.Second)
	for !strings.Contains(out.String(), serving) {
		select {
		case err := <-done:
			t.Fatalf("$ %s ended (%v) before serving:\n%s", command, err, out.String())
		case <-deadline:
			t.Fatalf("$ %s is not serving after 30 s:\n%s", command, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return out.String()
}

var (
	// labAddress and inventoryPort are the lab's ports, new every run.
	labAddress    = regexp.MustCompile(`127\.0\.0\.1:[0-9]+`)
	inventoryPort = regexp.MustCompile(`^(\s*port\s+= )[0-9]+$`)
	// summaryHeader and summaryTotal start and end the summary table
	// of push, diff and verify; the TIME column of push and verify
	// varies (diff has none).
	summaryHeader = regexp.MustCompile(`^DEVICE\s+PLATFORM\s+STATUS\s+VERIFIED\s+(TIME\s+)?DETAIL$`)
	summaryTotal  = regexp.MustCompile(`^(diff|push|verify): [0-9]+ devices?: `)
	columnGap     = regexp.MustCompile(`\s{2,}`)
)

// hostNameActual is the reader's host name where a host script names it
// (its host_guard): the page says "workstation".
var hostNameActual = regexp.MustCompile(`^(DIFF system host name: intended [^;]*; actual |note: this host's name \(uname -n\) is )\S+?(,|$)`)

// tutorialNormalise splits output into lines and evens out what differs
// from run to run: the lab's ports become
// PORT, and in a summary table the TIME column becomes TIME and the
// columns are joined by two spaces (their widths follow the times).
// Trailing spaces are dropped.
func tutorialNormalise(s string) []string {
	var out []string
	table, timed := false, false
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		l = strings.TrimRight(l, " \t")
		l = labAddress.ReplaceAllString(l, "127.0.0.1:PORT")
		l = inventoryPort.ReplaceAllString(l, "${1}PORT")
		l = hostNameActual.ReplaceAllString(l, "${1}workstation${2}")
		switch {
		case summaryHeader.MatchString(l):
			table, timed = true, strings.Contains(l, " TIME ")
		case summaryTotal.MatchString(l):
			table = false
		case table && timed && l != "...":
			cols := columnGap.Split(l, 6)
			if len(cols) >= 5 {
				cols[4] = "TIME"
			}
			l = strings.Join(cols, "  ")
		}
		if table {
			l = columnGap.ReplaceAllString(l, "  ")
		}
		out = append(out, l)
	}
	if len(out) == 1 && out[0] == "" {
		return nil
	}
	return out
}

// matchElided reports whether got equals want, where a line "..." of
// want stands for one or more lines of got (the page says "..." only
// where output was left out, so a "..." that stands for nothing is a
// mistake of the page).
func matchElided(want, got []string) bool {
	// ok[i][j]: want[i:] matches got[j:].
	ok := make([][]bool, len(want)+1)
	for i := range ok {
		ok[i] = make([]bool, len(got)+1)
	}
	ok[len(want)][len(got)] = true
	for i := len(want) - 1; i >= 0; i-- {
		for j := len(got); j >= 0; j-- {
			if want[i] == "..." {
				ok[i][j] = j < len(got) && (ok[i+1][j+1] || ok[i][j+1])
			} else {
				ok[i][j] = j < len(got) && want[i] == got[j] && ok[i+1][j+1]
			}
		}
	}
	return ok[0][0]
}

// firstMissing names the first line the page shows that the command
// did not print, the likeliest place of a disagreement.
func firstMissing(want, got []string) string {
	printed := map[string]bool{}
	for _, l := range got {
		printed[l] = true
	}
	for _, l := range want {
		if l != "..." && !printed[l] {
			return fmt.Sprintf("not printed: %q", l)
		}
	}
	return "every line shown was printed, but not in this order or not alone (elide the rest with a line \"...\")"
}

// TestTutorialHarness checks the parts of TestTutorial that decide
// whether the page and fabricc agree: the elision, the normalisation and
// the parsing of the blocks.
func TestTutorialHarness(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		match     bool
	}{
		{"a\nb\n", "a\nb\n", true},
		{"a\nb\n", "a\nc\n", false},
		{"a\n...\nd\n", "a\nb\nc\nd\n", true},
		{"a\n...\nd\n", "a\nd\n", false}, // "..." leaves out at least one line
		{"...\nwrote 14 files\n", "wrote 14 files\n", false},
		{"a\n...\n", "a\n", false},
		{"a\n...\n", "a\nb\n", true},
		{"a\n...\n", "b\na\n", false},
		{"...\nc\n", "a\nb\nc\n", true},
		{"...\nc\n", "a\nc\nb\n", false},
		{"", "", true},
		{"", "x\n", false},
		// The lab's port and the summary's times vary; progress lines are
		// output the page leaves out with "...".
		{"leaf1  cumulus  ssh admin@127.0.0.1:33723\n", "leaf1  cumulus  ssh admin@127.0.0.1:41002\n", true},
		{"DEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\nleaf1   cumulus   changed  yes       47ms\npush: 1 device: 1 changed\n",
			"[leaf1] connect\nDEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\nleaf1   cumulus   changed  yes       47ms\npush: 1 device: 1 changed\n", false},
		{"...\nDEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\nleaf1   cumulus   changed  yes       47ms\npush: 1 device: 1 changed\n",
			"[leaf1] connect\n" +
				"DEVICE  PLATFORM  STATUS   VERIFIED  TIME    DETAIL\nleaf1   cumulus   changed  yes       1.203s  \npush: 1 device: 1 changed\n", true},
		// But not the status.
		{"DEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\nleaf1   cumulus   changed  yes       47ms\npush: 1 device: 1 changed\n",
			"DEVICE  PLATFORM  STATUS   VERIFIED  TIME  DETAIL\nleaf1   cumulus   failed   no        47ms\npush: 1 device: 1 changed\n", false},
	} {
		if got := matchElided(tutorialNormalise(tc.want), tutorialNormalise(tc.got)); got != tc.match {
			t.Errorf("want %q, got %q: match %v, want %v", tc.want, tc.got, got, tc.match)
		}
	}
	doc := "<!-- file: f/a.hcl, the same as examples/x/a.hcl -->\n```hcl\nfabric \"x\" {}\n```\n\n" +
		"```diff\n--- f/a.hcl\n+++ f/a.hcl\n fabric \"x\" {\n-}\n+  description = \"y\"\n+}\n```\n\n" +
		"```console\n$ fabricc validate f\nok\n$ echo $?\n0\n```\n"
	steps, err := parseTutorial(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []tutorialStep{
		{kind: stepFile, line: 3, path: "f/a.hcl", same: "examples/x/a.hcl", text: "fabric \"x\" {}\n"},
		{kind: stepEdit, line: 7, path: "f/a.hcl", hunks: []hunk{{"fabric \"x\" {\n}\n", "fabric \"x\" {\n  description = \"y\"\n}\n"}}},
		{kind: stepCommand, line: 16, command: "fabricc validate f", output: "ok\n"},
		{kind: stepCommand, line: 18, command: "echo $?", output: "0\n"},
	}
	if d := cmp.Diff(want, steps, cmp.AllowUnexported(tutorialStep{}, hunk{})); d != "" {
		t.Errorf("parseTutorial (-want +got):\n%s", d)
	}
	for _, bad := range []string{"```sh\nls\n```\n", "```hcl\nfabric \"x\" {}\n```\n", "```console\nok\n```\n", "```diff\n-a\n```\n", "```console\n$ ls\n"} {
		if _, err := parseTutorial(bad); err == nil {
			t.Errorf("parseTutorial(%q) accepted it", bad)
		}
	}
}
