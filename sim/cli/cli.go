// Package cli is what the SSH server of package sim and the three switch
// dialects (sim/onyx, sim/eos, sim/cumulus) share: the interfaces a dialect
// implements, the rule grammar with abbreviations, output filters and
// small parsing helpers.
package cli

// Device is the operating system of one simulated switch: its shared,
// mutex-guarded state and a factory for interactive sessions.
type Device interface {
	// NewShell starts one session.
	NewShell(s Session) Shell
	// Running is the canonical running configuration text.
	Running() string
	// Saved is the configuration the switch boots with, in Running's
	// form.
	Saved() string
	// Close stops timers (commit timers, confirm timers).
	Close()
	// ArmDrift turns the drift fault on: a device that replays an
	// initial configuration is built without it, so that the replay
	// does not spend it.
	ArmDrift()
}

// Session describes how a client opened a session.
type Session struct {
	// User is the SSH login name.
	User string
	// Rows is the terminal height the client asked for (pty-req); 0
	// without a terminal (an exec request), which never pages.
	Rows int
}

// Shell is one interactive session on a Device.
type Shell interface {
	// Prompt is printed after every command and on an empty line.
	Prompt() string
	// Echo says whether the server echoes what the user types (false
	// while a password is read).
	Echo() bool
	// Exec runs one input line and returns its output ("\n" line ends;
	// the server converts them to "\r\n" in a shell and in an exec with a pty).
	Exec(line string) Result
	// Reject is the OS's error for a command it refuses (fault
	// injection); the state is not changed.
	Reject(line string) string
	// Refuse is a refusal for reason in the OS's own form (Onyx and EOS
	// `% reason`, NVUE `Error: reason`), for what the simulator refuses
	// of its own accord (a bug in a dialect).
	Refuse(reason string) string
	// Pager is the number of lines per screen (0: paging off) and the
	// text the pager shows while it waits for a key.
	Pager() (lines int, more string)
}

// Result is the outcome of one line.
type Result struct {
	// Out is the text printed before the next prompt.
	Out string
	// Exit ends the session after Out is printed.
	Exit bool
	// Status is the exit status of the command (shells); an exec
	// request returns it to the client.
	Status int
	// Reboot ends every session of the device after Out is printed.
	Reboot bool
}

// Port is one front-panel port of the simulated hardware model.
type Port struct {
	// Name is the OS's name ("1/1", "Ethernet1/1", "swp1").
	Name string
	// SpeedG is the port's native speed in Gb/s.
	SpeedG int
	// Inactive marks a lane of a multi-lane cage that is not broken out
	// (EOS lists it, inactive).
	Inactive bool
}

// Options are the dialect-independent settings of a Device.
type Options struct {
	// Name is the hostname.
	Name string
	// Model is the hardware model ("SN2700"); Version the OS release.
	Model, Version string
	// Ports are every port of the model, in front-panel order.
	Ports []Port
	// Passwords maps user name to login password (sudo checks it).
	Passwords map[string]string
	// EnablePassword is asked for by `enable` when set.
	EnablePassword string
	// NoVRFPrompt selects the Cumulus prompt without ":mgmt".
	NoVRFPrompt bool
	// Drift changes one value after a change is made effective.
	Drift bool
	// Neighbors are the LLDP neighbors the switch has learned, by its
	// port name; the LLDP show commands list them.
	Neighbors map[string][]Neighbor
}

// Neighbor is one LLDP neighbor of a port, as it advertises itself.
type Neighbor struct {
	// SystemName is the System Name TLV ("" for none).
	SystemName string
	// ChassisID is the neighbor's MAC address ("0c:42:a1:00:00:01").
	ChassisID string
	// PortID is the Port ID TLV: an interface name, or with PortIDMAC a
	// MAC address ("0c:42:a1:00:00:01").
	PortID    string
	PortIDMAC bool
	// PortDescription is the Port Description TLV ("" for none).
	PortDescription string
	// SystemDescription is the System Description TLV.
	SystemDescription string
}
