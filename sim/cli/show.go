package cli

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Pipe splits "show x | json | no-more" into the command and its filters.
// A "|" inside double quotes does not split.
func Pipe(line string) (cmd string, filters []string) {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case '|':
			if !quoted {
				parts = append(parts, line[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, line[start:])
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

// pattern compiles a filter's regular expression; text that is not a
// valid expression matches literally.
func pattern(expr string) *regexp.Regexp {
	expr = strings.Trim(expr, `"`)
	re, err := regexp.Compile(expr)
	if err != nil {
		return regexp.MustCompile(regexp.QuoteMeta(expr))
	}
	return re
}

func splitLines(text string) []string {
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// Include keeps the lines matching expr (`| include X`).
func Include(text, expr string) string {
	return keep(text, expr, true)
}

// Exclude drops the lines matching expr (`| exclude X`).
func Exclude(text, expr string) string {
	return keep(text, expr, false)
}

func keep(text, expr string, match bool) string {
	re := pattern(expr)
	var out []string
	for _, l := range splitLines(text) {
		if re.MatchString(l) == match {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Begin starts the output at the first line matching expr (`| begin X`).
func Begin(text, expr string) string {
	re := pattern(expr)
	lines := splitLines(text)
	for i, l := range lines {
		if re.MatchString(l) {
			return strings.Join(lines[i:], "\n")
		}
	}
	return ""
}

// Section keeps the configuration blocks that match expr (`| section X`,
// EOS): a matching line is printed with its parents and everything
// indented under it, in the order of the text.
func Section(text, expr string) string {
	re := pattern(expr)
	lines := splitLines(text)
	keepLine := make([]bool, len(lines))
	for i, l := range lines {
		if strings.TrimSpace(l) == "" || !re.MatchString(l) {
			continue
		}
		ind := indent(l)
		keepLine[i] = true
		// Parents: the nearest earlier lines with less indentation.
		for j, need := i-1, ind; j >= 0 && need > 0; j-- {
			if t := strings.TrimSpace(lines[j]); t != "" && t != "!" && indent(lines[j]) < need {
				keepLine[j] = true
				need = indent(lines[j])
			}
		}
		// Children: the following lines indented deeper.
		for j := i + 1; j < len(lines) && (indent(lines[j]) > ind || strings.TrimSpace(lines[j]) == "!" && indent(lines[j]) > ind); j++ {
			keepLine[j] = true
		}
	}
	var out []string
	for i, l := range lines {
		if keepLine[i] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
