package cli

import (
	"reflect"
	"testing"
)

// testGrammar has the shapes the dialects use: abbreviable keywords,
// alternatives, optional elements, lists, the rest of a line, a dialect
// kind, and a known but unsimulated command.
var testGrammar = Compile([]Rule[*[]string]{
	{Syntax: "configure terminal", Do: record},
	{Syntax: "configure session <word>", Do: record},
	{Syntax: "copy <word> <word>"},
	{Syntax: "show running-config", Do: record},
	{Syntax: "show version", Do: record},
	{Syntax: "[no] shutdown", Do: record},
	{Syntax: "mtu <int> [force]", Do: record},
	{Syntax: "switchport {trunk|hybrid} allowed-vlan [{add|remove}] <list>", Do: record},
	{Syntax: "qos map dscp <list> to switch-priority <int>", Do: record},
	{Syntax: "description <rest>", Do: record},
	{Syntax: "interface ethernet <port>", Do: record},
	{Syntax: "interface ethernet <port> <rest>", Do: record},
}, map[string]string{"port": `\d+/\d+(?:-\d+/\d+)?`})

func record(s *[]string, m []string) error { *s = m; return nil }

func TestGrammarMatch(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // m, or nil when an error is expected
		err  *SyntaxError
	}{
		{"conf t", []string{"configure terminal"}, nil},
		{"CONFIGURE TERM", []string{"configure terminal"}, nil},
		{"conf s fabricc-1", []string{"configure session fabricc-1", "fabricc-1"}, nil},
		{"sho run", []string{"show running-config"}, nil},
		{"sho ver", []string{"show version"}, nil},
		{"sh ver", nil, &SyntaxError{Kind: Ambiguous, Token: 0, Word: "sh", Choices: []string{"show", "shutdown"}}},
		{"no shut", []string{"no shutdown", "no"}, nil},
		{"shutdown", []string{"shutdown", ""}, nil},
		{"mtu 9216 force", []string{"mtu 9216 force", "9216", "force"}, nil},
		{"mtu 9216", []string{"mtu 9216", "9216", ""}, nil},
		{"switchport trunk allowed-vlan add 10", []string{"switchport trunk allowed-vlan add 10", "trunk", "add", "10"}, nil},
		{"sw hy allowed-vlan 10,20-22 30", []string{"switchport hybrid allowed-vlan 10,20-22 30", "hybrid", "", "10,20-22 30"}, nil},
		{"qos map dscp 0 1 2 to switch-priority 3", []string{"qos map dscp 0 1 2 to switch-priority 3", "0 1 2", "3"}, nil},
		{`description "to gpu01 | port 1"`, []string{`description "to gpu01 | port 1"`, `"to gpu01 | port 1"`}, nil},
		{"int eth 1/1", []string{"interface ethernet 1/1", "1/1"}, nil},
		{"int eth 1/1-1/4 mtu 9216 force", []string{"interface ethernet 1/1-1/4 mtu 9216 force", "1/1-1/4", "mtu 9216 force"}, nil},
		{"c t", nil, &SyntaxError{Kind: Ambiguous, Token: 0, Word: "c", Choices: []string{"configure", "copy"}}},
		{"show bogus", nil, &SyntaxError{Kind: Invalid, Token: 1, Word: "bogus"}},
		{"mtu x", nil, &SyntaxError{Kind: Invalid, Token: 1, Word: "x"}},
		{"configure", nil, &SyntaxError{Kind: Incomplete, Token: 1}},
		{"qos map dscp 1 2", nil, &SyntaxError{Kind: Incomplete, Token: 5}},
	} {
		t.Run(tc.line, func(t *testing.T) {
			r, m, err := testGrammar.Match(tc.line)
			if tc.err != nil {
				if !reflect.DeepEqual(err, tc.err) {
					t.Fatalf("error %#v, want %#v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			var got []string
			if err := r.Do(&got, m); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("m = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestUnsimulatedCommandHasNoDo(t *testing.T) {
	r, _, err := testGrammar.Match("copy running-config startup-config")
	if err != nil || r.Do != nil {
		t.Fatalf("copy: rule %v error %v, want the Do-less rule", r, err)
	}
}

func TestFilters(t *testing.T) {
	cfg := "hostname s1\n!\ninterface Ethernet1/1\n   mtu 9214\n   !\n   tx-queue 3\n      no priority\n!\ninterface Ethernet2/1\n   no switchport\n!\nvlan 10\n   name a\n!\nend"
	for _, tc := range []struct {
		name, got, want string
	}{
		{"section ^interface", Section(cfg, "^interface"), "interface Ethernet1/1\n   mtu 9214\n   !\n   tx-queue 3\n      no priority\ninterface Ethernet2/1\n   no switchport"},
		{"section ^vlan", Section(cfg, "^vlan"), "vlan 10\n   name a"},
		{"section child", Section(cfg, "no priority"), "interface Ethernet1/1\n   tx-queue 3\n      no priority"},
		{"include", Include(cfg, "Ethernet"), "interface Ethernet1/1\ninterface Ethernet2/1"},
		{"exclude", Exclude("a\nb\n!\n", "!"), "a\nb"},
		{"begin", Begin(cfg, "^vlan"), "vlan 10\n   name a\n!\nend"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, tc.got, tc.want)
		}
	}
}

func TestPipeKeepsQuotedBars(t *testing.T) {
	cmd, f := Pipe(`show run | include "a|b" | json`)
	if cmd != "show run" || !reflect.DeepEqual(f, []string{`include "a|b"`, "json"}) {
		t.Fatalf("Pipe: %q %q", cmd, f)
	}
}
