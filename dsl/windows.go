package dsl

import (
	"slices"
	"strings"
)

// WindowsReleases are the Windows os_version forms fabricc writes scripts
// for: Windows Server 2012 R2 and later, and the Azure Stack HCI releases
// by their version. The script's first line, #Requires
// -RunAsAdministrator, needs Windows PowerShell 4.0 ("The
// RunAsAdministrator parameter is introduced in Windows PowerShell 4.0",
// Microsoft, about_Requires, -RunAsAdministrator), the shell of Windows
// Server 2012 R2.
var WindowsReleases = []string{"2012r2", "2016", "2019", "2022", "2025", "21h2", "22h2", "23h2"}

// olderWindowsReleases are Windows Server releases before 2012 R2, in
// the form WindowsRelease reduces them to: real releases whose Windows
// PowerShell is older than 4.0 (Windows Server 2012 ships 3.0).
var olderWindowsReleases = []string{"2000", "2003", "2003r2", "2008", "2008r2", "2012"}

// windowsWords are the words around a release number that name the
// product, not the release: "Windows Server 2022 Datacenter" is "2022".
var windowsWords = []string{"microsoft", "windows", "server", "azure", "stack", "hci", "datacenter", "standard", "ws", "version"}

// WindowsRelease reduces an os_version to the release it means: lower
// case, without the product's words (windowsWords), white space, '-' and
// '_'; "Windows Server 2022", "Server2022" and "2022 R2" (there is no
// Windows Server 2022 R2) are "2022", "2012 R2" is "2012r2". It returns
// the release and true when that is one of WindowsReleases, or a
// Windows Server release older than those (then known is true and ok
// false), else "" and false for both.
func WindowsRelease(v string) (release string, ok, known bool) {
	s := strings.ToLower(v)
	for _, w := range windowsWords {
		s = strings.ReplaceAll(s, w, "")
	}
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '-' || r == '_' {
			return -1
		}
		return r
	}, s)
	for _, c := range []string{s, strings.TrimSuffix(s, "r2")} {
		if slices.Contains(WindowsReleases, c) {
			return c, true, true
		}
		if slices.Contains(olderWindowsReleases, c) {
			return c, false, true
		}
	}
	return "", false, false
}

// WindowsReleasesHint is the sentence that tells how to write a Windows
// os_version: the WindowsReleases, quoted.
func WindowsReleasesHint() string {
	return "Write one of " + QuoteList(WindowsReleases) + " (Windows Server, or Azure Stack HCI by its version), lower case as shown."
}

// windowsReleaseHint is the fix for a Windows os_version that is not one
// of WindowsReleases: the list, and the release it means when
// WindowsRelease finds one fabricc writes scripts for.
func windowsReleaseHint(v string) string {
	hint := " " + WindowsReleasesHint()
	if r, ok, _ := WindowsRelease(v); ok {
		hint += ` Did you mean "` + r + `"?`
	}
	return hint
}
