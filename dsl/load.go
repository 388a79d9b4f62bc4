package dsl

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fabricc/fabricc/internal/cores"
	"github.com/fabricc/fabricc/internal/quote"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

// Options are the values given on the command line.
type Options struct {
	// Vars are -var name=value settings. Each value is parsed as an HCL
	// expression (4, true, ["a","b"]) and falls back to a plain string
	// when it is not one.
	Vars map[string]string
	// VarFiles are HCL files of `name = value` lines, applied in order
	// before Vars.
	VarFiles []string
	// EnvVars are FABRICC_VAR_name settings from the environment, by
	// name, parsed as Vars are and applied before VarFiles, as Terraform
	// applies TF_VAR_name ("Assigning Values to Root Module Variables",
	// variable definition precedence). A name the fabric does not
	// declare is ignored, as Terraform ignores it.
	EnvVars map[string]string
	// EnvApplied, when not nil, is given the EnvVars settings that set a
	// declared variable (those a build's manifest records).
	EnvApplied map[string]string
	// Large selects LargeLimits instead of DefaultLimits.
	Large bool
	// Undeclared, when set, makes a -var setting for a variable the
	// fabric does not declare no error: Undeclared is told its name
	// instead (fabricc plan's base revision, which may predate the
	// variable).
	Undeclared func(name string)
	// Read, when not nil, is set to the files the fabric looked at
	// through file, fileexists and templatefile: their paths relative to
	// the fabric folder, with slashes, sorted (what SourceDigest takes).
	Read *[]string
	// Phase, when set, is told how long each phase of Load took:
	// "parse" (reading and parsing the files) and "evaluate" (variables,
	// locals, functions and dynamic blocks, and decoding the result).
	Phase func(name string, took time.Duration)
}

// timed tells o.Phase that phase name, begun at start, is done.
func (o Options) timed(name string, start time.Time) {
	if o.Phase != nil {
		o.Phase(name, time.Since(start))
	}
}

// metaSchema picks out the blocks evaluated before the fabric itself.
var metaSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
	},
}

// fileBody is one file's top-level fabric blocks.
type fileBody struct {
	Fabrics  []Fabric `hcl:"fabric,block"`
	QoS      []QoS    `hcl:"qos,block"`
	VLANs    []VLAN   `hcl:"vlan,block"`
	Switches []Switch `hcl:"switch,block"`
	Hosts    []Host   `hcl:"host,block"`
	Links    []Link   `hcl:"link,block"`
}

// parsedFile is one fabric file read and parsed: the file (nil when it
// could not be read) and the diagnostics of reading and of parsing it.
type parsedFile struct {
	file        *hcl.File
	read, parse hcl.Diagnostics
}

// parseFiles reads and parses the fabric files names on every core, in
// their order. A fabric a script writes out as plain blocks is tens of
// megabytes of HCL in several files, and parsing them one after the
// other was most of loading it.
func parseFiles(names []string, root string, limits Limits) []parsedFile {
	out := make([]parsedFile, len(names))
	cores.Range(len(names), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			src, d := readSource(names[i], root, limits)
			out[i].read = d
			if !d.HasErrors() {
				out[i].file, out[i].parse = parseConfig(src, names[i])
			}
		}
	})
	return out
}

// Load reads a fabric from path: one .hcl file, or a folder whose *.hcl
// files (not recursive, sorted by name) make up one fabric together. It
// evaluates variables, locals, functions and dynamic blocks and decodes
// the result. The returned files (by name) are what diagnostic writers
// need for source snippets; they are returned even when Load fails. The
// Config is nil when there are errors.
func Load(path string, opts Options) (*Config, map[string]*hcl.File, hcl.Diagnostics) {
	start := time.Now()
	p := hclparse.NewParser()
	names, diags := sourceFiles(path)
	if diags.HasErrors() {
		return nil, p.Files(), diags
	}
	root, folder := "", filepath.Dir(path)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		root, folder = path, path
	}
	var bodies []hcl.Body
	for i, r := range parseFiles(names, root, limitsOf(opts)) {
		diags = append(diags, r.read...)
		diags = append(diags, r.parse...)
		if r.file == nil {
			continue
		}
		p.AddFile(names[i], r.file)
		if !r.parse.HasErrors() {
			bodies = append(bodies, r.file.Body)
		}
	}
	opts.timed("parse", start)
	if diags.HasErrors() {
		return nil, p.Files(), explainBlockLabels(diags, p.Files())
	}
	start = time.Now()
	files := newFileReader(folder, MaxDataFileBytes)
	cfg, d := evaluate(p, names, bodies, opts, files)
	opts.timed("evaluate", start)
	for name, f := range files.templates {
		p.AddFile(name, f)
	}
	if opts.Read != nil {
		*opts.Read = files.names()
	}
	diags = append(diags, d...)
	// Sorted: the instances of a dynamic block are evaluated on several
	// goroutines, and their diagnostics (which Collapse groups, naming
	// the instances in order) must come out the same every run.
	diags = SortDiagnostics(dropConsequential(diags))
	if diags.HasErrors() {
		return nil, p.Files(), diags
	}
	return cfg, p.Files(), diags
}

