package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
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

// labConfig is one parsed --config.
type labConfig struct {
	spec, device, path, text string
}

// parseLabConfigs reads the --config values against fabric f: each
// names a switch of f, once, and a file to read.
func parseLabConfigs(specs []string, f *model.Fabric) ([]labConfig, error) {
	var out []labConfig
	for _, spec := range specs {
		lc, err := readLabConfig(spec, f)
		if err != nil {
			return nil, fmt.Errorf("--config %s: %w", spec, err)
		}
		if slices.ContainsFunc(out, func(o labConfig) bool { return o.device == lc.device }) {
			return nil, fmt.Errorf("--config %s: switch %s has a --config already; give one file per switch", spec, lc.device)
		}
		out = append(out, lc)
	}
	return out, nil
}

func readLabConfig(spec string, f *model.Fabric) (labConfig, error) {
	device, path, ok := strings.Cut(spec, "=")
	if !ok || device == "" || path == "" {
		return labConfig{}, errors.New("write SWITCH=FILE, for example leaf1=brownfield/leaf1.cfg")
	}
	if f.Switch(device) == nil {
		return labConfig{}, fmt.Errorf("the fabric has no switch %q; its switches are %s", device, switchNames(f))
	}
	file, err := os.Open(path)
	if err != nil {
		return labConfig{}, fmt.Errorf("read the running configuration: %w", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxLabConfig+1))
	switch {
	case err != nil:
		return labConfig{}, fmt.Errorf("read the running configuration: %w", err)
	case len(data) > maxLabConfig:
		return labConfig{}, fmt.Errorf("%s is larger than %d MiB; it is not a switch's running configuration", path, maxLabConfig>>20)
	case strings.TrimSpace(string(data)) == "":
		return labConfig{}, fmt.Errorf("%s is empty; give the switch's running configuration, or leave --config out to start it empty", path)
	}
	return labConfig{spec: spec, device: device, path: path, text: string(data)}, nil
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

// labConfigFaults turns the configurations into simulator adjustments,
// applied with the --fault ones (labAdjust).
func labConfigFaults(configs []labConfig) []labFault {
	var out []labFault
	for _, lc := range configs {
		out = append(out, labFault{device: lc.device, apply: func(o *sim.Options) {
			o.Initial, o.InitialName = lc.text, lc.path
		}})
	}
	return out
}

// labConfigError names the --config of a configuration the simulator
// refused (a *sim.PreloadError names the switch, the file, line and
// column): the switch's, as two switches may be given one file.
func labConfigError(err error, configs []labConfig) error {
	var pe *sim.PreloadError
	if !errors.As(err, &pe) {
		return err
	}
	for _, lc := range configs {
		if lc.device == pe.Switch {
			return fmt.Errorf("--config %s: %w", lc.spec, pe)
		}
	}
	return err
}
