package dsl

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// The functions that read files of the fabric folder: file, fileexists
// and templatefile, with Terraform's meaning (Terraform documentation,
// "file Function", "fileexists Function", "templatefile Function"),
// paths taken relative to the fabric folder as Terraform's relative to
// path.module. A fabric is reviewed in pull requests and built by CI, so
// a path may not leave the folder: file("/home/runner/.ssh/id_rsa")
// would copy a runner's secret into artifacts and plan comments.

// fileError is the error of a file function: the diagnostic's summary
// and detail (fileDiagnostics takes them out of HCL's "Call to function
// failed" wording).
type fileError struct {
	summary, detail string
	// absent is true when no file is at the path (fileexists is false).
	absent bool
}

func (e *fileError) Error() string { return e.summary + ": " + e.detail }

// templateError is the error of a template: its diagnostics, which
// point into the template file.
type templateError struct{ diags hcl.Diagnostics }

func (e *templateError) Error() string { return e.diags.Error() }

// dataFile is one file of the fabric folder as the functions found it:
// exists when a regular file is there (err may still say it cannot be
// read: too large, not UTF-8), its text when it could be read.
type dataFile struct {
	exists bool
	text   string
	err    *fileError
}

// fileReader reads the files of one Load: each file once (a cache by
// name), recording the names read for the source digest.
type fileReader struct {
	root  string
	limit int64
	work  *budget
	mu    sync.Mutex
	files map[string]dataFile // by path relative to root, with slashes
	// templates are the template files parsed, by the name their
	// diagnostics give; Load adds them to its files for snippets.
	templates map[string]*hcl.File
	// texts maps the text of a file read to its name: csvdecode names
	// the file a CSV error is in when its argument is a file's text.
	texts map[string]string
	// parsed are the templates read, by name; fns are the fabric's
	// functions (set once they are made) and inTemplate those a template
	// may call.
	parsed     map[string]template
	fns        map[string]function.Function
	inTemplate map[string]function.Function
}

// newFileReader reads the files below root, at most limit bytes each;
// evaluate gives it the evaluation budget and the functions.
func newFileReader(root string, limit int64) *fileReader {
	return &fileReader{root: root, limit: limit,
		files: map[string]dataFile{}, templates: map[string]*hcl.File{}, texts: map[string]string{}}
}

// names are the files the functions looked at, relative to the fabric
// folder with slashes, sorted.
func (r *fileReader) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.files))
	for n := range r.files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// fail is a fileError of that summary; the detail names the path.
func fail(summary, format string, args ...any) *fileError {
	return &fileError{summary: summary, detail: fmt.Sprintf(format, args...)}
}

// relName checks a path given to a file function and returns it
// cleaned, relative to the fabric folder, with slashes.
func relName(p string) (string, *fileError) {
	switch {
	case p == "":
		return "", fail("Empty file path", "The path is empty; give a path relative to the fabric folder, such as \"cabling.csv\".")
	case filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.VolumeName(p) != "" || strings.HasPrefix(p, "~"):
		return "", fail("Absolute file path", "%q is not relative to the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there, such as \"cabling.csv\".", p)
	}
	c := filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsLocal(c) {
		return "", fail("File outside the fabric folder", "%q leaves the fabric folder; a fabric reads only files of its own folder (what CI builds and reviewers see). Copy the file into the fabric folder and give its path there.", p)
	}
	return filepath.ToSlash(c), nil
}

