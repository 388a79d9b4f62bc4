package push

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/user"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The device lock keeps two pushes (two operators, two machines) from
// working on one switch at once. The switch itself holds it, in what
// its OS offers and keeps for everyone who logs in:
//
//   - EOS and Cumulus Linux: a file created with bash's noclobber option
//     (`set -C`: `>` refuses to overwrite an existing file, so exactly one
//     writer creates it; GNU Bash Reference Manual, "The Set Builtin").
//     EOS runs it with `bash timeout N ...` on /mnt/flash, the flash file
//     system that survives a reload (Arista EOS User Manual, "bash";
//     arista.eos's cliconf reads /mnt/flash/boot-config the same way);
//     Cumulus in the login shell on /var/tmp, which a reboot keeps
//     (Filesystem Hierarchy Standard, /var/tmp).
//   - Onyx, which has no shell: a configuration file named after the
//     holder, written with `configuration write to NAME no-switch` (the
//     active file stays; NVIDIA Onyx User Manual, "Configuration
//     Management") and listed by `show configuration files`. Writing a
//     file is not a test-and-set, so each contender writes its own and
//     then lists them: it holds the lock only when its file is the only
//     lock file; otherwise it deletes its file (`configuration delete`)
//     and waits. Of two contenders at least one sees the other's file.
//
// The lock names its holder (user, host, fabricc pid, transaction) and
// where that pid means something: the machine's boot and the PID
// namespace (Holder.Namespace). A lock whose holder ran on this host, in
// this boot and this PID namespace, in a process that is gone is stale
// and is broken by the next push; any other (another host, another
// container sharing this host's name, a lock of a fabricc that did not
// record its namespace) is broken only with --break-lock.

// Holder is who holds a device lock: the transaction and the fabricc
// process behind it. Every field is reduced to letters, digits, '-' and
// '_' before it reaches a device.
type Holder struct {
	ID   string `json:"id"`
	User string `json:"user"`
	// Host is the host name, cut short, with a hash of the whole name:
	// two hosts whose names start alike still differ.
	Host string `json:"host"`
	PID  int    `json:"pid"`
	// Namespace is where PID is meaningful: the inode of the PID
	// namespace and the first 12 hex digits of the kernel's boot_id
	// ("4026531836-700838f8763d"; localNamespace). Empty in the locks of
	// older fabricc versions and off Linux.
	Namespace string `json:"namespace,omitempty"`
	// Inherits are the transactions of the stale locks this holder took
	// the lock over from (takeover), in the order taken: their leftovers are
	// still to be recovered, so a push interrupted right after breaking
	// a stale lock leaves a lock that still names them.
	Inherits []string `json:"inherits,omitempty"`
	// raw is a lock file's text when it did not parse.
	raw string
}

// LocalHolder is this fabricc process as the holder of transaction id.
func LocalHolder(id string) Holder {
	name := os.Getenv("USER")
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	return Holder{ID: lockField(id, 40), User: lockField(name, 8), Host: hostField(host), PID: os.Getpid(), Namespace: localNamespace()}
}

// localNamespace names this process's PID namespace on this boot of
// this machine: "INODE-BOOT". A pid is only meaningful in its PID
// namespace, and two containers on one machine may share the host name
// (host networking, --uts host) but not the PID namespace, so host name
// and kill(pid, 0) alone take a live push in the other container for a
// dead one. The PID namespace is told by the inode of /proc/self/ns/pid
// (namespaces(7), "The /proc/[pid]/ns/ directory": same inode, same
// namespace; pid_namespaces(7)); the machine and boot by
// /proc/sys/kernel/random/boot_id, a random UUID made once per boot
// (random(4)), which containers share with their host while inodes are
// only unique within one running kernel. machine-id(5) is not used: it
// survives reboots and containers often bind-mount the host's copy.
// Empty when either cannot be read (not Linux, no /proc): such a lock
// is never taken for stale.
var localNamespace = sync.OnceValue(func() string {
	link, err := os.Readlink("/proc/self/ns/pid") // "pid:[4026531836]"
	if err != nil {
		return ""
	}
	inode, ok := strings.CutPrefix(link, "pid:[")
	inode, ok2 := strings.CutSuffix(inode, "]")
	if _, err := strconv.ParseUint(inode, 10, 64); !ok || !ok2 || err != nil {
		return ""
	}
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	id := strings.ReplaceAll(strings.TrimSpace(string(boot)), "-", "")
	if len(id) < 12 {
		return ""
	}
	return lockField(inode+"-"+id[:12], 40)
})

