package cumulus

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/fabricc/fabricc/sim/cli"
)

// nv runs `nv ...` (NVUE command reference, Config Commands; Cumulus Linux
// user guide, NVUE CLI).
func (s *shell) nv(w []string) string {
	if len(w) == 0 {
		return "Usage: nv [options] <command> ..."
	}
	switch w[0] {
	case "set", "unset":
		return s.setUnset(w[0], w[1:])
	case "show":
		return s.show(w[1:])
	case "config":
		if len(w) > 1 {
			return s.config(w[1], w[2:])
		}
	}
	return "Error: unknown command: nv " + strings.Join(w, " ")
}

func (s *shell) setUnset(verb string, path []string) string {
	if len(path) == 0 {
		return "Error: nv " + verb + " needs a path"
	}
	if s.d.confirm != nil {
		return "Error: a revision is waiting for confirmation; run nv config apply --confirm-yes first"
	}
	t := clone(s.d.edit().t)
	var err error
	if verb == "set" {
		err = setPath(s.d.schema, t, path)
		roceDefaults(t, s.d.opts.Version)
	} else {
		err = unsetPath(s.d.schema, t, path)
	}
	if err != nil {
		return err.Error()
	}
	s.d.pending.t = t
	return ""
}

func (s *shell) config(verb string, args []string) string {
	out, flags := splitFlags(args)
	switch verb {
	case "apply":
		return s.applyCmd(out, flags)
	case "diff":
		if len(out) == 2 {
			return s.d.diffRevisions(out[0], out[1], flags["-o"] == "commands")
		}
		return s.d.diff(flags["-o"] == "commands")
	case "detach":
		if s.d.pending != nil {
			s.d.pending.state = "detached"
			s.d.pending = nil
		}
		return ""
	case "patch", "replace":
		if len(out) != 1 {
			return "Error: nv config " + verb + " needs one file"
		}
		return s.patch(verb, out[0])
	case "show":
		return format(configShow(s.d.applied), flags["-o"], s.d.header())
	case "history":
		return s.d.history(flags["-o"])
	case "revision":
		return cli.JSON(s.d.revisionJSON())
	case "save":
		return s.d.save()
	}
	return "Error: unknown command: nv config " + verb
}

// splitFlags separates `-o json`, `--confirm 300s`, `-y`, `-m msg` from
// positional arguments.
func splitFlags(args []string) ([]string, map[string]string) {
	flags := map[string]string{}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-o", "--output", "-m", "--message":
			if i+1 < len(args) {
				flags[shortFlag(a)] = args[i+1]
				i++
			}
		case "--confirm":
			flags[a] = "10m"
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				flags[a] = args[i+1]
				i++
			}
		default:
			if strings.HasPrefix(a, "-") {
				flags[a] = "true"
			} else {
				pos = append(pos, a)
			}
		}
	}
	return pos, flags
}

func shortFlag(a string) string {
	switch a {
	case "--output":
		return "-o"
	case "--message":
		return "-m"
	}
	return a
}

