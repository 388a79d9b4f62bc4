package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fabricc/fabricc/artifacts"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push"
	"github.com/fabricc/fabricc/sim"
)

// TestFaultMatrix pushes one switch of each platform of
// examples/multivendor-clos (leaf3 Onyx, spine1 EOS, leaf1 Cumulus)
// with one failure at one point of the push, for every failure the
// simulators inject (drop, reject, slow, hang) at every stage (connect,
// lock, read, first, middle and last command of the apply, verify,
// confirm, save, unlock), and kills the fabricc binary (kill -9 and
// SIGTERM) at every stage, then pushes again. Every switch must end in
// its state before the push or fully in the new one, saved and
// verified, with no lock, timer or unsaved change left, and the report
// must say what happened. It prints its counts; `make test` runs it
// (FABRICC_FAULT_MATRIX=1).
func TestFaultMatrix(t *testing.T) {
	if os.Getenv("FABRICC_FAULT_MATRIX") == "" {
		t.Skip("set FABRICC_FAULT_MATRIX=1 to run the fault matrix (make test does)")
	}
	began := time.Now()
	m := &matrix{bin: buildBinary(t)}
	m.f, m.set, m.out = closBuild(t)
	var cases []matrixCase
	for _, name := range []string{"leaf3", "spine1", "leaf1"} {
		sw := m.f.Switch(name)
		ref, err := m.reference(t, sw)
		if err != nil {
			t.Fatalf("%s: reference push: %v", name, err)
		}
		for _, st := range ref.stages {
			for _, k := range []sim.FaultKind{sim.FaultDrop, sim.FaultReject, sim.FaultSlow, sim.FaultHang} {
				cases = append(cases, matrixCase{ref: ref, stage: st, fault: k.String(), kind: k})
			}
			cases = append(cases, matrixCase{ref: ref, stage: st, fault: "kill -9", signal: syscall.SIGKILL},
				matrixCase{ref: ref, stage: st, fault: "SIGTERM", signal: syscall.SIGTERM})
		}
	}
	results := m.runAll(t, cases, 10)
	counts := map[string]int{}
	for i, r := range results {
		counts[r.outcome]++
		if r.problem != "" {
			c := cases[i]
			t.Errorf("%s %s at %s: %s", c.ref.sw.Platform, c.fault, c.stage.name, r.problem)
		}
	}
	t.Logf("fault matrix: %d cases (3 platforms; drop, reject, slow, hang, kill -9, SIGTERM at %d stage points), "+
		"%d restored, %d completed, %d left changed; %d kill -9 re-runs recovered work left on the switch; %s",
		len(cases), len(cases)/6, counts[outRestored], counts[outCompleted], counts[outChanged], m.recovered.Load(),
		time.Since(began).Round(time.Second))
	if counts[outChanged] != 0 {
		t.Errorf("%d cases left a switch changed", counts[outChanged])
	}
}

// Outcomes of a case.
const (
	outRestored  = "restored"     // in its state before the push
	outCompleted = "completed"    // fully in the new state, saved and verified
	outChanged   = "left changed" // anything else
)

type matrix struct {
	bin       string
	f         *model.Fabric
	set       *artifacts.Set
	out       string
	ids       atomicCounter
	recovered atomicCounter
}

type atomicCounter struct {
	mu sync.Mutex
	n  int
}

func (c *atomicCounter) Add() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n
}

func (c *atomicCounter) Load() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// reference is a clean push of one switch: its states and where each
// stage's fault goes.
type reference struct {
	sw       *model.Switch
	cfg      []byte
	pre, new string
	stages   []stagePoint
}

// stagePoint is where a stage's fault fires: at login, or at the nth
// command line matching at.
type stagePoint struct {
	name  string
	login bool
	at    *regexp.Regexp
	nth   int
}

type matrixCase struct {
	ref    *reference
	stage  stagePoint
	fault  string
	kind   sim.FaultKind
	signal syscall.Signal // 0: an injected fault, no process
}

type caseResult struct {
	outcome string
	problem string
}

// refID is the transaction of the reference push, in fabricc's ID form.
const refID = "20990101-000000-aaaaaa"

// idRe matches any transaction ID in that form.
const idRe = `\d{8}-\d{6}-[0-9a-f]{6}`

