package plan

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"strings"
)

// ModelFile is the model a `fabricc build` output folder holds.
const ModelFile = "model.json"

// BaseKind says what a --base argument names.
type BaseKind int

// Kinds of base: a fabric (.hcl file or folder of .hcl files), a build
// output folder (with model.json), or a git revision.
const (
	BaseFabric BaseKind = iota
	BaseBuild
	BaseGit
)

// ClassifyBase says what base names: an existing folder with model.json
// is a build output, another existing path a fabric, anything else a
// git revision.
func ClassifyBase(base string) BaseKind {
	st, err := os.Stat(base)
	if err != nil {
		return BaseGit
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(base, ModelFile)); err == nil {
			return BaseBuild
		}
	}
	return BaseFabric
}

// maxArchiveBytes bounds what a git revision of a fabric may unpack to.
const maxArchiveBytes = 256 << 20

// NoFabricError says that the base revision has nothing at the fabric's
// path: the fabric is new since that revision.
type NoFabricError struct {
	// Rev is the revision as given, Path the fabric's path in the
	// repository, with slashes.
	Rev, Path string
}

// Error is "the base revision HEAD~1 has no fabric at net/lab".
func (e *NoFabricError) Error() string {
	return "the base revision " + e.Rev + " has no fabric at " + e.Path
}

// CheckoutFabric writes the fabric at path (a file or folder inside a
// git work tree) as it was at revision rev into a new temporary folder,
// and returns the fabric's path there and the folder to remove. It runs
// `git rev-parse` and `git archive`; nothing in the work tree changes.
// When the revision has nothing at path, the error is a *NoFabricError.
func CheckoutFabric(rev, path string) (fabric, tmp string, err error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", "", fmt.Errorf("--base %q: not a folder, a file or a git revision", rev)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", err
	}
	dir := abs
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		dir = filepath.Dir(abs)
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", fmt.Errorf("--base %q is no folder or file, and %s is not in a git work tree to read it as a revision from: %w", rev, path, err)
	}
	top = strings.TrimSpace(top)
	commit, err := git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", "", unknownRevision(top, rev)
	}
	rel, err := relInRepo(top, abs)
	if err != nil {
		return "", "", err
	}
	commit = strings.TrimSpace(commit)
	if !existsAt(top, commit, rel) {
		return "", "", &NoFabricError{Rev: rev, Path: rel}
	}
	tmp, err = os.MkdirTemp("", "fabricc-plan-")
	if err != nil {
		return "", "", err
	}
	// The fabric's folder comes whole, a single file's folder too: the
	// files the fabric reads with file() and templatefile() are in it.
	folder := rel
	if dir != abs {
		folder = pathpkg.Dir(rel)
	}
	if err := archive(top, commit, folder, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", "", fmt.Errorf("reading %s at %s: %w", rel, rev, err)
	}
	return filepath.Join(tmp, filepath.FromSlash(rel)), tmp, nil
}

// UnknownRevisionError says that --base names no path and no revision
// of the work tree Top. CI clones are shallow, or fetch one branch, by
// default (actions/checkout: "Only a single commit is fetched by
// default"; GitLab CI/CD, "Shallow cloning", GIT_DEPTH), so a real base
// such as origin/main or HEAD~1 is often not in the clone: Shallow and
// Remote (the remote a REMOTE/BRANCH revision names) say so, and how to
// fetch it.
type UnknownRevisionError struct {
	Rev, Top string
	// Shallow: git rev-parse --is-shallow-repository said true.
	Shallow bool
	// Remote and Branch: Rev is Remote/Branch, Remote is a remote of the
	// clone and the clone has no such remote-tracking branch.
	Remote, Branch string
}

// Error names the revision and, for a shallow clone or a missing
// remote-tracking branch, how to fetch it.
func (e *UnknownRevisionError) Error() string {
	msg := fmt.Sprintf("--base %q is no folder, file or git revision of %s", e.Rev, e.Top)
	fetch := "fetch it"
	if e.Remote != "" {
		fetch = fmt.Sprintf("fetch it (git fetch --depth=1 %s %s:refs/remotes/%s/%s)", e.Remote, e.Branch, e.Remote, e.Branch)
	}
	const history = "or clone with the history (actions/checkout: fetch-depth: 0; GitLab CI: GIT_DEPTH: 0)"
	switch {
	case e.Shallow && e.Remote != "":
		return fmt.Sprintf("%s: this clone is shallow (git rev-parse --is-shallow-repository) and has no %s; %s, %s", msg, e.Rev, fetch, history)
	case e.Shallow:
		return fmt.Sprintf("%s: this clone is shallow (git rev-parse --is-shallow-repository), so %s may not have been fetched; fetch the history (git fetch --unshallow), %s", msg, e.Rev, history)
	case e.Remote != "":
		return fmt.Sprintf("%s: the clone has no remote-tracking branch %s (a CI clone often fetches one branch); %s, %s", msg, e.Rev, fetch, history)
	}
	return msg
}

// unknownRevision is the UnknownRevisionError of rev in the work tree
// top: whether the clone is shallow, and whether rev is REMOTE/BRANCH
// of a remote the clone has (a branch name of safe characters only, as
// the message shows it in a command).
func unknownRevision(top, rev string) error {
	e := &UnknownRevisionError{Rev: rev, Top: top}
	out, err := git(top, "rev-parse", "--is-shallow-repository")
	e.Shallow = err == nil && strings.TrimSpace(out) == "true"
	remote, branch, ok := strings.Cut(rev, "/")
	if ok && safeRef(remote) && safeRef(branch) {
		if remotes, err := git(top, "remote"); err == nil {
			for _, r := range strings.Fields(remotes) {
				if r == remote {
					e.Remote, e.Branch = remote, branch
				}
			}
		}
	}
	return e
}

// safeRef reports whether s is a ref name of letters, digits and
// . _ - / only, which a message may show inside a command.
func safeRef(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-/", c)) {
			return false
		}
	}
	return true
}

// relInRepo is abs relative to the work tree top, with slashes;
// symbolic links in either are resolved first.
func relInRepo(top, abs string) (string, error) {
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return "", err
	}
	realAbs, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(realTop, realAbs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git work tree %s", abs, top)
	}
	return filepath.ToSlash(rel), nil
}

// existsAt reports whether the commit has a file or folder at rel (the
// top of the repository always exists).
func existsAt(top, commit, rel string) bool {
	if rel == "." {
		return true
	}
	_, err := git(top, "rev-parse", "--verify", "--quiet", commit+":"+rel)
	return err == nil
}

// archive unpacks the regular files below rel at commit into dst.
func archive(top, commit, rel, dst string) error {
	args := []string{"archive", "--format=tar", commit}
	if rel != "." {
		args = append(args, "--", rel)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = top
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git archive: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	return untar(&out, dst)
}

// untar writes the regular files of a tar stream below dst, refusing
// paths that leave it, and at most maxArchiveBytes.
func untar(r io.Reader, dst string) error {
	tr := tar.NewReader(r)
	var total int64
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("refusing archive path %q", h.Name)
		}
		if total += h.Size; total > maxArchiveBytes {
			return fmt.Errorf("the fabric at that revision is over %d bytes", maxArchiveBytes)
		}
		p := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		data, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return out.String(), nil
}
