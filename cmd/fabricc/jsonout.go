package main

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"

	"github.com/fabricc/fabricc/dsl"
	"github.com/fabricc/fabricc/model"
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

// jsonFormatVersion is the version of the --json envelope; docs/json.md
// describes it. It changes only when a field changes meaning or goes.
const jsonFormatVersion = 1

// envelope is what every command prints on stdout with --json: one JSON
// object, the same frame for every command so a script reads
// diagnostics and success the same way everywhere; Result holds what
// the command made (documented per command in docs/json.md).
type envelope struct {
	FormatVersion int `json:"format_version"`
	// FabriccVersion is the fabricc that printed it (fabriccVersion), so
	// that a pipeline's record can be tied to a fabricc release.
	FabriccVersion string               `json:"fabricc_version"`
	Command        string               `json:"command"`
	OK             bool                 `json:"ok"`
	Diagnostics    []dsl.JSONDiagnostic `json:"diagnostics"`
	Errors         int                  `json:"errors"`
	Warnings       int                  `json:"warnings"`
	// Accepted lists the warnings the fabric acknowledges.
	Accepted []model.AcceptedWarning `json:"accepted,omitempty"`
	// Error is why the command failed when the reason is not a
	// diagnostic (an unreachable switch, an unwritable folder).
	Error  string `json:"error,omitempty"`
	Result any    `json:"result,omitempty"`
}

// output is where a command reports: text for people (diagnostics with
// source snippets on stderr) or one JSON envelope on stdout.
type output struct {
	cmd     *cobra.Command
	name    string
	json    bool
	diags   hcl.Diagnostics
	result  any
	accepts []model.AcceptedWarning
	// failure is the envelope's error when the command ends with no
	// error of its own to say (diff, push, verify: the devices it could
	// not do its work on, push.Report.UnfinishedError).
	failure string
}

// newOutput starts the output of command name.
func newOutput(cmd *cobra.Command, name string, asJSON bool) *output {
	return &output{cmd: cmd, name: name, json: asJSON}
}

// report shows diagnostics now (text) or keeps them for the envelope.
func (o *output) report(files map[string]*hcl.File, diags hcl.Diagnostics) {
	if o.json {
		o.diags = append(o.diags, diags...)
		return
	}
	_ = printDiagnostics(o.cmd, formatText, files, diags)
}

// fabric records what the compiled fabric acknowledges.
func (o *output) fabric(f *model.Fabric) {
	if f != nil {
		o.accepts = f.Accepted
	}
}

// done ends the command: with --json it prints the envelope, ok when err
// is nil. It returns err for the exit status.
func (o *output) done(err error) error {
	if !o.json {
		return err
	}
	env := newEnvelope(o.name, o.diags)
	env.Accepted = o.accepts
	if present(o.result) {
		env.Result = o.result
	}
	env.OK = (err == nil || err == changesPending) && !o.diags.HasErrors()
	var ee *exitError
	if err != nil && (!errors.As(err, &ee) || ee.Err != nil) {
		env.Error = err.Error()
	}
	if env.Error == "" && err != nil {
		env.Error = o.failure
	}
	if werr := env.write(o.cmd.OutOrStdout()); werr != nil {
		return werr
	}
	return err
}

// present reports whether a result is there: not nil, nor a nil pointer
// in an interface, which encoding/json would print as null instead of
// leaving "result" out (docs/json.md: absent).
func present(result any) bool {
	v := reflect.ValueOf(result)
	return v.IsValid() && !(v.Kind() == reflect.Pointer && v.IsNil())
}

// newEnvelope frames diags for command.
func newEnvelope(command string, diags hcl.Diagnostics) *envelope {
	rep := dsl.NewJSONReport(diags)
	return &envelope{FormatVersion: jsonFormatVersion, FabriccVersion: fabriccVersion(), Command: command, OK: !diags.HasErrors(),
		Diagnostics: rep.Diagnostics, Errors: rep.Errors, Warnings: rep.Warnings}
}

// write prints the envelope, indented, with a final newline.
func (e *envelope) write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(e)
}

// fabricResult is the result of validate: the fabric's size.
type fabricResult struct {
	Fabric   string `json:"fabric"`
	Switches int    `json:"switches"`
	Hosts    int    `json:"hosts"`
	Links    int    `json:"links"`
}

// summarize is the fabricResult of f.
func summarize(f *model.Fabric) *fabricResult {
	if f == nil {
		return nil
	}
	return &fabricResult{Fabric: f.Name, Switches: len(f.Switches), Hosts: len(f.Hosts), Links: len(f.Links)}
}