// lockField keeps letters, digits, '-' and '_' of s (others become '-'),
// at most n of them; "unknown" when nothing is left.
// ValidTxn reports whether s can be a device lock's transaction as a
// lock records it (lockField of at most 40 characters), which
// --break-lock names.
func ValidTxn(s string) bool { return s != "" && lockField(s, 40) == s }

func lockField(s string, n int) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '-'
		}
	}
	if len(b) > n {
		b = b[:n]
	}
	if len(b) == 0 {
		return "unknown"
	}
	return string(b)
}

// hostField is the first 8 characters of host and 4 hex digits of its
// SHA-256 ("compute--3fa2").
func hostField(host string) string {
	sum := sha256.Sum256([]byte(host))
	return lockField(host, 8) + "-" + hex.EncodeToString(sum[:2])
}

// Since is when the transaction started, read from its ID
// ("20060102-150405-..."); zero when the ID has no time.
func (h Holder) Since() time.Time {
	if len(h.ID) < 15 {
		return time.Time{}
	}
	t, err := time.Parse("20060102-150405", h.ID[:15])
	if err != nil {
		return time.Time{}
	}
	return t
}

// String names the holder for a message.
func (h Holder) String() string {
	if h.raw != "" {
		return fmt.Sprintf("an unreadable lock (%q)", h.raw)
	}
	s := fmt.Sprintf("user %s on host %s (fabricc pid %d", h.User, h.Host, h.PID)
	if h.Namespace != "" {
		s += " in namespace " + h.Namespace
	}
	s += ", transaction " + h.ID
	if t := h.Since(); !t.IsZero() {
		s += ", since " + t.Format("2006-01-02 15:04:05 UTC")
	}
	if len(h.Inherits) > 0 {
		s += ", taken over from transaction " + strings.Join(h.Inherits, ", ")
	}
	return s + ")"
}

// txns are the transactions whose leftovers h's lock stands for: its
// own and those it inherits.
func (h *Holder) txns() []string {
	if h == nil {
		return nil
	}
	return append([]string{h.ID}, h.Inherits...)
}

// maxInherits bounds the transactions a lock carries: a lock taken over
// again and again (each push killed while breaking the last one) keeps
// the first ones, so that its line stays short; a fifth lock is not
// taken over (mayBreak), and the push refuses the switch, naming it.
const maxInherits = 4

// heir is me taking over old's lock: me inheriting old's transaction
// and those old inherited, after those me already has, without repeats.
func heir(me, old Holder) Holder {
	var ids []string
	for _, id := range append(append(append([]string{}, me.Inherits...), old.ID), old.Inherits...) {
		if id != me.ID && !slices.Contains(ids, id) && len(ids) < maxInherits {
			ids = append(ids, id)
		}
	}
	me.Inherits = ids
	return me
}

// same reports whether h and o are one lock.
func (h Holder) same(o Holder) bool {
	return h.ID == o.ID && h.PID == o.PID && h.Host == o.Host && h.Namespace == o.Namespace && h.raw == o.raw
}

// marker is the lock file's line; ns= only when the namespace is known,
// so a holder without one writes what older versions wrote.
func (h Holder) marker() string {
	m := fmt.Sprintf("%s id=%s pid=%d user=%s host=%s", lockTag, h.ID, h.PID, h.User, h.Host)
	if h.Namespace != "" {
		m += " ns=" + h.Namespace
	}
	if len(h.Inherits) > 0 {
		m += " inherits=" + strings.Join(h.Inherits, ",")
	}
	return m
}

// lockTag starts a lock file's line and an Onyx lock file's name.
const lockTag = "fabricc-lock"

