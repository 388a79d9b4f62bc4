// Package cli is what the SSH server of package sim and the three switch
// dialects (sim/onyx, sim/eos, sim/cumulus) share: the interfaces a dialect
// implements and small parsing helpers.
package cli

// Device is the operating system of one simulated switch: its shared,
// mutex-guarded state and a factory for interactive sessions.
type Device interface {
	// NewShell starts one interactive session for user.
	NewShell(user string) Shell
	// Running is the canonical running configuration text.
	Running() string
	// Close stops timers (commit timers, confirm timers).
	Close()
}

// Shell is one interactive session on a Device.
type Shell interface {
	// Prompt is printed after every command and on an empty line.
	Prompt() string
	// Echo says whether the server echoes what the user types (false
	// while a password is read).
	Echo() bool
	// Exec runs one input line and returns its output ("\n" line ends;
	// the server converts them to "\r\n").
	Exec(line string) Result
	// Reject is the OS's error for a command it refuses (fault
	// injection); the state is not changed.
	Reject(line string) string
}

// Result is the outcome of one line.
type Result struct {
	// Out is the text printed before the next prompt.
	Out string
	// Exit ends the session after Out is printed.
	Exit bool
}

// Options are the dialect-independent settings of a Device.
type Options struct {
	// Name is the hostname.
	Name string
	// EnablePassword is asked for by `enable` when set.
	EnablePassword string
	// NoVRFPrompt selects the Cumulus prompt without ":mgmt".
	NoVRFPrompt bool
	// Drift changes one value after a change is made effective.
	Drift bool
}
