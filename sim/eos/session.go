package eos

import (
	"errors"
	"fmt"
	"time"

	"github.com/fabricc/fabricc/sim/cli"
)

// enterSession is `configure session [NAME]`: a new session copies the
// running configuration; a pending one is entered again.
func (s *shell) enterSession(name string) error {
	if name == "" {
		name = fmt.Sprintf("session%d", len(s.d.order)+1)
	}
	sess := s.d.sessions[name]
	switch {
	case (sess == nil || sess.state == "completed" || sess.state == "aborted") && s.d.pending() >= maxPending:
		// EOS keeps at most five uncommitted sessions ("Maximum number
		// of pending sessions: 5" in `show configuration sessions`) and
		// refuses a sixth in the words Ansible's arista.eos terminal
		// plugin matches (plugins/terminal/eos.py, terminal_stderr_re),
		// which carry no "%": whether EOS prints one before them is not
		// shown, so the simulator prints none.
		return errPendingSessions
	case sess == nil || sess.state == "completed" || sess.state == "aborted":
		sess = &session{name: name, st: s.d.run.clone(), state: "pending"}
		s.d.sessions[name] = sess
		s.d.order = append(s.d.order, name)
	case sess.state == "pendingCommitTimer":
		return fmt.Errorf("%% Cannot enter session %s (commit timer pending)", name)
	}
	s.enterConfig(sess)
	return nil
}

// errPendingSessions is the refusal of a sixth pending session, printed
// as it is (errText adds no "%").
var errPendingSessions = errors.New("Maximum number of pending sessions has been reached")

// maxPending is how many uncommitted sessions EOS keeps.
const maxPending = 5

// pending counts the sessions not yet committed or aborted.
func (d *Device) pending() int {
	n := 0
	for _, sess := range d.sessions {
		if sess.state == "pending" || sess.state == "pendingCommitTimer" {
			n++
		}
	}
	return n
}

// inSession is the session the shell is in, for the commands only a
// session has.
func (s *shell) inSession() (*session, error) {
	if s.sess == nil {
		return nil, fmt.Errorf("%% Not in a configuration session")
	}
	return s.sess, nil
}

func (s *shell) named(name string) (*session, error) {
	sess := s.d.sessions[name]
	if sess == nil {
		return nil, fmt.Errorf("%% Session %s does not exist", name)
	}
	return sess, nil
}

// commitNamed is `configure session NAME commit [timer hh:mm:ss]`.
func (s *shell) commitNamed(name string, timer bool, hms string) error {
	sess, err := s.named(name)
	if err != nil {
		return err
	}
	if timer {
		return s.d.commitTimer(sess, hms)
	}
	return s.d.commit(sess)
}

// abortNamed is `configure session NAME abort`.
func (s *shell) abortNamed(name string) error {
	sess, err := s.named(name)
	if err != nil {
		return err
	}
	if sess.state == "completed" {
		// A committed session has nothing left to abort (no public
		// sample of the wording).
		return fmt.Errorf("%% Error: session %s is completed and cannot be aborted", name)
	}
	s.d.abort(sess)
	return nil
}

// parseHMS reads hh:mm:ss.
func parseHMS(v string) (time.Duration, error) {
	var h, m, sec int
	if _, err := fmt.Sscanf(v, "%d:%d:%d", &h, &m, &sec); err != nil {
		return 0, fmt.Errorf("%% Invalid input (commit timer must be hh:mm:ss)")
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second, nil
}

// commit makes the session running; it also confirms a pending timer.
func (d *Device) commit(sess *session) error {
	switch sess.state {
	case "pendingCommitTimer":
		sess.timer.Stop()
		sess.timer, sess.prev = nil, nil
		sess.state = "completed"
		return nil
	case "pending":
		d.run = sess.st.clone()
		d.afterCommit()
		sess.state = "completed"
		return nil
	}
	return fmt.Errorf("%% Cannot commit session %s: it is %s", sess.name, sess.state)
}

// commitTimer commits now and rolls back unless confirmed within hms.
func (d *Device) commitTimer(sess *session, hms string) error {
	if sess.state != "pending" {
		return fmt.Errorf("%% Cannot commit session %s: it is %s", sess.name, sess.state)
	}
	dur, err := parseHMS(hms)
	if err != nil {
		return err
	}
	if dur <= 0 {
		return fmt.Errorf("%% Invalid input (commit timer must be at least 00:00:01)")
	}
	sess.prev = d.run
	d.run = sess.st.clone()
	d.afterCommit()
	sess.state = "pendingCommitTimer"
	sess.expires = time.Now().Add(dur)
	sess.timer = time.AfterFunc(dur, func() { d.expire(sess) })
	return nil
}

// expire is the commit timer running out: roll back.
func (d *Device) expire(sess *session) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if sess.state != "pendingCommitTimer" {
		return
	}
	d.run = sess.prev
	sess.prev, sess.timer = nil, nil
	sess.state = "aborted"
}

// abort discards a pending session or rolls back a timer commit.
func (d *Device) abort(sess *session) {
	if sess.state == "pendingCommitTimer" {
		sess.timer.Stop()
		d.run = sess.prev
		sess.prev, sess.timer = nil, nil
	}
	sess.state = "aborted"
}

// afterCommit applies the drift fault once, after the first commit.
func (d *Device) afterCommit() {
	if d.opts.Drift && !d.drifted {
		d.drifted = true
		d.run.drift()
	}
}

// sessionsJSON is `show configuration sessions [detail] | json`, in
// the form of the device's release. napalm-automation/napalm issue #2166
// ("EOS 4.32+ Pending Commit Syntax Change") quotes both after `commit
// timer`: up to 4.31 the session is "pendingCommitTimer" with "commitBy"
// (a Unix time), "completed" once confirmed; from 4.32 it is
// "committed" at once, and the top-level "commitTimerSessionName" and
// "commitTimerExpireTime" are there only while its timer runs (napalm's
// driver compares the expire time with `show version`'s uptime, so it is
// printed as seconds since boot). "pending" and "aborted" are taken to
// be the same in both (no 4.32 sample shows them).
func (d *Device) sessionsJSON() map[string]any {
	out := map[string]any{"maxSavedSessions": 1, "maxOpenSessions": 5, "mergeOnCommit": false, "saveToStartupConfigOnCommit": false}
	since432 := cli.VersionAtLeast(d.opts.Version, eosSessionsSyntax)
	sessions := map[string]any{}
	for _, name := range d.order {
		sess := d.sessions[name]
		e := map[string]any{"state": sess.state, "description": "", "instances": map[string]any{}}
		switch {
		case since432 && sess.state == "pendingCommitTimer":
			e["state"] = "committed"
			out["commitTimerSessionName"] = name
			out["commitTimerExpireTime"] = sess.expires.Sub(d.booted).Seconds()
		case since432 && sess.state == "completed":
			e["state"] = "committed"
		case sess.state == "pendingCommitTimer":
			e["commitBy"] = float64(sess.expires.UnixNano()) / 1e9
		}
		sessions[name] = e
	}
	out["sessions"] = sessions
	return out
}

// eosSessionsSyntax is the first release with the 4.32 form of `show
// configuration sessions detail` (sessionsJSON).
const eosSessionsSyntax = "4.32"

// sessionDiff is `show session-config [named NAME] diffs`: a unified
// diff of running against the session.
func (d *Device) sessionDiff(sess *session) string {
	return cli.Diff(d.render(d.run), d.render(sess.st), "system:/running-config", "session:/"+sess.name+"-session-config")
}
