package push

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
	"github.com/fabricc/fabricc/targets/cumulus"
)

// nvueTxn changes a Cumulus Linux switch through NVUE revisions
// (NVUE command reference, Config Commands): the rendered YAML is patched
// into the pending revision
// (`nv config patch`), `nv config diff` shows the change, `nv config apply
// --confirm 5 -y -m fabricc-<id>` makes it effective and reverts on
// its own unless `nv config apply --confirm-yes` follows, `nv config save` writes
// it to startup.yaml (needed where auto-save is off); a failure applies
// the revision that was applied before (`nv config apply <rev> -y`).
// The message names fabricc's revision for the next run.
//
// What NVIDIA documents of the confirm window, and what it does not
// (rcum #7): the NVUE Command Reference, Config Commands, `nv config
// apply`, and the Cumulus Linux 5.9 user guide, NVUE CLI, "Configuration
// Management Commands", document `--confirm [<time>]` (ten minutes by
// default; "nv config apply --confirm 60 requires you to confirm within
// one hour", so a bare number is minutes: push sends whole minutes,
// nvueConfirmMinutes) and `--confirm-status` (the time left, in a form
// neither shows, so push does not read it). Neither documents a unit
// suffix such as "300s", nor any way to keep or reject a revision
// applied with --confirm: `--confirm-yes` and `--confirm-no` are in
// neither, nor in any other NVIDIA page a search of NVIDIA's
// documentation found; they come from an NVUE fork of napalm-cumulus
// and third-party NVUE lab guides, and are unverified. So
// Confirmed reads the revision's state back, and a --confirm-yes the
// switch refuses fails the push, which rolls back, rather than leaving
// the change to the timer.
type nvueTxn struct {
	file    string
	message string
	// window is the engine's confirm window with a unit ("300s", as
	// vendor.go formats it); Apply sends it as whole minutes.
	window  string
	prevRev string
	applied bool
	// saved: startup.yaml held the applied configuration when the push
	// staged (no unsaved changes), so a rollback can put it back.
	saved bool
	// sent: Stage began to write the change (an `nv unset` into the
	// pending revision, or the file the patch reads).
	sent bool
}

func (t *nvueTxn) Stage(c Conn, config []byte) (string, error) {
	rev, err := c.Send("nv config revision -o json")
	if err != nil {
		return "", err
	}
	if t.prevRev, err = appliedRevision(rev); err != nil {
		return "", err
	}
	unsaved, err := nvueUnsaved(c)
	if err != nil {
		return "", err
	}
	t.saved = !unsaved
	unsets, err := pushUnsets(config)
	if err != nil {
		return "", err
	}
	conf, err := appliedConfig(c)
	if err != nil {
		return "", err
	}
	if err := nvueRelease(conf, config); err != nil {
		return "", err
	}
	if err := refuseForeignQoS(conf); err != nil {
		return "", err
	}
	// The patch's interfaces, for the bond check; an unreadable patch
	// fails it only where it counts. A port the patch brings up is
	// warned of by the engine for every platform (stageWarnings).
	ports, portsErr := patchInterfaces(config)
	if err := refuseBondMembers(conf, ports, portsErr); err != nil {
		return "", err
	}
	stale, err := staleProfiles(conf, config, unsets)
	if err != nil {
		return "", err
	}
	t.sent = true
	clears := append(unsets, stale...)
	for _, cmd := range clears {
		if _, err := c.Send(cmd); err != nil {
			return "", err
		}
	}
	// One command line carries the file: no heredoc continuation
	// prompts for the CLI driver to match (sim/README.md agreement).
	enc := base64.StdEncoding.EncodeToString(config)
	if _, err := c.Send("echo " + enc + " | base64 -d > " + t.file); err != nil {
		return "", err
	}
	_, err = c.Send("nv config patch " + t.file)
	_, _ = c.Send("rm -f " + t.file)
	if err != nil {
		return "", err
	}
	diff, err := c.Send("nv config diff")
	if err != nil {
		return "", err
	}
	if nvueNoDiff(diff) {
		return "", nil
	}
	return beforeAfterLines(conf, clears, config) + strings.TrimSpace(diff) + "\n", nil
}

