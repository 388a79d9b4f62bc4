package push

import (
	"strings"
	"testing"
)

// The answers of `show configuration sessions detail | json` after
// `configure session troubleshooting commit timer 300`, as
// napalm-automation/napalm issue #2166 ("EOS 4.32+ Pending Commit Syntax
// Change") quotes them for EOS 4.31 and 4.32, the session renamed to a
// fabricc one. The issue says the top-level commitTimerSessionName and
// commitTimerExpireTime are present only while a timer runs; its 4.32
// quote is cut before them, so eos432Timed adds them as napalm's driver
// reads them (_get_pending_commits, "Syntax change >EOS 4.32").
const (
	eos431Timed = `{
    "sessions": {
        "fabricc-t1": {
            "state": "pendingCommitTimer",
            "completedTime": 1739832190.8418295,
            "commitBy": 1739835851.8256721,
            "commitUser": "adminuser",
            "description": "",
            "instances": {}
        }
    },
    "maxSavedSessions": 1,
    "maxOpenSessions": 5,
    "mergeOnCommit": false,
    "saveToStartupConfigOnCommit": false
}`
	eos432Committed = `{
    "sessions": {
        "fabricc-t1": {
            "state": "committed",
            "completedTime": 1739832020.1816368,
            "commitUser": "adminuser",
            "description": "",
            "instances": {}
        }
    },
    "maxSavedSessions": 1,
    "maxOpenSessions": 5,
    "mergeOnCommit": false,
    "saveToStartupConfigOnCommit": false
}`
	eos431Completed = `{"sessions": {"fabricc-t1": {"state": "completed", "completedTime": 1739832190.8418295, "commitUser": "adminuser", "description": "", "instances": {}}}, "maxSavedSessions": 1, "maxOpenSessions": 5}`
)

// eos432Timed is eos432Committed while the session's timer runs.
var eos432Timed = strings.Replace(eos432Committed, `"maxSavedSessions": 1,`,
	`"maxSavedSessions": 1,
    "commitTimerSessionName": "fabricc-t1",
    "commitTimerExpireTime": 3963.87,`, 1)

// TestEOSSessionFormsOfBothReleases drives eosLeftovers and
// eosTxn.Confirmed with the pre-4.32 and the 4.32+ answers: a session
// under a timer is a timed leftover and not confirmed in both forms, a
// committed one without a timer is confirmed and makes the unsaved
// running-config the stale lock's push's own.
func TestEOSSessionFormsOfBothReleases(t *testing.T) {
	const (
		timed   = "EOS session fabricc-t1 committed with a timer, not confirmed (the switch reverts it when the timer runs out)"
		ours    = "running-config changes not saved to startup-config by the interrupted push t1"
		foreign = "EOS running-config with unsaved changes that no fabricc push made (it differs from startup-config)"
	)
	for _, tc := range []struct {
		name, sessions string
		want           string // the one leftover
		confirmed      bool
	}{
		{"4.31 timer", eos431Timed, timed, false},
		{"4.32 timer", eos432Timed, timed, false},
		{"4.31 confirmed", eos431Completed, ours, true},
		{"4.32 confirmed", eos432Committed, ours, true},
		{"4.32 another's session", strings.ReplaceAll(eos432Committed, "fabricc-t1", "fabricc-t9"), foreign, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cmdConn{answers: map[string]string{
				"show configuration sessions detail | json": tc.sessions,
				"show running-config":                       "interface Ethernet1/1\n   mtu 9214\n",
				"show startup-config":                       "interface Ethernet1/1\n",
			}}
			los, err := eosLeftovers(c, &Holder{ID: "t1"})
			if err != nil {
				t.Fatal(err)
			}
			if len(los) != 1 || los[0].what != tc.want {
				var got []string
				for _, lo := range los {
					got = append(got, lo.what)
				}
				t.Errorf("leftovers = %q, want [%q]", got, tc.want)
			}
			ok, err := (&eosTxn{name: "fabricc-t1"}).Confirmed(c)
			if err != nil || ok != tc.confirmed {
				t.Errorf("Confirmed = %v, %v; want %v", ok, err, tc.confirmed)
			}
		})
	}
}

// TestEOSTimerKeyAbsentOrEmpty (review mrr 5): an absent (or null)
// commitTimerSessionName is the form before 4.32, where a session's
// "pendingCommitTimer" state marks it timed; a present one is the 4.32
// form, whose name is the timed session even when it is "", so a
// session's state marks nothing there.
func TestEOSTimerKeyAbsentOrEmpty(t *testing.T) {
	pending := `"sessions": {"fabricc-t1": {"state": "pendingCommitTimer"}}`
	for _, tc := range []struct{ name, out, timed string }{
		{"absent", `{` + pending + `}`, "fabricc-t1"},
		{"null", `{` + pending + `, "commitTimerSessionName": null}`, "fabricc-t1"},
		{"empty", `{` + pending + `, "commitTimerSessionName": ""}`, ""},
		{"named", `{"sessions": {}, "commitTimerSessionName": "fabricc-t2"}`, "fabricc-t2"},
	} {
		l, err := parseEOSSessions(tc.out)
		if err != nil || l.timed != tc.timed {
			t.Errorf("%s: timed %q, %v; want %q", tc.name, l.timed, err, tc.timed)
		}
	}
	if l, _ := parseEOSSessions(`{"sessions": {}, "commitTimerSessionName": "fabricc-t2"}`); l.states["fabricc-t2"] != "" || len(l.states) != 1 {
		t.Errorf("a named timed session the list lacks: states %q, want it listed", l.states)
	}
	if _, err := parseEOSSessions(`{"commitTimerSessionName": 5}`); err == nil {
		t.Error("a timer name that is not a string read without an error")
	}
}
