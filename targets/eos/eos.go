// Package eos renders the fabric-owned part of an Arista EOS switch
// configuration: VLANs, per-port L2 settings, trust, the DSCP/CoS to
// traffic-class maps, ETS, ECN, PFC, the PFC watchdog and (on
// Trident/Tomahawk ASICs) the MMU queue profile with the model's buffer
// numbers.
//
// The output file "<switch>.eos.cfg" is in the block form `show
// running-config` prints: top-level commands at column 0, interface
// sub-commands indented three spaces, tx-queue (uc-tx-queue on Trident and
// Tomahawk, TxQueueKeyword) sub-commands six, MMU
// profile sub-commands four, and "!" separators. Sections follow the order
// EOS (and Arista AVD's eos_cli_config_gen, which mirrors it so a diff
// against the running config converges) prints them:
//
//	platform trident mmu queue profile NAME     (AVD platform-trident.j2)
//	vlan N                                      (AVD vlans.j2)
//	interface EthernetN                         (AVD ethernet-interfaces.j2)
//	qos map cos ... / qos map dscp ...          (AVD qos.j2)
//	priority-flow-control pause watchdog ...    (AVD priority-flow-control.j2)
//	platform trident mmu queue profile NAME apply (AVD platform-apply.j2)
//
// Source for the order: aristanetworks/avd
// python-avd/pyavd/_eos_cli_config_gen/j2templates/eos-intended-config.j2
// and the molecule "intended/configs" expected configs (qos.cfg,
// platform.cfg).
//
// Lines starting with "!" are comments: EOS discards them when the file is
// pasted or loaded into a configuration session, and `show running-config`
// does not show them, so a diff against the running config must drop
// comment lines first. The file carries no trailing "end" so it can be sent
// inside `configure session` unchanged.
//
// See README.md in this directory for the show commands that read each
// feature back.
package eos

import (
	"fmt"
	"strconv"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/targets"
)

// configSize sizes the next configuration's buffer (targets.SizeHint).
var configSize targets.SizeHint

// Target is the renderer name recorded in every File this package writes.
const Target = "eos"

// Render renders the EOS configuration of one switch. It returns an error
// naming the switch, port or value that EOS cannot express.
func Render(f *model.Fabric, sw *model.Switch) ([]targets.File, error) {
	return renderFiles(f, sw, false)
}

// RenderMapped is Render with the file's source map (targets.SourceMap).
func RenderMapped(f *model.Fabric, sw *model.Switch) ([]targets.File, error) {
	return renderFiles(f, sw, true)
}

// renderFiles renders the configuration, with its source map when mapped.
func renderFiles(f *model.Fabric, sw *model.Switch, mapped bool) ([]targets.File, error) {
	if f == nil || sw == nil {
		return nil, fmt.Errorf("eos: nothing to render: fabric or switch is nil")
	}
	if sw.Platform != model.PlatformEOS {
		return nil, fmt.Errorf("eos: switch %q has platform %q; only %q switches render as EOS", sw.Name, sw.Platform, model.PlatformEOS)
	}
	w := &writer{Text: configSize.NewText(mapped), sw: sw.Name}
	err := renderConfig(w, f, sw)
	configSize.Done(w.Len())
	if err != nil {
		return nil, fmt.Errorf("eos: switch %q: %w", sw.Name, err)
	}
	return []targets.File{{
		Name:   sw.Name + ".eos.cfg",
		Target: Target,
		Mode:   0o644,
		Data:   w.Bytes(),
		Map:    w.SourceMap(),
	}}, nil
}

