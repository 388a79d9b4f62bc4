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

Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Run "{{.CommandPath}} COMMAND --help" for the arguments and flags of a command.{{end}}
`

// plainHelp applies the help layout to root and every command under it:
// no completion command, a hidden help command, "-h, --help" described
// in words, and no "[flags]" added to usage lines.
func plainHelp(root *cobra.Command) {
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetHelpCommand(&cobra.Command{Use: "help [COMMAND]", Hidden: true, Run: func(c *cobra.Command, args []string) {
		target, _, err := c.Root().Find(args)
		if err != nil || target == nil {
			target = c.Root()
		}
		_ = target.Help()
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
