package main

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fabricc/fabricc/push"
	"github.com/spf13/pflag"
)

// Numeric and duration flags whose wrong values are said in words.
// pflag's own IntVar and DurationVar pass on strconv's and time's
// errors ("strconv.ParseInt: parsing "abc": invalid syntax", "time:
// missing unit in duration "5""); these say what the flag takes. pflag
// frames the message: invalid argument "abc" for "--parallel" flag: ...

// countValue is an int flag of at least min; want says what it takes
// ("a number of devices from 1, such as 8").
type countValue struct {
	p    *int
	min  int
	want string
}

// countVar defines an int flag of at least min.
func countVar(fs *pflag.FlagSet, p *int, name string, value, min int, want, usage string) {
	*p = value
	fs.Var(&countValue{p: p, min: min, want: want}, name, usage)
}

// Set implements pflag.Value.
func (c *countValue) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < c.min {
		return errors.New("give " + c.want)
	}
	*c.p = n
	return nil
}

// String implements pflag.Value.
func (c *countValue) String() string { return strconv.Itoa(*c.p) }

// Type implements pflag.Value.
func (c *countValue) Type() string { return "int" }

// durationValue is a duration flag that is not negative.
type durationValue struct{ p *time.Duration }

// durationVar defines a duration flag that is not negative.
func durationVar(fs *pflag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var(&durationValue{p: p}, name, usage)
}

// Set implements pflag.Value.
func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || v < 0 {
		if _, nerr := strconv.ParseFloat(strings.TrimSpace(s), 64); nerr == nil && err != nil {
			return errors.New("give a duration with its unit, such as 30s or 2m (a bare number has none)")
		}
		return errors.New("give a duration such as 30s or 2m, or 0")
	}
	*d.p = v
	return nil
}

// String implements pflag.Value; zero is "0", which help leaves out as
// the default.
func (d *durationValue) String() string {
	if *d.p == 0 {
		return "0"
	}
	return d.p.String()
}

// Type implements pflag.Value.
func (d *durationValue) Type() string { return "duration" }

// txnValue is --break-lock's value: the transaction of a device lock, as
// a locked row and verify print it ("20261127-020000-abcdef").
type txnValue struct{ p *string }

// Set implements pflag.Value.
func (v txnValue) Set(s string) error {
	s = strings.TrimSpace(s)
	if !push.ValidTxn(s) {
		return errors.New("give the transaction of the lock to break, as the locked switch's row and verify print it (--break-lock=20261127-020000-abcdef)")
	}
	*v.p = s
	return nil
}

// String implements pflag.Value.
func (v txnValue) String() string { return *v.p }

// Type implements pflag.Value.
func (v txnValue) Type() string { return "string" }