// parseMarker reads a lock file's text.
func parseMarker(text string) Holder {
	text = strings.TrimSpace(text)
	f := strings.Fields(text)
	if len(f) == 0 || f[0] != lockTag {
		return Holder{raw: text}
	}
	h := Holder{}
	for _, kv := range f[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "id":
			h.ID = v
		case "pid":
			h.PID, _ = strconv.Atoi(v)
		case "user":
			h.User = v
		case "host":
			h.Host = v
		case "ns":
			h.Namespace = v
		case "inherits":
			for _, id := range strings.Split(v, ",") {
				if id != "" && len(h.Inherits) < maxInherits {
					h.Inherits = append(h.Inherits, lockField(id, 40))
				}
			}
		}
	}
	if h.ID == "" {
		return Holder{raw: text}
	}
	return h
}

// localStale reports whether h is a lock left by a fabricc process of
// this host, boot and PID namespace that no longer runs. Any other
// holder is never taken for stale: its process cannot be seen from
// here. That includes a lock with no namespace (written by a fabricc
// before it recorded one): its pid may belong to another container of
// this host, and breaking a live push's lock discards its session, while
// keeping a dead one costs one --break-lock.
func localStale(h Holder) bool {
	me := LocalHolder("")
	if h.raw != "" || h.Host != me.Host || h.Namespace == "" || h.Namespace != me.Namespace || h.PID <= 0 || h.PID == me.PID {
		return false
	}
	return !processAlive(h.PID)
}

// processAlive asks the kernel whether pid runs (signal 0); a process
// it may not signal runs, and any other doubt counts as running.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return !(errors.Is(err, os.ErrProcessDone) || errors.Is(err, syscall.ESRCH))
}

// locker is how one OS holds the device lock.
type locker interface {
	// acquire takes the lock for me; when another holds it, it returns
	// that holder and leaves the lock alone.
	acquire(c Conn, me Holder) (*Holder, error)
	// release drops the lock when me holds it.
	release(c Conn, me Holder) error
	// holder reads who holds the lock; nil when nobody does.
	holder(c Conn) (*Holder, error)
	// takeover makes me (heir of old) the holder of old's lock (stale,
	// or --break-lock) without a moment where no lock names old's
	// transaction: old's record goes only when me's is there. When a
	// third holder has the lock, it returns it and leaves the lock to it.
	takeover(c Conn, me, old Holder) (*Holder, error)
	// handBack gives the lock back to old, whose leftovers this run did
	// not resolve (a dry run, a failure before the recovery).
	handBack(c Conn, me, old Holder) error
	// where says where the lock is kept, for a message.
	where() string
}

// fileLock is the lock file of EOS (prefix "bash timeout 10 ") and
// Cumulus (no prefix).
type fileLock struct {
	path, prefix string
}

// lockTaken is what the lock command prints, on a line of its own, when
// it created the file.
const lockTaken = "fabricc-lock-taken"

func (l fileLock) acquire(c Conn, me Holder) (*Holder, error) {
	for range 3 {
		out, err := c.Send(l.prefix + "set -C; echo " + me.marker() + " > " + l.path + " && echo " + lockTaken + "; set +C")
		if err != nil {
			return nil, err
		}
		if hasLine(out, lockTaken) {
			return nil, nil
		}
		h, err := l.holder(c)
		if err != nil || h != nil {
			return h, err
		}
		// Released between the two commands: try again.
	}
	return nil, fmt.Errorf("the lock file %s comes and goes; try again", l.path)
}

func (l fileLock) holder(c Conn) (*Holder, error) {
	out, err := c.Send(l.prefix + "cat " + l.path)
	if err != nil {
		return nil, err
	}
	if strings.Contains(out, "No such file or directory") {
		return nil, nil
	}
	h := parseMarker(out)
	return &h, nil
}

func (l fileLock) release(c Conn, me Holder) error {
	h, err := l.holder(c)
	if err != nil || h == nil || !h.same(me) {
		return err
	}
	_, err = c.Send(l.prefix + "rm -f " + l.path)
	return err
}

