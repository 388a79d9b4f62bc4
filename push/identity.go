package push

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/internal/quote"
)

// identity is how a platform says the name it calls itself: the command
// and the reader of its output (Vendor.Identity).
type identity struct {
	// Command prints the switch's hostname.
	Command string
	// Parse returns the hostname from Command's output.
	Parse func(out string) (string, error)
}

// The platforms' identity commands. Each prints the configured hostname,
// which fabricc compares with the inventory (and fabric) name before it
// touches the switch.
var (
	// EOS `show hostname` prints "Hostname: leaf-3a" and "FQDN:     leaf-3a"
	// (captures of EOS 4.26.2F and 4.29.4M in the public repository
	// otpjeff/avdsnapshot, snapshots/leaf-3a/report.md and
	// snapshots/arista720.otpjeff.local/report.md).
	eosIdentity = identity{Command: "show hostname", Parse: fieldParser("Hostname")}
	// Onyx `show hosts` prints "Hostname: <name>" first, then the name
	// servers and host mappings; Ansible's mellanox.onyx cliconf
	// (get_device_info) reads the hostname the same way, from
	// `show hosts | include Hostname`, the text after the ":".
	onyxIdentity = identity{Command: "show hosts", Parse: fieldParser("Hostname")}
	// Cumulus Linux: push runs in the Linux shell, where hostname(1)
	// prints the system's hostname, the one NVUE sets with `nv set
	// system hostname NAME` and `nv config apply` (NVIDIA's NVUE manuals,
	// "Hostname Commands"; they note that the prompt, admin@leaf1:mgmt:~$,
	// shows a new name only in a new shell, so the prompt is not read).
	cumulusIdentity = identity{Command: "hostname", Parse: firstWord}
)

// fieldParser reads the value of the first line "key: value" of out.
func fieldParser(key string) func(string) (string, error) {
	return func(out string) (string, error) {
		for _, line := range strings.Split(out, "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
			if ok && strings.EqualFold(strings.TrimSpace(k), key) {
				if v = strings.TrimSpace(v); v != "" {
					return v, nil
				}
			}
		}
		return "", fmt.Errorf("no %q line in its output", key+":")
	}
}

// firstWord is the first line of out, trimmed: hostname(1)'s output.
func firstWord(out string) (string, error) {
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line, nil
		}
	}
	return "", errors.New("it printed nothing")
}

// SameHost reports whether a hostname a switch reports names the switch
// called name: their first DNS labels (leaf1 of leaf1.lab.example.net)
// are equal, ignoring case, as DNS compares names (RFC 4343).
func SameHost(hostname, name string) bool {
	first := func(s string) string { h, _, _ := strings.Cut(strings.TrimSpace(s), "."); return h }
	return strings.EqualFold(first(hostname), first(name))
}

// IdentityError is a switch that calls itself by another name than the
// inventory entry it was reached through.
type IdentityError struct {
	// Entry is the inventory (and fabric) name, Address where it was
	// reached, Hostname what the switch calls itself (device text) and
	// Command how it was read.
	Entry, Address, Hostname, Command string
	// Other is true when Hostname is another switch of the fabric.
	Other bool
	// Verify: the run only reads (fabricc verify), and says so.
	Verify bool
}

// Error says what answered, that nothing was changed, and what to do.
func (e *IdentityError) Error() string {
	host := quote.Visible(e.Hostname)
	var b strings.Builder
	done := "nothing was changed"
	if e.Verify {
		done = "it was not checked further"
	}
	fmt.Fprintf(&b, "wrong switch: %s, the address of inventory entry %q, answers as \"%s\" (%s), not %s; %s. ",
		e.Address, e.Entry, host, e.Command, e.Entry, done)
	if e.Other {
		fmt.Fprintf(&b, "%s is another switch of the fabric: are the entries of %s and %s swapped? ", host, e.Entry, host)
	}
	fmt.Fprintf(&b, "Fix the address (and secret) of inventory entry %q; if the switch is being renamed to %s and still calls itself \"%s\", set its hostname to %s on the switch (fabricc does not set hostnames), or run with --renamed %s=%s",
		e.Entry, e.Entry, host, e.Entry, e.Entry, host)
	return b.String()
}

// checkIdentity reads the name the switch calls itself and refuses a
// switch that is not the one the inventory entry names, before anything
// is locked, staged or read back: the switch at an inventory address may
// be another one (swapped entries, a re-addressed management network),
// and its host key, which known_hosts keys by address, does not tell.
// Options.Renamed lets a switch being renamed answer by its old name.
func (d *device) checkIdentity() error {
	id := d.v.Identity
	if id.Command == "" {
		return nil
	}
	d.step(stepIdentity)
	out, err := d.conn.Send(id.Command)
	if err != nil {
		return fmt.Errorf("reading the switch's hostname: %w", err)
	}
	host, err := id.Parse(out)
	if err != nil {
		return fmt.Errorf("reading the switch's hostname from %q: %w", id.Command, err)
	}
	name := d.t.Switch.Name
	if SameHost(host, name) {
		return nil
	}
	if old, ok := d.o.Renamed[name]; ok && SameHost(host, old) {
		d.res.Notes = append(d.res.Notes, fmt.Sprintf("calls itself \"%s\", accepted by --renamed %s=%s", quote.Visible(host), name, old))
		return nil
	}
	other := false
	for i := range d.o.Fabric.Switches {
		if s := d.o.Fabric.Switches[i].Name; s != name && SameHost(host, s) {
			other = true
		}
	}
	return &IdentityError{Entry: name, Address: d.t.Device.Addr(), Hostname: host, Command: id.Command, Other: other, Verify: d.o.Action == ActionVerify}
}