// applyCmd is `nv config apply`. A revision applied with --confirm is kept
// with `nv config apply --confirm-yes` and rolled back with --confirm-no;
// NVUE has no `nv config confirm` (the config commands of the NVUE Command
// Reference, Config Commands, and of the Cumulus Linux user guide, NVUE
// CLI, "Configuration Management Commands", are apply, attach, delete,
// detach, diff, find, history, patch, replace, revision, save, show and
// translate; an NVUE fork of napalm-cumulus, napalm_cumulus/cumulus.py
// confirm_commit, sends `nv config apply <rev> --confirm-yes`).
func (s *shell) applyCmd(pos []string, flags map[string]string) string {
	if flags["--confirm-yes"] != "" {
		return s.d.confirmNow()
	}
	if flags["--confirm-no"] != "" {
		if s.d.confirm == nil {
			return "Error: no revision is waiting for confirmation"
		}
		s.d.confirm.timer.Stop()
		s.d.expireLocked(s.d.confirm)
		return ""
	}
	var rev *revision
	switch {
	case len(pos) == 0:
		if s.d.pending == nil {
			return "Warning: no pending changes to apply"
		}
		rev = s.d.pending
	default:
		t, ok := s.d.revisionTree(pos[0])
		if pos[0] == "empty" {
			t, ok = tree{}, true
		}
		if !ok {
			return "Error: revision " + pos[0] + " does not exist"
		}
		rev = s.d.add(clone(t), "pending", "apply of revision "+pos[0])
	}
	var window time.Duration
	if c, ok := flags["--confirm"]; ok {
		d, err := confirmDuration(c)
		if err != nil {
			return "Error: " + err.Error()
		}
		window = d
	}
	rev.message = flags["-m"]
	rev.appliedBy = s.user
	do := func() string { return s.d.apply(rev, window) }
	if flags["-y"] == "" && flags["--assume-yes"] == "" {
		s.ask = func() (string, int) { return nvStatus(do()) }
		return s.d.diff(false)
	}
	return do()
}

// nvStatus is the exit status of an nv command's output: 1 for an error
// or a refused apply (invalidConfig).
func nvStatus(out string) (string, int) {
	if strings.HasPrefix(out, "Error") || strings.HasPrefix(out, "Invalid config") {
		return out, 1
	}
	return out, 0
}

// confirmDuration parses "300s", "5m", "1h"; a bare number is minutes
// (NVUE command reference: `--confirm 60` is one hour).
func confirmDuration(v string) (time.Duration, error) {
	if n, err := strconv.Atoi(v); err == nil {
		return time.Duration(n) * time.Minute, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("invalid confirm time %q; use e.g. 300s, 5m or 1h", v)
	}
	return d, nil
}

// expireLocked is expire for a caller that holds the lock: the window
// closed or --confirm-no rejected the revision, which ends
// "confirm_fail", the state the public NVUE REST client
// entropia/gpn-noc-gpncfg sets to cancel a revision waiting for
// confirmation (gpncfg/deployment/__init__.py, cancel_revision; NT_FAIL).
func (d *Device) expireLocked(rev *revision) {
	d.applied = rev.prev
	rev.state = "confirm_fail"
	d.confirm = nil
}

func (s *shell) patch(verb, file string) string {
	data, ok := s.d.files[file]
	if !ok {
		return "Error: " + file + ": No such file or directory"
	}
	if s.d.confirm != nil {
		return "Error: a revision is waiting for confirmation; run nv config apply --confirm-yes first"
	}
	sets, unsets, err := parsePatch(data)
	if err != nil {
		return "Error: " + file + ": " + err.Error()
	}
	t := clone(s.d.edit().t)
	if verb == "replace" {
		t = tree{}
	}
	for _, p := range flatten(unsets) {
		if err := unsetPath(s.d.schema, t, p); err != nil {
			return err.Error() + " (in " + file + ")"
		}
	}
	for _, p := range flatten(sets) {
		if err := setPath(s.d.schema, t, p); err != nil {
			return err.Error() + " (path " + strings.Join(p, " ") + " in " + file + ")"
		}
	}
	roceDefaults(t, s.d.opts.Version)
	s.d.pending.t = t
	return ""
}

// parsePatch reads NVUE YAML: a list of {header|set|unset} documents (the
// startup.yaml form) or one object (taken as set).
func parsePatch(data string) (sets, unsets tree, err error) {
	var raw any
	if err := yaml.Unmarshal([]byte(data), &raw); err != nil {
		return nil, nil, err
	}
	sets, unsets = tree{}, tree{}
	items, isList := raw.([]any)
	if !isList {
		items = []any{map[string]any{"set": raw}}
	}
	for _, it := range items {
		m, ok := toTree(it).(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("expected set/unset objects, got %v", it)
		}
		for k, v := range m {
			obj, _ := v.(map[string]any)
			switch k {
			case "set":
				merge(sets, obj)
			case "unset":
				merge(unsets, obj)
			case "header":
			default:
				return nil, nil, fmt.Errorf("unknown top-level key %q (want set, unset or header)", k)
			}
		}
	}
	return sets, unsets, nil
}

