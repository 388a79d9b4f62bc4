package verify

import (
	"reflect"
	"strings"
	"testing"
)

// TestNVUEOwnedProfiles: OwnedProfiles lists the profiles of fabricc's
// names with the interfaces that attach them, including interfaces
// named in a group key ("swp1,swp9", "swp3-4"), and only those;
// ParseNVUE keeps the ones no interface attaches, which Unowned notes.
func TestNVUEOwnedProfiles(t *testing.T) {
	const conf = `[{"header": {"model": "SN2100"}}, {"set": {
  "qos": {
    "pfc": {"default-global": {}, "pfc-sp3-100g-2m": {}, "pfc-sp4-100g-1m": {}, "pfc-sp3-storage": {}, "pfc-sp3_4-25g-7m-2": {}},
    "mapping": {"default-global": {}, "trust-both": {}, "trust-mine": {}}
  },
  "interface": {
    "swp1,swp9": {"qos": {"pfc": {"profile": "pfc-sp3-100g-2m"}}},
    "swp3-4": {"qos": {"mapping": {"profile": "trust-both"}, "pfc": {"profile": "pfc-sp3-storage"}}},
    "swp4": {"qos": {"pfc": {"profile": "pfc-sp3_4-25g-7m-2"}}}
  }}}]`
	got, err := ownedProfilesOf(conf)
	if err != nil {
		t.Fatal(err)
	}
	want := []ProfileUse{
		{Kind: "pfc", Name: "pfc-sp3-100g-2m", Users: []string{"swp1", "swp9"}},
		{Kind: "pfc", Name: "pfc-sp3_4-25g-7m-2", Users: []string{"swp4"}},
		{Kind: "pfc", Name: "pfc-sp4-100g-1m"},
		{Kind: "mapping", Name: "trust-both", Users: []string{"swp3", "swp4"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	s, err := ParseNVUE([]byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"qos pfc pfc-sp4-100g-1m"}; !reflect.DeepEqual(s.UnusedProfiles, want) {
		t.Errorf("unused profiles %q, want %q", s.UnusedProfiles, want)
	}
	notes := Unowned(NewState(), s)
	const note = "profiles named as fabricc names its own that no port uses: qos pfc pfc-sp4-100g-1m; not compared: the next push removes them (nv unset qos <kind> <name>)"
	if len(notes) != 1 || notes[0] != note {
		t.Errorf("notes %q, want %q", notes, note)
	}
	if got, err := ownedProfilesOf(`[{"header": {}}]`); err != nil || len(got) != 0 {
		t.Errorf("a configuration without a set object: %v, %v; want none", got, err)
	}
	if _, err := ownedProfilesOf("Error: no such command"); err == nil || !strings.Contains(err.Error(), "nv config show -o json") {
		t.Errorf("output that is not JSON: %v", err)
	}
}

// ownedProfilesOf is ParseNVUEConfig(doc).OwnedProfiles(), the decode's
// error if any.
func ownedProfilesOf(doc string) ([]ProfileUse, error) {
	c, err := ParseNVUEConfig([]byte(doc))
	if err != nil {
		return nil, err
	}
	return c.OwnedProfiles(), nil
}
