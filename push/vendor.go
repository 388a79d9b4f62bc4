package push

import (
	"fmt"
	"regexp"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/push/verify"
)

// Vendor is one platform's behaviour as data: which artifact is pushed,
// how a transaction works, and how the switch is read back.
type Vendor struct {
	// Artifact is the suffix of the rendered file push sends
	// ("<switch>" + Artifact).
	Artifact string
	// NewTxn starts a transaction named by id whose automatic rollback
	// (EOS commit timer, NVUE confirm window) waits window.
	NewTxn func(id string, window time.Duration) Txn
	// Identity reads the name the switch calls itself (identity.go);
	// push, diff and verify refuse a switch that is not the one its
	// inventory entry names. Empty: not checked.
	Identity identity
	// Model reads the switch's hardware model, which push and diff
	// compare with the fabric's before staging (modelNote) and verify
	// after reading the switch back (modelDifference). Empty: not
	// compared.
	Model hwModel
	// Lock is how the switch holds fabricc's device lock (lock.go).
	Lock locker
	// Leftovers finds what interrupted runs left on the switch
	// (recover.go); stale is the holder of a stale lock just broken, or
	// nil.
	Leftovers func(c Conn, stale *Holder) ([]leftover, error)
	// Unsaved names what a push saves and how unsaved changes are saved
	// or discarded by hand, for the refusal of a push that finds
	// unsaved changes no fabricc push made.
	Unsaved unsavedHelp
	// Refusal matches an answer line the platform means as an error
	// beyond the failed-when-contains phrases of its scrapligo platform
	// definition (push/platforms); nil: those phrases only. It is not
	// applied to the answer of a command that lists a configuration
	// (platforms.ConfigListing).
	Refusal *regexp.Regexp
	// Armed: the switch rolls an applied change back by itself unless it
	// is confirmed within the window (EOS commit timer, NVUE apply
	// --confirm); a switch waiting for the others must confirm before.
	Armed bool
	// MinRelease is the first OS release with every command push sends,
	// and Since says which command and where that is documented; empty
	// when every release the fabric accepts has them.
	MinRelease, Since string
	// ReadBack are the commands whose outputs, in order, Parse turns
	// into a State; structured output where the OS offers it.
	ReadBack []string
	Parse    func(outs []string) (*verify.State, error)
	// SwitchWidePFC: the platform enables PFC per priority for the whole
	// switch, a port only turning it on or off (Onyx), so a push that
	// drops a priority from the fabric's lossless set drops it on ports
	// outside the fabric too (verify.PFCTakenOut).
	SwitchWidePFC bool
	// AdminDown is how the platform's configuration shows a port shut
	// down, as the warning of a port a push brings up quotes it.
	AdminDown string
	// OlderLack are the ReadBack commands older releases refuse, whose
	// output then reads as "" (Onyx `show roce`, since 3.8.2000).
	OlderLack map[string]bool
	// Neighbors is the command that lists the LLDP neighbors of every
	// port in one call, in the OS's most structured form, and
	// ParseNeighbors reads its output: fabricc verify checks the
	// cabling with them (push does not).
	Neighbors      string
	ParseNeighbors func(out string) (verify.Neighbors, error)
}

// unsavedHelp is how a platform's unsaved changes are saved or
// discarded by hand.
type unsavedHelp struct {
	// config is what a push's save writes to the boot configuration.
	config string
	// save saves unsaved changes; discard, when the platform documents
	// one, throws them away.
	save, discard string
}

// refusal is the error of a push that found what: unsaved changes that
// no fabricc push made.
func (h unsavedHelp) refusal(what string) error {
	discard := "discard them on the switch first"
	if h.discard != "" {
		discard = "discard them (" + h.discard + ") first"
	}
	return fmt.Errorf("%s: a push ends by saving the whole %s, so it would save them too; save them (%s) or %s, "+
		"or push with --save-unsaved to save them with this change; nothing was changed", what, h.config, h.save, discard)
}