// nvueShow prints the applied configuration in the NVUE object model
// (Cumulus Linux user guide, NVUE CLI).
const nvueShow = "nv config show -o json"

// appliedConfig is the switch's applied configuration for Stage, decoded
// once: the read before staging's decoding (kept.nvueConfig), else
// `nv config show -o json` read and decoded here.
func appliedConfig(c Conn) (*verify.NVUEConfig, error) {
	if k, ok := c.(*kept); ok {
		if conf := k.nvueConfig(nvueShow); conf != nil {
			return conf, nil
		}
	}
	out, err := c.Send(nvueShow)
	if err != nil {
		return nil, err
	}
	return verify.ParseNVUEConfig([]byte(jsonPart(out)))
}

// beforeAfterLines is nvueBeforeAfter's list as comment lines above
// NVUE's diff, which shows only what is set and unset, so that the diff
// says what a push replaces on a hand-configured switch (rmig #7); ""
// when nothing changes or the list cannot be made (the diff below still
// says what is sent).
func beforeAfterLines(applied *verify.NVUEConfig, cmds []string, config []byte) string {
	paths := make([]string, 0, len(cmds))
	for _, c := range cmds {
		paths = append(paths, strings.TrimPrefix(c, "nv unset "))
	}
	lines, err := nvueBeforeAfter(applied, paths, config)
	if err != nil || len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# replaced or removed, before -> after:\n")
	for _, l := range lines {
		b.WriteString("#   " + l + "\n")
	}
	return b.String()
}

// Discard throws the pending revision away: `nv config detach`
// (NVUE command reference, Config Commands).
func (t *nvueTxn) Discard(c Conn) error {
	_, err := c.Send("nv config detach")
	return err
}

// Sent is true once Stage has begun to write the change.
func (t *nvueTxn) Sent() bool { return t.sent }

// Apply applies the pending revision with the confirm window and checks
// that NVUE took it: an answer in NVUE's refusal form (nvueRefusal) is a
// failure quoting NVUE's lines, and then nothing was applied, so a
// rollback detaches the revision; otherwise fabricc's revision, found by
// its -m message, must be waiting for confirmation (or applied) in `nv
// config revision -o json`, whatever the answer said.
func (t *nvueTxn) Apply(c Conn) error {
	t.applied = true
	cmd := "nv config apply --confirm " + nvueConfirmMinutes(t.window) + " -y -m " + t.message
	out, err := c.Send(cmd)
	if reason := nvueRefusal(out); reason != "" {
		t.applied = false
		return &RefusedError{Cmd: cmd, Reason: reason}
	}
	if err != nil {
		return err
	}
	return t.checkApplied(c, out)
}

// nvueConfirmMinutes is the confirm window in the unit NVIDIA documents
// for `nv config apply --confirm <time>`, whole minutes (nvueTxn),
// rounded up so that the switch never rolls back before the engine's
// window ends; at least 1. A window that is not a duration is sent as
// it is.
func nvueConfirmMinutes(window string) string {
	d, err := time.ParseDuration(window)
	if err != nil {
		return window
	}
	return strconv.Itoa(max(1, int((d+time.Minute-1)/time.Minute)))
}

// nvueRefusal is NVUE's refusal of an apply in one line, "" when out is
// not one: "Invalid config [rev_id: N]" followed by one indented line per
// reason, "Config invalid at <path>: ..." (CumulusNetworks/docs knowledge
// base, "NVUE Fails to Apply Configuration After Upgrade"; Cumulus Linux
// user guide, NVUE Snippets, flexible snippets). Neither line has
// "Error:", so the platform's failed-when-contains lists both; this
// quotes every line, not the first only.
func nvueRefusal(out string) string {
	if !strings.Contains(out, "Invalid config [") && !strings.Contains(out, "Config invalid at ") {
		return ""
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, " / ")
}