// sourceFiles lists the .hcl files path stands for.
func sourceFiles(path string) ([]string, hcl.Diagnostics) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read fabric",
			Detail:   fmt.Sprintf("%v. Give a .hcl file or a folder of .hcl files.", err),
		}}
	}
	if !st.IsDir() {
		return []string{path}, checkFileNames([]string{path})
	}
	names, err := filepath.Glob(filepath.Join(path, "*.hcl"))
	if err == nil && len(names) == 0 {
		err = fmt.Errorf("folder %s holds no .hcl files", path)
	}
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No fabric files",
			Detail:   fmt.Sprintf("%v. Give a .hcl file or a folder of .hcl files.", err),
		}}
	}
	if len(names) > MaxFiles {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Too many fabric files",
			Detail:   fmt.Sprintf("Folder %s holds %d .hcl files; a fabric has at most %d. Merge some.", path, len(names), MaxFiles),
			Subject:  fileStart(names[MaxFiles]),
		}}
	}
	sort.Strings(names)
	return names, checkFileNames(names)
}

// checkFileNames refuses a fabric file whose name holds a character that
// is not printable: a terminal or a generated file would take it as more
// than a name (ESC starts a terminal command), as the file's bytes are
// refused for the same reason (Strings and limits, docs/language.md).
func checkFileNames(names []string) hcl.Diagnostics {
	for _, n := range names {
		if base := filepath.Base(n); quote.Visible(base) != base {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid fabric file name",
				Detail: fmt.Sprintf("The name of fabric file %s holds a character that is not printable (a control character such as ESC or a line break, or invalid UTF-8), which a terminal or a generated file would take as more than a name. Rename the file.",
					quote.Visible(n)),
			}}
		}
	}
	return nil
}

// evaluate runs the variable, locals, dynamic-block and decode phases over
// the parsed bodies (one per file, in file order).
func evaluate(p *hclparse.Parser, names []string, bodies []hcl.Body, opts Options, files *fileReader) (*Config, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var varBlocks, localBlocks []*hcl.Block
	work := newBudget(limitsOf(opts))
	lastBudget.Store(work)
	lastFast.Store(false)
	chargeBodies(bodies, work)
	parallelFors(bodies, work)
	raw := Functions()
	files.work = work
	raw["file"], raw["fileexists"], raw["templatefile"] = files.fileFunc(), files.fileExistsFunc(), files.templateFileFunc()
	raw["csvdecode"] = files.csvDecodeFunc()
	fns := boundedFunctions(raw, work)
	files.fns = fns
	if !plainEvaluation {
		nativeExprs(bodies, fns, raw, work)
	}
	remains := make([]hcl.Body, len(bodies))
	for i, b := range bodies {
		content, remain, d := b.PartialContent(metaSchema)
		diags = append(diags, d...)
		remains[i] = remain
		for _, blk := range content.Blocks {
			if blk.Type == "variable" {
				varBlocks = append(varBlocks, blk)
			} else {
				localBlocks = append(localBlocks, blk)
			}
		}
	}
	vars, d := evalVariables(p, varBlocks, opts, fns)
	diags = append(diags, d...)
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars), "local": cty.EmptyObjectVal},
		Functions: fns,
	}
	diags = append(diags, evalLocals(ctx, localBlocks)...)

	// The fast decoder gives up at anything that would be a diagnostic;
	// the reference decoder then runs from the same budget and reports it.
	var decoded []fileBody
	if !diags.HasErrors() && !referenceDecoding {
		saved := work.save()
		var ok bool
		decoded, ok = decodeFast(bodies, ctx, work)
		lastFast.Store(ok)
		if !ok {
			decoded = nil
			work.reset(saved)
		}
	}
	var cfg Config
	var fabricBlocks, qosBlocks []hcl.Range
	for i, remain := range remains {
		var fb fileBody
		if decoded != nil {
			fb = decoded[i]
		} else {
			var d hcl.Diagnostics
			fb, d = decodeReference(remain, ctx)
			diags = append(diags, d...)
		}
		for i := range fb.Fabrics {
			fabricBlocks = append(fabricBlocks, fb.Fabrics[i].DefRange.HCL())
			if cfg.Fabric == nil {
				cfg.Fabric = &fb.Fabrics[i]
			}
		}
		for i := range fb.QoS {
			qosBlocks = append(qosBlocks, fb.QoS[i].DefRange.HCL())
			if cfg.QoS == nil {
				cfg.QoS = &fb.QoS[i]
			}
		}
		cfg.VLANs = joinBlocks(cfg.VLANs, fb.VLANs)
		cfg.Switches = joinBlocks(cfg.Switches, fb.Switches)
		cfg.Hosts = joinBlocks(cfg.Hosts, fb.Hosts)
		cfg.Links = joinBlocks(cfg.Links, fb.Links)
	}
	renameBudgetErrors(diags)
	diags = fileDiagnostics(diags)
	diags = append(diags, checkSingletons(names, fabricBlocks, qosBlocks)...)
	diags = append(diags, checkPortCount(&cfg, limitsOf(opts))...)
	diags = append(diags, checkStrings(&cfg, diags)...)
	if !diags.HasErrors() {
		diags = append(diags, dynamicDuplicates(&cfg, p.Files(), ctx)...)
	}
	suggestNames(diags, p.Files(), ctx)
	nameTypeErrors(diags, p.Files())
	diags = absorbMissing(diags, p.Files())
	diags = varFileInFolder(diags, p.Files(), vars)
	nameEvalInstances(diags, p.Files())
	return &cfg, explainBlockLabels(diags, p.Files())
}

