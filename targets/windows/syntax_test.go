package windows

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// No PowerShell parser runs on this machine (Debian has no powershell
// package), so these tests check the structure a parser would reject:
// balanced brackets and quotes outside comments, defined variables, and
// known command names.

// psToken is one piece of a script line: code or a string literal.
type psToken struct {
	code   bool
	text   string
	double bool
}

// isSingleQuote and isDoubleQuote are PowerShell's quote characters,
// the curly ones included ("single-quote-character", "double-quote-
// character", PowerShell Language Specification 3.0, 2.3.5.2): a
// curly quote ends a string as the ASCII one does.
func isSingleQuote(r rune) bool { return strings.ContainsRune("'\u2018\u2019\u201a\u201b", r) }
func isDoubleQuote(r rune) bool { return strings.ContainsRune("\"\u201c\u201d\u201e", r) }

// scan splits s into code and string tokens, dropping comments, and
// checks that (), {} and [] balance and strings close.
func scan(s string) ([]psToken, error) {
	var toks []psToken
	var stack []rune
	pairs := map[rune]rune{')': '(', '}': '{', ']': '['}
	line := 1
	var code strings.Builder
	flush := func() {
		if code.Len() > 0 {
			toks = append(toks, psToken{code: true, text: code.String()})
			code.Reset()
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\n':
			line++
			code.WriteRune(c)
		case c == '#':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			i--
		case isSingleQuote(c):
			j := i + 1
			var lit strings.Builder
			for ; j < len(rs); j++ {
				if isSingleQuote(rs[j]) {
					if j+1 < len(rs) && isSingleQuote(rs[j+1]) {
						lit.WriteRune(rs[j])
						j++
						continue
					}
					break
				}
				if rs[j] == '\n' {
					return nil, fmt.Errorf("line %d: single-quoted string not closed on its line", line)
				}
				lit.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, fmt.Errorf("line %d: unterminated single-quoted string", line)
			}
			flush()
			toks = append(toks, psToken{text: lit.String()})
			i = j
		case isDoubleQuote(c):
			j := i + 1
			for ; j < len(rs) && !isDoubleQuote(rs[j]); j++ {
				if rs[j] == '`' {
					j++
				}
				if rs[j] == '\n' {
					return nil, fmt.Errorf("line %d: double-quoted string not closed on its line", line)
				}
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("line %d: unterminated double-quoted string", line)
			}
			flush()
			toks = append(toks, psToken{text: string(rs[i+1 : j]), double: true})
			i = j
		case c == '(' || c == '{' || c == '[':
			stack = append(stack, c)
			code.WriteRune(c)
		case c == ')' || c == '}' || c == ']':
			if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {
				return nil, fmt.Errorf("line %d: unbalanced %q", line, c)
			}
			stack = stack[:len(stack)-1]
			code.WriteRune(c)
		default:
			code.WriteRune(c)
		}
	}
	flush()
	if len(stack) != 0 {
		return nil, fmt.Errorf("unclosed %q at end of script", stack)
	}
	return toks, nil
}

var (
	varRef    = regexp.MustCompile(`\$(?:script:)?([A-Za-z_][A-Za-z0-9_]*)`)
	varAssign = regexp.MustCompile(`\$(?:script:)?([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\s*(?:=[^=]|\+=|\+\+)`)
	paramDecl = regexp.MustCompile(`^\s*\[switch\]\$([A-Za-z_][A-Za-z0-9_]*),?$`)
	foreachV  = regexp.MustCompile(`foreach\s*\(\s*\$([A-Za-z_][A-Za-z0-9_]*)\s+in\b`)
	command   = regexp.MustCompile(`(?:^|[\s(|;{])((?:Get|Set|New|Remove|Enable|Disable|Install|Write|Compare|Format|Test|Restart|Sort|Where|ForEach|Out)-[A-Za-z]+)`)
)

// automatic are PowerShell's own variables the scripts use
// ($WhatIfPreference is the preference variable -WhatIf sets in a script
// with SupportsShouldProcess, about_Preference_Variables).
var automatic = map[string]bool{"true": true, "false": true, "null": true, "_": true, "pscmdlet": true, "erroractionpreference": true, "whatifpreference": true}

