package compiler

import (
	"fmt"
	"strings"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/internal/english"
	"github.com/fabricc/fabricc/model"
)

// switchHW is a switch's row of the hardware table while lowering.
type switchHW struct {
	name     string // canonical model name
	row      switchModel
	platform model.Platform
}

// checkSwitchModel looks the switch's model up and checks that its
// platform runs on it. It returns nil when the model is unknown (after
// reporting it), so no port is checked against a guess.
func (l *lowering) checkSwitchModel(s *dsl.Switch, sw model.Switch, platformKnown bool) *switchHW {
	at := s.ModelRange.Or(s.DefRange)
	row, ok := lookupHardware(s.Model)
	if !ok {
		known := knownModels()
		hint := didYouMean(s.Model, known)
		if models := aristaFamily(s.Model); len(models) > 0 {
			hint = fmt.Sprintf(" %q is an Arista platform family (the name Arista AVD's `platform` key takes), not a model: write the model, %s.", s.Model, english.Or(models))
		}
		l.errorf(at, "Unknown switch model",
			"switch %q has model %q, which fabricc has no hardware data for.%s Known models: %s (see `fabricc models`).",
			s.Name, s.Model, hint, strings.Join(known, ", "))
		return nil
	}
	hw := &switchHW{name: canonicalModel(s.Model), row: row, platform: sw.Platform}
	if !platformKnown {
		return hw
	}
	if ps, ok := row.support(sw.Platform); ok && !ps.usable() {
		l.unusableModel[s.Name] = true
		least := minRelease[sw.Platform]
		d := l.errorf(at, "Model not supported on this platform",
			"switch %q is a %s, which runs %s only before release %s, and fabricc configures %s %s or later: no release runs both, so fabricc cannot configure this switch. Pick a model that runs %s %s or later: %s.",
			s.Name, hw.name, platformTitle(sw.Platform), ps.below, platformTitle(sw.Platform), least, sw.Platform, least, strings.Join(modelsRunning(sw.Platform), ", "))
		also(d, fmt.Sprintf("platform %s", sw.Platform), s.PlatformRange)
		return hw
	}
	runs, below := row.runs(sw.Platform, sw.OSVersion)
	switch {
	case runs:
	case below != "":
		earlier := "an earlier release"
		if least := minRelease[sw.Platform]; least != "" {
			// usable: below is later than least, so the advice holds.
			earlier = fmt.Sprintf("a release from %s (the first fabricc configures) up to before %s", least, below)
		}
		d := l.errorf(s.OSVersionRange.Or(at), "Platform release does not run on this model",
			"switch %q runs %s %s%s on its %s, which %s runs only before release %s. Set os_version to %s, or pick a model that runs %s %s: %s.",
			s.Name, sw.Platform, sw.OSVersion, defaultNote(s.OSVersion == nil), hw.name, sw.Platform, below, earlier, sw.Platform, sw.OSVersion, strings.Join(modelsRunning(sw.Platform), ", "))
		if s.OSVersion != nil {
			also(d, fmt.Sprintf("model %s", hw.name), s.ModelRange)
		}
	default:
		d := l.errorf(at, "Platform does not run on this model",
			"switch %q declares platform %q on its %s (%s, %s), which runs %s. Models that run %s: %s. Fix the platform or the model.",
			s.Name, sw.Platform, hw.name, row.vendor, row.asic.name, row.platformList(), sw.Platform, strings.Join(modelsRunning(sw.Platform), ", "))
		also(d, fmt.Sprintf("platform %s", sw.Platform), s.PlatformRange)
	}
	return hw
}

// defaultNote is " (the default; not written)" for a value fabricc
// chose, else "".
func defaultNote(isDefault bool) string {
	if isDefault {
		return " (the default; not written)"
	}
	return ""
}

