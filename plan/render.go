package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fabricc/fabricc/targets/docs"
)

// WriteText writes the plan for a terminal: a summary line, then per
// device one line per changed subject.
func WriteText(w io.Writer, p *Plan) error {
	var b strings.Builder
	b.WriteString(docs.Visible(summary(p)) + "\n")
	if l := hostsLine(p); l != "" {
		b.WriteString(docs.Visible(l) + "\n")
	}
	for _, n := range p.Notes {
		b.WriteString(docs.Visible(n) + "\n")
	}
	for _, sec := range headSections(p) {
		b.WriteString("\n" + sec.title + "\n")
		for _, l := range sec.lines {
			b.WriteString("  " + docs.Visible(l) + "\n")
		}
	}
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
		for _, l := range deviceTail(d) {
			b.WriteString("  " + docs.Visible(l) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CommentLimit is the most characters a GitHub pull-request comment
// holds: GitHub refuses a longer one ("Body is too long (maximum is
// 65536 characters)", GitHub REST API, create an issue comment), and
// the workflow of docs/review.md would fail on it.
const CommentLimit = 65536

// CommentMarker is the first line of every Markdown plan: an HTML
// comment, which GitHub and GitLab do not show, by which a workflow finds
// its own plan comment on a pull request to update it (docs/review.md)
// rather than the last comment of a token other workflows share.
const CommentMarker = "<!-- fabricc-plan -->"

// WriteMarkdown writes the plan as Markdown for a pull-request comment,
// in at most limit characters (none when limit is 0 or less). A longer
// plan keeps its heading and summary, then as many whole sections
// (fabric-wide, then each device) as fit with a last line that says
// what is left out and how to see it. Only what may be written is
// rendered: a plan of 130,000 devices costs what its first sections do.
// Its first line is CommentMarker, also for a plan without changes.
func WriteMarkdown(w io.Writer, p *Plan, limit int) error {
	m := markdownPlan{p: p, limit: limit}
	head := CommentMarker + "\n### fabricc plan: " + docs.Markdown(p.Fabric) + "\n\n" + docs.Markdown(summary(p)) + "\n"
	if l := hostsLine(p); l != "" {
		head += "\n" + docs.Markdown(l) + "\n"
	}
	for _, n := range p.Notes {
		head += "\n" + docs.Markdown(n) + "\n"
	}
	head += markdownHeadSections(p, limit)
	var b strings.Builder
	b.WriteString(head)
	size := utf8.RuneCountInString(head)
	for i := 0; i < m.count(); i++ {
		text := m.section(i)
		n := utf8.RuneCountInString(text)
		if limit <= 0 || size+n+utf8.RuneCountInString(m.cut(i+1)) <= limit {
			b.WriteString(text)
			size += n
			continue
		}
		// The section fits only if the rest does, with no last line.
		rest, fits := m.restWithin(i, limit-size)
		if fits {
			b.WriteString(rest)
		} else {
			b.WriteString(m.cut(i))
		}
		break
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownPlan renders the sections of a Markdown plan one at a time:
// the fabric-wide part (when there is one), then one per device.
type markdownPlan struct {
	p     *Plan
	limit int
}

// count is the number of sections.
func (m markdownPlan) count() int { return m.fabricSections() + len(m.p.Devices) }

// fabricSections is 1 when the plan has fabric-wide changes, else 0.
func (m markdownPlan) fabricSections() int {
	if len(m.p.FabricItems) > 0 {
		return 1
	}
	return 0
}

// section is the Markdown of section i.
func (m markdownPlan) section(i int) string {
	var b strings.Builder
	items := m.p.FabricItems
	if i < m.fabricSections() {
		b.WriteString("\n#### fabric-wide\n\n")
	} else {
		d := m.p.Devices[i-m.fabricSections()]
		b.WriteString("\n#### " + docs.Markdown(deviceTitle(d)) + "\n\n")
		items = d.Items
	}
	for _, it := range items {
		b.WriteString(markdownItem(it))
	}
	if i >= m.fabricSections() {
		for _, l := range deviceTail(m.p.Devices[i-m.fabricSections()]) {
			b.WriteString("- " + docs.Markdown(l) + "\n")
		}
	}
	return b.String()
}

// restWithin renders the sections from i on while they fit in room
// characters, and reports whether all of them did.
func (m markdownPlan) restWithin(i, room int) (string, bool) {
	var b strings.Builder
	size := 0
	for ; i < m.count(); i++ {
		text := m.section(i)
		size += utf8.RuneCountInString(text)
		if size > room {
			return "", false
		}
		b.WriteString(text)
	}
	return b.String(), true
}

// cut is the last line of a plan that stops before section i: what is
// left out, and how to see it; "" when nothing is.
func (m markdownPlan) cut(i int) string {
	if i >= m.count() {
		return ""
	}
	var left []string
	if i < m.fabricSections() {
		left = append(left, "the fabric-wide changes")
		i++
	}
	if devices := m.count() - i; devices > 0 {
		first := m.p.Devices[i-m.fabricSections()].Name
		what := docs.Thousands(int64(devices)) + " more devices, from " + first + " on"
		if devices == 1 {
			what = "1 more device, " + first
		}
		left = append(left, what)
	}
	return "\n_Not shown: " + docs.Markdown(strings.Join(left, " and ")) + ". " + limitText(m.limit) +
		"; `fabricc plan` with `--format text` or `--json` prints the whole plan._\n"
}

// limitText says why the plan stops: GitHub's limit, or the one given
// with --markdown-limit.
func limitText(limit int) string {
	if limit == CommentLimit {
		return "A pull-request comment holds " + docs.Thousands(CommentLimit) + " characters"
	}
	return "This comment is limited to " + docs.Thousands(int64(limit)) + " characters (--markdown-limit)"
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
	Notes       []string `json:"notes,omitempty"`
	// DisruptiveSwitches counts the switches with an impact.
	DisruptiveSwitches int `json:"disruptive_switches"`
	// DisruptiveHosts counts the hosts with an impact.
	DisruptiveHosts int `json:"disruptive_hosts"`
	// HostsToRun are the hosts whose script is to be run.
	HostsToRun   []string  `json:"hosts_to_run"`
	Rollout      []Rollout `json:"rollout"`
	NewWarnings  []Warning `json:"new_warnings"`
	GoneWarnings []Warning `json:"gone_warnings"`
}

// JSONValue is the plan in its JSON form: fabric, changed,
// fabric_changes and devices (empty lists, not null), notes (absent
// when there are none), disruptive_switches, disruptive_hosts,
// hosts_to_run, rollout,
// new_warnings and gone_warnings (empty lists, not null), for WriteJSON and
// for the result of `fabricc plan --json` (docs/json.md).
func JSONValue(p *Plan) any {
	out := jsonPlan{Fabric: p.Fabric, Changed: p.Changed(), FabricItems: p.FabricItems, Devices: p.Devices, Notes: p.Notes,
		DisruptiveSwitches: disruptiveSwitches(p), DisruptiveHosts: disruptiveHosts(p), HostsToRun: nonNil(hostsToRun(p)), Rollout: nonNil(p.Rollout),
		NewWarnings: nonNil(p.NewWarnings), GoneWarnings: nonNil(p.GoneWarnings)}
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
		s += fmt.Sprintf("%d devices change (%s)", len(names), namesInSummary(names))
	}
	if n := len(p.FabricItems); n > 0 {
		s += fmt.Sprintf("; %d fabric-wide change", n)
		if n > 1 {
			s += "s"
		}
	}
	var disrupted []string
	if n := disruptiveSwitches(p); n > 0 {
		disrupted = append(disrupted, plural(n, "switch", "switches"))
	}
	if n := disruptiveHosts(p); n > 0 {
		disrupted = append(disrupted, plural(n, "host", "hosts"))
	}
	if len(disrupted) > 0 {
		s += "; " + strings.Join(disrupted, " and ") + " with disruptive changes"
	}
	return s + "."
}

// summaryNames is how many device names the summary line gives: a
// change to the traffic classes changes every device, 130,944 in the
// largest benchmark fabric, and the line named them all.
const summaryNames = 10

// namesInSummary is the names, the first summaryNames of them when there
// are more, with how many more.
func namesInSummary(names []string) string {
	if len(names) <= summaryNames {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:summaryNames], ", ") + fmt.Sprintf(" and %d more", len(names)-summaryNames)
}

// deviceTitle is "leaf1 (switch)" or "leaf9 (switch, added)".
func deviceTitle(d Device) string {
	if d.Status == "changed" {
		return d.Name + " (" + d.Kind + ")"
	}
	return d.Name + " (" + d.Kind + ", " + d.Status + ")"
}

// itemText is "swp3: cable 3 m dac -> 30 m dac, so PG3 in flight after PAUSE ...".
func itemText(it Item) string {
	if it.Subject == "" {
		return itemBody(it)
	}
	return it.Subject + ": " + itemBody(it)
}

// itemBody is the changes, the effects ("so ..."), and the causes
// ("because ...") of an item.
func itemBody(it Item) string {
	join := joinChanges
	if len(it.Changes) > 0 && it.Changes[0].Field == "added" {
		// An added subject's values have nothing before them.
		join = joinAdded
	}
	s := join(it.Changes)
	if len(it.Effects) > 0 {
		// Effects follow from the item's own changes ("so"), unless the
		// item names other causes.
		switch {
		case s != "" && len(it.Because) > 0:
			s += "; "
		case s != "":
			s += ", so "
		}
		s += join(it.Effects)
	}
	if len(it.Because) > 0 {
		s += ", because of " + strings.Join(it.Because, "; ")
	}
	if it.Note != "" {
		s += " (" + it.Note + ")"
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

// joinAdded writes the changes of an added subject: the first
// ("added: ...") as changeText does, the others without their "none"
// before (addedText).
func joinAdded(cs []Change) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		if c.Field == "added" {
			parts[i] = changeText(c)
			continue
		}
		parts[i] = addedText(c)
	}
	return strings.Join(parts, ", ")
}

// nonNil is s, or an empty list for JSON's [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// headSection is a titled list shown under the summary, before the
// devices, in every format: the rollout and the warnings.
type headSection struct {
	title string
	lines []string
}

// headSections are the rollout, the new warnings and the warnings gone,
// those that have lines.
func headSections(p *Plan) []headSection {
	var out []headSection
	if len(p.Rollout) > 0 {
		sec := headSection{title: "rollout (fabricc push changes the switches; each host changes when its script runs)"}
		for _, r := range p.Rollout {
			sec.lines = append(sec.lines, r.Line())
		}
		out = append(out, sec)
	}
	for _, ws := range []struct {
		title string
		list  []Warning
	}{{"new warnings (the base did not raise them, or raised them with another text: changed)", p.NewWarnings}, {"warnings gone (the base raised them)", p.GoneWarnings}} {
		if len(ws.list) == 0 {
			continue
		}
		sec := headSection{title: ws.title}
		for _, w := range ws.list {
			sec.lines = append(sec.lines, warningText(w))
		}
		out = append(out, sec)
	}
	return out
}

// deviceTail are the lines after a device's items: its impact, then,
// for a host, whether to run its script.
func deviceTail(d Device) []string {
	var out []string
	for _, i := range d.Impact {
		out = append(out, impactText(i))
	}
	if s := scriptText(d); s != "" {
		out = append(out, s)
	}
	return out
}

// markdownHeadSections renders the rollout and warning sections in at
// most half of limit (none when limit is 0 or less): a change may raise
// thousands of warnings, and the devices need room too. A section cut
// short ends with a line that says how many lines are left out.
func markdownHeadSections(p *Plan, limit int) string {
	var b strings.Builder
	size := 0
	for _, sec := range headSections(p) {
		title := "\n#### " + sec.title + "\n\n"
		b.WriteString(title)
		size += utf8.RuneCountInString(title)
		for i, l := range sec.lines {
			line := "- " + docs.Markdown(l) + "\n"
			n := utf8.RuneCountInString(line)
			if limit > 0 && size+n > limit/2 {
				b.WriteString("- _" + docs.Thousands(int64(len(sec.lines)-i)) + " more not shown; `fabricc plan` with `--format text` or `--json` lists them all._\n")
				break
			}
			b.WriteString(line)
			size += n
		}
	}
	return b.String()
}