// stageRegexps are, per platform, the commands that start each stage
// (the first match after the previous stage).
var stageRegexps = map[model.Platform]map[string]string{
	model.PlatformEOS: {
		"lock": `^bash timeout 10 set -C; echo fabricc-lock `, "read": `^show configuration sessions detail \| json$`,
		"apply first": `^configure session fabricc-\S+$`, "apply last": `^commit timer `, "verify": `^show running-config \| json$`,
		"confirm": `^configure session fabricc-\S+ commit$`, "save": `^write memory$`, "unlock": `^bash timeout 10 rm -f /mnt/flash/fabricc.lock$`,
	},
	model.PlatformOnyx: {
		"lock": `^configuration write to fabricc-lock\.`, "read": `^show running-config$`,
		"apply first": `^configuration write to fabricc-pre-`, "verify": `^show running-config$`,
		"save": `^configuration write$`, "unlock": `^configuration delete fabricc-lock\.`,
	},
	model.PlatformCumulus: {
		"lock": `^set -C; echo fabricc-lock `, "read": `^nv config revision -o json$`,
		"apply first": `^echo \S+`, "apply last": `^nv config apply --confirm `,
		"verify": `^nv config show -o json$`, "confirm": `^nv config apply --confirm-yes`, "save": `^nv config save$`, "unlock": `^rm -f /var/tmp/fabricc.lock$`,
	},
}

// stageOrder is the order of the stages of a push.
var stageOrder = []string{"connect", "lock", "read", "apply first", "apply middle", "apply last", "verify", "confirm", "save", "unlock"}

// reference pushes sw once, cleanly, and finds each stage's command.
func (m *matrix) reference(t *testing.T, sw *model.Switch) (*reference, error) {
	cfg := configOf(t, m.set, sw)
	one, err := startOneErr(t, sw, sim.Faults{})
	if err != nil {
		return nil, err
	}
	ref := &reference{sw: sw, cfg: cfg, pre: one.state()}
	rep := push.Run(context.Background(), push.Options{Action: push.ActionPush, Fabric: m.f, ID: refID,
		Targets: []push.Target{{Switch: sw, Config: cfg, Device: one.dev}}, Dial: dialer(t, one)})
	r := rep.Devices[0]
	if r.Status != push.StatusChanged || !r.Verified {
		return nil, fmt.Errorf("%s %q", r.Status, r.Error)
	}
	ref.new = one.state()
	ref.stages, err = stagePoints(sw.Platform, r.Commands)
	return ref, err
}

// stagePoints locates every stage in the commands of a clean push.
func stagePoints(p model.Platform, cmds []string) ([]stagePoint, error) {
	res := stageRegexps[p]
	at := map[string]int{}
	from := 0
	for _, name := range stageOrder {
		switch {
		case name == "connect" || name == "apply middle" || res[name] == "" && name != "apply last":
			continue
		case name == "apply last" && res[name] == "":
			// Onyx: the last line before leaving configuration mode.
			i := slices.Index(cmds[from:], "(exit to the enable prompt)")
			if i <= 0 {
				return nil, fmt.Errorf("no end of the apply in %q", cmds)
			}
			at[name] = from + i - 1
		default:
			re := regexp.MustCompile(res[name])
			i := slices.IndexFunc(cmds[from:], re.MatchString)
			if i < 0 {
				return nil, fmt.Errorf("no %s command (%s) after %d in %q", name, res[name], from, cmds)
			}
			at[name] = from + i
		}
		from = at[name] + 1
	}
	// The middle of the apply: a real command, not a mode change.
	mid := (at["apply first"] + at["apply last"]) / 2
	for mid > at["apply first"] && (cmds[mid] == "exit" || strings.HasPrefix(cmds[mid], "(")) {
		mid--
	}
	at["apply middle"] = mid
	var out []stagePoint
	for _, name := range stageOrder {
		if name == "connect" {
			out = append(out, stagePoint{name: name, login: true})
			continue
		}
		i, ok := at[name]
		if !ok {
			continue
		}
		re := regexp.MustCompile(commandPattern(cmds[i]))
		if res[name] != "" && (name == "lock" || name == "unlock") {
			re = regexp.MustCompile(res[name]) // holds the pid and host
		}
		nth := 0
		for _, c := range cmds[:i+1] {
			if re.MatchString(c) {
				nth++
			}
		}
		out = append(out, stagePoint{name: name, at: re, nth: nth})
	}
	return out, nil
}

