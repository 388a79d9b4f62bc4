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

// switchTargets lists, per platform, the renderers of its native config.
var switchTargets = map[model.Platform][]targets.SwitchRenderer{
	model.PlatformOnyx:    {onyx.Render},
	model.PlatformEOS:     {eos.Render},
	model.PlatformCumulus: {cumulus.Render},
}

// everySwitch lists renderers that apply to every switch whatever its
// platform (OpenConfig, the switch's document and buffer chart).
var everySwitch = []targets.SwitchRenderer{openconfig.Render, docs.RenderSwitch}

// hostTargets lists, per operating system, the renderers of its scripts.
var hostTargets = map[model.OS][]targets.HostRenderer{
	model.OSLinux:   {linux.Render},
	model.OSWindows: {windows.Render},
	model.OSFreeBSD: {freebsd.Render},
}

// ForSwitch returns the renderers for sw: its platform's first, then
// those that apply to every switch.
func ForSwitch(sw *model.Switch) []targets.SwitchRenderer {
	out := append([]targets.SwitchRenderer(nil), switchTargets[sw.Platform]...)
	return append(out, everySwitch...)
}

// everyHost lists renderers that apply to every host whatever its
// operating system (the host's document).
var everyHost = []targets.HostRenderer{docs.RenderHost}

// ForHost returns the renderers for h: its operating system's first,
// then those that apply to every host.
func ForHost(h *model.Host) []targets.HostRenderer {
	out := append([]targets.HostRenderer(nil), hostTargets[h.OS]...)
	return append(out, everyHost...)
}