// get returns the file p names, reading it the first time.
func (r *fileReader) get(p string) dataFile {
	name, ferr := relName(p)
	if ferr != nil {
		return dataFile{err: ferr}
	}
	r.mu.Lock()
	f, ok := r.files[name]
	r.mu.Unlock()
	if ok {
		return f
	}
	f = r.read(p, name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.files[name]; ok {
		return prev // read on another goroutine meanwhile
	}
	r.files[name] = f
	if f.exists && f.err == nil {
		r.texts[f.text] = filepath.Join(r.root, filepath.FromSlash(name))
	}
	return f
}

// read reads the file name (relative to the root, p as written).
func (r *fileReader) read(p, name string) dataFile {
	full := filepath.Join(r.root, filepath.FromSlash(name))
	if ferr := r.inside(p, full); ferr != nil {
		return dataFile{err: ferr}
	}
	st, err := os.Stat(full) // before opening: opening a FIFO blocks
	if err != nil {
		return dataFile{err: missing(p, err)}
	}
	if !st.Mode().IsRegular() {
		return dataFile{err: fail("Not a regular file", "%q is a %s, not a file; give the path of a file in the fabric folder.", p, describeMode(st.Mode()))}
	}
	if st.Size() > r.limit {
		return dataFile{exists: true, err: fail("File too large", "%q is %d bytes; a file a fabric reads holds at most %d (%d MiB). Keep only what the fabric needs in it, or split it.", p, st.Size(), r.limit, r.limit>>20)}
	}
	return r.readRegular(p, full)
}

// inside refuses a path full (p as written) whose folder or link leads
// out of the fabric folder, or that is not there.
func (r *fileReader) inside(p, full string) *fileError {
	outside := func(what, real string) *fileError {
		return fail("File outside the fabric folder", "%q %s %q, outside the fabric folder; a fabric reads only files of its own folder. Copy the file into the fabric folder instead of linking to it.", p, what, real)
	}
	dir := filepath.Dir(full)
	if _, err := os.Stat(dir); err != nil {
		return missing(p, err)
	}
	if err := insideRoot(dir, r.root); err != nil {
		real, _ := filepath.EvalSymlinks(dir)
		return outside("is in a folder linked to", real)
	}
	lst, err := os.Lstat(full)
	if err != nil {
		return missing(p, err)
	}
	if lst.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return fail("Broken symbolic link", "%q is a symbolic link to a file that does not exist; copy the file into the fabric folder.", p)
	}
	if insideRoot(full, r.root) != nil {
		return outside("is a symbolic link to", real)
	}
	return nil
}

// readRegular reads the regular file full, as valid UTF-8 of at most
// r.limit bytes.
func (r *fileReader) readRegular(p, full string) dataFile {
	fh, err := os.Open(full)
	if err != nil {
		return dataFile{exists: true, err: fail("Cannot read file", "Reading %q: %s.", p, errText(err))}
	}
	defer fh.Close()
	src, err := io.ReadAll(io.LimitReader(fh, r.limit+1))
	if err != nil {
		return dataFile{exists: true, err: fail("Cannot read file", "Reading %q: %s.", p, errText(err))}
	}
	if int64(len(src)) > r.limit {
		return dataFile{exists: true, err: fail("File too large", "%q holds more than %d bytes; a file a fabric reads holds at most %d (%d MiB). Keep only what the fabric needs in it, or split it.", p, r.limit, r.limit, r.limit>>20)}
	}
	if !utf8.Valid(src) {
		line, col, b := badUTF8(src)
		return dataFile{exists: true, err: fail("File is not UTF-8", "%q holds the byte 0x%02X at line %d, column %d, which is not UTF-8 text; save the file as UTF-8 (a spreadsheet's \"CSV UTF-8\" export).", p, b, line, col)}
	}
	return dataFile{exists: true, text: string(src)}
}

// errText is an OS error without the path it names (the message names
// the path as written instead of the machine's path).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// missing is the error of a file that is not there.
func missing(p string, err error) *fileError {
	if errors.Is(err, fs.ErrNotExist) {
		e := fail("File not found", "There is no file %q in the fabric folder; a path is relative to the fabric folder (fileexists tells whether a file is there).", p)
		e.absent = true
		return e
	}
	return fail("Cannot read file", "Reading %q: %s.", p, errText(err))
}

