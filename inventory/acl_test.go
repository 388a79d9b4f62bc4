package inventory

import "testing"

// TestJudgeACL: the Windows rule for secret files, as OpenSSH for
// Windows has it for private keys: owned by this user (or SYSTEM or
// Administrators) and nobody else allowed in; the refusal names who may
// read it and gives the icacls command, not chmod.
func TestJudgeACL(t *testing.T) {
	const me, system, admins = "S-1-5-21-1-2-3-1001", "S-1-5-18", "S-1-5-32-544"
	trusted := []string{me, system, admins}
	mine := aclPrincipal{me, `LAPTOP\ops`}
	path := `C:\Users\ops\fabric\secrets\leaf2`
	hint := `allow only yourself: icacls "C:\Users\ops\fabric\secrets\leaf2" /inheritance:r /grant:r "%USERNAME%:R"`
	for _, tc := range []struct {
		name string
		acl  fileACL
		want string
	}{
		{"only me, SYSTEM and Administrators", fileACL{Owner: mine, Allowed: []aclPrincipal{mine, {system, `NT AUTHORITY\SYSTEM`}, {admins, `BUILTIN\Administrators`}}}, ""},
		{"owned by Administrators", fileACL{Owner: aclPrincipal{admins, `BUILTIN\Administrators`}, Allowed: []aclPrincipal{mine}}, ""},
		{"inherited Users entry", fileACL{Owner: mine, Allowed: []aclPrincipal{mine, {"S-1-5-32-545", `BUILTIN\Users`}}},
			path + ` is readable by others (its access control list allows BUILTIN\Users); ` + hint +
				`, and, if the file itself names BUILTIN\Users, icacls "C:\Users\ops\fabric\secrets\leaf2" /remove "BUILTIN\Users"`},
		{"no DACL", fileACL{Owner: mine, NullDACL: true}, path + " has no access control list, so everyone may read it; " + hint},
		{"another owner", fileACL{Owner: aclPrincipal{"S-1-5-21-1-2-3-1002", `LAPTOP\eve`}, Allowed: []aclPrincipal{mine}},
			path + ` belongs to LAPTOP\eve, not to you; take it (takeown /f "C:\Users\ops\fabric\secrets\leaf2"), then ` + hint},
	} {
		tc.acl.Trusted = trusted
		err := judgeACL(path, tc.acl)
		if got := errString(err); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
