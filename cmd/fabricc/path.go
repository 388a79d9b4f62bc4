package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/fabricc/fabricc/model/fabricpath"
	"github.com/fabricc/fabricc/targets"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newPathCmd) }

// newPathCmd is `fabricc path HOST [TO_HOST]`.
func newPathCmd() *cobra.Command {
	var lf loadFlags
	var fabric string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "path HOST [TO_HOST]",
		Short: "Show the switch ports a host's RoCE traffic crosses, and any that disagree with its NIC",
		Long: "path walks the compiled fabric from each NIC of HOST to the leaf port it is cabled to,\n" +
			"then up the leaf's uplinks through the spines to the top of the Clos. With TO_HOST it\n" +
			"walks the equal-cost paths between the two hosts' NICs instead: one leaf, or leaf, the\n" +
			"spines (and super-spines) above it and down to the other leaf, or the trunk between two\n" +
			"leaves that bridges the NICs' VLAN; none where no route joins them. Every port on the way is\n" +
			"printed with the settings the fabric gives it (PFC priorities, trust, MTU, VLAN) and\n" +
			"marked with ! where it disagrees with the NIC: PFC off for the NIC's RoCE priority\n" +
			"(RoCE dropped instead of paused), an MTU below the NIC's, trust that classifies RoCE\n" +
			"by another field than the NIC marks, a shut port. Between two hosts it also says when\n" +
			"their NICs mark RoCE with another priority or DSCP, or no route joins their subnets.\n" +
			"It reads the fabric's intended settings, not the switches: fabricc verify reads those.\n\n" +
			"The fabric is read as validate reads it (--fabric, the current folder by default).\n" +
			"Exit status, as verify's: 0 when every port agrees; 2 when one disagrees; 1 when the\n" +
			"fabric does not compile, a host is unknown or the command line is wrong.",
		Example: "  fabricc path gpu01 --fabric examples/multivendor-clos\n" +
			"  fabricc path gpu01 gpu05 --fabric examples/multivendor-clos\n" +
			"  fabricc path node1 --fabric examples/tutorial --json | jq '.result.paths[].ports[] | select(.problems)'",
		// 2 is "a port disagrees", so a wrong command line exits 1.
		Annotations:       map[string]string{usageExitAnnotation: "true"},
		Args:              argsBetween(1, 2),
		ValidArgsFunction: completeHosts,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPath(cmd, args, fabric, &lf, asJSON)
		},
	}
	lf.register(cmd.Flags())
	cmd.Flags().StringVar(&fabric, "fabric", ".", "read the fabric from `PATH`, a .hcl file or a folder of .hcl files")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the paths as one JSON object on stdout (docs/json.md)")
	return cmd
}

// runPath compiles the fabric and walks it.
func runPath(cmd *cobra.Command, args []string, fabric string, lf *loadFlags, asJSON bool) error {
	if len(args) == 2 && args[0] == args[1] {
		return usageError(fmt.Errorf("HOST and TO_HOST are both %q; give two hosts, or one to walk its NICs to the top of the Clos", v(args[0])))
	}
	if err := existingPath(fabric); err != nil {
		return err
	}
	opts, err := lf.options()
	if err != nil {
		return err
	}
	out := newOutput(cmd, "path", asJSON)
	loading := loadingLine(cmd.ErrOrStderr(), "path", asJSON)
	f, files, diags := compileFabric(fabric, opts)
	loading.finish()
	if asJSON || diags.HasErrors() {
		// Warnings are validate's to tell; errors stop the walk.
		out.report(files, diags)
	}
	if f == nil {
		return out.done(exitCode(1, fmt.Errorf("the fabric %s does not compile (%s); no path walked", v(fabric), countSummary(diags))))
	}
	out.fabric(f)
	for _, h := range args {
		if f.Host(h) == nil {
			return out.done(exitCode(1, unknownHost(f, h)))
		}
	}
	r := walkPath(f, args)
	status := pathStatus(r)
	if asJSON {
		out.result = r
		return out.done(status)
	}
	if err := writePath(cmd.OutOrStdout(), r); err != nil {
		return err
	}
	return status
}

// walkPath walks the one host of args, or between its two.
func walkPath(f *model.Fabric, args []string) *fabricpath.Report {
	if len(args) == 2 {
		r, _ := fabricpath.Between(f, args[0], args[1])
		return r
	}
	r, _ := fabricpath.Walk(f, args[0])
	return r
}

// pathStatus is nil when every port and NIC of r agrees, else exit
// status 2, as plan's and verify's; with --json "ok" stays true then:
// the walk worked, and its answer is in the result.
func pathStatus(r *fabricpath.Report) error {
	if r.OK() {
		return nil
	}
	return changesPending
}

// unknownHost names the fabric's host closest to name (dsl.Suggest),
// else its first hosts.
func unknownHost(f *model.Fabric, name string) error {
	names := make([]string, len(f.Hosts))
	for i, h := range f.Hosts {
		names[i] = h.Name
	}
	if len(names) == 0 {
		return fmt.Errorf("fabric %q has no hosts; %q is not one", v(f.Name), v(name))
	}
	if s := dsl.Suggest(name, names); s != "" {
		return fmt.Errorf("fabric %q has no host %q; did you mean %q?", v(f.Name), v(name), v(s))
	}
	return fmt.Errorf("fabric %q has no host %q; its hosts are %s", v(f.Name), v(name), v(shortList(names)))
}

