package main

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestInterruptDiagnostic (review rsre, finding 14b): the --json
// envelope of an interrupted push carries one error diagnostic naming
// the signal; a run that was not interrupted carries none.
func TestInterruptDiagnostic(t *testing.T) {
	if d := interruptDiagnostic(context.Background(), "push"); d != nil {
		t.Errorf("not interrupted: %v", d)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted by SIGTERM"))
	d := interruptDiagnostic(ctx, "push")
	if len(d) != 1 || d[0].Severity != hcl.DiagError || d[0].Summary != "push interrupted by SIGTERM" ||
		d[0].Detail != "each switch at work was rolled back (or, past its confirmation, finished); the result gives each device's status and error" {
		t.Errorf("interrupted: %v", d)
	}
	if env := newEnvelope("push", d); env.Errors != 1 {
		t.Errorf("envelope errors %d, want 1", env.Errors)
	}
}
