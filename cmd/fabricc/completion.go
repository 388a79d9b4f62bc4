package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/fabricc/fabricc/inventory"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newCompletionCmd) }

// completionShells maps each shell to the cobra generator of its script.
// The scripts ask `fabricc __complete` for every word, so they complete
// commands, flags, the values below and file names without a new script
// when fabricc gains a command.
var completionShells = map[string]func(root *cobra.Command, w io.Writer) error{
	"bash":       func(r *cobra.Command, w io.Writer) error { return r.GenBashCompletionV2(w, true) },
	"zsh":        func(r *cobra.Command, w io.Writer) error { return r.GenZshCompletion(w) },
	"fish":       func(r *cobra.Command, w io.Writer) error { return r.GenFishCompletion(w, true) },
	"powershell": func(r *cobra.Command, w io.Writer) error { return r.GenPowerShellCompletionWithDesc(w) },
}

func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion SHELL",
		Short: "Print the shell completion script for bash, zsh, fish or powershell",
		Long: "completion prints a script that makes SHELL complete fabricc's commands, flags,\n" +
			"flag values (--format, and --limit's device names, groups and tags from the\n" +
			"inventory given with -i) and file names. SHELL is bash (bash-completion 2),\n" +
			"zsh, fish or powershell.",
		Example: "  source <(fabricc completion bash)      # this bash session\n" +
			"  fabricc completion bash > /etc/bash_completion.d/fabricc\n" +
			"  fabricc completion zsh > \"${fpath[1]}/_fabricc\"\n" +
			"  fabricc completion fish > ~/.config/fish/completions/fabricc.fish\n" +
			"  fabricc completion powershell | Out-String | Invoke-Expression",
		Args:      completionArgs,
		ValidArgs: shellNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			return completionShells[args[0]](cmd.Root(), cmd.OutOrStdout())
		},
	}
}

// completionArgs accepts one known shell name.
func completionArgs(_ *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usageError(fmt.Errorf("completion takes one shell: %s", strings.Join(shellNames(), ", ")))
	}
	if completionShells[args[0]] == nil {
		return usageError(fmt.Errorf("no completion for shell %q; choose %s", args[0], strings.Join(shellNames(), ", ")))
	}
	return nil
}

// shellNames lists the shells completion supports, sorted.
func shellNames() []string {
	var names []string
	for n := range completionShells {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// completeFlagValues tells the shells what each flag of fabricc takes:
// fixed words, folderNames, HCL files, or device names from the inventory.
// A flag a command does not have is skipped.
func completeFlagValues(root *cobra.Command) {
	walk(root, func(c *cobra.Command) {
		values := map[string]cobra.CompletionFunc{
			"format":         cobra.FixedCompletions([]string{"text", "markdown", "json"}, cobra.ShellCompDirectiveNoFileComp),
			"output":         folderNames,
			"dir":            folderNames,
			"artifacts":      folderNames,
			"inventory":      hclFileNames,
			"var-file":       hclFileNames,
			"fabric":         hclFileNames,
			"limit":          inventoryTerms,
			"report":         cobra.NoFileCompletions,
			"markdown-limit": cobra.NoFileCompletions,
		}
		for name, fn := range values {
			if c.LocalFlags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
	})
}

// folderNames completes folder names only.
func folderNames(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// hclFileNames completes .hcl files (and folderNames on the way to them).
func hclFileNames(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"hcl"}, cobra.ShellCompDirectiveFilterFileExt
}

// inventoryTerms completes --limit with the names, groups and tags of
// the inventory given by --inventory, after the comma the word ends
// with ("leaf1,sp" offers "leaf1,spine1", "leaf1,spines"). Nothing is
// offered when there is no readable inventory yet.
func inventoryTerms(c *cobra.Command, _ []string, word string) ([]string, cobra.ShellCompDirective) {
	path, _ := c.Flags().GetString("inventory")
	if path == "" {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	inv, _, diags := inventory.Load(path)
	if diags.HasErrors() || inv == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	prefix := word[:strings.LastIndex(word, ",")+1]
	var out []string
	for _, t := range inv.Terms() {
		out = append(out, prefix+t)
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
