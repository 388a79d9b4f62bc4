package compiler

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/fabricc/fabricc/model"
)

// portNameRegexps are the platforms' port naming as regular expressions,
// with the number and the sub index captured: the definition
// portSyntax.parse was written from, and is checked against.
var portNameRegexps = map[model.Platform]*regexp.Regexp{
	model.PlatformOnyx:    regexp.MustCompile(`^1/([1-9][0-9]*)(?:/([1-9][0-9]*))?$`),
	model.PlatformEOS:     regexp.MustCompile(`^Ethernet(?:([1-9][0-9]*)/([1-9][0-9]*)/([1-9][0-9]*)|([1-9][0-9]*)(?:/([1-9][0-9]*))?)$`),
	model.PlatformCumulus: regexp.MustCompile(`^swp([1-9][0-9]*)(?:s([0-9]+))?$`),
}

// parseByRegexp is parsePortRef by the regular expression of p.
func parseByRegexp(p model.Platform, name string) (portRef, bool) {
	m := portNameRegexps[p].FindStringSubmatch(name)
	if m == nil {
		return portRef{}, false
	}
	r := portRef{}
	if len(m) == 6 { // EOS: slot/number/lane, or number[/lane]
		if m[1] != "" {
			r.slot, _ = strconv.Atoi(m[1])
			r.number, _ = strconv.Atoi(m[2])
			r.sub, _ = strconv.Atoi(m[3])
			r.hasSlot, r.hasSub = true, true
			return r, true
		}
		m = []string{m[0], m[4], m[5]}
	}
	r.number, _ = strconv.Atoi(m[1])
	if m[2] != "" {
		r.sub, _ = strconv.Atoi(m[2])
		r.hasSub = true
	}
	return r, true
}

// checkPortSyntax requires parsePortRef to take name apart on every
// platform as the platform's regular expression does.
func checkPortSyntax(t *testing.T, name string) {
	t.Helper()
	for p := range portNameRegexps {
		want, wantOK := parseByRegexp(p, name)
		got, ok := parsePortRef(p, name)
		if ok != wantOK || got != want {
			t.Errorf("parsePortRef(%s, %q) = %+v, %v; the regular expression gives %+v, %v", p, name, got, ok, want, wantOK)
		}
	}
}

func TestPortSyntaxIsRegexp(t *testing.T) {
	for _, name := range []string{
		"1/1", "1/64", "1/1/2", "1/01", "1/1/0", "1/1/", "1/", "2/1", "1/1/2/3", "1/1s2",
		"Ethernet1", "Ethernet1/1", "Ethernet49/4", "Ethernet0", "Ethernet1/0", "ethernet1", "Ethernet", "Ethernet1/1/1",
		"Ethernet3/36/8", "Ethernet3/1/1/1", "Ethernet0/1/1", "Ethernet3/0/1", "Ethernet3/1/", "Ethernet3//1",
		"swp1", "swp1s0", "swp1s00", "swp64s3", "swp0", "swp01", "swp1s", "swp1/1", "swp1s1s1", "swp",
		"", "swp99999999999999999999", "Ethernet9223372036854775808/1", "swp1s99999999999999999999", "swp１", "1/1\n",
	} {
		checkPortSyntax(t, name)
	}
	if _, ok := parsePortRef("junos", "1/1"); ok {
		t.Error(`parsePortRef("junos", "1/1") is a port; a platform without a syntax has none`)
	}
	if _, ok := (portSyntax{}).parse("1"); ok {
		t.Error(`the zero portSyntax takes "1" for a port; it names none`)
	}
}

func FuzzPortSyntaxIsRegexp(f *testing.F) {
	for _, s := range []string{"1/1/2", "Ethernet49/4", "swp1s00", "swp01"} {
		f.Add(s)
	}
	f.Fuzz(checkPortSyntax)
}