// toTree converts YAML values: keys to strings, leaves kept.
func toTree(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := tree{}
		for k, c := range x {
			out[k] = toTree(c)
		}
		return out
	case map[any]any:
		out := tree{}
		for k, c := range x {
			out[fmt.Sprint(k)] = toTree(c)
		}
		return out
	case nil:
		return tree{}
	}
	return v
}

func merge(dst, src tree) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			merge(child(dst, k), sm)
			continue
		}
		dst[k] = v
	}
}

// diff is `nv config diff`: pending against applied.
func (d *Device) diff(asCommands bool) string {
	if d.pending == nil {
		return ""
	}
	return diffTrees(d.applied, d.pending.t, asCommands)
}

// revisionTree is a configuration `nv config diff <revision-base>
// <revision-target>` and `nv config apply <revision>` name: applied,
// startup (what `nv config save` last wrote) or a revision number (NVUE
// Command Reference, Config Commands).
func (d *Device) revisionTree(name string) (tree, bool) {
	switch name {
	case "applied":
		return d.applied, true
	case "startup":
		return d.saved, true
	}
	id, err := strconv.Atoi(name)
	r, ok := d.revs[id]
	if err != nil || !ok {
		return nil, false
	}
	return r.t, true
}

// diffRevisions is `nv config diff <revision-base> <revision-target>`:
// what target changes from base, "" when they are the same.
func (d *Device) diffRevisions(base, target string, asCommands bool) string {
	a, ok := d.revisionTree(base)
	if !ok {
		return "Error: revision " + base + " does not exist"
	}
	b, ok := d.revisionTree(target)
	if !ok {
		return "Error: revision " + target + " does not exist"
	}
	return diffTrees(a, b, asCommands)
}

// diffTrees is what b changes from a: `nv set`/`nv unset` commands, or
// NVUE's YAML list of the changes, `- set:` with the new values and
// `- unset:` with the paths removed (Cumulus Linux user guide, NVUE CLI,
// "View Differences Between Configurations": `nv config diff 2 3` prints
// `- unset:` followed by the removed path, its last key with no value;
// only the new configuration is shown), "" when nothing changes.
func diffTrees(a, b tree, asCommands bool) string {
	if asCommands {
		have, p := lineSet(commands(a)), commands(b)
		var out strings.Builder
		for _, l := range strings.Split(strings.TrimSpace(p), "\n") {
			if l != "" && !have[l] {
				out.WriteString(l + "\n")
			}
		}
		pl := lineSet(p)
		for _, l := range strings.Split(strings.TrimSpace(commands(a)), "\n") {
			if l != "" && !pl[l] {
				out.WriteString("nv unset" + strings.TrimPrefix(l, "nv set") + "\n")
			}
		}
		return out.String()
	}
	var ops []any
	if set := setPart(a, b); len(set) > 0 {
		ops = append(ops, map[string]any{"set": set})
	}
	if unset := unsetPart(a, b); len(unset) > 0 {
		ops = append(ops, map[string]any{"unset": unset})
	}
	if len(ops) == 0 {
		return ""
	}
	var out strings.Builder
	var y strings.Builder
	enc := yaml.NewEncoder(&y)
	enc.SetIndent(2) // as the user guide's samples indent
	if err := enc.Encode(ops); err != nil {
		return "Error: " + err.Error()
	}
	for _, l := range strings.SplitAfter(y.String(), "\n") {
		// A removed path ends in a key with no value ("l2:"), not "null".
		if t := strings.TrimSuffix(l, "\n"); strings.HasSuffix(t, ": null") {
			l = strings.TrimSuffix(t, " null") + "\n"
		}
		out.WriteString(l)
	}
	return out.String()
}