// The states of an NVUE revision (`nv config revision -o json`) fabricc
// reads, in one place. NVIDIA documents no list of them; these are the
// names of the public NVUE REST client entropia/gpn-noc-gpncfg
// (gpncfg/deployment/__init__.py: NT_VALID lists every transition it has
// met, NT_APPLIED, NT_CONFIRM and NT_FAIL sort them, and it cancels a
// revision waiting for confirmation by setting it to "confirm_fail").
var (
	// nvueAppliedStates: the revision is applied (NT_APPLIED; "auto_save"
	// while auto save writes it to startup.yaml).
	nvueAppliedStates = []string{"applied", "applied_and_saved", "auto_save"}
	// nvueRolledBackStates: a revision applied with --confirm that its
	// window rolled back or --confirm-no rejected ("confirm_fail", the
	// state a cancel sets; "confirm_no", the answer on its way).
	nvueRolledBackStates = []string{"confirm_fail", "confirm_no"}
	// nvueFailedStates are the revision states in which NVUE did not
	// apply a revision: the failure states of NVUE's revision state
	// machine (NT_FAIL: "nvue states that indicate the revision has
	// failed to apply"), and pending or detached, a revision NVUE never
	// took up. fabricc refuses on these rather than requiring "confirm":
	// a release that names its waiting state otherwise must not fail
	// every push.
	nvueFailedStates = []string{"apply_error", "apply_fail", "ays_fail", "confirm_fail", "invalid", "ready_error", "verify_error", "pending", "detached"}
)

// nvueConfirmWaiting is the state of a revision applied with --confirm
// and waiting for its answer (NT_CONFIRM).
const nvueConfirmWaiting = "confirm"

// checkApplied reads `nv config revision -o json` after the apply and
// finds fabricc's revision by its message (NVUE user guide, NVUE CLI,
// "Add Configuration Apply Messages"): an apply that answered without
// NVUE's refusal words but left the revision in another state, or made
// none, is a failure naming the state and quoting NVUE's answer.
func (t *nvueTxn) checkApplied(c Conn, answer string) error {
	revs, err := nvueRevisions(c)
	if err != nil {
		return err
	}
	id := newestRevision(revs, func(r nvueRev) bool { return r.Message == t.message })
	answer = strings.Join(strings.Fields(answer), " ")
	if id == "" {
		return fmt.Errorf("nv config apply answered %q, and nv config revision lists no revision with the message %s: NVUE did not apply it", answer, t.message)
	}
	if st := revs[id].State; slices.Contains(nvueFailedStates, st) {
		return fmt.Errorf("nv config apply answered %q, and NVUE's revision %s (%s) is in state %q: NVUE did not apply it", answer, id, t.message, st)
	}
	return nil
}

// nvueConfirm keeps the revision applied with --confirm. NVUE has no
// `nv config confirm`: its config commands are apply, attach, delete,
// detach, diff, find, history, patch, replace, revision, save, show and
// translate (Cumulus Linux user guide, NVUE CLI, "Configuration
// Management Commands"), and an NVUE fork of napalm-cumulus confirms with
// `nv config apply <rev> --confirm-yes` (napalm_cumulus/cumulus.py,
// confirm_commit). NVIDIA documents no flag for it (nvueTxn): an
// unverified assumption. -y answers any prompt, as Rollback's
// --confirm-no does.
const nvueConfirm = "nv config apply --confirm-yes -y"

func (t *nvueTxn) Confirm(c Conn) error {
	_, err := c.Send(nvueConfirm)
	return err
}

