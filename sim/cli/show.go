package cli

import (
	"encoding/json"
	"strings"
)

// Pipe splits "show x | json | no-more" into the command and its filters.
func Pipe(line string) (cmd string, filters []string) {
	parts := strings.Split(line, "|")
	cmd = strings.TrimSpace(parts[0])
	for _, p := range parts[1:] {
		filters = append(filters, strings.TrimSpace(p))
	}
	return cmd, filters
}

// JSON renders v indented with two spaces (map keys sorted: stable).
func JSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "% Error: " + err.Error()
	}
	return string(b)
}

// Include keeps the lines containing any of the words (`| include x`).
func Include(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
