// Package sim runs simulated switches for tests and `fabricc lab`: one SSH
// server per switch on 127.0.0.1 that behaves like NVIDIA Onyx, Arista EOS
// or Cumulus Linux (NVUE) closely enough to exercise every path of
// `fabricc push`: prompts and privilege modes, the command grammar the
// fabricc targets emit, show commands with the OS's JSON shapes, the OS's
// transaction model (EOS configure sessions with commit timers, NVUE
// revisions with apply --confirm, Onyx immediate commands with
// configuration files) and injected faults.
//
// Each accepted command changes a structured device state (VLANs, per-port
// fields, QoS maps, PFC, ETS, ECN, buffers, watchdog); show commands render
// from that state. See README.md for the exact grammar per dialect.
package sim

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"regexp"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
)

// Options configure one simulated switch.
type Options struct {
	// Name is the switch hostname shown in prompts ("leaf1").
	Name string
	// Platform selects the dialect: model.PlatformOnyx, PlatformEOS or
	// PlatformCumulus.
	Platform model.Platform
	// Model is the hardware model ("SN2700", "7050CX3-32S"): the switch
	// has every port of it (ports.go). Empty: the platform's default
	// model (SN2700 for Onyx and Cumulus, 7050CX3-32S for EOS).
	Model string
	// OSVersion is the release `show version` reports ("3.10.4206",
	// "4.32.2F", "5.9.2"); Onyx's JSON shapes follow it. Empty: the
	// platform's default release.
	OSVersion string
	// Users maps user name to password. A user may also log in with any
	// key in AuthorizedKeys.
	Users map[string]string
	// AuthorizedKeys are the public keys accepted for any user in Users
	// (or any user at all when Users is empty).
	AuthorizedKeys []ssh.PublicKey
	// EnablePassword, when set, is asked for by `enable` (EOS, Onyx).
	EnablePassword string
	// HostKey is the server key; an ed25519 key is generated when nil.
	HostKey ssh.Signer
	// CumulusNoVRFPrompt selects the plain Cumulus prompt
	// `cumulus@leaf1:~$` instead of `cumulus@leaf1:mgmt:~$`.
	CumulusNoVRFPrompt bool
	// Faults injects failures.
	Faults Faults
	// Neighbors are the LLDP neighbors the switch has learned, by port
	// (the OS's port name); the LLDP show commands list them. StartLab
	// derives them from the fabric's links (LabNeighbors); Miscable and
	// HideNeighbor change them before the switch starts.
	Neighbors map[string][]cli.Neighbor
	// Initial, when set, is the running configuration the switch starts
	// with, replayed line by line through the switch's own grammar as an
	// operator typing it would, then saved (preload.go): EOS `show
	// running-config` text, Onyx `show running-config` lines, Cumulus
	// `nv set` and `nv unset` lines as `nv config show -o commands`
	// prints them. A line the grammar refuses, or a control character,
	// makes Start fail with a *PreloadError. The drift fault is not
	// spent on the replay.
	Initial string
	// InitialName names Initial in errors (its file name).
	InitialName string
}

// Miscable swaps the LLDP neighbors of ports a and b, as if their
// cables had been plugged into each other's port.
func (o *Options) Miscable(a, b string) {
	if o.Neighbors == nil {
		o.Neighbors = map[string][]cli.Neighbor{}
	}
	o.Neighbors[a], o.Neighbors[b] = o.Neighbors[b], o.Neighbors[a]
	for _, p := range []string{a, b} {
		if len(o.Neighbors[p]) == 0 {
			delete(o.Neighbors, p)
		}
	}
}

// HideNeighbor removes the LLDP neighbor of port, as if it sent no LLDP
// (a host without an LLDP agent, LLDP off).
func (o *Options) HideNeighbor(port string) { delete(o.Neighbors, port) }

// Faults are the failures a simulated switch can inject.
type Faults struct {
	// Latency delays the answer to every command.
	Latency time.Duration
	// DropAfter, when > 0, closes the connection instead of answering the
	// DropAfter-th command line of a session (empty lines not counted).
	DropAfter int
	// Reject makes every command line matching it fail with the OS's own
	// error (EOS `% Invalid input`, Onyx `% Unrecognized command`, NVUE
	// `Error:` for an nv command, bash's `-bash: WORD: Permission
	// denied` for another line of a Cumulus shell), leaving the state
	// unchanged.
	Reject *regexp.Regexp
	// WrongHostKey makes the server present a different host key from the
	// one HostKey() publishes, so known_hosts checking fails.
	WrongHostKey bool
	// RejectAuth refuses every login.
	RejectAuth bool
	// Drift changes one configured value once, right after the first
	// change is made effective (EOS session commit, NVUE config apply,
	// Onyx leaving configuration mode after a change): the MTU of the
	// first configured port, in name order, is lowered by 100 bytes, so
	// verification must fail. A later rollback is not drifted again.
	Drift bool
	// Stage injects one failure, once, at one point of a client's work
	// (the fault matrix of package push): at the first login or at the
	// Nth command line that matches a pattern.
	Stage *StageFault
}

