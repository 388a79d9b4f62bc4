package push

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

// onyxTxn changes an Onyx switch, which has no candidate configuration:
// every command is effective at once. The transaction is built by
// fabricc: read `show running-config`, send only the lines that change
// what the switch does (onyx_meaning.go), and on failure send what brings
// the running configuration back to what was read (the previous values,
// `no ...` for what was added). `configuration write to
// fabricc-pre-<id> no-switch` saves a checkpoint first and leaves the
// active file alone; push never uses `configuration switch-to`, which
// reboots the switch, but an operator restores the checkpoint with it.
// `configuration write` (Save) persists only after verification passed,
// never after a rollback; Onyx has nothing to confirm. Once the change is
// saved, or rolled back, the checkpoint is deleted (Cleanup).
type onyxTxn struct {
	checkpoint string
	before     []string // running config lines read by Stage
	send       []string // lines Stage computed
	// applied: Apply began, so the checkpoint may exist.
	applied bool
	// want is the switch's intended state (verify.Expect), given by
	// intend before Stage: its LLDP says where LLDP is the fabric's to
	// turn back on. nil: nowhere.
	want *verify.State
}

// intend gives the transaction the switch's intended state.
func (t *onyxTxn) intend(want *verify.State) { t.want = want }

func (t *onyxTxn) Stage(c Conn, config []byte) (string, error) {
	if err := refuseSessionLines(model.PlatformOnyx, config); err != nil {
		return "", err
	}
	if err := onyxRelease(c, config); err != nil {
		return "", err
	}
	run, err := c.Send("show running-config")
	if err != nil {
		return "", err
	}
	t.before = onyxLines(run)
	want := onyxLines(string(config))
	runningPools, wantPools := verify.OnyxPoolsOf(t.before), verify.OnyxPoolsOf(want)
	if err := onyxForeignPools(wantPools, runningPools); err != nil {
		return "", err
	}
	ours := onyxPortsOf(want)
	if err := onyxLAGMembers(ours, t.before); err != nil {
		return "", err
	}
	if err := onyxStrayDSCPMaps(want, t.before, ours); err != nil {
		return "", err
	}
	if err := onyxStrayRewrites(t.before, ours); err != nil {
		return "", err
	}
	if err := onyxBufferMode(want, t.before, len(wantPools) > 0, len(runningPools) > 0); err != nil {
		return "", err
	}
	if err := onyxRoCEMode(c); err != nil {
		return "", err
	}
	t.send = append(onyxPoolShrinksFirst(onyxMissing(want, t.before), runningPools), onyxLLDPBack(t.before, t.want)...)
	return onyxDiff(t.before, t.send), nil
}

// onyxLLDPOff matches the running configuration's lines that turn LLDP
// off: the global `no lldp`, which a running configuration shows only
// from 3.8.2000, where LLDP is on by default (NVIDIA Onyx User Manual,
// Link Layer Discovery Protocol (LLDP)), and a port's `no lldp receive`
// or `no lldp transmit`.
var onyxLLDPOff = regexp.MustCompile(`^(?:interface ethernet (\S+) )?no (lldp(?: receive| transmit)?)$`)

// onyxLLDPBack are the commands that turn LLDP back on where the running
// configuration has it off and the fabric intends it on, switch-wide or
// on a port: `lldp`, `interface ethernet 1/1 lldp transmit`. The fabric
// relies on LLDP to advertise its PFC by DCBX and for verify's cabling
// check. Intended on is verify's rule (want.LLDP and each port's LLDP,
// from Expect), so push restores exactly what verify reports off
// (verify.ApplyOnyxLLDP): a port outside the fabric, or a release before
// 3.8.2000 without a DCBX port, where LLDP is off by default and not the
// fabric's, is left as it is.
func onyxLLDPBack(running []string, want *verify.State) []string {
	if want == nil {
		return nil
	}
	var out []string
	for _, l := range running {
		m := onyxLLDPOff.FindStringSubmatch(l)
		switch {
		case m == nil:
		case m[1] == "" && m[2] == "lldp" && want.LLDP == "on":
			out = append(out, m[2])
		case m[1] != "" && m[2] != "lldp" && onyxPortLLDPOn(want, m[1]):
			out = append(out, "interface ethernet "+m[1]+" "+m[2])
		}
	}
	return out
}