// renderConfig writes the whole configuration text into w, section by
// section.
func renderConfig(w *writer, f *model.Fabric, sw *model.Switch) error {
	tcOfDSCP, err := dscpToTC(&f.QoS)
	if err != nil {
		return err
	}
	// The tx-queue sub-blocks come from the fabric-wide classes and are
	// the same in every interface but for the watchdog's guaranteed
	// bandwidth: render (and check) both forms once, the second only
	// when the watchdog is on (pct above 0; otherwise it is the first).
	pct, keyword := GuaranteePercent(sw), TxQueueKeyword(sw.Hardware)
	txQueues := &writer{Text: targets.NewText(w.Mapped()), sw: sw.Name}
	if err := writeTxQueues(txQueues, &f.QoS, keyword, 0); err != nil {
		return err
	}
	armedQueues := txQueues
	if pct > 0 {
		armedQueues = &writer{Text: targets.NewText(w.Mapped()), sw: sw.Name}
		if err := writeTxQueues(armedQueues, &f.QoS, keyword, pct); err != nil {
			return err
		}
	}
	writeHeader(w, f, sw)
	mmu, err := writeBuffers(w, sw)
	if err != nil {
		return err
	}
	if err := writeVLANs(w, f); err != nil {
		return err
	}
	for i := range sw.Ports {
		queues := txQueues.Text
		if WatchdogArmed(&sw.Ports[i]) {
			queues = armedQueues.Text
		}
		if err := writeInterface(w, &sw.Ports[i], queues); err != nil {
			return fmt.Errorf("port %q: %w", sw.Ports[i].Name, err)
		}
	}
	writeQoSMaps(w, &f.QoS, sw, tcOfDSCP)
	if err := writeWatchdog(w, sw, pct); err != nil {
		return err
	}
	if mmu {
		w.sep()
		w.At("switch", sw.Name, "buffer")
		w.line(0, "platform trident mmu queue profile %s apply", profileName)
	}
	w.sep()
	return nil
}

// writeHeader names the fabric, switch, platform and OS version.
func writeHeader(w *writer, f *model.Fabric, sw *model.Switch) {
	w.At("fabric")
	w.Also("switch", sw.Name)
	w.comment(0, "fabric %s, switch %s", f.Name, sw.Name)
	w.At("switch", sw.Name, "os_version")
	w.Also("switch", sw.Name, "model")
	w.comment(0, "platform eos, EOS %s, hardware %s (ASIC %s)", orUnknown(sw.OSVersion), orUnknown(sw.Hardware.Model), orUnknown(sw.Hardware.ASIC))
	w.At()
	w.comment(0, "generated by fabricc; do not edit")
	w.comment(0, "units: buffers and ECN thresholds in bytes, as the model holds them;")
	w.comment(0, "PFC watchdog times in seconds = model ms / 1000")
}

// writeVLANs writes one "vlan N" block per fabric VLAN, in model order.
func writeVLANs(w *writer, f *model.Fabric) error {
	for _, v := range f.VLANs {
		if v.ID < 1 || v.ID > 4094 {
			return fmt.Errorf("vlan %d: EOS VLAN ids are 1-4094", v.ID)
		}
		w.sep()
		w.At("vlan", strconv.Itoa(v.ID))
		w.line(0, "vlan %d", v.ID)
		if v.Name != "" {
			if err := quote.CheckWord(v.Name, 63); err != nil {
				return fmt.Errorf("vlan %d: name %q %w; EOS VLAN names are one word", v.ID, v.Name, err)
			}
			w.line(1, "name %s", quote.CLIText(v.Name))
		}
	}
	return nil
}

// orUnknown returns s, or "unknown" when s is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// writer accumulates the configuration lines of switch sw, and their
// source map when one was asked for.
type writer struct {
	*targets.Text
	sw string
}

// port says that the lines written next come from port p of the switch,
// and from its HCL attribute attr when one is given.
func (w *writer) port(p *model.Port, attr ...string) {
	if w.Mapped() {
		w.At(append([]string{"switch", w.sw, "port", p.Name}, attr...)...)
	}
}

// indents are the EOS block indentations: interface sub-mode (3 spaces),
// tx-queue sub-sub-mode (6 spaces). The MMU profile uses 4 (see
// profileIndent), as `show running-config` prints it.
var indents = []string{"", "   ", "      "}

// profileIndent is the indentation of "platform trident mmu queue profile"
// sub-commands (AVD platform-trident.j2 and intended platform.cfg).
const profileIndent = "    "

// line writes one command at the given indentation level.
func (w *writer) line(level int, format string, args ...any) {
	w.raw(indents[level], format, args...)
}

// raw writes one line with an explicit indentation string.
func (w *writer) raw(indent, format string, args ...any) {
	w.WriteString(indent)
	fmt.Fprintf(w, format, args...)
	w.WriteByte('\n')
}

// comment writes an EOS comment line ("! text") at the given level; the
// text goes through quote.Comment, so it stays one line.
func (w *writer) comment(level int, format string, args ...any) {
	w.raw(indents[level]+"! ", "%s", quote.Comment(fmt.Sprintf(format, args...)))
}

// sep writes the "!" section separator EOS prints between blocks.
func (w *writer) sep() {
	w.Fixed("!\n")
}