// StageFault is one failure injected once per simulated switch.
type StageFault struct {
	// Login puts the fault at the start of the first session: Drop
	// closes the connection before the first prompt, Reject refuses
	// every login attempt of that connection, Slow delays the first
	// prompt by Delay, Hang never shows it.
	Login bool
	// At and Nth put the fault at the Nth command line (1 when Nth is
	// 0), counted over every session of the switch, that At matches.
	At  *regexp.Regexp
	Nth int
	// Kind is what goes wrong.
	Kind FaultKind
	// Delay is how long a Slow answer waits.
	Delay time.Duration
	// Reached, when set, is called with the command line (or "login")
	// when the fault fires (for Slow once the line has run), before the
	// answer is delayed or withheld: a test stops its client here.
	Reached func(line string)
}

// FaultKind is how an injected failure shows.
type FaultKind int

// The failures a StageFault injects.
const (
	// FaultDrop closes the connection instead of running the line.
	FaultDrop FaultKind = iota
	// FaultReject refuses the line with the OS's own error; nothing
	// changes.
	FaultReject
	// FaultSlow runs the line and answers only after Delay (or never,
	// when the client goes first): the switch did the work, the client
	// may not learn of it.
	FaultSlow
	// FaultHang neither runs nor answers the line; the session stays
	// silent until the client closes it.
	FaultHang
)

// String names the kind ("drop", "reject", "slow", "hang").
func (k FaultKind) String() string {
	return [...]string{"drop", "reject", "slow", "hang"}[k]
}

// Device is one simulated switch.
type Device struct {
	opts   Options
	srv    *server
	pub    ssh.PublicKey
	dev    cli.Device
	cancel context.CancelFunc
}

// Start builds the switch and listens on 127.0.0.1 with an ephemeral port.
// The server stops when ctx is done or Close is called.
func Start(ctx context.Context, opts Options) (*Device, error) {
	if opts.Name == "" {
		return nil, fmt.Errorf("sim: Options.Name is empty; give the switch a hostname such as \"leaf1\"")
	}
	dev, err := startDialect(opts)
	if err != nil {
		return nil, err
	}
	if opts.HostKey == nil {
		if opts.HostKey, err = newHostKey(); err != nil {
			return nil, err
		}
	}
	presented := opts.HostKey
	if opts.Faults.WrongHostKey {
		if presented, err = newHostKey(); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	srv, err := listen(ctx, opts, presented, dev)
	if err != nil {
		cancel()
		return nil, err
	}
	return &Device{opts: opts, srv: srv, pub: opts.HostKey.PublicKey(), dev: dev, cancel: cancel}, nil
}

// startDialect builds the OS simulation and replays opts.Initial
// through it. The drift fault is armed only after the replay, so that
// the replay's own changes do not spend it: the first change a client
// makes drifts.
func startDialect(opts Options) (cli.Device, error) {
	if opts.Initial == "" {
		return newDialect(opts)
	}
	quiet := opts
	quiet.Faults.Drift = false
	dev, err := newDialect(quiet)
	if err != nil {
		return nil, err
	}
	if err := preload(dev, opts); err != nil {
		dev.Close()
		return nil, err
	}
	if opts.Faults.Drift {
		dev.ArmDrift()
	}
	return dev, nil
}

// Addr is the "127.0.0.1:port" the switch listens on.
func (d *Device) Addr() string { return d.srv.addr() }

// HostKey is the published host key (for known_hosts). With
// Faults.WrongHostKey the server presents another key.
func (d *Device) HostKey() ssh.PublicKey { return d.pub }

// KnownHostsLine is the known_hosts line (without its newline) that
// names the simulator's address and published host key.
func (d *Device) KnownHostsLine() string {
	return knownhosts.Line([]string{knownhosts.Normalize(d.Addr())}, d.HostKey())
}

// Running is the canonical running configuration in the OS's own
// `show running-config` (EOS, Onyx) or `nv config show -o yaml` (Cumulus,
// applied revision) form; compare it before and after a push.
func (d *Device) Running() string { return d.dev.Running() }

// Saved is the configuration the switch boots with, in the same form as
// Running: EOS startup-config, the Onyx active configuration file, the
// last NVUE revision saved with `nv config save`.
func (d *Device) Saved() string { return d.dev.Saved() }

// Close stops the server and ends every session.
func (d *Device) Close() error {
	d.cancel()
	err := d.srv.close()
	d.dev.Close()
	return err
}

func newHostKey() (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("sim: generate host key: %w", err)
	}
	return ssh.NewSignerFromKey(priv)
}

// SwitchOptions are the Options that simulate sw: its name, platform,
// hardware model and OS release. Users, keys and faults are the caller's.
func SwitchOptions(sw *model.Switch) Options {
	return Options{Name: sw.Name, Platform: sw.Platform, Model: sw.Hardware.Model, OSVersion: sw.OSVersion}
}