// setPart is what b has that a has not, or has with another value.
func setPart(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, bv := range b {
		av, ok := a[k]
		am, aIsMap := av.(map[string]any)
		bm, bIsMap := bv.(map[string]any)
		switch {
		case !ok:
			out[k] = bv
		case aIsMap && bIsMap:
			if sub := setPart(am, bm); len(sub) > 0 {
				out[k] = sub
			}
		case !reflect.DeepEqual(av, bv):
			out[k] = bv
		}
	}
	return out
}

// unsetPart is the paths a has and b has not, each ending in a key
// with no value.
func unsetPart(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, av := range a {
		bv, ok := b[k]
		if !ok {
			out[k] = nil
			continue
		}
		am, aIsMap := av.(map[string]any)
		bm, bIsMap := bv.(map[string]any)
		if aIsMap && bIsMap {
			if sub := unsetPart(am, bm); len(sub) > 0 {
				out[k] = sub
			}
		}
	}
	return out
}

func lineSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		out[l] = true
	}
	return out
}

// history is `nv config history [-o json]`: one entry for each applied
// revision, oldest first, in the shape of the `nv config history
// --output json` example in NVIDIA's switch tests (sonic-mgmt,
// ngts/nvos_tools/infra/OutputParsingTool.py, parse_config_history):
// apply-id, apply-meta (method, reason, rev_id, state_controls, user),
// date and message. rev_id is the revision's ID as a string
// ("rev_id": "changeset/admin/2022-08-01_07.51.40_HN1G" there), here
// the integer ID of the revision list ("2"), the form of `nv config
// revision`; apply-id is the "Apply ID" column of that list
// ("rev_1_apply_1", NVUE Command Reference, Config Commands, `nv config
// revision` example). YAML when -o is not json, as `nv config show`.
func (d *Device) history(output string) string {
	var entries []any
	for _, id := range d.revIDs() {
		r := d.revs[id]
		if r.appliedAt.IsZero() {
			continue
		}
		rev := strconv.Itoa(id)
		entries = append(entries, map[string]any{
			"apply-id":   "rev_" + rev + "_apply_1",
			"apply-meta": map[string]any{"method": "CLI", "reason": "Config update", "rev_id": rev, "state_controls": map[string]any{}, "user": r.appliedBy},
			"date":       r.appliedAt.Format("2006-01-02T15:04:05-07:00"),
			"message":    r.message,
		})
	}
	if output == "json" {
		return cli.JSON(entries)
	}
	return toYAMLAny(entries)
}

// revIDs lists the revision IDs, oldest first.
func (d *Device) revIDs() []int { return cli.SortedKeys(d.revs) }

// revisionJSON is `nv config revision -o json`.
func (d *Device) revisionJSON() map[string]any {
	out := map[string]any{}
	for _, id := range d.revIDs() {
		r := d.revs[id]
		out[strconv.Itoa(id)] = map[string]any{"state": r.state, "transition": map[string]any{"issue": map[string]any{}, "progress": ""}, "message": r.message}
	}
	return out
}

// header is the header of `nv config show`: the switch's model and
// release, as in the switch configuration NVIDIA Air's custom topology
// guide exported with `nv config show -o yaml` (model, nvue-api-version
// nvue_v1, rev-id 1.0, version "Cumulus Linux 5.15.0"). The model is the
// fabric's name for it; how NVUE spells a Spectrum model there ("vx" on
// Air) is **not documented**. rev-id is a number, not a string
// (headerRevID).
func (d *Device) header() tree {
	return tree{"model": d.opts.Model, "nvue-api-version": "nvue_v1", "rev-id": headerRevID{}, "version": "Cumulus Linux " + d.opts.Version}
}

