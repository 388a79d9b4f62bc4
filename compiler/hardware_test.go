package compiler

import (
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
)

func TestResolveHardware(t *testing.T) {
	tests := []struct {
		model    string
		platform model.Platform
		asic     string
		buffer   int64
		cell     int
	}{
		{"SN2410", model.PlatformOnyx, "Spectrum", 16 << 20, 96},
		{"sn2700", model.PlatformCumulus, "Spectrum", 16 << 20, 96},
		{"SN3700", model.PlatformCumulus, "Spectrum-2", 42 << 20, 144},
		{"SN4600C", model.PlatformOnyx, "Spectrum-3", 64 << 20, 144},
		{"SN4700", model.PlatformCumulus, "Spectrum-3", 64 << 20, 144},
		{"SN5600", model.PlatformCumulus, "Spectrum-4", 160 << 20, 192},
		{"7050CX3-32S", model.PlatformEOS, "Trident3", 32 << 20, 256},
		{"7060CX-32S", model.PlatformEOS, "Tomahawk", 16 << 20, 208},
		{"7280CR3-32P4", model.PlatformEOS, "Jericho2", 16 << 20, 256},
		{"S5248F-ON", model.PlatformCumulus, "Trident3", 32 << 20, 256},
	}
	for _, tt := range tests {
		sw := &model.Switch{Name: "s", Platform: tt.platform, Hardware: model.Hardware{Model: tt.model}}
		if d := resolveHardware(sw, Sources{}); d.HasErrors() {
			t.Fatalf("%s: %v", tt.model, d)
		}
		h := sw.Hardware
		if h.ASIC != tt.asic || h.BufferBytes != tt.buffer || h.CellBytes != tt.cell ||
			h.PipelineLatencyBytes != 19456 || h.MACPHYDelayBytes != 819 || h.Source == "" {
			t.Errorf("%s: got %+v", tt.model, h)
		}
	}
}

func TestUnknownModel(t *testing.T) {
	src := Sources{"switch/leaf1/model": lineRange(7)}
	sw := &model.Switch{Name: "leaf1", Platform: model.PlatformOnyx, Hardware: model.Hardware{Model: "SN241"}}
	d := resolveHardware(sw, src)
	if len(d) != 1 || d[0].Severity != hcl.DiagError || d[0].Summary != "Unknown switch model" {
		t.Fatalf("got %v", d)
	}
	if d[0].Subject == nil || d[0].Subject.Start.Line != 7 {
		t.Errorf("subject %v, want line 7", d[0].Subject)
	}
	for _, want := range []string{`Did you mean "SN2410"?`, "Known models: 7050CX3-32S,", "SN5600"} {
		if !strings.Contains(d[0].Detail, want) {
			t.Errorf("detail %q lacks %q", d[0].Detail, want)
		}
	}
}

func TestPlatformModelMismatch(t *testing.T) {
	sw := &model.Switch{Name: "a", Platform: model.PlatformOnyx, Hardware: model.Hardware{Model: "7050CX3-32S"}}
	d := resolveHardware(sw, Sources{})
	if len(d) != 1 || d[0].Summary != "Platform does not run on this model" {
		t.Fatalf("got %v", d)
	}
}

func TestBufferStyle(t *testing.T) {
	tests := []struct {
		platform model.Platform
		version  string
		want     string
	}{
		{model.PlatformOnyx, "3.6.5000", "traffic-pool"},
		{model.PlatformOnyx, "3.6.8190", "traffic-pool"},
		{model.PlatformOnyx, "3.10.4006", "traffic-pool"},
		{model.PlatformOnyx, "3.6.4006", "advanced"},
		{model.PlatformOnyx, "3.5.1016", "advanced"},
		{model.PlatformOnyx, "", "traffic-pool"},
		{model.PlatformEOS, "4.32.1F", "profile"},
		{model.PlatformCumulus, "5.9.1", "profile"},
	}
	for _, tt := range tests {
		if got := bufferStyle(tt.platform, tt.version); got != tt.want {
			t.Errorf("bufferStyle(%s, %q) = %q, want %q", tt.platform, tt.version, got, tt.want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"3.6.5000", "3.6.5000", 0},
		{"3.6.10000", "3.6.5000", 1}, // a string compare would say -1
		{"3.6.4999", "3.6.5000", -1},
		{"3.10", "3.6.5000", 1},
		{"4.32.1F", "4.32.1", 0},
		{"3.6", "3.6.0", 0},
	}
	for _, tt := range tests {
		if got := compareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("compareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