// commandPattern matches cmd with any transaction ID; a command whose
// base64 payload the report replaced (the NVUE YAML line) by its start.
func commandPattern(cmd string) string {
	if i := strings.Index(cmd, "<base64 of "); i >= 0 {
		return "^" + strings.ReplaceAll(regexp.QuoteMeta(cmd[:i]), refID, idRe)
	}
	return "^" + strings.ReplaceAll(regexp.QuoteMeta(cmd), refID, idRe) + "$"
}

// runAll runs the cases, workers at a time (they wait on the network,
// not the CPU), and returns their results in order.
func (m *matrix) runAll(t *testing.T, cases []matrixCase, workers int) []caseResult {
	results := make([]caseResult, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = m.run(t, cases[i])
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// run runs one case.
func (m *matrix) run(t *testing.T, c matrixCase) caseResult {
	if c.signal != 0 {
		return m.runKill(t, c)
	}
	fault := &sim.StageFault{Login: c.stage.login, At: c.stage.at, Nth: c.stage.nth, Kind: c.kind, Delay: time.Minute}
	one, err := startOneErr(t, c.ref.sw, sim.Faults{Stage: fault})
	if err != nil {
		return caseResult{outChanged, err.Error()}
	}
	id := fmt.Sprintf("20990101-000001-%06x", m.ids.Add())
	rep := push.Run(context.Background(), push.Options{Action: push.ActionPush, Fabric: m.f, ID: id,
		Targets: []push.Target{{Switch: c.ref.sw, Config: c.ref.cfg, Device: one.dev}}, Dial: dialer(t, one)})
	r := rep.Devices[0]
	out, problem := m.settled(t, c, one)
	if problem != "" {
		return caseResult{out, problem + "\n" + describe(r)}
	}
	switch {
	case out == outRestored && (r.Status != push.StatusFailed || r.Error == ""):
		problem = "restored, but the report does not say the push failed"
	case out == outRestored && applying(c.stage.name) && r.AppliedMs == 0 && !r.NothingSent:
		// A change staged (an EOS session, an NVUE revision) and thrown
		// away before it was applied took no effect: nothing was sent.
		problem = "restored before its change took effect, but the report does not say nothing was sent"
	case out == outRestored && applying(c.stage.name) && r.AppliedMs != 0 && !r.RolledBack:
		problem = "restored, but the report does not say it was rolled back"
	case out == outCompleted && (r.Status != push.StatusChanged || !r.Verified):
		problem = "completed, but the report does not say changed and verified"
	}
	if problem != "" {
		problem += "\n" + describe(r)
	}
	return caseResult{out, problem}
}

// applying reports whether a stage comes after the first change.
func applying(stage string) bool {
	return slices.Index(stageOrder, stage) >= slices.Index(stageOrder, "apply first") &&
		slices.Index(stageOrder, stage) <= slices.Index(stageOrder, "confirm")
}

// runKill runs the fabricc binary, signals it when the push reaches the
// stage (the stage's command has run; its answer is held back), and
// pushes again.
func (m *matrix) runKill(t *testing.T, c matrixCase) caseResult {
	reached := make(chan string, 1)
	fault := &sim.StageFault{Login: c.stage.login, At: c.stage.at, Nth: c.stage.nth, Kind: sim.FaultSlow, Delay: 2 * time.Minute,
		Reached: func(l string) { reached <- l }}
	one, err := startOneErr(t, c.ref.sw, sim.Faults{Stage: fault})
	if err != nil {
		return caseResult{outChanged, err.Error()}
	}
	p := startFabricc(t, m.bin, "push", "--yes", "--artifacts", m.out, "-i", one.inv, "--partial")
	select {
	case <-reached:
	case err := <-p.done:
		return caseResult{outChanged, fmt.Sprintf("fabricc ended (%v) before the stage:\n%s", err, p.out.String())}
	case <-time.After(60 * time.Second):
		_ = p.cmd.Process.Kill()
		return caseResult{outChanged, "the push never reached the stage:\n" + p.out.String()}
	}
	if err := p.cmd.Process.Signal(c.signal); err != nil {
		return caseResult{outChanged, err.Error()}
	}
	_ = waitErr(p)
	outcome := outCompleted
	if c.signal == syscall.SIGTERM {
		out, problem := m.settled(t, c, one)
		if problem != "" {
			return caseResult{out, "after SIGTERM: " + problem + "\n" + p.out.String()}
		}
		r, err := p.result()
		if err != nil {
			return caseResult{out, "no report after SIGTERM: " + err.Error() + "\n" + p.out.String()}
		}
		if !mentions(r, "interrupted by SIGTERM") {
			return caseResult{out, "the report does not name the SIGTERM\n" + describe(r)}
		}
		outcome = out
	}
	// The re-run finds what the killed push left and finishes the job.
	again := startFabricc(t, m.bin, "push", "--yes", "--artifacts", m.out, "-i", one.inv, "--partial")
	if code, err := again.wait(2 * time.Minute); code != 0 {
		return caseResult{outChanged, fmt.Sprintf("re-run: exit %d %v\n%s", code, err, again.out.String())}
	}
	r, err := again.result()
	if err != nil {
		return caseResult{outChanged, "re-run report: " + err.Error()}
	}
	if r.Status != push.StatusChanged && r.Status != push.StatusUnchanged || !r.Verified {
		return caseResult{outChanged, "re-run not changed or unchanged and verified\n" + describe(r)}
	}
	// The killed push held the lock from its lock command (which ran)
	// to its unlock command (which ran too).
	held := c.stage.name != "connect" && c.stage.name != "unlock"
	if c.signal == syscall.SIGKILL && held && !recovered(r, push.RecoveryLockBroken) {
		return caseResult{outChanged, "the re-run does not report the killed push's lock\n" + describe(r)}
	}
	if len(r.Recovered) > 1 {
		m.recovered.Add()
	}
	if out, problem := m.settled(t, c, one); out != outCompleted || problem != "" {
		return caseResult{outChanged, "after the re-run: " + out + " " + problem + "\n" + describe(r)}
	}
	return caseResult{outcome, ""}
}

// waitErr waits for the signalled process.
func waitErr(p *fabriccProc) error {
	select {
	case err := <-p.done:
		return err
	case <-time.After(60 * time.Second):
		_ = p.cmd.Process.Kill()
		return <-p.done
	}
}

// settled checks the switch once a push has ended: in its state before
// the push or fully in the new one (running and saved), with verify
// seeing no lock, timer or unsaved change.
func (m *matrix) settled(t *testing.T, c matrixCase, one *oneSwitch) (string, string) {
	out := outChanged
	switch one.state() {
	case c.ref.pre:
		out = outRestored
	case c.ref.new:
		out = outCompleted
	default:
		return out, "the switch is neither as before nor as intended:\n" + lineDiffs(c.ref.new, one.state())
	}
	rep := push.Run(context.Background(), push.Options{Action: push.ActionVerify, Fabric: m.f, ID: "verify",
		Targets: []push.Target{{Switch: c.ref.sw, Device: one.dev}}, Dial: dialer(t, one)})
	v := rep.Devices[0]
	want := push.StatusMismatch
	if out == outCompleted {
		want = push.StatusVerified
	}
	if v.Status != want {
		return out, fmt.Sprintf("%s, but verify says %s %q %v", out, v.Status, v.Error, v.Pending)
	}
	return out, ""
}

// mentions reports whether the error or a note of r contains s.
func mentions(r *push.DeviceResult, s string) bool {
	return strings.Contains(r.Error, s) || slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, s) })
}

