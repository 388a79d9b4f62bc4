package push

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/fabricc/fabricc/compiler"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/fabricc/fabricc/push/verify"
)

// The switch's hardware model against the fabric's (review rmig #5): a
// configuration is computed for one model (its buffer, headroom, pools
// and ports), and the replacement of a switch by another model is "edit
// model, then push once the new box is racked". Push and diff refuse a
// switch whose model is not the fabric's before anything is sent, before
// the change is staged and so before any other refusal (modelNote);
// verify reports it as a difference (modelDifference). A model the switch does not
// print, or that fabricc's model catalogue does not know, is a note,
// not a refusal.

// hwModel is how a platform prints its hardware model (Vendor.Model).
type hwModel struct {
	// Command prints the model.
	Command string
	// Parse returns the model as Command's output prints it, "" when
	// it prints none.
	Parse func(out string) string
	// OfState, for a Command among the platform's ReadBack commands,
	// is the model as the read's own decoding holds it (ok false when
	// the State has none): the model check takes it from the read
	// instead of decoding the output again (keptModel).
	OfState func(s *verify.State) (model string, ok bool)
}

// upperModelNames is the model catalogue's names with their upper-case
// form, made once: a push reads several switches' models.
var upperModelNames = sync.OnceValue(func() []struct{ name, upper string } {
	var out []struct{ name, upper string }
	for _, n := range compiler.ModelNames() {
		out = append(out, struct{ name, upper string }{n, strings.ToUpper(n)})
	}
	return out
})

// catalogModel is the name in fabricc's model catalogue (compiler.Models,
// the names the fabric's `model` takes) that a model string as a switch
// prints it names, or "" when it names none, or two that are not one
// inside the other. Case is ignored, and a catalogue name counts where
// it stands as a word of its own or after a vendor prefix: Arista's
// "DCS-" (EOS `show version` modelName "DCS-7050CX3-32S"), NVIDIA's part
// numbers "MSN2700-CS2F" (an "M", then the model, then a suffix for
// airflow and power supplies), ONIE platform names
// "x86_64-mlnx_msn2700-r0". Of two names one inside the other the
// longer wins, so that "MSN3700C-CS2F" is an SN3700C, not an SN3700.
func catalogModel(printed string) string {
	s := strings.ToUpper(strings.TrimSpace(printed))
	var found []string
	for _, m := range upperModelNames() {
		if containsWord(s, m.upper) {
			found = append(found, m.name)
		}
	}
	best := ""
	for _, name := range found {
		switch {
		case best == "" || strings.Contains(strings.ToUpper(name), strings.ToUpper(best)):
			best = name
		case !strings.Contains(strings.ToUpper(best), strings.ToUpper(name)):
			return ""
		}
	}
	return best
}

// containsWord reports whether name occurs in s with no letter or digit
// right after it, and none right before it but the "M" of NVIDIA's part
// numbers ("MSN2700").
func containsWord(s, name string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		before := start == 0 || !alnum(s[start-1]) || (s[start-1] == 'M' && strings.HasPrefix(name, "SN") && (start == 1 || !alnum(s[start-2])))
		if before && (end == len(s) || !alnum(s[end])) {
			return true
		}
		i = start + 1
	}
}