// Confirmed finds fabricc's revision by its message: applied, no longer
// waiting for confirmation.
func (t *nvueTxn) Confirmed(c Conn) (bool, error) {
	revs, err := nvueRevisions(c)
	for _, r := range revs {
		if r.Message == t.message && nvueApplied(r) {
			return true, err
		}
	}
	return false, err
}

func (t *nvueTxn) Save(c Conn) error {
	_, err := c.Send("nv config save")
	return err
}

func (t *nvueTxn) Rollback(c Conn) error {
	if !t.applied {
		_, err := c.Send("nv config detach")
		return err
	}
	// Reject the revision waiting for confirmation: NVUE restores the
	// one applied before (the --confirm-no of the NVUE forks of
	// napalm-cumulus). When nothing is waiting (the apply never ran, or the timer
	// already reverted it), apply the previous revision explicitly.
	if _, err := c.Send("nv config apply --confirm-no -y"); err != nil {
		if t.prevRev == "" {
			return fmt.Errorf("no previously applied revision to return to; the confirm timer (%s) reverts the change", t.window)
		}
		if _, err := c.Send("nv config apply " + t.prevRev + " -y"); err != nil {
			return err
		}
	}
	return t.restoreStartup(c)
}

// restoreStartup puts startup.yaml back after a rollback. With auto save
// on (the default from Cumulus Linux 5.9: NVUE Command Reference, Config
// Commands, `nv config apply`; 5.9 user guide, NVUE CLI, "Auto Save"),
// `nv config apply` saves what it applies, and neither source says
// whether a revision applied with --confirm is saved before it is
// confirmed, or whether a rollback restores startup.yaml. So when
// startup.yaml held the applied configuration before the push and no
// longer does after the rollback, the unverified revision was saved:
// `nv config save` writes the restored configuration over it. A switch
// that had unsaved changes before (a push with --save-unsaved) is left
// as it is: saving would save those changes, which the push did not
// make and did not keep.
func (t *nvueTxn) restoreStartup(c Conn) error {
	if !t.saved {
		return nil
	}
	unsaved, err := nvueUnsaved(c)
	if err != nil || !unsaved {
		return err
	}
	_, err = c.Send("nv config save")
	return err
}

// appliedRevision finds the applied revision in `nv config revision -o
// json` ({"<id>": {"state": "applied" | "applied_and_saved" | ...}};
// Cumulus Linux user guide, NVUE CLI): the highest numbered one in an
// applied state (nvueApplied). "" when the switch has none yet.
func appliedRevision(out string) (string, error) {
	var revs map[string]nvueRev
	if err := json.Unmarshal([]byte(jsonPart(out)), &revs); err != nil {
		return "", fmt.Errorf("nv config revision -o json: %w", err)
	}
	return newestRevision(revs, nvueApplied), nil
}

// nvueApplied reports whether a revision is in an applied state
// (nvueAppliedStates).
func nvueApplied(r nvueRev) bool { return slices.Contains(nvueAppliedStates, r.State) }

// unsetPath is what an `nv unset` line of the patch's header may name:
// NVUE path words (interface lists with commas, profile names with dashes
// and underscores), nothing a shell would read otherwise.
var unsetPath = regexp.MustCompile(`^[A-Za-z0-9_.,-]+( [A-Za-z0-9_.,-]+)*$`)

// pushUnsets are the `nv unset` commands the rendered patch lists in its
// header ("# nv unset <path>", cumulus.UnsetPrefix) for push to run
// before the patch, in the same pending revision: a patch only adds, and
// NVUE takes no unset and set of one object in one patch. A line whose
// path holds anything but NVUE path words is refused, not sent: the file
// may come from --artifacts, and the switch's shell runs what is sent.
func pushUnsets(config []byte) ([]string, error) {
	var out []string
	for _, line := range strings.Split(string(config), "\n") {
		if !strings.HasPrefix(line, "#") {
			break // the header ends where the document starts
		}
		path, ok := strings.CutPrefix(line, cumulus.UnsetPrefix)
		if !ok {
			continue
		}
		if !unsetPath.MatchString(path) {
			return nil, fmt.Errorf("the patch's header asks to unset %q, which is not an NVUE path; rebuild the artifacts", path)
		}
		out = append(out, "nv unset "+path)
	}
	return out, nil
}