// Txn is one transactional change of one switch.
type Txn interface {
	// Stage loads the rendered configuration so it is pending, not
	// effective, where the OS allows it, and returns the diff against
	// the running configuration ("" when nothing would change).
	Stage(c Conn, config []byte) (diff string, err error)
	// Discard drops the staged change (dry run, nothing to do).
	Discard(c Conn) error
	// Apply makes the staged change effective, with an automatic
	// rollback armed where the OS has one.
	Apply(c Conn) error
	// Confirm makes the applied change permanent: the automatic
	// rollback is disarmed.
	Confirm(c Conn) error
	// Confirmed reads whether Confirm took effect (after it failed, the
	// switch may have done it without the answer arriving).
	Confirmed(c Conn) (bool, error)
	// Save writes the confirmed change to the configuration the switch
	// boots with.
	Save(c Conn) error
	// Rollback returns the switch to its state before Stage. c may be a
	// new connection when the first one was lost.
	Rollback(c Conn) error
	// Sent reports whether the transaction has begun to send its change
	// to the switch (EOS: the session was opened; NVUE: the pending
	// revision or the file that carries the change was written to;
	// Onyx: Apply began). Until then a failure, such as a refusal of a
	// pre-check, changed nothing and there is nothing to roll back.
	Sent() bool
}

// intender is a Txn whose Stage needs the switch's intended state
// (verify.Expect): Onyx's, to restore LLDP only where the fabric owns it.
type intender interface{ intend(want *verify.State) }