// takeover writes me's line over old's (noclobber off: `set +C`; not
// `>|`, whose `|` the EOS CLI takes for an output pipe), one file at
// every moment, then reads it back: a contender that wrote in between
// holds it.
func (l fileLock) takeover(c Conn, me, old Holder) (*Holder, error) {
	if err := l.replace(c, old, me); err != nil {
		return nil, err
	}
	now, err := l.holder(c)
	if err != nil || now != nil && now.same(me) {
		return nil, err
	}
	if now == nil {
		return nil, errors.New("the lock file " + l.path + " went away while it was taken over; try again")
	}
	return now, nil
}

func (l fileLock) where() string { return "the file " + l.path }

func (l fileLock) handBack(c Conn, me, old Holder) error { return l.replace(c, me, old) }

// replace writes to's line over from's, when the file still holds from's.
func (l fileLock) replace(c Conn, from, to Holder) error {
	now, err := l.holder(c)
	if err != nil || now == nil || !now.same(from) {
		return err // gone already, or taken anew: not the lock to replace
	}
	_, err = c.Send(l.prefix + "set +C; echo " + to.marker() + " > " + l.path)
	return err
}

// hasLine reports whether out has a line equal to want (the device
// echoes the command, which holds want inside a longer line).
func hasLine(out, want string) bool {
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}

// onyxLock is the Onyx lock: one configuration file per contender,
// named "fabricc-lock.<id>.<pid>.<user>.<host>.<namespace>" (without
// ".<namespace>" when it is unknown, as older versions named it).
type onyxLock struct{}

func onyxLockName(h Holder) string {
	name := fmt.Sprintf("%s.%s.%d.%s.%s", lockTag, h.ID, h.PID, h.User, h.Host)
	if h.Namespace != "" {
		name += "." + h.Namespace
	}
	return name
}

func parseOnyxLockName(name string) (Holder, bool) {
	f := strings.Split(name, ".")
	if len(f) != 5 && len(f) != 6 || f[0] != lockTag {
		return Holder{}, false
	}
	pid, err := strconv.Atoi(f[2])
	if err != nil {
		return Holder{}, false
	}
	h := Holder{ID: f[1], PID: pid, User: f[3], Host: f[4]}
	if len(f) == 6 {
		h.Namespace = f[5]
	}
	return h, true
}

func (onyxLock) acquire(c Conn, me Holder) (*Holder, error) {
	mine := onyxLockName(me)
	if err := onyxConfigure(c, []string{"configuration write to " + mine + " no-switch"}); err != nil {
		return nil, err
	}
	others, err := onyxLocks(c)
	if err != nil {
		return nil, err
	}
	var first *Holder
	for _, h := range others {
		if !h.same(me) {
			first = &h
			break
		}
	}
	if first == nil {
		return nil, nil
	}
	return first, onyxConfigure(c, []string{"configuration delete " + mine})
}

func (onyxLock) holder(c Conn) (*Holder, error) {
	locks, err := onyxLocks(c)
	if err != nil || len(locks) == 0 {
		return nil, err
	}
	return &locks[0], nil
}

// release deletes me's lock file and those of the transactions me took
// the lock over from (takeover keeps them until then).
func (onyxLock) release(c Conn, me Holder) error {
	locks, files, err := onyxLockFiles(c)
	if err != nil {
		return err
	}
	var del []string
	for _, l := range locks {
		if l.same(me) || slices.Contains(me.Inherits, l.ID) {
			del = append(del, onyxLockName(l))
		}
	}
	return onyxDeleteFiles(c, files, del)
}

// takeover writes me's lock file beside old's and keeps old's: a lock
// file's name has no room for the transactions it inherits (a name is
// cut at 80 characters or so), so old's file names old's transaction
// until me releases. me holds the lock when every lock file is its own
// or one it inherits.
func (onyxLock) takeover(c Conn, me, old Holder) (*Holder, error) {
	mine := onyxLockName(me)
	if err := onyxConfigure(c, []string{"configuration write to " + mine + " no-switch"}); err != nil {
		return nil, err
	}
	locks, err := onyxLocks(c)
	if err != nil {
		return nil, err
	}
	for _, h := range locks {
		if !h.same(me) && !slices.Contains(me.Inherits, h.ID) {
			return &h, onyxConfigure(c, []string{"configuration delete " + mine})
		}
	}
	return nil, nil
}

