// Package all is the registry of targets: which renderers apply to which
// switch platform and host operating system. Each target package adds one
// line here; nothing else in fabricc names a target.
package all

import (
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
	"github.com/fabricc/fabricc/targets/cumulus"
	"github.com/fabricc/fabricc/targets/docs"
	"github.com/fabricc/fabricc/targets/eos"
	"github.com/fabricc/fabricc/targets/freebsd"
	"github.com/fabricc/fabricc/targets/linux"
	"github.com/fabricc/fabricc/targets/onyx"
	"github.com/fabricc/fabricc/targets/openconfig"
	"github.com/fabricc/fabricc/targets/windows"
)

// switchTarget is one switch renderer: plain, and with source maps.
type switchTarget struct{ plain, mapped targets.SwitchRenderer }

// hostTarget is one host renderer: plain, and with source maps.
type hostTarget struct{ plain, mapped targets.HostRenderer }

// switchTargets lists, per platform, the renderers of its native config.
var switchTargets = map[model.Platform][]switchTarget{
	model.PlatformOnyx:    {{onyx.Render, onyx.RenderMapped}},
	model.PlatformEOS:     {{eos.Render, eos.RenderMapped}},
	model.PlatformCumulus: {{cumulus.Render, cumulus.RenderMapped}},
}

// everySwitch lists renderers that apply to every switch whatever its
// platform (OpenConfig, the switch's document and buffer chart).
var everySwitch = []switchTarget{
	{openconfig.Render, openconfig.RenderMapped},
	{docs.RenderSwitch, docs.RenderSwitchMapped},
}

// hostTargets lists, per operating system, the renderers of its scripts.
var hostTargets = map[model.OS][]hostTarget{
	model.OSLinux:   {{linux.Render, linux.RenderMapped}},
	model.OSWindows: {{windows.Render, windows.RenderMapped}},
	model.OSFreeBSD: {{freebsd.Render, freebsd.RenderMapped}},
}

// everyHost lists renderers that apply to every host whatever its
// operating system (the host's document).
var everyHost = []hostTarget{{docs.RenderHost, docs.RenderHostMapped}}

// ForSwitch returns the renderers for sw: its platform's first, then
// those that apply to every switch.
func ForSwitch(sw *model.Switch) []targets.SwitchRenderer { return forSwitch(sw, false) }

// ForSwitchPlatform returns only the renderers of sw's platform (its
// configuration files), without those every switch gets (OpenConfig,
// documents).
func ForSwitchPlatform(sw *model.Switch) []targets.SwitchRenderer {
	var out []targets.SwitchRenderer
	for _, t := range switchTargets[sw.Platform] {
		out = append(out, t.plain)
	}
	return out
}

// ForSwitchMapped is ForSwitch with renderers that also return each
// file's source map (targets.File.Map).
func ForSwitchMapped(sw *model.Switch) []targets.SwitchRenderer { return forSwitch(sw, true) }

// forSwitch picks sw's renderers in either form.
func forSwitch(sw *model.Switch, mapped bool) []targets.SwitchRenderer {
	var out []targets.SwitchRenderer
	for _, t := range append(append([]switchTarget(nil), switchTargets[sw.Platform]...), everySwitch...) {
		out = append(out, pick(t.plain, t.mapped, mapped))
	}
	return out
}

// ForHost returns the renderers for h: its operating system's first,
// then those that apply to every host.
func ForHost(h *model.Host) []targets.HostRenderer { return forHost(h, false) }

// ForHostOS returns only the renderers of h's operating system (its
// script and, on FreeBSD, its rc.conf and loader.conf), without the
// document every host gets.
func ForHostOS(h *model.Host) []targets.HostRenderer {
	var out []targets.HostRenderer
	for _, t := range hostTargets[h.OS] {
		out = append(out, t.plain)
	}
	return out
}

// ForHostMapped is ForHost with renderers that also return each file's
// source map.
func ForHostMapped(h *model.Host) []targets.HostRenderer { return forHost(h, true) }

// forHost picks h's renderers in either form.
func forHost(h *model.Host, mapped bool) []targets.HostRenderer {
	var out []targets.HostRenderer
	for _, t := range append(append([]hostTarget(nil), hostTargets[h.OS]...), everyHost...) {
		out = append(out, pick(t.plain, t.mapped, mapped))
	}
	return out
}

// pick returns mapped when asked for it, plain otherwise.
func pick[R any](plain, mapped R, wantMapped bool) R {
	if wantMapped {
		return mapped
	}
	return plain
}