// headerRevID is the header's rev-id, the number 1.0: the NVUE Command
// Reference, Config Commands, `nv config show` example prints "rev-id:
// 1.0" unquoted, a YAML float (a string would be quoted '1.0'), and
// NVIDIA's NVUE client in bare-metal-manager (NvueConfigHeader) reads it
// as any JSON value because it is not a string. It prints as 1.0 in both
// YAML and JSON, where Go's encoders would shorten a float64 to 1.
type headerRevID struct{}

// MarshalJSON prints the number 1.0.
func (headerRevID) MarshalJSON() ([]byte, error) { return []byte("1.0"), nil }

// MarshalYAML prints the float 1.0, unquoted.
func (headerRevID) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: "1.0"}, nil
}

// format renders an object as `-o json|yaml|commands` (YAML by default
// for config show, as NVUE does). A header wraps it in the startup.yaml
// list form.
func format(t tree, o string, header tree) string {
	var v any = t
	if header != nil {
		v = []any{map[string]any{"header": header}, map[string]any{"set": t}}
	}
	switch o {
	case "json":
		return cli.JSON(v)
	case "commands":
		return commands(t)
	}
	return toYAMLAny(v)
}

func toYAML(t tree) string { return toYAMLAny(t) }

// toYAMLAny prints v as NVUE prints YAML: nested maps indented by two
// ("- set:" / "    bridge:" / "      domain:": Cumulus Linux user guide,
// NVUE CLI, "Show Switch Configuration" and "Search for a Specific
// Configuration").
func toYAMLAny(v any) string {
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return "Error: " + err.Error()
	}
	return b.String()
}

// show is `nv show <path> [-o json|yaml] [--applied|--pending|
// --operational]`. Without a revision flag NVUE shows the operational
// state, which has every port and the default of every value nobody set
// (NVUE-CLI reference, "nv show": --operational is the default);
// --applied and --pending show that revision's configuration only.
func (s *shell) show(args []string) string {
	path, flags := splitFlags(args)
	applied := s.d.applied
	var src tree
	switch {
	case flags["--applied"] != "":
		src = applied
	case flags["--pending"] != "":
		src = applied
		if s.d.pending != nil {
			src = s.d.pending.t
		}
	default:
		src = s.d.operational()
	}
	if len(path) == 2 && path[0] == "interface" && (path[1] == "lldp" || path[1] == "lldp-detail") {
		return lldpView(src, path[1], flags["-o"])
	}
	cur, ok := lookup(src, path)
	if !ok {
		return "Error: The requested item does not exist."
	}
	switch flags["-o"] {
	case "json":
		return cli.JSON(cur)
	case "yaml":
		return toYAMLAny(cur)
	case "", "auto":
		if len(path) == 1 && path[0] == "interface" {
			return interfaceTable(cur.(tree))
		}
		app, _ := lookup(applied, path)
		return columns(cur, app)
	}
	return "Error: unknown output format " + flags["-o"]
}