// Vendors lists the platforms push handles, by platform.
var Vendors = map[model.Platform]*Vendor{
	model.PlatformEOS: {
		Artifact:  ".eos.cfg",
		NewTxn:    func(id string, w time.Duration) Txn { return &eosTxn{name: "fabricc-" + id, window: hms(w)} },
		Identity:  eosIdentity,
		Model:     eosModelRead,
		Lock:      fileLock{path: "/mnt/flash/fabricc.lock", prefix: "bash timeout 10 "},
		Armed:     true,
		Leftovers: eosLeftovers,
		// `write memory` copies running-config to startup-config (Arista
		// Warrior, 2nd ed., ch. 9 "Configuration Management"); a commit
		// does not save ("Autosave to startup-config on commit is
		// disabled", `show configuration sessions detail`). No discard
		// command is named: fabricc has not checked the syntax of EOS's
		// `configure replace` against Arista's documentation.
		Unsaved: unsavedHelp{config: "running-config", save: "write memory"},
		// Any answer line that starts with "%" is a refusal, as on Onyx:
		// scrapligo's arista_eos definition knows six phrases only, and
		// EOS refuses with others ("% Cannot change mode; remove all
		// members and try again.", "% Subnet ... overlaps", "% Prefix
		// length must be less than": Ansible's arista.eos terminal plugin,
		// plugins/terminal/eos.py, terminal_stderr_re). That list has one
		// refusal without "%", on fabricc's path: `configure session NAME`
		// with five sessions pending answers "Maximum number of pending
		// sessions has been reached". A warning of a line EOS takes starts
		// with "!" instead ("! VLAN id 1040 not found in current VLAN
		// configuration": ansible/ansible issue #43336), and no public
		// capture shows a "%" line on success.
		Refusal: regexp.MustCompile(`(?m)^%.*$|(?m)^.*Maximum number of pending sessions has been reached.*$`),
		// `shutdown` in the interface block (Arista EOS User Manual,
		// Ethernet Ports, "shutdown (Interfaces)").
		AdminDown: "shutdown",
		// eAPI JSON of the running config plus the interfaces' real MTU
		// (napalm and anta EOS test fixtures).
		ReadBack: []string{"show running-config | json", "show interfaces | json"},
		Parse: func(outs []string) (*verify.State, error) {
			return verify.ParseEOSJSON([]byte(jsonPart(outs[0])), []byte(jsonPart(outs[1])))
		},
		// The detail form carries the Port ID's subtype and the Port
		// Description (ANTA's VerifyLLDPNeighbors reads it; eAPI JSON).
		Neighbors:      "show lldp neighbors detail | json",
		ParseNeighbors: func(out string) (verify.Neighbors, error) { return verify.ParseEOSNeighbors([]byte(jsonPart(out))) },
	},
	model.PlatformOnyx: {
		Artifact:  ".onyx.cli",
		NewTxn:    func(id string, _ time.Duration) Txn { return &onyxTxn{checkpoint: "fabricc-pre-" + id} },
		Identity:  onyxIdentity,
		Model:     onyxModelRead,
		Lock:      onyxLock{},
		Leftovers: onyxLeftovers,
		// Any answer line that starts with "%" is a refusal (Ansible's
		// Onyx terminal plugin, mellanox.onyx plugins/terminal/onyx.py,
		// terminal_stderr_re `\A%|\r\n%|\n%`): no public list of Onyx
		// error texts shows that every refusal starts with one of the
		// five phrases of its definition (review ronyx #6).
		Refusal: regexp.MustCompile(`(?m)^%.*$`),
		// `configuration write` writes the running configuration to the
		// active file (NVIDIA Onyx User Manual, "Configuration
		// Management"). No discard command is named: the one fabricc
		// knows, `configuration switch-to`, reboots the switch.
		Unsaved: unsavedHelp{config: "running configuration", save: "configuration write"},
		// `dcb priority-flow-control priority N enable` is switch-wide,
		// a port has only its mode (NVIDIA Onyx User Manual, "Priority
		// Flow Control"); `interface ethernet 1/2 shutdown` (NVIDIA Onyx
		// User Manual, "Interfaces").
		SwitchWidePFC: true,
		AdminDown:     "shutdown",
		// Onyx prints its running config as flat commands (there is no
		// json-print form of it); PFC is read in its structured,
		// operational form (mellanox.onyx onyx_pfc_interface.py).
		// `show roce` (NVIDIA Onyx User Manual 3.10, "RoCE Commands")
		// says whether Onyx's own RoCE mode is on.
		// Whether LLDP runs, switch-wide and per port, read as the
		// mellanox.onyx collection reads it (onyx_lldp.py: `show lldp
		// local`; onyx_lldp_interface.py: `show lldp interfaces`; NVIDIA
		// Onyx User Manual, "Link Layer Discovery Protocol (LLDP)"): an
		// operator's `no lldp` stops DCBX and the cabling check.
		ReadBack: []string{"show running-config", "show dcb priority-flow-control | json-print", "show roce",
			"show lldp local | json-print", "show lldp interfaces | json-print"},
		OlderLack: map[string]bool{"show roce": true},
		Parse: func(outs []string) (*verify.State, error) {
			s, err := verify.ParseOnyx(outs[0])
			if err != nil {
				return nil, err
			}
			verify.ApplyOnyxRoCE(s, outs[2])
			if err := verify.ApplyOnyxLLDP(s, []byte(jsonPart(outs[3])), []byte(jsonPart(outs[4]))); err != nil {
				return nil, err
			}
			return s, verify.ApplyOnyxPFC(s, []byte(jsonPart(outs[1])))
		},
		// Every port's remote LLDP information (NVIDIA Onyx User
		// Manual, "Link Layer Discovery Protocol"), structured.
		Neighbors:      "show lldp interfaces ethernet remote | json-print",
		ParseNeighbors: func(out string) (verify.Neighbors, error) { return verify.ParseOnyxNeighbors([]byte(jsonPart(out))) },
	},
	model.PlatformCumulus: {
		Artifact: ".nvue.yaml",
		NewTxn: func(id string, w time.Duration) Txn {
			return &nvueTxn{file: "/tmp/fabricc-" + id + ".yaml", message: "fabricc-" + id, window: fmt.Sprintf("%ds", int(w.Seconds()))}
		},
		Identity:  cumulusIdentity,
		Model:     nvueModelRead,
		Lock:      fileLock{path: "/var/tmp/fabricc.lock"},
		Armed:     true,
		Leftovers: nvueLeftovers,
		// Stage reads the applied revision with `nv config revision`.
		MinRelease: "5.5.0",
		Since:      "`nv config revision`, which push reads the applied revision with, came in Cumulus Linux 5.5.0 (NVUE Command Reference, Config Commands, Version History)",
		// NVUE Command Reference, Config Commands: `nv config save`
		// overwrites the startup configuration with the applied one;
		// `nv config apply <revision>` takes startup as a revision.
		Unsaved: unsavedHelp{config: "applied configuration", save: "nv config save", discard: "nv config apply startup -y"},
		// `nv set interface swp2 link state down` (NVUE Command
		// Reference, Interface Commands).
		AdminDown: "link state down",
		// The applied configuration in the NVUE object model (Cumulus
		// Linux user guide, NVUE CLI), then the operational state of
		// the ports' link MTU and of the PFC profiles (NVUE Command
		// Reference, Show Commands, Interface and QoS; `nv show`
		// without --applied is operational): a revision NVUE applied
		// that the switch did not take up is a difference (rcum #6;
		// verify.ApplyNVUEOperational).
		ReadBack: []string{"nv config show -o json", "nv show interface -o json", "nv show qos pfc -o json"},
		Parse:    parseNVUEReadBack,
		// Every interface's LLDP neighbors in one call (NVUE Command
		// Reference, Show Commands, LLDP: `nv show interface
		// lldp-detail`, Cumulus Linux 5.0.0 and later; its JSON is what
		// napalm's NVUE Cumulus driver reads).
		Neighbors:      "nv show interface lldp-detail -o json",
		ParseNeighbors: func(out string) (verify.Neighbors, error) { return verify.ParseNVUENeighbors([]byte(jsonPart(out))) },
	},
}