// joinBlocks appends the blocks of one file to those of the files before. The
// first file's blocks are taken as they are: a generated fabric keeps
// its hosts and links in one file each, 130,000 and 200,000 blocks of
// up to 1.4 KB at 4,096 switches, which append would copy.
func joinBlocks[T any](all, file []T) []T {
	if all == nil {
		return file
	}
	return append(all, file...)
}

// lastBudget is the budget of the latest Load and lastFast whether the
// fast decoder decoded it, for the tests; atomic, since fabrics may load
// on several goroutines at once (plan's two revisions, tests).
var (
	lastBudget atomic.Pointer[budget]
	lastFast   atomic.Bool
)

// referenceDecoding makes Load use only the reference decoder (gohcl over
// dynblock); the tests compare the two.
var referenceDecoding = false

// plainEvaluation makes Load evaluate every expression through HCL alone,
// without the native nodes (native.go); tests compare both.
var plainEvaluation = false

// checkSingletons requires exactly one fabric block and at most one qos
// block across all files.
func checkSingletons(names []string, fabrics, qos []hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(fabrics) == 0 {
		start := hcl.Range{Filename: names[0], Start: hcl.InitialPos, End: hcl.InitialPos}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing fabric block",
			Detail:   `A fabric needs exactly one fabric "NAME" { } block; add one.`,
			Subject:  &start,
		})
	}
	diags = append(diags, duplicates("fabric", fabrics)...)
	return append(diags, duplicates("qos", qos)...)
}

// duplicates reports every block of a kind after the first.
func duplicates(kind string, blocks []hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range blocks[min(1, len(blocks)):] {
		subject := r
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Duplicate %s block", kind),
			Detail:   fmt.Sprintf("A fabric has at most one %s block, and the first is at %s; merge the two.", kind, blocks[0]),
			Subject:  &subject,
		}
		diags = append(diags, Also(d, fmt.Sprintf("first %s block", kind), blocks[0]))
	}
	return diags
}

// dropConsequential removes the diagnostics about unknown values ("value
// must be known", "not yet known") when other errors exist: unknown values
// only arise from an expression that already failed (an undefined
// variable, a failed local, a variable without a value), so they would
// repeat that error in a confusing form at a different place.
func dropConsequential(diags hcl.Diagnostics) hcl.Diagnostics {
	var other bool
	for _, d := range diags {
		if d.Severity == hcl.DiagError && !isUnknownValue(d) {
			other = true
		}
	}
	if !other {
		return diags
	}
	out := diags[:0:0]
	for _, d := range diags {
		if !isUnknownValue(d) {
			out = append(out, d)
		}
	}
	return out
}

// isUnknownValue reports a diagnostic about a value that is not known
// yet (HCL's "value must be known" and "not yet known" details).
func isUnknownValue(d *hcl.Diagnostic) bool {
	return strings.Contains(d.Detail, "value must be known") || strings.Contains(d.Detail, "not yet known")
}