func lookup(t tree, path []string) (any, bool) {
	var cur any = t
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// columns prints an object as NVUE's text output does: one row per
// value, its operational and applied value side by side; objects below
// are listed by name.
func columns(op, applied any) string {
	m, ok := op.(map[string]any)
	if !ok {
		return fmt.Sprint(op)
	}
	am, _ := applied.(map[string]any)
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %-16s %s\n%-24s %-16s %s\n", "", "operational", "applied", "", "-----------", "-------")
	for _, k := range cli.SortedKeys(m) {
		if _, nested := m[k].(map[string]any); nested {
			fmt.Fprintf(&b, "[%s]\n", k)
			continue
		}
		a := ""
		if v, ok := am[k]; ok {
			a = fmt.Sprint(v)
		}
		fmt.Fprintf(&b, "%-24s %-16v %s\n", k, m[k], a)
	}
	return b.String()
}

// lldpView is `nv show interface lldp` and `nv show interface
// lldp-detail` (NVUE Command Reference, Show Commands, LLDP: both
// "Introduced in Cumulus Linux 5.0.0"): in JSON, each interface with LLDP
// neighbors holds its "lldp" subtree, the form napalm's NVUE Cumulus
// driver reads from both commands; the lldp text form is the reference's
// table. The detail text form (lldpcli's) is not simulated.
func lldpView(src tree, view, format string) string {
	ifs, _ := src["interface"].(tree)
	out := tree{}
	for _, n := range cli.PortNames(ifs) {
		i, _ := ifs[n].(map[string]any)
		if l, ok := i["lldp"]; ok {
			out[n] = tree{"lldp": l}
		}
	}
	switch {
	case format == "json":
		return cli.JSON(out)
	case format == "yaml":
		return toYAMLAny(out)
	case view == "lldp" && (format == "" || format == "auto"):
		return lldpTable(ifs, out)
	}
	return "Error: fabricc's simulator prints " + view + " only with -o json"
}

// lldpTable is the text of `nv show interface lldp`: one row per
// neighbor (the reference's example: Interface, Speed, Type, Remote
// Host, Remote Port).
func lldpTable(ifs, withLLDP tree) string {
	var b strings.Builder
	row := "%-10s %-6s %-5s %-16s %s\n"
	fmt.Fprintf(&b, row, "Interface", "Speed", "Type", "Remote Host", "Remote Port")
	fmt.Fprintf(&b, row, "---------", "-----", "----", "-----------", "-----------")
	for _, n := range cli.PortNames(withLLDP) {
		i, _ := ifs[n].(map[string]any)
		link, _ := i["link"].(map[string]any)
		l, _ := i["lldp"].(map[string]any)
		ns, _ := l["neighbor"].(tree)
		for _, k := range cli.SortedKeys(ns) {
			nb, _ := ns[k].(tree)
			ch, _ := nb["chassis"].(tree)
			port, _ := nb["port"].(tree)
			fmt.Fprintf(&b, row, n, fmt.Sprint(link["speed"]), fmt.Sprint(i["type"]), fmt.Sprint(ch["system-name"]), fmt.Sprint(port["name"]))
		}
	}
	return b.String()
}

// interfaceTable is `nv show interface`: one row per interface.
func interfaceTable(ifs tree) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %-6s %-6s %-6s %-6s %s\n", "Interface", "MTU", "Speed", "State", "Type", "Summary")
	fmt.Fprintf(&b, "%-10s %-6s %-6s %-6s %-6s %s\n", "---------", "-----", "-----", "-----", "----", "-------")
	for _, n := range cli.PortNames(ifs) {
		i, _ := ifs[n].(map[string]any)
		link, _ := i["link"].(map[string]any)
		fmt.Fprintf(&b, "%-10s %-6v %-6v %-6v %-6v\n", n, link["mtu"], link["speed"], link["oper-status"], i["type"])
	}
	return b.String()
}

// defaultMTU is the MTU of a switch port nobody set (Cumulus Linux 5
// user guide, "Switch Port Attributes": MTU 9216 by default).
const defaultMTU = 9216

// operational is the switch as `nv show` reports it: the applied
// configuration with every port of the model and its defaults, and the
// link state (every enabled port up, as if cabled; no public sample of
// the lab case).
func (d *Device) operational() tree {
	op := clone(d.applied)
	ifs := child(op, "interface")
	for i, p := range d.opts.Ports {
		it := child(ifs, p.Name)
		setDefault(it, "type", "swp")
		link := child(it, "link")
		setDefault(link, "mtu", defaultMTU)
		if mtu, ok := d.staleMTU[p.Name]; ok {
			link["mtu"] = mtu
		}
		setDefault(link, "speed", fmt.Sprintf("%dG", p.SpeedG))
		setDefault(link, "auto-negotiate", "off")
		setDefault(link, "duplex", "full")
		state := "up"
		if link["state"] == "down" {
			state = "down"
		}
		link["state"] = tree{state: tree{}}
		link["admin-status"], link["oper-status"] = state, state
		link["mac"] = fmt.Sprintf("48:b0:2d:00:%02x:%02x", i/256, i%256)
		if ns := d.opts.Neighbors[p.Name]; len(ns) > 0 {
			child(it, "lldp")["neighbor"] = lldpNeighbors(ns)
		}
	}
	rocePools(op)
	vxlanDSCPDefaults(op)
	// `nv show qos pfc` answers on a switch without PFC profiles too
	// (an empty collection), as a collection NVUE defines always does.
	child(child(op, "qos"), "pfc")
	sys := child(op, "system")
	setDefault(sys, "hostname", d.opts.Name)
	sys["build"] = "Cumulus Linux " + d.opts.Version
	return op
}

