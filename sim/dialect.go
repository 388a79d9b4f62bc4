package sim

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
	"github.com/fabricc/fabricc/sim/cumulus"
	"github.com/fabricc/fabricc/sim/eos"
	"github.com/fabricc/fabricc/sim/onyx"
)

// newDialect builds the OS simulation for opts.Platform.
func newDialect(opts Options) (cli.Device, error) {
	def, ok := defaultModels[opts.Platform]
	if !ok {
		return nil, fmt.Errorf("sim: platform %q is not simulated; use %q, %q or %q", opts.Platform, model.PlatformOnyx, model.PlatformEOS, model.PlatformCumulus)
	}
	hw, version := cmp.Or(opts.Model, def[0]), cmp.Or(opts.OSVersion, def[1])
	ports, err := frontPanel(opts.Platform, hw)
	if err != nil {
		return nil, err
	}
	o := cli.Options{Name: opts.Name, Model: strings.ToUpper(hw), Version: version, Ports: ports, Passwords: opts.Users,
		EnablePassword: opts.EnablePassword, NoVRFPrompt: opts.CumulusNoVRFPrompt, Drift: opts.Faults.Drift, Neighbors: opts.Neighbors}
	switch opts.Platform {
	case model.PlatformEOS:
		return eos.New(o), nil
	case model.PlatformCumulus:
		return cumulus.New(o), nil
	case model.PlatformOnyx:
		return onyx.New(o), nil
	}
	return nil, fmt.Errorf("sim: platform %q is not simulated; use %q, %q or %q", opts.Platform, model.PlatformOnyx, model.PlatformEOS, model.PlatformCumulus)
}