// badUTF8 finds the first byte of src that is not UTF-8: its line,
// column and value.
func badUTF8(src []byte) (line, col int, b byte) {
	line, col = 1, 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			return line, col, src[i]
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		col++
		i += n
	}
	return line, col, 0
}

// pathParam is the path parameter of the file functions.
var pathParam = function.Parameter{Name: "path", Type: cty.String}

// fileFunc is file(path): the text of a file of the fabric folder.
func (r *fileReader) fileFunc() function.Function {
	return function.New(&function.Spec{
		Description: "Reads the contents of a file of the fabric folder as a string.",
		Params:      []function.Parameter{pathParam},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			f := r.get(args[0].AsString())
			if f.err != nil {
				return cty.DynamicVal, f.err
			}
			return cty.StringVal(f.text), nil
		},
	})
}

// fileExistsFunc is fileexists(path): whether a file of the fabric
// folder is there. As Terraform's, a folder or another file that is not
// a regular file is an error, not false.
func (r *fileReader) fileExistsFunc() function.Function {
	return function.New(&function.Spec{
		Description: "Determines whether a file exists at the given path in the fabric folder.",
		Params:      []function.Parameter{pathParam},
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			switch f := r.get(args[0].AsString()); {
			case f.exists:
				return cty.True, nil
			case f.err.absent:
				return cty.False, nil
			default:
				return cty.DynamicVal, f.err
			}
		},
	})
}

// fileDiagnostics gives the errors of the file functions their own
// summary, in place of HCL's "Error in function call", and puts a
// template's own diagnostics, which point into the template file, in
// place of the call's, with the call as a related place.
func fileDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	out := diags[:0:0]
	for _, d := range diags {
		extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
		if !ok || extra.FunctionCallError() == nil {
			out = append(out, d)
			continue
		}
		var fe *fileError
		var te *templateError
		switch err := extra.FunctionCallError(); {
		case errors.As(err, &te):
			for _, td := range fileDiagnostics(te.diags) {
				if d.Subject != nil {
					Also(td, "templatefile call", *d.Subject)
				}
				out = append(out, td)
			}
			continue
		case errors.As(err, &fe):
			d.Summary, d.Detail = fe.summary, fe.detail
		}
		out = append(out, d)
	}
	return out
}

// template is a template file parsed: its expression (charged against
// the budget) or the diagnostics of reading and parsing it.
type template struct {
	expr  hclsyntax.Expression
	diags hcl.Diagnostics
	err   *fileError
}

// template reads and parses the template file p names, once per Load.
func (r *fileReader) template(p string) template {
	f := r.get(p)
	if f.err != nil {
		return template{err: f.err}
	}
	name, _ := relName(p)
	full := filepath.Join(r.root, filepath.FromSlash(name))
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.parsed == nil {
		r.parsed = map[string]template{}
	}
	if t, ok := r.parsed[name]; ok {
		return t
	}
	src := []byte(f.text)
	t := template{diags: checkBytes(src, full)}
	if !t.diags.HasErrors() {
		r.templates[full] = &hcl.File{Bytes: src}
		t.diags = checkTokens(src, full)
	}
	if !t.diags.HasErrors() {
		expr, diags := hclsyntax.ParseTemplate(src, full, hcl.InitialPos)
		t.diags = diags
		if !diags.HasErrors() {
			chargeExpr(expr, r.work)
			t.expr = charged(expr, r.work)
		}
	}
	r.parsed[name] = t
	return t
}

// templateFileFunc is templatefile(path, vars): the template file's text
// rendered with vars, as Terraform's. The template sees only vars and
// the functions (no var. or local.); it cannot call templatefile.
func (r *fileReader) templateFileFunc() function.Function {
	return function.New(&function.Spec{
		Description: "Reads a template file of the fabric folder and renders it with the given variables.",
		Params:      []function.Parameter{pathParam, {Name: "vars", Type: cty.DynamicPseudoType}},
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			t := r.template(args[0].AsString())
			switch {
			case t.err != nil:
				return cty.DynamicVal, t.err
			case t.diags.HasErrors():
				return cty.DynamicVal, &templateError{diags: t.diags}
			}
			return r.render(args[0].AsString(), t.expr, args[1])
		},
	})
}