// onyxPortLLDPOn is whether the fabric intends LLDP on port (a fabric
// port of a switch intended to run LLDP).
func onyxPortLLDPOn(want *verify.State, port string) bool {
	p := want.Ports[port]
	return p != nil && p.LLDP == "on"
}

// onyxRoCEMode refuses a switch in RoCE mode: Onyx's `roce` command
// (NVIDIA Onyx User Manual 3.10, "RoCE Commands", since 3.8.2000) sets
// trust L3, ETS, ECN, PFC on switch priority 3 and its own buffer
// pools, everything fabricc configures, so the two would fight over the
// same settings. `show roce` prints "RoCE mode: N/A" when it is off; a
// release before 3.8.2000 refuses the command and has no RoCE mode.
func onyxRoCEMode(c Conn) error {
	out, err := c.Send("show roce")
	if refused(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if mode := verify.OnyxRoCEMode(out); mode != "" {
		return fmt.Errorf("the switch is in RoCE mode (show roce: RoCE mode %s), which sets trust, ETS, ECN, PFC and buffer pools of its own, "+
			"the settings fabricc configures; turn it off with `no roce` (configuration mode; NVIDIA notes that changing the RoCE mode "+
			"may toggle interfaces) and push again; nothing was changed", quote.Visible(mode))
	}
	return nil
}

func (t *onyxTxn) Discard(Conn) error { return nil }

// Sent: Stage only reads (show commands); the first line that changes
// anything is Apply's checkpoint.
func (t *onyxTxn) Sent() bool { return t.applied }

// Apply saves the checkpoint with no-switch: without it `configuration
// write to NAME` makes NAME the active file, so the `configuration
// write` of Confirm would overwrite the checkpoint (CSM documentation:
// after `configuration write to csm1.0`, `show configuration files` lists
// csm1.0 as active).
func (t *onyxTxn) Apply(c Conn) error {
	t.applied = true
	return onyxConfigure(c, append([]string{"configuration write to " + t.checkpoint + " no-switch"}, t.send...))
}

// Confirm has nothing to do: Onyx has no automatic rollback to disarm.
func (t *onyxTxn) Confirm(Conn) error { return nil }

func (t *onyxTxn) Confirmed(Conn) (bool, error) { return true, nil }

func (t *onyxTxn) Save(c Conn) error {
	return onyxConfigure(c, []string{"configuration write"})
}

// Cleanup deletes the checkpoint once the change is saved or undone
// (`configuration delete NAME`; NVIDIA Onyx User Manual, "Configuration
// Management"), so that pushes do not pile checkpoints up on the switch.
// A failed push whose rollback failed keeps it: it holds the
// configuration to go back to.
func (t *onyxTxn) Cleanup(c Conn) error {
	if !t.applied {
		return nil
	}
	out, err := c.Send("show configuration files")
	files := onyxFiles(out)
	if err == nil && !files.has(t.checkpoint) {
		return nil
	}
	if err == nil {
		err = onyxDeleteFiles(c, files, []string{t.checkpoint})
	}
	if err != nil {
		return fmt.Errorf("the checkpoint %s is no longer needed but was not deleted (%v); delete it on the switch with `configuration delete %s`", t.checkpoint, err, t.checkpoint)
	}
	return nil
}

func (t *onyxTxn) Rollback(c Conn) error {
	// Each round re-reads the running config, then either undoes what
	// was added or re-sends the old lines that are missing (which also
	// restores values a "no" form reset). Undoing can leave a "no" line
	// that a later round turns back into the default, so a few rounds
	// are allowed before giving up.
	for round := 0; round < onyxRollbackRounds; round++ {
		run, err := c.Send("show running-config")
		if err != nil {
			return err
		}
		now := onyxLines(run)
		cmds := onyxUndo(now, t.before)
		if len(cmds) == 0 {
			// Pool shares are restored as apply changes them, shrinks
			// first, so that they never pass 100 % on the way back
			// either (review ronyx #1).
			cmds = onyxPoolShrinksFirst(onyxMissing(t.before, now), verify.OnyxPoolsOf(now))
		}
		if len(cmds) == 0 {
			return nil
		}
		if err := onyxConfigure(c, cmds); err != nil {
			return err
		}
	}
	return fmt.Errorf("the running configuration still differs from the one read before the push after %d rounds of undo; checkpoint %s holds it", onyxRollbackRounds, t.checkpoint)
}

// KeptAfterFailedRollback names the checkpoint a failed rollback leaves
// and the way back that needs no reboot: the device lock stays, and the
// next push recognises the change by it (rollbackKeeper).
func (t *onyxTxn) KeptAfterFailedRollback() string {
	return fmt.Sprintf("the switch keeps the change unsaved, checkpoint %s holds the configuration from before the push, and the device lock stays: "+
		"run fabricc push again (from another host: with --break-lock=%s), which takes the change as this push's and saves it when it verifies, "+
		"or restores %s line by line without a reboot (not `configuration switch-to`, which reboots the switch); do not save the configuration by hand",
		t.checkpoint, strings.TrimPrefix(t.checkpoint, "fabricc-pre-"), t.checkpoint)
}

// onyxRollbackRounds bounds the undo/restore rounds of a rollback.
const onyxRollbackRounds = 5

// onyxConfigure sends lines from configuration mode and leaves it, also
// when a line fails, so the session is back at the enable prompt.
func onyxConfigure(c Conn, lines []string) error {
	if _, err := c.Send("configure terminal"); err != nil {
		return err
	}
	var first error
	for _, l := range lines {
		if _, err := c.Send(l); err != nil {
			first = err
			break
		}
	}
	if err := c.Home(); err != nil && first == nil {
		first = err
	}
	return first
}

// onyxLines keeps the command lines of a flat Onyx config: no "##"
// comments, no mode or save commands, and neither prefix-mode line
// (the rendered file turns prefix modes off at the top and back on at
// the end, as running-configs do; push's single-line commands need
// neither, and the CLI setting is the operator's).
func onyxLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.Join(strings.Fields(l), " ")
		switch {
		case l == "", strings.HasPrefix(l, "#"), strings.HasPrefix(l, "!"),
			l == "configure terminal", l == "exit", l == "configuration write",
			l == "no cli default prefix-modes enable", l == "cli default prefix-modes enable":
			continue
		}
		out = append(out, onyxExpand(l)...)
	}
	return out
}

