package verify

import (
	"strings"
	"testing"
)

// mustOnyx is ParseOnyx of running text a test writes, which it reads
// to its end; a test that hands it text it cannot read panics.
func mustOnyx(running string) *State {
	s, err := ParseOnyx(running)
	if err != nil {
		panic(err)
	}
	return s
}

// mustEOS is ParseEOS as mustOnyx is ParseOnyx.
func mustEOS(running string) *State {
	s, err := ParseEOS(running)
	if err != nil {
		panic(err)
	}
	return s
}

// TestRunningConfigLineOverTheLimit (review: bufio.Scanner's error
// ignored): a line of more than 1 MiB in `show running-config` stopped
// the EOS and Onyx parsers there without a word, and the configuration
// above it was compared as the whole (a port's MTU below it read as
// "not set"); now it is an error naming the line, and a line just under
// the limit is read as any other.
func TestRunningConfigLineOverTheLimit(t *testing.T) {
	huge := "banner motd " + strings.Repeat("x", 1<<20)
	const want = "show running-config: line 2 is 1 MiB or longer, more than fabricc reads of a line, so the configuration from there on cannot be read and nothing was compared"
	eos := "hostname leaf1\n" + huge + "\ninterface Ethernet1/1\n   mtu 9214\n"
	if s, err := ParseEOS(eos); err == nil || err.Error() != want {
		t.Errorf("EOS: %v, %v; want the error %q", s, err, want)
	}
	onyx := "hostname leaf1\n" + huge + "\ninterface ethernet 1/1 mtu 9216 force\n"
	if s, err := ParseOnyx(onyx); err == nil || err.Error() != want {
		t.Errorf("Onyx: %v, %v; want the error %q", s, err, want)
	}
	long := "banner motd " + strings.Repeat("x", 1<<19)
	s, err := ParseEOS(strings.Replace(eos, huge, long, 1))
	if err != nil || s.Ports["Ethernet1/1"] == nil || s.Ports["Ethernet1/1"].MTU != 9214 {
		t.Errorf("EOS with a 512 KiB line: %v; want Ethernet1/1's MTU 9214 read after it", err)
	}
	s, err = ParseOnyx(strings.Replace(onyx, huge, long, 1))
	if err != nil || s.Ports["1/1"] == nil || s.Ports["1/1"].MTU != 9216 {
		t.Errorf("Onyx with a 512 KiB line: %v; want 1/1's MTU 9216 read after it", err)
	}
}