// render evaluates a template with vars.
func (r *fileReader) render(p string, expr hclsyntax.Expression, vars cty.Value) (cty.Value, error) {
	ty := vars.Type()
	if vars.IsNull() || !(ty.IsMapType() || ty.IsObjectType()) {
		return cty.DynamicVal, function.NewArgErrorf(1, "the vars of a template are an object or map, such as { name = \"leaf1\" }")
	}
	if !vars.IsWhollyKnown() {
		return cty.DynamicVal, nil
	}
	ctx := &hcl.EvalContext{Variables: vars.AsValueMap(), Functions: r.templateFuncs()}
	for k := range ctx.Variables {
		if !hclsyntax.ValidIdentifier(k) {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: a name starts with a letter, followed by letters, digits, underscores and dashes", k)
		}
	}
	var diags hcl.Diagnostics
	for _, tr := range expr.Variables() {
		root := tr.RootName()
		if _, ok := ctx.Variables[root]; ok {
			continue
		}
		rng := tr.SourceRange()
		hint := "add it to the vars argument of the templatefile call"
		if root == "var" || root == "local" {
			hint = fmt.Sprintf("a template sees only the vars it is given, not %s.; pass the value in vars (templatefile(%q, { name = %s.name }))", root, p, root)
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown template variable",
			Detail: fmt.Sprintf("The template refers to %q, which the vars of templatefile do not hold; %s.", root, hint), Subject: &rng})
	}
	if diags.HasErrors() {
		return cty.DynamicVal, &templateError{diags: diags}
	}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal, &templateError{diags: diags}
	}
	return v, nil
}

// templateFuncs are the functions a template may call: the fabric's,
// but templatefile, which a template cannot call (as in Terraform).
func (r *fileReader) templateFuncs() map[string]function.Function {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inTemplate == nil {
		r.inTemplate = make(map[string]function.Function, len(r.fns))
		for name, f := range r.fns {
			r.inTemplate[name] = f
		}
		r.inTemplate["templatefile"] = function.New(&function.Spec{
			Params: []function.Parameter{pathParam, {Name: "vars", Type: cty.DynamicPseudoType}},
			Type:   function.StaticReturnType(cty.DynamicPseudoType),
			Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
				return cty.DynamicVal, fail("Template calls templatefile", "A template cannot call templatefile (nor can Terraform's); render the inner template in the fabric and pass the text in vars.")
			},
		})
	}
	return r.inTemplate
}

// csvDecodeFunc is csvdecode(text) as Terraform's (cty's), whose error
// names the CSV's line; when the text is a file's that file() read, the
// error names the file too.
func (r *fileReader) csvDecodeFunc() function.Function {
	return function.New(&function.Spec{
		Description: stdlib.CSVDecodeFunc.Description(),
		Params:      stdlib.CSVDecodeFunc.Params(),
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := stdlib.CSVDecodeFunc.Call(args)
			if err == nil {
				return v, nil
			}
			r.mu.Lock()
			name, ok := r.texts[args[0].AsString()]
			r.mu.Unlock()
			if !ok {
				return v, err
			}
			msg, name := err.Error(), quote.Visible(name)
			if m := csvLine.FindStringSubmatch(msg); m != nil {
				return v, fail("Invalid CSV", "%s:%s: %s; fix that line of the file (the first line is the header, and every line has as many fields).", name, m[1], msg)
			}
			return v, fail("Invalid CSV", "%s: %s.", name, msg)
		},
	})
}

// csvLine finds the line number in cty's CSV errors.
var csvLine = regexp.MustCompile(`^CSV parse error on line (\d+)`)
