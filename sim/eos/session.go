package eos

import (
	"fmt"
	"regexp"
	"time"

	"github.com/fabricc/fabricc/sim/cli"
)

var (
	sessCmd  = regexp.MustCompile(`^configure session ([\w.\-]{1,50})(?: (commit|abort)(?: timer (\d\d):(\d\d):(\d\d))?)?$`)
	timerCmd = regexp.MustCompile(`^commit timer (\d\d):(\d\d):(\d\d)$`)
)

// sessionCommand handles `configure session NAME [commit [timer T]|abort]`.
func (s *shell) sessionCommand(line string) string {
	m := sessCmd.FindStringSubmatch(line)
	if m == nil {
		return invalid(line)
	}
	name := m[1]
	sess := s.d.sessions[name]
	switch m[2] {
	case "":
		if sess == nil || sess.state == "completed" || sess.state == "aborted" {
			sess = &session{name: name, st: s.d.run.clone(), state: "pending"}
			s.d.sessions[name] = sess
			s.d.order = append(s.d.order, name)
		} else if sess.state == "pendingCommitTimer" {
			return "% Cannot enter session " + name + " (commit timer pending)"
		}
		s.enterConfig(sess)
		return ""
	case "abort":
		if sess == nil {
			return "% Session " + name + " does not exist"
		}
		s.d.abort(sess)
		return ""
	}
	if sess == nil {
		return "% Session " + name + " does not exist"
	}
	if m[3] != "" {
		return s.d.commitTimer(sess, hms(m[3], m[4], m[5]))
	}
	return s.d.commit(sess)
}

// inSession handles the commands only valid inside a session.
func (s *shell) inSession(line string) (string, bool) {
	switch line {
	case "commit":
		out := s.d.commit(s.sess)
		s.leaveConfig()
		return out, true
	case "abort":
		s.d.abort(s.sess)
		s.leaveConfig()
		return "", true
	case "rollback clean-config":
		s.sess.st = s.sess.st.cleanConfig()
		s.stack = s.stack[:1]
		return "", true
	}
	if m := timerCmd.FindStringSubmatch(line); m != nil {
		out := s.d.commitTimer(s.sess, hms(m[1], m[2], m[3]))
		s.leaveConfig()
		return out, true
	}
	return "", false
}

func hms(h, m, sec string) time.Duration {
	return time.Duration(atoi(h))*time.Hour + time.Duration(atoi(m))*time.Minute + time.Duration(atoi(sec))*time.Second
}

// commit makes the session running; it also confirms a pending timer.
func (d *Device) commit(sess *session) string {
	switch sess.state {
	case "pendingCommitTimer":
		sess.timer.Stop()
		sess.timer, sess.prev = nil, nil
		sess.state = "completed"
		return ""
	case "pending":
		d.run = sess.st.clone()
		d.afterCommit()
		sess.state = "completed"
		return ""
	}
	return fmt.Sprintf("%% Cannot commit session %s: it is %s", sess.name, sess.state)
}

// commitTimer commits now and rolls back unless confirmed within dur.
func (d *Device) commitTimer(sess *session, dur time.Duration) string {
	if sess.state != "pending" {
		return fmt.Sprintf("%% Cannot commit session %s: it is %s", sess.name, sess.state)
	}
	if dur <= 0 {
		return "% Invalid input (commit timer must be at least 00:00:01)"
	}
	sess.prev = d.run
	d.run = sess.st.clone()
	d.afterCommit()
	sess.state = "pendingCommitTimer"
	sess.expires = time.Now().Add(dur)
	sess.timer = time.AfterFunc(dur, func() { d.expire(sess) })
	return ""
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

// sessionsJSON is `show configuration sessions [detail] | json`.
func (d *Device) sessionsJSON() map[string]any {
	out := map[string]any{"maxSavedSessions": 1, "maxOpenSessions": 5}
	sessions := map[string]any{}
	for _, name := range d.order {
		sess := d.sessions[name]
		e := map[string]any{"state": sess.state, "description": "", "instances": map[string]any{}}
		if sess.state == "pendingCommitTimer" {
			left := time.Until(sess.expires).Seconds()
			e["commitBy"] = left
			out["commitTimerSessionName"] = name
			out["commitTimerExpireTime"] = left
		}
		sessions[name] = e
	}
	out["sessions"] = sessions
	return out
}

// diffs is `show session-config diffs`.
func (s *shell) diffs() string {
	if s.sess == nil {
		return "% Not in a configuration session"
	}
	return cli.Diff(render(s.d.run), render(s.sess.st), "system:/running-config", "session:/"+s.sess.name+"-session-config")
}
