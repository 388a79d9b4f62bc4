package inventory

import "testing"

// FuzzParse feeds arbitrary text to the inventory loader: it must never
// panic, and without errors it returns an inventory.
func FuzzParse(f *testing.F) {
	f.Add([]byte("known_hosts = \"kh\"\ndefaults {\n  username = \"admin\"\n  password_env = \"PW\"\n  command_timeout = \"60s\"\n}\ndevice \"spine1\" {\n  address = \"10.0.0.1\"\n  platform = \"eos\"\n  groups = [\"spines\"]\n}\n"))
	f.Add([]byte("device \"a\" {\n  address = \"[fd00::1]:2222\"\n  private_key = \"~/.ssh/id\"\n  passphrase_env = \"P\"\n}\n"))
	f.Add([]byte("defaults {\n  agent = true\n  connect_timeout = \"-1h\"\n}\ndevice \"b\" {\n  address = \"b\"\n  port = 70000\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		inv, _, diags := Parse(src, "inventory.hcl")
		if inv == nil && !diags.HasErrors() {
			t.Fatal("no inventory and no error")
		}
	})
}