var onyxRange = regexp.MustCompile(`^interface ethernet (\d+(?:/\d+)*/)(\d+)-(?:\d+(?:/\d+)*/)?(\d+) (.*)$`)

// onyxExpand splits a range line as real running configs print them
// ("interface ethernet 1/2-1/18 speed 10G force", seen in intel
// mfd-switchmanagement's Onyx test data) into one line per port, the
// form fabricc renders, so lines compare one to one.
func onyxExpand(l string) []string {
	m := onyxRange.FindStringSubmatch(l)
	if m == nil {
		return []string{l}
	}
	lo, hi := atoi(m[2]), atoi(m[3])
	if hi < lo || hi-lo > 1024 {
		return []string{l}
	}
	out := make([]string, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		out = append(out, fmt.Sprintf("interface ethernet %s%d %s", m[1], n, m[4]))
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// onyxUndo returns the commands that remove what the running config
// now has and target has not (newest first); a line whose settings
// target all sets with other values is left for the restore round.
func onyxUndo(now, target []string) []string {
	want := set(target)
	have := readOnyx(target)
	var out []string
	seen := map[string]bool{}
	for i := len(now) - 1; i >= 0; i-- {
		l := now[i]
		if want[l] || setsAll(have, l) {
			continue
		}
		if n := onyxNegate(l); !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// onyxNegations are the inverse forms that are not plain "no" + line
// (mellanox.onyx onyx_pfc_interface.py, onyx_l2_interface.py and
// onyx_vlan.py: `no dcb priority-flow-control mode force`,
// `allowed-vlan remove`, `vlan N no name`).
var onyxNegations = []struct {
	re  *regexp.Regexp
	out string
}{
	{regexp.MustCompile(`^(interface ethernet \S+) dcb priority-flow-control mode on force$`), "$1 no dcb priority-flow-control mode force"},
	// Undoing a "no" line returns to the default: PFC mode auto
	// (mellanox.onyx onyx_pfc_interface.py, `PFC admin: Auto`), a
	// switchport in access mode.
	{regexp.MustCompile(`^(interface ethernet \S+) no dcb priority-flow-control mode force$`), "$1 dcb priority-flow-control mode auto force"},
	{regexp.MustCompile(`^(interface ethernet \S+) no switchport force$`), "$1 switchport mode access"},
	// One VLAN comes off the way it went on, without resetting the list.
	{regexp.MustCompile(`^(interface ethernet \S+ switchport (?:trunk|hybrid) allowed-vlan) add (\S+)$`), "$1 remove $2"},
	{regexp.MustCompile(`^(interface ethernet \S+ switchport (?:trunk|hybrid) allowed-vlan) remove (\S+)$`), "$1 add $2"},
	{regexp.MustCompile(`^(interface ethernet \S+) switchport (trunk|hybrid) allowed-vlan .*$`), "$1 no switchport $2 allowed-vlan"},
	{regexp.MustCompile(`^(interface ethernet \S+) (mtu|speed) \S+ force$`), "$1 no $2 force"},
	{regexp.MustCompile(`^(interface ethernet \S+) (flowcontrol (?:send|receive)) \S+ force$`), "$1 no $2 force"},
	{regexp.MustCompile(`^(interface ethernet \S+) (traffic-class \d+ (?:dcb ets|congestion-control))\b.*$`), "$1 no $2"},
	{regexp.MustCompile(`^(interface ethernet \S+) (description|qos trust|switchport access vlan|switchport mode)\b.*$`), "$1 no $2"},
	{regexp.MustCompile(`^(interface ethernet \S+) (ingress-buffer iPort\.pg\d+|egress-buffer ePort\.tc\d+)\b.*$`), "$1 no $2"},
	{regexp.MustCompile(`^(interface ethernet \S+) shutdown$`), "$1 no shutdown"},
	{regexp.MustCompile(`^(interface ethernet \S+) (.*)$`), "$1 no $2"},
	{regexp.MustCompile(`^vlan (\d+) name .*$`), "vlan $1 no name"},
	{regexp.MustCompile(`^(dcb priority-flow-control enable) force$`), "no $1 force"},
	{regexp.MustCompile(`^traffic pool (\S+) .*$`), "no traffic pool $1"},
	{regexp.MustCompile(`^pool (\S+) .*$`), "no pool $1"},
}

// onyxNegate returns the command that undoes line l.
func onyxNegate(l string) string {
	for _, n := range onyxNegations {
		if n.re.MatchString(l) {
			return n.re.ReplaceAllString(l, n.out)
		}
	}
	return "no " + l
}

// setsAll says whether h has a line for every setting of l.
func setsAll(h onyxHave, l string) bool {
	for _, s := range onyxSettingsOf(l) {
		if v, ok := h[s.key]; !ok || v.line == "" {
			return false
		}
	}
	return true
}

func set(lines []string) map[string]bool {
	m := make(map[string]bool, len(lines))
	for _, l := range lines {
		m[l] = true
	}
	return m
}
