package verify

// notConfigured is Compare's Actual for a model port the read-back has no
// settings for.
const notConfigured = "not in the switch's configuration"

// NameBundled rewrites each difference that says a port is not in the
// switch's configuration where the read-back shows the port as a bond
// member (State.Bundled): the port is there, as a member of that bond,
// whose settings it takes, and the difference names the bond (review
// rmlag #5; push refuses such a port naming the same bond). diffs is
// Compare's answer for got, changed in place and returned.
func NameBundled(diffs []Difference, got *State) []Difference {
	for i, d := range diffs {
		if what, ok := got.Bundled[d.Port]; ok && d.Field == "port" && d.Actual == notConfigured {
			diffs[i].Actual = what
		}
	}
	return diffs
}