// staleProfiles are the `nv unset qos <kind> <name>` commands that
// remove the profiles on the switch whose names are fabricc's
// (cumulus.OwnedProfiles) and that the patch does not have: an earlier
// fabric's, such as the pfc-sp4-100g-1m of a lossless priority since
// moved back to 3. The profiles and their ports are read from the
// applied configuration; the commands run after unsets, the header's,
// which detach the fabric's ports from every profile. A profile that a
// port outside those still uses is left (the operator's, or a port the
// fabric no longer has); verify notes one that no port uses. NVUE
// Command Reference, Set and Unset Commands, QoS: `nv unset qos pfc
// <profile-id>` removes the profile `nv set qos pfc <profile-id>` made.
func staleProfiles(applied *verify.NVUEConfig, config []byte, unsets []string) ([]string, error) {
	kept, err := patchProfiles(config)
	if err != nil {
		return nil, err
	}
	uses := applied.OwnedProfiles()
	detached := detachedPorts(unsets)
	var cmds []string
	for _, u := range uses {
		inUse := slices.ContainsFunc(u.Users, func(port string) bool { return !detached[u.Kind][port] })
		if !kept[u.Kind][u.Name] && !inUse {
			cmds = append(cmds, "nv unset qos "+u.Kind+" "+u.Name)
		}
	}
	return cmds, nil
}

// refuseForeignQoS refuses a switch that runs NVIDIA's RoCE mode (`nv
// set qos roce`) or a roce-lossless traffic pool (NVUEConfig.ForeignQoS),
// before anything is staged. RoCE mode puts switch priority 3 in its
// roce-lossless pool and writes its own trust, ETS, ECN and PFC on every
// port (Cumulus Linux user guide, RDMA over Converged Ethernet - RoCE,
// "Default RoCE Configuration"); fabricc's default-lossless pool beside
// it is a second lossless pool, and "You can only have a single lossless
// pool configured on the switch at a time" (Quality of Service, "Traffic
// Pools"). Push refuses rather than unsetting it: RoCE mode is the
// operator's switch-wide choice and reaches ports outside the fabric,
// and removing it changes their QoS, so the operator runs `nv unset qos
// roce` (the RoCE page's way off) knowing that.
func refuseForeignQoS(applied *verify.NVUEConfig) error {
	foreign := applied.ForeignQoS()
	if len(foreign) == 0 {
		return nil
	}
	var found, fix []string
	for _, path := range slices.Sorted(maps.Keys(foreign)) {
		found = append(found, path+" ("+foreign[path]+")")
		fix = append(fix, "nv unset "+path)
	}
	return fmt.Errorf("the switch runs %s, NVIDIA's RoCE QoS with its own lossless pool (roce-lossless), and NVUE allows a single lossless pool; "+
		"fabricc configures the lossless class and its default-lossless pool itself: remove it on the switch (%s; nv config apply -y; "+
		"this also stops the PFC, ETS and application priority TLVs RoCE mode has every port send, Cumulus Linux user guide, Link Layer Discovery Protocol, "+
		"\"Transmit QoS TLVs\", so a NIC that takes its PFC from the switch by DCBX keeps PFC only on a fabric port, where fabricc advertises it to a QLogic NIC), "+
		"then push again; nothing was changed", strings.Join(found, " and "), strings.Join(fix, "; "))
}

