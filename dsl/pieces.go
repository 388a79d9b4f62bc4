package dsl

import (
	"bytes"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/fabricc/fabricc/internal/cores"
)

// Parsing one large file on every core. A fabric a script writes out as
// plain blocks can be one file of tens of megabytes, and HCL parses a
// file on one core: a 9 MB file of 496 switches and 15,872 hosts took
// 2.1 of the 3.8 s that validating it took. Such a file is cut between
// its top-level blocks and the pieces are parsed at once, each from its
// own place in the file, so that every range is the file's; their
// blocks make one body. Only a file the byte scan of codeBytes reads
// whole is cut (no template, no heredoc), and a file whose pieces
// hold an error, or the same argument twice, is parsed whole instead:
// every diagnostic is HCL's own. TestPiecesParseSame and
// FuzzPiecesParseSame compare both ways.

// pieceBytes is the least a piece holds; a file is cut only when it
// has two pieces or more. Tests set it lower, or to 0 to parse whole.
var pieceBytes = 1 << 20

// parseConfig parses one fabric file, in pieces when it is large.
func parseConfig(src []byte, name string) (*hcl.File, hcl.Diagnostics) {
	if cuts := topLevelCuts(src, pieceBytes); len(cuts) > 0 {
		if f := parsePieces(src, name, cuts); f != nil {
			return f, nil
		}
	}
	return hclsyntax.ParseConfig(src, name, hcl.InitialPos)
}

// cut is where a piece starts: a byte offset just after a line break
// outside every block, bracket, string and comment, and its line.
type cut struct{ offset, line int }

// topLevelCuts returns where to cut src into pieces of at least least
// bytes (the first piece starts at 0 and is not listed), or nil when it
// should not be cut: too small, or holding what codeBytes does not read
// (a template, a heredoc, an unterminated string or comment).
func topLevelCuts(src []byte, least int) []cut {
	if least <= 0 || len(src) < 2*least {
		return nil
	}
	var cuts []cut
	depth, line, counted := 0, 1, 0
	whole := codeBytes(src, func(i int) bool {
		switch src[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth = max(depth-1, 0)
		case '\n':
			last := 0
			if len(cuts) > 0 {
				last = cuts[len(cuts)-1].offset
			}
			if depth == 0 && i+1-last >= least && len(src)-(i+1) >= least {
				line += bytes.Count(src[counted:i+1], []byte("\n"))
				counted = i + 1
				cuts = append(cuts, cut{offset: i + 1, line: line})
			}
		}
		return true
	})
	if !whole {
		return nil
	}
	return cuts
}

// parsePieces parses src cut at cuts on every core and joins the
// pieces' blocks into one file, or returns nil when a piece holds an
// error or an argument another piece holds too.
func parsePieces(src []byte, name string, cuts []cut) *hcl.File {
	starts := append([]cut{{offset: 0, line: 1}}, cuts...)
	files := make([]*hcl.File, len(starts))
	failed := make([]bool, len(starts))
	cores.Range(len(starts), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			end := len(src)
			if i+1 < len(starts) {
				end = starts[i+1].offset
			}
			at := hcl.Pos{Byte: starts[i].offset, Line: starts[i].line, Column: 1}
			var diags hcl.Diagnostics
			files[i], diags = hclsyntax.ParseConfig(src[starts[i].offset:end], name, at)
			failed[i] = len(diags) > 0
		}
	})
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, Blocks: hclsyntax.Blocks{}}
	nav := piecesNav{}
	for i, f := range files {
		piece := f.Body.(*hclsyntax.Body)
		if failed[i] {
			return nil
		}
		for attr, a := range piece.Attributes {
			if body.Attributes[attr] != nil {
				return nil
			}
			body.Attributes[attr] = a
		}
		body.Blocks = append(body.Blocks, piece.Blocks...)
		nav.starts = append(nav.starts, starts[i].offset)
		nav.navs = append(nav.navs, f.Nav)
	}
	first, last := files[0].Body.(*hclsyntax.Body), files[len(files)-1].Body.(*hclsyntax.Body)
	body.SrcRange = hcl.RangeBetween(first.SrcRange, last.SrcRange)
	body.EndRange = last.EndRange
	return &hcl.File{Body: body, Bytes: src, Nav: nav}
}

// piecesNav answers what HCL's diagnostics ask a file about a place in
// it (the block it is in) from the piece that holds the place.
type piecesNav struct {
	starts []int
	navs   []any
}

// piece is the navigation of the piece holding offset.
func (n piecesNav) piece(offset int) any {
	i := sort.Search(len(n.starts), func(i int) bool { return n.starts[i] > offset }) - 1
	return n.navs[max(i, 0)]
}

// ContextString is the header of the block around offset ("switch
// \"leaf1\""), as hclsyntax gives it.
func (n piecesNav) ContextString(offset int) string {
	if c, ok := n.piece(offset).(interface{ ContextString(int) string }); ok {
		return c.ContextString(offset)
	}
	return ""
}

// ContextDefRange is the definition range of the block around offset,
// as hclsyntax gives it.
func (n piecesNav) ContextDefRange(offset int) hcl.Range {
	if c, ok := n.piece(offset).(interface{ ContextDefRange(int) hcl.Range }); ok {
		return c.ContextDefRange(offset)
	}
	return hcl.Range{}
}