// completeHosts completes HOST and TO_HOST with the host names of the
// fabric --fabric names (the current folder by default); nothing when it
// does not compile.
func completeHosts(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) >= 2 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	fabric, _ := c.Flags().GetString("fabric")
	f, _, diags := compileFabric(fabric, dsl.Options{})
	if f == nil || diags.HasErrors() {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for _, h := range f.Hosts {
		names = append(names, h.Name)
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// writePath prints the report for people: per path a NIC line, the
// switches by stage, and a table of the ports, a disagreeing one marked
// with ! and its reasons; then one line with the verdict.
func writePath(w io.Writer, r *fabricpath.Report) error {
	var b strings.Builder
	for i, p := range r.Paths {
		if i > 0 {
			b.WriteString("\n")
		}
		writeOnePath(&b, p)
	}
	for _, u := range r.Uncabled {
		fmt.Fprintf(&b, "%s: not cabled (the fabric gives it no link)\n", v(u))
	}
	for _, why := range r.Unreachable {
		fmt.Fprintf(&b, "! %s\n", v(why))
	}
	b.WriteString(pathVerdict(r) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeOnePath prints one path.
func writeOnePath(b *strings.Builder, p fabricpath.Path) {
	writeNIC(b, p.From)
	if p.To != nil {
		writeNIC(b, *p.To)
	}
	if p.Unwalked != "" {
		fmt.Fprintf(b, "  path: %s: %s, so no switch is walked\n", v(p.Summary), v(p.Unwalked))
	} else {
		fmt.Fprintf(b, "  path: %s\n", v(p.Summary))
	}
	for _, why := range p.Problems {
		fmt.Fprintf(b, "! %s\n", v(why))
	}
	if len(p.Ports) == 0 {
		return
	}
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  \tstage\tswitch\tport\tpeer\tpfc\ttrust\tmtu\tvlan\t")
	for _, pt := range p.Ports {
		mark := " "
		if len(pt.Problems) > 0 {
			mark = "!"
		}
		fmt.Fprintf(tw, "%s \t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", mark, pt.Stage, v(pt.Switch), v(pt.Port), v(pt.Peer),
			prioList(pt.PFC), pt.Trust, pt.MTU, pt.VLAN, v(strings.Join(pt.Problems, "; ")))
	}
	_ = tw.Flush()
	for _, line := range strings.SplitAfter(table.String(), "\n") {
		// The padding of the last column of a row without problems.
		b.WriteString(strings.TrimRight(line, " \n"))
		if line != "" {
			b.WriteString("\n")
		}
	}
}

// writeNIC prints a NIC's line: "gpu01 roce0 (ConnectX-6 Dx, ens1f0):
// RoCE v2 priority 3 DSCP 26, trust dscp, MTU 9000, PFC 3, untagged".
func writeNIC(b *strings.Builder, n fabricpath.NIC) {
	mark := " "
	if len(n.Problems) > 0 {
		mark = "!"
	}
	vlan := "untagged"
	if n.VLAN != 0 {
		vlan = "VLAN " + strconv.Itoa(n.VLAN)
	}
	fmt.Fprintf(b, "%s %s %s (%s, %s): RoCE %s priority %d DSCP %d, trust %s, MTU %d, PFC %s, %s, %s",
		mark, v(n.Host), v(n.NIC), v(n.Model), v(n.Interface), n.RoCE, n.Priority, n.DSCP, n.Trust, n.MTU, prioList(n.PFC), vlan, v(strings.Join(n.Addresses, " ")))
	if n.Gateway != "" {
		fmt.Fprintf(b, " via %s", v(n.Gateway))
	}
	if len(n.Problems) > 0 {
		fmt.Fprintf(b, "  %s", v(strings.Join(n.Problems, "; ")))
	}
	b.WriteString("\n")
}

// prioList is "3", "3,4" or "off".
func prioList(ps []int) string {
	if len(ps) == 0 {
		return "off"
	}
	return targets.JoinInts(ps, ",")
}

// pathVerdict is the last line: "ok: ..." or how many disagree, on the
// paths walked (not those no packet takes, Path.Unwalked).
func pathVerdict(r *fabricpath.Report) string {
	ports, walked := 0, 0
	for _, p := range r.Paths {
		ports += len(p.Ports)
		if p.Unwalked == "" {
			walked++
		}
	}
	switch {
	case walked == 0 && r.To != "":
		return fmt.Sprintf("%s (marked !): no path joins %s and %s", plural(r.Problems, "problem"), v(r.Host), v(r.To))
	case len(r.Paths) == 0:
		return fmt.Sprintf("ok: %s has no NIC cabled to a switch; no path to walk", v(r.Host))
	case r.OK() && ports == 0:
		return fmt.Sprintf("ok: %s, no switch port on %s", plural(len(r.Paths), "path"), map[bool]string{true: "it", false: "them"}[len(r.Paths) == 1])
	case r.OK():
		return fmt.Sprintf("ok: %s, %s: every port agrees with its NIC", plural(len(r.Paths), "path"), plural(ports, "port"))
	}
	return fmt.Sprintf("%s (marked !) on %s, %s", plural(r.Problems, "problem"), plural(walked, "path"), plural(ports, "port"))
}
