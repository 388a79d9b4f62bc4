package inventory

import (
	"fmt"
	"strings"
)

// fileACL is what the Windows check reads of a secret file's security
// descriptor, as SID strings ("S-1-5-32-545") with account names for
// messages. It lives outside the windows build so that the rule is
// tested everywhere.
type fileACL struct {
	// Owner is the file's owner.
	Owner aclPrincipal
	// NullDACL: the file has no DACL, which lets everyone in.
	NullDACL bool
	// Allowed holds the principals of the DACL's access-allowed entries
	// that apply to the file itself.
	Allowed []aclPrincipal
	// Trusted are this user, SYSTEM and Administrators.
	Trusted []string
}

// aclPrincipal is one SID and its account name ("BUILTIN\Users"; the SID
// when it has none).
type aclPrincipal struct {
	SID, Name string
}

// judgeACL applies the rule OpenSSH for Windows applies to private keys
// (Win32-OpenSSH wiki, "Security protection of various files"): the
// owner is this user, SYSTEM or Administrators, and nobody else is
// allowed any access. Deny entries only take access away, so they pass.
func judgeACL(path string, a fileACL) error {
	trusted := func(sid string) bool {
		for _, t := range a.Trusted {
			if t == sid {
				return true
			}
		}
		return false
	}
	switch {
	case a.NullDACL:
		return fmt.Errorf("%s has no access control list, so everyone may read it; %s", path, icaclsHint(path, ""))
	case !trusted(a.Owner.SID):
		return fmt.Errorf("%s belongs to %s, not to you; take it (takeown /f %s), then %s", path, a.Owner.Name, cmdQuote(path), icaclsHint(path, ""))
	}
	for _, p := range a.Allowed {
		if !trusted(p.SID) {
			return fmt.Errorf("%s is readable by others (its access control list allows %s); %s", path, p.Name, icaclsHint(path, p.Name))
		}
	}
	return nil
}

// icaclsHint is the Windows counterpart of `chmod 600`, for cmd.exe
// (icacls, Windows Commands reference: /inheritance:r drops the
// inherited entries, /grant:r replaces this user's with read, /remove
// drops every entry of a principal).
func icaclsHint(path, other string) string {
	h := "allow only yourself: icacls " + cmdQuote(path) + ` /inheritance:r /grant:r "%USERNAME%:R"`
	if other != "" {
		h += ", and, if the file itself names " + other + ", icacls " + cmdQuote(path) + " /remove " + cmdQuote(other)
	}
	return h
}

// cmdQuote quotes a path or account name for cmd.exe: in double quotes,
// which neither may contain (Windows file names exclude '"', Naming
// Files, Paths, and Namespaces; so do account names); one that does is
// left out.
func cmdQuote(s string) string {
	if strings.ContainsAny(s, "\"\r\n%") {
		return "FILE"
	}
	return `"` + s + `"`
}