// parseNVUEReadBack reads the Cumulus ReadBack outputs: the applied
// configuration, decoded once (the State keeps it, State.NVUE, for
// Stage: appliedConfig), then the operational interfaces and PFC
// profiles.
func parseNVUEReadBack(outs []string) (*verify.State, error) {
	if len(outs) != 3 {
		return nil, fmt.Errorf("the NVUE read-back has %d outputs, not 3 (nv config show, nv show interface, nv show qos pfc)", len(outs))
	}
	conf, err := verify.ParseNVUEConfig([]byte(jsonPart(outs[0])))
	if err != nil {
		return nil, err
	}
	s, err := conf.State()
	if err != nil {
		return nil, err
	}
	return s, verify.ApplyNVUEOperational(s, conf, []byte(jsonPart(outs[1])), []byte(jsonPart(outs[2])))
}

// VendorFor returns the vendor of platform p.
func VendorFor(p model.Platform) (*Vendor, error) {
	v := Vendors[p]
	if v == nil {
		return nil, fmt.Errorf("push does not support platform %q (onyx, eos, cumulus)", p)
	}
	return v, nil
}

// jsonPart drops anything before the first line starting with { or [
// (Onyx json-print and some shells print banners first; mellanox.onyx
// module_utils show_cmd strips them the same way).
func jsonPart(s string) string {
	for i := 0; i < len(s); i++ {
		if (s[i] == '{' || s[i] == '[') && (i == 0 || s[i-1] == '\n') {
			return s[i:]
		}
	}
	return s
}

// DefaultConfirmWindow is how long EOS's commit timer and NVUE's confirm
// window keep an applied change before the switch reverts it on its
// own: enough to verify, short enough to recover a lost session.
const DefaultConfirmWindow = 5 * time.Minute

// hms writes d as EOS's commit timer takes it ("00:05:00").
func hms(d time.Duration) string {
	s := int(d.Seconds())
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}
