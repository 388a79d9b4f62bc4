package cli

import (
	"fmt"
	"strings"
)

// Diff is a unified diff of two texts (3 lines of context), "" when equal.
func Diff(a, b, nameA, nameB string) string {
	if a == b {
		return ""
	}
	x, y := lines(a), lines(b)
	ops := lcsOps(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	for _, h := range hunks(ops, 3) {
		writeHunk(&out, ops[h[0]:h[1]])
	}
	return out.String()
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// op is one diff line: kind ' ', '-' or '+', with the 1-based line
// numbers it has in a and b.
type op struct {
	kind   byte
	text   string
	ai, bi int
}

func lcsOps(x, y []string) []op {
	n, m := len(x), len(y)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i + 1, j + 1})
			i, j = i+1, j+1
		case i < n && (j == m || l[i+1][j] >= l[i][j+1]):
			// Removed lines come before the lines that replace them,
			// as in every unified diff.
			ops = append(ops, op{'-', x[i], i + 1, j})
			i++
		default:
			ops = append(ops, op{'+', y[j], i, j + 1})
			j++
		}
	}
	return ops
}

// hunks groups changed lines with ctx lines of context; [start, end) pairs.
func hunks(ops []op, ctx int) [][2]int {
	var out [][2]int
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == ' ' {
			continue
		}
		start, end := max(0, i-ctx), min(len(ops), i+ctx+1)
		if len(out) > 0 && start <= out[len(out)-1][1] {
			out[len(out)-1][1] = end
		} else {
			out = append(out, [2]int{start, end})
		}
	}
	return out
}

func writeHunk(w *strings.Builder, ops []op) {
	var na, nb int
	as, bs := 0, 0
	for _, o := range ops {
		if o.kind != '+' {
			if as == 0 {
				as = o.ai
			}
			na++
		}
		if o.kind != '-' {
			if bs == 0 {
				bs = o.bi
			}
			nb++
		}
	}
	if as == 0 {
		as = ops[0].ai
	}
	if bs == 0 {
		bs = ops[0].bi
	}
	fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", as, na, bs, nb)
	for _, o := range ops {
		w.WriteString(string(o.kind) + o.text + "\n")
	}
}
