package push

import (
	"fmt"
	"strings"
)

// mlagRefusal is push's word on fabric ports that are part of an MLAG: a
// member of an MLAG bundle (a dual-homed host's LACP bundle) or of the
// MLAG peer link (the pair's control path, which "the switch uses" with a
// backup interface only "when the peer link goes down": NVUE Command
// Reference, MLAG, `nv set mlag backup`). Taking such a port out of its
// bundle is an outage of that leg or of the peer link, not a QoS change,
// so unlike a plain LAG member's refusal it offers no command that does
// it: fabricc does not configure MLAG (README, Scope), and the port is to
// be left out of the fabric.
const mlagRefusal = "fabric ports are part of an MLAG on the switch: %s; taking such a port out of its bundle cuts a dual-homed host's link or the MLAG peer link, " +
	"and fabricc does not configure MLAG, so leave the port out of the fabric"

// lagRefusal is the refusal of fabric ports that are LAG members: plain
// members (each with the command that takes it out) under plainWhy, a
// format for their list, and MLAG members (mlagRefusal); nil when there
// are none.
func lagRefusal(plain []string, plainWhy string, mlag []string) error {
	var parts []string
	if len(plain) > 0 {
		parts = append(parts, fmt.Sprintf(plainWhy, strings.Join(plain, "; ")))
	}
	if len(mlag) > 0 {
		parts = append(parts, fmt.Sprintf(mlagRefusal, strings.Join(mlag, "; ")))
	}
	if len(parts) == 0 {
		return nil
	}
	return fmt.Errorf("%s, and push again; nothing was changed", strings.Join(parts, "; "))
}