// cmdlets are the commands the scripts may call besides their own
// functions: the NetQos, DcbQos, NetAdapter, NetTCPIP, ServerManager and
// core cmdlets of the Mellanox and Demartek procedures.
var cmdlets = map[string]bool{
	"Get-WindowsFeature": true, "Install-WindowsFeature": true, "Get-Command": true,
	"Get-SmbClientNetworkInterface": true, "Get-VMSwitch": true, "Get-NetIntent": true,
	"Get-NetLbfoTeamMember": true, "Get-NetLbfoTeamNic": true,
	"Get-NetQosDcbxSetting": true, "Set-NetQosDcbxSetting": true,
	"Get-NetQosPolicy": true, "New-NetQosPolicy": true, "Remove-NetQosPolicy": true,
	"Get-NetQosFlowControl": true, "Enable-NetQosFlowControl": true, "Disable-NetQosFlowControl": true,
	"Get-NetQosTrafficClass": true, "New-NetQosTrafficClass": true, "Remove-NetQosTrafficClass": true,
	"Get-NetAdapter": true, "Get-NetAdapterQos": true, "Enable-NetAdapterQos": true,
	"Get-NetAdapterRdma": true, "Enable-NetAdapterRdma": true, "Restart-NetAdapter": true,
	"Get-NetAdapterAdvancedProperty": true, "Set-NetAdapterAdvancedProperty": true, "New-NetAdapterAdvancedProperty": true,
	"Get-NetIPInterface": true, "Set-NetIPInterface": true,
	"Get-NetIPAddress": true, "New-NetIPAddress": true, "Remove-NetIPAddress": true,
	"Get-NetRoute": true, "New-NetRoute": true, "Remove-NetRoute": true,
	"Get-ItemProperty": true, "New-ItemProperty": true, "New-Item": true, "Test-Path": true,
	"Write-Host": true, "Write-Warning": true, "Sort-Object": true, "Where-Object": true, "ForEach-Object": true, "Out-Null": true,
}

// checkScript runs the structural checks over one script.
func checkScript(s string) []string {
	toks, err := scan(s)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	defined := map[string]bool{}
	assigned := map[string]bool{"check": true} // the param block
	for _, t := range toks {
		text := t.text
		if !t.code && !t.double {
			continue
		}
		if t.double {
			text = strings.ReplaceAll(text, "$(", "(")
		}
		for _, m := range regexp.MustCompile(`function\s+([A-Za-z-]+)`).FindAllStringSubmatch(text, -1) {
			defined[m[1]] = true
		}
		for _, line := range strings.Split(text, "\n") {
			if m := paramDecl.FindStringSubmatch(line); m != nil {
				assigned[strings.ToLower(m[1])] = true
			}
			if strings.HasPrefix(strings.TrimSpace(line), "param(") {
				for _, m := range varRef.FindAllStringSubmatch(line, -1) {
					assigned[strings.ToLower(m[1])] = true
				}
			}
			for _, re := range []*regexp.Regexp{varAssign, foreachV} {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					assigned[strings.ToLower(m[1])] = true
				}
			}
			for _, m := range varRef.FindAllStringSubmatch(line, -1) {
				v := strings.ToLower(m[1])
				if !automatic[v] && !assigned[v] {
					problems = append(problems, fmt.Sprintf("variable $%s used before assignment in %q", m[1], strings.TrimSpace(line)))
				}
			}
			if !t.code {
				continue
			}
			for _, m := range command.FindAllStringSubmatch(line, -1) {
				if !cmdlets[m[1]] && !defined[m[1]] {
					problems = append(problems, fmt.Sprintf("unknown command %s in %q", m[1], strings.TrimSpace(line)))
				}
			}
		}
	}
	return problems
}

// TestScriptStructure runs the structural checks over every fixture
// host, and over broken scripts to show the checks can fail.
func TestScriptStructure(t *testing.T) {
	tuned := fcNode1()
	tuned.Tuning = true
	iwarp := qlogicHost()
	iwarp.NICs[0].Transport = model.TransportIWARP
	for _, h := range []model.Host{fcNode1(), workstation(), qlogicHost(), tuned, iwarp} {
		s := render(t, h)
		for _, p := range checkScript(s) {
			t.Errorf("%s: %s", h.Name, p)
		}
	}
	broken := map[string]string{
		"unbalanced brace":   "[CmdletBinding()]\nparam()\nif ($true) {\n",
		"unclosed string":    "Write-Host 'abc\n",
		"undefined variable": "$a = 1\nWrite-Host $b\n",
		"unknown command":    "Get-NetQosPolicyy -Name 'SMB'\n",
		"undeclared switch":  "[CmdletBinding()]\nparam(\n    [switch]$Check\n)\nif ($NoRestart) { exit 3 }\n",
		"wrong closer":       "if ($true) { Write-Host (1 }\n",
	}
	for name, s := range broken {
		if len(checkScript(s)) == 0 {
			t.Errorf("%s: checkScript found no problem in %q", name, s)
		}
	}
}
