package inventory

import (
	"fmt"
	"io"
)

// redacted is what every printed form of a Secret shows.
const redacted = "[redacted]"

// Secret holds a password or passphrase. Every way of printing it (fmt
// verbs, String, GoString, JSON, text marshalling) shows "[redacted]";
// only Reveal returns the value, for handing it to the SSH client.
type Secret struct{ v string }

// NewSecret wraps s.
func NewSecret(s string) Secret { return Secret{v: s} }

// Reveal returns the secret value. Call it only where the value goes to
// the SSH library, never into a message.
func (s Secret) Reveal() string { return s.v }

// Empty reports whether no secret is set.
func (s Secret) Empty() bool { return s.v == "" }

// String redacts.
func (s Secret) String() string { return redacted }

// GoString redacts (%#v).
func (s Secret) GoString() string { return redacted }

// Format redacts for every verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, redacted) }

// MarshalJSON redacts.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText redacts.
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }
