package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// labConfigHelp is --config's help.
const labConfigHelp = "start the simulator of SWITCH with the running configuration in FILE, `SWITCH=FILE` (repeatable), " +
	"replayed through the simulator's grammar and saved: EOS and Onyx `show running-config` text, " +
	"Cumulus `nv set` lines as `nv config show -o commands` prints them; to rehearse a migration"

// maxLabConfig is the largest --config file taken: a running
// configuration of a 64-port switch is a few hundred kilobytes.
const maxLabConfig = 16 << 20

// parseLabConfigs reads the --config values against fabric f: each
// names a switch of f, once, and a file to read. It returns the
// simulator adjustments that start each switch from its file (applied
// with the --fault ones, labAdjust) and each switch's --config, for
// labConfigError.
func parseLabConfigs(specs []string, f *model.Fabric) ([]labFault, map[string]string, error) {
	var out []labFault
	given := map[string]string{}
	for _, spec := range specs {
		lf, err := readLabConfig(spec, f)
		if err != nil {
			return nil, nil, fmt.Errorf("--config %s: %w", spec, err)
		}
		if _, dup := given[lf.device]; dup {
			return nil, nil, fmt.Errorf("--config %s: switch %s has a --config already; give one file per switch", spec, lf.device)
		}
		given[lf.device] = spec
		out = append(out, lf)
	}
	return out, given, nil
}

// readLabConfig reads one --config, SWITCH=FILE: the adjustment that
// starts the switch's simulator from the file.
func readLabConfig(spec string, f *model.Fabric) (labFault, error) {
	device, path, ok := strings.Cut(spec, "=")
	if !ok || device == "" || path == "" {
		return labFault{}, errors.New("write SWITCH=FILE, for example leaf1=brownfield/leaf1.cfg")
	}
	if f.Switch(device) == nil {
		return labFault{}, fmt.Errorf("the fabric has no switch %q; its switches are %s", device, switchNames(f))
	}
	file, err := os.Open(path)
	if err != nil {
		return labFault{}, fmt.Errorf("read the running configuration: %w", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxLabConfig+1))
	text := string(data)
	switch {
	case err != nil:
		return labFault{}, fmt.Errorf("read the running configuration: %w", err)
	case len(data) > maxLabConfig:
		return labFault{}, fmt.Errorf("%s is larger than %d MiB; it is not a switch's running configuration", path, maxLabConfig>>20)
	case strings.TrimSpace(text) == "":
		return labFault{}, fmt.Errorf("%s is empty; give the switch's running configuration, or leave --config out to start it empty", path)
	}
	return labFault{device: device, apply: func(o *sim.Options) { o.Initial, o.InitialName = text, path }}, nil
}

// switchNames lists the fabric's switches for an error, shortened as
// push's lists are (shortList): a large fabric has thousands.
func switchNames(f *model.Fabric) string {
	names := make([]string, len(f.Switches))
	for i := range f.Switches {
		names[i] = f.Switches[i].Name
	}
	return shortList(names)
}

// labConfigError names the --config (given: switch to --config) of a
// configuration the simulator refused (a *sim.PreloadError names the
// switch, the file, line and column): the switch's, as two switches may
// be given one file.
func labConfigError(err error, given map[string]string) error {
	var pe *sim.PreloadError
	if !errors.As(err, &pe) {
		return err
	}
	if spec, ok := given[pe.Switch]; ok {
		return fmt.Errorf("--config %s: %w", spec, pe)
	}
	return err
}
