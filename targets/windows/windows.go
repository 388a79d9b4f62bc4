// Package windows renders the Windows host script of a fabric: one
// PowerShell script per host, "<host>.windows.ps1", that applies the host
// side of the lossless RoCE contract (DCB feature, DCBX, NetQos policies,
// PFC, ETS traffic classes, RoCE mode, VLAN, jumbo packet, addresses,
// RDMA) and can compare the host with the model instead (-Check) or show
// what it would change (-WhatIf).
//
// The cmdlets and registry keys are those of the Demartek RoCE Deployment
// Guide ("Windows: Deploying SMB Direct over RoCE with Storage Spaces"),
// the Mellanox WinOF-2 User Manual, Rev 1.21 (ConnectX-4 and later) and
// the Mellanox WinOF User Manual and Release Notes, Rev 5.50
// (ConnectX-3).
package windows

import (
	"fmt"

	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// scriptSize sizes the next script's buffer (targets.SizeHint).
var scriptSize targets.SizeHint

// Target is the renderer name written into targets.File.Target.
const Target = "windows"

// Render returns the PowerShell script of host h. It fails, naming the
// value, when the model asks for something Windows cannot express (NICs
// of one host on different RoCE priorities, ETS shares Windows' [Default]
// class cannot hold, an MTU outside the drivers' range).
func Render(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderFiles(f, h, false)
}

// RenderMapped is Render with the file's source map (targets.SourceMap).
func RenderMapped(f *model.Fabric, h *model.Host) ([]targets.File, error) {
	return renderFiles(f, h, true)
}

// renderFiles writes the script, with its source map when mapped.
func renderFiles(f *model.Fabric, h *model.Host, mapped bool) ([]targets.File, error) {
	if f == nil || h == nil {
		return nil, fmt.Errorf("windows: nothing to render: fabric or host is nil")
	}
	if h.OS != model.OSWindows {
		return nil, fmt.Errorf("windows: host %q has os %q; only %q hosts get a Windows script", h.Name, h.OS, model.OSWindows)
	}
	p, err := buildPlan(f, h)
	if err != nil {
		return nil, fmt.Errorf("windows: host %q: %w", h.Name, err)
	}
	w := &writer{b: scriptSize.NewText(mapped), host: h.Name}
	script(w, f, h, p)
	scriptSize.Done(w.b.Len())
	return []targets.File{{
		Name:   targets.HostScriptName(h),
		Target: Target,
		Mode:   0o755,
		Data:   w.Bytes(),
		Map:    w.b.SourceMap(),
	}}, nil
}