func (onyxLock) where() string { return "the configuration file " + lockTag + ".*" }

// handBack deletes me's lock file; old's is still there (release of me
// without the transactions it inherits deletes only me's file).
func (onyxLock) handBack(c Conn, me, _ Holder) error {
	me.Inherits = nil
	return onyxLock{}.release(c, me)
}

// onyxLocks lists the lock files, oldest transaction first.
func onyxLocks(c Conn) ([]Holder, error) {
	locks, _, err := onyxLockFiles(c)
	return locks, err
}

// onyxLockFiles reads `show configuration files` once: the lock files,
// oldest transaction first, and the whole listing.
func onyxLockFiles(c Conn) ([]Holder, onyxFileList, error) {
	out, err := c.Send("show configuration files")
	if err != nil {
		return nil, onyxFileList{}, err
	}
	files := onyxFiles(out)
	var locks []Holder
	for _, name := range files.names {
		if h, ok := parseOnyxLockName(name); ok {
			locks = append(locks, h)
		}
	}
	sort.Slice(locks, func(i, j int) bool { return onyxLockName(locks[i]) < onyxLockName(locks[j]) })
	return locks, files, nil
}

// onyxDeleteFiles deletes the configuration files names and then the
// NAME.bak copies files listed for them. Whether Onyx deletes a .bak
// with its file has no public sample, so the .bak files still listed
// after the first deletion are deleted by name.
func onyxDeleteFiles(c Conn, files onyxFileList, names []string) error {
	if len(names) == 0 {
		return nil
	}
	if err := onyxConfigure(c, onyxDeletes(names)); err != nil {
		return err
	}
	var baks []string
	for _, n := range names {
		if files.hasBak(n) {
			baks = append(baks, n)
		}
	}
	if len(baks) == 0 {
		return nil
	}
	out, err := c.Send("show configuration files")
	if err != nil {
		return err
	}
	var left []string
	for _, n := range baks {
		if onyxFiles(out).hasBak(n) {
			left = append(left, n+onyxBak)
		}
	}
	if len(left) == 0 {
		return nil
	}
	return onyxConfigure(c, onyxDeletes(left))
}

// onyxDeletes are the `configuration delete NAME` lines of names.
func onyxDeletes(names []string) []string {
	lines := make([]string, len(names))
	for i, n := range names {
		lines[i] = "configuration delete " + n
	}
	return lines
}

// onyxFileList is `show configuration files`: the file names, the
// active one and whether the running configuration has unsaved changes
// (CSM documentation sample: "Active configuration: X", "Unsaved changes
// : yes"). baks are the NAME.bak copies Onyx keeps of a file written
// again (Cray-HPE docs-csm, "Load Saved Switch Configuration", Mellanox:
// "csm1.0.canu1.1.21.bak" beside "csm1.0.canu1.1.21 (active)"), apart
// from names, so that a lock's copy is never read as a second lock.
type onyxFileList struct {
	names, baks []string
	active      string
	unsaved     bool
}

// onyxBak ends the name of the copy Onyx keeps of a file written again.
const onyxBak = ".bak"

func onyxFiles(out string) onyxFileList {
	var l onyxFileList
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		k, v, found := strings.Cut(line, ":")
		switch {
		case line == "":
		case found && strings.TrimSpace(k) == "Active configuration":
			l.active = strings.TrimSpace(v)
		case found && strings.TrimSpace(k) == "Unsaved changes":
			l.unsaved = strings.TrimSpace(v) == "yes"
		case !found:
			name := strings.TrimSpace(strings.TrimSuffix(line, "(active)"))
			if strings.HasSuffix(name, onyxBak) {
				l.baks = append(l.baks, name)
			} else {
				l.names = append(l.names, name)
			}
		}
	}
	return l
}

func (l onyxFileList) has(name string) bool { return slices.Contains(l.names, name) }

// hasBak is whether the listing has name's NAME.bak.
func (l onyxFileList) hasBak(name string) bool { return slices.Contains(l.baks, name+onyxBak) }
