// Package platforms embeds the scrapligo v1 platform definitions fabricc
// ships because scrapligo's are missing (Onyx) or too narrow (Cumulus
// prompts without the mgmt VRF). EOS uses scrapligo's bundled arista_eos.
package platforms

import (
	_ "embed"
	"fmt"

	"github.com/fabricc/fabricc/model"
)

//go:embed mellanox_onyx.yaml
var onyx []byte

//go:embed cumulus_linux.yaml
var cumulus []byte

// Definition returns what platform.NewPlatform takes for p: the embedded
// YAML bytes, or the bundled definition's name.
func Definition(p model.Platform) (any, error) {
	switch p {
	case model.PlatformOnyx:
		return onyx, nil
	case model.PlatformCumulus:
		return cumulus, nil
	case model.PlatformEOS:
		return "arista_eos", nil
	}
	return nil, fmt.Errorf("no SSH platform definition for platform %q (want onyx, eos or cumulus)", p)
}
