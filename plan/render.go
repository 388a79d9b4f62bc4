package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/fabricc/fabricc/targets/docs"
)

// WriteText writes the plan for a terminal: a summary line, then per
// device one line per changed subject.
func WriteText(w io.Writer, p *Plan) error {
	var b strings.Builder
	b.WriteString(docs.Visible(summary(p)) + "\n")
	if len(p.FabricItems) > 0 {
		b.WriteString("\nfabric-wide\n")
		for _, it := range p.FabricItems {
			b.WriteString("  " + docs.Visible(itemText(it)) + "\n")
		}
	}
	for _, d := range p.Devices {
		b.WriteString("\n" + docs.Visible(deviceTitle(d)) + "\n")
		for _, it := range d.Items {
			b.WriteString("  " + docs.Visible(itemText(it)) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the plan as Markdown for a pull-request comment.
func WriteMarkdown(w io.Writer, p *Plan) error {
	var b strings.Builder
	b.WriteString("### fabricc plan: " + docs.Markdown(p.Fabric) + "\n\n")
	b.WriteString(docs.Markdown(summary(p)) + "\n")
	if len(p.FabricItems) > 0 {
		b.WriteString("\n#### fabric-wide\n\n")
		for _, it := range p.FabricItems {
			b.WriteString(markdownItem(it))
		}
	}
	for _, d := range p.Devices {
		b.WriteString("\n#### " + docs.Markdown(deviceTitle(d)) + "\n\n")
		for _, it := range d.Items {
			b.WriteString(markdownItem(it))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownItem is one list item: the subject in bold, then the text.
func markdownItem(it Item) string {
	rest := docs.Markdown(itemBody(it))
	if it.Subject == "" {
		return "- " + rest + "\n"
	}
	return "- **" + docs.Markdown(it.Subject) + "**: " + rest + "\n"
}

// jsonPlan is the --json form.
type jsonPlan struct {
	Fabric      string   `json:"fabric"`
	Changed     bool     `json:"changed"`
	FabricItems []Item   `json:"fabric_changes"`
	Devices     []Device `json:"devices"`
}

// JSONValue is the plan in its JSON form: fabric, changed,
// fabric_changes and devices (empty lists, not null), for WriteJSON and
// for the result of `fabricc plan --json` (docs/json.md).
func JSONValue(p *Plan) any {
	out := jsonPlan{Fabric: p.Fabric, Changed: p.Changed(), FabricItems: p.FabricItems, Devices: p.Devices}
	if out.FabricItems == nil {
		out.FabricItems = []Item{}
	}
	if out.Devices == nil {
		out.Devices = []Device{}
	}
	return out
}

// WriteJSON writes the plan as indented JSON with a final newline.
func WriteJSON(w io.Writer, p *Plan) error {
	out := JSONValue(p)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// summary is `fabric "x": 2 devices change (leaf1, gpu03)` or the
// no-change line.
func summary(p *Plan) string {
	if !p.Changed() {
		return fmt.Sprintf("No changes: fabric %q means the same in both revisions.", p.Fabric)
	}
	var names []string
	for _, d := range p.Devices {
		names = append(names, d.Name)
	}
	s := fmt.Sprintf("Fabric %q: ", p.Fabric)
	switch len(names) {
	case 0:
		s += "no device changes"
	case 1:
		s += "1 device changes (" + names[0] + ")"
	default:
		s += fmt.Sprintf("%d devices change (%s)", len(names), strings.Join(names, ", "))
	}
	if n := len(p.FabricItems); n > 0 {
		s += fmt.Sprintf("; %d fabric-wide change", n)
		if n > 1 {
			s += "s"
		}
	}
	return s + "."
}

// deviceTitle is "leaf1 (switch)" or "leaf9 (switch, added)".
func deviceTitle(d Device) string {
	if d.Status == "changed" {
		return d.Name + " (" + d.Kind + ")"
	}
	return d.Name + " (" + d.Kind + ", " + d.Status + ")"
}

// itemText is "swp3: cable 3 m dac -> 30 m dac, so PG3 xoff ...".
func itemText(it Item) string {
	if it.Subject == "" {
		return itemBody(it)
	}
	return it.Subject + ": " + itemBody(it)
}

// itemBody is the changes, the effects ("so ..."), and the causes
// ("because ...") of an item.
func itemBody(it Item) string {
	s := joinChanges(it.Changes)
	if len(it.Effects) > 0 {
		// Effects follow from the item's own changes ("so"), unless the
		// item names other causes.
		switch {
		case s != "" && len(it.Because) > 0:
			s += "; "
		case s != "":
			s += ", so "
		}
		s += joinChanges(it.Effects)
	}
	if len(it.Because) > 0 {
		s += ", because of " + strings.Join(it.Because, "; ")
	}
	return s
}

// joinChanges writes changes separated by commas.
func joinChanges(cs []Change) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = changeText(c)
	}
	return strings.Join(parts, ", ")
}
