// Package docs writes the review documents of a fabric: fabric.md (what
// the fabric is, a Mermaid topology, the cabling, the traffic classes,
// every switch's buffer budget and every warning with its place in the
// source), one <device>.md per switch and host (ports or NICs, the PFC
// headroom inputs and results, host QoS settings and what must be done by
// hand), and one <switch>.buffer.svg chart of each switch's buffer budget.
//
// Like every target it reads only the model; the warnings of the build
// come in as plain data (Warning), converted from the compiler's
// diagnostics by the caller. The same model and warnings always give the
// same bytes. Every fabric string is escaped by the one rule of the
// context it lands in (see escape.go).
package docs

// Target is the name the documents carry in manifest.json.
const Target = "docs"

// FabricFile is the name of the fabric document at the top of a build.
const FabricFile = "fabric.md"

// Warning is one warning of the build with its places in the fabric
// source. File names are relative to the fabric's folder, with slashes.
type Warning struct {
	Summary string
	Detail  string
	// Place is where the warning points; zero when it has no place.
	Place Place
	// Related are further places the warning is about.
	Related []Place
}

// Place is a position in the fabric source, with a label for related
// places ("switch spine1 is eos on 7050CX3-32S").
type Place struct {
	Label  string
	File   string
	Line   int
	Column int
}
