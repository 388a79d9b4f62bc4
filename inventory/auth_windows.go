//go:build windows

package inventory

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// checkSecretAccess checks the file's owner and DACL: on Windows, Go
// makes the mode up from the read-only attribute (0444 or 0666; Go
// source, os/types_windows.go), so the mode says nothing about who may
// read the file.
func checkSecretAccess(path string, _ os.FileInfo) error {
	a, err := readFileACL(path)
	if err != nil {
		return fmt.Errorf("%s: reading its access control list: %w", path, err)
	}
	return judgeACL(path, a)
}

// readFileACL reads the owner and the access-allowed entries of path's
// DACL (GetNamedSecurityInfo, GetAce).
func readFileACL(path string) (fileACL, error) {
	var a fileACL
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return a, err
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return a, err
	}
	a.Owner = principal(owner)
	if a.Trusted, err = trustedSIDs(); err != nil {
		return a, err
	}
	dacl, _, err := sd.DACL()
	if err == windows.ERROR_OBJECT_NOT_FOUND || err == nil && dacl == nil {
		a.NullDACL = true
		return a, nil
	}
	if err != nil {
		return a, err
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return a, err
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0 {
			continue
		}
		a.Allowed = append(a.Allowed, principal((*windows.SID)(unsafe.Pointer(&ace.SidStart))))
	}
	return a, nil
}

// principal names sid for messages.
func principal(sid *windows.SID) aclPrincipal {
	p := aclPrincipal{SID: sid.String(), Name: sid.String()}
	if account, domain, _, err := sid.LookupAccount(""); err == nil {
		p.Name = account
		if domain != "" {
			p.Name = domain + `\` + account
		}
	}
	return p
}

// trustedSIDs are this process's user, SYSTEM and Administrators.
func trustedSIDs() ([]string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, err
	}
	out := []string{u.User.Sid.String()}
	for _, k := range []windows.WELL_KNOWN_SID_TYPE{windows.WinLocalSystemSid, windows.WinBuiltinAdministratorsSid} {
		sid, err := windows.CreateWellKnownSid(k)
		if err != nil {
			return nil, err
		}
		out = append(out, sid.String())
	}
	return out, nil
}
