package windows

import (
	"bytes"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// readAsWindowsPowerShell returns the text Windows PowerShell 5.1 reads
// from a script file: UTF-8 when the file starts with a UTF-8 byte-order
// mark, else the machine's ANSI code page, Windows-1252 on an English or
// Western European Windows (Microsoft Learn, about_Character_Encoding).
func readAsWindowsPowerShell(t *testing.T, b []byte) string {
	t.Helper()
	if rest, ok := bytes.CutPrefix(b, []byte("\xef\xbb\xbf")); ok {
		return string(rest)
	}
	s, err := charmap.Windows1252.NewDecoder().Bytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(s)
}

// TestWindowsPowerShellReadsNamesWhole renders a host whose adapter and
// host names carry letters whose UTF-8 bytes are quote characters in
// Windows-1252: the second byte of Ñ (0x91) reads as U+2018, a single
// quote, and the last byte of the em dash (0x94) as U+201D, a double
// quote. Read as Windows PowerShell 5.1 reads the file, every string
// must still be the name, whole, and the script must keep its shape;
// without the byte-order mark the Ñ ends its string early.
func TestWindowsPowerShellReadsNamesWhole(t *testing.T) {
	h := workstation()
	h.Name = "nodo-Ñ—1"
	adapter := "Conexión Ñ—2"
	h.NICs[0].Interface = adapter
	script := []byte(render(t, h))
	text := readAsWindowsPowerShell(t, script)
	toks, err := scan(text)
	if err != nil {
		t.Fatalf("script as Windows PowerShell reads it: %v", err)
	}
	found := false
	for _, tok := range toks {
		if !tok.code && !tok.double && tok.text == adapter {
			found = true
		}
	}
	if !found {
		t.Errorf("no string in the script, as Windows PowerShell reads it, is the adapter name %q", adapter)
	}
	if got := checkScript(text); len(got) > 0 {
		t.Errorf("script as Windows PowerShell reads it: %v", got)
	}
}
