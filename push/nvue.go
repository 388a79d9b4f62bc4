package push

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/fabricc/fabricc/targets/cumulus"
)

// nvueTxn changes a Cumulus Linux switch through NVUE revisions
// (NVUE command reference, Config Commands): the rendered YAML is patched
// into the pending revision
// (`nv config patch`), `nv config diff` shows the change, `nv config apply
// --confirm 300s -y -m fabricc-<id>` makes it effective and reverts on
// its own unless `nv config apply --confirm-yes` follows, `nv config save` writes
// it to startup.yaml (needed where auto-save is off); a failure applies
// the revision that was applied before (`nv config apply <rev> -y`).
// The message names fabricc's revision for the next run.
type nvueTxn struct {
	file    string
	message string
	// window has an explicit unit ("300s"): NVUE reads a bare number as
	// minutes in some releases (NVUE command reference, `nv config
	// apply --confirm`).
	window  string
	prevRev string
	applied bool
}

func (t *nvueTxn) Stage(c Conn, config []byte) (string, error) {
	rev, err := c.Send("nv config revision -o json")
	if err != nil {
		return "", err
	}
	if t.prevRev, err = appliedRevision(rev); err != nil {
		return "", err
	}
	unsets, err := pushUnsets(config)
	if err != nil {
		return "", err
	}
	for _, cmd := range unsets {
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
	return strings.TrimSpace(diff) + "\n", nil
}

// Discard throws the pending revision away: `nv config detach`
// (NVUE command reference, Config Commands).
func (t *nvueTxn) Discard(c Conn) error {
	_, err := c.Send("nv config detach")
	return err
}

func (t *nvueTxn) Apply(c Conn) error {
	t.applied = true
	_, err := c.Send("nv config apply --confirm " + t.window + " -y -m " + t.message)
	return err
}

// nvueConfirm keeps the revision applied with --confirm. NVUE has no
// `nv config confirm`: its config commands are apply, attach, delete,
// detach, diff, find, history, patch, replace, revision, save, show and
// translate (Cumulus Linux user guide, NVUE CLI, "Configuration
// Management Commands"), and an NVUE fork of napalm-cumulus confirms with
// `nv config apply <rev> --confirm-yes` (napalm_cumulus/cumulus.py,
// confirm_commit). -y answers any prompt, as Rollback's --confirm-no does.
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
		if r.Message == t.message && strings.HasPrefix(r.State, "applied") {
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
	if _, err := c.Send("nv config apply --confirm-no -y"); err == nil {
		return nil
	}
	if t.prevRev == "" {
		return fmt.Errorf("no previously applied revision to return to; the confirm timer (%s) reverts the change", t.window)
	}
	_, err := c.Send("nv config apply " + t.prevRev + " -y")
	return err
}

// appliedRevision finds the applied revision in `nv config revision -o
// json` ({"<id>": {"state": "applied" | "applied_and_saved" | ...}};
// Cumulus Linux user guide, NVUE CLI): the highest numbered one whose
// state starts with
// "applied". "" when the switch has none yet.
func appliedRevision(out string) (string, error) {
	var revs map[string]struct {
		State string `json:"state"`
	}
	if err := json.Unmarshal([]byte(jsonPart(out)), &revs); err != nil {
		return "", fmt.Errorf("nv config revision -o json: %w", err)
	}
	var ids []int
	for id, r := range revs {
		n, err := strconv.Atoi(id)
		if err == nil && strings.HasPrefix(r.State, "applied") {
			ids = append(ids, n)
		}
	}
	if len(ids) == 0 {
		return "", nil
	}
	sort.Ints(ids)
	return strconv.Itoa(ids[len(ids)-1]), nil
}

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