// alnum reports whether b is an ASCII letter or digit.
func alnum(b byte) bool { return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' }

// modelCheck compares the model a switch printed (printed, read with
// source, "" when it printed none) with the one the fabric declares
// (declared, a catalogue name; a file without one, such as a header
// that says "hardware not declared", is not checked). A mismatch is a
// *modelMismatch naming both and the fix; a model that cannot be read
// or that the catalogue does not know is a note.
func modelCheck(declared, printed, source string) (note string, err error) {
	want := catalogModel(declared)
	if want == "" {
		return "", nil
	}
	got := catalogModel(printed)
	switch {
	case strings.TrimSpace(printed) == "":
		return fmt.Sprintf("the switch's hardware model was not compared with the fabric's %s: %s printed none", want, source), nil
	case got == "":
		return fmt.Sprintf("the switch's hardware model was not compared with the fabric's %s: %s prints \"%s\", which is no model fabricc knows",
			want, source, quote.Visible(strings.TrimSpace(printed))), nil
	case got == want:
		return "", nil
	}
	return "", &modelMismatch{want: want, got: got, printed: strings.TrimSpace(printed), source: source}
}

// modelMismatch is a switch of another hardware model than the
// fabric's: want and got are catalogue names, printed is what source,
// the platform's model command, printed.
type modelMismatch struct{ want, got, printed, source string }

// Error is push's and the dry run's refusal.
func (m *modelMismatch) Error() string {
	return fmt.Sprintf("wrong hardware model: the fabric says %s, the switch is %s (%s: %s); the configuration is computed for the fabric's model "+
		"(buffers, headroom, ports): edit model in the fabric, or push after the replacement; nothing was changed",
		m.want, article(m.got), m.source, quote.Visible(m.printed))
}

// Note is verify's note of the mismatch, which names the fix.
func (m *modelMismatch) Note() string {
	return fmt.Sprintf("the fabric says %s, the switch is %s: edit model in the fabric, or push after the replacement", m.want, article(m.got))
}

// Difference is verify's difference of the mismatch on device.
func (m *modelMismatch) Difference(device string) verify.Difference {
	return verify.Difference{Device: device, Field: "hardware model", Intended: m.want, Actual: fmt.Sprintf("%s (%s: %s)", m.got, m.source, m.printed)}
}

// article is model with "a" or "an" as its first letter or digit is
// read out ("an SN2700", "a 7050CX3-32S").
func article(model string) string {
	if model != "" && strings.ContainsRune("AEFHILMNORSX8", rune(strings.ToUpper(model)[0])) {
		return "an " + model
	}
	return "a " + model
}

// withNote puts note above diff as a comment line, where a push shows
// what it found: only when the push changes something (diff not "").
func withNote(note, diff string) string {
	if note == "" || diff == "" {
		return diff
	}
	return "# note: " + note + "\n" + diff
}

// modelNote compares the switch's hardware model with the fabric's
// (modelCheck) before a push or dry run stages its change: a switch of
// another model is refused (*modelMismatch); note says when the model
// could not be compared, and goes above the diff (withNote). A platform
// without a model command, or a switch without a declared model, is not
// compared.
func (d *device) modelNote() (note string, err error) {
	m := d.v.Model
	want := d.t.Switch.Hardware.Model
	if m.Command == "" || want == "" {
		return "", nil
	}
	printed, err := d.printedModel()
	if err != nil {
		return "", err
	}
	return modelCheck(want, printed, m.Command)
}

// printedModel is the switch's hardware model as its Model command
// prints it: from the latest read of the switch when the command is one
// of its ReadBack commands (NVUE's `nv config show -o json`), as that
// read decoded it (d.keptModel) or, when it did not, from its text
// (d.outs); else sent (readModel).
func (d *device) printedModel() (string, error) {
	if d.keptModel != nil {
		return *d.keptModel, nil
	}
	if out, ok := d.outs[d.v.Model.Command]; ok {
		return d.v.Model.Parse(out), nil
	}
	return readModel(d.conn, d.v.Model)
}

// keepModel keeps the model of got, the State a read decoded, for the
// model check (printedModel), when the platform's model command is one
// of the read's and the State holds its decoding (hwModel.OfState).
func (d *device) keepModel(got *verify.State) {
	m := d.v.Model
	if _, read := d.outs[m.Command]; !read || m.OfState == nil || got == nil {
		return
	}
	if model, ok := m.OfState(got); ok {
		d.keptModel = &model
	}
}

// readModel sends a platform's model command; a refused command is a
// model not printed (""), any other failure an error.
func readModel(c Conn, m hwModel) (string, error) {
	out, err := c.Send(m.Command)
	if refused(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return m.Parse(out), nil
}

// modelDifference is verify's comparison of the switch's hardware model
// with the fabric's (modelNote): a difference when they are not the
// same model, with a note naming the fix; a note when the model cannot
// be read or is unknown. A failure to send the command is a note too:
// the rest of verify has read the switch already.
func (d *device) modelDifference() []verify.Difference {
	note, err := d.modelNote()
	if note != "" {
		d.res.Notes = append(d.res.Notes, note)
	}
	var mm *modelMismatch
	switch {
	case errors.As(err, &mm):
		d.res.Notes = append(d.res.Notes, mm.Note())
		return []verify.Difference{mm.Difference(d.t.Switch.Name)}
	case err != nil:
		d.res.Notes = append(d.res.Notes, fmt.Sprintf("the switch's hardware model was not compared with the fabric's %s: %s failed: %v",
			d.t.Switch.Hardware.Model, d.v.Model.Command, err))
	}
	return nil
}
