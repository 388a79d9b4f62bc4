package sim

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim/cli"
	"github.com/fabricc/fabricc/sim/cumulus"
	"github.com/fabricc/fabricc/sim/eos"
	"github.com/fabricc/fabricc/sim/onyx"
)

// newDialect builds the OS simulation for opts.Platform.
func newDialect(opts Options) (cli.Device, error) {
	o := cli.Options{Name: opts.Name, EnablePassword: opts.EnablePassword, NoVRFPrompt: opts.CumulusNoVRFPrompt, Drift: opts.Faults.Drift}
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