// patchProfiles are the profiles the patch sets, by kind and name
// (`- set: {qos: {pfc: {pfc-sp3-100g-3m: ...}}}`).
func patchProfiles(config []byte) (map[string]map[string]bool, error) {
	var docs []struct {
		Set struct {
			QoS map[string]yaml.Node `yaml:"qos"`
		} `yaml:"set"`
	}
	if err := yaml.Unmarshal(config, &docs); err != nil {
		return nil, fmt.Errorf("the patch is not an NVUE YAML document list: %w", err)
	}
	out := map[string]map[string]bool{}
	for _, d := range docs {
		for _, kind := range cumulus.OwnedProfiles {
			n, ok := d.Set.QoS[kind.Kind]
			if !ok {
				continue
			}
			var names map[string]yaml.Node
			if err := n.Decode(&names); err != nil {
				return nil, fmt.Errorf("the patch's qos %s: %w", kind.Kind, err)
			}
			if out[kind.Kind] == nil {
				out[kind.Kind] = map[string]bool{}
			}
			for name := range names {
				out[kind.Kind][name] = true
			}
		}
	}
	return out, nil
}

// detachedUnset is a header unset that detaches ports from a profile:
// "nv unset interface <list> qos <kind>".
var detachedUnset = regexp.MustCompile(`^nv unset interface (\S+) qos ([a-z-]+)$`)

// detachedPorts are the ports the unsets detach, by profile kind.
func detachedPorts(unsets []string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, cmd := range unsets {
		m := detachedUnset.FindStringSubmatch(cmd)
		if m == nil {
			continue
		}
		if out[m[2]] == nil {
			out[m[2]] = map[string]bool{}
		}
		for _, port := range verify.NVUENames(m[1]) {
			out[m[2]][port] = true
		}
	}
	return out
}

// refuseBondMembers refuses, before anything is staged, a switch whose
// applied configuration lists one of the patch's ports under `interface
// <bond> bond member` (NVUEConfig.BondMembers), as push refuses an Onyx
// LAG member (onyxLAGMembers): a bond member takes its bridge
// membership, MTU and QoS from its bond (Cumulus Linux user guide,
// Bonding - Link Aggregation; for an MLAG bond, `bond mlag id`,
// Multi-Chassis Link Aggregation - MLAG), which fabricc does not manage
// (README, Scope), so the port's own bridge domain, MTU and PFC profile
// would be refused at apply or break the bond. ports and portsErr are
// the patch's interfaces (patchInterfaces). A member of an MLAG bond or
// of the peer link gets no removal command (mlagRefusal).
func refuseBondMembers(applied *verify.NVUEConfig, ports []string, portsErr error) error {
	members := applied.BondMembers()
	if len(members) == 0 {
		return nil
	}
	if portsErr != nil {
		return portsErr
	}
	var plain, mlag []string
	for _, port := range ports {
		m, ok := members[port]
		if !ok {
			continue
		}
		bond, p := quote.Visible(m.Bond), quote.Visible(port)
		if m.PeerLink || m.MLAGID != "" {
			mlag = append(mlag, p+" is a member of "+m.String())
			continue
		}
		plain = append(plain, fmt.Sprintf("%s is a member of %s (`nv unset interface %s bond member %s` takes it out)", p, m, bond, p))
	}
	return lagRefusal(plain, "fabric ports are bond members on the switch: %s; a member takes its bridge domain, MTU and QoS from its bond, "+
		"which fabricc does not manage, so fabricc cannot configure the port: take it out of the bond (then nv config apply -y) or leave the port out of the fabric", mlag)
}

