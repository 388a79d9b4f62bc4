package verify

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
)

// maxRunningLine is the longest line the running-config parsers read
// (ParseEOS, ParseOnyx), 1 MiB: far beyond any configuration line (an
// EOS banner is printed one line of text at a time), so a longer one is
// output fabricc cannot read, not configuration.
const maxRunningLine = 1 << 20

// ErrLineTooLong is in the error of a running-config parser that met a
// line of maxRunningLine bytes or more: the configuration cannot be read
// in full, so neither a comparison nor a push can rely on it.
var ErrLineTooLong = errors.New("1 MiB or longer")

// runningScanner reads running-config text line by line, up to
// maxRunningLine bytes a line.
func runningScanner(text string) *bufio.Scanner {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), maxRunningLine)
	return sc
}

// scanError is why sc stopped before the end of the text, nil when it
// read it all; lines is how many lines it gave. bufio.Scanner ends at a
// line over its limit as it ends at the end of the text, so a parser
// that did not ask would compare the configuration above that line as
// the whole of it: an error fails the read instead (fail closed), and
// says which line stopped it.
func scanError(sc *bufio.Scanner, lines int) error {
	err := sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("show running-config: line %d is %w, more than fabricc reads of a line, so the configuration from there on cannot be read and nothing was compared", lines+1, ErrLineTooLong)
	}
	return fmt.Errorf("show running-config: reading line %d: %w", lines+1, err)
}
