// Package platforms embeds the scrapligo v1 platform definitions fabricc
// ships because scrapligo's are missing (Onyx), too narrow (Cumulus
// prompts without the mgmt VRF) or take a configuration prompt for the
// enable prompt (EOS: scrapligo's bundled arista_eos, with the
// not-contains its Python original has).
// Beside them, what fabricc knows of each platform's answers that the
// definitions' schema has no key for (ConfigListing).
package platforms

import (
	_ "embed"
	"fmt"
	"slices"

	"github.com/fabricc/fabricc/model"
)

//go:embed mellanox_onyx.yaml
var onyx []byte

//go:embed cumulus_linux.yaml
var cumulus []byte

//go:embed arista_eos.yaml
var eos []byte

// Definition returns what platform.NewPlatform takes for p: the embedded
// YAML bytes.
func Definition(p model.Platform) (any, error) {
	switch p {
	case model.PlatformOnyx:
		return onyx, nil
	case model.PlatformCumulus:
		return cumulus, nil
	case model.PlatformEOS:
		return eos, nil
	}
	return nil, fmt.Errorf("no SSH platform definition for platform %q (want onyx, eos or cumulus)", p)
}

// configListings are, by platform, the commands whose answer lists a
// configuration as text: its lines are the switch's content, not its
// answer to fabricc. An EOS banner is printed as it was typed (`banner
// motd`, its text line by line, then "EOF"), so a line of it may start
// with "%", which push otherwise reads as a
// refusal (push Vendor.Refusal: EOS's "% Invalid input", Ansible's Onyx
// terminal plugin's terminal_stderr_re `\A%|\r\n%|\n%`). A refusal of
// these commands is one of the definition's failed-when-contains
// phrases, which scrapligo checks on every answer. Cumulus has no
// refusal pattern of that kind, so nothing to exempt.
var configListings = map[model.Platform][]string{
	model.PlatformEOS:  {"show running-config", "show startup-config"},
	model.PlatformOnyx: {"show running-config", "show startup-config"},
}

// ConfigListing reports whether cmd, on platform p, lists a
// configuration as text (configListings): an answer line of it starting
// with "%" is the configuration's, not a refusal.
func ConfigListing(p model.Platform, cmd string) bool {
	return slices.Contains(configListings[p], cmd)
}
