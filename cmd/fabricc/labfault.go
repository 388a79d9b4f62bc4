package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/sim"
)

// labFaultHelp is --fault's help: what a simulated switch can be told to
// do wrong, so that a rollback, an all-or-nothing abort or a cabling
// difference can be seen without a real switch.
const labFaultHelp = "make a simulated switch misbehave, `SWITCH:KIND` (repeatable): " +
	"drift (once, right after the first change is applied, a port's MTU changes, so that push's verification fails), " +
	"reject=REGEXP (command lines matching it fail with the OS's own error), " +
	"drop=N (the connection closes at the Nth command line), latency=DURATION (every answer waits), " +
	"miscable=PORT,PORT (the two ports' LLDP neighbors are swapped), no-lldp=PORT (no LLDP neighbor there)"

// labFault is one parsed --fault.
type labFault struct {
	device string
	apply  func(*sim.Options)
}

// parseLabFaults reads the --fault values against fabric f: each names
// a switch of f and a kind of fault.
func parseLabFaults(specs []string, f *model.Fabric) ([]labFault, error) {
	var out []labFault
	for _, spec := range specs {
		lf, err := parseLabFault(spec, f)
		if err != nil {
			return nil, fmt.Errorf("--fault %q: %w", spec, err)
		}
		out = append(out, lf)
	}
	return out, nil
}

func parseLabFault(spec string, f *model.Fabric) (labFault, error) {
	device, kind, ok := strings.Cut(spec, ":")
	if !ok {
		return labFault{}, fmt.Errorf("write SWITCH:KIND, for example leaf2:drift")
	}
	sw := f.Switch(device)
	if sw == nil {
		return labFault{}, fmt.Errorf("the fabric has no switch %q", device)
	}
	name, arg, hasArg := strings.Cut(kind, "=")
	apply, err := labFaultKind(sw, name, arg, hasArg)
	if err != nil {
		return labFault{}, err
	}
	return labFault{device: device, apply: apply}, nil
}

// labFaultKind turns KIND[=ARG] into a change of the options of sw's
// simulator.
func labFaultKind(sw *model.Switch, name, arg string, hasArg bool) (func(*sim.Options), error) {
	port := func(p string) error {
		if sw.Port(p) == nil {
			return fmt.Errorf("switch %s has no port %q in the fabric", sw.Name, p)
		}
		return nil
	}
	needArg := func(what string) error {
		if !hasArg || arg == "" {
			return fmt.Errorf("%s takes a %s: %s=%s", name, what, name, strings.ToUpper(what))
		}
		return nil
	}
	switch name {
	case "drift":
		if hasArg {
			return nil, fmt.Errorf("drift takes no value")
		}
		return func(o *sim.Options) { o.Faults.Drift = true }, nil
	case "reject":
		if err := needArg("regexp"); err != nil {
			return nil, err
		}
		re, err := regexp.Compile(arg)
		if err != nil {
			return nil, fmt.Errorf("reject: %w", err)
		}
		return func(o *sim.Options) { o.Faults.Reject = re }, nil
	case "drop":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("drop takes a command line number from 1: drop=N")
		}
		return func(o *sim.Options) { o.Faults.DropAfter = n }, nil
	case "latency":
		d, err := time.ParseDuration(arg)
		if err != nil || d <= 0 || d > time.Minute {
			return nil, fmt.Errorf("latency takes a duration up to 1m: latency=200ms")
		}
		return func(o *sim.Options) { o.Faults.Latency = d }, nil
	case "miscable":
		a, b, ok := strings.Cut(arg, ",")
		if !ok || a == "" || b == "" || a == b {
			return nil, fmt.Errorf("miscable takes two ports: miscable=swp1,swp2")
		}
		if err := errors.Join(port(a), port(b)); err != nil {
			return nil, err
		}
		return func(o *sim.Options) { o.Miscable(a, b) }, nil
	case "no-lldp":
		if err := needArg("port"); err != nil {
			return nil, err
		}
		if err := port(arg); err != nil {
			return nil, err
		}
		return func(o *sim.Options) { o.HideNeighbor(arg) }, nil
	}
	return nil, fmt.Errorf("unknown kind %q; use drift, reject=REGEXP, drop=N, latency=DURATION, miscable=PORT,PORT or no-lldp=PORT", name)
}

// labAdjust applies the faults to the simulator of the switch they name.
func labAdjust(faults []labFault) func(*sim.Options) {
	if len(faults) == 0 {
		return nil
	}
	return func(o *sim.Options) {
		for _, lf := range faults {
			if lf.device == o.Name {
				lf.apply(o)
			}
		}
	}
}
