package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// useColor reports whether output to w may be coloured: w is a
// terminal, NO_COLOR is unset or empty (https://no-color.org) and TERM is
// not "dumb" (a terminal without escape sequences).
func useColor(w io.Writer) bool {
	return colorAllowed(isTerminal(w), os.Getenv)
}

// colorAllowed is useColor's rule with the terminal test and the
// environment given.
func colorAllowed(terminal bool, getenv func(string) string) bool {
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// canRedraw reports whether w takes cursor movement (progress bars): a
// terminal that is not TERM=dumb.
func canRedraw(w io.Writer) bool {
	return isTerminal(w) && os.Getenv("TERM") != "dumb"
}