func recovered(r *push.DeviceResult, action string) bool {
	return slices.ContainsFunc(r.Recovered, func(x push.Recovery) bool { return x.Action == action })
}

func describe(r *push.DeviceResult) string {
	return fmt.Sprintf("report: status %s verified %v rolled back %v nothing sent %v error %q rollback %q recovered %v notes %q\ncommands: %q",
		r.Status, r.Verified, r.RolledBack, r.NothingSent, r.Error, r.RollbackNote, r.Recovered, r.Notes, r.Commands)
}

// lineDiffs lists the lines only in a (-) or only in b (+), sorted.
func lineDiffs(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ia, ib := in(a), in(b)
	var out []string
	for l := range ia {
		if !ib[l] {
			out = append(out, "- "+l)
		}
	}
	for l := range ib {
		if !ia[l] {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// configOf is the rendered file push sends to sw.
func configOf(t *testing.T, set *artifacts.Set, sw *model.Switch) []byte {
	t.Helper()
	v, err := push.VendorFor(sw.Platform)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range set.Devices {
		for _, f := range d.Files {
			if d.Name == sw.Name && f.Name == sw.Name+v.Artifact {
				return f.Data
			}
		}
	}
	t.Fatalf("no %s%s", sw.Name, v.Artifact)
	return nil
}
