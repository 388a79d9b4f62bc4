package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// usageTemplate is the help layout of every command: what cobra prints
// minus its own artefacts (a "[flags]" suffix, a "completion" command,
// "help for <name>" and pflag type names such as "stringArray"). Flag
// value names come from backquoted words in the flag's usage text
// ("write the report to `FILE`" gives "--report FILE").
const usageTemplate = `Usage:
  {{.UseLine}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Commands:{{range .Commands}}{{if or .IsAvailableCommand (eq .Name "help")}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Run "{{.CommandPath}} COMMAND --help" for the arguments and flags of a command.{{end}}
`

// plainHelp applies the help layout to root and every command under it:
// no completion command, a help command with a description, "-h, --help"
// described in words, and no "[flags]" added to usage lines.
func plainHelp(root *cobra.Command) {
	root.CompletionOptions.DisableDefaultCmd = true
	// The help command is listed (the template lists it, which cobra's
	// IsAvailableCommand leaves out) with a description, as shell
	// completion, which cobra always offers it to, shows it.
	root.SetHelpCommand(&cobra.Command{Use: "help [COMMAND]", Short: "Show the help of a command (as COMMAND --help does)", DisableFlagsInUseLine: true,
		Example: "  fabricc help push",
		Run: func(c *cobra.Command, args []string) {
			target, _, err := c.Root().Find(args)
			if err != nil || target == nil {
				target = c.Root()
			}
			_ = target.Help()
		},
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, sub := range c.Root().Commands() {
				if sub.IsAvailableCommand() && sub != c {
					names = append(names, sub.Name()+"\t"+sub.Short)
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		}})
	root.PersistentFlags().BoolP("help", "h", false, "show this help")
	root.Flags().Bool("version", false, "print the fabricc version")
	walk(root, func(c *cobra.Command) {
		c.DisableFlagsInUseLine = true
		c.SetUsageTemplate(usageTemplate)
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" {
				f.NoOptDefVal = "true"
			}
		})
	})
}

// walk calls fn for c and every command below it.
func walk(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walk(sub, fn)
	}
}