// patchInterfaces are the interfaces the patch sets (`- set: {interface:
// {swp1: ...}}`), keys naming several expanded (verify.NVUENames), in
// name order.
func patchInterfaces(config []byte) ([]string, error) {
	var docs []struct {
		Set struct {
			Interface map[string]yaml.Node `yaml:"interface"`
		} `yaml:"set"`
	}
	if err := yaml.Unmarshal(config, &docs); err != nil {
		return nil, fmt.Errorf("the patch is not an NVUE YAML document list: %w", err)
	}
	seen := map[string]bool{}
	for _, d := range docs {
		for key := range d.Set.Interface {
			for _, name := range verify.NVUENames(key) {
				seen[name] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen)), nil
}

// nvueHeaderReleaseRe is the release in the header of a rendered NVUE
// file (targets/cumulus: "# platform: cumulus, NVIDIA Cumulus Linux
// 5.9.2 (NVUE; ...").
var nvueHeaderReleaseRe = regexp.MustCompile(`(?m)^# platform: cumulus, NVIDIA Cumulus Linux (\d+(?:\.\d+)*) `)

// nvueSwitchReleaseRe is the release in the `version` of the header of
// `nv config show` ("Cumulus Linux 5.15.0": the switch configuration
// NVIDIA Air's custom topology guide exported with `nv config show -o
// yaml`; "Cumulus Linux 5.5.1" in a 5.5 capture of the same header).
var nvueSwitchReleaseRe = regexp.MustCompile(`^Cumulus Linux (\d+(?:\.\d+)*)`)

// nvueRelease refuses a push whose file was built for a release on the
// other side of a boundary (cumulus.Boundaries: a feature or keyword
// dialect the file depends on) from the release the switch runs, read
// from the header of `nv config show -o json` (applied), as push does
// for Onyx with `show version` (onyxRelease): the file would carry
// commands or keywords the switch's NVUE does not have (rcum #3). A file
// without the header, or an answer without a release, is not checked.
func nvueRelease(applied *verify.NVUEConfig, config []byte) error {
	m := nvueHeaderReleaseRe.FindSubmatch(config)
	if m == nil {
		return nil
	}
	declared := string(m[1])
	version, _ := applied.Header()
	r := nvueSwitchReleaseRe.FindStringSubmatch(version)
	if r == nil {
		return nil
	}
	running := r[1]
	var crossed []string
	for _, b := range cumulus.Boundaries() {
		if (model.CompareVersions(declared, b.Release) >= 0) != (model.CompareVersions(running, b.Release) >= 0) {
			crossed = append(crossed, b.Release+" ("+b.What+")")
		}
	}
	if len(crossed) == 0 {
		return nil
	}
	return fmt.Errorf("the switch runs Cumulus Linux %s (nv config show) but the fabric declares os_version %s, on the other side of %s, "+
		"where fabricc's NVUE file changes: correct os_version, build again and push; nothing was changed",
		running, declared, strings.Join(crossed, " and "))
}

// nvueModelRead is the model in the header of `nv config show` (the
// `model` beside `version`: "vx" in the switch configuration NVIDIA Air's
// custom topology guide exported with `nv config show -o yaml`, "VX" in
// a 5.5.1 capture of the same header). How NVUE spells a Spectrum
// switch's model there is not documented: one catalogModel does not
// know is a note, not a refusal.
// The read before staging and verify's read decode the command's
// output whole (State.NVUE), and the model is taken from that decoding
// (OfState); only a read that did not decode is parsed again, for its
// header alone (nvueHeader).
var nvueModelRead = hwModel{Command: nvueShow,
	Parse: func(out string) string {
		_, model := nvueHeader([]byte(jsonPart(out)))
		return model
	},
	OfState: func(s *verify.State) (string, bool) {
		if s.NVUE == nil {
			return "", false
		}
		_, model := s.NVUE.Header()
		return model, true
	},
}

// nvueHeader is the header of `nv config show -o json` (applied), as
// NVUEConfig.Header reads it but decoding nothing else: the release's
// `version` and the hardware `model`, each the first the document list
// gives, "" without one or when applied is not that list.
func nvueHeader(applied []byte) (version, model string) {
	var docs []struct {
		Header struct {
			Version string `json:"version"`
			Model   string `json:"model"`
		} `json:"header"`
	}
	if json.Unmarshal(applied, &docs) != nil {
		return "", ""
	}
	for _, d := range docs {
		if version == "" {
			version = d.Header.Version
		}
		if model == "" {
			model = d.Header.Model
		}
	}
	return version, model
}