// checkPortNames reports the names of one port block that the model has
// no port for, or that do not fit its cages, in one diagnostic.
func (l *lowering) checkPortNames(s *dsl.Switch, p dsl.Port, names []string, hw *switchHW) {
	var bad []string
	first := ""
	for _, n := range names {
		if _, ok := platforms[hw.platform].ports.parse(n); !ok {
			return // the platform's naming check reports it
		}
		if why, fix := nameProblem(hw.platform, hw.name, hw.row, n); why != "" {
			l.badNames[Key(s.Name, n)] = true
			if fix != "" {
				l.badNames[Key(s.Name, fix)] = true // a link to the right name is no follow-on error
			}
			if first == "" {
				first = why
			}
			bad = append(bad, n)
		}
	}
	if len(bad) == 0 {
		return
	}
	detail := fmt.Sprintf("switch %q: %s.", s.Name, first)
	if len(bad) > 1 {
		detail += fmt.Sprintf(" The same holds for %d more ports of %q: %s.", len(bad)-1, p.Spec, listText(bad[1:]))
	}
	d := l.errorf(p.LabelRange.Or(p.DefRange), "Port not on this model", "%s", detail)
	if l.portNotOnModel[s.Name] == nil {
		l.portNotOnModel[s.Name] = d
	}
}

// undeclaredAfterBadPort folds a link to an undeclared port of sw into
// the switch's "Port not on this model" error, when there is one: most
// likely the wrongly named port was meant to be this one. It reports
// whether it did.
func (l *lowering) undeclaredAfterBadPort(sw, port string) bool {
	d := l.portNotOnModel[sw]
	if d == nil {
		return false
	}
	d.Detail += fmt.Sprintf(" A link uses %s:%s, which no port block declares; if that is the port meant, correcting the port block fixes both.", sw, port)
	return true
}

// portLanes returns the lanes of a declared port running speedMbps and
// reports a speed or lane count the port cannot run (once per block).
func (l *lowering) portLanes(sw string, d *portDecl, hw *switchHW, speedMbps int) int {
	if hw == nil || l.badNames[Key(sw, d.name)] {
		return 0
	}
	written := 0
	if d.attrs.Lanes != nil {
		written = *d.attrs.Lanes
	}
	lanes, why := portLanes(hw.platform, hw.name, hw.row, d.name, speedMbps, written)
	if why == "" {
		return lanes
	}
	l.badSpeeds[Key(sw, d.name)] = true
	at := d.attrs.SpeedRange.Or(d.block)
	summary := "Port speed not supported"
	if written != 0 && strings.Contains(why, " lanes, not ") {
		at, summary = d.attrs.LanesRange.Or(at), "Invalid lane count"
	}
	l.errorOnce(at, summary, fmt.Sprintf("switch %q: %s.", sw, why))
	return lanes
}

// familyOf is the Arista platform family of an Arista model, as Arista
// AVD's platform settings name them ("7050X3", "7280R3", "7800R3"): the
// model number and its generation letter and digits, the chassis
// number's last two digits as 00 for a modular chassis (78xx, 75xx):
// 7050CX3-32S is a 7050X3, 7280SR3-48YC8 a 7280R3, 7808R3 a 7800R3,
// 7060X6-64PE a 7060X6.
func familyOf(name string) string {
	base, _, _ := strings.Cut(name, "-")
	if len(base) < 5 {
		return ""
	}
	num, rest := base[:4], base[4:]
	if strings.HasPrefix(num, "78") || strings.HasPrefix(num, "75") {
		num = num[:2] + "00"
	}
	// The generation is the letter before the first digit and what
	// follows ("CX3" -> "X3", "SR3" -> "R3"), or the last letter ("CX").
	i := strings.IndexAny(rest, "0123456789")
	switch {
	case i < 0:
		i = len(rest)
	case i == 0:
		return ""
	}
	// A K model (external TCAM, 7280CR3K-32D4) is of its model's family.
	return num + strings.TrimSuffix(rest[i-1:], "K")
}

// aristaFamily lists the Arista models of the table in the platform
// family name (any case, "DCS-" allowed), sorted; none when name is not
// a family.
func aristaFamily(name string) []string {
	n := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(name)), "DCS-")
	var out []string
	for _, m := range knownModels() {
		if hardwareTable[m].vendor == "arista" && familyOf(m) == n {
			out = append(out, m)
		}
	}
	return out
}
