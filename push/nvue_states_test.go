package push

import (
	"slices"
	"testing"
)

// gpncfgStates is NT_VALID of the public NVUE REST client
// entropia/gpn-noc-gpncfg (gpncfg/deployment/__init__.py): "all nvue
// transitions that are valid", every revision state it has met.
var gpncfgStates = []string{
	"applied", "applied_and_saved", "apply", "apply_error", "apply_fail", "auto_save", "auto_saving",
	"ays", "ays_fail", "ays_no", "ays_yes", "checked", "checking", "confirm", "confirm_fail", "confirm_no",
	"confirm_yes", "detached", "ignore_fail", "ignore_fail_no", "ignore_fail_yes", "inactive", "invalid",
	"pending", "ready", "ready_error", "readying", "reloaded", "reloading", "save", "saving", "saved",
	"verified", "verify_error", "verifying",
}

// TestNVUEStateNamesAreNVUEs: every revision state push names is one
// NVUE has (review rsim #3: recovery keyed on "confirm_failed", which it
// has not).
func TestNVUEStateNamesAreNVUEs(t *testing.T) {
	named := [][]string{nvueAppliedStates, nvueRolledBackStates, nvueFailedStates, {nvueConfirmWaiting}}
	for _, list := range named {
		for _, st := range list {
			if !slices.Contains(gpncfgStates, st) {
				t.Errorf("state %q is not one of NVUE's", st)
			}
		}
	}
}

// TestNVUERolledBackRevisionIsOurs is review rsim #3: startup.yaml holds
// the fabricc revision that its confirm window rolled back
// ("confirm_fail") or --confirm-no is rejecting ("confirm_no"); recovery
// knows it for fabricc's own and saves over it, where it reported
// unsaved changes no fabricc push made.
func TestNVUERolledBackRevisionIsOurs(t *testing.T) {
	for _, state := range []string{"confirm_fail", "confirm_no"} {
		t.Run(state, func(t *testing.T) {
			revs := `{"1": {"state": "applied_and_saved", "message": "initial configuration"},
				"2": {"state": "` + state + `", "message": "fabricc-killed"}}`
			c := cmdConn{answers: map[string]string{
				"nv config revision -o json":     revs,
				"nv config diff startup applied": "- set:\n    interface:\n      swp1:\n        link:\n          mtu: 9216\n",
				"nv config diff startup 2":       "",
				"nv config diff":                 "",
			}}
			los, err := nvueLeftovers(c, nil)
			if err != nil {
				t.Fatal(err)
			}
			const want = "NVUE startup.yaml holds revision 2 (fabricc-killed), which its confirm window rolled back: auto save wrote it at apply"
			if len(los) != 1 || los[0].what != want || !los[0].ours {
				t.Errorf("leftovers = %+v, want our %q", los, want)
			}
		})
	}
}

// TestNVUEAutoSaveIsApplied: a revision read while NVUE auto-saves it
// ("auto_save", in gpncfg's NT_APPLIED) is the applied one a rollback
// returns to, and a confirmed push in that state is confirmed.
func TestNVUEAutoSaveIsApplied(t *testing.T) {
	revs := `{"1": {"state": "applied_and_saved", "message": "initial configuration"},
		"2": {"state": "auto_save", "message": "fabricc-t2"}}`
	if id, err := appliedRevision(revs); err != nil || id != "2" {
		t.Errorf("appliedRevision = %q, %v; want 2", id, err)
	}
	c := cmdConn{answers: map[string]string{"nv config revision -o json": revs}}
	if ok, err := (&nvueTxn{message: "fabricc-t2"}).Confirmed(c); err != nil || !ok {
		t.Errorf("Confirmed = %v, %v; want true", ok, err)
	}
}
