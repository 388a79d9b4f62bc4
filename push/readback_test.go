package push

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// TestOnyxReadBackLineOverTheLimit: the Onyx read-back fails, with the
// parser's words, on a running configuration it cannot read to its end
// (a line of more than 1 MiB), rather than comparing the lines above it
// as the whole switch; the engine reports it as a read-back failure.
func TestOnyxReadBackLineOverTheLimit(t *testing.T) {
	running := "hostname leaf1\nbanner motd " + strings.Repeat("x", 1<<20) + "\ninterface ethernet 1/1 mtu 9216 force\n"
	s, err := Vendors[model.PlatformOnyx].Parse([]string{running, "{}", ""})
	const want = "show running-config: line 2 is 1 MiB or longer, more than fabricc reads of a line, so the configuration from there on cannot be read and nothing was compared"
	if err == nil || err.Error() != want {
		t.Errorf("Onyx read-back: %v, %v; want the error %q", s, err, want)
	}
}