// lldpNeighbors is an interface's "lldp neighbor" object, keyed by the
// neighbor's name, with the fields of the NVUE Command Reference's `nv
// show interface <interface-id> lldp neighbor <neighbor-id>` example
// (chassis system-name and chassis-id; port name, type, description,
// ttl). A neighbor without a name is keyed by its chassis ID (no public
// sample). "age" is a string of seconds, as in a Cumulus Linux 5.6.0
// capture of `nv show interface -o json` kept in an NVIDIA test-data
// module ("age": "698044"; see push/verify TestNVUENeighborsCaptured).
func lldpNeighbors(ns []cli.Neighbor) tree {
	out := tree{}
	for _, n := range ns {
		typ := "ifname"
		if n.PortIDMAC {
			typ = "mac"
		}
		key := n.SystemName
		if key == "" {
			key = n.ChassisID
		}
		out[key] = tree{
			"age":     "60",
			"chassis": tree{"chassis-id": n.ChassisID, "system-name": n.SystemName, "system-description": n.SystemDescription},
			"port":    tree{"name": n.PortID, "type": typ, "description": n.PortDescription, "ttl": 120},
		}
	}
	return out
}

// vxlanDSCPDefaults adds to the operational state the VXLAN tunnel DSCP
// actions nobody set: derive, for encapsulation and decapsulation ("The
// default setting is derive", Cumulus Linux user guide, VXLAN Tunnel
// DSCP Operations), which `nv show nve vxlan` prints as
// "decapsulation / dscp / action derive" and "encapsulation / dscp /
// action derive" (NVUE Command Reference, Show Commands, VXLAN, Cumulus
// Linux 5.0.0 and later; `nv show nve vxlan encapsulation` and
// `decapsulation` from 5.3.0). Only these are filled in: the
// reference's other defaults under nve vxlan (mtu, port, flooding) are
// nothing fabricc reads.
func vxlanDSCPDefaults(op tree) {
	vxlan := child(child(op, "nve"), "vxlan")
	for _, dir := range []string{"encapsulation", "decapsulation"} {
		setDefault(child(child(vxlan, dir), "dscp"), "action", "derive")
	}
}

func setDefault(t tree, k string, v any) {
	if _, ok := t[k]; !ok {
		t[k] = v
	}
}

// rocePools adds to the operational state the traffic pools RoCE mode
// runs: lossless mode puts switch priority 3 in roce-lossless and the
// other priorities in roce-lossy (Cumulus Linux user guide, RDMA over
// Converged Ethernet - RoCE, "Default RoCE Configuration"); lossy mode
// only roce-lossy. The 50/50 split is assumed (no public sample of the
// sizes).
func rocePools(op tree) {
	m := roceMode(op)
	if m == "" {
		return
	}
	pools := child(child(op, "qos"), "traffic-pool")
	lossy := tree{"0": tree{}, "1": tree{}, "2": tree{}, "4": tree{}, "5": tree{}, "6": tree{}, "7": tree{}}
	if !strings.HasPrefix(m, "lossless") {
		lossy["3"] = tree{}
		pools["roce-lossy"] = tree{"memory-percent": 100, "switch-priority": lossy}
		return
	}
	pools["roce-lossless"] = tree{"memory-percent": 50, "switch-priority": tree{"3": tree{}}}
	pools["roce-lossy"] = tree{"memory-percent": 50, "switch-priority": lossy}
}
